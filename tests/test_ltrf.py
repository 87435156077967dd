"""LTRF and LTRF+ hardware (issue 8, items 4 and 6): rf.model=ltrf and
ltrfplus (src/timing/rf/rf_ltrf.c).

Exact counts on two hand-written kernels (one warp, maxwell-ltrf: 16 MRF
banks, 1-cycle MRF, crossbar 4x narrower = 4 registers per cycle and 3
cycles longer), worked out by hand from `rfsim analyze --listing`:

tests/ptx/ltrf_wide.ptx: 20 values live until a final sum, straight-line
code.  Three register-intervals (N = 16):
  I0 pcs 1-15   {R0..R15}                          15 instructions
  I1 pcs 17-31  {R0..R9, R16..R21}                 15
  I2 pcs 33-45  {R0, R1, R10..R21}                 13
  LTRF:  fetches 16 + |I1-I0| 6 + |I2-I1| 6 = 28; registers leaving the
         cache |I0-I1| 6 + |I1-I2| 8 = 14 (none at exit), all at
         PREFETCHes, of which the 4 that pcs 12-15 write (%r12..%r15)
         still have their results in flight at the PREFETCH at pc 16:
         those are not written back, the results go to the MRF when they
         arrive (4 late writes), so 10 write-backs and 14 MRF writes.  Waits: I0 16 fills over 4 lanes, last granted at t+4,
         in at t+4+1+3 = t+8; I1 and I2 6 fills each (write-backs go to
         the MRF's write buffer), 4 + 2 over the lanes: t+6: 20 cycles.
  LTRF+: the liveness vector starts empty, so I0's 16 are allocated
         unfetched; I1's new R16..R21 are not yet written (6 more); its
         leaving R10..R15 are all read later: %rd10's 2 written back, the
         4 in flight written by their results; I2's leaving
         R2..R9 are dead (8 write-backs avoided), its new R10..R15 live
         (6 fetches, 4 + 2 over the lanes: t+6).
  Optimal intervals (6.5) on the trace are the same three runs.

tests/ptx/ltrf_stall.ptx: one interval {R0..R5}; the warp waits on a
global load at pc 9 and the two-level scheduler deactivates it, then
reactivates it when the load returns (2 activations).
  LTRF:  6 fetched; at the stall %r1 (the load) and %r4 (pc 8's add)
         have results in flight: 4 written back, 2 late writes; 6
         refetched.  One deactivation for the load, one at exit.
  LTRF+: 6 allocated unfetched at the PREFETCH; at the stall R0 and R5
         are dead (their last reads were pcs 8 and 7): 2 avoided, of the
         4 live ones %rd2's 2 written back and %r1 and %r4 in flight;
         reactivation refetches the 4 live ones and allocates the
         2 dead ones (8 fetches avoided in all).  Its refetch waits
         1 + 1 + 3 = 5 cycles.

tests/ptx/ltrf_barrier.ptx: ltrf_wide.ptx with a bar.sync as the last
instruction of I0.  The lone warp is deactivated at it and reactivated
when it is released, its next instruction I1's PREFETCH: it is not in the
middle of an interval (4.2), so nothing is refetched and the PREFETCH
fetches all 16 of I1's set.
  LTRF:  fetches 16 + 16 + |I2-I1| 6 = 38, no refetch (before issue 21:
         16 refetched, then 6 more at the PREFETCH: 44).

Then invariants on a few suite workloads at --size small: outputs pass,
every operand comes from the cache (rfc_hits == rfc_reads; btree's
diverged paths resume in other intervals than the warp holds), pseudo-ops
are not warp instructions, optimal intervals are no more than real ones,
`-s rf.model=ltrf` alone inserts PREFETCHes, and the two-level scheduler
is used whatever sched.policy says.
"""

import json
import struct

import pytest

from rfsim_test import ROOT, rfsim

MODELS = ["ltrf", "ltrfplus"]
# the counts above were worked out on nvcc's instruction order: no scheduling
KARGS = ["-c", "maxwell-ltrf", "-g", "1", "-b", "32", "-a", "buf:u32:4:zero", "-a", "u32:3",
         "-s", "compiler.schedule=none"]


def stats(what, *opts, tmp_path):
    out = tmp_path / "s.json"
    p = rfsim("run", what, *opts, "--stats", out)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(out.read_text())["totals"], p.stdout


def micro(name, model, tmp_path):
    t, _ = stats(ROOT / "tests" / "ptx" / f"ltrf_{name}.ptx", *KARGS, "-s",
                 f"rf.model={model}", tmp_path=tmp_path)
    return t


WIDE = {
    "ltrf": dict(ltrf_prefetches=3, ltrf_regs_prefetched=28, ltrf_dead_fetches_avoided=0,
                 rfc_writebacks=10, rfc_dead_writebacks_avoided=0, ltrf_activations=1,
                 ltrf_refetches=0, ltrf_wait_cycles=20, mrf_reads=28, mrf_writes=14,
                 ltrf_wb_prefetch=10, ltrf_wb_deactivate=0, ltrf_wb_inflight=4,
                 ltrf_wb_clean=0, ltrf_late_writes=4, activations=1, deact_exit=1,
                 deact_longlat=0),
    "ltrfplus": dict(ltrf_prefetches=3, ltrf_regs_prefetched=6, ltrf_dead_fetches_avoided=22,
                     rfc_writebacks=2, rfc_dead_writebacks_avoided=8, ltrf_activations=1,
                     ltrf_refetches=0, ltrf_wait_cycles=6, mrf_reads=6, mrf_writes=6,
                     ltrf_wb_prefetch=2, ltrf_wb_inflight=4, ltrf_late_writes=4),
}
STALL = {
    "ltrf": dict(ltrf_prefetches=1, ltrf_regs_prefetched=6, ltrf_dead_fetches_avoided=0,
                 rfc_writebacks=4, rfc_dead_writebacks_avoided=0, ltrf_activations=2,
                 ltrf_refetches=6, mrf_reads=12, mrf_writes=6, ltrf_wb_deactivate=4,
                 ltrf_wb_prefetch=0, ltrf_wb_inflight=2, ltrf_late_writes=2,
                 activations=2, deact_longlat=1, deact_longlat_l1hit=0, deact_exit=1),
    "ltrfplus": dict(ltrf_prefetches=1, ltrf_regs_prefetched=0, ltrf_dead_fetches_avoided=8,
                     rfc_writebacks=2, rfc_dead_writebacks_avoided=2, ltrf_activations=2,
                     ltrf_refetches=4, ltrf_wait_cycles=5, mrf_reads=4, mrf_writes=4,
                     ltrf_wb_deactivate=2, ltrf_wb_inflight=2, ltrf_late_writes=2),
}


@pytest.mark.parametrize("model", MODELS)
def test_wide_exact(model, tmp_path):
    t = micro("wide", model, tmp_path)
    for k, v in WIDE[model].items():
        assert t[k] == v, (k, t[k], v)
    assert t["warp_instructions"] == 43 and t["issued"] == 46   # 3 PREFETCHes take slots
    assert (t["ltrf_intervals"], t["ltrf_ivl_insts"], t["ltrf_ivl_min"], t["ltrf_ivl_max"]) == \
        (3, 43, 13, 15)
    assert (t["ltrf_opt_intervals"], t["ltrf_opt_insts"], t["ltrf_opt_min"],
            t["ltrf_opt_max"]) == (3, 43, 13, 15)
    assert t["rfc_hits"] == t["rfc_reads"] == 61


@pytest.mark.parametrize("model", MODELS)
def test_stall_exact(model, tmp_path):
    t = micro("stall", model, tmp_path)
    for k, v in STALL[model].items():
        assert t[k] == v, (k, t[k], v)
    assert t["rfc_hits"] == t["rfc_reads"]


def test_output_identical(tmp_path):
    """same buffers under baseline, ltrf, ltrfplus and strand-LTRF"""
    dumps = []
    for opts in (["rf.model=baseline"], ["rf.model=ltrf"], ["rf.model=ltrfplus"],
                 ["rf.model=ltrf", "ltrf.partition=strand"]):
        d = tmp_path / "_".join(opts).replace("=", "-")
        sets = [a for o in opts for a in ("-s", o)]
        p = rfsim("run", ROOT / "tests" / "ptx" / "ltrf_wide.ptx", *KARGS, *sets, "--dump", d)
        assert p.returncode == 0, p.stderr
        dumps.append((d / "arg0.bin").read_bytes())
    assert dumps[0] == struct.pack("<4I", sum(3 * (i + 2) for i in range(1, 21)), 0, 0, 0)
    assert all(x == dumps[0] for x in dumps)


SUITE = ["sgemm", "bfs", "hotspot", "kmeans", "btree"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("workload", SUITE)
def test_suite_invariants(workload, model, tmp_path):
    t, out = stats(workload, "--size", "small", "-c", "maxwell-ltrf", "-s", f"rf.model={model}",
                   tmp_path=tmp_path)
    assert "check                PASS" in out
    assert t["issued"] == t["warp_instructions"] + t["ltrf_prefetches"]   # no instruction
    assert t["ltrf_prefetches"] > 0 and t["rfc_reads"] > 0
    assert t["rfc_hits"] == t["rfc_reads"], "an operand was not in the register cache"
    assert t["ltrf_ivl_insts"] == t["warp_instructions"] == t["ltrf_opt_insts"]
    assert t["ltrf_opt_intervals"] <= t["ltrf_intervals"] <= \
        t["ltrf_prefetches"] + t["ltrf_resumes"]
    assert 1 <= t["ltrf_ivl_min"] <= t["ltrf_ivl_mean"] <= t["ltrf_ivl_max"]
    assert t["ltrf_opt_min"] <= t["ltrf_opt_mean"] <= t["ltrf_opt_max"]
    assert t["ltrf_refetches"] <= 0 or t["ltrf_activations"] > 0
    check_breakdowns(t)
    if model == "ltrf":
        assert t["ltrf_dead_fetches_avoided"] == 0 and t["rfc_dead_writebacks_avoided"] == 0


@pytest.mark.parametrize("model", MODELS)
def test_no_refetch_before_prefetch(model, tmp_path):
    t = micro("barrier", model, tmp_path)
    assert (t["activations"], t["deact_barrier"], t["deact_exit"]) == (2, 1, 1)
    assert t["ltrf_refetches"] == 0
    if model == "ltrf":
        assert t["ltrf_regs_prefetched"] == t["mrf_reads"] == 38
    check_breakdowns(t)


def test_one_write_per_value(tmp_path):
    """a register evicted with its result in flight is written to the MRF
    once (by its result), not also written back: the wide kernel's 4"""
    t = micro("wide", "ltrf", tmp_path)
    assert t["ltrf_wb_inflight"] == t["ltrf_late_writes"] == 4
    assert t["mrf_writes"] == 14                # the 14 registers that left the cache


def check_breakdowns(t):
    """the by-cause counters add up to the totals they break down"""
    # every MRF read is a fill (PREFETCH, of which a diverged path's resume;
    # reactivation) or an operand the cache did not hold (none here)
    assert t["mrf_reads"] == t["ltrf_regs_prefetched"] + t["ltrf_refetches"] + \
        t["ltrf_miss_reads"]
    assert t["ltrf_miss_reads"] == t["rfc_reads"] - t["rfc_hits"] == 0
    assert t["ltrf_resume_fills"] <= t["ltrf_regs_prefetched"]
    assert t["ltrf_resume_fills"] == 0 or t["ltrf_resumes"] > 0
    # every MRF write is a write-back (PREFETCH, resume, deactivation) or a
    # result that arrived after its register left the cache
    assert t["rfc_writebacks"] == t["ltrf_wb_prefetch"] + t["ltrf_wb_resume"] + \
        t["ltrf_wb_deactivate"]
    assert t["mrf_writes"] == t["rfc_writebacks"] + t["ltrf_late_writes"]
    assert t["ltrf_wb_clean"] <= t["rfc_writebacks"]
    # a register that left the cache with its result in flight was not
    # written back: its result is the one MRF write (LTRF+: also a dead one's)
    assert t["ltrf_late_writes"] <= t["ltrf_wb_inflight"] or t["rfc_dead_writebacks_avoided"]
    # each warp the two-level scheduler activated left the active set once
    # for one of the counted reasons (at the latest when it exited)
    deact = sum(v for k, v in t.items() if k.startswith("deact_") and k != "deact_longlat_l1hit")
    assert deact == t["activations"] == t["ltrf_activations"] > 0
    assert t["deact_exit"] > 0 and t["deact_rfwait"] == t["deact_marked"] == 0
    assert t["deact_longlat_l1hit"] <= t["deact_longlat"]


@pytest.mark.parametrize("model", MODELS)
def test_breakdowns_micro(model, tmp_path):
    for name in ("wide", "stall", "barrier"):
        check_breakdowns(micro(name, model, tmp_path))


def test_deactivation_counts_other_schedulers(tmp_path):
    """deact_* count the two-level scheduler under any model, nothing under LRR"""
    t, _ = stats("hotspot", "--size", "small", "-c", "gebhart-isca11", "-s", "rf.model=rfc",
                 tmp_path=tmp_path)
    deact = sum(v for k, v in t.items() if k.startswith("deact_") and k != "deact_longlat_l1hit")
    assert deact == t["activations"] > 0 and t["deact_barrier"] > 0
    assert t["ltrf_activations"] == 0
    t, _ = stats("hotspot", "--size", "small", "-c", "fermi-gtx480", tmp_path=tmp_path)
    assert t["activations"] == 0
    assert all(v == 0 for k, v in t.items() if k.startswith("deact_"))


def test_plus_saves(tmp_path):
    """LTRF+ fetches and writes back no more than LTRF, fewer on sgemm"""
    a, _ = stats("sgemm", "--size", "small", "-c", "maxwell-ltrf", "-s", "rf.model=ltrf",
                 tmp_path=tmp_path)
    p, _ = stats("sgemm", "--size", "small", "-c", "maxwell-ltrf", "-s", "rf.model=ltrfplus",
                 tmp_path=tmp_path)
    assert p["mrf_reads"] < a["mrf_reads"] and p["rfc_writebacks"] < a["rfc_writebacks"]
    assert p["ltrf_dead_fetches_avoided"] > 0 and p["rfc_dead_writebacks_avoided"] > 0


def test_model_turns_intervals_on():
    p = rfsim("analyze", ROOT / "tests" / "ptx" / "ltrf_wide.ptx", "--json", "-", "-s",
              "rf.model=ltrf", "-s", "compiler.schedule=none")    # nvcc's 20 live values
    assert p.returncode == 0, p.stderr
    k = json.loads(p.stdout)["kernels"][0]
    assert len(k["intervals"]) == 3
    p = rfsim("analyze", ROOT / "tests" / "ptx" / "ltrf_wide.ptx", "--json", "-")
    assert "intervals" not in json.loads(p.stdout)["kernels"][0]
    p = rfsim("analyze", ROOT / "tests" / "ptx" / "ltrf_wide.ptx", "--json", "-", "-s",
              "rf.model=ltrfplus", "-s", "ltrf.partition=strand")
    assert json.loads(p.stdout)["kernels"][0]["ltrf"]["partition"] == "strand"


def test_scheduler_is_twolevel(tmp_path):
    """rf.model=ltrf runs the two-level scheduler whatever sched.policy says"""
    runs = [stats("hotspot", "--size", "small", "-c", "maxwell-ltrf", "-s", "rf.model=ltrf",
                  "-s", f"sched.policy={pol}", tmp_path=tmp_path)[0]["cycles"]
            for pol in ("twolevel", "gto", "lrr")]
    assert runs[0] == runs[1] == runs[2]


def test_bad_xbar():
    p = rfsim("run", "saxpy", "--size", "small", "-s", "rf.model=ltrf", "-s", "ltrf.xbar_div=0")
    assert p.returncode == 2 and "ltrf.xbar_div" in p.stderr
