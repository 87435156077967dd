"""Every register-file model on every built-in workload: the program's output
still checks against its CPU reference, leaves the same device memory behind
as functional mode does (sim.digest), and the statistics are self-consistent
and deterministic, whatever the model does to timing.  New models are picked
up from `rfsim run --help`, so a model added to models.def is tested here
without touching this file."""
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from rfsim_test import check_slots, models, rfsim, workloads

JOBS = os.cpu_count() or 2
HOST = ("sim_seconds", "warp_inst_per_sec", "thread_inst_per_sec")


# workloads whose results depend on the order of racing threads, by design
RACY = {"bfs": "the queue kernel appends vertices in the order atomicAdd serves "
                "them, which follows the timing (bfs.cu)"}


def run(tmp, w, m, tag="", mode="timing"):
    path = tmp / f"{w}-{m}{tag}.json"
    p = rfsim("run", w, "--size", "small", "-s", f"rf.model={m}", "-s", "sim.digest=1",
              "-s", f"sim.mode={mode}", "--stats", path)
    st = json.loads(path.read_text()) if path.exists() else None
    return p.returncode, st, p.stderr


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    """(workload, model) -> (exit code, stats, stderr) of every timing run, and
    (workload, "functional") -> the functional run."""
    tmp = tmp_path_factory.mktemp("models")
    jobs = [(w, m) for m in models() + ["functional"] for w in workloads()]
    with ThreadPoolExecutor(JOBS) as ex:
        return dict(zip(jobs, ex.map(
            lambda j: run(tmp, j[0], "baseline", "-f", "functional") if j[1] == "functional"
            else run(tmp, *j), jobs)))


@pytest.mark.parametrize("config", ["maxwell-ltrf", "gebhart-isca11", "hopper-h100"])
def test_every_model_runs_on_every_config(config):
    """`rfsim compare` on the other built-in configs (two-level schedulers,
    sub-cores, other register files): every model, every workload, checks pass."""
    p = rfsim("compare", "--size", "small", "-c", config, "-j", str(JOBS))
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    n = len(models()) * len(workloads())
    assert f"{n} of {n} runs passed their checks" in p.stdout


def test_models_are_listed():
    assert models()[:2] == ["baseline", "ideal"]


def test_every_model_passes_every_workload(grid):
    bad = [f"{w} on {m}: exit {rc}\n{err[-2000:]}" for (w, m), (rc, st, err) in grid.items()
           if rc != 0 or not st or st["check"] != "pass"]
    assert not bad, "\n".join(bad)


def digests(st):
    return [(k["name"], k["memory_digest"]) for k in st["kernels"]]


def test_every_model_leaves_functional_modes_results(grid):
    """The device memory after every kernel is the same in timing mode under
    every model as in functional mode: the models' compiler passes and the
    timing model's interleaving change no result."""
    bad = []
    for w in workloads():
        ref = grid[(w, "functional")][1]
        assert ref and ref["check"] == "pass", (w, grid[(w, "functional")][2][-2000:])
        for m in models():
            st = grid[(w, m)][1]
            if w not in RACY and st and digests(st) != digests(ref):
                k = next(i for i, (a, b) in enumerate(zip(digests(st), digests(ref))) if a != b)
                bad.append(f"{w} on {m}: device memory differs after kernel {k} "
                           f"({digests(st)[k][0]})")
    assert not bad, "\n".join(bad)


def test_every_model_keeps_the_slot_accounting(grid):
    for (w, m), (rc, st, _) in grid.items():
        if not st or m == "functional":
            continue
        check_slots(st, (w, m))
        t = st["totals"]
        assert t["rfc_hits"] <= t["rfc_reads"], (w, m)


@pytest.mark.parametrize("w", ["sgemm", "bfs", "hotspot"])
def test_every_model_is_deterministic(tmp_path, grid, w):
    for m in models():
        rc, st, err = run(tmp_path, w, m, "-again")
        assert rc == 0, err
        a, b = grid[(w, m)][1], st
        for part in (a["totals"], b["totals"]):
            for k in HOST:
                part.pop(k, None)
        assert a["totals"] == b["totals"], f"{w} on {m}"


def test_rf_tech_is_the_same_as_its_keys_in_every_model(tmp_path):
    """rf.tech=3 (LTRF Table 2 #3: 8x capacity, 8x banks, 1.5x latency) on
    fermi-gtx480 is sm.registers 32768 x 8, rf.banks 16 x 8 and rf.mrf_latency
    1 -> 2 spelt out, in every model (each reads the scaled values)."""
    def totals(m, *sets, tag):
        path = tmp_path / f"{m}-{tag}.json"
        p = rfsim("run", "hotspot", "--size", "small", "-s", f"rf.model={m}", *sets,
                  "--stats", path)
        assert p.returncode == 0, p.stderr
        t = json.loads(path.read_text())["totals"]
        for k in HOST:
            t.pop(k, None)
        return t
    for m in models():
        a = totals(m, "-s", "rf.tech=3", tag="tech")
        b = totals(m, "-s", "sm.registers=262144", "-s", "rf.banks=128",
                   "-s", "rf.mrf_latency=2", tag="keys")
        diff = {k: (a[k], b[k]) for k in a if k != "energy" and a[k] != b[k]}
        assert not diff, f"{m}: {diff}"
