"""Every test keeps finished runs in its own temporary cache folder (subprocesses inherit
it), so the suite never reads or fills the user's cache, and one test's runs never answer
another's; the workbench writes its runs and uploads into a temporary folder too, never into
the folder the suite runs from. The browser tests keep their screenshots in
$SNAPSIM_ARTEFACTS, else the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _run_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SNAPSIM_CACHE_DIR", str(tmp_path_factory.mktemp("run-cache")))
    monkeypatch.setenv("SNAPSIM_APP_OUT", str(tmp_path_factory.mktemp("workbench")))


@pytest.fixture
def artefacts(tmp_path) -> Path:
    folder = Path(os.environ.get("SNAPSIM_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
