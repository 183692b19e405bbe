"""What the pages share: choosing a component file (bundled or uploaded), showing a job's
progress, and where outputs go (the folders the command line would write)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Literal

import streamlit as st

from ..errors import SnapsimError
from ..sim import component_files as C
from ..sim.registry import advised_games, known_games
from . import jobs

# the game with exact odds first (Snapshot): the one every page of the workbench serves
GAMES = tuple(sorted(known_games(), key=lambda g: g not in advised_games()))
UPLOADS = ("toml", "csv", "xlsx")
OUT_ENV = "SNAPSIM_APP_OUT"  # set by `snapsim app --out`
GOTO = "goto"  # the page to open on the next run (the page radio cannot be set once drawn)


def out_root() -> Path:
    """Where the pages write their runs (`snapsim app --out`, default ./snapsim-workbench)."""
    return Path(os.environ.get(OUT_ENV, "snapsim-workbench")).expanduser()


def save_upload(name: str, data: bytes) -> Path:
    """An uploaded file kept under its own name (messages name it) in a folder of its
    SHA-256, so the same bytes are the same file."""
    sha = hashlib.sha256(data).hexdigest()
    path = out_root() / "uploads" / sha[:16] / Path(name).name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path


def pick_components(game: str, key: str) -> Path | None | Literal[False]:
    """The component file chosen on a page: None for the bundled one, the path of a valid
    upload, or False (its validator's message shown) for one that is not a component file."""
    where = st.radio("Component file", ["bundled", "upload"], horizontal=True, key=f"{key}-src",
                     help="the bundled cards, or your own TOML, CSV or XLSX file")
    if where == "bundled":
        return None
    up = st.file_uploader("Your component file", type=list(UPLOADS), key=f"{key}-file")
    if up is None:
        st.info("Upload a component file (export one from Edit and compare, or with "
                "`snapsim components export GAME --format csv`).")
        return False
    path, said = check_upload(up.name, up.getvalue(), game)
    (st.caption if path else st.error)(said.replace("\n", "  \n"))
    return path or False


def check_upload(name: str, data: bytes, game: str) -> tuple[Path | None, str]:
    """An uploaded file kept and validated: (its path, the check's summary), or (None, the
    validator's one-line message) when it is not a valid component file for `game`."""
    path = save_upload(name, data)
    try:
        return path, C.check(path, game).summary()
    except SnapsimError as exc:
        return None, str(exc)


def sha_of(path: Path | None, game: str) -> str:
    """The content digest a result is cached by (the bundled file's for None)."""
    from ..sim.sheets import content_sha256
    from ..sim.variants import bundled_file, file_tables

    return content_sha256(file_tables(path or bundled_file(game)))


def follow(job: jobs.Job[jobs.R]) -> jobs.Job[jobs.R]:
    """Show a job's progress bar until it is done; then its time, or its error."""
    bar = st.progress(0.0, text=job.label)

    def show(j: jobs.Job[jobs.R]) -> None:
        bar.progress(min(j.fraction or 0.0, 1.0), text=f"{j.label}: {j.stage} ({j.seconds:.0f} s)")

    jobs.wait(job, show)
    bar.empty()
    if job.error:
        st.error(job.error)
    else:
        st.caption(f"{job.label}: answered in {job.seconds:.1f} s")
    return job
