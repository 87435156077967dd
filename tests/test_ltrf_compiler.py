"""LTRF compiler side end to end (issue 8, items 1-3): register-intervals,
strands and rfsim.prefetch insertion.

Every built-in workload runs at --size small with -s ltrf.partition=interval
and =strand and must pass its own output check (the functional core runs
the directive as a no-op, so output is unchanged; --functional keeps this
test about the compiler: what the timing model does with the directive is
the register-file models' business).  `rfsim analyze --json`
must report, per kernel, the "cfg" the subgraphs were formed on, the
"intervals" (id, entry_block, blocks, regs, preds) and the "ltrf" code-size
report for both encodings of §3.2; the JSON is checked against the
invariants independently of the C code: every block in exactly one
interval, edges from outside enter only at the entry block, working sets
<= N.  A hand-written kernel with an irreducible loop (two entries) runs
under every partition and must dump identical buffers.
"""

import json

import pytest

from rfsim_test import rfsim, workloads


PARTITIONS = ["interval", "strand"]


@pytest.mark.parametrize("partition", PARTITIONS)
@pytest.mark.parametrize("workload", workloads())
def test_workload_passes(workload, partition):
    p = rfsim("run", workload, "--size", "small", "--functional", "-s",
              f"ltrf.partition={partition}")
    assert p.returncode == 0, f"{workload} {partition}: {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout


def analyze(what, *opts):
    p = rfsim("analyze", what, "--json", "-", *opts)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def check_kernel(k, n):
    """the interval invariants, from the JSON alone"""
    cfg, ivls = k["cfg"], k["intervals"]
    assert k["blocks"] == len(cfg)
    owner = {}
    for iv in ivls:
        assert set(iv) >= {"id", "entry_block", "blocks", "regs", "preds"}
        assert iv["entry_block"] in iv["blocks"]
        for b in iv["blocks"]:
            assert b not in owner, f"block {b} in two intervals"
            owner[b] = iv["id"]
        assert len(iv["regs"]) == len(set(iv["regs"]))
        if len(iv["regs"]) > n:     # only a lone instruction naming more than N
            assert k["ltrf"]["wide"] > 0
    assert sorted(owner) == list(range(len(cfg))), "every block in exactly one interval"
    assert owner.get(0) == 0 and ivls[0]["entry_block"] == 0
    preds = {iv["id"]: set() for iv in ivls}
    for u, succ in enumerate(cfg):
        for v in succ:
            if owner[u] != owner[v]:
                assert ivls[owner[v]]["entry_block"] == v, f"edge {u}->{v} enters mid-interval"
                preds[owner[v]].add(owner[u])
    for iv in ivls:
        assert sorted(preds[iv["id"]]) == iv["preds"]


@pytest.mark.parametrize("partition", PARTITIONS)
@pytest.mark.parametrize("workload", ["saxpy", "sgemm", "kmeans", "lavamd", "btree", "mum"])
def test_analyze_json(workload, partition):
    n = 16 if partition == "interval" else 12
    d = analyze(workload, "-s", f"ltrf.partition={partition}", "-s",
                f"ltrf.regs_per_interval={n}")
    assert d["kernels"]
    for k in d["kernels"]:
        lt = k["ltrf"]
        assert lt["partition"] == partition and lt["regs_per_interval"] == n
        assert lt["subgraphs"] == len(k["intervals"])
        if partition == "strand":
            assert lt["pass2_rounds"] == 0 and lt["subgraphs"] == lt["pass1_subgraphs"]
        else:
            assert lt["subgraphs"] <= lt["pass1_subgraphs"]
        cs = lt["code_size"]
        assert cs["prefetches"] >= lt["subgraphs"] > 0
        assert cs["base_bits"] == cs["instructions"] * 64
        assert cs["bit"]["extra_bits"] == cs["instructions"] + cs["prefetches"] * 256
        assert cs["instruction"]["extra_bits"] == cs["prefetches"] * (64 + 256)
        assert cs["encoding"] == "instruction"
        check_kernel(k, n)


def test_analyze_without_partition():
    d = analyze("saxpy")
    k = d["kernels"][0]
    assert "intervals" not in k and "ltrf" not in k and "cfg" in k


def test_strands_no_fewer_than_intervals():
    for w in ["sgemm", "lavamd", "mum"]:
        iv = analyze(w, "-s", "ltrf.partition=interval")["kernels"]
        st = analyze(w, "-s", "ltrf.partition=strand")["kernels"]
        assert sum(k["ltrf"]["subgraphs"] for k in st) >= sum(k["ltrf"]["subgraphs"] for k in iv)


def test_bad_partition_rejected():
    p = rfsim("run", "saxpy", "--size", "small", "-s", "ltrf.partition=bogus")
    assert p.returncode != 0


# a loop with two entries (irreducible): odd threads enter at L1, even ones at L2
IRREDUCIBLE = """\
.version 7.0
.target sm_80
.address_size 64

.visible .entry irr(.param .u64 irr_out, .param .u32 irr_n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [irr_out];
	ld.param.u32 %r1, [irr_n];
	mov.u32 %r2, %tid.x;
	mov.u32 %r5, %r2;
	mov.u32 %r3, 0;
	and.b32 %r4, %r2, 1;
	setp.eq.u32 %p1, %r4, 0;
	@%p1 bra L2;
L1:
	add.u32 %r3, %r3, 3;
	add.u32 %r2, %r2, 1;
L2:
	add.u32 %r3, %r3, %r2;
	setp.lt.u32 %p2, %r3, %r1;
	@%p2 bra L1;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r3;
	ret;
}
"""


def test_irreducible_kernel(tmp_path):
    src = tmp_path / "irr.ptx"
    src.write_text(IRREDUCIBLE)
    dumps = {}
    for part in ["none", *PARTITIONS]:
        for n in [16, 4]:
            out = tmp_path / f"{part}{n}"
            p = rfsim("run", src, "--functional", "-k", "irr", "-g", "1", "-b", "64",
                      "-a", "buf:u32:64:zero", "-a", "u32:1000", "--dump", out,
                      "-s", f"ltrf.partition={part}", "-s", f"ltrf.regs_per_interval={n}")
            assert p.returncode == 0, p.stderr
            dumps[part, n] = (out / "arg0.bin").read_bytes()
    assert len(set(dumps.values())) == 1
    d = analyze(str(src), "-s", "ltrf.partition=interval", "-s", "ltrf.regs_per_interval=4")
    k = d["kernels"][0]
    assert k["reducible"] is False
    check_kernel(k, 4)
