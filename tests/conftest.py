"""Every test keeps finished runs in its own temporary cache folder (subprocesses inherit
it), so the suite never reads or fills the user's cache, and one test's runs never answer
another's; the workbench writes its runs and uploads into a temporary folder too, never into
the folder the suite runs from. A module's or the session's fixture (a report several tests
read) is made before any test's folder is set, so those share one temporary cache of the
suite's own: a fixture's seeded runs may answer another fixture's same runs, never the
user's. The browser tests keep their screenshots in $SNAPSIM_ARTEFACTS, else the test's
own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _isolate(factory, setenv, name: str) -> None:
    setenv("SNAPSIM_CACHE_DIR", str(factory.mktemp(f"{name}run-cache")))
    setenv("SNAPSIM_APP_OUT", str(factory.mktemp(f"{name}workbench")))


@pytest.fixture(scope="session", autouse=True)
def _suite_cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        _isolate(tmp_path_factory, mp.setenv, "suite-")
        yield


@pytest.fixture(autouse=True)
def _run_cache(tmp_path_factory, monkeypatch):
    _isolate(tmp_path_factory, monkeypatch.setenv, "")


@pytest.fixture(scope="module")
def _module_cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("module-run-cache")


@pytest.fixture
def module_run_cache(_module_cache_dir, monkeypatch) -> Path:
    """One cache of finished runs for a module's tests, for a module whose tests replay the
    same seeded runs and check what is made of them, not whether they were played: each
    run is played once per module (its key holds the game, the settings and the code)."""
    monkeypatch.setenv("SNAPSIM_CACHE_DIR", str(_module_cache_dir))
    return _module_cache_dir


@pytest.fixture
def artefacts(tmp_path) -> Path:
    folder = Path(os.environ.get("SNAPSIM_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
