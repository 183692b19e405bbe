"""Rebalance: targets as sliders, what may change as checkboxes, a budget; the recommended
patch with each change's effect, the Pareto figure and the patch to download."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from ..analysis.rebalance.evaluate import JOURNAL
from ..sim.registry import get_game
from . import common, jobs

if TYPE_CHECKING:
    from ..report.rebalance import Rebalance

TARGETS = {"seat_spread": (2.0, "pp"), "first_player": (2.0, "pp"), "assignments": (2.0, "pp"),
           "cards": (10.0, "%")}
DEFAULT_CANDIDATES = 20


def _watch(job: jobs.Job[Rebalance], journal: Path, candidates: int, every: float = 1.0) -> None:
    """Live progress from the search's journal (a line per candidate evaluated, flushed as
    each finishes), until the job is done."""
    while not job.done.wait(every):
        k = journal.read_text().count("\n") if journal.exists() else 0
        if k < candidates:
            job.report(f"{k} of {candidates} candidates evaluated", k / candidates)
        else:
            job.report("verifying the best candidates on fresh deals", None)


def run_rebalance(game: str, path: Path | None, players: int, targets: list[str],
                  edits: list[str], candidates: int, games: int | None, lineups: str, seed: int,
                  out: Path) -> jobs.Work[Rebalance]:
    """The work of `snapsim rebalance` with its output folder."""
    def work(job: jobs.Job[Rebalance]) -> Rebalance:
        from ..report.rebalance import rebalance

        job.report("measuring the noise to choose the games per candidate")
        threading.Thread(target=_watch, args=(job, out / JOURNAL, candidates),
                         daemon=True).start()
        return rebalance(game, targets=targets, edits=edits, components=path, players=players,
                         candidates=candidates, games=games, verify_games=games,
                         lineups=lineups, seed=seed, out=out, force=True)
    return work


def render() -> None:
    st.header("Rebalance")
    game = st.selectbox("Game", common.GAMES, key="rb-game")
    spec = get_game(game)
    levers = spec.measures.levers
    path = common.pick_components(game, "rb")
    if path is False:
        return
    players = st.selectbox("Players", list(levers.player_counts), key="rb-players")
    st.markdown("**Targets** (tolerance: how far from fair is still balanced)")
    targets = []
    for name, (default, unit) in TARGETS.items():
        if name == "cards" and levers.card_group is None:
            continue
        if st.checkbox(name.replace("_", " "), value=name == "seat_spread", key=f"rb-t-{name}"):
            tol = st.slider(f"{name} tolerance ({unit})", 0.5, 20.0, default, 0.5,
                            key=f"rb-tol-{name}")
            targets.append(f"{name}={tol:g}")
    st.markdown("**What may change**")
    spaces = ([levers.seat_knob] if levers.seat_knob else []) + \
        [f"{f}:±{r}" for f, r in levers.fields.items()]
    edits = [s for s in spaces if st.checkbox(s, value=s == levers.seat_knob,
                                              key=f"rb-e-{s}")]
    c1, c2, c3 = st.columns(3)
    candidates = c1.number_input("Budget: candidates", 2, 500, DEFAULT_CANDIDATES,
                                 key="rb-cands")
    games = c2.number_input("Games per candidate (0: chosen from the noise)", 0, 100_000, 0,
                            step=500, key="rb-games")
    seed = c3.number_input("Seed", 0, 2**31, 1, key="rb-seed")
    strong = st.checkbox("Also under the tuned players (the command's default; slower)",
                         value=True, key="rb-strong")
    if not targets or not edits:
        st.info("Choose at least one target and one thing that may change.")
        return
    lineups = "greedy,strong" if strong else "greedy"
    key = jobs.key_of("rebalance", game, common.sha_of(path, game), players, targets, edits,
                      candidates, games, lineups, seed)
    if not st.button("Search", type="primary", key="rb-run") and jobs.find(key) is None:
        return
    out = common.out_root() / f"rebalance-{game}-{key[:10]}"
    job = common.follow(jobs.start(key, "rebalance", run_rebalance(
        game, path, int(players), targets, edits, int(candidates), int(games) or None,
        lineups, int(seed), out)))
    if job.result is None:  # it failed: follow showed why
        return
    r = job.result
    st.code(r.summary(), language=None, wrap_lines=True)
    figure = out / "pareto.png"
    if figure.exists():
        st.image(str(figure), caption="Balance against the number of changes (Pareto front)")
    if r.patch:
        st.download_button("Download the patch (TOML)", r.patch, file_name="patch.toml",
                           key="rb-dl")
        if st.button("Open in Edit", key="rb-open"):
            patch = common.save_upload("patch.toml", r.patch.encode("utf-8"))
            st.session_state.setdefault("ed-start", {})[game] = patch
            st.session_state[common.GOTO] = "Edit and compare"
            st.rerun()
    st.caption(f"The folder {out} holds what `snapsim rebalance` writes.")
