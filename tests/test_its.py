"""Lanes that wait for lanes of their own warp (src/func/simt.c: simt_spin,
simt_release, simt_syncwait; tests/ptx/its.cu's kernels).

Since Volta, CUDA code may spin in a loop until another lane of the same warp
does something: a per-bin spin lock taken by several lanes of one warp, a
flag one lane sets for another.  On a post-dominator reconvergence stack the
lanes that wait at the loop's exit never run, and each of these kernels hung
(reported as a livelock).  Now a path that spins -- a polling loop whose
iteration leaves its registers as they were with nothing written, or runs 256
times writing nothing -- lets the lanes waiting at its reconvergence point go
on, and a warp-synchronous instruction (here __syncwarp) or barrier those
lanes then reach waits for the spinning lanes, in a called function too
(tests/ptx/itscall.cu; a -G build's __syncwarp is a call).  libcu++'s binary_semaphore,
taken by every thread of a block, works the same way.  Every kernel's result is checked exactly,
in timing and functional mode and under every register-file model.
"""

import struct

import pytest

from rfsim_test import ROOT, models
from test_tensor import run

PTX = ROOT / "tests" / "ptx" / "its.sm80.ptx"
PTX_G = ROOT / "tests" / "ptx" / "its.G.ptx"         # -G: locals through generic addresses
HIST_LOCK = "_Z9hist_lockPKiiPiS1_i"
HIST_SLEEP = "_Z10hist_sleepPKiiPiS1_i"
HIST_COUNT = "_Z10hist_countPKiiPiS1_iS1_"
HANDOFF = "_Z7handoffPiS_S_"
RING = "_Z4ringPiS_"
SEM_SUM = "_Z7sem_sumPi"

MODES = [(None, []), (None, ["sim.mode=functional"])] + \
        [("maxwell-ltrf", [f"rf.model={m}"]) for m in models()]


def s32s(d, n):
    b = (d / f"arg{n}.bin").read_bytes()
    return list(struct.unpack(f"<{len(b) // 4}i", b))


def hist(tmp, kernel, n, nb, block, config, sets, extra=(), differential=True):
    p, d = run(tmp, PTX, kernel, (n + block - 1) // block, block, f"buf:s32:{n}:iota",
               f"s32:{n}", f"buf:s32:{nb}:zero", f"buf:s32:{nb}:zero", f"s32:{nb}", *extra,
               sets=sets, config=config, differential=differential)
    assert p.returncode == 0, p.stderr[-3000:]
    assert s32s(d, 2) == [0] * nb, "a lock was left held"
    return d


@pytest.mark.parametrize("config, sets", MODES)
def test_spin_lock_histogram(tmp_path, config, sets):
    n, nb = 1500, 5
    d = hist(tmp_path, HIST_LOCK, n, nb, 96, config, sets)
    assert s32s(d, 3) == [sum(i for i in range(n) if i % nb == b) for b in range(nb)]


@pytest.mark.parametrize("config, sets", MODES[:2])
def test_spin_lock_with_nanosleep_backoff(tmp_path, config, sets):
    n, nb = 1500, 3
    d = hist(tmp_path, HIST_SLEEP, n, nb, 128, config, sets)
    assert s32s(d, 3) == [len(range(b, n, nb)) for b in range(nb)]


@pytest.mark.parametrize("config, sets", MODES[:2])
def test_spin_lock_counting_its_tries(tmp_path, config, sets):
    """The loop's registers change every time round (a try counter): its
    waiting lanes go on after 256 iterations without a write."""
    n, nb = 200, 3
    d = hist(tmp_path, HIST_COUNT, n, nb, 64, config, sets, extra=[f"buf:s32:{n}:zero"],
             differential=False)       # each thread's tries depend on the interleaving
    assert s32s(d, 3) == [len(range(b, n, nb)) for b in range(nb)]
    tries = s32s(d, 5)
    assert min(tries) >= 0 and max(tries) >= 256, max(tries)


@pytest.mark.parametrize("config, sets", MODES)
def test_flag_handed_between_lanes_then_syncwarp(tmp_path, config, sets):
    """Lane 0 spins until lane 1 sets a flag after lane 0's branch; lanes 2..31
    read, after __syncwarp(), what lane 0 wrote once it saw the flag."""
    p, d = run(tmp_path, PTX, HANDOFF, 2, 128, "buf:s32:8:zero", "buf:s32:8:zero",
               "buf:s32:256:zero", sets=sets, config=config)
    assert p.returncode == 0, p.stderr[-3000:]
    out = s32s(d, 2)
    assert s32s(d, 1) == [w + 100 for w in range(8)]
    for w in range(8):
        assert out[w * 32 + 2:w * 32 + 32] == [(w + 100) * 2 + ln for ln in range(2, 32)], w


@pytest.mark.parametrize("config, sets", MODES[:2])
def test_chain_through_the_warp(tmp_path, config, sets):
    p, d = run(tmp_path, PTX, RING, 2, 128, f"buf:s32:{32 * 1024 + 8}:zero",
               "buf:s32:256:zero", sets=sets, config=config)
    assert p.returncode == 0, p.stderr[-3000:]
    assert s32s(d, 1) == list(range(32)) * 8


def test_deterministic(tmp_path):
    outs = []
    for _ in range(2):
        p, d = run(tmp_path, PTX, HIST_LOCK, 16, 96, "buf:s32:1500:iota", "s32:1500",
                   "buf:s32:5:zero", "buf:s32:5:zero", "s32:5")
        assert p.returncode == 0, p.stderr
        outs.append([ln for ln in p.stdout.splitlines()
                     if not ln.startswith(("sim seconds", "rate"))])
    assert outs[0] == outs[1] and any(ln.startswith("cycles") for ln in outs[0]), outs[0]


@pytest.mark.parametrize("config, sets", MODES[:2])
def test_libcupp_semaphore_taken_by_every_thread(tmp_path, config, sets):
    p, d = run(tmp_path, PTX, SEM_SUM, 4, 96, "buf:s32:4:zero", sets=sets, config=config)
    assert p.returncode == 0, p.stderr[-3000:]
    assert s32s(d, 0) == [95 * 96 // 2] * 4


@pytest.mark.parametrize("mode", [[], ["sim.mode=functional"]])
def test_debug_build_spins_in_the_kernel(tmp_path, mode):
    """A -G build calls atomicCAS and atomic_ref::load as functions and keeps
    its locals in local memory through generic addresses: its loops are
    polling loops all the same, and local stores are no progress.  Its
    __syncwarp is a call, which waits for the spinning lane (handoff).  (Not
    covered: a lock taken inside a called function, as libcu++'s semaphore
    is in a -G build, waits for ever, since a call's lanes return together.)"""
    p, d = run(tmp_path, PTX_G, RING, 2, 128, f"buf:s32:{32 * 1024 + 8}:zero",
               "buf:s32:256:zero", sets=mode)
    assert p.returncode == 0, p.stderr[-3000:]
    assert s32s(d, 1) == list(range(32)) * 8
    p, d = run(tmp_path, PTX_G, HANDOFF, 2, 128, "buf:s32:8:zero", "buf:s32:8:zero",
               "buf:s32:256:zero", sets=mode)
    assert p.returncode == 0, p.stderr[-3000:]
    out = s32s(d, 2)
    for w in range(8):
        assert out[w * 32 + 2:w * 32 + 32] == [(w + 100) * 2 + ln for ln in range(2, 32)], w
    n, nb = 600, 3
    p, d = run(tmp_path, PTX_G, HIST_SLEEP, 5, 128, f"buf:s32:{n}:iota", f"s32:{n}",
               f"buf:s32:{nb}:zero", f"buf:s32:{nb}:zero", f"s32:{nb}", sets=mode)
    assert p.returncode == 0, p.stderr[-3000:]
    assert s32s(d, 3) == [len(range(b, n, nb)) for b in range(nb)]


CALL_PTX = {"O2": ROOT / "tests" / "ptx" / "itscall.sm80.ptx",
            "G": ROOT / "tests" / "ptx" / "itscall.G.ptx"}
CALL_SPINS = 2000


def s32(x):
    return (x + 2 ** 31) % 2 ** 32 - 2 ** 31


def call_want(kernel, nblocks):
    """itscall.cu's results on blocks of 64 threads: warp 1's work (lane 1's in
    callturn), seen by lane 0 of warp 0 and handed on inside the called function"""
    x = 12345
    for _ in range(CALL_SPINS):
        x = (x * 1664525 + 1013904223) & 0xffffffff
    x >>= 1
    per = {"callsync": [x] * 32 + [-1] * 32,
           "callbar": [x + 1] * 64,
           "calldiv": [s32(x * 2)] * 16 + [21] * 16 + [-2] * 16 + [21] * 16,
           "callpart": [x + 1] * 16 + [-1] * 16 + [0] * 16 + [-1] * 16}
    if kernel == "callturn":       # lane 0 of warp w gets x + w from lane 1
        return [-1 if ln == 1 else x + w + 1 for w in range(2 * nblocks) for ln in range(32)]
    return per[kernel] * nblocks


def call_run(tmp, build, kernel, sets, differential=True):
    mangled = {"callsync": "_Z8callsyncPiS_S_i", "callbar": "_Z7callbarPiS_S_i",
               "calldiv": "_Z7calldivPiS_S_i", "callpart": "_Z8callpartPiS_S_i",
               "callturn": "_Z8callturnPiS_S_i"}[kernel]
    return run(tmp, CALL_PTX[build], mangled, 3, 64, "buf:s32:6:zero", "buf:s32:6:zero",
               "buf:s32:192:zero", f"s32:{CALL_SPINS}", sets=sets, differential=differential)


@pytest.mark.parametrize("build", ["O2", "G"])
@pytest.mark.parametrize("kernel", ["callsync", "callbar", "calldiv", "callpart", "callturn"])
@pytest.mark.parametrize("mode", ["timing", "functional"])
def test_lanes_meet_the_spinning_lane_in_a_called_function(tmp_path, build, kernel, mode):
    """tests/ptx/itscall.cu: lane 0 spins until another warp sets a flag, and
    its warp's other lanes, let go on (simt_release), reach a __syncwarp and
    shuffle, a __syncthreads, or a divergent pair of shuffles inside a called
    function (a __noinline__ one; under -G every one of them is a call, down
    to __syncwarp itself), or only half of them call a function that
    shuffles.  They ran it without lane 0 -- reduce_t.cu's -G bigtile summed
    24576 for 456128 in functional mode -- and read what lane 0 had not yet
    written; now they wait there (simt_callwait) until lane 0 makes the same
    calls and joins them (simt_join).  In callturn lane 0 waits for lane 1,
    which still has its own branch to run: lane 0, run for the waiting lanes
    and spinning, goes back and lets lane 1 run (foreign_back); otherwise it
    would spin for ever under -G."""
    sets = ["sim.mode=functional"] if mode == "functional" else []
    p, d = call_run(tmp_path, build, kernel, sets, differential=mode == "timing")
    assert p.returncode == 0, p.stderr[-3000:]
    assert s32s(d, 2) == call_want(kernel, 3)


def test_lanes_meeting_in_a_called_function_are_deterministic(tmp_path):
    outs = []
    for _ in range(2):
        p, d = call_run(tmp_path, "G", "calldiv", [], differential=False)
        assert p.returncode == 0, p.stderr
        outs.append([ln for ln in p.stdout.splitlines()
                     if not ln.startswith(("sim seconds", "rate"))])
    assert outs[0] == outs[1] and any(ln.startswith("cycles") for ln in outs[0]), outs[0]


SHCAS = ROOT / "tests" / "ptx" / "shcas.sm80.ptx"


@pytest.mark.parametrize("sets", [["sim.mode=functional"], ["sched.policy=gto"]] +
                         [[f"rf.model={m}", "sched.policy=lrr"] for m in models()])
def test_barrier_waits_for_lanes_still_in_a_cas_loop(tmp_path, sets):
    """Issue 20, defect 1 (tests/ptx/shcas.cu): on fermi-gtx480's LRR the
    lanes of a warp contend in an atomicCAS retry loop long enough for the
    lanes that finished to be let go on (simt_release), after simt_yield had
    reordered the paths.  __syncthreads() then ran without the warp's lanes
    still in the loop, and the final reads of the shared bins missed their
    adds: 2505 of 3000 in timing mode under every model."""
    n = 3000
    p, d = run(tmp_path, SHCAS, "sh_cas", 1, 96, f"buf:u32:{n}:rand", f"u32:{n}",
               "buf:u32:64:zero", "buf:u32:2:zero", sets=["sm.count=1", *sets])
    assert p.returncode == 0, p.stderr[-3000:]
    vals = struct.unpack(f"<{n}I", (d / "arg0.bin").read_bytes())
    bins = struct.unpack("<64I", (d / "arg2.bin").read_bytes())
    assert list(bins) == [sum(1 for v in vals if v & 63 == b) for b in range(64)]
    assert struct.unpack("<2I", (d / "arg3.bin").read_bytes())[0] == sum(vals) & 0xffffffff
