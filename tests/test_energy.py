"""test_energy.py -- the register-file energy model end to end (src/energy/energy.c):
the "energy" object of the stats JSON, the normalization to the baseline design,
rf.tech's power factor, `run`'s energy line, `compare`'s energy column, energy in
sweeps and plots, and the energy rows of `rfsim reproduce`.  Hand-computed
energies of a tiny kernel are in tests/unit/test_energy.c."""
import json

import pytest

from rfsim_test import rfsim

WLS = ["saxpy", "sgemm"]
KEYS = ("mrf_pj", "rfc_pj", "wire_pj", "total_pj", "baseline_pj", "total_normalized",
        "rfc_entries_per_lane", "mrf_area_mm2", "rfc_area_mm2", "area_mm2",
        "area_normalized")


def ok(p):
    assert p.returncode == 0, p.stdout + p.stderr
    return p


def stats(tmp_path, wl, *sets, cfg="gebhart-isca11"):
    out = tmp_path / ("s%d.json" % len(list(tmp_path.iterdir())))
    args = ["run", wl, "--size", "small", "-c", cfg, "--stats", out]
    for s in sets:
        args += ["-s", s]
    ok(rfsim(*args))
    return json.loads(out.read_text())


def near(a, b):
    return abs(a - b) <= 1e-9 * (1 + abs(b))


@pytest.mark.parametrize("wl", WLS)
def test_energy_json_and_baseline_normalization(tmp_path, wl):
    for tech in (0, 1):
        s = stats(tmp_path, wl, "rf.model=baseline", f"rf.tech={tech}")
        t = s["totals"]
        for k in KEYS:
            assert k in t["energy"], k
        for k in s["kernels"]:
            assert "energy" in k and "total_normalized" in k["energy"]
        e = t["energy"]
        assert t["reg_reads"] == t["mrf_reads"] > 0 and t["reg_writes"] == t["mrf_writes"] > 0
        assert e["total_normalized"] == 1 and e["rfc_pj"] == 0
        assert near(e["mrf_pj"], 8 * (8 * t["mrf_reads"] + 11 * t["mrf_writes"]))
        assert near(e["wire_pj"], 32 * 1.9 * 1 * (t["mrf_reads"] + t["mrf_writes"]))
        assert near(e["total_pj"], e["mrf_pj"] + e["wire_pj"])
        assert e["area_normalized"] == 1 and near(e["mrf_area_mm2"], 32 * 0.038)
        # the kernels' energies add up to the totals'
        assert near(sum(k["energy"]["total_pj"] for k in s["kernels"]), e["total_pj"])


def test_tech_power_scales_mrf_energy(tmp_path):
    base = stats(tmp_path, "sgemm", "rf.tech=0")["totals"]
    for tech, power, area in ((6, 1.05, 8), (7, 0.65, 0.25)):
        t = stats(tmp_path, "sgemm", f"rf.tech={tech}")["totals"]
        e, b = t["energy"], base["energy"]
        # the same accesses, a different technology
        assert t["mrf_reads"] == base["mrf_reads"] and t["mrf_writes"] == base["mrf_writes"]
        assert near(e["mrf_pj"], power * b["mrf_pj"]) and near(e["wire_pj"], b["wire_pj"])
        assert near(e["baseline_pj"], b["baseline_pj"])
        assert near(e["total_normalized"], (power * b["mrf_pj"] + b["wire_pj"]) / b["total_pj"])
        assert near(e["mrf_read_pj"], 8 * power) and near(e["area_normalized"], area)


def test_access_counts_do_not_depend_on_the_model(tmp_path):
    a = stats(tmp_path, "sgemm", "rf.model=baseline")["totals"]
    b = stats(tmp_path, "sgemm", "rf.model=ideal", "rf.tech=7")["totals"]
    assert a["reg_reads"] == b["reg_reads"] and a["reg_writes"] == b["reg_writes"]
    assert a["energy"]["baseline_pj"] == b["energy"]["baseline_pj"]
    assert b["energy"]["total_normalized"] < 1


def test_energy_keys_change_the_energy_only(tmp_path):
    a = stats(tmp_path, "saxpy")["totals"]
    b = stats(tmp_path, "saxpy", "energy.mrf_alu_mm=0", "energy.mrf_read_pj=4")["totals"]
    assert a["cycles"] == b["cycles"] and a["mrf_reads"] == b["mrf_reads"]
    assert b["energy"]["wire_pj"] == 0
    assert near(b["energy"]["mrf_pj"], 8 * (4 * a["mrf_reads"] + 11 * a["mrf_writes"]))
    assert b["energy"]["total_normalized"] == 1
    p = rfsim("run", "saxpy", "--size", "small", "-s", "energy.wire_pj_mm=-1")
    assert p.returncode == 2 and "energy.wire_pj_mm" in p.stderr


def test_run_prints_energy_line():
    out = ok(rfsim("run", "saxpy", "--size", "small")).stdout
    line = [l for l in out.splitlines() if l.startswith("register energy")]
    assert len(line) == 1 and "1.000 of the baseline design's" in line[0], out
    assert "register energy" not in ok(rfsim("run", "saxpy", "--size", "small",
                                             "--functional")).stdout


def test_compare_energy_column(tmp_path):
    csv = tmp_path / "c.csv"
    p = ok(rfsim("compare", "saxpy", "--size", "small", "--models", "baseline,ideal",
                 "-s", "rf.tech=7", "--csv", csv, "-j", "1"))
    assert "energy" in p.stdout.splitlines()[2]
    rows = [r.split(",") for r in csv.read_text().splitlines()]
    assert rows[0][-1] == "energy_norm"
    e = {r[1]: float(r[-1]) for r in rows[1:3]}
    assert 0.5 < e["baseline"] < 1 and e["baseline"] == e["ideal"]


def test_energy_in_sweeps_and_plots(tmp_path):
    sw = tmp_path / "e.sweep"
    sw.write_text("workloads = saxpy\nconfigs = gebhart-isca11\nsize = small\n"
                  "axis rf.tech = 0, 7\n")
    ok(rfsim("sweep", sw, "-j", "1", "-q"))
    res = tmp_path / "e.results" / "results.csv"
    head = res.read_text().splitlines()[0].split(",")
    assert "energy.total_normalized" in head and "energy.mrf_pj" in head
    p = ok(rfsim("plot", res, "--x", "rf.tech", "--y", "energy.total_normalized",
                 "-o", tmp_path / "e.svg"))
    rows = [l.split() for l in p.stdout.splitlines()]
    vals = {r[0]: float(r[1]) for r in rows if len(r) == 2 and r[0] in ("0", "7")}
    assert vals["0"] == 1 and 0.5 < vals["7"] < 1


def test_reproduce_energy_rows(tmp_path):
    """The energy rows name models that may not be in this build (rfc, ltrf): such a row
    is skipped with a note, not failed; otherwise it runs and prints the paper beside."""
    lst = ok(rfsim("reproduce", "--list")).stdout
    for name in ("gebhart-energy", "gebhart-energy-ipc", "gebhart-wire", "ltrf-power"):
        assert name in lst
    models = ok(rfsim("run", "--help")).stdout
    p = ok(rfsim("reproduce", "ltrf-power", "--size", "small", "-w", "saxpy", "-j", "1",
                 "-o", tmp_path / "r"))
    md = (tmp_path / "r" / "report.md").read_text()
    if "ltrfplus" not in models:
        assert "rf.model=ltrfplus" in md and "was not run" in md
        assert "skipped" in p.stderr
    else:
        assert "energy.total_normalized" in md and "0.539 (46.1% less power)" in md
