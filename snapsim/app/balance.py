"""Balance: the verdict of a component file per player count, with its key figures."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ..analysis.stats import win_table
from ..analysis.verdict import Side, Verdict, card_values, verdict_of
from ..sim.agents import resolve_policy
from ..sim.cache import simulate
from ..sim.registry import get_game
from ..sim.variants import load_variant
from . import common, jobs, tables

DEFAULT_GAMES = 500
MEANINGS = {
    "seat_spread": "best minus worst seat's win rate, in points: how much the seat decides",
    "first_player": "the first player's win rate minus the fair share",
    "assignments": "each objective's win rate minus the fair share: is one dealt too often "
                   "a winner?",
    "cards": "the cards' typical distance from their habitat's median value (root mean "
             "square beyond sampling noise), in percent",
    "length": "the mean game length",
}
Result = tuple[Verdict, dict[int, pd.DataFrame]]  # the verdict, each player count's seat table


def run_balance(game: str, path: Path | None, counts: list[int], games: int,
                seed: int) -> jobs.Work[Result]:
    """The work of a Balance run: each player count played under the game's default policy,
    its verdict (analysis.verdict, as a report prints it) and seat win rates. Runs go through
    the cache of finished runs, so a file the disk has seen answers without playing."""
    def work(job: jobs.Job[Result]) -> Result:
        spec = get_game(game)
        variant = load_variant(game, path)
        sides: dict[int, Side] = {}
        seats: dict[int, pd.DataFrame] = {}
        for i, n in enumerate(counts):
            job.report(f"{n} players: {games:,} games", i / len(counts))
            config = variant.config(n)
            policies = [resolve_policy(game, spec.default_policy)] * n
            df = simulate(game, config, policies, games, seed)
            cards = card_values(game, config, policies, games, seed)
            sides[n] = Side(df, config, cards)
            seats[n] = win_table(df, "seat").assign(seat=lambda t: t.seat + 1)
        job.report("verdict", 1.0)
        return verdict_of(game, sides, seed=seed), seats
    return work


def render() -> None:
    st.header("Balance")
    st.caption("Is the game balanced? Each player count is played under the game's default "
               "policy in every seat; the verdict is the one a report opens with.")
    game = st.selectbox("Game", common.GAMES, key="bal-game")
    spec = get_game(game)
    counts_all = list(spec.measures.levers.player_counts)
    counts = st.multiselect("Player counts", counts_all, default=counts_all[:1],
                            key="bal-counts")
    path = common.pick_components(game, "bal")
    c1, c2 = st.columns(2)
    games = c1.number_input("Games per player count", 10, 200_000, DEFAULT_GAMES, step=100,
                            key="bal-games")
    seed = c2.number_input("Seed", 0, 2**31, 1, key="bal-seed")
    if path is False or not counts:
        return
    key = jobs.key_of("balance", game, common.sha_of(path, game), sorted(counts), games, seed,
                      spec.default_policy)
    known = jobs.find(key)
    if not st.button("Run", key="bal-run", type="primary") and known is None:
        return
    job = common.follow(jobs.start(key, "balance", run_balance(game, path, sorted(counts),
                                                               int(games), int(seed))))
    if job.result is None:  # it failed: follow showed why
        return
    verdict, seats = job.result
    st.subheader(verdict.title(spec.title))
    for line in verdict.lines():
        word = line.split(": ")[1] if ": " in line else ""
        (st.success if word.startswith("BALANCED") else
         st.error if word.startswith("NOT BALANCED") else st.warning)(line)
    st.caption(verdict.note())
    table = verdict.table()
    for measure in dict.fromkeys(table.measure):
        st.markdown(f"**{measure.replace('_', ' ')}**: {MEANINGS.get(measure, '')}")
        shown = tables.verdict_table(game, table[table.measure == measure])
        st.dataframe(shown, hide_index=True, height=tables.whole(len(shown)))
    st.markdown("**Win rate by seat** (seat 1 moves first), with 95% intervals: a fair seat "
                "wins 1/players of the games")
    st.dataframe(tables.seat_table(pd.concat(seats, names=["players", None])
                                   .reset_index(level=0)), hide_index=True)
