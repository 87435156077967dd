"""RegMutex's compiler side end to end (src/analysis/regmutex.c, rm_plan.c,
rm_home.c, rm_check.c; regmutex.md section III-A): acquire/release
injection and register index compaction must not change what any program
computes.

Every built-in workload runs at --size small on fermi-gtx480 (functional
core only: the timing model has nothing to say about output) with the pass
on (-s regmutex.enable=1) at the heuristic's |Es|, and at forced |Es| = 2
and 4 (-s regmutex.es=N) on every kernel; the register-limited ones also at
every even |Es| from 2 to 12 (the paper's Figure 10 sweep).  Each run must
pass its own output check, or -- for a forced size -- be refused at
compile time naming the deadlock rule it breaks (the issue's quality bar).
The pass re-checks every kernel it transforms with an independent checker
(rm_check.c: no extended register live or named outside an acquired
region, acquires and releases never nested or doubled on a path, releases
converged, no barrier acquired) and keeps only code that passes it (a
placement that fails is undone and redone with every divergent region
acquired whole, or the size is refused), so a PASS here also means the
checker agreed.  `rfsim analyze --json` must carry the documented
"regmutex" object.

CUB's DeviceReduceSingleTileKernel (tests/ptx/rm_cub_reduce.ptx, cut out of
tests/cudart/thrustops.cu's PTX) stopped the pass with an internal error on
fermi-gtx480 ("fails its check": the placement released inside a divergent
region taken acquired, rm_plan.c).  It must now be given an extended set and
count right under rf.model=regmutex in timing and functional mode
(tests/cudart/rm_cub_hand.c launches it: its by-value iterator parameter is
more than `rfsim run -a` can pass).  The pass on every kernel of the corpus,
every config and many forced sizes is tests/unit/test_regmutex_corpus.c.
"""

import json
import os
import re
import subprocess

import pytest

from rfsim_test import ROOT, RFSIM, rfsim, workloads

CFG = ["-c", "fermi-gtx480"]
FUNC = ["--functional"]     # output correctness is the functional core's business
ON = ["-s", "regmutex.enable=1"]
# the sizes and gains below were taken on the register counts of the
# pressure-minimising order; compiler.schedule=latency (the default) counts
# as ptxas does and picks differently (the runs above check it computes right)
PRESSURE = ["-s", "compiler.schedule=pressure"]


def run_ok_or_refused(workload, *extra):
    p = rfsim("run", workload, "--size", "small", *FUNC, *CFG, *ON, *extra)
    if p.returncode == 0:
        assert "PASS" in p.stdout, p.stdout
        return True
    assert "deadlock rule" in p.stderr, f"{workload}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "internal error" not in p.stderr, p.stderr
    return False


@pytest.mark.parametrize("workload", workloads())
def test_heuristic_output_correct(workload):
    p = rfsim("run", workload, "--size", "small", *FUNC, *CFG, *ON)
    assert p.returncode == 0, f"{workload}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout


@pytest.mark.parametrize("es", [2, 4])
@pytest.mark.parametrize("workload", workloads())
def test_forced_es_output_correct(workload, es):
    run_ok_or_refused(workload, "-s", f"regmutex.es={es}")


@pytest.mark.parametrize("es", [2, 6, 8, 10, 12])
@pytest.mark.parametrize("workload", workloads("register-limited"))
def test_es_sweep_register_limited(workload, es):
    run_ok_or_refused(workload, "-s", f"regmutex.es={es}")


def test_forced_es_mostly_applies():
    """A forced |Es| = 2 is refused only where a deadlock rule forbids it."""
    ok = [w for w in workloads() if run_ok_or_refused(w, "-s", "regmutex.es=2")]
    assert len(ok) >= len(workloads()) * 2 // 3, ok


def kernels_json(workload, *extra):
    p = rfsim("analyze", workload, *CFG, *extra, "--json", "-")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["kernels"]


def test_analyze_json_shape():
    ks = kernels_json("tpacf", *ON, *PRESSURE)
    rm = ks[0]["regmutex"]
    for key in ("bs", "es", "acquires", "releases", "moves", "warps_per_sm_base",
                "warps_per_sm", "occupancy_base", "occupancy", "pool_sections",
                "storage_bits", "applied"):
        assert key in rm, key
    assert rm["storage_bits"] == 384
    assert rm["applied"] and rm["es"] > 0 and rm["bs"] + rm["es"] >= ks[0]["regs_per_thread"]
    assert rm["acquires"] >= 1 and rm["releases"] >= 1
    assert rm["warps_per_sm"] > rm["warps_per_sm_base"]
    off = kernels_json("tpacf", *PRESSURE)[0]["regmutex"]  # pass off: the pick alone, no code
    assert not off["applied"] and off["acquires"] == 0 and off["es"] == rm["es"]


def test_register_limited_kernels_gain_occupancy():
    """The heuristic never lowers occupancy; where it gives a kernel an
    extended set it raises occupancy with a pool for more than half the
    resident warps; where it declines, no candidate could, and the reason
    says so.  tpacf's kernel and particlefilter's likelihood kernel are
    such kernels on fermi-gtx480."""
    gained = set()
    for w in workloads("register-limited"):
        for k in kernels_json(w, *ON, *PRESSURE):
            rm = k["regmutex"]
            assert rm["warps_per_sm"] >= rm["warps_per_sm_base"], (w, k["name"], rm)
            if rm["applied"]:
                assert rm["warps_per_sm"] > rm["warps_per_sm_base"], (w, k["name"], rm)
                assert 2 * rm["pool_sections"] > rm["warps_per_sm"], (w, k["name"], rm)
                gained.add(k["name"])
    assert {"tpacf_hist", "pf_likelihood"} <= gained, gained


# ---- CUB's reduce kernel (the internal error) ----------------------------------

CUB = ROOT / "tests" / "ptx" / "rm_cub_reduce.ptx"
CONFIGS = ["fermi-gtx480", "maxwell-ltrf", "hopper-h100", "gebhart-isca11"]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("es", [0, 2, 4, 6, 8, 12, 16])
def test_cub_reduce_compiles(config, es):
    """rfsim analyze under rf.model=regmutex exited 134 on fermi-gtx480 at
    the heuristic's |Es| (2) and at several forced ones; every config and
    size now gets the placement as planned (no fallback), or a refusal
    naming a rule."""
    for sched in ([], PRESSURE):
        p = rfsim("analyze", CUB, "-c", config, "-s", "rf.model=regmutex", "-s",
                  f"regmutex.es={es}", "-s", "compiler.dump=m", *sched, "--json", "-")
        assert "internal error" not in p.stderr and "regmutex check" not in p.stderr, p.stderr
        assert p.returncode == 0, p.stderr
        assert "fallback" not in p.stderr and "own check" not in p.stderr, p.stderr
        rm = json.loads(p.stdout)["kernels"][0]["regmutex"]
        assert rm["applied"] or "deadlock rule" in rm["why_off"] or es == 0, rm
    if config == "fermi-gtx480" and es in (0, 2):     # rm: the pressure order's
        assert rm["applied"] and (rm["bs"], rm["es"]) == (20, 2), rm
        assert rm["acquires"] >= 1 and rm["releases"] >= 1, rm
        assert rm["warps_per_sm"] > rm["warps_per_sm_base"], rm


def lib_env(**extra):
    """The environment of a program on rfsim's libcudart (as test_cudart.py's)."""
    lib = RFSIM.parent / "libcudart.so.13"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RFSIM_")}
    env["LD_LIBRARY_PATH"] = str(RFSIM.parent)
    ldd = subprocess.run(["ldd", str(lib)], capture_output=True, text=True).stdout
    asan = re.search(r"=> (\S*libasan\.so\S*) \(", ldd)
    if asan:  # a sanitizer build must be loaded first
        env["LD_PRELOAD"] = asan.group(1)
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    env.update({k: str(v) for k, v in extra.items()})
    return env


@pytest.fixture(scope="module")
def cub_hand(tmp_path_factory):
    """tests/cudart/rm_cub_hand.c built against the build's libcudart."""
    exe = tmp_path_factory.mktemp("rm_cub") / "rm_cub_hand"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", str(ROOT / "src" / "cudart"),
                    str(ROOT / "tests" / "cudart" / "rm_cub_hand.c"), "-L", str(RFSIM.parent),
                    "-l:libcudart.so.13", "-lzstd", "-llz4", "-o", str(exe)], check=True)
    return exe


@pytest.mark.parametrize("mode", ["timing", "functional"])
def test_cub_reduce_counts_right_under_regmutex(cub_hand, mode, tmp_path):
    """count_if's reduction under rf.model=regmutex on fermi-gtx480 (the
    default config): n = 0, a short tile, one tile, several and a
    remainder, each checked by the program against the host's count; in
    timing mode the launches that loop over full tiles acquire and release
    the extended set."""
    stats = tmp_path / "stats.json"
    p = subprocess.run([str(cub_hand), str(CUB)], capture_output=True, text=True, timeout=600,
                       env=lib_env(RFSIM_CONFIG="fermi-gtx480", RFSIM_QUIET=1,
                                   RFSIM_SET=f"rf.model=regmutex;sim.mode={mode};"
                                             "compiler.schedule=pressure",
                                   RFSIM_STATS=stats))
    assert p.returncode == 0 and "PASS" in p.stdout, f"{p.stdout}\n{p.stderr}"
    assert "n = 5000: 2508" in p.stdout, p.stdout
    if mode == "timing":
        ks = json.loads(stats.read_text())["kernels"]
        assert len(ks) == 4
        assert all(k["rm_es_avg"] == 2 for k in ks), ks
        assert ks[2]["rm_acquires"] > 0 and ks[3]["rm_acquires"] > 0, ks
        assert all(k["rm_acquires"] == k["rm_releases"] for k in ks), ks
