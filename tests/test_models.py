"""Every register-file model on every built-in workload: the program's output
still checks against its CPU reference, the statistics are self-consistent
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


def run(tmp, w, m, tag=""):
    path = tmp / f"{w}-{m}{tag}.json"
    p = rfsim("run", w, "--size", "small", "-s", f"rf.model={m}", "--stats", path)
    st = json.loads(path.read_text()) if path.exists() else None
    return p.returncode, st, p.stderr


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("models")
    jobs = [(w, m) for m in models() for w in workloads()]
    with ThreadPoolExecutor(JOBS) as ex:
        return dict(zip(jobs, ex.map(lambda j: run(tmp, *j), jobs)))


def test_models_are_listed():
    assert models()[:2] == ["baseline", "ideal"]


def test_every_model_passes_every_workload(grid):
    bad = [f"{w} on {m}: exit {rc}\n{err[-2000:]}" for (w, m), (rc, st, err) in grid.items()
           if rc != 0 or not st or st["check"] != "pass"]
    assert not bad, "\n".join(bad)


def test_every_model_keeps_the_slot_accounting(grid):
    for (w, m), (rc, st, _) in grid.items():
        if not st:
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
