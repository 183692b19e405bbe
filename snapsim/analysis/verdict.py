"""Is the game balanced? The headline verdict of a report, `compare` and `rebalance`.

A small family of balance measures, declared before any game is played, each against a
tolerance the designer sets (``--tolerance NAME=VALUE``):

- ``seat_spread`` (default 2 pp): best minus worst seat's win rate (seats in turn order);
- ``first_player`` (default 2 pp): the first player's win rate minus the fair share 1/players;
- ``assignments`` (default 2 pp): each dealt objective's win rate (Snapshot's assignments,
  ShutterBug's secret assignments) minus the fair share, one claim per objective (a maximum
  over objectives has too wide an interval to answer at a report's n); the mean absolute
  distance from fair is shown beside them as a summary, not tested;
- ``cards`` (default 10%): the mean absolute distance of each card's value (prestige per die
  rolled at it, Snapshot) from its habitat's median, in percent of the median: one number
  over all cards, so its interval is narrow, and 10% is the report's smallest effect of a
  per-card value;
- ``length`` (only when the designer gives a range, ``length=4-5``): the mean game length.

Each claim is decided on its interval at the level 1 - 0.05/m, m the claims behind one line
(one player count and line-up; Bonferroni), and that interval is the one printed: *not
within* the tolerance when it lies wholly beyond it, *within* when wholly inside, *open*
otherwise (with the games that would settle it). So the chance that any claim behind a line
is false stays at 5% whatever the dependence between them, and the family stays small
enough to keep power (the report's exploratory claims keep their own standard). A line is
NOT BALANCED when a claim is not within its tolerance, BALANCED when every one is within,
NOT SETTLED otherwise.

A comparison (`change_verdict`) tests the paired change of each measure (a distance from
fair for the first player, each objective and the length; the spreads as they are) on games
dealt alike, against the measure's tolerance as the smallest change of interest, with its
own Bonferroni correction over the claims of one player count: BETTER, WORSE, MIXED,
NO CHANGE or NOT SETTLED, beside each side's own verdict line.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import numpy as np
import pandas as pd

from ..errors import InputError
from ..sim.registry import get_game
from .normal import norm_ppf
from .paired import ALPHA, POWER
from .rebalance.targets import Items, Target, available, items, resample
from .stats import wilson_interval

DEFAULTS = {"seat_spread": 2.0, "first_player": 2.0, "assignments": 2.0, "cards": 10.0}
NAMES = ("seat_spread", "first_player", "assignments", "cards", "length")
REPS = 4000  # bootstrap resamples of whole games
# fewer games than this give the cards' distance no interval (their resamples cannot tell the
# noise of a card rolled in a game or two: a one-game run would read as far off its median)
RESAMPLED_MIN = 20
ClaimClass = Literal["within", "not within", "open"]  # a claim's interval against its tolerance
WITHIN: Final = "within"
OFF: Final = "not within"
OPEN: Final = "open"
Status = Literal["balanced", "not balanced", "not settled"]  # a measure's, or a whole line's
STATUS: dict[ClaimClass, Status] = {OFF: "not balanced", WITHIN: "balanced", OPEN: "not settled"}
Word = Literal["BALANCED", "NOT BALANCED", "NOT SETTLED"]  # a line's verdict, as printed
WORDS: dict[ClaimClass, Word] = {OFF: "NOT BALANCED", WITHIN: "BALANCED", OPEN: "NOT SETTLED"}
ChangeClass = Literal["better", "worse", "no change", "open"]  # a claim's paired change
BETTER: Final = "better"
WORSE: Final = "worse"
SAME: Final = "no change"
# a comparison's verdict: is the variant better balanced?
ChangeWord = Literal["BETTER", "WORSE", "MIXED", "NO CHANGE", "NOT SETTLED"]
SUMMARY = "typical distance from fair"  # the objectives' summary row (no claim)


@dataclass
class Side:
    """One side's main run at one player count: its (game, seat) table with seats in turn
    order, its config and its card values ([(card, Ratio)], for the cards measure)."""

    df: pd.DataFrame
    config: Any  # the game's own config dataclass (GameSpec.make_config's)
    cards: list | None = None


def card_values(game: str, config, policies, games: int, seed: int,
                threads: int | None = None) -> list | None:
    """A run's per-card values [(card, Ratio)] for the cards measure (the same seeded games
    played again by the game's extra measures); None for a game without card values."""
    from .extras import extra_measures

    mspec = get_game(game).measures
    if mspec.extra is None or mspec.levers.card_group is None:
        return None
    return [(name.split(": ", 1)[-1], ratio) for name, group, _, ratio in
            extra_measures(game, config, policies, games, seed, threads)
            if group == mspec.levers.card_group] or None


# ---------------------------------------------------------------- tolerances


def fill_tolerances(game: str, given=None) -> dict:
    """name -> tolerance for every measure `game` has, defaults filled; `given` a dict or
    "NAME=VALUE" strings (length only when given: "length=4-5" gives (4.0, 5.0))."""
    if isinstance(given, dict):  # checked as the texts are: {"length": (4, 5)} is length=4-5
        given = [f"{k}={'-'.join(map(str, v)) if isinstance(v, tuple | list) else v}"
                 for k, v in given.items()]
    elif not isinstance(given, str | list | tuple | None):
        raise InputError(f"tolerances must be a dict or NAME=VALUE texts (e.g. "
                         f"'seat_spread=2'), got {given!r}")
    out = {}
    for text in [given] if isinstance(given, str) else list(given or []):
        name, value = _parse(game, text)
        if name in out:
            raise InputError(f"--tolerance {name} is given twice; give each once")
        out[name] = value
    have = available(game)
    return {**{k: v for k, v in DEFAULTS.items() if k in have}, **out}


def _parse(game: str, text: str) -> tuple[str, float | tuple[float, float]]:
    have = available(game)
    name, sep, value = str(text).partition("=")
    name = name.strip()
    if not sep or name not in NAMES:
        raise InputError(f"--tolerance {text!r}: write NAME=VALUE with NAME one of "
                         f"{', '.join(have)} (e.g. seat_spread=2, length=4-5)")
    if name not in have:
        raise InputError(f"--tolerance {text!r}: {game} has no {name} measure; its measures: "
                         f"{', '.join(have)}")
    if name == "length":
        parts = value.split("-")
        try:
            low, high = (float(p) for p in parts) if len(parts) == 2 else (math.nan, 0.0)
        except ValueError:
            low, high = math.nan, 0.0
        if not (0 <= low < high < math.inf):
            raise InputError(f"--tolerance {text!r}: write length=A-B with 0 <= A < B, e.g. "
                             "length=4-5")
        return name, (low, high)
    try:
        tol = float(value)
    except ValueError:
        tol = math.nan
    if not (0 < tol < 100):
        raise InputError(f"--tolerance {text!r}: give a positive number below 100 "
                         f"({'percent of the median' if name == 'cards' else 'pp'}), e.g. "
                         f"{name}={DEFAULTS[name]:g}")
    return name, tol


def tolerance_text(game: str, tol: dict) -> str:
    """The tolerances in words: "seat spread 2 pp, first player ±2 pp, ..."."""
    unit = get_game(game).measures.length or "rounds"
    words = {"seat_spread": lambda t: f"seat spread {t:g} pp",
             "first_player": lambda t: f"first player ±{t:g} pp of fair",
             "assignments": lambda t: f"each {_objective(game)} ±{t:g} pp of fair",
             "cards": lambda t: f"cards {t:g}% from their habitat's median (root mean square)",
             "length": lambda t: f"game length {t[0]:g}-{t[1]:g} {unit}"}
    return ", ".join(words[k](v) for k, v in tol.items())


def _objective(game: str) -> str:
    return get_game(game).measures.levers.objective_label


def record(game: str, tol: dict) -> dict:
    """For provenance: the tolerances and the family's measures and correction."""
    return {"tolerances": {k: list(v) if isinstance(v, tuple) else v for k, v in tol.items()},
            "family": list(tol), "correction": "Bonferroni over the claims of each line "
                                               "(one player count and line-up)",
            "alpha": ALPHA}


# ---------------------------------------------------------------- the measures of one run


def _items(game: str, kind: str, *sides: Side) -> list[Items]:
    """A measure's items in each run; an objective not dealt in every run makes no claim."""
    found = [items(Target(kind, 1.0), game, s.df, s.config, s.cards) for s in sides]
    if kind != "assignments":
        return found
    dealt = np.logical_and.reduce([it.den.sum(axis=0) > 0 for it in found])
    return [Items(tuple(n for n, d in zip(it.names, dealt, strict=True) if d),
                  it.num[:, dealt], it.den[:, dealt]) for it in found]


def _groups(side: Side, names) -> np.ndarray:
    """Each card's group (its habitat), by name; one group when cards have none."""
    by_name = {c.name: getattr(c, "habitat", 0)
               for c in getattr(side.config.components, "cards", [])}
    return np.array([by_name.get(n, 0) for n in names])


def _card_offsets(rates: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each card's value minus its group's median, in percent of the median; `rates`
    (resamples, cards). A resample that draws no card of a group leaves its offsets NaN."""
    rel = np.empty_like(rates)
    for g in np.unique(groups):
        cols = groups == g
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a group all NaN: its median NaN
            med = np.nanmedian(rates[:, cols], axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            rel[:, cols] = rates[:, cols] / med - 1
    return 100 * rel


def _typical(x: np.ndarray, res: np.ndarray) -> tuple[float, np.ndarray]:
    """The typical size of the true offsets behind `x` (items,), beyond their sampling noise:
    the root mean square sqrt(mean(x_i^2 - var_i)), var_i each offset's variance over the
    resamples `res` (resamples, items). A plain mean of |x_i| grows with the noise (a fair
    game's objectives at a few hundred games each look several pp off fair); this
    estimate of the mean square is unbiased, so a small run does not read as unbalanced.
    Returns the estimate and its resampled values, recentred on it (whose percentiles are
    its interval: the resamples carry the noise twice, the recentring takes it out)."""
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a card never rolled: NaN, left out
        var = np.nanvar(res, axis=0)
    est = float(np.nanmean(x ** 2 - var))
    draws = np.nanmean(res ** 2 - var, axis=1)
    draws = draws - np.nanmean(draws) + est
    return math.sqrt(max(est, 0.0)), np.sqrt(np.clip(draws, 0.0, None))


def _spread(values: np.ndarray, res: np.ndarray, level: float,
            games: int) -> tuple[float, float, float]:
    """Best minus worst seat and its interval, from simultaneous intervals of every pair's
    difference (the largest studentised deviation over the resamples sets their width): the
    true spread is the largest true pair difference, so it lies between the largest distance
    from zero and the largest reach of those intervals whenever they all hold. The
    resamples' own spread would not do: a maximum of noisy rates sits above the true one
    (four fair seats at 300 games read as a spread of about 6 pp)."""
    i, j = np.triu_indices(len(values), 1)
    d, draws = values[i] - values[j], res[:, i] - res[:, j]
    se = np.nanstd(draws, axis=0)
    ok = se > 0
    if ok.any():
        c = float(np.nanquantile(np.nanmax(np.abs(draws[:, ok] - d[ok]) / se[ok], axis=1),
                                 level))
    else:  # no pair varies over the resamples (a handful of games): Bonferroni over pairs
        c = _z(1 - (1 - level) / len(d))
    # a pair that never varies (one seat won every game) is given the spread of one more
    # game shared by the seats, not none
    shared = (values * games + 1 / len(values)) / (games + 1)
    floor = np.sqrt((shared[i] + shared[j] - (shared[i] - shared[j]) ** 2) / games)
    se = np.where(ok, se, floor)
    near, far = np.abs(d) - c * se, np.abs(d) + c * se
    return (100 * float(np.ptp(values)), 100 * max(0.0, float(near.max())),
            100 * min(1.0, float(far.max())))


def _percentile(samples: np.ndarray, level: float) -> tuple[float, float]:
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return math.nan, math.nan
    lo, hi = np.percentile(finite, [50 * (1 - level), 100 - 50 * (1 - level)])
    return float(lo), float(hi)


def _z(level: float) -> float:
    return float(norm_ppf(0.5 + level / 2))


def _settle(value: float, lo: float, hi: float, band: tuple[float, float], level: float,
            games: int) -> float:
    """Games that would settle an open claim (80% power if the true value is the one
    measured, the interval narrowing as one over the square root of n): always more than
    `games`; inf when the value sits on the tolerance's edge."""
    z = _z(level)
    se = (hi - lo) / (2 * z)
    d = min(abs(value - e) for e in band if math.isfinite(e))
    if not (d > 0 and se > 0):
        return math.inf
    need = games * ((z + norm_ppf(POWER)) * se / d) ** 2
    return float(max(games + 1, math.ceil(need)))


def _classify(lo: float, hi: float, band: tuple[float, float]) -> ClaimClass:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return OPEN
    if lo > band[1] or hi < band[0]:
        return OFF
    return WITHIN if band[0] <= lo and hi <= band[1] else OPEN


def _kinds(tol: dict, side: Side) -> list[str]:
    return [k for k in NAMES if k in tol and (k != "cards" or side.cards)]


def side_claims(game: str, players: int, side: Side, tol: dict, seed: int = 0,
                reps: int = REPS) -> list[dict]:
    """The claims behind one line: every measure of one run against its tolerance, each
    interval at 1 - 0.05/m (m the claims of the line), classed within, not within or open."""
    kinds = _kinds(tol, side)
    its = {k: _items(game, k, side)[0] for k in kinds}
    m = sum(len(its[k].names) if k == "assignments" else 1 for k in kinds)
    level = 1 - ALPHA / m
    games = its[kinds[0]].num.shape[0]
    fair = 1.0 / players
    rows = []
    drawn = [k for k in kinds if k in ("seat_spread", "assignments", "cards")]
    resampled = dict(zip(drawn, resample([its[k] for k in drawn], reps, seed),
                         strict=True)) if drawn else {}

    def row(kind, item, value, lo, hi, band, claim=True):
        cls = _classify(lo, hi, band) if claim else ""
        rows.append({"measure": kind, "item": item, "value": value, "ci_low": lo,
                     "ci_high": hi, "level": level, "tol_low": band[0], "tol_high": band[1],
                     "class": cls, "games": games,
                     "games_to_settle": _settle(value, lo, hi, band, level, games)
                     if cls == OPEN else math.nan})

    for k in kinds:
        it = its[k]
        t = tol[k]
        if k in ("first_player", "assignments"):
            lo, hi = wilson_interval(it.num.sum(axis=0), it.den.sum(axis=0), level)
            for name, v, a, b in zip(it.names, it.values, lo, hi, strict=True):
                row(k, name, 100 * (v - fair), 100 * (a - fair), 100 * (b - fair), (-t, t))
            if k == "assignments":
                rates = resampled[k]
                est, draws = _typical(100 * (it.values - fair), 100 * (rates - fair))
                row(k, SUMMARY, est, *_percentile(draws, level), (0.0, t), claim=False)
        elif k == "seat_spread":
            rates = resampled[k]
            row(k, "", *_spread(it.values, rates, level, games), (0.0, t))
        elif k == "cards":
            est, draws = _card_draws(side, it, resampled[k])
            lo, hi = _percentile(draws, level) if games >= RESAMPLED_MIN else (math.nan,) * 2
            row(k, "", est, lo, hi, (0.0, t))
        else:  # length: a mean over games, normal interval
            x = it.num[:, 0]
            half = _z(level) * float(np.std(x, ddof=1)) / math.sqrt(len(x))
            row(k, "", float(x.mean()), float(x.mean()) - half, float(x.mean()) + half, t)
    return rows


def _card_draws(side: Side, it: Items, rates: np.ndarray) -> tuple[float, np.ndarray]:
    """The cards measure (their typical distance from their habitat's median, beyond
    noise) and its recentred resamples, from the cards' resampled values `rates`."""
    groups = _groups(side, it.names)
    return _typical(_card_offsets(it.values[None, :], groups)[0], _card_offsets(rates, groups))


# ---------------------------------------------------------------- the verdict


@dataclass
class Verdict:
    """The verdict of a game: `rows` one per claim (and the objectives' summary row) per
    player count and line-up; `missing` (players, line-up) -> why no line (no strong
    line-up bundled)."""

    game: str
    tolerances: dict
    rows: pd.DataFrame
    missing: dict = field(default_factory=dict)

    @staticmethod
    def join(parts: list[Verdict]) -> Verdict:
        """Several line-ups' verdicts of one game as one."""
        rows = pd.concat([p.rows for p in parts if len(p.rows)], ignore_index=True) \
            if any(len(p.rows) for p in parts) else parts[0].rows
        return Verdict(parts[0].game, parts[0].tolerances, rows,
                       {k: v for p in parts for k, v in p.missing.items()})

    def _pick(self, players: int, lineup: str | None, measure: str | None = None):
        r = self.rows
        side = "greedy" if lineup in (None, "greedy") else lineup
        mask = (r.players == players) & ((r.side == side) | (r.line_up == side))
        if measure is not None:
            mask &= r.measure == measure
        return r[mask & (r["class"] != "")]

    def status(self, measure: str, players: int, lineup: str | None = None) -> Status:
        """"not balanced", "balanced" or "not settled" of one measure at one player count
        under one line-up (None: greedy play; "strong", or the strong policy's name)."""
        sub = self._pick(players, lineup, measure)
        if sub.empty:
            raise KeyError(f"no {measure} claim at {players} players under {lineup or 'greedy'}")
        return STATUS[_overall(sub["class"])]

    def line(self, measure: str, players: int, lineup: str | None = None) -> str:
        """One measure's words with its interval, e.g. "seat spread 7.7 pp [5.1, 10.3],
        beyond 2 pp"."""
        sub = self._pick(players, lineup, measure)
        if sub.empty:
            raise KeyError(f"no {measure} claim at {players} players under {lineup or 'greedy'}")
        return _measure_words(self.game, sub, self.summary(players, lineup, measure))

    def summary(self, players, lineup, measure):
        r = self.rows
        side = "greedy" if lineup in (None, "greedy") else lineup
        sub = r[(r.players == players) & ((r.side == side) | (r.line_up == side))
                & (r.measure == measure) & (r["class"] == "")]
        return None if sub.empty else sub.iloc[0]

    def word(self, players: int, lineup: str | None = None) -> Word:
        """BALANCED, NOT BALANCED or NOT SETTLED at one player count and line-up."""
        return WORDS[_overall(self._pick(players, lineup)["class"])]

    def lines(self) -> list[str]:
        """One line per player count and line-up: the verdict, what decides it, numbers."""
        out = []
        keys = self.rows[["players", "side", "line_up"]].drop_duplicates()
        for players in sorted(set(keys.players) | {p for p, _ in self.missing}):
            for r in keys[keys.players == players].itertuples():
                out.append(self._line(players, r.side, r.line_up))
            out += [f"{players} players, strong line-up: not measured ({why})"
                    for (p, _), why in self.missing.items() if p == players]
        return out

    def _line(self, players: int, side: str, line_up: str) -> str:
        sub = self._pick(players, side)
        word = STATUS[_overall(sub["class"])]
        who = "greedy play" if side == "greedy" else f"strong line-up ({line_up})"
        level = sub.level.iloc[0]
        head = f"{players} players, {who}: {word.upper()}"
        parts = []
        for measure in dict.fromkeys(sub.measure):
            mine = sub[sub.measure == measure]
            cls = _overall(mine["class"])
            if word == "balanced" or cls == {"not balanced": OFF, "not settled": OPEN}[word]:
                parts.append(_measure_words(self.game, mine,
                                            self.summary(players, side, measure)))
        return (f"{head}: " + "; ".join(parts) + f" ({_level(level)} intervals, Bonferroni "
                f"over the {len(sub)} claims of this line, {int(sub.games.iloc[0]):,} games)")

    def table(self) -> pd.DataFrame:
        """verdict.csv: one row per claim (and the summary row, its class empty)."""
        return self.rows[["players", "side", "line_up", "measure", "item", "value", "ci_low",
                          "ci_high", "level", "tol_low", "tol_high", "class", "games",
                          "games_to_settle"]]

    def title(self, name: str | None = None) -> str:
        return f"Is {name or self.game.capitalize()} balanced?"

    def note(self) -> str:
        tol = tolerance_text(self.game, self.tolerances)
        return (f"Each line answers at one player count and line-up from a declared family of "
                f"balance measures, each against a tolerance ({tol}; --tolerance NAME=VALUE "
                "sets them): NOT BALANCED when an "
                "interval lies wholly beyond its tolerance, BALANCED when every one lies "
                "within, NOT SETTLED otherwise. The intervals are at 1 - 0.05/m, Bonferroni "
                "over the m claims of the line, so the chance that any claim behind a line is "
                "false is at most 5%.")


def _overall(classes: Iterable[ClaimClass | Literal[""]]) -> ClaimClass:
    classes = set(classes) - {""}
    return OFF if OFF in classes else WITHIN if classes == {WITHIN} else OPEN


def _level(level: float) -> str:
    text = f"{100 * level:.2f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _num(x: float, signed: bool = False) -> str:
    s = f"{x:+.1f}" if signed else f"{x:.1f}"
    return s.replace("-0.0", "0.0").replace("+0.0", "0.0")


def _settle_words(games: float, played: int) -> str:
    if not math.isfinite(games) or games > 100 * played:
        return f"more than {100 * played:,} games would settle it"
    return f"about {_round(games):,} games would settle it"


def _round(x: float) -> int:
    """Up to two significant digits, never below x."""
    digits = max(0, int(math.log10(x)) - 1)
    return int(math.ceil(x / 10 ** digits) * 10 ** digits)


def _measure_words(game: str, rows: pd.DataFrame, summary) -> str:
    """One measure's claims in words."""
    r = rows.iloc[0]
    kind = r.measure
    cls = _overall(rows["class"])
    played = int(r.games)

    def claim(x, name: str, signed: bool, unit: str) -> str:
        text = (f"{name} {_num(x.value, signed)}{unit} [{_num(x.ci_low, signed)}, "
                f"{_num(x.ci_high, signed)}]")
        if not (math.isfinite(x.ci_low) and math.isfinite(x.ci_high)):
            return (f"{name} {_num(x.value, signed)}{unit}, open (no interval from {played:,} "
                    f"game{'s' * (played != 1)}: at least {RESAMPLED_MIN} are needed)")
        if x["class"] == OPEN:
            return f"{text}, open ({_settle_words(x.games_to_settle, played)})"
        return text

    if kind == "assignments":
        label = _objective(game)
        off = rows[rows["class"] == OFF]
        opened = rows[rows["class"] == OPEN]
        tol = r.tol_high
        head = (f"{len(off)} of {len(rows)} {label}s meaningfully off fair (±{tol:g} pp), "
                f"{len(opened)} open")
        shown = off if len(off) else opened
        shown = shown.reindex(shown.value.abs().sort_values(ascending=False).index).head(3)
        detail = [claim(x, x["item"], True, " pp") for _, x in shown.iterrows()]
        if summary is not None:
            detail.append(claim(summary, SUMMARY, False, " pp"))
        return head + (": " + ", ".join(detail) if detail else "")
    unit = get_game(game).measures.length
    seats = seat_words(game)
    words = {"seat_spread": (seats["seat_spread"], False, " pp", f"{r.tol_high:g} pp"),
             "first_player": (seats["first_vs"], True, " pp", f"±{r.tol_high:g} pp"),
             "cards": ("cards' typical distance from their habitat's median", False, "%",
                       f"{r.tol_high:g}%"),
             "length": ("mean game length", False, f" {unit}",
                        f"{r.tol_low:g}-{r.tol_high:g} {unit}")}
    name, signed, unit, band = words[kind]
    where = {OFF: "beyond", WITHIN: "within", OPEN: "against"}[cls]
    return f"{claim(r, name, signed, unit)}, {where} the tolerance of {band}"


def verdict_of(game: str, runs_by_players: dict[int, Side], tolerances: dict | None = None,
               line_up: str = "greedy", games: int | None = None, seed: int = 0,
               side: str | None = None, reps: int = REPS) -> Verdict:
    """The verdict of one line-up's runs, one per player count (`games` the first games of
    each run, default all; `side` "greedy" or "strong", default: greedy when `line_up` is
    the game's default policy)."""
    tol = tolerances if tolerances is not None else fill_tolerances(game)
    side = side or ("greedy" if line_up == get_game(game).default_policy else "strong")
    rows = []
    for players, run in sorted(runs_by_players.items()):
        if games is not None:
            keep = run.df.game.isin(np.sort(run.df.game.unique())[:games])
            run = Side(run.df[keep], run.config, run.cards)
        rows += [{"players": players, "side": side, "line_up": line_up, **r}
                 for r in side_claims(game, players, run, tol, seed, reps)]
    return Verdict(game, tol, pd.DataFrame(rows))


# ---------------------------------------------------------------- a comparison's verdict


def _distance_stats(kind: str, rates: np.ndarray, players: int, tol) -> np.ndarray:
    """A measure's values from rates (resamples, items): (resamples, claims), in pp (the
    length in its unit)."""
    fair = 1.0 / players
    if kind == "seat_spread":
        return 100 * (rates.max(axis=1) - rates.min(axis=1))[:, None]
    if kind in ("first_player", "assignments"):
        return 100 * np.abs(rates - fair)
    return np.abs(rates - (tol[0] + tol[1]) / 2)


def _measure_draws(kind: str, side: Side, it: Items, rates: np.ndarray, players: int,
                   tol) -> tuple[np.ndarray, np.ndarray]:
    """A measure's values in one run (claims,) and over its resamples (resamples, claims);
    the cards measure beyond noise (`_typical`), with its resamples recentred."""
    if kind == "cards":
        est, draws = _card_draws(side, it, rates)
        return np.array([est]), draws[:, None]
    return (_distance_stats(kind, it.values[None, :], players, tol)[0],
            _distance_stats(kind, rates, players, tol))


@dataclass
class Change:
    """A comparison's balance verdict: `rows` one per claim (a measure's paired change) per
    variant and player count; `before` the baseline's verdict, `after` each variant's."""

    game: str
    rows: pd.DataFrame
    before: Verdict
    after: dict

    def word(self, variant: str, players: int) -> ChangeWord:
        """BETTER, WORSE, MIXED, NO CHANGE or NOT SETTLED."""
        r = self.rows
        return _change_word(r[(r.variant == variant) & (r.players == players)]["class"])

    def lines(self, variant: str | None = None) -> list[str]:
        """Per variant and player count: the verdict with what moved, then each side's own
        verdict line before and after."""
        out = []
        for (label, players), sub in self.rows.groupby(["variant", "players"], sort=False):
            if variant is not None and label != variant:
                continue
            word = _change_word(sub["class"])
            moved = sub[sub["class"].isin([BETTER, WORSE])]
            opened = sub[sub["class"] == OPEN]
            shown = moved if len(moved) else opened
            shown = shown.reindex(shown.change.abs().sort_values(ascending=False).index)
            detail = "; ".join(_change_words(x, self.game) for _, x in shown.head(4).iterrows())
            counts = sub["class"].value_counts()
            tally = ", ".join(f"{counts[k]} {k}" for k in (BETTER, WORSE, SAME, OPEN)
                              if counts.get(k, 0))
            out.append(f"is {label} better balanced at {players} players? {word} ({tally} of "
                       f"{len(sub)} claims, {_level(sub.level.iloc[0])} intervals, Bonferroni "
                       f"over them)" + (f": {detail}" if detail else ""))
            side = sub.side.iloc[0]
            out.append(f"  before: {self.before._line(players, side, sub.line_up.iloc[0])}")
            out.append(f"  after: {self.after[label]._line(players, side, sub.line_up.iloc[0])}")
        return out

    def table(self) -> pd.DataFrame:
        return self.rows


def _change_word(classes: Iterable[ChangeClass]) -> ChangeWord:
    c = set(classes)
    if BETTER in c and WORSE in c:
        return "MIXED"
    if WORSE in c:
        return "WORSE"
    if BETTER in c:
        return "BETTER"
    return "NO CHANGE" if c == {SAME} else "NOT SETTLED"


def dealt_first(game: str) -> bool:
    """Whether `game` deals its first player each game (Yosemite, set-up step 13), so that a
    seat is not a place in turn order: its seat spread and its first player are then two
    measures, and each is named as what it is."""
    return get_game(game).measures.first_player is not None


def seat_words(game: str) -> dict[str, str]:
    """The seat measures' names in `game`'s words (`dealt_first`): the seat spread, the first
    player's distance from fair, and the first player against fair."""
    if dealt_first(game):
        who = "the first player (the seat the deal made first, game by game)"
        return {"seat_spread": "seat spread (between seats, each dealt first about equally "
                               "often)",
                "first_player": f"distance from fair of {who}", "first_vs": f"{who} vs fair"}
    return {"seat_spread": "seat spread", "first_player": "first player's distance from fair",
            "first_vs": "first player vs fair"}


def _change_words(x, game: str) -> str:
    words = seat_words(game)
    name = {"seat_spread": words["seat_spread"], "first_player": words["first_player"],
            "cards": "cards' typical distance from their habitat's median",
            "length": "game length's distance from the range's middle"}.get(
        x.measure, f"{_possessive(x['item'])} distance from fair")
    unit = "%" if x.measure == "cards" else "" if x.measure == "length" else " pp"
    text = (f"{name} {_num(x.baseline)} → {_num(x.value)}{unit} ({_num(x.change, True)} "
            f"[{_num(x.ci_low, True)}, {_num(x.ci_high, True)}]): {x['class']}")
    if x["class"] == OPEN:
        text += f", {_settle_words(x.games_to_settle, int(x.games))} per side"
    return text


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def change_verdict(game: str, base_sides: dict[int, Side], variant_sides: dict, tolerances=None,
                   line_up: str = "greedy", seed: int = 0, reps: int = REPS) -> Change:
    """The balance verdict of variants against a baseline played on the same deals:
    `base_sides` player count -> Side, `variant_sides` variant label -> (player count ->
    Side). Each measure's paired change is classed against its tolerance (the length's
    half-range): worse when its interval lies wholly above it, better wholly below minus
    it, no change wholly inside, open otherwise."""
    tol = tolerances if tolerances is not None else fill_tolerances(game)
    before = verdict_of(game, base_sides, tol, line_up, seed=seed, reps=reps)
    after = {label: verdict_of(game, sides, tol, line_up, seed=seed, reps=reps)
             for label, sides in variant_sides.items()}
    side = before.rows.side.iloc[0]
    rows = []
    for label, sides in variant_sides.items():
        for players, mine in sorted(sides.items()):
            base = base_sides[players]
            kinds = [k for k in _kinds(tol, base) if k in _kinds(tol, mine)]
            pairs = {k: _items(game, k, base, mine) for k in kinds}
            m = sum(len(pairs[k][0].names) if k == "assignments" else 1 for k in kinds)
            level = 1 - ALPHA / m
            flat = resample([x for k in kinds for x in pairs[k]], reps, seed)
            resampled = {k: (flat[2 * i], flat[2 * i + 1]) for i, k in enumerate(kinds)}
            for k, (b, v) in pairs.items():
                t = tol[k]
                rb, rv = resampled[k]
                x0, sb = _measure_draws(k, base, b, rb, players, t)
                x1, sv = _measure_draws(k, mine, v, rv, players, t)
                delta = (t[1] - t[0]) / 2 if k == "length" else t
                names = b.names if k == "assignments" else ("",)
                for j, name in enumerate(names):
                    lo, hi = _percentile(sv[:, j] - sb[:, j], level)
                    d = float(x1[j] - x0[j])
                    cls = (WORSE if lo > delta else BETTER if hi < -delta else
                           SAME if -delta <= lo and hi <= delta else OPEN)
                    games = b.num.shape[0]
                    rows.append({"variant": label, "players": players, "side": side,
                                 "line_up": line_up, "measure": k, "item": name,
                                 "baseline": float(x0[j]), "value": float(x1[j]), "change": d,
                                 "ci_low": lo, "ci_high": hi, "level": level,
                                 "smallest": delta, "class": cls, "games": games,
                                 "games_to_settle": _settle(d, lo, hi, (-delta, delta), level,
                                                            games) if cls == OPEN else math.nan})
    return Change(game, pd.DataFrame(rows), before, after)
