"""PTX operand kinds and types, checked as NVIDIA's assembler checks them
(issue 20, defects 2 and 3; src/ptx/parse_check.c against ops.def's forms).

tests/ptx/invalid/ holds one small kernel per mistake that ptxas rejects: a
.f32 or .pred register as an address, a cvt source or mov destination of the
wrong type or size, ld.v4 with two registers, shfl.sync without its
membermask, malformed vote forms, constants of the wrong kind, ...  Its first
line names rfsim's error, `// expect: LINE:COL: message`, its second the one
ptxas gives.  Each must
  - make `rfsim analyze` exit 2 with that message at FILE:LINE:COL (the
    files of tests/ptx/bad/, PTX that rfsim refuses, too);
  - be rejected by ptxas as well, where ptxas is on PATH -- so the corpus
    cannot claim that valid PTX is invalid.
The valid counterparts (tests/ptx/typecheck.ptx: relaxed ld/st/cvt typing,
bit-size and mixed integer registers, pack/unpack; tests/sem/pred_const.ptx:
constant predicates) must be accepted by both.

Defect 2 itself: `vote.sync.ballot.b32 d, 1, -1` read the constant 1 as a
predicate register index, past the warp's predicates (a heap overflow under
ASan), and returned 0.  pred_const.ptx's results are checked in timing and
functional mode.
"""
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from rfsim_test import ROOT, rfsim

INVALID = sorted((ROOT / "tests" / "ptx" / "invalid").glob("*.ptx"))
BAD = sorted((ROOT / "tests" / "ptx" / "bad").glob("*.ptx"))
VALID = [ROOT / "tests" / "ptx" / "typecheck.ptx", ROOT / "tests" / "sem" / "pred_const.ptx"]

PTXAS = shutil.which("ptxas") or next(
    (p for p in ["/usr/local/cuda/bin/ptxas"] if Path(p).exists()), None)
needs_ptxas = pytest.mark.skipif(
    PTXAS is None, reason="ptxas (CUDA toolkit) not on PATH: rfsim's half of the check ran, "
                          "NVIDIA's assembler could not be asked whether it agrees")


def rel(p):
    return str(p.relative_to(ROOT))


def expected(path):
    """The `// expect: LINE:COL: message` of an error corpus file."""
    m = re.match(r"// expect: (\d+:\d+: .*)", path.read_text().splitlines()[0])
    assert m, f"{rel(path)}: no '// expect: LINE:COL: message' first line"
    return m.group(1)


def ptxas(path):
    """ptxas on path for the .target it names; the CompletedProcess."""
    arch = re.search(r"^\.target\s+(sm_\d+)", path.read_text(), re.M).group(1)
    return subprocess.run([PTXAS, f"-arch={arch}", str(path), "-o", "/dev/null"],
                          capture_output=True, text=True, timeout=60)


def test_corpus_is_there():
    assert len(INVALID) >= 60 and len(BAD) >= 30


@pytest.mark.parametrize("path", INVALID + BAD, ids=rel)
def test_refused_with_located_message(path):
    p = rfsim("analyze", rel(path))
    assert p.returncode == 2, f"exit {p.returncode}\n{p.stderr}"
    want = f"{rel(path)}:{expected(path)}"
    assert want in p.stderr, f"expected\n  {want}\ngot\n  {p.stderr}"


@needs_ptxas
@pytest.mark.parametrize("path", INVALID, ids=rel)
def test_ptxas_rejects_it_too(path):
    p = ptxas(path)
    assert p.returncode != 0, f"ptxas accepts {rel(path)}: it is valid PTX, not invalid"


@pytest.mark.parametrize("path", VALID, ids=rel)
def test_valid_forms_accepted(path):
    p = rfsim("analyze", rel(path))
    assert p.returncode == 0, p.stderr


@needs_ptxas
@pytest.mark.parametrize("path", VALID, ids=rel)
def test_ptxas_accepts_valid_forms(path):
    p = ptxas(path)
    assert p.returncode == 0, p.stderr


# ---- constant predicates (defect 2) ---------------------------------------------------

# pred_const.ptx: 16 u32 slots per thread; lt = (tid - 4 < 1), true for tid <= 4
PRED_CONST = [
    ("vote.sync.ballot.b32 d, 1, -1: every lane", lambda lt: 0xffffffff),
    ("vote.sync.ballot.b32 d, 0, -1: no lane", lambda lt: 0),
    ("vote.sync.ballot.b32 d, !0, -1", lambda lt: 0xffffffff),
    ("vote.sync.ballot.b32 d, !1, -1", lambda lt: 0),
    ("vote.sync.all.pred 1", lambda lt: 1),
    ("vote.sync.any.pred 0", lambda lt: 0),
    ("vote.sync.uni.pred !1: uniformly false", lambda lt: 1),
    ("setp.lt.and p, a, 1, 1 = lt", lambda lt: int(lt)),
    ("setp.lt.or p|q, a, 1, 1: p + 2q = 1 + 2", lambda lt: 3),
    ("setp.lt.xor p|q, a, 1, 1: p = !lt, q = lt", lambda lt: 2 if lt else 1),
    ("setp.lt.and p, a, 1, !1 = 0", lambda lt: 0),
    ("set.lt.or.u32.s32 d, a, 1, 1: all ones", lambda lt: 0xffffffff),
    ("selp 5, 7, 1 + selp 50, 70, !1 = 5 + 70", lambda lt: 75),
    ("and lt,1 + 2*or lt,1 + 4*xor lt,1 + 8*not 0", lambda lt: 11 if lt else 14),
    ("mov.pred 1 + 2*mov.pred !1", lambda lt: 1),
    ("bar.red.popc 1 (32 threads) + 100*bar.red.and !0", lambda lt: 132),
]


@pytest.mark.parametrize("mode", ["timing", "functional"])
def test_constant_predicates(tmp_path, mode):
    """Pins issue 20 defect 2: vote.sync.ballot.b32 d, 1, -1 returned 0 (the
    constant read as a predicate register index past the predicate array)."""
    extra = ["--functional"] if mode == "functional" else []
    p = rfsim("run", "tests/sem/pred_const.ptx", "-g", 1, "-b", 32, "-a", "buf:u32:512:zero",
              "--dump", tmp_path, *extra)
    assert p.returncode == 0, p.stderr
    got = struct.unpack("<512I", (tmp_path / "arg0.bin").read_bytes())
    bad = [f"t={t} slot {i} ({label}): {got[16 * t + i]:#x}, expected {want(t <= 4):#x}"
           for t in range(32) for i, (label, want) in enumerate(PRED_CONST)
           if got[16 * t + i] != want(t <= 4)]
    assert not bad, f"{mode} mode:\n" + "\n".join(bad)
