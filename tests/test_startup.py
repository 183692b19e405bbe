"""A command starts without the heavy libraries: building the `snapsim` parser (every call
pays it, `--help` included) and `import snapsim` load none of them; a command imports what
it uses when it runs. Checked from `python -X importtime`, which lists every module a fresh
interpreter imports, so the test holds without timing anything."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("numba", "numpy", "scipy", "pandas", "matplotlib", "pyarrow", "tqdm")


def imported(code: str) -> set[str]:
    """Every module a fresh interpreter imports running `code`, read from -X importtime."""
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True,
                         text=True, check=True).stderr
    names = set()
    for line in err.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            names.add(parts[2].strip())
    return names


def top_level(names: set[str]) -> set[str]:
    return {n.partition(".")[0] for n in names}


@pytest.mark.parametrize("code", [
    "import snapsim.cli; snapsim.cli.build_parser()",
    "import snapsim",
    "from snapsim.cli import main\ntry:\n    main(['report', '--help'])\nexcept SystemExit:\n"
    "    pass",
])
def test_the_parser_and_the_package_import_nothing_heavy(code):
    names = imported(code)
    assert "snapsim" in names  # the listing is read (an empty one would pass anything)
    assert top_level(names) & set(HEAVY) == set()
    assert not any(n.startswith(("snapsim.games", "snapsim.report", "snapsim.analysis"))
                   for n in names)


def test_a_command_imports_its_libraries_when_it_runs():
    names = imported("from snapsim.cli import main\n"
                     "main(['odds', 'explore', '--dice', '1', '--format', 'csv'])")
    assert {"numba", "pandas"} <= top_level(names)  # the same reading sees them when used


def test_a_photo_table_loads_no_kernel():
    """Dice sums are numpy (odds.sums): numba's first kernel load costs about a second."""
    names = imported("from snapsim.cli import main\n"
                     "main(['odds', 'photo', '--dice', '2', '--tokens', '1', '--format', 'csv'])")
    assert "snapsim.odds.sums" in names and "numba" not in top_level(names)


def test_the_intervals_leave_scipy_stats_unimported():
    """The intervals' normal and t quantiles come from scipy.special (analysis.normal):
    scipy.stats, a second to import, is loaded only by what needs its tests (a simulation's
    summary, a comparison, a verdict and the luck decomposition do not)."""
    names = imported("import snapsim.cli.simulate, snapsim.analysis.stats, "
                     "snapsim.analysis.paired, snapsim.analysis.verdict, "
                     "snapsim.analysis.comparison, snapsim.analysis.luck")
    assert {"snapsim.analysis.stats", "snapsim.analysis.normal"} <= names
    assert not any(n == "scipy.stats" or n.startswith("scipy.stats.") for n in names)
