"""The Pig balance report: the first player's edge against its exact value, how much of a
result luck decides, the skill ladder and the smallest fixes, on the shared report machinery
(snapsim.report.studies)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from snapsim.analysis import balance as B
from snapsim.analysis.effects import Estimate, said
from snapsim.report import Section
from snapsim.report.studies import (
    STRONG,
    Effect,
    Problem,
    build_report,
    fixes_section,
    ladder_section,
    luck_section,
    pct,
    win_rate,
)

from .exact import first_player_wins

WORDS = {"start_points": "starting points", "goal": "points to win", "turns": "turns per game"}


def first_seat(side) -> Effect:
    """The first player's win rate minus the fair 50% in the line-up's mirror match."""
    df = side.sim(2)
    return Effect(((1.0, win_rate(df, df["first"] == 1)),), ref=0.5)


def study_first(ctx) -> Section:
    s = Section("1-first-player", 1, "1. First-player advantage",
                "Win rate of the player who rolls first in two-player greedy games (hold at "
                "20), with its Wilson 95% interval, beside the exact value from a dynamic "
                "programme over both scores and the turn's total (snapsim_pig.exact).")
    df = ctx.sim(["greedy", "greedy"], players=2)
    t = B.rates(df.assign(order=np.where(df["first"] == 1, "first", "second")), "order",
                fair=0.5).drop(columns=["p_adjusted", "significant"])
    exact = first_player_wins(ctx.config(players=2), (20.0, 0.0), (20.0, 0.0))
    t["exact"] = [exact if o == "first" else 1 - exact for o in t.order]
    first = t[t.order == "first"].iloc[0]
    est = Estimate.from_ci(first.win_rate - 0.5, first.ci_low - 0.5, first.ci_high - 0.5,
                           int(first.n))
    claims = ctx.classes(s, "first_player", t, list(t.order),
                         [est if o == "first" else None for o in t.order], "pp")
    claim = next(c for c in claims if c is not None)
    s.later(lambda: f"The first player wins {pct(first.win_rate)} [{pct(first.ci_low)}, "
            f"{pct(first.ci_high)}] (exactly {pct(exact)}): {said(claim, 'pp')} from the "
            "fair 50%.")
    ctx.label(s, "first player's win rate minus the fair 50%", first_seat, 2)
    s.key_findings(lambda: [(f"The first player wins {pct(first.win_rate)} (exactly "
                             f"{pct(exact)}).", f"{said(claim, 'pp')} from the fair 50%; "
                             + (ctx.fix("first player") or "no fix searched") + ".")])
    return s


FIXES = [Problem("first player", "first_player", ("start_points",), (2,))]

STUDIES = {
    "luck": (lambda ctx: luck_section(ctx, 0, [2]), 4),
    "first": (study_first, 1),
    "ladder": (lambda ctx: ladder_section(ctx, 2, 2), 1),
    "fixes": (lambda ctx: fixes_section(ctx, 3, FIXES, 2_000), len(FIXES)),
}


def build(out="pig-report", games: int = 2_000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True,
          strong: str | None = STRONG, strong_games: int | None = None,
          ladder_games: int | None = None, smallest=None, tolerances=None) -> Path:
    """Run the chosen studies (default all) and render the report (`report.studies`)."""
    return build_report("pig", "Pig - balance report", STUDIES, out, games, seed, studies,
                        threads, components, progress, strong=strong,
                        strong_games=strong_games, ladder_games=ladder_games,
                        smallest=smallest, words=WORDS, tolerances=tolerances)
