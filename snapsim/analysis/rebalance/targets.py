"""Balance targets: what "balanced enough" means to the designer, as measures with tolerances.

A target is a balance measure of the paired comparison's set with a tolerance
(``--target NAME=TOL``), met at every player count of the run:

- ``seat_spread=2``: the win-rate gap between the best and the worst seat is at most 2 pp;
- ``first_player=2``: the first player's win rate is within ±2 pp of the fair share;
- ``assignments=3``: every dealt objective's win rate (Snapshot's assignments, ShutterBug's
  secret assignments) is within ±3 pp of the fair share;
- ``cards=0.8``: the gap between the best and the worst card's value (prestige per die
  rolled at it, Snapshot) is at most 0.8 points;
- ``length=4-5``: the mean game length (rounds; Yosemite: turns) lies in 4-5.

Each target is computed from "items" of one run, per-game ratios (a seat's wins over games,
an assignment's wins over the seats dealt it, a card's prestige over the dice rolled at it),
so its value, its interval (a percentile bootstrap over whole games) and, for two runs played
on the same deals, the paired difference all come from the same numbers. Its `ratio` is the
value over the tolerance (distance from the band's centre over its half-width for a band):
at most 1 means met.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import InputError
from ...sim.registry import get_game
from ..bootstrap import count_blocks
from ..measures import per_game_first, seat_matrix

ALPHA = 0.05


@dataclass(frozen=True)
class Kind:
    """A target kind: its unit, shape ("spread": largest minus smallest item; "band": every
    item within a band) and what it means in words."""

    unit: str  # "pp", "points", or the game's length unit
    shape: str
    words: str


MIN_TOLERANCE = 0.01  # a finer tolerance (or length band) than any number of games measures
KINDS = {
    "seat_spread": Kind("pp", "spread", "win-rate gap between the best and the worst seat"),
    "first_player": Kind("pp", "band", "the first player's win rate against the fair share"),
    "assignments": Kind("pp", "band", "every {objective}'s win rate against the fair share"),
    "cards": Kind("points", "spread", "gap between the best and the worst card's value "
                                      "(prestige per die rolled at it)"),
    "length": Kind("", "band", "mean game length"),
}


@dataclass(frozen=True)
class Target:
    """One target as the designer gave it: `kind`, and the tolerance `high` (for a length
    band, `low`-`high`) in the kind's unit."""

    kind: str
    high: float
    low: float | None = None
    item: str | None = None  # one named item only: "assignments[Live Fast]=2"

    @property
    def floor(self) -> float:
        """A length band's lower end."""
        if self.low is None:
            raise ValueError(f"a {self.kind} target has no lower end")
        return self.low

    @property
    def key(self) -> str:
        """Its name in tables: the kind, or the kind and its item ("assignments[Live Fast]")."""
        return self.kind if self.item is None else f"{self.kind}[{self.item}]"

    @property
    def text(self) -> str:
        if self.kind == "length":
            return f"length={_num(self.floor)}-{_num(self.high)}"
        return f"{self.key}={_num(self.high)}"

    def band(self, players: int) -> tuple[float, float]:
        """(centre, half-width) of a band target in item units (rates 0-1)."""
        if self.kind == "length":
            return (self.floor + self.high) / 2, (self.high - self.floor) / 2
        return 1.0 / players, self.high / 100

    def scale(self) -> float:
        """Item units per the unit people read (100 for a rate shown in pp)."""
        return 100.0 if KINDS[self.kind].unit == "pp" else 1.0

    def tolerance(self) -> float:
        """The spread a spread target allows, in item units."""
        return self.high / self.scale()

    def value(self, values: np.ndarray, players: int) -> float:
        """The target's headline value from its items' values, in the unit people read: a
        spread; the largest distance from fair (pp); the mean length."""
        v = np.asarray(values, float)
        if not np.isfinite(v).any():
            return math.nan
        if KINDS[self.kind].shape == "spread":
            return float((np.nanmax(v) - np.nanmin(v)) * self.scale())
        if self.kind == "length":
            return float(v[0])
        centre, _ = self.band(players)
        return float(np.nanmax(np.abs(v - centre)) * self.scale())

    def rows(self, values: np.ndarray, players: int) -> np.ndarray:
        """`value` of each row of a (resamples, items) matrix at once (NaN for a row with no
        finite item): a bootstrap's thousand values in one pass."""
        v = np.asarray(values, float)
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN row: NaN
            if KINDS[self.kind].shape == "spread":
                return (np.nanmax(v, axis=1) - np.nanmin(v, axis=1)) * self.scale()
            if self.kind == "length":
                return v[:, 0].copy()
            centre, _ = self.band(players)
            return np.nanmax(np.abs(v - centre), axis=1) * self.scale()

    def ratio(self, values: np.ndarray, players: int) -> float:
        """Value over tolerance (for a band: largest distance from its centre over its
        half-width); at most 1 means met."""
        v = np.asarray(values, float)
        if not np.isfinite(v).any():
            return math.nan
        if KINDS[self.kind].shape == "spread":
            return float((np.nanmax(v) - np.nanmin(v)) / self.tolerance())
        centre, half = self.band(players)
        if half <= 0:
            return 0.0 if np.all(np.abs(v - centre) == 0) else math.inf
        return float(np.nanmax(np.abs(v - centre)) / half)

    def words(self, game: str) -> str:
        levers = get_game(game).measures.levers
        kind = KINDS[self.kind].words.format(objective=levers.objective_label)
        if self.item is not None:
            kind = f"{self.item}'s win rate against the fair share"
        if self.kind == "length":
            return f"{kind} within {_num(self.floor)}-{_num(self.high)} {length_unit(game)}"
        if self.kind == "cards":
            return f"{kind} at most {_num(self.high)} points"
        if KINDS[self.kind].shape == "band":
            return f"{kind} within ±{_num(self.high)} pp"
        return f"{kind} at most {_num(self.high)} pp"


def _num(x: float) -> str:
    return f"{x:g}"


def length_unit(game: str) -> str:
    return get_game(game).measures.length or "rounds"


# the item runs to the last "]" before "=TOL", so a name holding "]" is one item
_TARGET = re.compile(r"^\s*([a-z_]+)(?:\[(.+)\])?\s*=\s*([^=\]]+?)\s*$")


def parse_target(game: str, text: str) -> Target:
    """A target from "NAME=TOL" (length: "length=A-B"), checked against what the game can
    measure."""
    m = _TARGET.match(str(text))
    names = ", ".join(available(game))
    if not m:
        raise InputError(f"--target {text!r}: write NAME=TOL (e.g. seat_spread=2 or "
                         f"length=4-5); {game} targets: {names}")
    kind, item, value = m.groups()
    if kind not in KINDS:
        raise InputError(f"--target {text!r}: unknown target {kind!r}; {game} targets: {names}")
    if kind not in available(game):
        raise InputError(f"--target {text!r}: {_why_not(game, kind)}; {game} targets: {names}")
    if item is not None and kind != "assignments":
        raise InputError(f"--target {text!r}: only assignments take one named item "
                         "(assignments[NAME]=TOL)")
    if item is not None and "=" in item:  # the report reads a tolerance after the first "="
        raise InputError(f"--target {text!r}: an assignment whose name holds '=' cannot be a "
                         "target; rename it in the component file")
    if kind == "length":
        parts = value.split("-")
        try:
            low, high = (float(p) for p in parts) if len(parts) == 2 else (math.nan, math.nan)
        except ValueError:
            low = high = math.nan
        if not (low >= 0 and low + MIN_TOLERANCE <= high < math.inf):
            raise InputError(f"--target {text!r}: write length=A-B with 0 <= A and A + "
                             f"{MIN_TOLERANCE} <= B, e.g. length=4-5")
        return Target(kind, high, low)
    try:
        tol = float(value)
    except ValueError:
        tol = math.nan
    if not (MIN_TOLERANCE <= tol < math.inf) or (KINDS[kind].unit == "pp" and tol >= 100):
        pp = " to below 100 percentage points" if KINDS[kind].unit == "pp" else ""
        raise InputError(f"--target {text!r}: the tolerance must be a positive number from "
                         f"{MIN_TOLERANCE}{pp}, e.g. {kind}=2")
    return Target(kind, tol, item=None if item is None else item.strip())


def available(game: str) -> list[str]:
    """The targets a game can measure."""
    spec = get_game(game)
    levers = spec.measures.levers
    out = ["seat_spread", "first_player"]
    if levers.objective is not None:
        out.append("assignments")
    if levers.card_group is not None:
        out.append("cards")
    if spec.measures.length is not None:
        out.append("length")
    return out


def _why_not(game: str, kind: str) -> str:
    return {"assignments": f"{game} deals no objective card whose win rate should be fair",
            "cards": f"{game} has no per-card value measure",
            "length": f"{game} always lasts the same length"}[kind]


def parse_targets(game: str, specs) -> list[Target]:
    """Every --target, each kind at most once."""
    if isinstance(specs, str):
        specs = [specs]
    targets = [parse_target(game, t) for t in specs]
    if not targets:
        raise InputError(f"give at least one --target NAME=TOL (e.g. seat_spread=2); {game} "
                         f"targets: {', '.join(available(game))}")
    keys = [t.key for t in targets]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise InputError(f"--target {twice[0]} is given twice; give each target once")
    return targets


def kind_of(key: str) -> str:
    """The kind of a target named in a table ("assignments[Live Fast]" is assignments)."""
    return key.split("[", 1)[0]


def check_items(targets: list[Target], components) -> None:
    """A target naming one item names one the components have (else a one-line error with
    the closest names)."""
    import difflib

    for t in targets:
        if t.item is None:
            continue
        names = [a.name for a in components.assignments]
        if t.item.casefold() not in {n.casefold() for n in names}:
            close = difflib.get_close_matches(t.item, names, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise InputError(f"--target {t.text}: no assignment named {t.item!r}{hint}")


# ---------------------------------------------------------------- items of a run


@dataclass(frozen=True)
class Items:
    """Per-game ratio data of one target's items in one run: item k's value is
    num[:, k].sum() / den[:, k].sum(); `names` say what each item is."""

    names: tuple[str, ...]
    num: np.ndarray  # (games, items)
    den: np.ndarray

    @property
    def values(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.num.sum(axis=0) / self.den.sum(axis=0)

    def head(self, games: int) -> Items:
        """The items of the run's first `games` games."""
        return Items(self.names, self.num[:games], self.den[:games])

    def influence(self) -> np.ndarray:
        """Per-game linearised contributions of each item (delta method), (games, items)."""
        v = self.values
        mean_den = self.den.mean(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            z = (self.num - v * self.den) / mean_den
        return np.nan_to_num(z)


def items(target: Target, game: str, df: pd.DataFrame, config, card_values=None) -> Items:
    """The items of `target` in one run's (game, seat) table; `card_values` the run's
    per-card value measures ([(name, Ratio)], from the game's extra measures) for `cards`."""
    spec = get_game(game)
    mspec, levers = spec.measures, spec.measures.levers
    won = seat_matrix(df, "won")
    games, seats = won.shape
    if target.kind == "seat_spread":
        return Items(tuple(f"seat {k + 1}" for k in range(seats)), won, np.ones_like(won))
    if target.kind == "first_player":
        if mspec.first_player is not None and mspec.first_player in df:
            first = seat_matrix(df, mspec.first_player) > 0
            wins = (won * first).sum(axis=1, keepdims=True)
        else:
            wins = won[:, :1]
        return Items(("first player",), wins, np.ones_like(wins))
    if target.kind == "assignments":
        dealt = seat_matrix(df, levers.objective)
        count = len(config.components.assignments)
        names = tuple(a.name for a in config.components.assignments)
        keep = [a for a in range(count)
                if target.item is None or names[a].casefold() == target.item.casefold()]
        num = np.stack([(won * (dealt == a)).sum(axis=1) for a in keep], axis=1)
        den = np.stack([(dealt == a).sum(axis=1) for a in keep], axis=1).astype(float)
        return Items(tuple(names[a] for a in keep), num, den)
    if target.kind == "cards":
        if card_values is None:
            raise ValueError("the cards target needs the run's card values")
        names = tuple(name for name, _ in card_values)
        num = np.stack([r.num for _, r in card_values], axis=1)
        den = np.stack([r.den for _, r in card_values], axis=1)
        return Items(names, num, den)
    length = per_game_first(df, mspec.length)[:, None]
    return Items(("mean length",), length, np.ones_like(length))


def bootstrap(fn, arrays: list[Items], reps: int = 1000, seed: int = 0) -> np.ndarray:
    """`fn(values of each Items)` over `reps` resamples of whole games (the same games for
    every array: they are one run, or runs played on the same deals)."""
    rows = resample(arrays, reps, seed)
    return np.array([fn(*(m[r] for m in rows)) for r in range(reps)])


def resample(arrays: list[Items], reps: int = 1000, seed: int = 0) -> list[np.ndarray]:
    """Each Items' values over `reps` resamples of whole games, as (reps, items) matrices
    (the same games for every array): a resample's sums are one matrix product of its
    counts (`bootstrap.count_blocks`, drawn once per (games, reps, seed))."""
    n = arrays[0].num.shape[0]
    out = [np.empty((reps, it.num.shape[1])) for it in arrays]
    with np.errstate(invalid="ignore", divide="ignore"):
        for start, (weights,) in count_blocks(n, reps, seed, 2_000_000 // max(1, n)):
            for o, it in zip(out, arrays, strict=True):
                o[start:start + len(weights)] = (weights @ it.num) / (weights @ it.den)
    return out


def interval(samples: np.ndarray) -> tuple[float, float]:
    """95% percentile interval of bootstrap samples."""
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return math.nan, math.nan
    lo, hi = np.percentile(finite, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
    return float(lo), float(hi)
