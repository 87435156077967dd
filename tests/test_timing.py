"""The timing model over the workload suite: issue 5's quality bars.

Invariants on every built-in workload at --size small (the sanitizer
build, which is some ten times slower, checks the first few):

  * every run passes its output check, in timing mode under every model
    and in functional mode (program output does not depend on the model);
  * IPC never exceeds the issue width (sm.count x sched.count);
  * every scheduler slot is either an issue or one stall reason;
  * `baseline` with one-cycle reads and unlimited banks is `ideal`, counter
    for counter;
  * `ideal` is not slower than `baseline` on every built-in config: on the
    geometric mean of the suite exactly, and per workload within the
    timing-anomaly band ANOMALY (see there for why a faithful model cannot
    promise more); exactly, with no tolerance, where no two warps compete
    (one warp: register-file latency and bank conflicts only ever delay);
  * two runs give identical statistics (determinism).

Sensitivity, as a GPU behaves: IPC rises with occupancy for a
latency-bound kernel and saturates; fewer banks give more bank conflicts;
a longer DRAM latency lowers the IPC of a memory-bound workload.  Plus the
watchdog, --max-cycles, and config errors.
"""

import itertools
import json
import math
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rfsim_test import check_slots, summary_value
from rfsim_test import models as model_names

ROOT = Path(__file__).resolve().parent.parent
RFSIM = Path(os.environ.get("RFSIM", "build/rfsim"))
if not RFSIM.is_absolute():
    RFSIM = ROOT / RFSIM
SAN = "build-san" in str(RFSIM)
HOST = ("sim_seconds", "warp_inst_per_sec", "thread_inst_per_sec")
JOBS = os.cpu_count() or 2


def rfsim(*args, timeout=900):
    assert RFSIM.exists(), f"{RFSIM} not built (run make)"
    return subprocess.run([str(RFSIM), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


def workloads():
    out = rfsim("list").stdout
    names, inside = [], False
    for line in out.splitlines():
        if line and not line[0].isspace():
            inside = line.strip() == "workloads:"
        elif inside and line.strip():
            names.append(line.split()[0])
    return names[:5] if SAN else names


SERIAL = itertools.count()


def stats(tmp, name, *args):
    """rfsim run name args --stats: (exit code, the stats JSON or None, stderr)."""
    path = tmp / f"{name}-{next(SERIAL)}.json"
    p = rfsim("run", name, *args, "--stats", path)
    st = json.loads(path.read_text()) if path.exists() else None
    return p.returncode, st, p.stderr


def strip(st):
    """The stats without what depends on the host."""
    st = json.loads(json.dumps(st))
    for part in [st["totals"], *st["kernels"]]:
        for k in HOST:
            part.pop(k, None)
    return st


RUNS = {
    "baseline": ["-s", "rf.model=baseline"],
    "baseline2": ["-s", "rf.model=baseline"],
    "ideal": ["-s", "rf.model=ideal"],
    "unlimited": ["-s", "rf.model=baseline", "-s", "rf.banks=0", "-s", "rf.mrf_latency=1"],
    "functional": ["--functional"],
}


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("suite")
    jobs = [(w, r) for w in workloads() for r in RUNS]
    with ThreadPoolExecutor(JOBS) as ex:
        res = ex.map(lambda j: stats(tmp, j[0], "--size", "small", *RUNS[j[1]]), jobs)
        return dict(zip(jobs, res))


def test_every_run_passes_its_check(suite):
    for (w, r), (rc, st, err) in suite.items():
        assert rc == 0 and st and st["check"] == "pass", f"{w} {r}: exit {rc}\n{err}"


def test_ipc_within_issue_width_and_slots_add_up(suite):
    for (w, r), (rc, st, err) in suite.items():
        if r == "functional" or not st:
            continue
        check_slots(st, (w, r))
        t = st["totals"]
        assert t["issued"] == t["warp_instructions"], (w, r)


def test_unlimited_one_cycle_baseline_is_ideal(suite):
    for w in workloads():
        u = strip(suite[(w, "unlimited")][1])["totals"]
        i = strip(suite[(w, "ideal")][1])["totals"]
        assert u == i, f"{w}: " + ", ".join(f"{k} {u[k]} != {i[k]}" for k in u if u[k] != i[k])


# Timing anomalies.  A machine that arbitrates dynamically -- greedy and
# round-robin warp selection, FR-FCFS DRAM, first-come shared resources -- is
# not monotonic: making one instruction faster can make the kernel slower
# (Graham's list-scheduling anomalies, 1969; Lundqvist and Stenstroem's timing
# anomalies, 1999).  The model's own artefacts of this kind are fixed (memory
# arbitration by arrival time, not by the simulator's loop order; collectors
# and the load/store unit oldest first); what is left is the hardware's.  The
# largest, measured: CTAs that finish together start together and then issue
# their loads in one burst and stall together, while staggered CTAs hide each
# other's latency; a one-cycle bank conflict can stagger them or line them up.
# On gebhart-isca11 (one SM, nothing averages out) `ideal` is 2.2% slower than
# `baseline` on reduce (two-level, 8 active warps) and 22% faster on saxpy
# under LRR, the same mechanism both ways; fermi-gtx480's lib (3 CTAs)
# is 1.2% slower through DRAM row-buffer interference between its SMs.  The
# band below is that worst case with a little room, per workload; the suite's
# geometric mean, where these anomalies cancel and only the register file's
# systematic cost remains, must not be slower at all.  Small inputs are sized
# to keep it: a grid of a few CTAs over 15 SMs is one arrival-order draw
# (sad's 80x48 frame, 9 CTAs, ran ideal 2.5% slower on fermi-gtx480; its
# small frame is QCIF now, 54 CTAs).
ANOMALY = 0.025
CONFIGS = ["fermi-gtx480", "maxwell-ltrf", "gebhart-isca11", "hopper-h100"]


@pytest.fixture(scope="module")
def models(suite, tmp_path_factory):
    """{(config, workload, model): cycles} for baseline and ideal on every
    built-in config (the default config's runs are the suite's)."""
    tmp = tmp_path_factory.mktemp("models")
    cyc = {}
    default = json.loads(rfsim("config").stdout)["name"]    # what the suite ran on
    jobs = []
    for c in CONFIGS:
        for w in workloads():
            for m in ("baseline", "ideal"):
                if c == default:
                    cyc[(c, w, m)] = suite[(w, m)][1]["totals"]["cycles"]
                else:
                    jobs.append((c, w, m))
    with ThreadPoolExecutor(JOBS) as ex:
        res = ex.map(lambda j: stats(tmp, j[1], "--size", "small", "-c", j[0],
                                     "-s", f"rf.model={j[2]}"), jobs)
        for j, (rc, st, err) in zip(jobs, res):
            assert rc == 0 and st, f"{j}: exit {rc}\n{err}"
            cyc[j] = st["totals"]["cycles"]
    return cyc


def test_ideal_not_slower_than_baseline(models):
    for c in CONFIGS:
        ratios = []
        for w in workloads():
            b, i = models[(c, w, "baseline")], models[(c, w, "ideal")]
            assert i <= b * (1 + ANOMALY), f"{c} {w}: ideal {i} cycles, baseline {b}"
            ratios.append(i / b)
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        # the whole suite's mean: the sanitizer build's first few workloads
        # are too few for the anomalies to cancel
        assert SAN or geo <= 1.0, f"{c}: ideal/baseline geometric mean {geo}"


def test_deterministic(suite):
    for w in workloads():
        a, b = suite[(w, "baseline")][1], suite[(w, "baseline2")][1]
        assert strip(a) == strip(b), w


ONE_WARP = """.version 7.0
.target sm_70
.address_size 64
.visible .entry mono(.param .u64 buf)
{
.reg .u32 %r<8>;
.reg .u64 %rd<4>;
.reg .pred %p;
ld.param.u64 %rd1, [buf];
cvta.to.global.u64 %rd1, %rd1;
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd2, %r1, 4;
add.u64 %rd2, %rd1, %rd2;
mov.u32 %r2, 0;
mov.u32 %r3, 0;
LOOP:
ld.global.u32 %r4, [%rd2];
add.u32 %r3, %r3, %r4;
mad.lo.u32 %r5, %r3, %r4, %r3;
add.u32 %r3, %r5, %r3;
mul.lo.u32 %r6, %r5, %r5;
add.u32 %r3, %r3, %r6;
add.u64 %rd2, %rd2, 128;
add.u32 %r2, %r2, 1;
setp.lt.u32 %p, %r2, 16;
@%p bra LOOP;
st.global.u32 [%rd1], %r3;
ret;
}
"""


def test_one_warp_is_monotonic_exactly(tmp_path):
    """Where no two warps compete -- one warp on the whole GPU -- every
    arbitration follows program order (oldest first, loads in order, one
    request at a time), so the timing is a max-plus system: removing
    conflicts or register-file latency can only make events earlier.  Here
    the register file's monotonicity holds with no tolerance: ideal <=
    baseline, and baseline's cycles grow with rf.mrf_latency and with fewer
    banks, on every built-in config."""
    ptx = tmp_path / "one.ptx"
    ptx.write_text(ONE_WARP)
    for c in CONFIGS:
        def run(*kv):
            return summary_value(rfsim("run", ptx, "-g", 1, "-b", 32,
                                       "-a", "buf:u32:1024:iota",
                                       "-c", c, *[x for k in kv for x in ("-s", k)]),
                                 "cycles", int)
        ideal = run("rf.model=ideal")
        grid = {(b, lat): run("rf.model=baseline", f"rf.banks={b}", f"rf.mrf_latency={lat}")
                for b in (4, 16) for lat in (1, 2, 4)}
        for (b, lat), cyc in grid.items():
            assert ideal <= cyc, (c, b, lat, ideal, cyc)
            if lat > 1:
                assert grid[(b, lat // 2)] < cyc, (c, b, lat, grid)
            if b == 4:
                assert grid[(16, lat)] <= cyc, (c, lat, grid)


# ---- sensitivity ------------------------------------------------------------------

CHAIN = """.version 7.0
.target sm_70
.address_size 64
.visible .entry chain(.param .u64 out)
{
.reg .u32 %r<4>;
.reg .u64 %rd<2>;
mov.u32 %r1, %tid.x;
""" + "add.u32 %r1, %r1, 3;\n" * 64 + """ld.param.u64 %rd1, [out];
cvta.to.global.u64 %rd1, %rd1;
st.global.u32 [%rd1], %r1;
ret;
}
"""


def test_ipc_rises_with_occupancy_and_saturates(tmp_path):
    """64 one-warp blocks of a dependent chain on one SM: each resident warp
    adds one instruction per chain latency (19 cycles on fermi-gtx480) until
    the SP units are full (about 20 warps)."""
    ptx = tmp_path / "chain.ptx"
    ptx.write_text(CHAIN)
    ipc = []
    for ctas in (1, 2, 4, 8, 32, 48):
        ipc.append(summary_value(rfsim("run", ptx, "-g", 64, "-b", 32, "-a", "buf:u32:1:zero",
                                       "-s", "sm.count=1", "-s", f"sm.max_ctas={ctas}"),
                                 "ipc"))
    assert all(a < b for a, b in zip(ipc[:4], ipc[1:5])), ipc
    assert ipc[1] > 1.8 * ipc[0] and ipc[3] > 1.8 * ipc[2], ipc
    assert abs(ipc[5] - ipc[4]) <= 0.05 * ipc[4], ipc          # saturated
    assert ipc[5] <= 1.0 + 1e-9, ipc      # fermi: 2 SP units of 16 lanes


def test_fewer_banks_more_conflicts(tmp_path):
    w = "sgemm" if "sgemm" in workloads() else workloads()[0]
    conf = []
    for banks in (2, 4, 8, 16, 32):
        rc, st, err = stats(tmp_path, w, "--size", "small", "-s", f"rf.banks={banks}")
        assert rc == 0, err
        conf.append(st["totals"]["bank_conflicts"])
    assert all(a > b for a, b in zip(conf, conf[1:])), conf


def test_longer_dram_latency_lowers_ipc(tmp_path):
    """A latency-bound workload: bfs's loads depend on loads.  (saxpy's
    streaming warps hide 400 cycles at its small size -- Little's law --
    and run at the bandwidth's rate with 100 or 400.)"""
    w = "bfs" if "bfs" in workloads() else workloads()[0]
    ipc = []
    for lat in (100, 400, 1600):
        rc, st, err = stats(tmp_path, w, "--size", "small", "-s", "dram.model=fixed",
                            "-s", f"dram.lat={lat}")
        assert rc == 0, err
        ipc.append(st["totals"]["ipc"])
    assert ipc[0] > ipc[1] > ipc[2], ipc
    slow = stats(tmp_path, w, "--size", "small", "-s", "dram.tcl=60")[1]["totals"]["ipc"]
    fast = stats(tmp_path, w, "--size", "small")[1]["totals"]["ipc"]
    assert slow < fast, (slow, fast)


# ---- ends of runs ---------------------------------------------------------------------

def test_max_cycles_stops_a_run():
    w = workloads()[0]
    p = rfsim("run", w, "--size", "small", "--max-cycles", "500")
    assert p.returncode == 1 and "sim.max_cycles" in p.stderr, p.stderr
    p = rfsim("run", w, "--size", "small", "--max-cycles", "-3")
    assert p.returncode == 2 and "max-cycles" in p.stderr, p.stderr


def test_deadlock_reports_every_warp_and_exits_1():
    p = rfsim("run", ROOT / "tests/sem/err_deadlock.ptx", "-g", 1, "-b", 64,
              "-a", "buf:u32:4:zero", timeout=60)
    assert p.returncode == 1, p.stderr
    assert "deadlock" in p.stderr and "waiting for barrier 0" in p.stderr, p.stderr
    assert "warp 0 " in p.stderr and "warp 1 " in p.stderr, p.stderr


@pytest.mark.parametrize("model", model_names())
@pytest.mark.parametrize("kernel", ["spin", "caslock"])
def test_livelock_reports_every_warp_and_exits_1(kernel, model):
    """A warp spinning on a flag nobody sets, or lanes spinning on a CAS lock
    whose winner never releases it, keeps issuing for ever: the deadlock
    watchdog never fired and the run never ended (a CUDA program with such
    a kernel hung).  Each warp comes back to an earlier state with no memory
    written: livelock."""
    p = rfsim("run", ROOT / "tests/sem/err_livelock.ptx", "-k", kernel, "-g", 2, "-b", 64,
              "-a", "buf:u32:2:zero", "-s", "sim.hang_cycles=2000", "-s", f"rf.model={model}",
              timeout=60)
    assert p.returncode == 1, p.stderr
    assert "kernel livelock" in p.stderr and "sim.hang_cycles" in p.stderr, p.stderr
    assert "sm 0 warp 0 " in p.stderr and "sm 1 warp 0 " in p.stderr, p.stderr


def test_spin_on_a_flag_a_busy_warp_sets_is_no_livelock(tmp_path):
    """Warp 0 repeats its state while warp 1 computes for many windows with
    no store, then sets the flag: not a livelock (warp 1 never repeats)."""
    p = rfsim("run", ROOT / "tests/sem/err_livelock.ptx", "-k", "producer", "-g", 1, "-b", 64,
              "-a", "buf:u32:2:zero", "-a", "u32:20000", "-s", "sim.hang_cycles=2000",
              "--dump", tmp_path, timeout=60)
    assert p.returncode == 0, p.stderr
    x = 1
    for _ in range(20000):
        x = (x * 3 + 1) & 0xffffffff
    assert (tmp_path / "arg0.bin").read_bytes() == (1).to_bytes(4, "little") + x.to_bytes(4, "little")


@pytest.mark.parametrize("kernel,spinning", [("spin", "warp 0: spinning"),
                                             ("caslock", "warp 1: spinning")])
def test_functional_mode_livelock(kernel, spinning):
    """The same kernels under --functional (one CTA at a time) ran for ever
    too: a CTA that writes nothing for two rounds of slices has each ready
    warp stepped until it is back at its state -- a livelock, exit 1."""
    p = rfsim("run", ROOT / "tests/sem/err_livelock.ptx", "-k", kernel, "-g", 2, "-b", 64,
              "-a", "buf:u32:2:zero", "--functional", timeout=60)
    assert p.returncode == 1, p.stderr
    assert "kernel livelock" in p.stderr and "block (0,0,0)" in p.stderr, p.stderr
    assert spinning in p.stderr and "err_livelock.ptx:" in p.stderr, p.stderr


def test_functional_mode_busy_producer_is_no_livelock(tmp_path):
    """Warp 1 runs 2 million loop iterations (many quiet rounds of slices)
    before it sets the flag warp 0 spins on: the check must let it finish."""
    p = rfsim("run", ROOT / "tests/sem/err_livelock.ptx", "-k", "producer", "-g", 1, "-b", 64,
              "-a", "buf:u32:2:zero", "-a", "u32:2000000", "--functional", "--dump", tmp_path,
              timeout=120)
    assert p.returncode == 0, p.stderr
    x = 1
    for _ in range(2000000):
        x = (x * 3 + 1) & 0xffffffff
    assert (tmp_path / "arg0.bin").read_bytes() == (1).to_bytes(4, "little") + x.to_bytes(4, "little")


def test_watchdog_stops_a_run_where_no_warp_issues():
    """sim.hang_cycles below the memory latency: every warp waits on DRAM
    for longer than the watchdog allows, which it reports as a hang."""
    p = rfsim("run", workloads()[0], "--size", "small", "-s", "sim.hang_cycles=100",
              "-s", "dram.model=fixed", "-s", "dram.lat=2000")
    assert p.returncode == 1, p.stderr
    assert "no warp has issued for" in p.stderr and "sim.hang_cycles" in p.stderr, p.stderr
    assert "waiting for" in p.stderr and "more warps" in p.stderr, p.stderr


@pytest.mark.parametrize("kv, says", [
    ("rf.model=nosuch", "baseline|ideal"),
    ("sched.policy=fifo", "lrr|gto|twolevel"),
    ("rf.banks=-1", "rf.banks"),
    ("dram.model=ddr", "frfcfs|fixed"),
])
def test_bad_timing_keys_are_input_errors(kv, says):
    p = rfsim("run", workloads()[0], "--size", "small", "-s", kv)
    assert p.returncode == 2 and says in p.stderr, p.stderr


def test_stats_json_has_the_timing_keys(tmp_path):
    rc, st, err = stats(tmp_path, workloads()[0], "--size", "small")
    assert rc == 0, err
    for part in (st["totals"], st["kernels"][0]):
        for k in ("cycles", "ipc", "occupancy", "mrf_reads", "mrf_writes", "bank_conflicts",
                  "stall_idle", "stall_scoreboard", "stall_rf", "stall_mem", "stall_barrier",
                  "stall_other", "l1_hit_rate", "l2_hit_rate", "dram_bytes"):
            assert k in part, k
        assert 0 < part["occupancy"] <= 1
