"""mbarrier objects end to end (tests/sem/mbarrier.ptx; src/func/exec_mbar.c).

One thread walks an object through four phases (pending counts, test_wait
on states and parities, arrive_drop lowering the expected count, a phase
held open by an expected tx-count, arrive.expect_tx, a generic address);
128 threads exchange shared data through two phases per round with a warp
that arrives late; cp.async.mbarrier.arrive with and without .noinc makes
the waiting threads see every lane's copy; a phase that waits for a copy
costs the copy's memory latency in the timing model; a phase that can never
complete is reported as a livelock; and what the ISA leaves undefined stops
the kernel naming the object and the PTX line.  Pins: mbarrier.* and
cp.async.mbarrier.arrive were refused by the parser, so no program using
cuda::barrier, cuda::pipeline or memcpy_async with a barrier loaded.
"""

import struct

import pytest

from rfsim_test import ROOT, models
from test_tensor import run, infile

SEM = ROOT / "tests" / "sem" / "mbarrier.ptx"


def u32s(d, n):
    b = (d / f"arg{n}.bin").read_bytes()
    return list(struct.unpack(f"<{len(b) // 4}I", b))


@pytest.mark.parametrize("mode", ["timing", "functional"])
def test_one_thread_through_four_phases(tmp_path, mode):
    sets = ["sim.mode=functional"] if mode == "functional" else []
    p, d = run(tmp_path, SEM, "mb_seq", 1, 1, "buf:u32:13:zero", sets=sets)
    assert p.returncode == 0, p.stderr
    assert u32s(d, 0) == [
        2,     # init 3, one arrival: 2 pending
        0,     # its phase is not over
        0,     # the arrival of 2 that completes phase 0 leaves 0 pending
        1,     # now the first state's phase is over
        1, 0,  # parity 0 (phase 0) over, parity 1 (phase 1, current) not
        2,     # phase 1 rearmed with 3; arrive_drop leaves 2
        1,     # two more arrivals end phase 1; phase 2 expects 3 - 1 = 2: one left
        1,     # parity 1 (phase 1) is over
        0,     # phase 2's last arrival with 16 tx bytes expected: not over
        1,     # complete_tx 16 ends it (try_wait with a time hint)
        1,     # phase 3: arrive.expect_tx is one arrival of 2
        0,     # parity 1 is phase 3's own, through a generic address: not over
    ]


@pytest.mark.parametrize("config, sets", [(None, []), (None, ["sim.mode=functional"])] +
                         [("maxwell-ltrf", [f"rf.model={m}"]) for m in models()])
def test_rounds_of_two_phases_with_a_late_warp(tmp_path, config, sets):
    p, d = run(tmp_path, SEM, "mb_rounds", 1, 128, "buf:u32:128:zero", sets=sets,
               config=config)
    assert p.returncode == 0, p.stderr
    # sum over rounds r = 0..3 of 1000 r + (t + 37) % 128
    assert u32s(d, 0) == [6000 + 4 * ((t + 37) % 128) for t in range(128)]


@pytest.mark.parametrize("sets", [[], ["sim.mode=functional"]])
def test_copies_complete_the_phase(tmp_path, sets):
    src = infile(tmp_path, "src.bin", struct.pack("<512I", *range(512)))
    p, d = run(tmp_path, SEM, "mb_cp", 1, 64, f"buf:u32:512:{src}", "buf:u32:128:zero",
               sets=sets)
    assert p.returncode == 0, p.stderr
    # lane t reads the first word lane (t+1) % 64 copied: src word 4 ((t+1) % 64), and
    # from the second copy (1024 bytes on) 256 words further
    assert u32s(d, 1) == [4 * ((t + 1) % 64) for t in range(64)] + \
                         [256 + 4 * ((t + 1) % 64) for t in range(64)]


def test_phase_waits_for_the_copy_in_the_timing_model(tmp_path):
    """The .noinc arrival issues when the copy lands (async.c), so the wait loop
    ends after the copy's memory latency (fermi-gtx480: icnt + L2 + DRAM > 100
    cycles) and the word read after it is the copied one."""
    src = infile(tmp_path, "src.bin", struct.pack("<4I", 10, 11, 12, 13))
    p, d = run(tmp_path, SEM, "mb_time", 1, 1, f"buf:u32:4:{src}", "buf:u32:2:zero",
               differential=False)                  # it stores a cycle count
    assert p.returncode == 0, p.stderr
    cycles, word = u32s(d, 1)
    assert word == 11 and cycles > 100, (cycles, word)


@pytest.mark.parametrize("sets", [[], ["sim.mode=functional"]])
def test_a_phase_that_never_completes_is_a_livelock(tmp_path, sets):
    p, _ = run(tmp_path, SEM, "mb_stuck", 1, 32, "buf:u32:1:zero", sets=sets)
    assert p.returncode != 0
    assert "kernel livelock: in kernel mb_stuck" in p.stderr, p.stderr


@pytest.mark.parametrize("sets", [[], ["sim.mode=functional"]])
def test_lanes_wait_for_lanes_of_their_own_warp(tmp_path, sets):
    """Pins: lanes spinning on a phase that lanes of their own warp, on the
    other side of a divergent branch, must complete waited for ever (the SIMT
    stack ran the spinning path only); a failed wait now runs the other path
    first (simt_yield), as Volta's independent thread scheduling would."""
    p, d = run(tmp_path, SEM, "mb_diverge", 1, 32, "buf:u32:32:zero", sets=sets)
    assert p.returncode == 0, p.stderr
    assert u32s(d, 0) == [100 + t for t in range(32)]


@pytest.mark.parametrize("sets", [[], ["sim.mode=functional"]])
def test_sleeping_lanes_let_their_warp_run_its_other_path(tmp_path, sets):
    """Pins: lanes polling a flag with nanosleep (libcu++'s backoff) that the
    other path of their own warp sets spun for ever; nanosleep now lets that
    path run first (simt_yield), as Volta's scheduling would."""
    p, d = run(tmp_path, SEM, "nap_diverge", 1, 32, "buf:u32:32:zero", sets=sets)
    assert p.returncode == 0, p.stderr
    assert u32s(d, 0) == [7] * 32


def line_of(marker):
    lines = SEM.read_text().splitlines()
    return next(i + 1 for i, ln in enumerate(lines) if ln.endswith(f"// {marker}"))


@pytest.mark.parametrize("kernel, marker, says", [
    ("mb_uninit", "UNINIT", "not initialized (mbarrier.init), or invalidated"),
    ("mb_nocomp", "NOCOMP", ".noComplete arrival completes the phase"),
    ("mb_over", "OVER", "more arrivals than the phase has pending"),
])
def test_undefined_uses_stop_the_kernel(tmp_path, kernel, marker, says):
    p, _ = run(tmp_path, SEM, kernel, 1, 1, "buf:u32:1:zero")
    assert p.returncode != 0
    assert f"kernel fault: mbarrier at address 0x0: {says}" in p.stderr, p.stderr
    assert f"mbarrier.ptx:{line_of(marker)}" in p.stderr, p.stderr


def test_cluster_objects_take_arrivals_and_refuse_waits(tmp_path):
    """A .shared::cluster object (here the CTA's own: a launch without
    clusters) takes arrivals with a '_' state; a wait on one is refused by
    name, as the ISA has none."""
    ptx = tmp_path / "c.ptx"
    for line, rc, said in [
            ("mbarrier.arrive.shared::cluster.b64 \t_, [%r1];", 1,
             "not initialized (mbarrier.init), or invalidated"),
            ("mbarrier.test_wait.shared::cluster.b64 \t%p1, [%r1], %rd1;", 2,
             "rfsim knows '.shared::cluster' mbarrier objects in arrive")]:
        ptx.write_text(SEM.read_text().replace(
            "mbarrier.arrive.shared.b64 \t%rd1, [%r1];   // UNINIT", line))
        p, _ = run(tmp_path, ptx, "mb_uninit", 1, 1, "buf:u32:1:zero")
        assert p.returncode == rc and said in p.stderr, p.stderr
