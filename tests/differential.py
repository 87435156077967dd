"""differential.py -- functional against timing mode, on every kernel the
tests run.  (Not a test file: no test_ prefix.)

The functional core executes each instruction when the timing model issues
it, so a kernel's results must not depend on the mode, the register-file
model or the scheduler: warps interleave differently under each, but a
correct simulator gives a race-free kernel the same bytes every time.  When
they differ, something between the timing model and the functional state is
wrong (issue 20: a barrier that let lanes of a warp go on without the
warp's lanes still in a CAS loop lost shared-memory atomic updates in
timing mode only).

crosscheck(cmd, dump) takes the argument list of a successful
`rfsim run FILE.ptx ... --dump DIR` and runs the same launch again in
functional mode and in timing mode under every register-file model (its
config's scheduler) and under each scheduling policy (baseline model); each
must exit 0 and dump byte-identical buffers.  The test fixtures that run PTX
kernels (test_semantics.py's sim, test_tensor.py's run) call it on every
run that succeeded, so the whole PTX test corpus is checked with the inputs
its tests give it; test_differential.py adds every corpus kernel no test
launches.

Under the sanitizer build (RFSIM in build-san/) each launch gets functional
mode and one model, rotating through the models by launch, so the sanitizer
still sees every model's code without multiplying the slow build's time.
A kernel whose result depends on the order of racing operations (which
thread's atom.exch wrote last, cycle counts it stores) cannot be compared
whole: a test passes differential=False for it and says why, or a dict
{"argN.bin": [(start, end), ...]} of the byte ranges that hold the race's
outcome, which are left out of the comparison.
"""
import os
import subprocess
import tempfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rfsim_test import RFSIM, models

POLICIES = ["lrr", "gto", "twolevel"]
SANITIZED = "build-san" in str(RFSIM)


def variants(key):
    """The -s settings of each variant run: functional mode, every model, every
    policy; under the sanitizer build a subset chosen by the launch's key."""
    ms = models()
    if SANITIZED:
        return [["sim.mode=functional"], [f"rf.model={ms[zlib.crc32(key.encode()) % len(ms)]}"]]
    return ([["sim.mode=functional"]] + [[f"rf.model={m}"] for m in ms] +
            [["rf.model=baseline", f"sched.policy={p}"] for p in POLICIES])


def _strip(cmd):
    """cmd without --dump DIR and --stats FILE (each variant dumps on its own)."""
    out, skip = [], False
    for a in cmd:
        if skip:
            skip = False
        elif a in ("--dump", "--stats"):
            skip = True
        else:
            out.append(str(a))
    return out


def _dumps(d):
    d = Path(d)
    return {p.name: p.read_bytes() for p in sorted(d.glob("arg*.bin"))} if d.exists() else {}


def _first_diff(a, b):
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def _mask(bufs, racy):
    for name, spans in racy.items():
        if name in bufs:
            b = bytearray(bufs[name])
            for lo, hi in spans:
                b[lo:hi] = bytes(len(b[lo:hi]))
            bufs[name] = bytes(b)
    return bufs


def crosscheck(cmd, dump, timeout=300, racy=None):
    """Rerun the launch of cmd (which dumped into dump) under every variant; an
    AssertionError naming each variant whose buffers differ or that failed.
    racy: {"argN.bin": [(start, end), ...]}, byte ranges left out."""
    racy = racy or {}
    ref = _mask(_dumps(dump), racy)
    base = _strip(cmd)
    key = " ".join(base[1:])
    with tempfile.TemporaryDirectory(prefix="rfsim-diff-") as tmp:
        def one(i, sets):
            d = Path(tmp) / f"v{i}"
            argv = base + ["--dump", str(d)]
            for s in sets:
                argv += ["-s", s]
            p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
            tag = " ".join(sets)
            if p.returncode != 0:
                return f"{tag}: exit {p.returncode}: {p.stderr.strip()[-600:]}"
            got = _mask(_dumps(d), racy)
            for name in sorted(set(ref) | set(got)):
                a, b = ref.get(name, b""), got.get(name, b"")
                if a != b:
                    return (f"{tag}: {name} differs from the reference run at byte "
                            f"{_first_diff(a, b)} of {len(a)}")
            return None
        vs = variants(key)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            errs = [e for e in pool.map(one, range(len(vs)), vs) if e]
    assert not errs, ("functional and timing mode disagree on\n  " + " ".join(base) +
                      "\n" + "\n".join("  " + e for e in errs))
