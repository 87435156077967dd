"""Device-runtime builtins: printf (vprintf) and assert (__assertfail).

tests/sem/printf_assert.ptx is nvcc's PTX of printf_assert.cu: each thread
prints a line with int, float, double, string, char and long long
arguments, then asserts x[i] < 100.  Expected lines are written out by hand.
"""
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RFSIM = Path(os.environ.get("RFSIM", "build/rfsim"))
if not RFSIM.is_absolute():
    RFSIM = ROOT / RFSIM
PTX = ROOT / "tests" / "sem" / "printf_assert.ptx"
ARGS = ["-g", "1", "-b", "3", "-a", "buf:u32:3:iota", "-a", "f32:2.5", "-a", "f64:1e-3"]


def run(*extra):
    return subprocess.run([str(RFSIM), "run", str(PTX), *ARGS, *extra],
                          capture_output=True, text=True, timeout=60)


def test_printf_formats_every_argument_kind_per_lane_in_order():
    for mode in ([], ["--functional"]):
        p = run(*mode)
        assert p.returncode == 0, p.stderr
        lines = [l for l in p.stdout.splitlines() if l.startswith("tid ")]
        # 1 << 40 = 1099511627776; 'A' + 1 = 'B'
        assert lines == [
            "tid 0 x=0 f=2.500000 d=1.000e-03 s=hi c=A ll=0",
            "tid 1 x=1 f=2.500000 d=1.000e-03 s=hi c=B ll=1099511627776",
            "tid 2 x=2 f=2.500000 d=1.000e-03 s=hi c=C ll=2199023255552",
        ], p.stdout


def test_failed_assert_stops_the_kernel_with_cudas_message(tmp_path):
    # thread 2 holds 200: x = {0, 1, 200} written as raw little-endian bytes
    data = (0).to_bytes(4, "little") + (1).to_bytes(4, "little") + (200).to_bytes(4, "little")
    f = tmp_path / "assert_input.bin"
    f.write_bytes(data)
    args = ARGS.copy()
    args[5] = f"buf:u32:3:file={f}"
    p = subprocess.run([str(RFSIM), "run", str(PTX), *args], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 1
    assert ("printf_assert.cu:6: void k(int *, float, double): block [0,0,0], "
            "thread [2,0,0] Assertion `x[i] < 100` failed.") in p.stderr, p.stderr
