#!/usr/bin/env python3
"""bench.py -- how fast rfsim simulates: `make bench`.

First the compiler's speed (compile_bench.py: analyses and register
allocation of a 10,000-instruction kernel), then the simulation's.

Runs every built-in workload (or those named) once at --size default with
--stats, and prints per workload the simulated thread and warp instructions
per host second (the "totals" of the stats file), then the medians.  The
rates come from rfsim's own timing of the simulation (sim_seconds), so host
code, input generation and output checks are left out.

    python3 bench/bench.py [RFSIM] [--size S] [-c CONFIG] [-s K=V]... [WORKLOAD...]

Exit status 1 if any workload fails to run or to pass its check.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from compile_bench import compile_bench


def workloads(rfsim):
    """Names under 'workloads:' in `rfsim list`."""
    out = subprocess.run([rfsim, "list"], capture_output=True, text=True, check=True).stdout
    names, inside = [], False
    for line in out.splitlines():
        if line and not line[0].isspace():
            inside = line.strip() == "workloads:"
        elif inside and line.strip():
            names.append(line.split()[0])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rfsim", nargs="?", default="build/rfsim")
    ap.add_argument("workload", nargs="*")
    ap.add_argument("--size", default="default", choices=["small", "default", "large"])
    ap.add_argument("-c", "--config")
    ap.add_argument("-s", "--set", action="append", default=[])
    a = ap.parse_args()

    extra = (["-c", a.config] if a.config else []) + [x for s in a.set for x in ("-s", s)]
    names = a.workload or workloads(a.rfsim)
    compile_bench(a.rfsim)
    print(f"rfsim bench, size {a.size}\n")
    print(f"{'workload':16} {'thread insts':>14} {'warp insts':>12} {'sim s':>8} "
          f"{'M thr-inst/s':>13} {'M warp-inst/s':>14}")
    thr, warp, failed = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for w in names:
            st = os.path.join(tmp, w + ".json")
            p = subprocess.run([a.rfsim, "run", w, "--size", a.size, "--stats", st, *extra],
                               capture_output=True, text=True)
            if p.returncode != 0 or not os.path.exists(st):
                failed.append(w)
                print(f"{w:16} FAILED (exit {p.returncode}): {p.stderr.strip()[:200]}")
                continue
            t = json.load(open(st))["totals"]
            thr.append(t["thread_inst_per_sec"])
            warp.append(t["warp_inst_per_sec"])
            print(f"{w:16} {t['thread_instructions']:>14} {t['warp_instructions']:>12} "
                  f"{t['sim_seconds']:>8.3f} {thr[-1] / 1e6:>13.2f} {warp[-1] / 1e6:>14.2f}",
                  flush=True)
    if thr:
        print(f"\n{'median':16} {'':>14} {'':>12} {'':>8} "
              f"{statistics.median(thr) / 1e6:>13.2f} {statistics.median(warp) / 1e6:>14.2f}")
    if failed:
        print(f"\nfailed: {' '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
