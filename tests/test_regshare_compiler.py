"""Register sharing, the compiler half (src/analysis/regshare.c; Jatala et
al., HPDC 2016, §4.1, §5.2, §6): the reordering pass renames allocated
registers by first use, and every built-in workload must still pass its
own output check with it on (-s regshare.enable=1), also at another
threshold, under maxrregcount=16 (spill code), and with the pass switched
off again (regshare.reorder=0).
`rfsim analyze --json` carries a "regshare" object per kernel whose numbers
hold together: CTAs with sharing = U + 2S >= CTAs without, which equal the
occupancy's; the figure of merit before and after reordering is the same
whether the pass ran (regshare.enable=1) or analyze only planned it; the
§6 storage is 273 bits on fermi-gtx480.  The arithmetic itself against the
paper's tables is tests/unit/test_regshare.c's.
"""

import json

import pytest

from rfsim_test import rfsim, workloads

MODES = {
    "reorder": ["-s", "regshare.enable=1"],
    "reorder_t05": ["-s", "regshare.enable=1", "-s", "regshare.threshold=0.5"],
    "no_reorder": ["-s", "regshare.enable=1", "-s", "regshare.reorder=0"],
    "spilled": ["-s", "regshare.enable=1", "-s", "maxrregcount=16"],   # spill code renamed too
}

KEYS = {"threshold", "shared_pairs", "unshared_ctas", "ctas_per_sm", "ctas_per_sm_unshared",
        "m_eq4", "unshared_regs_per_thread", "warp_unshared_regs", "warp_shared_regs",
        "first_shared_touch_before", "first_shared_touch_after", "reordered",
        "hw_bits_per_sm"}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("workload", workloads())
def test_workload_passes_with_regshare(workload, mode):
    # functional: the renamed code's results are the question, not its timing
    p = rfsim("run", workload, "--size", "small", "--functional", *MODES[mode])
    assert p.returncode == 0, f"{workload} {mode}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout


def analyze(workload, *sets):
    p = rfsim("analyze", workload, "--json", "-", *sets)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["kernels"]


@pytest.mark.parametrize("workload", ["hotspot", "lib", "mum", "btree", "saxpy"])
def test_analyze_regshare_json(workload):
    off = analyze(workload)
    on = analyze(workload, "-s", "regshare.enable=1")
    assert len(off) == len(on) > 0
    for a, b in zip(off, on):
        r, s = a["regshare"], b["regshare"]
        assert set(r) == KEYS and set(s) == KEYS
        assert r["threshold"] == pytest.approx(0.1)
        assert not r["reordered"] and s["reordered"]
        assert r["ctas_per_sm_unshared"] == a["occupancy"]["ctas_per_sm"]
        assert r["ctas_per_sm"] == r["unshared_ctas"] + 2 * r["shared_pairs"]
        assert r["ctas_per_sm"] >= r["ctas_per_sm_unshared"]
        assert r["unshared_regs_per_thread"] == int(a["regs_per_thread"] * 0.1 + 1e-9)
        assert r["hw_bits_per_sm"] == 273
        # planned (pass off) and done (pass on) agree; the register count is kept
        assert b["regs_per_thread"] == a["regs_per_thread"]
        for k in ("first_shared_touch_before", "first_shared_touch_after", "ctas_per_sm",
                  "shared_pairs"):
            assert r[k] == s[k], (a["name"], k)


def test_hotspot_shares():
    # rfsim's hotspot: 45 registers x 256 threads, register-limited on Fermi
    (k,) = analyze("hotspot", "-b", "256")
    r = k["regshare"]
    assert k["occupancy"]["limiter"] == "registers"
    assert r["shared_pairs"] > 0 and r["ctas_per_sm"] > r["ctas_per_sm_unshared"]


def test_threshold_one_shares_nothing():
    for k in analyze("hotspot", "-s", "regshare.threshold=1"):
        r = k["regshare"]
        assert r["shared_pairs"] == 0 and r["first_shared_touch_before"] == -1


def test_dump_and_text():
    p = rfsim("analyze", "hotspot", "-s", "regshare.enable=1", "-s", "compiler.dump=r")
    assert p.returncode == 0, p.stderr
    assert "registers renamed by first use" in p.stderr
    assert "regshare" in p.stdout and "bits per SM" in p.stdout
    assert rfsim("run", "saxpy", "-s", "regshare.threshold=0").returncode == 2
