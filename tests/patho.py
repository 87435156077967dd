#!/usr/bin/env python3
"""patho.py -- pathological kernels for the compiler half: PTX that is legal,
runs, and stretches one dimension that real kernels keep small, so that a
pass whose time or memory grows faster than the code shows up.  (A helper of
tests/test_scale.py and bench/patho_bench.py; no test_ prefix.)

Each generator takes one size n and returns the PTX of one kernel `patho`
(in, out, n): in and out are u32 buffers indexed by the thread, n is a value
the code compares with but never equals.  RUN_ARGS run it on one warp:

    rfsim run K.ptx -k patho -g 1 -b 32 -a buf:u32:8192:iota -a buf:u32:64:zero -a u32:0

    ifchain   n divergent if-blocks one after another (5 instructions and
              3 fresh registers each): many branches, many regions
    nest      n ifs nested inside each other (3-4 instructions each): every
              region holds every inner one; statically divergent, never
              taken at run time
    switch    a switch of n cases as nvcc writes one without a jump table:
              a chain of compares, n case blocks, one join
    wide      n values loaded, all live at once, then summed: n virtual
              registers interfering with one another
    straight  n instructions of straight-line arithmetic, each value read by
              the next two and one 16 back: n short-lived registers
    loops     n/3 groups of three nested counting loops (6 instructions
              per loop)

`python3 tests/patho.py NAME N > k.ptx` writes one.
"""

import sys

RUN_ARGS = ["-k", "patho", "-g", "1", "-b", "32", "-a", "buf:u32:8192:iota",
            "-a", "buf:u32:64:zero", "-a", "u32:0"]


class K:
    """One kernel being written: fresh registers by kind, instructions."""

    def __init__(self):
        self.cnt = {"r": 0, "rd": 0, "p": 0}
        self.body = []

    def reg(self, k="r"):
        self.cnt[k] += 1
        return f"%{k}{self.cnt[k]}"

    def ins(self, s):
        self.body.append("\t" + s + ";")

    def label(self, s):
        self.body.append(s + ":")

    def prologue(self):
        """x = in[tid] (into self.x), &out[tid] (self.out), tid (self.tid)."""
        a, b, self.n = self.reg("rd"), self.reg("rd"), self.reg()
        self.ins(f"ld.param.u64 {a}, [patho_param_0]")
        self.ins(f"ld.param.u64 {b}, [patho_param_1]")
        self.ins(f"ld.param.u32 {self.n}, [patho_param_2]")
        ga, gb = self.reg("rd"), self.reg("rd")
        self.ins(f"cvta.to.global.u64 {ga}, {a}")
        self.ins(f"cvta.to.global.u64 {gb}, {b}")
        self.tid = self.reg()
        self.ins(f"mov.u32 {self.tid}, %tid.x")
        off = self.reg("rd")
        self.ins(f"mul.wide.u32 {off}, {self.tid}, 4")
        self.inp, self.out = self.reg("rd"), self.reg("rd")
        self.ins(f"add.s64 {self.inp}, {ga}, {off}")
        self.ins(f"add.s64 {self.out}, {gb}, {off}")
        self.x = self.reg()
        self.ins(f"ld.global.u32 {self.x}, [{self.inp}]")

    def text(self, result):
        self.ins(f"st.global.u32 [{self.out}], {result}")
        self.ins("ret")
        decl = "".join(f"\t.reg .{t} %{k}<{self.cnt[k] + 1}>;\n"
                       for k, t in (("p", "pred"), ("r", "b32"), ("rd", "b64")))
        return (".version 7.0\n.target sm_80\n.address_size 64\n\n"
                ".visible .entry patho(\n\t.param .u64 patho_param_0,\n"
                "\t.param .u64 patho_param_1,\n\t.param .u32 patho_param_2\n)\n{\n"
                + decl + "\n" + "\n".join(self.body) + "\n}\n")


def ifchain(n):
    k = K()
    k.prologue()
    acc = k.reg()
    k.ins(f"mov.u32 {acc}, {k.x}")
    for i in range(n):
        t, p, u = k.reg(), k.reg("p"), k.reg()
        k.ins(f"and.b32 {t}, {k.tid}, {1 << (i % 5)}")
        k.ins(f"setp.ne.s32 {p}, {t}, 0")
        k.ins(f"@{p} bra $L_if{i}")
        k.ins(f"add.s32 {u}, {acc}, {i}")
        k.ins(f"xor.b32 {acc}, {u}, {k.x}")
        k.label(f"$L_if{i}")
    return k.text(acc)


def nest(n):
    """Guarded branches on the parameter n (0), never taken: the warp goes
    down all n levels together."""
    k = K()
    k.prologue()
    acc = k.reg()
    k.ins(f"mov.u32 {acc}, {k.x}")
    for i in range(n):
        p = k.reg("p")
        k.ins(f"setp.eq.s32 {p}, {k.n}, {i + 1000}")
        k.ins(f"@{p} bra $L_end{i}")
        k.ins(f"add.s32 {acc}, {acc}, {i}")
    for i in reversed(range(n)):
        k.label(f"$L_end{i}")
        if i % 2:
            t = k.reg()
            k.ins(f"xor.b32 {t}, {acc}, {i}")
            k.ins(f"add.s32 {acc}, {t}, {k.x}")
    return k.text(acc)


def switch(n):
    k = K()
    k.prologue()
    v, res = k.reg(), k.reg()
    k.ins(f"rem.u32 {v}, {k.x}, {n}")
    for i in range(n):
        p = k.reg("p")
        k.ins(f"setp.eq.s32 {p}, {v}, {i}")
        k.ins(f"@{p} bra $L_case{i}")
    k.ins(f"mov.u32 {res}, {k.x}")
    k.ins("bra.uni $L_join")
    for i in range(n):
        t = k.reg()
        k.label(f"$L_case{i}")
        k.ins(f"mul.lo.s32 {t}, {k.x}, {i + 3}")
        k.ins(f"add.s32 {res}, {t}, {i}")
        k.ins("bra.uni $L_join")
    k.label("$L_join")
    return k.text(res)


def wide(n):
    k = K()
    k.prologue()
    vals = []
    for i in range(n):
        r = k.reg()
        k.ins(f"ld.global.u32 {r}, [{k.inp}+{4 * (i % 4096)}]")
        vals.append(r)
    acc = k.x
    for r in vals:
        s = k.reg()
        k.ins(f"add.s32 {s}, {acc}, {r}")
        acc = s
    return k.text(acc)


def straight(n):
    k = K()
    k.prologue()
    win = [k.x]
    ops = ["add.s32", "xor.b32", "mul.lo.s32", "sub.s32", "or.b32", "and.b32"]
    for i in range(n):
        r = k.reg()
        a, b = win[-1], win[-2] if len(win) > 1 else k.x
        if i % 4 == 3:
            b = win[-16] if len(win) >= 16 else k.tid
        k.ins(f"{ops[i % len(ops)]} {r}, {a}, {b}")
        win.append(r)
        if len(win) > 16:
            win.pop(0)
    return k.text(win[-1])


def loops(n):
    k = K()
    k.prologue()
    acc = k.reg()
    k.ins(f"mov.u32 {acc}, {k.x}")
    for g in range(max(1, n // 3)):
        idx = []
        for d in range(3):
            i = k.reg()
            idx.append(i)
            k.ins(f"mov.u32 {i}, 0")
            k.label(f"$L_loop{g}_{d}")
            t = k.reg()
            k.ins(f"add.s32 {t}, {acc}, {i}")
            k.ins(f"xor.b32 {acc}, {t}, {g * 3 + d}")
        for d in reversed(range(3)):
            p = k.reg("p")
            k.ins(f"add.s32 {idx[d]}, {idx[d]}, 1")
            k.ins(f"setp.lt.u32 {p}, {idx[d]}, 2")
            k.ins(f"@{p} bra $L_loop{g}_{d}")
    return k.text(acc)


GENERATORS = {"ifchain": ifchain, "nest": nest, "switch": switch, "wide": wide,
              "straight": straight, "loops": loops}


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in GENERATORS:
        sys.exit(f"usage: patho.py {'|'.join(GENERATORS)} N")
    sys.stdout.write(GENERATORS[sys.argv[1]](int(sys.argv[2])))
