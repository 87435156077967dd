"""RegMutex's hardware model end to end (src/timing/rf/rf_regmutex.c;
regmutex.md sections III-B and III-C).

A hand-written kernel with one acquired region gives exact counts: 4 warps
in one CTA, |Es| = 8 forced, and a register file sized so that the pool
holds exactly one extended set (16 base registers x 32 lanes x 4 warps +
8 x 32 = 2304 registers).  The baseline cannot even launch that CTA (24
registers per thread); RegMutex runs it, the first warp at the acquire
gets the only section and the other three are refused at first (the
region is 45 instructions long, far longer than the few cycles between the
warps' arrival), so acquires = releases = 4, first-try successes = 1, and
instructions issued holding the extended set = 4 x 45 (the listing's
instructions strictly between acquire and release, counted here from
`rfsim analyze --listing`).  Paired warps give one section per pair: 2
first-try successes.  The output must equal a CPU reference.

On the suite: every register-limited workload passes its check under
rf.model=regmutex (heuristic |Es|, and paired), no extended register is
touched by a warp without a section, no warp ends holding one, occupancy
never drops below the baseline's, and a kernel the compiler gave no
extended set runs exactly as the baseline (same cycles and register-file
counts).  Choosing the model alone turns the compiler pass on.
"""

import json
import struct

import pytest

from rfsim_test import ROOT, rfsim, workloads

# register counts of the pressure-minimising order: the forced and expected
# |Es| values, deadlock-rule refusals and gains below were chosen for them
# (compiler.schedule=latency, the default, counts as ptxas does)
PRESSURE = ["-s", "compiler.schedule=pressure"]

N = 20


def hot_ptx():
    """A straight-line kernel with ~24 registers live in its middle."""
    s = [""".version 7.0
.target sm_70
.address_size 64

.visible .entry hot(.param .u64 out, .param .u64 in)
{
	.reg .b32 %r<64>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r0, %tid.x;
	mul.wide.u32 %rd3, %r0, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.u32 %r1, [%rd4];
	add.s32 %r40, %r1, 7;"""]
    s += [f"\tmul.lo.s32 %r{i + 2}, %r1, {i + 3};" for i in range(N)]
    s += [f"\txor.b32 %r{i + 2}, %r{i + 2}, %r{(i + 1) % N + 2};" for i in range(N)]
    s += ["\tmov.u32 %r30, 0;"]
    s += [f"\tadd.s32 %r30, %r30, %r{i + 2};" for i in range(N)]
    s += ["\tadd.s32 %r30, %r30, %r40;", "\tst.global.u32 [%rd5], %r30;", "\tret;", "}", ""]
    return "\n".join(s)


def reference(x):
    r = [(x * (i + 3)) & 0xffffffff for i in range(N)]
    for i in range(N):
        r[i] ^= r[(i + 1) % N]
    return (sum(r) + x + 7) & 0xffffffff


@pytest.fixture
def hot(tmp_path):
    ptx = tmp_path / "hot.ptx"
    ptx.write_text(hot_ptx())
    vals = [i * 37 + 5 for i in range(128)]
    (tmp_path / "in.bin").write_bytes(struct.pack("<128I", *vals))
    return tmp_path, [reference(v) for v in vals]


# nvcc's order (no scheduling): the counts above are of its listing
HOT = ["-c", "fermi-gtx480", "-s", "sm.count=1", "-s", "rf.model=regmutex",
       "-s", "regmutex.es=8", "-s", "compiler.schedule=none", "-g", "1", "-b", "128"]


def run_hot(tmp, *extra):
    out = tmp / "out"
    p = rfsim("run", tmp / "hot.ptx", *HOT, *extra, "-a", "buf:u32:128:zero",
              "-a", f"buf:u32:128:file={tmp / 'in.bin'}", "--dump", out,
              "--stats", tmp / "st.json")
    assert p.returncode == 0, p.stderr
    got = list(struct.unpack("<128I", (out / "arg0.bin").read_bytes()))
    return got, json.loads((tmp / "st.json").read_text())["totals"]


def region_length(tmp, *extra):
    """instructions strictly between rfsim.acquire and rfsim.release in the listing"""
    p = rfsim("analyze", tmp / "hot.ptx", *HOT[:10], *extra, "--listing")
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in p.stdout.splitlines() if ln[:6].strip().isdigit()]
    a = [i for i, ln in enumerate(lines) if "rfsim.acquire" in ln]
    r = [i for i, ln in enumerate(lines) if "rfsim.release" in ln]
    assert len(a) == 1 and len(r) == 1 and a[0] < r[0], p.stdout
    return r[0] - a[0] - 1


def test_hand_kernel_one_section(hot):
    tmp, ref = hot
    regs = ["-s", "sm.registers=2304"]
    got, t = run_hot(tmp, *regs)
    assert got == ref
    n = region_length(tmp, *regs)
    assert n == 45
    assert (t["rm_bs"], t["rm_es"], t["rm_regs"], t["rm_sections"]) == (16, 8, 24, 1)
    assert t["rm_acquires"] == 4 and t["rm_releases"] == 4
    assert t["rm_acquires_first"] == 1
    assert t["rm_acquire_wait_cycles"] > 0 and t["stall_rf"] > 0
    assert t["rm_ext_insts"] == 4 * n
    assert t["rm_unmapped"] == 0 and t["rm_exit_holding"] == 0
    assert t["rm_warps"] == 4 and t["rm_warps_base"] == 0
    # the baseline cannot hold the CTA at all
    p = rfsim("run", tmp / "hot.ptx", "-c", "fermi-gtx480", "-s", "sm.count=1", *regs,
              "-s", "compiler.schedule=none", "-g", "1", "-b", "128", "-a", "buf:u32:128:zero",
              "-a", "buf:u32:128:zero")
    assert p.returncode != 0 and "does not fit" in p.stderr, p.stderr


def test_hand_kernel_paired_warps(hot):
    tmp, ref = hot
    got, t = run_hot(tmp, "-s", "regmutex.paired=1", "-s", "sm.registers=5120")
    assert got == ref
    # pairs (0,1) and (2,3) of the one CTA: one first-try success each; two
    # CTAs of 4 warps fit in pairs of 2 x 16 + 8 registers, one of 24 without
    assert t["rm_acquires"] == 4 and t["rm_acquires_first"] == 2 and t["rm_releases"] == 4
    assert t["rm_ext_insts"] == 4 * 45
    assert t["rm_warps"] == 8 and t["rm_warps_base"] == 4 and t["rm_sections"] == 4


def test_hand_kernel_ample_pool(hot):
    tmp, ref = hot
    got, t = run_hot(tmp)          # the full register file: a section for every warp
    assert got == ref
    assert t["rm_acquires"] == 4 and t["rm_acquires_first"] == 4
    assert t["rm_acquire_wait_cycles"] == 0 and t["rm_acquire_success"] == 1


def stats(tmp_path, name, *args):
    f = tmp_path / f"{name}.json"
    p = rfsim("run", *args, "--stats", f)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "PASS" in p.stdout, p.stdout
    return json.loads(f.read_text())["totals"]


def slots_add_up(t):
    stall = sum(t[k] for k in ("stall_idle", "stall_rf", "stall_mem", "stall_scoreboard",
                               "stall_barrier", "stall_other"))
    return t["issued"] + stall


# es 0: the heuristic's pick.  Where the heuristic declines (no candidate
# raises occupancy with a pool for more than half the warps), the size the
# highest occupancy gives is forced, so the hardware is still exercised there
@pytest.mark.parametrize("workload,paired,es", [
    ("hotspot", 0, 4), ("hotspot", 1, 0), ("mriq", 0, 14), ("mriq", 1, 0),
    ("dwt2d", 0, 14), ("dwt2d", 1, 0), ("tpacf", 0, 0), ("tpacf", 1, 0),
    ("particlefilter", 0, 0), ("particlefilter", 1, 0), ("mum", 0, 18)])
def test_register_limited_invariants(tmp_path, workload, paired, es):
    # the forced |Es| values were chosen for the register counts of nvcc's order
    base = [workload, "--size", "small", "-c", "fermi-gtx480", "-s", "compiler.schedule=none"]
    t = stats(tmp_path, "rm", *base, "-s", "rf.model=regmutex", "-s", f"regmutex.paired={paired}",
              *(["-s", f"regmutex.es={es}"] if es else []))
    b = stats(tmp_path, "bl", *base, "-s", "rf.model=baseline")
    assert t["rm_sms"] > 0 and t["rm_acquires"] > 0
    assert t["rm_unmapped"] == 0 and t["rm_exit_holding"] == 0
    assert t["rm_acquires_first"] <= t["rm_acquires"]
    assert t["rm_releases"] <= t["rm_acquires"]
    assert t["rm_ext_insts"] < t["issued"]
    assert t["rm_occupancy"] >= t["rm_occupancy_base"] > 0
    assert t["occupancy_theoretical"] >= b["occupancy_theoretical"]
    assert t["rm_sections_avg"] >= 1
    assert slots_add_up(t) == t["cycles"] * 15 * 2      # sm.count x sched.count


@pytest.mark.parametrize("workload", ["saxpy", "btree", "sgemm"])
def test_no_extended_set_runs_as_baseline(tmp_path, workload):
    """saxpy: not register-limited; btree: calls (left out); sgemm: limited by CTAs"""
    # the forced |Es| values were chosen for the register counts of nvcc's order
    base = [workload, "--size", "small", "-c", "fermi-gtx480", "-s", "compiler.schedule=none"]
    t = stats(tmp_path, "rm", *base, "-s", "rf.model=regmutex")
    b = stats(tmp_path, "bl", *base, "-s", "rf.model=baseline")
    for k in ("cycles", "issued", "mrf_reads", "mrf_writes", "bank_conflicts", "stall_rf",
              "warps_allowed"):
        assert t[k] == b[k], k
    assert t["rm_sms"] == 0 and t["rm_acquires"] == 0


def test_model_turns_the_pass_on(tmp_path):
    f = tmp_path / "a.json"
    p = rfsim("analyze", "tpacf", "-c", "fermi-gtx480", "-s", "rf.model=regmutex", *PRESSURE,
              "--json", f)
    assert p.returncode == 0, p.stderr
    k = json.loads(f.read_text())["kernels"][0]["regmutex"]
    assert k["applied"] and k["es"] > 0 and k["acquires"] > 0 and k["releases"] > 0


@pytest.mark.parametrize("es", [2, 4, 12])
@pytest.mark.parametrize("workload", ["mriq", "lib", "dwt2d", "mum"])
def test_forced_es_no_deadlock(workload, es):
    """timing model at a forced |Es|: passes, or is refused at compile time"""
    p = rfsim("run", workload, "--size", "small", "-c", "fermi-gtx480", "-s", "rf.model=regmutex",
              "-s", f"regmutex.es={es}")
    if p.returncode == 2:
        assert "deadlock rule" in p.stderr, p.stderr
        return
    assert p.returncode == 0 and "PASS" in p.stdout, p.stdout + p.stderr


def test_stats_rows_present(tmp_path):
    t = stats(tmp_path, "s", "saxpy", "--size", "small")
    for k in ("rm_acquires", "rm_acquires_first", "rm_acquire_wait_cycles", "rm_releases",
              "rm_ext_insts", "rm_occupancy", "rm_occupancy_base", "rm_acquire_success",
              "occupancy_theoretical", "warps_allowed"):
        assert k in t, k
    assert 0 < t["occupancy_theoretical"] <= 1


def test_plot_normalizes_to_a_partner_differing_in_two_columns(tmp_path):
    """--normalize-to C1=V1,C2=V2 (Figure 8: half register file over the baseline's full)"""
    csv = tmp_path / "r.csv"
    csv.write_text("workload,rf.model,sm.registers,status,cycles\n"
                   "a,baseline,32768,ok,100\na,baseline,16384,ok,120\n"
                   "a,regmutex,32768,ok,100\na,regmutex,16384,ok,110\n")
    p = rfsim("plot", csv, "--x", "workload", "--y", "cycles", "--series", "rf.model",
              "--where", "sm.registers=16384",
              "--normalize-to", "rf.model=baseline,sm.registers=32768", "-o", tmp_path / "x.svg")
    assert "a " in p.stdout, p.stdout + p.stderr
    row = [ln.split() for ln in p.stdout.splitlines() if ln.startswith("a ")][0]
    assert row[1:] == ["1.2", "1.1"], p.stdout
    p = rfsim("plot", csv, "--x", "workload", "--y", "cycles", "--normalize-to", "rf.model=",
              "-o", tmp_path / "x.svg")
    assert p.returncode == 2 or "no rows" in p.stderr, p.stderr


def test_reproduce_second_plot_reuses_points(tmp_path):
    out = tmp_path / "rep"
    p = rfsim("reproduce", "regmutex-fig7-occupancy", "--size", "small", "-w", "saxpy",
              "-o", out)
    assert p.returncode == 0, p.stderr
    md = (out / "report.md").read_text()
    assert "The points of `regmutex-fig7`" in md and (out / "regmutex-fig7/results.csv").exists()
    assert not (out / "regmutex-fig7-occupancy").exists()
    row = [ln for ln in md.splitlines() if ln.startswith("| mean occupancy, RegMutex")][0]
    assert row.rstrip(" |").split("|")[-1].strip() not in ("", "-"), row


def test_launch_shape_recompiles(tmp_path):
    """The |Es| choice is made for the launch's block size: srad_update
    declares no block size, so at load the pass assumes 256 threads and
    gives it |Es| 6 (analyze shows that); srad launches it with 16 x 8
    threads, where no candidate raises occupancy with a pool for more than
    half the warps, so the launch runs it without an extended set, while
    srad_coeff keeps its own (|Es| 2 at both shapes)."""
    half = ["-c", "fermi-gtx480", "-s", "rf.model=regmutex", "-s", "sm.registers=16384",
            *PRESSURE]
    f = tmp_path / "a.json"
    p = rfsim("analyze", "srad", *half, "--json", f)
    assert p.returncode == 0, p.stderr
    ks = {k["name"]: k["regmutex"] for k in json.loads(f.read_text())["kernels"]}
    assert ks["srad_update"]["applied"] and ks["srad_update"]["es"] == 6
    p = rfsim("analyze", "srad", *half, "-b", "16,8", "--json", f)   # the real launch's shape
    assert p.returncode == 0, p.stderr
    ks = {k["name"]: k["regmutex"] for k in json.loads(f.read_text())["kernels"]}
    assert not ks["srad_update"]["applied"] and ks["srad_update"]["es"] == 0
    assert ks["srad_coeff"]["applied"] and ks["srad_coeff"]["es"] == 2
    s = tmp_path / "s.json"
    p = rfsim("run", "srad", "--size", "small", *half, "--stats", s)
    assert p.returncode == 0 and "PASS" in p.stdout, p.stdout + p.stderr
    run = {}
    for k in json.loads(s.read_text())["kernels"]:
        run.setdefault(k["name"], k)
    assert run["srad_update"]["rm_sms"] == 0 and run["srad_update"]["rm_acquires"] == 0
    assert run["srad_coeff"]["rm_sms"] > 0
    assert run["srad_coeff"]["rm_es"] == 2 * run["srad_coeff"]["rm_sms"]


@pytest.mark.parametrize("workload", ["saxpy", "reduce", "bfs"])
def test_two_level_scheduler_no_deadlock(tmp_path, workload):
    """Bug: under the two-level scheduler (gebhart-isca11: one scheduler, 8
    active warps) a warp refused at an acquire stayed in the active set;
    with the active set full of such warps and the section holders in the
    pending set, nothing ever issued again (watchdog: kernel deadlock).  A
    warp refused at an acquire now leaves the active set like a warp at a
    barrier (RF_WAIT_WARPS, rf.h).  Half the register file makes these
    kernels register-limited, so RegMutex gives them an extended set."""
    t = stats(tmp_path, "rm", workload, "--size", "small", "-c", "gebhart-isca11",
              "-s", "rf.model=regmutex", "-s", "sm.registers=16384", *PRESSURE)
    assert t["rm_acquires"] > t["rm_acquires_first"] > 0     # some acquires were refused
    assert t["rm_unmapped"] == 0 and t["rm_exit_holding"] == 0
    assert slots_add_up(t) == t["cycles"]                  # sm.count x sched.count = 1


@pytest.mark.parametrize("kernel,ok", [("_Z5relaxPKfPfi", True), ("_Z3mixPKfPfS0_i", False)])
def test_launch_shape_is_the_launched_kernels_only(kernel, ok):
    """Bug: a launch whose shape differs from the load-time assumption
    recompiled the module with the launch's block size for every kernel, so
    a launch of relax (128 threads) failed because mix's forced |Es| breaks
    deadlock rule 1 at 128 threads -- though mix was never launched so.
    At load (256 threads assumed) both kernels are fine."""
    ptx = ROOT / "tests" / "ptx" / "rm_two_kernels.sm80.ptx"
    args = ["-a", "buf:f32:512:rand", "-a", "buf:f32:512:zero"]
    if not ok:
        args += ["-a", "buf:f32:16:rand"]
    p = rfsim("run", ptx, "-k", kernel, "-g", "4", "-b", "128", *args, "-a", "s32:512",
              "-c", "fermi-gtx480", "-s", "rf.model=regmutex", "-s", "regmutex.es=14",
              "-s", "sm.registers=16384", *PRESSURE)
    if ok:
        assert p.returncode == 0, p.stderr
    else:
        assert p.returncode == 2, p.stderr
        assert ("'_Z3mixPKfPfS0_i': the pool holds no extended set at 128 threads per CTA and "
                "0 bytes of shared memory (deadlock rule 1)") in p.stderr


@pytest.mark.parametrize("block,ok", [(64, True), (256, False)])
def test_forced_es_rule1_decided_at_launch(tmp_path, block, ok):
    """mix declares no block size.  regmutex.es=16 breaks deadlock rule 1 at
    the 256 threads the load-time pass assumes, but not at 64: the module
    must load, a 64-thread launch run with the forced set, and a 256-thread
    launch be refused naming the rule and the shape."""
    ptx = ROOT / "tests" / "ptx" / "rm_two_kernels.sm80.ptx"
    f = tmp_path / "s.json"
    p = rfsim("run", ptx, "-k", "_Z3mixPKfPfS0_i", "-g", "4", "-b", str(block),
              "-a", "buf:f32:512:rand", "-a", "buf:f32:512:zero", "-a", "buf:f32:16:rand",
              "-a", "s32:512", "-c", "fermi-gtx480", "-s", "rf.model=regmutex",
              "-s", "regmutex.es=16", "-s", "sm.registers=16384", *PRESSURE, "--stats", f)
    if ok:
        assert p.returncode == 0, p.stderr
        t = json.loads(f.read_text())["totals"]
        assert t["rm_sms"] > 0 and t["rm_es"] == 16 * t["rm_sms"] and t["rm_acquires"] > 0
    else:
        assert p.returncode == 2, p.stderr
        assert ("the pool holds no extended set at 256 threads per CTA and 0 bytes of shared "
                "memory (deadlock rule 1)") in p.stderr


def test_rule2_refusal_is_the_refused_kernels_only():
    """Bug: a forced |Es| that breaks deadlock rule 2 in one kernel failed the
    whole module at load, so a program could run none of its other kernels
    (nor copy to its symbols).  Now that kernel's launch is refused, exit 2,
    naming the rule; sort's radix_scan runs at the same |Es|, and analyze
    shows the refusal in radix_hist's line instead of failing."""
    ptx = ROOT / "workloads" / "sort" / "sort.ptx"
    es = ["-c", "fermi-gtx480", "-s", "rf.model=regmutex", "-s", "regmutex.es=8",
          "-s", "compiler.schedule=none"]     # the counts below are of nvcc's order
    p = rfsim("run", ptx, "-k", "radix_scan", "-g", "1", "-b", "256",
              "-a", "s32:512", "-a", "buf:u32:512:iota", *es)
    assert p.returncode == 0, p.stderr
    p = rfsim("run", ptx, "-k", "radix_hist", "-g", "1", "-b", "128", "-a", "s32:512",
              "-a", "s32:0", "-a", "buf:u64:512:rand", "-a", "buf:u32:4096:zero", *es)
    assert p.returncode == 2, p.stderr
    assert ("rfsim: regmutex.es=8 for 'radix_hist': |Bs| = 6 is below the 11 registers "
            "live at a CTA barrier (deadlock rule 2)") in p.stderr
    p = rfsim("run", "sort", "--size", "small", *es)
    assert p.returncode == 2 and "deadlock rule 2" in p.stderr, p.stderr
    p = rfsim("analyze", "sort", "-s", "regmutex.enable=1", "-s", "regmutex.es=8",
              "-s", "compiler.schedule=none", "--json", "-")
    assert p.returncode == 0, p.stderr
    ks = {k["name"]: k["regmutex"] for k in json.loads(p.stdout)["kernels"]}
    assert ks["radix_scan"]["es"] == 8
    assert ks["radix_hist"]["es"] == 0 and "deadlock rule 2" in ks["radix_hist"]["why_off"]


def test_rule2_placement_refusal_is_decided_at_launch():
    """Bug: a forced |Es| whose barriers the placement could not keep
    released (the closure over divergence or a loop made one acquired:
    stencil27 at |Es| 8, |Bs| 56, while 54 registers are live at its
    barriers) failed the module at load, exit 1 (CUDA_ERROR_INVALID_PTX).
    It is now a refusal of that kernel's launch, exit 2, naming the rule,
    and analyze shows it."""
    es = ["-c", "fermi-gtx480", "-s", "rf.model=regmutex", "-s", "regmutex.es=8", *PRESSURE]
    p = rfsim("run", "stencil3d", "--size", "small", *es)
    assert p.returncode == 2, p.stderr
    assert ("|Bs| = 56 impossible for 'stencil27': a CTA barrier would sit in an "
            "acquired region (deadlock rule 2)") in p.stderr
    assert "INVALID_PTX" not in p.stderr
    p = rfsim("analyze", "stencil3d", *es, "--json", "-")
    assert p.returncode == 0, p.stderr
    k = json.loads(p.stdout)["kernels"][0]["regmutex"]
    assert k["es"] == 0 and "deadlock rule 2" in k["why_off"]
