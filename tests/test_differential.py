"""Every kernel of the PTX test corpus, in functional and timing mode under
every register-file model and scheduling policy (differential.py).

The fixtures of test_semantics.py and test_tensor.py cross-check each kernel
they run with the inputs their tests chose.  This file adds the rest: every
.entry in tests/ptx/*.ptx and tests/sem/*.ptx (found at test time, so new
corpus files are covered too) is launched with inputs made from its
parameter list -- a pointer (a .u64 parameter the kernel converts with cvta
or dereferences) gets a 64 KB buffer of 0, 1, 2, ... words (or of zeros, if
the kernel faults on those), an integer 64, a float 1.5 -- on 2 blocks of
64 threads (or the block size .reqntid/.maxntid asks for, a whole cluster
for .reqnctapercluster).  A kernel that runs in functional mode must give
the same bytes in every variant; one that faults or hangs there (the
err_*.ptx kernels do so by design) must fail the same way in every variant:
exit 1 with the same first line.  NOT_STANDALONE lists, with the reason,
the kernels a bare launch cannot run; a test checks that it names only
kernels that exist, so it cannot hide a new one.  Kernels that read the
clock are run but not compared.

The bare launch is one warp: its result then depends on nothing but the
kernel and the compiler passes of each model, so any difference is a bug.
Warps racing each other are the fixtures' part, with inputs that make the
result race-free.  A kernel that fails in functional mode must fail the
same way in every variant: the same fault, or -- for one that never ends --
a deadlock, livelock or the instruction limit, which the modes detect by
different means.
"""
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from differential import crosscheck, variants
from rfsim_test import ROOT, RFSIM

CORPUS = sorted(list((ROOT / "tests" / "ptx").glob("*.ptx")) +
                list((ROOT / "tests" / "sem").glob("*.ptx")))

# (file name pattern, kernel) -> why a launch from the parameter list cannot run it
NOT_STANDALONE = {
    (r"funcs\..*", "_Z5byval4Vec33BigPf"): "struct parameters passed by value",
    (r"funcs\..*", "_Z5callsPiP4Vec3P3BigPf"): "calls _Z6ext_fnf, which has no body in the "
                                               "module (tests/cudart's rdc programs link it)",
    (r"funcs\..*", "_Z6useextPf"): "calls _Z6ext_fnf, which has no body in the module",
    (r"texture\..*", "_Z7tex_allyyyPfPiP5uint4"): "needs live texture objects "
                                                  "(tests/cudart/textures.cu makes them)",
    (r"texture\..*", "_Z8surf_allyP6uchar4Pf"): "needs a live surface object",
    (r"err_texobj\.ptx", "texfetch"): "faults by design on a handle that is no texture",
    (r"err_texobj\.ptx", "surfstore"): "faults by design on a handle that is no surface",
    (r"hand_features\.ptx", "k_all"): "a struct parameter (.b8 array)",
    (r"err_mma\.ptx", "tensor"): "an unsupported mma shape, refused at load by design",
    (r"err_tex\.ptx", "texfetch"): "a .texref, refused at load by design",
    (r"rm_cub_reduce\.ptx",
     "_ZN3cub17CUB_300001_SM_8006detail6reduce28DeviceReduceSingleTileKernelINS2_10policy_hub"
     "IljN4cuda3std3__44plusIlEEE10Policy1000EN6thrust23THRUST_300001_SM_800_NS18transform_"
     "iteratorI5IsOddNSD_6detail15normal_iteratorINSD_10device_ptrIiEEEEllEEPljS9_llNS7_10__"
     "identityEEEvT0_T1_T2_T3_T4_T6_"): "its input iterator passed by value (a .b8 array); "
                                        "tests/cudart/rm_cub_hand.c launches it",
}
# kernels that store what they read from %clock, %clock64 or %globaltimer are found in
# their code: time is the one thing modes may not agree on
CLOCKS = re.compile(r"%(clock|clock64|clock_hi|globaltimer|globaltimer_lo|globaltimer_hi)\b")

ENTRY = re.compile(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)(.*?)(?=\{)", re.S)
PARAM = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+(?:\.ptr[\s.\w]*?\s+)?"
                   r"([\w$]+)\s*(\[\d+\])?$")


def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def kernels(path):
    """(name, params, directives, body) of each .entry; params as (type, name, array)."""
    text = strip_comments(path.read_text())
    starts = [m for m in ENTRY.finditer(text)]
    for i, m in enumerate(starts):
        params = []
        for p in m.group(2).split(","):
            p = " ".join(p.split())
            if p:
                q = PARAM.match(p)
                assert q, f"{path.name}: cannot read parameter '{p}'"
                params.append((q.group(1), q.group(2), q.group(3)))
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        yield m.group(1), params, m.group(3), text[m.end():end]


BUILTIN = set("vwbcahstijlmxynofdegz")


def mangled_pointers(name):
    """For an Itanium-mangled kernel name (_Z<len><name><params>), whether each
    parameter is a pointer; None if the name is not mangled or not understood.
    Enough of the grammar for kernels' parameter lists: builtin types, P/R/K/V
    qualifiers, <len><name> classes, N...E nested names, I...E template
    arguments skipped, and S_/S<n>_ substitutions of earlier types."""
    m = re.match(r"_Z(\d+)", name)
    if not m:
        return None
    i = m.end() + int(m.group(1))
    s, subs = name, []

    def skip_template(i):
        depth = 1
        i += 1
        while depth and i < len(s):
            depth += {"I": 1, "E": -1}.get(s[i], 0)
            i += 1
        return i

    def typ(i):
        """(is_pointer, end); candidates for substitution appended as read."""
        c = s[i]
        if c in "PR":
            _, j = typ(i + 1)
            subs.append(s[i:j])
            return c == "P", j
        if c in "KV":
            ptr, j = typ(i + 1)
            subs.append(s[i:j])
            return ptr, j
        if c in BUILTIN:
            return False, i + 1
        if c == "T":                    # a template parameter
            m = re.match(r"T\d*_", s[i:])
            subs.append(m.group())
            return False, i + m.end()
        if c == "S":
            m = re.match(r"S(\d*)_", s[i:])
            k = int(m.group(1)) + 1 if m.group(1) else 0
            return subs[k].startswith("P") or subs[k].startswith("KP"), i + m.end()
        if c == "N":
            j = i + 1
            while s[j] != "E":
                if s[j] == "I":
                    j = skip_template(j)
                    continue
                m = re.match(r"\d+", s[j:])
                j += m.end() + int(m.group())
            subs.append(s[i:j + 1])
            return False, j + 1
        m = re.match(r"\d+", s[i:])
        if not m:
            raise ValueError(s[i:])
        j = i + m.end() + int(m.group())
        if j < len(s) and s[j] == "I":
            j = skip_template(j)
        subs.append(s[i:j])
        return False, j

    if i < len(s) and s[i] == "I":      # a function template: skip its arguments
        subs.append(s[m.end():i])       # (its name is a substitution candidate)
        i = skip_template(i)
        if s[i] == "v":                 # and its return type
            i += 1
    out = []
    try:
        while i < len(s):
            ptr, i = typ(i)
            out.append(ptr)
    except (ValueError, IndexError, AttributeError):
        return None
    return out


def is_pointer(name, body):
    """Does the kernel use parameter name as an address (cvta, or [reg])?"""
    regs = re.findall(r"ld\.param\.[ub]64\s+(%[\w]+),\s*\[" + re.escape(name) + r"\]", body)
    return any(re.search(r"cvta(\.to)?\.\w+\.u64\s+%\w+,\s*" + re.escape(r) + r"\b", body) or
               re.search(r"\[" + re.escape(r) + r"(\+\d+)?\]", body) for r in regs)


def launch(path, name, params, directives, body, init):
    """rfsim run arguments for a bare launch of the kernel, or None."""
    if any(arr for _, _, arr in params):
        return None
    args = []
    ptrs = mangled_pointers(name)
    if ptrs is None or len(ptrs) != len(params):
        ptrs = [is_pointer(n, body) for _, n, _ in params]
    for (t, n, _), ptr in zip(params, ptrs):
        if t in ("u64", "b64", "s64") and ptr:
            args.append(f"buf:u32:16384:{init}")
        elif t in ("f32", "f64"):
            args.append(f"{t}:1.5")
        else:
            args.append(f"{t}:64")
    block, grid = 32, 1
    m = re.search(r"\.reqntid\s+(\d+)", directives)
    if m:
        block = int(m.group(1))
    m = re.search(r"\.reqnctapercluster\s+(\d+)\s*(?:,\s*(\d+))?\s*(?:,\s*(\d+))?", directives)
    if m:
        grid = ",".join(x or "1" for x in m.groups())
    cmd = [str(RFSIM), "run", str(path), "-k", name, "-g", str(grid), "-b", str(block),
           "-s", "sim.max_warp_insts=200000"]
    for a in args:
        cmd += ["-a", a]
    return cmd


def standalone_reason(path, name):
    return next((why for (pat, k), why in NOT_STANDALONE.items()
                 if k == name and re.fullmatch(pat, path.name)), None)


CASES = [(p, k) for p in CORPUS for k, *_ in kernels(p)]


def outcome(p):
    """How a failed run failed: the fault's first line without its address, or
    'never ends' for a deadlock, a livelock or the instruction limit."""
    line = next((ln for ln in p.stderr.splitlines() if ln.strip()), "")
    if re.match(r"kernel (deadlock|livelock):|kernel \S+ stopped at the instruction limit", line):
        return p.returncode, "never ends"
    return p.returncode, re.sub(r" at address 0x[0-9a-f]+.*", "", line)


@pytest.mark.parametrize("path, name", CASES, ids=[f"{p.name}:{k}" for p, k in CASES])
def test_kernel_gives_the_same_result_in_every_mode(path, name, tmp_path):
    why = standalone_reason(path, name)
    if why:
        pytest.skip(why)
    k = next(k for k in kernels(path) if k[0] == name)
    timed = CLOCKS.search(k[3]) is not None
    fail = None
    for init in ("iota", "zero"):
        cmd = launch(path, *k, init)
        assert cmd, f"{path.name}:{name}: no bare launch; add it to NOT_STANDALONE with why"
        d = tmp_path / init
        p = subprocess.run(cmd + ["-s", "sim.mode=functional", "--dump", str(d)],
                           capture_output=True, text=True, timeout=300)
        if p.returncode == 0:
            if timed:
                pytest.skip("it stores clock readings, which differ between modes")
            crosscheck(cmd + ["--dump", str(d)], d)
            return
        fail = fail or (cmd, p)
    cmd, p = fail
    assert p.returncode == 1, f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}"
    want = outcome(p)
    for sets in variants(" ".join(cmd))[1:]:
        q = subprocess.run(cmd + sum((["-s", s] for s in sets), []), capture_output=True,
                           text=True, timeout=300)
        assert outcome(q) == want, f"{' '.join(cmd)} {' '.join(sets)}: {outcome(q)} where " \
                                   f"functional mode gave {want}\n{q.stderr[-1500:]}"


def test_not_standalone_names_only_corpus_kernels():
    for (pat, k), why in NOT_STANDALONE.items():
        assert any(re.fullmatch(pat, p.name) and k == n for p, n in CASES), (pat, k, why)
