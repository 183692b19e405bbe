"""Edit and compare: the component table as an editable grid, every invalid cell named by the
validator before anything runs, the paired comparison with the standard game, downloads."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from ..errors import SnapsimError
from ..sim import component_files as C
from ..sim import sheets
from ..sim.agents import resolve_policy
from ..sim.backends import warm_up
from ..sim.registry import get_game
from ..sim.variants import bundled_file, file_tables, load_variant
from . import common, jobs, writer

if TYPE_CHECKING:
    from ..report.compare import Comparison

DEFAULT_GAMES = 1000
EDITED = "variant"  # the grid is checked as a workbook: rows as a spreadsheet numbers them


def _frames(tables: dict[str, object]) -> dict[str, pd.DataFrame]:
    """Each sheet as a table of cell texts (what a spreadsheet shows)."""
    out = {}
    for name, rows in sheets.to_sheets(tables).items():
        cells = [[str(c).lower() if isinstance(c, bool) else str(c) for c in row]
                 for row in rows[1:]]
        out[name] = pd.DataFrame(cells, columns=rows[0], dtype=object)
    return out


def _grid_sheets(frames: dict[str, pd.DataFrame]) -> dict[str, list[list]]:
    """The edited grids back as sheets of rows (an emptied cell is a blank cell)."""
    return {name: [list(df.columns)] + [["" if pd.isna(c) else str(c) for c in row]
                                        for row in df.itertuples(index=False)]
            for name, df in frames.items()}


def run_compare(game: str, path: Path, players: int, games: int,
                seed: int) -> jobs.Work[Comparison]:
    """The work of a comparison: `snapsim compare GAME --variant FILE` (its standard side
    read from the run cache once played)."""
    def work(job: jobs.Job[Comparison]) -> Comparison:
        from ..report.compare import compare

        job.report(f"{games:,} paired games per side at {players} players")
        return compare(game, variants=[str(path)], players=players, games=games, seed=seed)
    return work


def warm(game: str, players: int) -> jobs.Work[bool]:
    """The work of loading the comparison's modules and the game's kernels (compiled once,
    kept on disk) into this server while the designer edits: the first Compare then waits
    for its games only."""
    def work(_: jobs.Job[bool]) -> bool:
        from ..report import compare  # noqa: F401 (its import takes seconds)

        policy = resolve_policy(game, get_game(game).default_policy)
        return warm_up(game, load_variant(game, None).config(players), [policy] * players)
    return work


def render() -> None:
    """The Edit and compare page: edit, check, download, then compare once it is a variant."""
    st.header("Edit and compare")
    game = st.selectbox("Game", common.GAMES, key="ed-game")
    start = st.session_state.get("ed-start", {}).get(game) or common.pick_components(game,
                                                                                      "ed")
    if start is False:
        return
    # named after the file it started from: the verdict names the variant as the command
    # line does that file
    path = common.save_upload(f"{Path(start).stem if start else EDITED}.xlsx",
                              sheets.sheets_xlsx(_edited_grid(game, start)))
    check = _checked(path, game)
    if check is None:
        return
    _downloads(game, path)
    players, games, seed = _run_options(game)
    jobs.start(jobs.key_of("warm", game, players), "loading the kernels", warm(game, players))
    if check.changes or check.knobs:
        _compare(game, path, players, games, seed)


def _edited_grid(game: str, start: Path | None) -> dict[str, list[list]]:
    """The starting file's sheets as editable grids, one tab each, read back as sheets."""
    st.caption("Edit any cell; lists are written [a, b] and text that would read as a number "
               "in quotes. Rows are numbered as in a spreadsheet (the header is row 1).")
    frames = _frames(file_tables(start or bundled_file(game)))
    tabs = st.tabs(list(frames))
    edited = {}
    for tab, (name, df) in zip(tabs, frames.items(), strict=True):
        with tab:
            edited[name] = st.data_editor(df, key=f"ed-{game}-{common.sha_of(start, game)}-"
                                                  f"{name}",
                                          num_rows="dynamic", hide_index=True,
                                          width="stretch")
    return _grid_sheets(edited)


def _checked(path: Path, game: str) -> C.Check | None:
    """The validator's verdict on the edited file, its changes from the standard game shown;
    None (with every invalid cell named) when it is not a valid file."""
    try:
        check = C.check(path, game)
    except SnapsimError as exc:
        st.error(f"Not a valid {game} file, nothing runs until it is fixed: {exc}")
        return None
    if check.changes or check.knobs:
        st.markdown("**Changes from the standard game**")
        st.code("\n".join(check.changes + check.knobs), language=None)
    else:
        st.info("Identical to the standard game: edit a cell to make a variant.")
    return check


def _downloads(game: str, path: Path) -> None:
    """The edited file in each format the command line reads."""
    tables = file_tables(path)
    for col, fmt in zip(st.columns(3), sheets.FORMATS, strict=True):
        col.download_button(f"Download {fmt.upper()}", sheets.file_bytes(tables, fmt),
                            file_name=f"{game}-variant.{fmt}", key=f"ed-dl-{fmt}")


def _run_options(game: str) -> tuple[int, int, int]:
    """The comparison's players, paired games per side and seed."""
    counts = list(get_game(game).measures.levers.player_counts)
    c1, c2, c3 = st.columns(3)
    players = c1.selectbox("Players", counts, index=min(2, len(counts) - 1), key="ed-players")
    games = c2.number_input("Paired games per side", 10, 200_000, DEFAULT_GAMES, step=500,
                            key="ed-games")
    seed = c3.number_input("Seed", 0, 2**31, 1, key="ed-seed")
    return players, games, seed


def _compare(game: str, path: Path, players: int, games: int, seed: int) -> None:
    """The paired comparison with the standard game (on the button, or already under way),
    its verdict, and the report folder written after it."""
    sha = common.sha_of(path, game)
    key = jobs.key_of("compare", game, sha, players, games, seed)
    if not st.button("Compare with the standard game", type="primary", key="ed-compare") \
            and jobs.find(key) is None:
        return
    work = run_compare(game, path, int(players), int(games), int(seed))
    job = common.follow(jobs.start(key, "compare", work))
    if job.result is None:  # it failed: follow showed why
        return
    st.code(job.result.summary(), language=None, wrap_lines=True)
    # the report's figures take longer than the verdict: the folder is written after it, by
    # a process of its own that leaves the CPU to the next comparison
    out = common.out_root() / f"compare-{game}-{key[:10]}"
    folder = jobs.start(f"{key}:folder", "writing the folder",
                        lambda _: writer.write_folder(job.result, out))
    st.caption(f"The folder {out} {'holds' if folder.done.is_set() else 'is being written with'}"
               f" what `snapsim compare {game} --variant FILE --players {players} --games "
               f"{games} --seed {seed}` writes.")
