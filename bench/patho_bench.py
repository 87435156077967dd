#!/usr/bin/env python3
"""patho_bench.py -- how rfsim's compiler half scales: the pathological
kernels of tests/patho.py at about 100,000 instructions each (wide: 50,000
values live at once), compiled by `rfsim analyze` and compiled and run by
`rfsim run` (one warp) under every register-file model, with the wall-clock
seconds and the peak resident memory (the child's maximum RSS) of each.
The target is a few seconds and under 200 MB each.  bench.py (`make bench`)
runs it after compile_bench.py; alone:

    python3 bench/patho_bench.py [RFSIM] [--gen NAME]... [--model M]... [--scale F]

--scale multiplies every size (0.2 for a quick look).  Under rf.model=regmutex
`run` compiles the kernel twice: the load assumes 256 threads per CTA and the
one-warp launch gets its own variant (gpu.c's launch_image).  Exit status 1 if
a command fails or runs past --timeout seconds.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from patho import GENERATORS, RUN_ARGS  # noqa: E402

# the size of each generator that gives about 100,000 instructions
SIZES = {"ifchain": 20000, "nest": 25000, "switch": 20000, "wide": 50000,
         "straight": 100000, "loops": 16700}


def models(rfsim):
    """Model names as `rfsim run --help` lists them."""
    out = subprocess.run([rfsim, "run", "--help"], capture_output=True, text=True).stdout
    names, inside = [], False
    for line in out.splitlines():
        if line.startswith("register-file models"):
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            names.append(line.split()[0])
    return names


def run_one(cmd, timeout):
    """(exit status, wall seconds, peak MB, stderr) of cmd, reaped with wait4."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return None, timeout, 0.0, "timeout"
            time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return (p.returncode, time.monotonic() - t0, ru.ru_maxrss / 1024,
                err.read().decode(errors="replace"))


def patho_bench(rfsim, gens=None, mods=None, scale=1.0, timeout=300, run=True):
    """Print the table; returns the failures (a list of strings)."""
    gens = gens or list(GENERATORS)
    mods = mods or models(rfsim)
    print("scaling: pathological kernels, `analyze` and `run` per model "
          "(target: seconds, < 200 MB)")
    print(f"{'kernel':10} {'n':>7} {'insts':>7} {'model':10} {'analyze s':>10} {'MB':>6} "
          f"{'run s':>8} {'MB':>6}")
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in gens:
            n = max(1, int(SIZES[g] * scale))
            path = os.path.join(tmp, g + ".ptx")
            text = GENERATORS[g](n)
            with open(path, "w") as f:
                f.write(text)
            ninsn = sum(1 for ln in text.splitlines() if ln.startswith("\t") and
                        ln.endswith(";") and not ln.startswith("\t.reg"))
            for m in mods:
                row = []
                cmds = [[rfsim, "analyze", path, "-s", f"rf.model={m}"]]
                if run:
                    cmds.append([rfsim, "run", path, *RUN_ARGS, "-s", f"rf.model={m}"])
                for cmd in cmds:
                    rc, sec, mb, err = run_one(cmd, timeout)
                    if rc != 0:
                        bad.append(f"{g} {m} {cmd[1]}: {err.strip()[-200:]}")
                    row.append(f"{sec:10.2f} {mb:6.0f}" if rc == 0 else
                               f"{'FAIL' if rc is not None else 'TIMEOUT':>10} {mb:6.0f}")
                print(f"{g:10} {n:>7} {ninsn:>7} {m:10} " + " ".join(row), flush=True)
    print()
    for b in bad:
        print("failed:", b, file=sys.stderr)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rfsim", nargs="?", default="build/rfsim")
    ap.add_argument("--gen", action="append", choices=sorted(GENERATORS))
    ap.add_argument("--model", action="append")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--no-run", action="store_true", help="analyze only")
    a = ap.parse_args()
    bad = patho_bench(a.rfsim, a.gen, a.model, a.scale, a.timeout, not a.no_run)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
