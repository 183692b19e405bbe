"""pytest plugin loaded into every run of `mutate.py` (`-p mutate_probe`).

It proves that the copy under test is what Python imports (snapsim is also installed editable,
so a wrong path would silently test the unmutated engine), reports a mutant that cannot even
be imported, names the first failing test, and during the baseline stops any test that runs
longer than the cap (as a skip) so the tool can leave slow tests out of the mutant runs.

Inputs come from the environment: MUTATE_ROOT (the copy), MUTATE_MODULE (the engine module),
MUTATE_REPORT (where the JSON report goes) and MUTATE_CAP (seconds per test, baseline only).
"""

import importlib
import json
import os
import signal
from pathlib import Path

import pytest


class SlowTest(BaseException):
    """Raised by the timer; a BaseException so `except Exception` in the code under test
    cannot swallow it."""


_report = {"snapsim_file": None, "module_file": None, "import_error": None,
           "passed": 0, "failed": [], "slow": [], "durations": {}}


def _write():
    Path(os.environ["MUTATE_REPORT"]).write_text(json.dumps(_report))


def pytest_configure(config):
    import snapsim

    where = snapsim.__file__ or next(iter(snapsim.__path__))  # no file: a namespace package
    _report["snapsim_file"] = str(Path(where).resolve())
    _write()
    root = Path(os.environ["MUTATE_ROOT"]).resolve()
    if snapsim.__file__ is None or not Path(_report["snapsim_file"]).is_relative_to(root):
        pytest.exit(f"snapsim imported from {_report['snapsim_file']}, not {root}", returncode=3)
    try:
        module = importlib.import_module(os.environ["MUTATE_MODULE"])
    except Exception as exc:  # any failure to import is the mutant's own fault
        _report["import_error"] = f"{type(exc).__name__}: {exc}"
        _write()
        pytest.exit(_report["import_error"], returncode=4)
    _report["module_file"] = str(Path(module.__file__).resolve())
    _write()


def _on_timer(signum, frame):
    raise SlowTest(f"longer than {os.environ['MUTATE_CAP']} s")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    cap = float(os.environ.get("MUTATE_CAP") or 0)
    if cap <= 0:
        return (yield)
    previous = signal.signal(signal.SIGALRM, _on_timer)
    signal.setitimer(signal.ITIMER_REAL, cap)
    try:
        return (yield)
    except SlowTest:  # a skip, not a failure: pytest need not format the interrupted frames
        _report["slow"].append(item.nodeid)
        pytest.skip(f"slower than {cap:g} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def pytest_runtest_logreport(report):
    if report.when == "call":
        _report["durations"][report.nodeid] = round(report.duration, 3)
        if report.passed:
            _report["passed"] += 1
    if report.failed:
        _report["failed"].append(report.nodeid)


def pytest_collectreport(report):
    if report.failed:
        _report["failed"].append(report.nodeid or "collection")


def pytest_sessionfinish(session):
    _write()
