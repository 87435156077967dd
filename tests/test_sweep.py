"""Tests of the experiment commands: rfsim sweep, plot and reproduce.

The binary is $RFSIM (default build/rfsim).  What is checked is README's
contract for sweeps: the cross product and its CSV, crash safety (a
sweep killed with SIGKILL loses only the points in flight, and the rerun
recomputes no finished point and ends with the CSV an uninterrupted run
writes), failed points reported and counted in the exit status, the
Slurm script (valid bash, and its tasks run by hand complete the sweep),
plots (a real PNG and SVG; skipped without gnuplot, which .ci/run
installs), and `reproduce baseline` (a report, and a rerun that reuses
every point).  Small functional-size points keep the file well under a
minute.
"""

import csv
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RFSIM = Path(os.environ.get("RFSIM", "build/rfsim"))
if not RFSIM.is_absolute():
    RFSIM = ROOT / RFSIM

# statistics that measure the host, not the simulated machine
HOST = ("sim_seconds", "warp_inst_per_sec", "thread_inst_per_sec")
NO_GNUPLOT = "gnuplot not installed (apt-get install gnuplot-nox; .ci/run does)"


def rfsim(*args, cwd=None, env=None, timeout=300):
    assert RFSIM.exists(), f"{RFSIM} not built (run make)"
    return subprocess.run([str(RFSIM), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)


def ok(p):
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p


def write(path, text):
    path.write_text(text)
    return path


def rows(csv_path):
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def masked(csv_path):
    """The CSV's rows with the host-dependent columns blanked."""
    return [{k: ("" if k in HOST else v) for k, v in r.items()} for r in rows(csv_path)]


def finished(points):
    """{file name: (inode, mtime_ns)} of the finished points in points/."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in Path(points).glob("*.json") if not p.name.startswith(".")
            and not p.name.endswith(".failed.json")}


SMALL = """\
# two workloads, two machines' SM counts, two seeds
workloads = saxpy, reduce
configs = fermi-gtx480
size = small
axis sm.count = 1, 2
axis seed = 1..2
"""


def test_sweep_cross_product_csv_and_rerun(tmp_path):
    f = write(tmp_path / "s.sweep", SMALL)
    p = ok(rfsim("sweep", f, "-j", 2))
    assert "8 points: 0 reused, 8 computed, 0 failed" in p.stdout
    out = tmp_path / "s.results"                    # default: FILE minus .sweep
    rs = rows(out / "results.csv")
    assert len(rs) == 8
    cols = list(rs[0])
    assert cols[:6] == ["workload", "config", "size", "sm.count", "seed", "status"]
    assert cols[-2:] == ["error", "point"]
    assert {"warp_instructions", "thread_instructions", "check"} <= set(cols)
    # point order: configs, sizes, axes in file order, workloads fastest
    assert [(r["workload"], r["sm.count"], r["seed"]) for r in rs[:4]] == [
        ("saxpy", "1", "1"), ("reduce", "1", "1"), ("saxpy", "1", "2"), ("reduce", "1", "2")]
    for r in rs:
        assert r["status"] == "ok" and r["check"] == "pass"
        assert (out / "points" / (r["point"] + ".json")).exists()
    # the functional instruction count depends on the workload, not the SM count
    by = {(r["workload"], r["seed"], r["sm.count"]): r["warp_instructions"] for r in rs}
    assert by[("saxpy", "1", "1")] == by[("saxpy", "1", "2")]
    p = ok(rfsim("sweep", f, "-o", out))
    assert "8 points: 8 reused, 0 computed, 0 failed" in p.stdout
    assert len(rows(out / "results.csv")) == 8


def test_point_ids_are_the_effective_config(tmp_path):
    """A relative axis (*=) and an absolute one naming the same machine share
    a point; the relative column is KEY_x."""
    a = write(tmp_path / "a.sweep", "workloads = saxpy\nsize = small\n"
              "axis sm.count *= 1, 2\n")
    b = write(tmp_path / "b.sweep", "workloads = saxpy\nsize = small\n"
              "axis sm.count = 15, 30\n")
    ok(rfsim("sweep", a, "-q"))
    ok(rfsim("sweep", b, "-q"))
    ra, rb = rows(tmp_path / "a.results/results.csv"), rows(tmp_path / "b.results/results.csv")
    assert [r["sm.count_x"] for r in ra] == ["1", "2"]
    assert [r["point"] for r in ra] == [r["point"] for r in rb]


def test_resume_after_sigkill(tmp_path):
    spec = ("workloads = saxpy, reduce, bfs, sgemm\nsize = small\n"
            "axis seed = 1..8\n")
    f = write(tmp_path / "k.sweep", spec)
    out, points = tmp_path / "k", tmp_path / "k/points"
    proc = subprocess.Popen([str(RFSIM), "sweep", str(f), "-j", "1", "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while len(finished(points)) < 3 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = finished(points)
    assert 3 <= len(before) < 32, "the sweep finished before it could be killed"

    p = ok(rfsim("sweep", f, "-j", 1, "-o", out))
    assert f"32 points: {len(before)} reused, {32 - len(before)} computed" in p.stdout
    after = finished(points)
    assert len(after) == 32
    for name, stamp in before.items():              # no finished point recomputed
        assert after[name] == stamp, name
    assert not [q for q in points.iterdir() if q.name.startswith(".tmp-")]

    clean = tmp_path / "clean"
    ok(rfsim("sweep", f, "-j", 2, "-o", clean, "-q"))
    assert masked(out / "results.csv") == masked(clean / "results.csv")
    assert len(rows(out / "results.csv")) == 32


def test_sigint_stops_cleanly_and_resumes(tmp_path):
    f = write(tmp_path / "i.sweep", "workloads = sgemm, bfs\nsize = small\naxis seed = 1..10\n")
    out = tmp_path / "i"
    proc = subprocess.Popen([str(RFSIM), "sweep", str(f), "-j", "1", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while len(finished(out / "points")) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    done = len(finished(out / "points"))
    if proc.returncode == 0:
        pytest.skip("the sweep finished before SIGINT arrived")
    assert proc.returncode == 128 + signal.SIGINT
    assert "rerun the same command to continue" in stdout
    assert len(rows(out / "results.csv")) == done    # the finished points, whole rows
    p = ok(rfsim("sweep", f, "-o", out, "-q"))
    assert f"{done} reused" in p.stdout


def test_failed_points_are_reported_and_counted(tmp_path):
    f = write(tmp_path / "f.sweep", "workloads = saxpy, reduce, nn\nsize = small\n"
              "axis sm.count = 2, 0, 3   # 0 is out of range\n")
    p = rfsim("sweep", f, "-j", 2)
    assert p.returncode == 3, p.stderr               # three failed points
    assert "3 failed" in p.stdout
    assert "FAILED saxpy sm.count=0" in p.stderr
    rs = rows(tmp_path / "f.results/results.csv")
    assert [r["status"] for r in rs] == ["ok"] * 3 + ["failed"] * 3 + ["ok"] * 3
    bad = rs[3]
    assert "sm.count" in bad["error"] and "out of range" in bad["error"]
    err = (tmp_path / "f.results/points" / (bad["point"] + ".err")).read_text()
    assert err.startswith("error: exit 2") and "rfsim run saxpy" in err
    # failed points are run again; finished ones are not
    p = rfsim("sweep", f, "-q")
    assert p.returncode == 3 and "6 reused, 0 computed, 3 failed" in p.stdout


def test_sweep_file_errors(tmp_path):
    cases = {
        "workloads = saxpy\naxis sm.cuont = 1, 2\n": ("b.sweep:2:", "unknown config key"),
        "workloads = saxpy, nosuch\n": ("b.sweep:1:", "unknown workload 'nosuch'"),
        "workloads = saxpy\naxis seed = 3..1\n": ("b.sweep:2:", "bad range"),
        "workloads = saxpy\nfrobnicate = 1\n": ("b.sweep:2:", "unknown word"),
        "size = small\n": ("b.sweep", "no 'workloads =' line"),
        # an empty item or a repeated value was dropped or run twice, silently
        "workloads = saxpy\naxis seed = 1, , 2\n": ("b.sweep:2:", "empty item"),
        "workloads = saxpy\naxis seed = 1, 2,\n": ("b.sweep:2:", "empty item"),
        "workloads = saxpy\naxis seed = \n": ("b.sweep:2:", "empty list"),
        "workloads = saxpy, saxpy\n": ("b.sweep:1:", "'saxpy' is listed twice"),
        "workloads = saxpy\naxis seed = 1..3, 2\n": ("b.sweep:2:", "'2' is listed twice"),
    }
    for text, (where, what) in cases.items():
        p = rfsim("sweep", write(tmp_path / "b.sweep", text))
        assert p.returncode == 2, text
        assert where in p.stderr and what in p.stderr, p.stderr
    assert rfsim("sweep").returncode == 2
    assert ok(rfsim("sweep", "--help")).stdout.startswith("usage: rfsim sweep")


def npoints(tmp_path, sweep):
    """The number of points of a sweep file, from its Slurm script (nothing runs)."""
    sdir = tmp_path / "slurm"
    ok(rfsim("sweep", sweep, "--emit-slurm", sdir, "--chunk", 1, timeout=60))
    text = (sdir / (sweep.stem + ".slurm")).read_text()
    return int(text.split("#SBATCH --array=0-")[1].split()[0]) + 1


def test_ranges_near_the_64_bit_limits(tmp_path):
    # issue 20, item 4: the count and the values of a range overflowed (UBSan); the
    # normal build looped and grew to 3 GB.  A range up to the limit works ...
    top = write(tmp_path / "top.sweep",
                "workloads = saxpy\naxis seed = 9223372036854775800..9223372036854775807\n")
    assert npoints(tmp_path, top) == 8
    whole = write(tmp_path / "whole.sweep", "workloads = saxpy\naxis seed = "
                  "-9223372036854775808..9223372036854775807:4611686018427387904\n")
    assert npoints(tmp_path, whole) == 4                  # -2^63, -2^62, 0, 2^62
    # ... one too long, or beyond 64 bits, says so at once
    for rng, says in [
        ("-9223372036854775808..9223372036854775807",
         "has more than 100000 values (a sweep has at most 100000 points)"),
        ("-9223372036854775800..9223372036854775800:100000000000000", "more than 100000"),
        ("1..99999999999999999999",
         "99999999999999999999 is not a 64-bit integer (-9223372036854775808.."),
        ("5..1", "bad range"), ("1..5:0", "bad range"),
    ]:
        f = write(tmp_path / "r.sweep", f"workloads = saxpy\naxis seed = {rng}\n")
        p = rfsim("sweep", f, timeout=10)
        assert p.returncode == 2, (rng, p.stderr)
        assert f"r.sweep:2: axis seed: " in p.stderr and says in p.stderr, p.stderr


def test_cross_product_beyond_the_limit_is_refused_promptly(tmp_path):
    # issue 20, item 4: a huge cross product aborted with exit 134 (out of memory); the
    # list that takes it past the limit is named, in file order
    f = write(tmp_path / "x.sweep", "workloads = all\nconfigs = all\nsize = small, default\n"
              "axis seed = 1..1000\naxis sm.count = 1..100\naxis rf.banks = 1..100\n")
    p = rfsim("sweep", f, timeout=10)
    assert p.returncode == 2 and p.stdout == ""
    assert ("x.sweep:4: axis seed has 1000 values: the sweep would have 200000 points or "
            "more (the cross product), more than the limit of 100000") in p.stderr, p.stderr
    # a later line that replaces a list counts at its own place, and alone
    g = write(tmp_path / "y.sweep", "workloads = all\naxis seed = 1..10000\n"
              "workloads = saxpy\n")
    assert npoints(tmp_path, g) == 10000


def test_long_axis_is_checked_for_repeats_at_once(tmp_path):
    # issue 20, item 4: checking a 40,000-value axis for a value listed twice compared
    # every pair: 17 s before anything ran.  A sort takes milliseconds.
    vals = ", ".join(str(i) for i in range(40000))
    f = write(tmp_path / "d.sweep", f"workloads = saxpy\naxis seed = {vals}, 17\n")
    p = rfsim("sweep", f, timeout=10)
    assert p.returncode == 2 and "d.sweep:2: axis seed: '17' is listed twice" in p.stderr
    g = write(tmp_path / "e.sweep", f"workloads = saxpy\naxis seed = {vals}\nnot a line\n")
    p = rfsim("sweep", g, timeout=10)                    # line 2 passes, line 3 fails
    assert p.returncode == 2 and "e.sweep:3:" in p.stderr, p.stderr
    labels = "".join(f"variant v{i} = seed={i}\n" for i in range(20000))
    h = write(tmp_path / "v.sweep", f"workloads = saxpy\n{labels}variant v7 = seed=1\n")
    p = rfsim("sweep", h, timeout=10)
    assert p.returncode == 2 and "v.sweep:20002: variant 'v7' given twice" in p.stderr


def test_sweep_and_results_files_are_bounded_text(tmp_path):
    # issue 20, items 5 and 6: a NUL ended the file, exit 0; a huge CSV filled memory
    # (/dev/zero as a sweep file: test_cli's test_endless_and_huge_inputs_...)
    f = tmp_path / "n.sweep"
    f.write_bytes(b"workloads = saxpy\n\x00axis seed = 1, 1\n")
    p = rfsim("sweep", f, timeout=30)
    assert p.returncode == 2 and p.stdout == ""
    assert f"{f}:2:1: a NUL byte (a sweep file is text)" in p.stderr, p.stderr
    csv_ = tmp_path / "n.csv"
    csv_.write_bytes(b"workload,status,ipc\nsaxpy,ok,1\n\x00reduce,ok,2\n")
    p = rfsim("plot", csv_, "--x", "workload", "--y", "ipc", "-o", tmp_path / "n.png")
    assert p.returncode == 2 and f"{csv_}:3:1: a NUL byte" in p.stderr, p.stderr
    big = tmp_path / "big.csv"
    with open(big, "wb") as out:                          # sparse: measured, never read
        out.truncate(300 << 20)
    p = rfsim("plot", big, "--x", "workload", "--y", "ipc", "-o", tmp_path / "b.png")
    assert p.returncode == 2
    assert "314572800 bytes, more than 256 MiB, the limit for a results CSV" in p.stderr


def test_slurm_script_is_valid_and_its_tasks_complete_the_sweep(tmp_path):
    f = write(tmp_path / "c.sweep", SMALL)
    out, sdir = tmp_path / "res", tmp_path / "slurm"
    p = ok(rfsim("sweep", f, "-o", out, "--emit-slurm", sdir, "--chunk", 3))
    script = sdir / "c.slurm"                          # named after the sweep
    assert script.exists(), p.stdout
    text = script.read_text()
    assert "#SBATCH --array=0-2" in text               # 8 points, 3 per task
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    assert not (out / "points").exists() or not finished(out / "points")
    for task in range(3):
        t = subprocess.run(["bash", str(script), str(task)], capture_output=True, text=True,
                           timeout=120)
        assert t.returncode == 0, t.stderr
    assert len(finished(out / "points")) == 8
    p = ok(rfsim("sweep", f, "-o", out))               # the merge
    assert "8 reused, 0 computed" in p.stdout
    assert len(rows(out / "results.csv")) == 8


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("plot")
    f = write(d / "p.sweep", SMALL)
    ok(rfsim("sweep", f, "-q"))
    return d / "p.results/results.csv"


@pytest.mark.skipif(not shutil.which("gnuplot"), reason=NO_GNUPLOT)
def test_plot_png_bars_and_svg_lines(results, tmp_path):
    png = tmp_path / "bars.png"
    p = ok(rfsim("plot", results, "--x", "workload", "--y", "warp_instructions",
                 "--series", "sm.count", "--geomean", "-o", png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000
    assert "gmean" in p.stdout                       # the plotted numbers
    svg = tmp_path / "lines.svg"
    p = ok(rfsim("plot", results, "--x", "sm.count", "--y", "warp_instructions",
                 "--series", "workload", "--normalize-to", "sm.count=1", "-o", svg))
    assert "<svg" in svg.read_text()
    lines = p.stdout.splitlines()                    # normalized: 1 at sm.count=1
    assert lines[1].split()[1:] == ["1", "1"]


def test_plot_errors(results, tmp_path):
    p = rfsim("plot", results, "--x", "workload", "--y", "ipcx", "-o", tmp_path / "x.png")
    assert p.returncode == 2 and "no column 'ipcx'" in p.stderr and "warp_instructions" in p.stderr
    p = rfsim("plot", results, "--x", "workload", "--y", "cycles", "-o", tmp_path / "x.jpg")
    assert p.returncode == 2 and ".png or .svg" in p.stderr
    # an unwritable output: one line naming it, exit 2 (gnuplot's own multi-line
    # complaint and exit 1 before)
    bad = tmp_path / "nodir" / "x.png"
    p = rfsim("plot", results, "--x", "workload", "--y", "cycles", "-o", bad)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert f"cannot write -o '{bad}'" in p.stderr and "gnuplot>" not in p.stderr
    env = dict(os.environ, GNUPLOT="/nonexistent/gnuplot")
    p = rfsim("plot", results, "--x", "workload", "--y", "warp_instructions",
              "-o", tmp_path / "x.png", env=env)
    assert p.returncode == 1 and "apt-get install gnuplot-nox" in p.stderr


@pytest.mark.skipif(not shutil.which("gnuplot"), reason=NO_GNUPLOT)
def test_plot_derived_figure_from_counters(tmp_path):
    """issue 22 item 3: --y may name a derived figure of tstats.def that the CSV
    has no column for (issue_pct), computed from the row's counters by the
    formula the run summary uses."""
    f = write(tmp_path / "d.sweep", "workloads = saxpy\nconfigs = fermi-gtx480\n"
              "size = small\nset sim.mode = timing\naxis rf.model = baseline, rfc\n")
    ok(rfsim("sweep", f, "-q", "-j", "1"))
    res = tmp_path / "d.results/results.csv"
    assert "issue_pct" not in res.read_text().splitlines()[0].split(",")
    p = ok(rfsim("plot", res, "--x", "rf.model", "--y", "issue_pct", "-o", tmp_path / "d.svg"))
    got = {l.split()[0]: float(l.split()[1]) for l in p.stdout.splitlines()[1:3]}
    stalls = ("issued", "stall_idle", "stall_rf", "stall_mem", "stall_scoreboard",
              "stall_barrier", "stall_other")
    for r in rows(res):
        want = 100 * int(r["issued"]) / sum(int(r[k]) for k in stalls)
        assert abs(got[r["rf.model"]] - want) < 1e-3 * want, (got, want)


def test_reproduce_baseline_and_rerun(tmp_path):
    out = tmp_path / "rep"
    args = ("reproduce", "baseline", "--size", "small", "-w", "saxpy,reduce,sgemm", "-o", out)
    t0 = time.time()
    p = rfsim(*args)
    first = time.time() - t0
    assert p.returncode == 0, p.stderr
    report = (out / "report.md").read_text()
    assert "## baseline-configs" in report and "## baseline-latency" in report
    assert "| saxpy" in report and "gmean" in report
    if shutil.which("gnuplot"):
        assert "![" in report and (out / "baseline-configs.png").exists()
    t0 = time.time()
    p = ok(rfsim(*args))
    again = time.time() - t0
    report = (out / "report.md").read_text()
    assert " 0 computed" in report and "computed, 0 failed" in report
    assert again < max(first / 3, 0.5), (first, again)
    assert ok(rfsim("reproduce", "--list")).stdout.count("baseline") >= 2
    assert rfsim("reproduce", "nosuchpaper", "-o", tmp_path / "x").returncode == 2


def test_variant_lines_set_several_keys_per_point(tmp_path):
    """`variant LABEL = KEY=VALUE ...` lines form one axis, column "variant",
    whose points set every key of their line; they are ids of effective
    configs like any point (so sm.count=2 spelt twice is one point)."""
    f = write(tmp_path / "v.sweep", "workloads = saxpy\nsize = small\n"
              "axis seed = 1, 2\n"
              "variant one = sm.count=1 sched.count=1\n"
              "variant two = sm.count=2\n")
    ok(rfsim("sweep", f, "-q"))
    rs = rows(tmp_path / "v.results" / "results.csv")
    assert list(rs[0])[:5] == ["workload", "config", "size", "seed", "variant"]
    assert [(r["seed"], r["variant"]) for r in rs] == [
        ("1", "one"), ("1", "two"), ("2", "one"), ("2", "two")]
    g = write(tmp_path / "w.sweep", "workloads = saxpy\nsize = small\naxis seed = 1\n"
              "axis sm.count = 2\n")
    ok(rfsim("sweep", g, "-q"))
    two = [r["point"] for r in rs if r["variant"] == "two" and r["seed"] == "1"]
    assert two == [rows(tmp_path / "w.results" / "results.csv")[0]["point"]]
    for bad, says in [("variant x = nosuch.key=1\n", "unknown config key 'nosuch.key'"),
                      ("variant x = sm.count\n", "expected KEY=VALUE"),
                      ("variant x = sm.count=1\nvariant x = sm.count=2\n", "given twice"),
                      ("variant = sm.count=1\n", "variant LABEL")]:
        h = write(tmp_path / "bad.sweep", "workloads = saxpy\n" + bad)
        p = rfsim("sweep", h)
        assert p.returncode == 2 and says in p.stderr, (bad, p.stderr)


def test_reproduce_shares_points_between_experiments(tmp_path):
    """regshare-ipc, -idle and -stall run the same simulations: the second
    and third link the first's points instead of running them; published
    numbers name a series with at:X@SERIES.  spmv: register-insensitive on
    fermi-gtx480 at ptxas-like counts too (saxpy, 26 registers, is not)."""
    out = tmp_path / "rep"
    p = ok(rfsim("reproduce", "regshare", "--size", "small", "-w", "spmv", "-o", out))
    report = (out / "report.md").read_text()
    assert "## regshare-idle" in report and "## regshare-insensitive" in report
    ipc = {q.name: q.stat().st_ino for q in (out / "regshare-ipc" / "points").glob("*.json")}
    idle = {q.name: q.stat().st_ino for q in (out / "regshare-idle" / "points").glob("*.json")}
    assert len(ipc) == 2 and ipc == idle
    assert "2 points (2 reused, 0 computed, 0 failed) in `regshare-idle/`" in report
    # Set-2's Shared-LRR without unrolling equals Unshared-LRR exactly
    assert "| Shared-LRR without unrolling over Unshared-LRR | - | 1.000 |" in report
