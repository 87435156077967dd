"""Every CUDA test program in functional mode and in timing mode under every
register-file model and scheduling policy (issue 20): what it prints and the
device memory it leaves after each kernel must be byte-identical.

A program runs on rfsim's libcudart with sim.digest=1, which puts a hash of
all device memory after each kernel into its RFSIM_STATS file
(kernels[].memory_digest); the variants are differential.py's, and the
reference is the functional run.  A program whose results depend by design
on which of two racing threads goes first (RACY) is compared on its output
only where that is deterministic; one that prints simulated times (TIMED)
is compared on its memory only; one whose threads print (UNORDERED) on the
lines it prints in any order, as CUDA orders printf only within a thread.
The lists say why, and a test checks that they name only programs that
exist.

The programs are the ones tests/test_cudart.py builds with nvcc (its
`built` fixture; skipped without nvcc).
"""
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from differential import variants
from test_cudart import PASSING, built, needs_nvcc, run, sanitized  # noqa: F401 (fixture)

# program -> why its results depend on the order racing threads take
RACY = {
    "intrinsics": "atomicCAS's winner, atomicExch's last writer and a float atomicAdd's "
                  "rounding follow the order threads arrive",
    "libcupp": "each thread records the ticket it drew from a shared counter",
    "dynpar": "children launched past the pending-launch limit fail or run by the order the "
              "parents ask",
    "itslock": "hist_count records how many times each thread tried the lock",
    "bfs": "the work queue holds vertices in the order atomicAdd hands out slots",
    "hostthreads": "eight host threads launch kernels in the order the host schedules them",
}
# program -> why its printed output depends on the timing model
TIMED = {
    "streams": "prints the simulated time cudaEventElapsedTime measures",
    "streams_ptds": "prints the simulated time cudaEventElapsedTime measures",
    "asyncpipe": "prints the simulated time of its pipelined copies",
}

# program -> why its printed lines come in the order its warps run
UNORDERED = {
    "devprintf": "device printf: lines of different warps come out in the order the warps run",
}


def digests(path):
    if not path.exists():
        return None
    return [(k["name"], k.get("memory_digest")) for k in json.loads(path.read_text())["kernels"]]


@needs_nvcc
@pytest.mark.parametrize("name", PASSING)
def test_program_gives_the_same_results_in_every_mode(built, name, tmp_path):
    if name == "managed" and sanitized():
        pytest.skip("managed memory needs the simulator's device addresses, which "
                    "AddressSanitizer's shadow memory occupies")
    if name in RACY:
        pytest.skip(RACY[name])

    def one(i, sets):
        stats = tmp_path / f"v{i}.json"
        p = run(built[name], RFSIM_SET=";".join(["sim.digest=1", *sets]), RFSIM_STATS=stats,
                RFSIM_QUIET=1)
        return sets, p, digests(stats)

    vs = variants(name)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        runs = list(ex.map(one, range(len(vs)), vs))
    _, ref, ref_dig = runs[0]
    assert ref.returncode == 0 and "PASS" in ref.stdout, ref.stderr[-2000:]
    bad = []
    for sets, p, dig in runs[1:]:
        tag = " ".join(sets)
        if p.returncode != 0:
            bad.append(f"{tag}: exit {p.returncode}: {p.stderr[-800:]}")
        elif name in UNORDERED and sorted(p.stdout.splitlines()) != \
                sorted(ref.stdout.splitlines()):
            bad.append(f"{tag}: prints other lines than functional mode")
        elif name not in TIMED and name not in UNORDERED and p.stdout != ref.stdout:
            bad.append(f"{tag}: prints otherwise than functional mode")
        elif dig != ref_dig:
            k = next((i for i, (a, b) in enumerate(zip(dig or [], ref_dig)) if a != b),
                     min(len(dig or []), len(ref_dig)))
            bad.append(f"{tag}: device memory differs after kernel {k} "
                       f"({ref_dig[k][0] if k < len(ref_dig) else 'a kernel too many'})")
    assert not bad, f"{name}: functional and timing mode disagree\n" + "\n".join(bad)


def test_lists_name_programs_that_exist():
    assert set(RACY) | set(TIMED) | set(UNORDERED) <= set(PASSING)
