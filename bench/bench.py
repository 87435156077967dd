#!/usr/bin/env python3
"""bench.py -- how fast rfsim simulates: `make bench`.

First the compiler's speed (compile_bench.py: analyses and register
allocation of a 10,000-instruction kernel) and how it scales
(patho_bench.py: pathological 100,000-instruction kernels under every
model, seconds and peak memory), then the simulation's.

Runs every built-in workload (or those named) once at --size default with
--stats, on the timing model of maxwell-ltrf unless -c/-s say otherwise, and
prints per workload the simulated cycles, thread and warp instructions per
host second (the "totals" of the stats file), then the medians.  Those rates
come from rfsim's own timing of the simulation (sim_seconds, wall clock),
so host code, input generation and output checks are left out.  On a busy
machine wall-clock time overstates what one core needs, so a second warp
rate divides by the whole process's user CPU time (input generation,
compilation and checks included: a lower bound).  Peak memory is the
process's maximum resident set size.

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
from patho_bench import patho_bench


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
    ap.add_argument("-c", "--config", default="maxwell-ltrf")
    ap.add_argument("-s", "--set", action="append", default=[])
    ap.add_argument("--no-compile", action="store_true", help="skip the compiler bench")
    a = ap.parse_intermixed_args()

    extra = (["-c", a.config] if a.config else []) + [x for s in a.set for x in ("-s", s)]
    names = a.workload or workloads(a.rfsim)
    if not a.no_compile:
        compile_bench(a.rfsim)
        if patho_bench(a.rfsim):
            return 1
    print(f"rfsim bench, size {a.size}, {' '.join(extra)}\n")
    print(f"{'workload':16} {'cycles':>10} {'warp insts':>12} {'sim s':>8} "
          f"{'M thr-inst/s':>13} {'M warp-inst/s':>14} {'(cpu)':>7} {'peak MB':>8}")
    thr, warp, cpu, rss, failed = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for w in names:
            st = os.path.join(tmp, w + ".json")
            p = subprocess.Popen([a.rfsim, "run", w, "--size", a.size, "--stats", st, *extra],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            err = p.stderr.read()
            _, status, ru = os.wait4(p.pid, 0)
            rc = os.waitstatus_to_exitcode(status)
            if rc != 0 or not os.path.exists(st):
                failed.append(w)
                print(f"{w:16} FAILED (exit {rc}): {err.strip()[:200]}")
                continue
            t = json.load(open(st))["totals"]
            thr.append(t["thread_inst_per_sec"])
            warp.append(t["warp_inst_per_sec"])
            cpu.append(t["warp_instructions"] / max(ru.ru_utime, 1e-9))
            rss.append(ru.ru_maxrss / 1024)
            print(f"{w:16} {t.get('cycles', 0):>10} {t['warp_instructions']:>12} "
                  f"{t['sim_seconds']:>8.3f} {thr[-1] / 1e6:>13.2f} {warp[-1] / 1e6:>14.2f} "
                  f"{cpu[-1] / 1e6:>7.2f} {rss[-1]:>8.0f}", flush=True)
    if thr:
        print(f"\n{'median':16} {'':>10} {'':>12} {'':>8} "
              f"{statistics.median(thr) / 1e6:>13.2f} {statistics.median(warp) / 1e6:>14.2f} "
              f"{statistics.median(cpu) / 1e6:>7.2f} {max(rss):>8.0f} (largest)")
    if failed:
        print(f"\nfailed: {' '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
