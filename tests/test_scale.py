"""The compiler half stays near-linear in the size of the code (issue 20,
item 7): each pathological kernel of patho.py is compiled with every pass
on and run, at a size where the quadratic passes rfsim used to have need
gigabytes or minutes.

    memory  liveness kept as bit sets over nvcc's virtual registers at
            every block and instruction (1.2-1.9 GB at these sizes), the
            interference graph of 30,000 values live at once (a clique: 14 GB)
    time    the warp-level liveness of live_div.c and of the timing model's
            tlive.c walking every divergent region, Cooper-Harvey-Kennedy
            dominators, LTRF subgraphs rescanning their members, Chaitin's
            spill pick scanning every node (tens of seconds to minutes)

Each command runs in a child limited to 1 GiB of address space and 60 s: a
quadratic pass back in the pipeline fails by one or the other, on any
machine, while the passes as they are take about a second and 100-200 MB
(bench/patho_bench.py measures them: speed belongs in the benchmark, these
bounds are generous).  The sanitizer build reserves terabytes of shadow
address space, so under it the sizes are a quarter, the cap is on resident
memory and the time is 240 s.

Each kernel is analyzed with LTRF intervals, RegMutex and register sharing on
(--json, so the JSON writers run too), with strands, and run under LTRF+
(the timing model's liveness facts, PREFETCH) with RegMutex and register
sharing; the run's output must equal the functional core's, and for `wide`
(which pre-spilling rewrites: 30,000 values through local memory) the sum a
Python reference computes.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import pytest

from rfsim_test import RFSIM, ROOT

sys.path.insert(0, str(ROOT / "tests"))
from patho import GENERATORS, RUN_ARGS  # noqa: E402

SAN = "build-san" in str(RFSIM)
SCALE = 4 if SAN else 1
CAP = 1 << 30                     # address space of a child, normal build
RSS_CAP_MB = 3072                 # resident memory of a child, sanitizer build
TIMEOUT = 240 if SAN else 60

# kernel: size (normal build); about 100,000-200,000 instructions each
SIZES = {"ifchain": 20000, "nest": 50000, "switch": 30000, "wide": 30000,
         "straight": 100000, "loops": 16700}

ALL_PASSES = ["-s", "ltrf.partition=interval", "-s", "regmutex.enable=1",
              "-s", "regshare.enable=1"]


def limited(*args):
    """rfsim with args, in a child under the caps: (stdout, peak resident MB)."""
    def cap():
        if not SAN:
            resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))
    cmd = [str(RFSIM), *map(str, args)]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, cwd=ROOT, preexec_fn=cap, stdout=out, stderr=err)
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > TIMEOUT:
                p.kill()
                os.wait4(p.pid, 0)
                pytest.fail(f"{' '.join(cmd[1:])}: more than {TIMEOUT} s")
            time.sleep(0.02)
        p.returncode = rc = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        text, msg = out.read().decode(), err.read().decode(errors="replace")
    assert rc == 0, f"{' '.join(cmd[1:])}: exit {rc} after {time.monotonic() - t0:.1f} s\n{msg[-2000:]}"
    mb = ru.ru_maxrss / 1024
    if SAN:
        assert mb < RSS_CAP_MB, f"{' '.join(cmd[1:])}: {mb:.0f} MB resident"
    return text, mb


@pytest.fixture(scope="module", params=list(SIZES))
def kernel(request, tmp_path_factory):
    name = request.param
    n = SIZES[name] // SCALE
    path = tmp_path_factory.mktemp(name) / f"{name}.ptx"
    path.write_text(GENERATORS[name](n))
    return name, n, path


def test_analyze_all_passes(kernel):
    name, n, path = kernel
    out, _ = limited("analyze", path, *ALL_PASSES, "--json", "-")
    k = json.loads(out)["kernels"][0]
    assert k["allocated"] and k["instructions"] >= n, k["instructions"]
    assert k["intervals"] and k["regmutex"] and k["live_profile"]


def test_analyze_strands(kernel):
    name, n, path = kernel
    out, _ = limited("analyze", path, "-s", "ltrf.partition=strand", "--json", "-")
    assert json.loads(out)["kernels"][0]["intervals"]


def dump(path, tmp_path, tag, *extra):
    d = tmp_path / tag
    d.mkdir()
    limited("run", path, *RUN_ARGS, "--dump", d, *extra)
    return (d / "arg1.bin").read_bytes()


def test_run(kernel, tmp_path):
    name, n, path = kernel
    timing = dump(path, tmp_path, "timing", "-s", "rf.model=ltrfplus", "-s", "regmutex.enable=1",
                  "-s", "regshare.enable=1")
    assert timing == dump(path, tmp_path, "functional", "--functional")
    if name == "wide":           # out[t] = in[t] + sum of in[t + i % 4096], in = iota
        want = [(t + sum(t + i % 4096 for i in range(n))) & 0xffffffff for t in range(32)]
        got = [int.from_bytes(timing[4 * t:4 * t + 4], "little") for t in range(32)]
        assert got == want
