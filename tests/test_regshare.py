"""Register sharing, the hardware half (src/timing/rf/rf_regshare.c, rf.model=regshare;
Jatala et al., HPDC 2016, §4-§7), end to end on the built-in workloads:

- program output: every register-limited workload passes its own check under
  rf.model=regshare with each optimization switched off in turn, and all off;
- no deadlock: at every threshold t from 0.1 to 1, on one SM (so its CTAs pile
  up and pairs really share), the runs finish and pass;
- register-insensitive workloads: with owner-warp-first off and the renaming
  off, the statistics equal the baseline's exactly (the extra CTAs never
  exist); OWF only reorders warps, and the renaming only moves bank conflicts;
- statistics hold together (warps launched, locks, resident CTAs, idle and
  stall slots), and are deterministic;
- bad values of the new keys are errors (exit 2).
The exact-cycle cases (the lock, Figure 5's deadlock) and the admission
arithmetic are tests/unit/test_rf_regshare.c's.
"""

import json

import pytest

from rfsim_test import rfsim

LIMITED = ["sgemm", "hotspot", "dwt2d", "sad", "mum", "mriq"]
INSENSITIVE = ["saxpy", "reduce", "backprop", "spmv"]

VARIANTS = {
    "all": [],
    "no_owf": ["-s", "regshare.owf=0"],
    "no_reorder": ["-s", "regshare.reorder=0"],
    "no_dynamic": ["-s", "regshare.dynamic=0"],
    "none": ["-s", "regshare.owf=0", "-s", "regshare.reorder=0", "-s", "regshare.dynamic=0"],
}

HOST = {"sim_seconds", "warp_inst_per_sec", "thread_inst_per_sec"}

# register counts of the pressure-minimising order, which the CTA limits and
# the lists above were taken on: compiler.schedule=latency (the default)
# counts as ptxas does, and makes saxpy and reduce_u32 register-limited on
# fermi-gtx480 (26 and 22 registers: 32 and 40 warps of 48)
PRESSURE = ["-s", "compiler.schedule=pressure"]


def stats(tmp_path, workload, *args, name="s"):
    out = tmp_path / f"{name}.json"
    p = rfsim("run", workload, "--size", "small", "--stats", out, *args)
    assert p.returncode == 0, f"{workload} {args}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout
    return json.loads(out.read_text())


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("workload", LIMITED)
def test_output_correct_under_each_optimization(tmp_path, workload, variant):
    # two SMs: SM 0 is dynamic warp execution's reference, SM 1 steers by it
    s = stats(tmp_path, workload, "-s", "rf.model=regshare", "-s", "sm.count=2",
              *VARIANTS[variant])
    t = s["totals"]
    assert t["rs_shared_warps"] + t["rs_unshared_warps"] > 0
    assert t["rs_lock_acquires"] <= t["rs_shared_warps"]
    if variant in ("no_dynamic", "none"):
        assert t["rs_dyn_denied"] == 0


@pytest.mark.parametrize("t", ["0.1", "0.3", "0.5", "0.7", "0.9", "1"])
def test_no_deadlock_at_any_threshold(tmp_path, t):
    for w in ("hotspot", "dwt2d", "sad", "mum"):
        s = stats(tmp_path, w, "-s", "rf.model=regshare", "-s", "sm.count=1",
                  "-s", f"regshare.threshold={t}")
        tot = s["totals"]
        if t == "1":                     # nothing shared: M = g
            assert tot["rs_shared_warps"] == 0
        assert tot["resident_ctas_per_sm"] <= tot["ctas_per_sm_limit"] + 1e-9


def test_sharing_raises_resident_ctas_on_one_sm(tmp_path):
    base = stats(tmp_path, "hotspot", "-s", "sm.count=1", *PRESSURE, name="b")["totals"]
    # dynamic warp execution off: on SM 0, the reference, it would hold the non-owner
    # warps at their first memory instruction, before any shared register
    rs = stats(tmp_path, "hotspot", "-s", "sm.count=1", "-s", "rf.model=regshare",
               "-s", "regshare.dynamic=0", *PRESSURE, name="r")["totals"]
    assert base["ctas_per_sm_limit"] == 2          # 256 threads x 32 registers: g = 2
    assert rs["ctas_per_sm_limit"] == 4            # t = 0.1: S = 2 pairs, U = 0
    assert rs["resident_ctas_per_sm"] > base["resident_ctas_per_sm"]
    assert rs["rs_shared_warps"] > 0 and rs["rs_unshared_warps"] == 0
    assert rs["rs_lock_acquires"] == rs["rs_shared_warps"]   # every warp touches R(u)..
    assert rs["rs_lock_wait_cycles"] > 0
    assert rs["stall_rf"] > 0                      # lock waits (idle, not pipeline stalls)
    for s in (base, rs):
        slots = s["cycles"] * 1 * 2                 # one SM, two schedulers
        assert s["sched_idle"] + s["sched_stall"] + s["issued"] == slots
    assert base["warp_instructions"] == rs["warp_instructions"]


@pytest.mark.parametrize("workload", INSENSITIVE)
def test_register_insensitive_unchanged(tmp_path, workload):
    base = stats(tmp_path, workload, *PRESSURE, name="b")["totals"]
    rs = stats(tmp_path, workload, "-s", "rf.model=regshare", "-s", "regshare.owf=0",
               "-s", "regshare.reorder=0", *PRESSURE, name="r")["totals"]
    assert rs["rs_shared_warps"] == 0 and rs["rs_lock_acquires"] == 0
    assert rs["rs_unshared_warps"] > 0
    for k, v in base.items():
        if k not in HOST and not k.startswith("rs_"):
            assert rs[k] == v, (k, v, rs[k])
    # with the renaming the same instructions run; only bank conflicts move
    rn = stats(tmp_path, workload, "-s", "rf.model=regshare", "-s", "regshare.owf=0",
               *PRESSURE, name="n")["totals"]
    assert rn["warp_instructions"] == base["warp_instructions"]
    assert rn["mrf_reads"] == base["mrf_reads"]


def test_deterministic(tmp_path):
    a = stats(tmp_path, "dwt2d", "-s", "rf.model=regshare", "-s", "sm.count=2", *PRESSURE,
              name="a")
    b = stats(tmp_path, "dwt2d", "-s", "rf.model=regshare", "-s", "sm.count=2", *PRESSURE,
              name="b")
    for k in a["totals"]:
        if k not in HOST:
            assert a["totals"][k] == b["totals"][k], k
    assert a["totals"]["rs_dyn_denied"] > 0        # SM 0 held non-owner memory back


def test_baseline_has_no_regshare_counts(tmp_path):
    t = stats(tmp_path, "hotspot", "-s", "sm.count=1")["totals"]
    assert all(t[k] == 0 for k in t if k.startswith("rs_"))
    assert "resident_ctas_per_sm" in t


@pytest.mark.parametrize("kv", ["regshare.threshold=0", "regshare.owf=2", "regshare.dynamic=x",
                                "regshare.dyn_period=0", "regshare.dyn_step=1.5"])
def test_bad_values_exit_2(kv):
    p = rfsim("run", "saxpy", "--size", "small", "-s", "rf.model=regshare", "-s", kv)
    assert p.returncode == 2, p.stderr
    assert kv.split("=")[0] in p.stderr


def test_twolevel_config_runs_under_lrr():
    """Non-owner warps waiting for a lock would hold a two-level active set
    for good (§7.2): a twolevel config runs register sharing under lrr, the
    same cycles as asking for lrr."""
    def cycles(*sets):
        p = rfsim("run", "hotspot", "--size", "small", "-s", "rf.model=regshare",
                  "-s", "regshare.owf=0", *sets)   # without OWF the policy shows
        assert p.returncode == 0 and "PASS" in p.stdout, p.stderr
        return [l for l in p.stdout.splitlines() if l.startswith("cycles")]
    assert cycles("-s", "sched.policy=twolevel") == cycles("-s", "sched.policy=lrr")
    assert cycles("-s", "sched.policy=twolevel") != cycles("-s", "sched.policy=gto")
