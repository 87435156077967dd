"""The pressure-reducing scheduler end to end (src/analysis/schedule.c).

Every built-in workload runs at --size small with compiler.schedule=pressure
and =none and must pass its own output check both ways (the rest of the
suite runs the default, latency), and sad_search, whose PTX unpacks every byte
before the chain of sad that consumes them, needs fewer registers
scheduled than in nvcc's order, without spilling.  test_schedule.c checks
the reordering itself on every PTX function of the repository.
"""
import json

import pytest

from rfsim_test import rfsim, workloads


@pytest.mark.parametrize("sched", ["pressure", "none"])
@pytest.mark.parametrize("workload", workloads())
def test_workload_passes_scheduled_or_not(workload, sched):
    p = rfsim("run", workload, "--size", "small", "-s", f"compiler.schedule={sched}")
    assert p.returncode == 0, f"{workload} schedule={sched}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout


def kernel(sched, name):
    p = rfsim("analyze", "sad", "--json", "-", "-s", f"compiler.schedule={sched}")
    assert p.returncode == 0, p.stderr
    return next(k for k in json.loads(p.stdout)["kernels"] if k["name"] == name)


def test_sad_search_needs_fewer_registers():
    before, after = kernel("none", "sad_search"), kernel("pressure", "sad_search")
    assert after["regs_per_thread"] < before["regs_per_thread"] - 8, (before, after)
    assert after["pressure"] < before["pressure"]
    assert after["spills"] == 0 and before["spills"] == 0
    assert after["instructions"] == before["instructions"]
