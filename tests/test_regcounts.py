"""Registers as the real compiler gives them (issue 21, item 6).

Every kernel of the tests' PTX corpus (tests/ptx/*.ptx, tests/sem/*.ptx,
wherever ptxas accepts the file) and of the workloads is analyzed under the
default compiler.schedule (latency) and compared with `ptxas -v` for the
architecture its config stands for (docs/gen_workloads.py: regcounts(),
the same numbers docs/workloads.md reports).  The median of rfsim / ptxas
must lie within 0.95-1.05 and the share of kernels within 0.8-1.25x must
not fall below what the model reaches today (FLOOR).  Issue 21's target
share, 85%, is not reached yet: test_share_meets_issue_target is an
expected failure that turns into an error (strict) the day it passes, so
that FLOOR moves up to it.  Without ptxas on PATH (or $PTXAS) every test
here is skipped.
"""

import sys

import pytest

from rfsim_test import ROOT, RFSIM

sys.path.insert(0, str(ROOT / "docs"))
import gen_workloads  # noqa: E402

MEDIAN = (0.95, 1.05)        # issue 21: the median ratio
TARGET = 0.85                # issue 21: share of kernels within 0.8-1.25x
FLOOR = 0.75                 # what compiler.schedule=latency reaches (0.759 of 266, ptxas 13.0)

PTXAS = gen_workloads.ptxas_path()
needs_ptxas = pytest.mark.skipif(
    PTXAS is None, reason="ptxas (CUDA toolkit) not on PATH or $PTXAS: rfsim's register "
                          "counts are not compared with NVIDIA's")


@pytest.fixture(scope="module")
def rows():
    groups = gen_workloads.regcounts(str(RFSIM), PTXAS)
    return [x for g in groups.values() for x in g], groups


def report(rows):
    worst = sorted(rows, key=lambda x: abs(x["ratio"] - 1), reverse=True)[:20]
    return "\n".join(f'{x["file"]} {x["kernel"]}: rfsim {x["rfsim"]} ptxas {x["ptxas"]} '
                     f'({x["arch"]}) ratio {x["ratio"]:.2f}' for x in worst)


@needs_ptxas
def test_corpus_is_covered(rows):
    every, groups = rows
    assert len(groups["workloads"]) >= 40, "the workloads' kernels were not all compared"
    assert len(groups["corpus"]) >= 200, "the corpus's kernels were not all compared"


@needs_ptxas
def test_median_within_target(rows):
    d = gen_workloads.distribution(rows[0])
    assert MEDIAN[0] <= d["median"] <= MEDIAN[1], \
        f'median {d["median"]:.3f}, quartiles {d["q1"]:.2f}/{d["q3"]:.2f}\n{report(rows[0])}'


@needs_ptxas
def test_share_holds_floor(rows):
    d = gen_workloads.distribution(rows[0])
    assert d["share"] >= FLOOR, \
        f'{100 * d["share"]:.0f}% of {d["n"]} kernels within 0.8-1.25x\n{report(rows[0])}'


@needs_ptxas
@pytest.mark.xfail(strict=True, reason="issue 21's 85% is not reached: ptxas's constant "
                   "folding, own unrolling, register choice, uniform registers and -G code "
                   "(docs/workloads.md)")
def test_share_meets_issue_target(rows):
    d = gen_workloads.distribution(rows[0])
    assert d["share"] >= TARGET, f'{100 * d["share"]:.0f}% within 0.8-1.25x'
