"""Compiled kernels never outlive their sources: numba checks only the date of a kernel's own
file, so a kernel whose callee in another file changed would load its old machine code.
`import snapsim` deletes the cached kernels when any kernel source changed since the last
import. Checked on a copy of the package (its own caches beside it), in child processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import snapsim

PACKAGE = Path(snapsim.__file__).resolve().parent

# a kernel in heuristic.py whose only work is a call into sim/kernel.py
CHOOSE = ("import numpy as np; from snapsim.games.snapshot.heuristic import random_action; "
          "print(random_action(np.array([1, 2], np.uint64), np.arange(10, 20), 10))")


@pytest.fixture
def package_copy(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "snapsim", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def child(site: Path, code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=site, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def cached(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in (site / "snapsim").rglob("*.nb[ic]"))


def test_cached_kernels_go_when_a_source_changes_and_stay_otherwise(package_copy):
    site = package_copy
    fake = site / "snapsim" / "games" / "yosemite" / "__pycache__" / "x.nbi"
    fake.parent.mkdir(parents=True)
    fake.write_text("")
    child(site, "import snapsim")
    assert not fake.exists()  # first import: nothing is known to be fresh
    fake.write_text("")
    child(site, "import snapsim")
    assert fake.exists()  # no source changed: the cache stays
    report = site / "snapsim" / "report" / "__pycache__" / "y.nbi"
    report.parent.mkdir(parents=True)
    report.write_text("")
    source = site / "snapsim" / "odds" / "dice.py"
    source.write_text(source.read_text() + "\n")
    child(site, "import snapsim")
    assert not fake.exists()  # a kernel source changed: every cached kernel goes
    assert report.exists()  # outside the kernel sources nothing is touched


def test_a_changed_callee_in_another_file_is_compiled_again(package_copy):
    site = package_copy
    first = child(site, "import snapsim; " + CHOOSE)
    assert first in {str(v) for v in range(10, 20)}
    assert any("heuristic" in p for p in cached(site))  # the caller was cached
    kernel = site / "snapsim" / "sim" / "kernel.py"
    text = kernel.read_text()
    body = "    return np.int64(((next_u64(rng, stream) >> np.uint64(11)) * np.uint64(n)) >> " \
           "np.uint64(53))"
    assert body in text
    kernel.write_text(text.replace(body, "    return np.int64(n - 1)"))
    # the caller's file is unchanged, so numba alone would load its old code
    assert child(site, "import snapsim; " + CHOOSE) == "19"
