"""A game's extra measures of a run (`measures.extra`: card values, award rates) through the
run cache: they play the run's seeded games again, as dear as the run itself, so a report,
a rebalance or its verification asks for them once per run and reads them back after."""

from __future__ import annotations

import json

import pandas as pd

from ..sim import cache as run_cache
from ..sim.registry import get_game
from .paired import Ratio

MEASURE = "extra measures"  # the cache's name for the table


def extra_measures(game: str, config, policies, games: int, seed: int,
                   threads: int | None = None) -> list:
    """[(name, group, unit, Ratio)] of the game's extra measures over the run's games (the
    same list `measures.extra` gives); [] for a game without them."""
    extra = get_game(game).measures.extra
    if extra is None:
        return []

    def compute() -> pd.DataFrame:
        found = extra(config, list(policies), games, seed, threads)
        return pd.DataFrame({json.dumps([name, group, unit, part]): getattr(r, part)
                             for name, group, unit, r in found for part in ("num", "den")})

    df = run_cache.measured(game, config, policies, games, seed, MEASURE, compute)
    out = []
    for column in df.columns[::2]:
        name, group, unit, _ = json.loads(column)
        den = json.dumps([name, group, unit, "den"])
        out.append((name, group, unit, Ratio(df[column].to_numpy(float),
                                             df[den].to_numpy(float))))
    return out
