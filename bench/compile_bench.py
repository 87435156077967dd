#!/usr/bin/env python3
"""compile_bench.py -- how fast rfsim's compiler half is: analyses and
register allocation of a 10,000-instruction kernel (target < 50 ms).

The kernel is generated (deterministically): a sequence of loops whose
unrolled bodies load, multiply-add into two dozen live accumulators,
branch on data and store, with 64-bit address arithmetic -- the shape of
nvcc's output for stencils and dense kernels, with some 65 registers live
at the peak, so the default GTX 480 config (63 registers) also has to
spill.  `rfsim analyze --json` reports the CPU time of the pipeline
(cfg, liveness, allocation; pass.c) per kernel; the best of five runs is
shown per config.  bench.py runs this first; alone:

    python3 bench/compile_bench.py [RFSIM]
"""

import json
import os
import random
import subprocess
import sys
import tempfile

RUNS = 5
CONFIGS = ["fermi-gtx480", "hopper-h100"]


import random

def big_kernel_ptx(ninsn=10000, seed=1):
    """PTX of one kernel with about ninsn instructions: a sequence of loops
    whose unrolled bodies load, multiply-add into live accumulators, branch
    on data and store, with 64-bit address arithmetic -- the shape of nvcc's
    output for stencils and dense kernels (deterministic for a seed)."""
    rnd = random.Random(seed)
    out, n = [], [0]
    cnt = {"r": 0, "rd": 0, "f": 0, "p": 0}

    def reg(k):
        cnt[k] += 1
        return f"%{k}{cnt[k]}"

    def ins(s):
        out.append("\t" + s + ";")
        n[0] += 1

    tid, ntid, cta = reg("r"), reg("r"), reg("r")
    a, b, nn = reg("rd"), reg("rd"), reg("r")
    ins(f"ld.param.u64 {a}, [big_param_0]")
    ins(f"ld.param.u64 {b}, [big_param_1]")
    ins(f"ld.param.u32 {nn}, [big_param_2]")
    ga, gb = reg("rd"), reg("rd")
    ins(f"cvta.to.global.u64 {ga}, {a}")
    ins(f"cvta.to.global.u64 {gb}, {b}")
    ins(f"mov.u32 {tid}, %tid.x")
    ins(f"mov.u32 {ntid}, %ntid.x")
    ins(f"mov.u32 {cta}, %ctaid.x")
    gid = reg("r")
    ins(f"mad.lo.s32 {gid}, {cta}, {ntid}, {tid}")
    acc = []
    for _ in range(24):
        f = reg("f")
        ins(f"mov.f32 {f}, 0f00000000")
        acc.append(f)
    sec = 0
    while n[0] < ninsn - 60:
        sec += 1
        i = reg("r")
        ins(f"mov.u32 {i}, 0")
        out.append(f"$L_loop{sec}:")
        idx = reg("r")
        ins(f"add.s32 {idx}, {gid}, {i}")
        off = reg("rd")
        ins(f"mul.wide.s32 {off}, {idx}, 4")
        base = reg("rd")
        ins(f"add.s64 {base}, {ga}, {off}")
        vals = []
        for u in range(rnd.randint(6, 14)):
            v = reg("f")
            ins(f"ld.global.f32 {v}, [{base}+{4 * u * rnd.randint(1, 9)}]")
            vals.append(v)
        for _ in range(rnd.randint(20, 40)):
            x, y = rnd.choice(vals), rnd.choice(vals)
            t = rnd.randrange(len(acc))
            nf = reg("f")
            ins(f"fma.rn.f32 {nf}, {x}, {y}, {acc[t]}")
            acc[t] = nf
        if rnd.random() < 0.6:
            p = reg("p")
            ins(f"setp.gt.f32 {p}, {rnd.choice(acc)}, {rnd.choice(vals)}")
            ins(f"@{p} bra $L_skip{sec}")
            for _ in range(rnd.randint(3, 8)):
                t = rnd.randrange(len(acc))
                nf = reg("f")
                ins(f"mul.f32 {nf}, {acc[t]}, {rnd.choice(vals)}")
                ins(f"mov.f32 {acc[t]}, {nf}")
            out.append(f"$L_skip{sec}:")
        ins(f"add.s32 {i}, {i}, 1")
        q = reg("p")
        ins(f"setp.lt.s32 {q}, {i}, {nn}")
        ins(f"@{q} bra $L_loop{sec}")
        so = reg("rd")
        ins(f"add.s64 {so}, {gb}, {off}")
        ins(f"st.global.f32 [{so}], {rnd.choice(acc)}")
    for k, f in enumerate(acc):
        ins(f"st.global.f32 [{gb}+{4 * k}], {f}")
    ins("ret")
    decl = "".join(f"\t.reg .{t} %{k}<{cnt[k] + 1}>;\n"
                   for k, t in (("p", "pred"), ("r", "b32"), ("rd", "b64"), ("f", "f32")))
    return (".version 7.0\n.target sm_80\n.address_size 64\n\n"
            ".visible .entry big(\n\t.param .u64 big_param_0,\n\t.param .u64 big_param_1,\n"
            "\t.param .u32 big_param_2\n)\n{\n" + decl + "\n" + "\n".join(out) + "\n}\n")


def compile_bench(rfsim, ninsn=10000):
    """Print the compile time per config; returns the worst best-of-RUNS in ms."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.ptx")
        with open(path, "w") as f:
            f.write(big_kernel_ptx(ninsn))
        print(f"compile: analyses + register allocation of a {ninsn}-instruction kernel "
              f"(target < 50 ms)")
        worst = 0.0
        for cfg in CONFIGS:
            best, k = None, None
            for _ in range(RUNS):
                p = subprocess.run([rfsim, "analyze", path, "-c", cfg, "--json", "-"],
                                   capture_output=True, text=True, check=True)
                k = json.loads(p.stdout)["kernels"][0]
                best = k["seconds"] if best is None else min(best, k["seconds"])
            worst = max(worst, best * 1e3)
            print(f"  {cfg:14} {k['instructions']:>6} instructions, {k['regs_per_thread']:>3} "
                  f"registers, {k['spills']:>3} spilled: {best * 1e3:7.1f} ms CPU")
        print()
        return worst


if __name__ == "__main__":
    compile_bench(sys.argv[1] if len(sys.argv) > 1 else "build/rfsim")
