"""Register allocation end to end: the allocated code computes what nvcc's
virtual-register code computes, and its register counts are NVIDIA's.

Every built-in workload runs at --size small four ways -- virtual registers
(-s compiler.regalloc=0), allocated (the default), and allocated under
maxrregcount 24 and 16, which forces spills to local memory -- and must
pass its own output check each time.  A hand-written kernel with a loop,
divergence, predicates and 64-bit values runs under the same modes plus
harsher ones and must dump identical buffers.  `rfsim analyze --json` must
have the documented shape and agree with what `rfsim run` reports.  With
ptxas installed, the counts are held to the quality bar against
`ptxas -v -arch=sm_90` (docs/gen_workloads.py writes the same comparison
to docs/workloads.md).
"""

import json
import sys

import pytest

from rfsim_test import ROOT, RFSIM, rfsim, workloads

sys.path.insert(0, str(ROOT / "docs"))
import gen_workloads  # noqa: E402

MODES = {
    "virtual": ["-s", "compiler.regalloc=0"],
    "allocated": [],
    "cap24": ["-s", "maxrregcount=24"],
    "cap16": ["-s", "maxrregcount=16"],
}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("workload", workloads())
def test_workload_output_identical(workload, mode):
    p = rfsim("run", workload, "--size", "small", *MODES[mode])
    assert p.returncode == 0, f"{workload} {mode}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout


# a loop with a carried sum, a divergent branch, guarded writes, 64-bit
# arithmetic, a shuffle and five predicates live across the loop:
# out[i] = f(in[i]) for every thread
KERNEL = """\
.version 7.0
.target sm_80
.address_size 64
.visible .entry mix(.param .u64 mix_out, .param .u64 mix_in, .param .u32 mix_n)
{
	.reg .pred %p<10>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<12>;
	.reg .f32 %f<8>;
	ld.param.u64 %rd1, [mix_out];
	ld.param.u64 %rd2, [mix_in];
	ld.param.u32 %r1, [mix_n];
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd4, %rd2;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.s32 %r5, %r3, %r4, %r2;
	mul.wide.u32 %rd5, %r5, 4;
	add.s64 %rd6, %rd4, %rd5;
	ld.global.u32 %r6, [%rd6];
	setp.lt.u32 %p5, %r6, 100;
	setp.gt.u32 %p6, %r5, 7;
	and.b32 %r21, %r6, 1;
	setp.eq.u32 %p7, %r21, 0;
	setp.ne.u32 %p8, %r2, 3;
	mov.u32 %r7, 0;
	mov.u32 %r8, %r6;
	mov.u64 %rd7, 1;
$L_loop:
	mul.lo.s32 %r9, %r8, 3;
	add.s32 %r10, %r9, %r7;
	xor.b32 %r11, %r10, %r5;
	and.b32 %r12, %r11, 7;
	setp.eq.u32 %p1, %r12, 3;
	@%p1 bra $L_odd;
	shr.u32 %r13, %r10, 1;
	add.s32 %r8, %r13, %r6;
	bra.uni $L_next;
$L_odd:
	mul.wide.u32 %rd8, %r10, %r12;
	add.s64 %rd7, %rd7, %rd8;
	cvt.u32.u64 %r14, %rd7;
	add.s32 %r8, %r14, 1;
$L_next:
	setp.gt.u32 %p2, %r8, 1000;
	@%p2 and.b32 %r8, %r8, 1023;
	@!%p2 add.s32 %r8, %r8, %r2;
	add.s32 %r7, %r7, 1;
	setp.lt.u32 %p3, %r7, %r1;
	@%p3 bra $L_loop;
	shfl.sync.bfly.b32 %r15|%p4, %r8, 1, 31, -1;
	selp.u32 %r16, %r15, 0, %p4;
	add.s32 %r17, %r16, %r8;
	cvt.rn.f32.u32 %f1, %r17;
	mul.f32 %f2, %f1, 0f3F000000;
	cvt.rzi.u32.f32 %r18, %f2;
	cvt.u32.u64 %r19, %rd7;
	add.s32 %r20, %r18, %r19;
	selp.u32 %r22, 1, 2, %p5;
	selp.u32 %r23, 4, 8, %p6;
	selp.u32 %r24, 16, 32, %p7;
	selp.u32 %r25, 64, 128, %p8;
	add.s32 %r26, %r22, %r23;
	add.s32 %r27, %r24, %r25;
	add.s32 %r28, %r26, %r27;
	mad.lo.s32 %r20, %r28, 1000, %r20;
	add.s64 %rd9, %rd3, %rd5;
	st.global.u32 [%rd9], %r20;
	ret;
}
"""

KMODES = dict(MODES, cap8=["-s", "maxrregcount=8"], cap1=["-s", "maxrregcount=1"],
              pred4=["-s", "compiler.pred_regs=4", "-s", "maxrregcount=12"])


def run_kernel(tmp_path, mode):
    ptx = tmp_path / "mix.ptx"
    ptx.write_text(KERNEL)
    dump = tmp_path / mode
    dump.mkdir()
    p = rfsim("run", ptx, "-g", "4", "-b", "64", "-a", "buf:u32:256:zero",
              "-a", "buf:u32:256:rand", "-a", "u32:37", "--dump", dump, *KMODES[mode])
    assert p.returncode == 0, f"{mode}: {p.stderr}"
    return (dump / "arg0.bin").read_bytes()


def test_kernel_identical_under_every_mode(tmp_path):
    want = run_kernel(tmp_path, "virtual")
    assert any(want), "the kernel wrote nothing"
    for mode in KMODES:
        if mode != "virtual":
            assert run_kernel(tmp_path, mode) == want, mode


def test_analyze_json_shape(tmp_path):
    out = tmp_path / "a.json"
    p = rfsim("analyze", "sgemm", "--json", out)
    assert p.returncode == 0, p.stderr
    ks = json.loads(out.read_text())["kernels"]
    assert ks
    for k in ks:
        for key in ("cfg", "name", "regs_per_thread", "spills", "blocks", "occupancy"):
            assert key in k, key
        assert len(k["cfg"]) == k["blocks"]
        assert all(0 <= s < k["blocks"] for succ in k["cfg"] for s in succ)
        o = k["occupancy"]
        assert o["limiter"] in ("registers", "shared", "threads", "ctas")
        assert o["warps_per_sm"] >= o["ctas_per_sm"] > 0
        assert 0 < k["regs_per_thread"] <= 63          # fermi-gtx480 by default
        prof = k["live_profile"]
        assert prof["thread"]["p100"] <= k["regs_per_thread"]
        assert prof["thread"]["p50"] <= prof["warp"]["p50"]


def test_maxrregcount_caps_run_and_analyze(tmp_path):
    js = json.loads(rfsim("analyze", "sgemm", "-s", "maxrregcount=24", "--json", "-").stdout)
    k = js["kernels"][0]
    assert k["regs_per_thread"] <= 24 and k["spills"] > 0 and k["cap_from"] == "maxrregcount"
    st = tmp_path / "s.json"
    p = rfsim("run", "sgemm", "--size", "small", "-s", "maxrregcount=24", "--stats", st)
    assert p.returncode == 0, p.stderr
    text = st.read_text()
    assert f'"regs_per_thread": {k["regs_per_thread"]}' in text


def test_analyze_listing():
    p = rfsim("analyze", "saxpy", "--listing")
    assert p.returncode == 0, p.stderr
    assert ".entry saxpy" in p.stdout and "// last:" in p.stdout
    assert "fma.rn.f32" in p.stdout


def test_analyze_errors(tmp_path):
    assert rfsim("analyze").returncode == 2
    assert rfsim("analyze", "no_such_workload").returncode == 2
    assert rfsim("analyze", "saxpy", "--bogus").returncode == 2
    assert rfsim("analyze", "saxpy", "-k", "nope").returncode == 2
    bad = tmp_path / "bad.ptx"
    bad.write_text(".version 7.0\n.target sm_80\n.address_size 64\n.entry k() { frob; }\n")
    p = rfsim("analyze", bad)
    assert p.returncode == 2 and "bad.ptx:4:" in p.stderr


def test_register_counts_close_to_ptxas():
    ptxas = gen_workloads.ptxas_path()
    if not ptxas:
        pytest.skip("ptxas not found: register counts not compared with NVIDIA's")
    rows = gen_workloads.compare(str(RFSIM), ptxas)
    s = gen_workloads.summary(rows)
    assert s and s["n"] >= len(workloads())
    table = "\n".join(f'{x["kernel"]}: rfsim {x["regs"]} ptxas {x["ptxas"]} '
                      f'ratio {x["ratio"]:.2f}' for x in rows if x["ratio"])
    assert 0.8 <= s["median"] <= 1.25, table
    assert 0.5 <= s["min"] and s["max"] <= 2.0, table
