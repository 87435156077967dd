"""Workload sizes as real inputs have them (issue 21, item 7).

At --size default every register-limited workload's main kernel (the one
with the most warp instructions) runs at least 3 full waves of CTAs at the
baseline's occupancy on fermi-gtx480 and maxwell-ltrf: its grid holds at
least 3 x (CTAs per SM x SMs) CTAs, so that occupancy decides how fast it
runs rather than one partial wave's tail.  A kernel launched several times
with different grids (dwt2d's levels, each a quarter of the one before)
counts its launches weighted by their warp instructions, and its largest
launch must pass on its own.  The grids come from a functional run at
default size, the CTAs per SM from `rfsim analyze` at the launch's block
and dynamic shared memory.  Skipped in the sanitizer build (minutes of
functional runs there).
"""

import json
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from rfsim_test import ROOT, RFSIM, rfsim, workloads

sys.path.insert(0, str(ROOT / "docs"))
import gen_workloads  # noqa: E402

WAVES = 3.0
CONFIGS = ("fermi-gtx480", "maxwell-ltrf")
SAN = "build-san" in str(RFSIM)


def sms(config):
    return json.loads(rfsim("config", "-c", config).stdout)["sm.count"]


@pytest.fixture(scope="module")
def waves(tmp_path_factory):
    """{(workload, config): (weighted waves, largest launch's waves)}"""
    cdir = tmp_path_factory.mktemp("sizes")
    names = workloads("register-limited")
    with ThreadPoolExecutor(2) as ex:
        runs = dict(zip(names, ex.map(
            lambda w: gen_workloads.run_stats(str(RFSIM), w, "default", cdir), names)))
    out = {}
    for c in CONFIGS:
        n = sms(c)
        for w in names:
            r = runs[w]
            assert "error" not in r, f"{w}: {r['error']}"
            per = {}
            for k in r["kernels"]:
                per[k["name"]] = per.get(k["name"], 0) + k["warp_instructions"]
            main = max(per, key=per.get)
            occ, num, den, top = {}, 0.0, 0, 0.0
            for k in r["kernels"]:
                if k["name"] != main:
                    continue
                key = (tuple(k["block"]), k["dyn_shared_bytes"])
                if key not in occ:
                    occ[key] = gen_workloads.analyze_kernel(
                        str(RFSIM), w, c, main, k["block"], k["dyn_shared_bytes"])["occupancy"]
                g = k["grid"]
                x = g[0] * g[1] * g[2] / (occ[key]["ctas_per_sm"] * n)
                num += x * k["warp_instructions"]
                den += k["warp_instructions"]
                top = max(top, x)
            out[(w, c)] = (num / den, top)
    return out


@pytest.mark.skipif(SAN, reason="minutes of default-size functional runs under ASan")
def test_register_limited_workloads_run_three_waves_at_default_size(waves):
    assert len(waves) == 2 * len(workloads("register-limited")) > 0
    bad = {k: v for k, v in waves.items() if v[0] < WAVES or v[1] < WAVES}
    assert not bad, "\n".join(f"{w} on {c}: {a:.2f} waves weighted, largest launch {b:.2f}"
                              for (w, c), (a, b) in sorted(bad.items()))
