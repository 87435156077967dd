"""cp.async and wmma end to end (tests/sem/cp_async.ptx, generated wmma kernels).

cp.async: every operand form (cp-size 4/8/16, .ca/.cg, src-size as immediate and
register, ignore-src) against the bytes the PTX ISA says each lane copies, the
out-of-bounds reports, wait_group's cost in cycles, and double buffering under
the two-level scheduler and every register-file model.

wmma: for every shape and type rfsim runs, a kernel is generated that loads a, b
and c (strided, each layout, global / generic / shared addresses), multiplies,
scales d element-wise (f32: by 2; the mapping is the same for every layout, so
element-wise code sees matching elements) and stores d; the result is compared
bit for bit with the reference of exec_mma.c's essay computed here: products
summed in double, k in order, c added last, one rounding to d's type (tf32:
inputs truncated to 10 mantissa bits; f64: fma chain, exact for these inputs;
integers exact, .satfinite clamps).
"""

import os
import random
import struct
import subprocess
from pathlib import Path

import pytest

from differential import crosscheck
from rfsim_test import models

ROOT = Path(__file__).resolve().parent.parent
SEM = ROOT / "tests" / "sem" / "cp_async.ptx"
CORPUS = ROOT / "tests" / "ptx" / "tensor.sm80.ptx"
RFSIM = Path(os.environ.get("RFSIM", "build/rfsim"))
if not RFSIM.is_absolute():
    RFSIM = ROOT / RFSIM


def run(tmp, ptx, kernel, grid, block, *args, sets=(), config=None, differential=True):
    """rfsim run PTX with a fresh dump directory in tmp; (process, dump dir).  A
    run that succeeded is checked against functional and timing mode under
    every model (differential.py) unless differential=False."""
    d = tmp / f"dump{len(list(tmp.iterdir()))}"
    cmd = [str(RFSIM), "run", str(ptx), "-k", kernel, "-g", str(grid), "-b", str(block),
           "--dump", str(d)]
    for a in args:
        cmd += ["-a", a]
    if config:
        cmd += ["-c", config]
    for s in sets:
        cmd += ["-s", s]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode == 0 and differential:
        crosscheck(cmd, d)
    return p, d


def infile(tmp, name, data):
    p = tmp / name
    p.write_bytes(bytes(data))
    return f"file={p}"


# ---- cp.async ------------------------------------------------------------------

def test_cp_async_forms(tmp_path):
    src = infile(tmp_path, "src.bin", [i & 255 for i in range(2048)])
    p, d = run(tmp_path, SEM, "cpa", 1, 32, f"buf:u8:2048:{src}", "buf:u8:1408:zero")
    assert p.returncode == 0, p.stderr
    got = (d / "arg1.bin").read_bytes()
    b = lambda i: i & 255
    want = bytearray()
    for t in range(32):                       # 4 bytes of src + 4t
        want += bytes(b(4 * t + i) for i in range(4))
    for t in range(32):                       # cp-size 8, src-size 5: 3 zero bytes
        want += bytes(b(8 * t + i) if i < 5 else 0 for i in range(8))
    for t in range(32):                       # src-size t % 17 (16 = all for t = 16)
        want += bytes(b(16 * t + i) if i < t % 17 else 0 for i in range(16))
    for t in range(32):                       # ignore-src set for odd lanes: zeros
        want += bytes(0 if t % 2 else b(512 + 16 * t + i) for i in range(16))
    bad = [i for i in range(len(want)) if got[i] != want[i]]
    assert not bad, f"bytes {bad[:16]} differ"


def test_cp_async_reads_only_src_size(tmp_path):
    """16-byte copy of the last 4 bytes of a 36-byte buffer with src-size 4: no fault."""
    src = infile(tmp_path, "s36.bin", range(36))
    p, d = run(tmp_path, SEM, "cpa_tail", 1, 1, f"buf:u8:36:{src}", "buf:u8:16:zero")
    assert p.returncode == 0, p.stderr
    assert (d / "arg1.bin").read_bytes() == bytes([32, 33, 34, 35] + [0] * 12)


@pytest.mark.parametrize("kernel, marker, says", [
    ("cpa_oob", "SRC-OOB", "out-of-bounds global load of 8 bytes"),
    ("cpa_dst", "DST-OOB", "out-of-bounds shared store of 16 bytes at address 0x40"),
])
def test_cp_async_out_of_bounds(tmp_path, kernel, marker, says):
    src = infile(tmp_path, "s36.bin", range(36))
    p, _ = run(tmp_path, SEM, kernel, 1, 1, f"buf:u8:36:{src}", "buf:u8:16:zero")
    assert p.returncode == 1, p.stderr
    line = max(i for i, s in enumerate(SEM.read_text().splitlines(), 1) if marker in s)
    assert says in p.stderr and f"cp_async.ptx:{line}" in p.stderr and kernel in p.stderr, \
        p.stderr


def test_wait_group_waits_for_the_copy(tmp_path):
    """wait_group 0 costs the copy's memory latency and the read after it sees the
    data; wait_group 1 (the one group may stay pending) does not wait."""
    src = infile(tmp_path, "s36.bin", range(36))
    cyc = {}
    for w1 in (0, 1):
        p, d = run(tmp_path, SEM, "cpa_time", 1, 1, f"buf:u8:36:{src}", "buf:u32:2:zero",
                   f"u32:{w1}", differential=False)    # it stores cycle counts
        assert p.returncode == 0, p.stderr
        cyc[w1], word = struct.unpack("<2I", (d / "arg1.bin").read_bytes())
        assert word == 0x07060504
    # fermi-gtx480: icnt.lat + l2.lat + DRAM > 100 cycles; no wait: a few cycles
    assert cyc[0] > 100 and cyc[1] < 30 and cyc[0] > cyc[1] + 100, cyc


def k4_ref(g, n):
    return [sum(g[t * 128 + i] for t in range(n)) for i in range(128)]


@pytest.mark.parametrize("config, sets", [
    ("gebhart-isca11", ["sched.active_warps=1"]),      # two-level, one active warp
    ("gebhart-isca11", ["sched.active_warps=2", "sched.suspend=marked"]),
    ("maxwell-ltrf", ["ltrf.partition=strand"]),
] + [(None, [f"rf.model={m}"]) for m in models()])
def test_double_buffering_never_deadlocks(tmp_path, config, sets):
    """cuda::memcpy_async double buffering (tensor.cu's k4): waits park and deactivate
    the warp, the completing copy wakes it; output right under every model."""
    n = 6
    g = [float(i % 23) for i in range(n * 128)]
    gf = infile(tmp_path, "g.bin", struct.pack(f"<{len(g)}f", *g))
    p, d = run(tmp_path, CORPUS, "_Z2k4PKfPfi", 4, 128, f"buf:f32:{len(g)}:{gf}",
               "buf:f32:128:zero", f"u32:{n}", sets=sets, config=config)
    assert p.returncode == 0, p.stderr
    got = struct.unpack("<128f", (d / "arg1.bin").read_bytes())
    assert list(got) == k4_ref(g, n)


# ---- wmma --------------------------------------------------------------------------

SHAPES = {"m16n16k16": (16, 16, 16), "m32n8k16": (32, 8, 16), "m8n32k16": (8, 32, 16),
          "m16n16k8": (16, 16, 8), "m8n8k4": (8, 8, 4)}
ESIZE = {"f16": 2, "bf16": 2, "s8": 1, "u8": 1, "tf32": 4, "f32": 4, "s32": 4, "f64": 8}
PACK = {"f16": "e", "s8": "b", "u8": "B", "f32": "f", "s32": "i", "f64": "d", "tf32": "f"}


def nregs(shape, frag, t):
    m, n, k = SHAPES[shape]
    rows, cols = {"a": (m, k), "b": (k, n)}.get(frag, (m, n))
    per = 1 if ESIZE[t] >= 4 else 4 // ESIZE[t]
    return 8 if t == "f16" and frag in "ab" else rows * cols // (32 * per)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def tf32(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0] & 0xffffe000
    return struct.unpack("<f", struct.pack("<I", u))[0]


def bf16_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


def values(t, n, rnd, big=False):
    """n element values of type t, and their bytes"""
    if t in ("s8", "u8", "s32"):
        lo, hi = {"s8": (-128, 127), "u8": (0, 255), "s32": (-1000, 1000)}[t]
        v = [rnd.randint(lo, hi) for _ in range(n)]
        if big:
            v = [2**31 - 5000 - x for x in v]
        return v, struct.pack(f"<{n}{PACK[t]}", *v)
    if t == "bf16":
        v = [rnd.randint(-64, 64) / 16 for _ in range(n)]
        return v, b"".join(struct.pack("<H", bf16_bits(x)) for x in v)
    if t == "tf32":                   # full f32 values: the mma truncates them
        v = [f32(rnd.uniform(-2, 2)) for _ in range(n)]
        return v, struct.pack(f"<{n}f", *v)
    v = [rnd.randint(-64, 64) / 16 for _ in range(n)]
    return v, struct.pack(f"<{n}{PACK[t]}", *v)


def layout_bytes(vals, rows, cols, es, col_major, ld):
    """the matrix (row-major list) in memory with leading dimension ld"""
    out = bytearray((ld * (cols if col_major else rows)) * es)
    for r in range(rows):
        for c in range(cols):
            off = (c * ld + r if col_major else r * ld + c) * es
            out[off:off + es] = vals[r * cols + c]
    return bytes(out)


def elems(raw, es):
    return [raw[i:i + es] for i in range(0, len(raw), es)]


def ptx_kernel(shape, at, ct, dt, la, lb, lc, ld, strides, space, sat, scale):
    """a kernel(pa, pb, pc, pd) doing d = a b + c (then *2 when scale)"""
    four = at not in ("f16",)
    regs = {}
    n = 0
    lines = []

    def frag(name, t):
        nonlocal n
        k = nregs(shape, name, t)
        kind = "fd" if t == "f64" else ("f" if t == "f32" else "r")
        names = [f"%{kind}{n + i}" for i in range(k)]
        n += k
        regs[name] = names
        return "{" + ", ".join(names) + "}"

    sp = {"global": ".global", "generic": "", "shared": ".shared"}[space]
    A, B, C = frag("a", at), frag("b", at), frag("c", ct)
    D = frag("d", dt)
    types = f".{dt}.{at}.{at}.{ct}" if four else f".{dt}.{ct}"
    mods = (".satfinite" if sat else "") + (".rn" if dt == "f64" else "")
    lines.append(f"wmma.load.a.sync.aligned.{la}.{shape}{sp}.{at} {A}, [%rd1], {strides[0]};")
    lines.append(f"wmma.load.b.sync.aligned.{lb}.{shape}.global.{at} {B}, [%rd2], {strides[1]};")
    lines.append(f"wmma.load.c.sync.aligned.{lc}.{shape}.global.{ct} {C}, [%rd3], {strides[2]};")
    lines.append(f"wmma.mma.sync.aligned.{la}.{lb}.{shape}{types}{mods} {D}, {A}, {B}, {C};")
    if scale:
        lines += [f"mul.f32 {r}, {r}, 0f40000000;" for r in regs["d"]]
    lines.append(f"wmma.store.d.sync.aligned.{ld}.{shape}.global.{dt} [%rd4], {D}, {strides[3]};")
    pre = ["ld.param.u64 %rd1, [pa];", "ld.param.u64 %rd2, [pb];", "ld.param.u64 %rd3, [pc];",
           "ld.param.u64 %rd4, [pd];"]
    if space == "shared":            # copy a into shared memory with cp.async first
        pre += ["mov.u32 %r900, %tid.x;", "shl.b32 %r900, %r900, 4;",
                "mov.u32 %r901, sa;", "LOOP:", "setp.ge.u32 %p1, %r900, 4096;",
                "@%p1 bra DONE;", "cvt.u64.u32 %rd10, %r900;", "add.s64 %rd11, %rd1, %rd10;",
                "add.s32 %r902, %r901, %r900;",
                "cp.async.cg.shared.global [%r902], [%rd11], 16;",
                "add.s32 %r900, %r900, 512;", "bra.uni LOOP;", "DONE:",
                "cp.async.wait_all;", "bar.sync 0;", "mov.u64 %rd1, sa;"]
    body = "\n\t".join(pre + lines + ["ret;"])
    return f""".version 8.0
.target sm_80
.address_size 64
.visible .entry mm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
	.reg .pred %p<4>;
	.reg .b32 %r<1000>;
	.reg .f32 %f<200>;
	.reg .f64 %fd<20>;
	.reg .b64 %rd<20>;
	.shared .align 32 .b8 sa[4096];
	{body}
}}
"""


def reference(shape, at, ct, dt, A, B, C, sat, scale):
    m, n, k = SHAPES[shape]
    out = []
    for i in range(m):
        for j in range(n):
            if at in ("s8", "u8"):
                s = C[i * n + j] + sum(A[i * k + x] * B[x * n + j] for x in range(k))
                if sat:
                    s = max(-2**31, min(2**31 - 1, s))
                s = (s + 2**31) % 2**32 - 2**31
                out.append(struct.pack("<i", s))
                continue
            conv = tf32 if at == "tf32" else float
            s = 0.0
            if dt == "f64":
                s = C[i * n + j]
                for x in range(k):
                    s = A[i * k + x] * B[x * n + j] + s       # exact: fma == mul + add
            else:
                for x in range(k):
                    s += conv(A[i * k + x]) * conv(B[x * n + j])
                s += C[i * n + j]
            if dt == "f16":
                if abs(s) >= 65520:          # rounds to infinity; .satfinite: 65504
                    out.append(struct.pack("<H", (0x7bff if sat else 0x7c00) |
                                           (0x8000 if s < 0 else 0)))
                else:
                    out.append(struct.pack("<e", s))
            elif dt == "f32":
                v = f32(s)
                out.append(struct.pack("<f", 2 * v if scale else v))
            else:
                out.append(struct.pack("<d", s))
    return b"".join(out)


def cases():
    lays = [("row", "col", "row", "col"), ("col", "row", "col", "row"),
            ("row", "row", "col", "row"), ("col", "col", "row", "col")]
    spaces = ["global", "generic", "shared", "global"]
    out = []
    for shape in ("m16n16k16", "m32n8k16", "m8n32k16"):
        for at, ct, dt in [("f16", "f32", "f32"), ("f16", "f16", "f16"), ("f16", "f16", "f32"),
                           ("f16", "f32", "f16"), ("bf16", "f32", "f32"),
                           ("s8", "s32", "s32"), ("u8", "s32", "s32")]:
            for i, lay in enumerate(lays):
                out.append((shape, at, ct, dt, lay, spaces[i], False))
    for i, lay in enumerate(lays):
        out.append(("m16n16k8", "tf32", "f32", "f32", lay, spaces[i], False))
        out.append(("m8n8k4", "f64", "f64", "f64", lay, spaces[i], False))
    out.append(("m16n16k16", "s8", "s32", "s32", lays[0], "global", True))
    out.append(("m32n8k16", "u8", "s32", "s32", lays[1], "global", True))
    out.append(("m16n16k16", "f16", "f16", "f16", lays[0], "global", True))
    return out


@pytest.mark.parametrize("shape, at, ct, dt, lay, space, sat", cases(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_wmma(tmp_path, shape, at, ct, dt, lay, space, sat):
    la, lb, lc, ld = lay
    m, n, k = SHAPES[shape]
    rnd = random.Random(f"{shape}{at}{ct}{dt}{lay}")
    es, cs, ds = ESIZE[at], ESIZE[ct], ESIZE[dt]
    A, ab = values(at, m * k, rnd)
    B, bb = values(at, k * n, rnd)
    C, cb = values(ct, m * n, rnd, big=sat and ct == "s32")
    if sat and ct == "f16":              # c at the largest f16: the sum overflows
        C = [65504.0] * (m * n)
        cb = struct.pack(f"<{m * n}e", *C)
    pad = lambda e: 32 // e              # 32 bytes of padding per row/column
    lda = (m if la == "col" else k) + pad(es)
    ldb = (k if lb == "col" else n) + pad(es)
    ldc = (m if lc == "col" else n) + pad(cs)
    ldd = (m if ld == "col" else n) + pad(ds)
    mem_a = layout_bytes(elems(ab, es), m, k, es, la == "col", lda)
    mem_b = layout_bytes(elems(bb, es), k, n, es, lb == "col", ldb)
    mem_c = layout_bytes(elems(cb, cs), m, n, cs, lc == "col", ldc)
    if space == "shared":                # the kernel copies 4096 bytes of it
        mem_a += bytes(4096 - len(mem_a))
    dbytes = ldd * (n if ld == "col" else m) * ds
    scale = dt == "f32" and not sat
    ptx = tmp_path / "mm.ptx"
    ptx.write_text(ptx_kernel(shape, at, ct, dt, la, lb, lc, ld, (lda, ldb, ldc, ldd), space,
                              sat, scale))
    args = [f"buf:u8:{len(mem_a)}:{infile(tmp_path, 'a.bin', mem_a)}",
            f"buf:u8:{len(mem_b)}:{infile(tmp_path, 'b.bin', mem_b)}",
            f"buf:u8:{len(mem_c)}:{infile(tmp_path, 'c.bin', mem_c)}",
            f"buf:u8:{dbytes}:zero"]
    p, d = run(tmp_path, ptx, "mm", 1, 32, *args)
    assert p.returncode == 0, p.stderr
    raw = (d / "arg3.bin").read_bytes()
    got = b"".join((raw[(c * ldd + r if ld == "col" else r * ldd + c) * ds:][:ds])
                   for r in range(m) for c in range(n))
    want = reference(shape, at, ct, dt, A, B, C, sat, scale)
    bad = [(i // n, i % n) for i in range(m * n) if got[i * ds:(i + 1) * ds] != want[i * ds:(i + 1) * ds]]
    assert not bad, f"{len(bad)} elements differ, first {bad[:6]}"


def test_wmma_traces_one_segment_per_row(tmp_path):
    """The lines a wmma.load/.store touches: a 16x16 f16 row-major a with stride 64
    elements is 16 rows of 32 bytes, one per 128-byte line: 16 L1 misses; the same
    matrix packed (stride 16) is 4 lines."""
    import json
    out = {}
    for lda in (16, 64):
        ptx = tmp_path / f"mm{lda}.ptx"
        ptx.write_text(ptx_kernel("m16n16k16", "f16", "f32", "f32", "row", "col", "row", "row",
                                  (lda, 16, 16, 16), "global", False, False))
        st = tmp_path / f"s{lda}.json"
        cmd = [str(RFSIM), "run", str(ptx), "-k", "mm", "-g", "1", "-b", "32", "--stats",
               str(st), "-s", "l1.cache_global=1"]
        for a in (f"buf:u8:{32 * lda}:zero", "buf:u8:512:zero", "buf:u8:1024:zero",
                  "buf:u8:1024:zero"):
            cmd += ["-a", a]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        out[lda] = json.loads(st.read_text())
    def misses(s):
        found = []
        def walk(x):
            if isinstance(x, dict):
                for k, v in x.items():
                    if k == "l1_misses":
                        found.append(v)
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(s)
        return found[0]
    # a: 16 or 4 lines, b: 4 lines (16 columns of 32 bytes, packed), c: 8 lines
    assert misses(out[64]) - misses(out[16]) == 12, (misses(out[64]), misses(out[16]))


@pytest.mark.parametrize("config, sets", [("gebhart-isca11", []), ("maxwell-ltrf", []),
                                          ("maxwell-ltrf", ["ltrf.partition=strand"])]
                         + [(None, [f"rf.model={m}"]) for m in models()])
def test_wmma_under_every_model(tmp_path, config, sets):
    """the fragments' many registers through every register-file model and pass"""
    shape, at, ct, dt = "m16n16k16", "f16", "f32", "f32"
    rnd = random.Random(7)
    A, ab = values(at, 256, rnd)
    B, bb = values(at, 256, rnd)
    C, cb = values(ct, 256, rnd)
    ptx = tmp_path / "mm.ptx"
    ptx.write_text(ptx_kernel(shape, at, ct, dt, "row", "row", "row", "row", (16, 16, 16, 16),
                              "shared", False, True))
    args = [f"buf:u8:4096:{infile(tmp_path, 'a.bin', ab + bytes(4096 - len(ab)))}",
            f"buf:u8:512:{infile(tmp_path, 'b.bin', bb)}",
            f"buf:u8:1024:{infile(tmp_path, 'c.bin', cb)}", "buf:u8:1024:zero"]
    p, d = run(tmp_path, ptx, "mm", 1, 32, *args, sets=sets, config=config)
    assert p.returncode == 0, p.stderr
    assert (d / "arg3.bin").read_bytes() == reference(shape, at, ct, dt, A, B, C, False, True)


# ---- mma.sync, ldmatrix, stmatrix --------------------------------------------------
#
# The PTX ISA specifies these fragments: which lane and register slot holds which
# element ("Matrix fragments for mma.m*n*k*", groupID = lane >> 2, threadID_in_group
# = lane % 4).  The tables are transcribed here independently of mma.c: each test
# packs a, b and c per lane as the ISA says, the kernel loads each lane's registers
# from its own slice, runs one mma, and stores d the same way; the result is unpacked
# with the d table and compared bit for bit with reference() above.

SHAPES.update({"m16n8k16": (16, 8, 16), "m16n8k8": (16, 8, 8), "m16n8k4": (16, 8, 4),
               "m16n8k32": (16, 8, 32)})


def isa_elem(shape, frag, t, lane, i):
    """(row, col) of element slot i of lane `lane` in the ISA's fragment tables"""
    g, q = lane >> 2, lane % 4
    if shape == "m8n8k4":                                   # .f64
        return {"a": (g, q), "b": (q, g)}.get(frag, (g, 2 * q + i))
    if frag in "cd":
        return (g if i < 2 else g + 8, 2 * q + (i & 1))
    es = ESIZE[t]
    if frag == "a":
        if es == 2:
            return (g if i in (0, 1, 4, 5) else g + 8, 2 * q + (i & 1) + (8 if i >= 4 else 0))
        if es == 4:
            return (g if i in (0, 2) else g + 8, q if i < 2 else q + 4)
        return (g if i < 4 or 8 <= i < 12 else g + 8, 4 * q + (i & 3) + (16 if i >= 8 else 0))
    if es == 2:
        return (2 * q + (i & 1) + (8 if i >= 2 else 0), g)
    if es == 4:
        return (q if i == 0 else q + 4, g)
    return (4 * q + (i & 3) + (16 if i >= 4 else 0), g)


def sync_slots(shape, frag, t):
    m, n, k = SHAPES[shape]
    rows, cols = {"a": (m, k), "b": (k, n)}.get(frag, (m, n))
    return rows, cols, rows * cols // 32                    # element slots per lane


def pack_lanes(shape, frag, t, raw):
    """the registers of every lane (lane-major, 4 or 8 bytes each) holding the
    row-major matrix whose element bytes are raw"""
    rows, cols, slots = sync_slots(shape, frag, t)
    es = ESIZE[t]
    el = elems(raw, es)
    out = bytearray()
    for lane in range(32):
        for i in range(slots):
            r, c = isa_elem(shape, frag, t, lane, i)
            out += el[r * cols + c]
    return bytes(out)


def unpack_lanes(shape, frag, t, raw):
    rows, cols, slots = sync_slots(shape, frag, t)
    es = ESIZE[t]
    m = [None] * (rows * cols)
    for lane in range(32):
        for i in range(slots):
            r, c = isa_elem(shape, frag, t, lane, i)
            off = (lane * slots + i) * es
            m[r * cols + c] = raw[off:off + es]
    return b"".join(m)


def sync_kernel(shape, at, bt, ct, dt, sat):
    """mm(pa, pb, pc, pd): each lane loads its a, b, c registers from its slice of
    pa..pc, d = a b + c, each lane stores its d registers to its slice of pd"""
    lines = ["mov.u32 %r0, %tid.x;", "cvt.u64.u32 %rd9, %r0;"]
    n = [1]
    frags = {}
    for k, (name, t) in enumerate([("a", at), ("b", bt), ("c", ct), ("d", dt)]):
        rows, cols, slots = sync_slots(shape, name, t)
        rb = 8 if t == "f64" else 4
        nr = slots * ESIZE[t] // rb
        kind, ty = {"f64": ("fd", "f64"), "f32": ("f", "f32")}.get(t, ("r", "b32"))
        names = [f"%{kind}{n[0] + i}" for i in range(nr)]
        n[0] += nr
        frags[name] = (names, ty, rb, nr)
        lines += [f"mul.lo.u64 %rd{20 + k}, %rd9, {nr * rb};",
                  f"add.s64 %rd{20 + k}, %rd{20 + k}, %rd{k + 1};"]
        if name != "d":
            lines += [f"ld.global.{ty} {r}, [%rd{20 + k}+{i * rb}];" for i, r in enumerate(names)]
    vec = lambda name: "{" + ", ".join(frags[name][0]) + "}"
    mods = (".satfinite" if sat else "")
    lines.append(f"mma.sync.aligned.{shape}.row.col{mods}.{dt}.{at}.{bt}.{ct} "
                 f"{vec('d')}, {vec('a')}, {vec('b')}, {vec('c')};")
    names, ty, rb, nr = frags["d"]
    lines += [f"st.global.{ty} [%rd23+{i * rb}], {r};" for i, r in enumerate(names)]
    body = "\n\t".join(["ld.param.u64 %rd1, [pa];", "ld.param.u64 %rd2, [pb];",
                        "ld.param.u64 %rd3, [pc];", "ld.param.u64 %rd4, [pd];"] + lines
                       + ["ret;"])
    return f""".version 8.0
.target sm_80
.address_size 64
.visible .entry mm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
	.reg .b32 %r<200>;
	.reg .f32 %f<200>;
	.reg .f64 %fd<20>;
	.reg .b64 %rd<40>;
	{body}
}}
"""


def sync_cases():
    out = []
    for shape in ("m16n8k16", "m16n8k8"):
        for at, ct in [("f16", "f32"), ("f16", "f16"), ("bf16", "f32")]:
            out.append((shape, at, at, ct, ct, False))
    out += [("m16n8k8", "tf32", "tf32", "f32", "f32", False),
            ("m16n8k4", "tf32", "tf32", "f32", "f32", False),
            ("m8n8k4", "f64", "f64", "f64", "f64", False)]
    for shape in ("m16n8k16", "m16n8k32"):
        for at, bt, sat in [("s8", "s8", False), ("u8", "u8", False), ("s8", "u8", False),
                            ("u8", "s8", True), ("s8", "s8", True)]:
            out.append((shape, at, bt, "s32", "s32", sat))
    return out


@pytest.mark.parametrize("shape, at, bt, ct, dt, sat", sync_cases(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_mma_sync(tmp_path, shape, at, bt, ct, dt, sat):
    m, n, k = SHAPES[shape]
    rnd = random.Random(f"sync{shape}{at}{bt}{ct}{dt}{sat}")
    A, ab = values(at, m * k, rnd)
    B, bb = values(bt, k * n, rnd)
    C, cb = values(ct, m * n, rnd, big=sat)
    if at in ("s8", "u8") and bt != at:
        pass                          # mixed signedness: each value decoded by its type
    ptx = tmp_path / "mm.ptx"
    ptx.write_text(sync_kernel(shape, at, bt, ct, dt, sat))
    fa, fb, fc = (pack_lanes(shape, "a", at, ab), pack_lanes(shape, "b", bt, bb),
                  pack_lanes(shape, "c", ct, cb))
    args = [f"buf:u8:{len(fa)}:{infile(tmp_path, 'a.bin', fa)}",
            f"buf:u8:{len(fb)}:{infile(tmp_path, 'b.bin', fb)}",
            f"buf:u8:{len(fc)}:{infile(tmp_path, 'c.bin', fc)}",
            f"buf:u8:{m * n * ESIZE[dt]}:zero"]
    p, d = run(tmp_path, ptx, "mm", 1, 32, *args)
    assert p.returncode == 0, p.stderr
    got = unpack_lanes(shape, "d", dt, (d / "arg3.bin").read_bytes())
    want = reference(shape, at, ct, dt, A, B, C, sat, False)
    ds = ESIZE[dt]
    bad = [(i // n, i % n) for i in range(m * n) if got[i * ds:(i + 1) * ds] != want[i * ds:(i + 1) * ds]]
    assert not bad, f"{len(bad)} elements differ, first {bad[:6]}"


def ldst_kernel(op, num, trans, space, target="sm_80"):
    """lm(pin, pout, prow): copy pin (2048 bytes) to shared, lane l's row address is
    sa + prow[l]; ldmatrix: store each lane's registers to pout (lane-major);
    stmatrix: load them from pout's slice, store the matrices, copy shared to pin"""
    regs = [f"%r{40 + i}" for i in range(num)]
    vec = "{" + ", ".join(regs) + "}"
    sp = ".shared" if space == "shared" else ""
    addr = ("add.s32 %r20, %r11, %r10;" if space == "shared" else
            "cvta.shared.u64 %rd20, sa; cvt.u64.u32 %rd21, %r10; add.s64 %rd20, %rd20, %rd21;")
    a = "[%r20]" if space == "shared" else "[%rd20]"
    mod = f".sync.aligned.m8n8.x{num}{'.trans' if trans else ''}{sp}.b16"
    copy_in = ["mov.u32 %r2, %r0;", "CIN:", "setp.ge.u32 %p1, %r2, 512;", "@%p1 bra CIND;",
               "mul.wide.u32 %rd5, %r2, 4;", "add.s64 %rd6, %rd1, %rd5;",
               "ld.global.b32 %r3, [%rd6];", "shl.b32 %r4, %r2, 2;", "add.s32 %r4, %r4, %r11;",
               "st.shared.b32 [%r4], %r3;", "add.s32 %r2, %r2, 32;", "bra.uni CIN;", "CIND:",
               "bar.sync 0;"]
    row = ["mul.wide.u32 %rd7, %r0, 4;", "add.s64 %rd8, %rd3, %rd7;",
           "ld.global.u32 %r10, [%rd8];", addr]
    slot = [f"mul.wide.u32 %rd9, %r0, {4 * num};", "add.s64 %rd10, %rd2, %rd9;"]
    if op == "ldmatrix":
        body = copy_in + row + [f"ldmatrix{mod} {vec}, {a};"] + slot + \
            [f"st.global.b32 [%rd10+{4 * i}], {r};" for i, r in enumerate(regs)]
    else:
        body = copy_in + row + slot + \
            [f"ld.global.b32 {r}, [%rd10+{4 * i}];" for i, r in enumerate(regs)] + \
            [f"stmatrix{mod} {a}, {vec};", "bar.sync 0;"] + \
            ["mov.u32 %r2, %r0;", "COUT:", "setp.ge.u32 %p1, %r2, 512;", "@%p1 bra COUTD;",
             "mul.wide.u32 %rd5, %r2, 4;", "add.s64 %rd6, %rd1, %rd5;",
             "shl.b32 %r4, %r2, 2;", "add.s32 %r4, %r4, %r11;", "ld.shared.b32 %r3, [%r4];",
             "st.global.b32 [%rd6], %r3;", "add.s32 %r2, %r2, 32;", "bra.uni COUT;", "COUTD:"]
    body = ["ld.param.u64 %rd1, [pin];", "ld.param.u64 %rd2, [pout];",
            "ld.param.u64 %rd3, [prow];", "mov.u32 %r0, %tid.x;", "mov.u32 %r11, sa;"] + body
    body = "\n\t".join(body + ["ret;"])
    return f""".version 8.0
.target {target}
.address_size 64
.visible .entry lm(.param .u64 pin, .param .u64 pout, .param .u64 prow)
{{
	.reg .pred %p<4>;
	.reg .b32 %r<100>;
	.reg .b64 %rd<40>;
	.shared .align 16 .b8 sa[2048];
	{body}
}}
"""


def ldmatrix_ref(smem, rows, num, trans):
    """each lane's registers (lane-major) per the ISA: lane l holds in register k the
    pair (row l/4, columns 2(l%4), +1) of matrix k, transposed with .trans"""
    def el(k, r, c):
        off = rows[8 * k + r] + 2 * c
        return smem[off:off + 2]
    out = bytearray()
    for lane in range(32):
        g, q = lane >> 2, lane % 4
        for k in range(num):
            if trans:
                out += el(k, 2 * q, g) + el(k, 2 * q + 1, g)
            else:
                out += el(k, g, 2 * q) + el(k, g, 2 * q + 1)
    return bytes(out)


def row_offsets(rnd, num):
    """distinct 16-byte rows anywhere in the 2048-byte buffer; lanes past 8 * num
    repeat valid ones, as the ISA asks"""
    rows = [16 * r for r in rnd.sample(range(128), 8 * num)]
    return rows + [rows[i % len(rows)] for i in range(32 - len(rows))]


@pytest.mark.parametrize("num", [1, 2, 4])
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("space", ["shared", "generic"])
def test_ldmatrix(tmp_path, num, trans, space):
    rnd = random.Random(f"ldm{num}{trans}{space}")
    smem = bytes(rnd.randrange(256) for _ in range(2048))
    rows = row_offsets(rnd, num)
    ptx = tmp_path / "lm.ptx"
    ptx.write_text(ldst_kernel("ldmatrix", num, trans, space))
    p, d = run(tmp_path, ptx, "lm", 1, 32, f"buf:u8:2048:{infile(tmp_path, 'in.bin', smem)}",
               f"buf:u8:{128 * num}:zero",
               f"buf:u8:128:{infile(tmp_path, 'rows.bin', struct.pack('<32I', *rows))}")
    assert p.returncode == 0, p.stderr
    assert (d / "arg1.bin").read_bytes() == ldmatrix_ref(smem, rows, num, trans)


@pytest.mark.parametrize("num, trans", [(1, False), (2, True), (4, False), (4, True)])
def test_stmatrix(tmp_path, num, trans):
    """stmatrix (sm_90) writes back exactly what ldmatrix of the same rows reads"""
    rnd = random.Random(f"stm{num}{trans}")
    smem = bytes(rnd.randrange(256) for _ in range(2048))
    rows = row_offsets(rnd, num)
    regs = bytes(rnd.randrange(256) for _ in range(128 * num))
    ptx = tmp_path / "sm.ptx"
    ptx.write_text(ldst_kernel("stmatrix", num, trans, "shared", "sm_90"))
    p, d = run(tmp_path, ptx, "lm", 1, 32, f"buf:u8:2048:{infile(tmp_path, 'in.bin', smem)}",
               f"buf:u8:{128 * num}:{infile(tmp_path, 'regs.bin', regs)}",
               f"buf:u8:128:{infile(tmp_path, 'rows.bin', struct.pack('<32I', *rows))}")
    assert p.returncode == 0, p.stderr
    got = (d / "arg0.bin").read_bytes()
    want = bytearray(smem)
    for k in range(num):                  # row r of matrix k from the registers
        for r in range(8):
            for c in range(8):
                rr, cc = (c, r) if trans else (r, c)
                lane, half = 4 * rr + cc // 2, cc % 2
                src = (lane * num + k) * 4 + 2 * half
                o = rows[8 * k + r] + 2 * c
                want[o:o + 2] = regs[src:src + 2]
    assert got == bytes(want)
    assert ldmatrix_ref(got, rows, num, trans) == regs    # the inverse of ldmatrix


def test_ldmatrix_faults(tmp_path):
    """a misaligned row address (lane 5) is reported for that lane"""
    rows = [16 * i for i in range(32)]
    rows[5] += 4
    ptx = tmp_path / "lm.ptx"
    ptx.write_text(ldst_kernel("ldmatrix", 1, False, "shared"))
    p, _ = run(tmp_path, ptx, "lm", 1, 32, "buf:u8:2048:zero", "buf:u8:128:zero",
               f"buf:u8:128:{infile(tmp_path, 'rows.bin', struct.pack('<32I', *rows))}")
    assert p.returncode != 0
    assert "misaligned" in p.stderr and "thread (5," in p.stderr, p.stderr


def stat(s, key):
    if isinstance(s, dict):
        for k, v in s.items():
            r = v if k == key else stat(v, key)
            if r is not None:
                return r
    if isinstance(s, list):
        for v in s:
            r = stat(v, key)
            if r is not None:
                return r
    return None


@pytest.mark.parametrize("stride, extra", [(16, 3), (64, 15), (128, 31)])
def test_ldmatrix_bank_waves(tmp_path, stride, extra):
    """ldmatrix.x4 is served one 8x8 matrix (eight 16-byte rows) per phase: packed rows
    take 4 wavefronts (3 extra cycles); rows 64 bytes apart fall 4 to a bank group per
    phase (16), 128 bytes apart 8 (32); the copy loop's accesses have no conflicts"""
    import json
    rows = [(stride * i) % 2048 + 16 * (stride * i // 2048) for i in range(32)]
    ptx = tmp_path / "lm.ptx"
    ptx.write_text(ldst_kernel("ldmatrix", 4, False, "shared"))
    st = tmp_path / "s.json"
    cmd = [str(RFSIM), "run", str(ptx), "-k", "lm", "-g", "1", "-b", "32", "--stats", str(st),
           "-a", "buf:u8:2048:zero", "-a", "buf:u8:512:zero",
           "-a", f"buf:u8:128:{infile(tmp_path, 'rows.bin', struct.pack('<32I', *rows))}"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert stat(json.loads(st.read_text()), "smem_conflicts") == extra


def canonical_kernel(warps):
    """gemm(pin, pd): A (16 x 16 f16, row-major, 32-byte rows) and B (16 x 8 f16,
    row-major) are copied to shared memory; each warp loads A with ldmatrix.x4, B with
    ldmatrix.x2.trans, multiplies with mma m16n8k16 (c = 0) and stores its 16 x 8 f32
    d (warp w at pd + w * 512) from the ISA's d layout -- what hand-written Ampere
    GEMMs do"""
    body = """ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pd];
	mov.u32 %r0, %tid.x;
	mov.u32 %r11, sa;
	mov.u32 %r2, %r0;
CIN:
	setp.ge.u32 %p1, %r2, 192;
	@%p1 bra CIND;
	mul.wide.u32 %rd5, %r2, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.b32 %r3, [%rd6];
	shl.b32 %r4, %r2, 2;
	add.s32 %r4, %r4, %r11;
	st.shared.b32 [%r4], %r3;
	add.s32 %r2, %r2, WARPS32;
	bra.uni CIN;
CIND:
	bar.sync 0;
	and.b32 %r5, %r0, 31;
	and.b32 %r6, %r5, 15;
	shl.b32 %r7, %r6, 5;
	shr.u32 %r8, %r5, 4;
	shl.b32 %r8, %r8, 4;
	add.s32 %r7, %r7, %r8;
	add.s32 %r7, %r7, %r11;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r40, %r41, %r42, %r43}, [%r7];
	shl.b32 %r9, %r6, 4;
	add.s32 %r9, %r9, 512;
	add.s32 %r9, %r9, %r11;
	ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%r44, %r45}, [%r9];
	mov.f32 %f1, 0f00000000;
	mov.f32 %f2, 0f00000000;
	mov.f32 %f3, 0f00000000;
	mov.f32 %f4, 0f00000000;
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, {%r40, %r41, %r42, %r43}, {%r44, %r45}, {%f1, %f2, %f3, %f4};
	shr.u32 %r12, %r5, 2;
	and.b32 %r13, %r5, 3;
	shl.b32 %r12, %r12, 3;
	shl.b32 %r13, %r13, 1;
	add.s32 %r12, %r12, %r13;
	shr.u32 %r14, %r0, 5;
	shl.b32 %r14, %r14, 7;
	add.s32 %r12, %r12, %r14;
	mul.wide.u32 %rd7, %r12, 4;
	add.s64 %rd8, %rd2, %rd7;
	st.global.v2.f32 [%rd8], {%f5, %f6};
	st.global.v2.f32 [%rd8+256], {%f7, %f8};
	ret;""".replace("WARPS32", str(32 * warps))
    return f""".version 8.0
.target sm_80
.address_size 64
.visible .entry gemm(.param .u64 pin, .param .u64 pd)
{{
	.reg .pred %p<4>;
	.reg .b32 %r<100>;
	.reg .f32 %f<20>;
	.reg .b64 %rd<20>;
	.shared .align 16 .b8 sa[768];
	{body}
}}
"""


@pytest.mark.parametrize("config, sets", [(None, []), ("gebhart-isca11", []),
                                          ("maxwell-ltrf", ["ltrf.partition=strand"]),
                                          (None, ["rf.model=regmutex", "regmutex.es=4"]),
                                          (None, ["rf.model=regshare", "maxrregcount=40"])]
                         + [(None, [f"rf.model={m}"]) for m in models()])
def test_ldmatrix_mma_gemm(tmp_path, config, sets):
    """the canonical pattern under every register-file model and pass and a forced
    RegMutex extended set: two warps"""
    rnd = random.Random(11)
    A, ab = values("f16", 256, rnd)
    B, bb = values("f16", 128, rnd)
    ptx = tmp_path / "g.ptx"
    ptx.write_text(canonical_kernel(2))
    p, d = run(tmp_path, ptx, "gemm", 1, 64, f"buf:u8:768:{infile(tmp_path, 'in.bin', ab + bb)}",
               "buf:u8:1024:zero", sets=sets, config=config)
    assert p.returncode == 0, p.stderr
    want = reference("m16n8k16", "f16", "f32", "f32", A, B, [0.0] * 128, False, False)
    assert (d / "arg1.bin").read_bytes() == want * 2


def mma_chain(shape, count):
    """count independent mma.sync (zero inputs, distinct d registers) on one warp;
    m16n8k16 .f16 and m16n8k32 .s8 both take 4 + 2 + 4 registers"""
    na, nb = 4, 2
    at = "s8" if shape == "m16n8k32" else "f16"
    ct = "s32" if shape == "m16n8k32" else "f32"
    A = "{" + ", ".join(f"%r{i}" for i in range(na)) + "}"
    B = "{" + ", ".join(f"%r{10 + i}" for i in range(nb)) + "}"
    C = "{%r20, %r21, %r22, %r23}"
    lines = [f"mov.b32 %r{i}, 0;" for i in list(range(na)) + [10, 11, 20, 21, 22, 23]]
    for j in range(count):
        D = "{" + ", ".join(f"%r{100 + 4 * j + i}" for i in range(4)) + "}"
        lines.append(f"mma.sync.aligned.{shape}.row.col.{ct}.{at}.{at}.{ct} {D}, {A}, {B}, {C};")
    lines.append("ret;")
    return """.version 8.0
.target sm_80
.address_size 64
.visible .entry mc()
{
	.reg .b32 %r<200>;
	""" + "\n\t".join(lines) + "\n}\n"


def test_mma_unit_busy_scales_with_shape(tmp_path):
    """one tensor unit, 8 independent mma: each m16n8k32 (4096 multiply-adds) keeps it
    busy pipe.tc.ii cycles (128 here, so the unit and not operand collection sets the
    pace), each m16n8k16 (2048) half as long: the last issues 7 * 64 cycles earlier"""
    import json
    cyc = {}
    for shape in ("m16n8k16", "m16n8k32"):
        ptx = tmp_path / f"{shape}.ptx"
        ptx.write_text(mma_chain(shape, 8))
        st = tmp_path / f"{shape}.json"
        p = subprocess.run([str(RFSIM), "run", str(ptx), "-k", "mc", "-g", "1", "-b", "32",
                            "--stats", str(st), "-s", "pipe.tc.count=1", "-s",
                            "pipe.tc.ii=128"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        cyc[shape] = stat(json.loads(st.read_text()), "cycles")
    assert cyc["m16n8k32"] - cyc["m16n8k16"] == 7 * 64, cyc


@pytest.mark.parametrize("sets", [[], ["maxrregcount=16"], ["maxrregcount=20", "rf.model=rfc"],
                                  ["rf.model=regmutex", "regmutex.es=4"]])
def test_corpus_hgemm(tmp_path, sets):
    """nvcc's code for tests/ptx/mma.cu's hgemm (inline ldmatrix + mma in a K loop,
    accumulators carried across iterations), also with fragments spilled to local
    memory (maxrregcount=16: 9 values) and under RegMutex, against the reference"""
    corpus = ROOT / "tests" / "ptx" / "mma.sm80.ptx"
    rnd = random.Random(5)
    tiles = 3
    raw, mats = b"", []
    for _ in range(tiles):
        A, ab = values("f16", 256, rnd)
        B, bb = values("f16", 128, rnd)
        raw += ab + bb
        mats.append((A, B))
    D = [0.0] * 128
    for A, B in mats:                        # d = a b + d, one rounding per mma
        D = list(struct.unpack("<128f", reference("m16n8k16", "f16", "f32", "f32", A, B, D,
                                                  False, False)))
    want = b""
    for lane in range(32):
        g, q = lane >> 2, lane % 4
        for r, c in ((g, 2 * q), (g, 2 * q + 1), (g + 8, 2 * q), (g + 8, 2 * q + 1)):
            want += struct.pack("<f", D[r * 8 + c])
    p, d = run(tmp_path, corpus, "_Z5hgemmPK5uint4Pfi", 1, 32,
               f"buf:u8:{len(raw)}:{infile(tmp_path, 'g.bin', raw)}", "buf:f32:128:zero",
               f"u32:{tiles}", sets=sets)
    assert p.returncode == 0, p.stderr
    assert (d / "arg1.bin").read_bytes() == want
