"""rfsim_test.py -- what the pytest files share: where the binary is, how to
run it, and which workloads it has.  (Not a test file: no test_ prefix.)

RFSIM names the binary (build/rfsim by default, relative to the repository
root); `make san` points it at build-san/rfsim.
"""
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RFSIM = Path(os.environ.get("RFSIM", "build/rfsim"))
if not RFSIM.is_absolute():
    RFSIM = ROOT / RFSIM


def rfsim(*args, timeout=900):
    """Run rfsim from the repository root; the CompletedProcess, text output."""
    assert RFSIM.exists(), f"{RFSIM} not built (run make)"
    return subprocess.run([str(RFSIM), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def summary_value(p, key, kind=float):
    """The value on the line starting with `key` of a successful run's summary
    ("cycles 1234"), as kind."""
    assert p.returncode == 0, p.stderr
    return kind(next(l for l in p.stdout.splitlines() if l.startswith(key)).split()[1])


def check_slots(st, tag):
    """A stats file's totals: IPC within the issue width (SMs x schedulers),
    and every scheduler slot of every cycle counted once, as issued or as one
    stall_* reason.  tag names the run in a failure."""
    c, t = st["config"], st["totals"]
    width = c["sm.count"] * c["sched.count"]
    assert 0 < t["ipc"] <= width, (tag, t["ipc"])
    slots = t["issued"] + sum(t[k] for k in t if k.startswith("stall_"))
    assert slots == t["cycles"] * width, tag


def workloads(category=None):
    """Built-in workload names from `rfsim list`, in its order; with a category
    ("register-limited" or "insensitive") only those.  [] if rfsim is not built,
    so that collection works before `make` (the tests then fail on their own)."""
    if not RFSIM.exists():
        return []
    names, inside = [], False
    for line in rfsim("list").stdout.splitlines():
        if line and not line[0].isspace():
            inside = line.strip() == "workloads:"
        elif inside and line.strip():
            f = line.split()
            if category is None or f[1] == category:
                names.append(f[0])
    return names


def models():
    """Register-file model names, as `rfsim run --help` lists them (models.def order)."""
    if not RFSIM.exists():
        return []
    names, inside = [], False
    for line in rfsim("run", "--help").stdout.splitlines():
        if line.startswith("register-file models"):
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            names.append(line.split()[0])
    return names
