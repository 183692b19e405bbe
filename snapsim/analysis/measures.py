"""Balance measures of one run, as per-game ratios a paired comparison can difference.

A game says which of its result columns are score components, game length and economy, which
per-seat columns name a card or assignment whose win rate is a balance question, and which
single-action restrictions test for a dominant strategy (Jaffe et al. 2012: if forbidding an
action wins more than the fair share, the game rewards not doing it). Everything else (win
rate per seat, seat spread in win rate and in points, first-player advantage) is generic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .paired import Ratio


@dataclass(frozen=True)
class Levers:
    """What a designer may change when rebalancing a game (analysis.rebalance), and how the
    game names its balance measures.

    `fields` maps an editable component field ("animals.prestige", "scoring.landmark_chart")
    to its default range (+/- that many points); `aliases` maps other words a designer may
    use ("cards" for "animals", "points" for "prestige"). `knobs` maps a rule knob to its
    default range: (lo, hi) values, or an int for +/- around the default. `seat_knob` is the
    per-seat starting-resource knob and `seat_values(config)` its value at a config's player
    count (None: the game has none), by seat or, where the game deals its first player each
    game, by turn order (`turn_order`); `effective(config, knob)` a knob's value as played
    where its default (None) means a rulebook value that depends on the mode; `objective`
    is the per-seat column naming a dealt objective (a secret assignment) whose win rate
    should be fair, `objective_label` its name for people; `card_group` the group of the
    game's per-card value measures.
    """

    player_counts: tuple[int, ...] = ()
    fields: dict[str, int] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    knobs: dict[str, object] = field(default_factory=dict)
    seat_knob: str | None = None
    seat_range: int = 2
    seat_values: Callable[[Any], tuple[int, ...]] | None = None  # of the game's own config
    turn_order: bool = False  # seat_values go to the first, second ... player, not seat
    effective: Callable[[object, str], object] | None = None  # a knob's value as played
    objective: str | None = None
    objective_label: str = "assignment"
    card_group: str | None = None
    refused: dict[str, str] = field(default_factory=dict)  # field -> why no change is valid


@dataclass(frozen=True)
class MeasureSpec:
    """What a game's comparison measures, named by its result columns."""

    score_parts: tuple[str, ...] = ()
    length: str | None = "rounds"  # per-game column
    economy: tuple[str, ...] = ()  # per-seat columns, averaged over a game's seats
    categories: tuple[str, ...] = ()  # per-seat columns: one win rate per value (assignment)
    first_player: str | None = None  # per-seat column, 1 for whoever went first; None: seat 0
    restrictions: dict[str, str] = field(default_factory=dict)  # label -> restricted policy
    label: Callable[[object, str, int], str] | None = None  # (config, column, value) -> name
    extra: Callable[..., list] | None = None  # (config, policies, games, seed, threads) ->
    #                                           [(name, group, unit, Ratio)]
    outlier_groups: tuple[str, ...] = ()  # groups whose values are compared with each other
    levers: Levers = field(default_factory=Levers)  # what rebalancing may change


@dataclass(frozen=True)
class Measure:
    """One measure of one run: per-game ratio data, or per-game x group data for a spread."""

    name: str
    group: str
    unit: str  # "rate" (a proportion: shown in percentage points), or a unit of count
    ratio: Ratio | None = None
    spread: tuple[np.ndarray, np.ndarray] | None = None  # (num, den), shape (games, groups)


def seat_matrix(df: pd.DataFrame, column: str) -> np.ndarray:
    """(games, seats) matrix of a per-seat column, games in order."""
    wide = df.pivot(index="game", columns="seat", values=column)
    return wide.sort_index().to_numpy(dtype=float)


def per_game_first(df: pd.DataFrame, column: str) -> np.ndarray:
    """One value per game, in game order, of a column that is the same for every seat
    (e.g. game length in rounds)."""
    return df.groupby("game")[column].first().sort_index().to_numpy(dtype=float)


def measures(df: pd.DataFrame, spec: MeasureSpec, config) -> list[Measure]:
    """Every generic and game-declared measure of one run's (game, seat) table; `config`, the
    run's, names its categories (a game's assignments are its components'), so every caller
    gives it (None only with a spec that has no categories)."""
    won, score = seat_matrix(df, "won"), seat_matrix(df, "score")
    games, seats = won.shape
    ones = np.ones_like(won)
    out = [Measure(f"win rate, seat {k + 1}", "seats", "rate", Ratio.mean(won[:, k]))
           for k in range(seats)]
    out.append(Measure("seat spread (win rate)", "seats", "rate", spread=(won, ones)))
    out.append(Measure("seat spread (points)", "seats", "points", spread=(score, ones)))
    if spec.first_player is not None and spec.first_player in df:
        first = seat_matrix(df, spec.first_player) > 0
        out.append(Measure("first player's win rate", "seats", "rate",
                           Ratio.mean((won * first).sum(axis=1))))
    else:
        out.append(Measure("first player's win rate", "seats", "rate", Ratio.mean(won[:, 0])))
    out.append(Measure("mean score", "score", "points", Ratio.mean(score.mean(axis=1))))
    for col in spec.score_parts:
        out.append(Measure(f"score: {col}", "score", "points",
                           Ratio.mean(seat_matrix(df, col).mean(axis=1))))
    if spec.length is not None and spec.length in df:
        out.append(Measure(f"game length ({spec.length})", "length", spec.length,
                           Ratio.mean(per_game_first(df, spec.length))))
    for col in spec.economy:
        out.append(Measure(f"{col} per player", "economy", "count",
                           Ratio.mean(seat_matrix(df, col).mean(axis=1))))
    base_names = df["policy"].astype(str).str.split("#").str[0]  # greedy#2 is greedy
    if base_names.nunique() > 1:
        pol = (df.assign(policy=base_names).pivot(index="game", columns="seat", values="policy")
               .sort_index().to_numpy())
        for name in sorted(base_names.unique()):
            mask = (pol.astype(str) == name).astype(float)
            out.append(Measure(f"win rate of {name}", "policies", "rate",
                               Ratio((won * mask).sum(axis=1), mask.sum(axis=1))))
    for col in spec.categories:
        values = seat_matrix(df, col)
        for v in np.unique(values):
            mask = (values == v).astype(float)
            name = spec.label(config, col, int(v)) if spec.label else f"{col} {int(v)}"
            out.append(Measure(f"win rate with {col} {name}", col, "rate",
                               Ratio((won * mask).sum(axis=1), mask.sum(axis=1))))
    return out


def restricted_measure(df: pd.DataFrame, policy: str, label: str) -> Measure:
    """Win rate of the one restricted seat per game (the line-up is rotated over seats)."""
    won = seat_matrix(df, "won")
    pol = df.pivot(index="game", columns="seat", values="policy").sort_index().to_numpy()
    mask = (pol.astype(str) == policy).astype(float)
    return Measure(f"win rate without {label}", "restricted play", "rate",
                   Ratio((won * mask).sum(axis=1), mask.sum(axis=1)))
