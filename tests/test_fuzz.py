"""Fuzzing's regressions: every committed seed of fuzz/seeds/TARGET goes through
its fuzz target once, built without libFuzzer ($(BUILD)/replay/TARGET, fuzz/
replay.c), in the normal build and under ASan+UBSan in `make san`.  Among the
seeds are the minimized inputs of the bugs fuzzing found (README "Fuzzing";
FOUND below names each and the bug it pins): an internal error (die, assert),
a sanitizer report or a leak on any of them fails, and so does one slower than
the fuzzers' 10 s limit.  `make fuzz` runs the targets themselves (clang).
"""
import subprocess

import pytest

from rfsim_test import RFSIM, ROOT, rfsim

TARGETS = ["ptx", "config", "sweep", "fatbin"]

# fuzz/seeds/TARGET/FILE: the bug it found, now fixed
FOUND = {
    "ptx/empty-body": "a kernel with no instructions, `.entry k() { }`: register allocation's "
                      "rewrite (edit_end) copied the body from a NULL array; analyze and run "
                      "died of SIGSEGV",
}


def replay(target, *files, timeout=60):
    exe = RFSIM.parent / "replay" / target
    assert exe.exists(), f"{exe} not built (make test builds it)"
    return subprocess.run([str(exe), *map(str, files)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.mark.parametrize("target", TARGETS)
def test_seeds_replay_without_internal_errors(target):
    seeds = sorted((ROOT / "fuzz" / "seeds" / target).iterdir())
    assert seeds
    for s in seeds:
        p = replay(target, s, timeout=10 * 3)
        assert p.returncode == 0, (s.name, p.stderr[-3000:])
        assert "internal error" not in p.stderr, (s.name, p.stderr[-3000:])


def test_found_bugs_are_in_the_corpus():
    for name in FOUND:
        assert (ROOT / "fuzz" / "seeds" / name).is_file(), name


def test_empty_kernel_body_analyzes_and_runs(tmp_path):
    """FOUND ptx/empty-body: edit_end copied an empty body from NULL (SIGSEGV)."""
    f = tmp_path / "empty.ptx"
    f.write_bytes((ROOT / "fuzz" / "seeds" / "ptx" / "empty-body").read_bytes()[1:])
    p = rfsim("analyze", f)      # ptxas -v's 4 for an empty kernel: R0, R1 and its two more
    assert p.returncode == 0 and "4 per thread (own 0;" in p.stdout, p.stderr
    p = rfsim("analyze", f, "-s", "compiler.schedule=pressure")
    assert p.returncode == 0 and "0 per thread" in p.stdout, p.stderr
    for model in ["baseline", "regmutex", "ltrf"]:
        p = rfsim("run", f, "-g", 2, "-b", 64, "-s", f"rf.model={model}")
        assert p.returncode == 0 and "warp instructions    0" in p.stdout, (model, p.stderr)
