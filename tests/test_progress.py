"""Long work shows true progress. A first run compiles the numba kernels: it says so on one
line, with how long it takes, above the progress bar, and says nothing when the kernels are
already there or no bar is shown (library calls, --quiet). A report's bar ends at its total
and never counts past it."""

import os
import re

import numpy as np
import pytest
from numba import njit
from tqdm import tqdm

from snapsim.sim.kernel import run_blocks

NOTICE = "snapsim: compiling the test kernel, about 1 s"


def fresh_kernel():
    """A batch kernel numba has not compiled yet (a new function every call)."""

    @njit
    def kernel(lo, hi, out):
        for g in range(lo, hi):
            out[g] = g

    return kernel


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles nothing")
def test_a_first_compile_is_announced_once_above_a_progress_bar(capsys):
    out = np.zeros(6)
    kernel = fresh_kernel()
    with tqdm(total=6, desc="games") as bar:
        run_blocks(kernel, 6, out, compiling="the test kernel, about 1 s")
        bar.update(6)
    assert capsys.readouterr().err.count(NOTICE) == 1
    assert out.tolist() == list(range(6))
    with tqdm(total=6, desc="games"):  # compiled now: nothing to say
        run_blocks(kernel, 6, out, compiling="the test kernel, about 1 s")
    assert NOTICE not in capsys.readouterr().err


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles nothing")
def test_without_a_progress_bar_a_compile_is_silent(capsys):
    run_blocks(fresh_kernel(), 3, np.zeros(3), compiling="the test kernel, about 1 s")
    with tqdm(total=3, disable=True):  # --quiet: a bar that is not shown
        run_blocks(fresh_kernel(), 3, np.zeros(3), compiling="the test kernel, about 1 s")
    assert "compiling" not in capsys.readouterr().err


def test_a_reports_bar_never_counts_past_its_total(tmp_path, capsys):
    # the seats study adds more runs than its share (the strong line-up's), the cards study
    # reuses some: the bar still ends exactly at its total
    from snapsim.games.snapshot.report import build

    build(out=tmp_path / "r", games=10, seed=3, studies=["seats", "cards", "raccoon"],
          progress=True)
    err = capsys.readouterr().err
    shown = [(int(a), int(b)) for a, b in re.findall(r"snapshot report:.*?(\d+)/(\d+) \[", err)]
    assert shown and all(n <= total for n, total in shown)
    assert shown[-1][0] == shown[-1][1] == 12
    # the bar names the study it is in, each in turn
    named = re.findall(r"snapshot report: (\w+):", err)
    assert list(dict.fromkeys(named)) == ["seats", "cards", "raccoon"]
