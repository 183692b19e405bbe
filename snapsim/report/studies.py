"""What every game's report shares: a cache of seeded runs, the one standard its claims are
tested under, the build driver and the command line of the `analyses/` scripts. A game
supplies its studies (functions from a run cache to a Section) and nothing else.

Every claim a study makes (an estimate's class against the smallest effect of interest, a
ranking, a label under strong play) is added to the report's one `Standard` while the studies
run; the findings that rest on them are written once the whole family is settled (Holm across
the report), so a key finding states only what passes it."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import overload

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..analysis import balance as B
from ..analysis.effects import (
    Claim,
    Estimate,
    Ranking,
    Smallest,
    Standard,
    classed,
    names_text,
    pct,
    rank,
    settle_text,
    show,
    unsigned_zero,
)
from ..analysis.labels import LABELS, Finding, Labels
from ..analysis.lineups import STRONG, strong_policy
from ..analysis.luck import decompose, duplicate_results, rotations, win_rate_over_deals
from ..analysis.measures import seat_matrix
from ..analysis.normal import norm_ppf
from ..analysis.paired import Ratio, spread_interval, spread_value
from ..analysis.stats import mean_interval, wilson_interval
from ..analysis.verdict import (
    Side,
    Status,
    Verdict,
    card_values,
    dealt_first,
    fill_tolerances,
    verdict_of,
)
from ..analysis.verdict import record as verdict_record
from ..errors import InputError
from ..sim import cache as run_cache
from ..sim import get_game
from ..sim.checks import entries
from ..sim.files import read_text
from ..sim.locks import exclusive
from ..sim.provenance import PROVENANCE_FILE, components_record, footer
from ..sim.store import claim_folder, clear_own, record_written, staged
from ..sim.variants import load_variant
from ..version import __version__, commit
from . import figures as F
from .render import SECTIONS, Report, Section, write_report


def pp(x: float) -> str:
    """A win-rate difference in percentage points."""
    return f"{100 * x:+.1f} pp"


def policies_text(policies) -> str:
    """"greedy in every seat", or the line-up with its seats rotated."""
    names = list(dict.fromkeys(str(p) for p in policies))
    return f"{names[0]} in every seat" if len(names) == 1 else \
        ", ".join(map(str, policies)) + " (seats rotated)"


def estimate(name: str, values) -> dict:
    """`name`, `name_ci_low`, `name_ci_high`: the mean of per-game (or per-seat) values and
    its 95% Student-t interval, for a table row."""
    mean, lo, hi = mean_interval(values)
    return {name: mean, f"{name}_ci_low": lo, f"{name}_ci_high": hi}


def proportion(name: str, hits, n) -> dict:
    """`name`, `name_ci_low`, `name_ci_high`: hits / n and its 95% Wilson interval."""
    lo, hi = wilson_interval(hits, n)
    return {name: hits / n if n else np.nan, f"{name}_ci_low": float(lo),
            f"{name}_ci_high": float(hi)}


def ratio(name: str, num, den) -> dict:
    """`name`, `name_ci_low`, `name_ci_high`: sum(num) / sum(den) over games (or
    player-games) and its 95% normal interval from the delta method (analysis.paired)."""
    r = Ratio(np.asarray(num, float), np.asarray(den, float))
    half = norm_ppf(0.975) * np.std(r.influence(), ddof=1) / np.sqrt(len(r.num))
    return {name: r.value, f"{name}_ci_low": r.value - half, f"{name}_ci_high": r.value + half}


def seat_spread(df: pd.DataFrame, seed: int) -> dict:
    """Best minus worst seat's win rate with its 95% percentile bootstrap interval (whole
    games resampled)."""
    won = seat_matrix(df, "won")
    lo, hi = spread_interval(won, np.ones_like(won), seed=seed)
    return {"seat_spread": spread_value(won, np.ones_like(won)), "seat_spread_ci_low": lo,
            "seat_spread_ci_high": hi}


def paired_mean(a, b) -> Estimate:
    """Mean of b minus mean of a over games played on the same deals (game i of both runs
    dealt alike): the paired difference with its standard error (analysis.paired)."""
    from ..analysis.paired import ratio_difference

    d = ratio_difference(Ratio.mean(np.asarray(a, float)), Ratio.mean(np.asarray(b, float)))
    return Estimate(d.diff, d.se, d.n)


# ---------------------------------------------------------------- claims in words


def seat_finding(seats: pd.DataFrame, claims: dict, players: int, label: str) -> str:
    """One line on every seat at a player count: its win rate with its interval, then its
    distance from the fair share with the interval its class was decided on, and the
    class."""
    sub = seats[seats.players == players].sort_values("seat")
    parts = []
    for r in sub.itertuples():
        c = claims[(players, int(r.seat))]
        parts.append(f"seat {int(r.seat)} {pct(r.win_rate)} [{pct(r.ci_low)}, "
                     f"{pct(r.ci_high)}]: {classed(c, 'pp', 'from fair')}")
    delta = next(iter(claims.values())).delta
    return (f"{label} (fair share {pct(1 / players)}, smallest effect "
            f"±{show(delta, 'pp', signed=False)}): " + "; ".join(parts) + ".")


def seat_advantage(ctx: Runs, s: Section, players, policy: str = "greedy",
                   labelled=None) -> tuple[pd.DataFrame, dict]:
    """The seat-advantage table and figure of a section: win rate by seat minus the fair
    share 1/players in pp with 95% Wilson intervals, one colour per player count, each
    seat's distance from fair classed under the report's standard; adds one finding per
    player count (the main count, 4, first). At the `labelled` counts
    (default all) the last seat's lead over the first is measured again under the strong
    line-up. Returns the table and each seat's claim, by (players, seat)."""
    runs = pd.concat([ctx.sim([policy], players=n) for n in players], ignore_index=True)
    seats = pd.concat([B.rates(sub, ["players", "seat"], fair=1.0 / n)
                       for n, sub in runs.groupby("players")], ignore_index=True)
    seats = seats.drop(columns=["p_adjusted", "significant"])
    seats["seat"] += 1
    for col, name in (("win_rate", ""), ("ci_low", "_ci_low"), ("ci_high", "_ci_high")):
        seats[f"vs_fair_pp{name}"] = 100 * (seats[col] - seats.fair_share)
    seats["players_label"] = [ctx.players_label(n) for n in seats.players]
    found = ctx.classes(s, "seat_advantage", seats,
                        [f"{n} players, seat {k}" for n, k in zip(seats.players, seats.seat,
                                                                 strict=True)],
                        [Estimate.from_ci(w - f, lo - f, hi - f, n) for w, f, lo, hi, n in
                         zip(seats.win_rate, seats.fair_share, seats.ci_low, seats.ci_high,
                             seats.n, strict=True)], "pp")
    claims = {(int(n), int(k)): c for n, k, c in zip(seats.players, seats.seat, found,
                                                     strict=True)}
    s.figure("seat_advantage",
             F.bars(seats, "seat", "vs_fair_pp", "vs_fair_pp_ci_low", "vs_fair_pp_ci_high",
                    "Win rate minus fair share, by seat", ctx.note(), hue="players",
                    ref=0.0, ylabel="win rate - 1/players (pp)", legend=ctx.players_label),
             ctx.caption("Win rate by seat minus the fair share 1/players, in percentage "
                         "points", [policy], players))
    for n in sorted(players, key=lambda k: (k != 4, k)):
        s.later(partial(seat_finding, seats, claims, n, ctx.players_label(n)))
    for n in sorted(players if labelled is None else labelled, key=lambda k: (k != 4, k)):
        # a fixed pair of seats (the same pair under both line-ups), named so it is not read
        # as the seat spread (best minus worst seat), which has its own interval
        ctx.label(s, f"{ctx.players_label(n)}: seat {n}'s win rate minus seat 1's",
                  seat_gap(n), n)
    return seats, claims


def knob_table(ctx: Runs, knobs: dict, row, **fixed) -> pd.DataFrame:
    """One row per rule knob and value (each moved alone from its default; the default's
    run is the baseline's, so every row shares its seed: common random numbers): `row(df,
    base)` gives a row's measures from its run and the baseline run."""
    base = ctx.sim(**fixed)
    rows = []
    for knob, (default, values) in knobs.items():
        for v in sorted((default, *values)):
            df = base if v == default else ctx.sim(**fixed, **{knob: v})
            rows.append({"knob": knob, "value": str(v), "default": v == default,
                         **row(df, base)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- strong play

SEARCH_MIN = 10  # a slow strong policy plays games/share games, at least this many


LADDER_SHARE = 10  # the skill ladder plays games/10 games per table (at least LADDER_MIN)
LADDER_MIN = 24
# a table seating a search policy plays the ladder's games per table / this (at least
# LADDER_MIN): a searched game costs tens of times a heuristic one
SEARCH_SHARE = 10
# from this many games a report spends its whole budgets on the fixes' search and the
# ladder's search tables (the committed reports play 3,000 games and more); a smaller one
# spends in proportion, at least these
FULL_BUDGET = 3_000
FIX_BUDGET = 40  # candidates each fix search plays from FULL_BUDGET games up
FIX_MIN = 10  # candidates a fix search plays at the least
# the ladder seats a search policy from this many games per configuration: a table seating
# one plays every seat assignment at least once however few games it is given, so below the
# full budget the search tables would cost a small report more than all its other studies
AFFORDABLE = FULL_BUDGET
SEARCH_GAMES_MIN = 10  # games at a ladder table seating a search policy, at the least


def budgets(games: int, ladder_games: int | None = None) -> dict:
    """What a report of `games` games per configuration spends beyond its own runs: each
    fix search's candidates (`fix_candidates`), games per candidate (`fix_games`) and
    confirmation games (`verify_games`); the ladder's games per table (`ladder_games`, or
    as given) and per table seating a search policy or the exact kind (`search_games`).
    From FULL_BUDGET games up these are the committed reports' budgets; below, the
    candidates and the search tables' games shrink in proportion, so a small report does not
    spend as long on its fixes and searches as a committed one."""
    share = min(games, FULL_BUDGET) / FULL_BUDGET
    table = ladder_games or max(LADDER_MIN, games // LADDER_SHARE)
    search = max(LADDER_MIN, table // SEARCH_SHARE)
    return {"fix_candidates": max(FIX_MIN, round(FIX_BUDGET * share)),
            "fix_games": max(100, games // 4), "verify_games": max(100, games // 2),
            "ladder_games": table,
            "search_games": max(SEARCH_GAMES_MIN, round(search * share))}


def game_ratio(df: pd.DataFrame, num, den=None) -> Ratio:
    """A ratio of per-game sums over the rows of a run: sum(num) / sum(den) (den: one per
    row), one entry per game in game order, so runs on the same deals pair game by game."""
    games = np.sort(df.game.unique())
    n = pd.Series(np.asarray(num, float), index=df.index).groupby(df.game).sum()
    d = pd.Series(1.0 if den is None else np.asarray(den, float),
                  index=df.index).groupby(df.game).sum()
    return Ratio(n.reindex(games, fill_value=0).to_numpy(),
                 d.reindex(games, fill_value=0).to_numpy())


def win_rate(df: pd.DataFrame, mask) -> Ratio:
    """Wins over appearances of the rows in `mask`, per game (ties share a win)."""
    mask = np.asarray(mask, bool)
    return game_ratio(df, np.where(mask, df.won, 0.0), mask)


def same_games(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Whether two runs on the same deals played the same games: every numeric result of
    every seat equal, game by game (what a change of rule or restriction a line-up never
    meets leaves)."""
    cols = [c for c in a.select_dtypes("number").columns if c in b]
    if len(a) != len(b) or not cols:
        return False
    key = ["game", "seat"]
    x, y = (d.sort_values(key)[cols].to_numpy(float) for d in (a, b))
    return bool(np.array_equal(x, y, equal_nan=True))


@dataclass(frozen=True)
class Effect:
    """A finding's effect under one line-up: a weighted sum of ratio measures over the same
    deals (a seat's win rate minus the fair share, a knob's change in game length) minus a
    reference value. Its error comes from the per-game linearisation (analysis.paired), so
    the effect under two line-ups dealt alike is compared game by game. `silent` says why
    the line-up cannot express the measure (it never takes the action measured)."""

    terms: tuple[tuple[float, Ratio], ...]
    ref: float = 0.0
    silent: str | None = None

    @property
    def value(self) -> float:
        return float(sum(c * r.value for c, r in self.terms) - self.ref)

    def influence(self) -> np.ndarray:
        """Per-game contributions: the error of their mean is the effect's error."""
        return np.asarray(sum(c * r.influence() for c, r in self.terms))

    def estimate(self) -> Estimate:
        """The effect with its standard error, never below what one more event in each
        numerator would move it (a rate of 0 or 1 otherwise has no error at all)."""
        z = self.influence()
        floor = sum(abs(c) / r.den.sum() for c, r in self.terms if r.den.sum() > 0)
        return Estimate(self.value, max(float(np.std(z, ddof=1) / np.sqrt(len(z))), floor),
                        len(z))


def paired_change_se(greedy: np.ndarray, strong: np.ndarray) -> float:
    """Standard error of (strong effect - greedy effect) from their per-game influences when
    game i of both runs was dealt alike: the first min(n, m) deals are shared, the rest not."""
    n, m = len(greedy), len(strong)
    k = min(n, m)
    cov = float(np.cov(greedy[:k], strong[:k])[0, 1]) if k > 1 else 0.0
    var = np.var(greedy, ddof=1) / n + np.var(strong, ddof=1) / m - 2 * cov / max(n, m)
    return float(np.sqrt(max(var, 0.0)))


@dataclass
class LineUp:
    """One line-up of a report: the policy in every seat at each player count, on `games`
    games from the report's seed (so game i is dealt as the greedy run's game i)."""

    ctx: Runs
    policy: Callable[[int], str]
    games: int

    def sim(self, players: int, seats: Callable[[str], list[str]] | None = None,
            **knobs) -> pd.DataFrame:
        """The run at `players` seats: the line-up's policy everywhere, or `seats(policy)`
        (e.g. one restricted copy against plain ones, seats rotated)."""
        p = self.policy(players)
        return self.ctx.sim(seats(p) if seats else [p], games=self.games, players=players,
                            **knobs)


def seat_gap(players: int, **knobs) -> Callable[[LineUp], Effect]:
    """The measure "last seat's win rate minus the first seat's" at `players` seats."""
    def measure(side: LineUp) -> Effect:
        df = side.sim(players, **knobs)
        return Effect(((1.0, win_rate(df, df.seat == players - 1)),
                       (-1.0, win_rate(df, df.seat == 0))))
    return measure


def knob_effect(column: str, players: int, knobs: dict, base: dict | None = None,
                rows=None, action: str | None = None) -> Callable[[LineUp], Effect]:
    """The measure "mean of `column` under `knobs` minus under `base` (default: the
    rulebook)", over every row or the rows `rows(df)` selects; both runs dealt alike. A
    line-up whose two runs play identical games, or that never takes `action` (a result
    column counting it) where `knobs` allow it, cannot express the measure."""
    def mean(df):
        keep = np.ones(len(df), bool) if rows is None else np.asarray(rows(df), bool)
        return game_ratio(df, np.where(keep, df[column], 0.0), keep)

    def measure(side: LineUp) -> Effect:
        on, off = side.sim(players, **knobs), side.sim(players, **(base or {}))
        who = side.policy(players)
        silent = None
        if action is not None and action in on and not on[action].any():
            silent = f"{who} never makes the action measured: 0 {action} in {len(on):,} " \
                     "player-games"
        elif same_games(on, off):
            silent = f"{who} plays identical games under both settings"
        return Effect(((1.0, mean(on)), (-1.0, mean(off))), silent=silent)
    return measure


@dataclass
class Labelled:
    """One finding measured under both line-ups, before its label."""

    section: str
    finding: Finding
    players: int
    policy: str  # the strong line-up's policy
    unit: str  # "pp" (a rate difference) or the unit of the effect
    line_up: str = "greedy"  # the policy the section measured the finding with


@dataclass
class Runs:
    """Settings shared by a report's studies, a cache of their runs (so sections reuse each
    other's games; each new run advances the report's progress bar by one) and the report's
    one standard with every claim added to it."""

    game: str
    games: int
    seed: int
    threads: int | None = None
    components: object = None
    bar: tqdm | None = None
    bar_cap: int = 0  # where the running study's share of the bar ends
    cache: dict = field(default_factory=dict)
    out: Path | None = None  # the report folder, once known
    strong: str | None = STRONG  # the strong line-up's policy; None: greedy only
    strong_games: int | None = None  # its games (default: `strong_policy`'s)
    ladder_games: int | None = None  # games per table of the skill ladder
    labelled: list[Labelled] = field(default_factory=list)
    records: dict = field(default_factory=dict)  # provenance beyond the cached runs
    smallest: Smallest = field(default_factory=Smallest)
    standard: Standard = field(default_factory=Standard)
    after: list = field(default_factory=list)  # run once the standard is settled
    before: list = field(default_factory=list)  # run once every study ran, before it is
    pairs: dict = field(default_factory=dict)  # (players, a, b) -> (claim, words): `versus`
    found: dict = field(default_factory=dict)  # results later sections' sentences cite
    tolerances: dict = field(default_factory=dict)  # the verdict's, name -> value (filled)
    _headline: Verdict | None = field(default=None, repr=False)
    # the run cache's counts when the report began: every table its studies read or played
    _counted: dict = field(default_factory=lambda: dict(run_cache.COUNTS), repr=False)

    def __post_init__(self):
        self.tolerances = fill_tolerances(self.game, self.tolerances)

    def headline(self) -> Verdict:
        """"Is the game balanced?" at every player count the game is played at, under greedy
        play and under the strong line-up (analysis.verdict), from the report's cached runs
        (seats in turn order: one policy in every seat), computed once."""
        if self._headline is None:
            spec = get_game(self.game)
            counts = spec.measures.levers.player_counts
            parts = [self._verdict(spec.default_policy, self.games, counts, "greedy")]
            if self.strong is not None:
                chosen = {n: self.strong_policy(n) for n in counts}
                missing = {(n, "strong"): why for n, (p, _, why) in chosen.items() if p is None}
                for n, (policy, games, _) in chosen.items():
                    if policy is not None:
                        parts.append(self._verdict(policy, games, [n], "strong"))
                parts[0].missing.update(missing)
            self._headline = Verdict.join(parts)
        return self._headline

    def _verdict(self, policy: str, games: int, counts, side: str) -> Verdict:
        from ..sim.agents import resolve_policy

        sides = {}
        for n in counts:
            df = self.sim([policy], games=games, players=n)
            config = self.config(players=n)
            key = ("cards", policy, n, games, repr(config))
            if key not in self.cache:
                self.cache[key] = card_values(self.game, config,
                                              [resolve_policy(self.game, policy)] * n, games,
                                              self.seed, self.threads)
            sides[n] = Side(df, config, self.cache[key])
        return verdict_of(self.game, sides, self.tolerances, policy, seed=self.seed, side=side)

    def note(self, games: int | None = None) -> str:
        return f"n = {games or self.games:,} games per configuration, seed {self.seed}"

    def players_label(self, players: int) -> str:
        return f"{players} players"

    def caption(self, what: str, policies, players, games: int | None = None,
                interval: str = "95% Wilson CIs") -> str:
        """A figure's caption: what it shows and its interval, then the policies, player
        count(s), n (games) and seed, so a figure read alone says how it was made."""
        counts = [players] if isinstance(players, int) else list(players)
        who = policies if isinstance(policies, str) else policies_text(policies)
        return (f"{what} ({interval}). Policies: {who}; "
                f"{', '.join(self.players_label(n) for n in counts)}; "
                f"n = {games or self.games:,} games per configuration; seed {self.seed}.")

    def config(self, **knobs):
        """A study's config: the report's components (a variant file's knobs played too,
        under the knobs a study sets itself), else the bundled set."""
        if self.components is None or "components" in knobs:
            return get_game(self.game).make_config(**knobs)
        players = knobs.pop("players", None)
        return load_variant(self.game, self.components).config(players, **knobs)

    def tick(self) -> None:
        """One more run: the bar advances within the running study's share of it."""
        if self.bar is not None and self.bar.n < self.bar_cap:
            self.bar.update(1)

    def sim(self, policies, games: int | None = None, rotate: bool = True,
            **knobs) -> pd.DataFrame:
        """The run of `policies` (one per seat, or one for all) on the report's seed, seats
        rotated game by game unless `rotate` is False; a run asked for again, in whatever
        words (one name for all seats, the default knobs spelled out), comes from the cache.
        A bundled tuned policy is known by its name."""
        from ..sim.agents import resolve_policy

        games = games or self.games
        config = self.config(**knobs)
        seats = get_game(self.game).players(config)
        policies = [str(p) for p in policies]
        key = ("sim", tuple(policies * seats if len(policies) == 1 else policies), games,
               repr(config)) + (() if rotate else ("fixed seats",))
        if key not in self.cache:
            self.cache[key] = run_cache.simulate(
                self.game, config, [resolve_policy(self.game, p) for p in policies], games,
                self.seed, rotate_seats=rotate, threads=self.threads)
            self.tick()
        return self.cache[key]

    # ------------------------------------------------------------ claims

    def claim(self, s: Section, key: str, est: Estimate, unit: str,
              reference: float = math.nan) -> Claim:
        """An estimate's class against the smallest effect of its unit (relative ones
        against `reference`), added to the report's standard."""
        c = Claim.make(self.standard, f"{s.key}: {key}", est, self.smallest.delta(unit,
                                                                                   reference))
        s.claims[c.key] = self.standard.raw()[c.key]
        return c

    @overload
    def classes(self, s: Section, name: str, table: pd.DataFrame, keys,
                estimates: Sequence[Estimate], unit, reference=..., suffix: str = ...
                ) -> list[Claim]: ...

    @overload
    def classes(self, s: Section, name: str, table: pd.DataFrame, keys,
                estimates: Sequence[Estimate | None], unit, reference=..., suffix: str = ...
                ) -> list[Claim | None]: ...

    def classes(self, s: Section, name: str, table: pd.DataFrame, keys,
                estimates: Sequence[Estimate | None], unit, reference=math.nan,
                suffix: str = "") -> list[Claim | None] | list[Claim]:
        """One claim per row of a section's table: its estimate (None for a reference row,
        which claims nothing) against the smallest effect of `unit` (one, or one per row;
        `reference` likewise, for relative units). The table is stored as `name` and gets
        the claimed estimate with its 95% and Holm-adjusted intervals and its smallest effect
        (`claim_columns`), `class`, `p_adjusted` (Holm across the report) and
        `games_to_settle`, each with `suffix` (for a second claim per row), once the standard
        is settled."""
        n = len(table)
        refs = np.broadcast_to(np.asarray(reference, float), (n,))
        units = [unit] * n if isinstance(unit, str) else list(unit)
        claims = [None if e is None else self.claim(s, f"{name}{suffix}: {k}", e, u, float(r))
                  for k, e, u, r in zip(keys, estimates, units, refs, strict=True)]
        s.tables[name] = table

        def fill():
            t = s.tables[name]
            for col, values in claim_columns(claims, suffix).items():
                t[col] = values
        self.after.append(fill)
        return claims

    def collect(self, s: Section, register: Callable[[Standard], object]):
        """Run `register(standard)`, which adds claims to the report's standard, keeping
        their raw p-values with the section; returns what it returns."""
        before = set(self.standard.raw())
        out = register(self.standard)
        raw = self.standard.raw()
        s.claims.update({k: raw[k] for k in raw.keys() - before})
        return out

    def rank(self, s: Section, key: str, names, estimates: list[Estimate],
             highest: bool = True, diff_se=None) -> Ranking:
        """The leader of a list and the items it is not separated from (effects.rank),
        its tests added to the report's standard."""
        return self.collect(s, lambda standard: rank(standard, f"{s.key}: {key}", list(names),
                                                     estimates, highest, diff_se))

    def versus(self, players: int, a: str, b: str, claim: Claim, words: str,
               words_back: str) -> None:
        """A section's claim that `a` beats `b` head to head (`words`: how often, on how many
        games; `words_back`: the same from `b`'s side), the one claim any other sentence
        comparing the two at `players` seats reads (the skill ladder's included)."""
        self.pairs[(players, a, b)] = (claim, words)
        self.pairs[(players, b, a)] = (claim.reversed(), words_back)

    def test(self, s: Section, key: str, p: float) -> str:
        """One more claim with its raw p-value; returns its key for `passes`."""
        k = self.standard.add(f"{s.key}: {key}", p)
        s.claims[k] = self.standard.raw()[k]
        return k

    def fix(self, problem: str) -> str:
        """What the "fixes" study found for one problem, in words that agree with its
        section: a fix only when confirmed under every line-up, else what it does under
        each ("" when the study did not run with this report)."""
        found = self.found.get("fixes", {}).get(problem)
        if found is None:
            return ""
        status, target = found["status"], found["target"]
        if status in ("no fix needed", "not settled"):
            return (f"{status} ({'; '.join(found['lines'])}: the verdict's intervals, "
                    "Bonferroni over its line's claims)")
        if status == "already":
            return (f"the fix search's own fresh deals already meet {target} under "
                    f"{found['lineups']}: nothing to fix")
        if status == "recommended":
            return (f"smallest verified fix found: {'; '.join(found['changes'])} (meets "
                    f"{target} under {found['lineups']}, confirmed on fresh deals)")
        if status == "none":
            return (f"no change the fix search tried brings it nearer {target} (section "
                    "Smallest fixes found)")
        which = ("met it where chosen but not on its confirmation" if status == "unconfirmed"
                 else "is the best compromise")
        return (f"no fix tried meets {target} under {found['lineups']} at once: the best "
                f"patch found ({'; '.join(found['changes'])}) {which}; it "
                + ", ".join(found["phrases"]) + " (section Smallest fixes found)")

    def finish(self, sections: list[Section], kept: dict | None = None) -> None:
        """Once every study ran: label the findings measured under both line-ups, add the
        claims `kept` by sections not re-run, settle the standard (Holm across all of
        them), then fill the tables' classes and write the deferred findings."""
        for hook in self.before:
            hook()
        strong_play(self, sections)
        for key, p in (kept or {}).items():
            self.standard.add(key, p)
        self.standard.settle()
        for fill in self.after:
            fill()
        for s in sections:
            s.resolve()

    def strong_policy(self, players: int) -> tuple[str | None, int, str]:
        """(policy, games, why) of the strong line-up at `players` seats (`strong_policy`;
        None: none affordable): its share of the report's games (at least SEARCH_MIN) unless
        `strong_games` says."""
        assert self.strong is not None  # asked only of a report with a strong line-up
        choice, share, why = strong_policy(self.game, players, self.strong)
        games = self.strong_games or max(min(SEARCH_MIN, self.games), self.games // share)
        return choice, games, why

    def label(self, s: Section, name: str, measure: Callable[[LineUp], Effect | Estimate],
              players: int, unit: str = "pp", base: str = "greedy",
              reference: float = math.nan) -> None:
        """Measure one finding of section `s` with the policy the section measured it with
        (`base`) and under the strong line-up, both from the report's seed (game i dealt
        alike, so an `Effect` pairs game by game; an `Estimate` is taken as independent),
        and keep it for `strong_play` to label against the smallest effect of `unit`."""
        if self.strong is None:
            return
        policy, games, why = self.strong_policy(players)
        if policy is None:
            note = f"Not measured again under strong play: {why}."
            if note not in s.findings:
                s.findings.append(note)
            return
        def strong_at(n: int) -> str:
            chosen = self.strong_policy(n)[0]
            assert chosen is not None, f"no strong line-up at {n} players"
            return chosen

        measured = measure(LineUp(self, lambda n: base, self.games))
        strong = measure(LineUp(self, strong_at, games))
        delta = self.smallest.delta(unit, reference)
        if isinstance(measured, Effect) and isinstance(strong, Effect):
            silent = strong.silent or measured.silent
            found = Finding(name, measured.estimate(), strong.estimate(),
                            paired_change_se(measured.influence(), strong.influence()),
                            delta, silent)
        else:
            assert isinstance(measured, Estimate) and isinstance(strong, Estimate)  # one type
            found = Finding(name, measured, strong, delta=delta)
        self.labelled.append(Labelled(s.key, found, players, policy, unit, base))


def claim_columns(claims: list[Claim | None], suffix: str = "") -> dict[str, list]:
    """A table's columns for one claim per row (None: a row that claims nothing): the
    estimate the class is about (`estimate`, in the claim's unit: rates as proportions) with
    its 95% interval and the interval the class was decided on (`_adjusted`), the smallest
    effect of interest, the class, its Holm-adjusted p-value and the games that would settle
    it."""
    def column(get) -> list:
        return [get(c) if c else math.nan for c in claims]
    est = f"estimate{suffix}"
    return {est: column(lambda c: c.estimate.effect),
            f"{est}_ci_low": column(lambda c: c.estimate.ci[0]),
            f"{est}_ci_high": column(lambda c: c.estimate.ci[1]),
            f"{est}_ci_low_adjusted": column(lambda c: c.decision_ci[0]),
            f"{est}_ci_high_adjusted": column(lambda c: c.decision_ci[1]),
            f"smallest{suffix}": column(lambda c: c.delta),
            f"class{suffix}": [c.cls if c else "" for c in claims],
            f"p_adjusted{suffix}": column(lambda c: c.p_adjusted),
            f"games_to_settle{suffix}": column(lambda c: c.settle)}


def strong_play(ctx: Runs, sections: list[Section]) -> None:
    """Add the claims behind every finding measured under both line-ups to the report's
    standard; once it is settled, each section gets its table (both effects and their
    change with 95% CIs and classes, the label, the games per line-up that would settle an
    unresolved one) and one sentence per finding generated from those numbers."""
    if not ctx.labelled:
        return
    labels = Labels([x.finding for x in ctx.labelled]).register(ctx.standard)
    for x, claims in zip(ctx.labelled, labels.claims, strict=True):
        section = next(s for s in sections if s.key == x.section)
        raw = ctx.standard.raw()
        section.claims.update({c.key: raw[c.key] for c in claims})

    def write() -> None:
        table = strong_table(ctx, labels)
        ctx.found["strong"] = table
        for s in sections:
            mine = table[table.section == s.key].drop(columns="section").reset_index(drop=True)
            if mine.empty:
                continue
            s.tables[f"strong_{s.key.split('-', 1)[-1].replace('-', '_')}"] = mine
            s.findings += [strong_sentence(r) for r in mine.itertuples()]
        ctx.records["strong_play"] = {
            "line_up": {int(n): ctx.strong_policy(int(n))[0]
                        for n in sorted(table.players.unique())},
            "games": {int(n): ctx.strong_policy(int(n))[1]
                      for n in sorted(table.players.unique())},
            "why": {int(n): ctx.strong_policy(int(n))[2] for n in sorted(table.players.unique())},
            "findings": len(table), "labels": table.label.value_counts().to_dict()}
    ctx.after.append(write)


def strong_table(ctx: Runs, labels: Labels) -> pd.DataFrame:
    """The labels of a report's findings with both effects and their change in the unit
    people read (pp for rates), with 95% intervals."""
    out = labels.table()
    rows = []
    for x, r, claims in zip(ctx.labelled, out.itertuples(), labels.claims, strict=True):
        scale = 100 if x.unit == "pp" else 1
        row = {"section": x.section, "finding": x.finding.name, "players": x.players,
               "unit": x.unit}
        for side, c in zip(("measured", "strong", "change"), claims, strict=True):
            (lo, hi), (alo, ahi) = c.estimate.ci, c.decision_ci
            row |= {side: scale * c.estimate.effect, f"{side}_ci_low": scale * lo,
                    f"{side}_ci_high": scale * hi, f"{side}_ci_low_adjusted": scale * alo,
                    f"{side}_ci_high_adjusted": scale * ahi}
            if side != "change":
                row[f"{side}_games"] = c.estimate.games
        rows.append({**row, "measured_line_up": x.line_up, "strong_line_up": x.policy,
                     "paired": r.paired, "smallest": scale * r.smallest,
                     "class_measured": r.class_measured, "class_strong": r.class_strong,
                     "class_change": r.class_change, "p_change": r.p_change,
                     "label": r.label, "games_to_settle": r.settle_games, "why": r.why})
    return pd.DataFrame(rows)


def _signed(value: float, unit: str, named: bool = True) -> str:
    number = unsigned_zero(f"{value:+.1f}" if unit == "pp" else f"{value:+.2f}", True)
    return f"{number} {unit}" if named else number


def strong_sentence(r) -> str:
    """One labelled finding in words, from its row of the strong-play table: each estimate
    with its 95% interval, the Holm-adjusted interval its class was decided on, and the
    class."""
    def side(name: str, cls: str) -> str:
        lo, hi, alo, ahi = (_signed(getattr(r, f"{name}_ci_{end}"), r.unit, False)
                            for end in ("low", "high", "low_adjusted", "high_adjusted"))
        return (f"{_signed(getattr(r, name), r.unit)} [{lo}, {hi}] (Holm-adjusted "
                f"[{alo}, {ahi}], {cls})")
    tail = ""
    if r.label == "unresolved":
        tail = settle_text(r.games_to_settle, min(r.measured_games, r.strong_games),
                           "per line-up")
        tail = f"; {tail}" if tail else ""
    elif r.label == "not comparable":
        tail = f": {r.why}"
    elif r.label in ("weakens", "strengthens"):
        tail = f" (the change is {side('change', r.class_change)})"
    return (f"Under strong play ({r.strong_line_up}, {r.strong_games:,} games): {r.finding} is "
            f"{side('measured', r.class_measured)} with {r.measured_line_up} play and "
            f"{side('strong', r.class_strong)} with {r.strong_line_up}, smallest effect "
            f"±{abs(r.smallest):.2g} {r.unit}: {r.label.upper()}{tail}.")


def ladder_policies(game: str, games: int, players: int, policies=None, why: str = ""):
    """The ladder's `policies` (None: every built-in policy and the bundled tuned one) and
    why any are left out: below `AFFORDABLE` games per configuration, the search policies."""
    from ..analysis.ladder import SEARCH_KINDS, default_field

    field = policies or default_field(game, players)
    searching = [p for p in field if p.split(":")[0].strip() in SEARCH_KINDS]
    if policies is None and searching and games < AFFORDABLE:
        policies = [p for p in field if p not in searching]
        why = f"a search policy, played from {AFFORDABLE:,} games per configuration up"
    return policies, why


def report_seating(game: str, games: int, studies: list[str]):
    """The kinds a report's kernels are compiled for (`sim.kernel.seating`): with the ladder
    among its studies, every kind of its field, so that the other studies' line-ups take the
    ladder's kernels instead of compiling their own (a flag only keeps code in a kernel: the
    games are the same either way); without it, none."""
    from ..analysis.ladder import default_field
    from ..sim.agents import resolve_policy
    from ..sim.kernel import seating

    if "ladder" not in studies:
        return seating([])
    # the kinds are those of every player count's field: the tuned policies are of built-in kinds
    names = ladder_policies(game, games, 2)[0] or default_field(game, 2)
    return seating([resolve_policy(game, p) for p in names])


def ladder_findings(ctx: Runs, s: Section, lad, players: int) -> None:
    """The ladder's claims (analysis.ladder.Standings) under the report's standard, made
    once every study ran (a pair another section measured head to head, `Runs.versus`, is
    that section's claim), in words once it is settled, and its headline as the section's
    key finding."""
    made = []

    def register() -> None:
        known = {(a, b): v for (n, a, b), v in ctx.pairs.items() if n == players}
        made.append(ctx.collect(s, lambda standard: lad.standings(standard, ctx.smallest,
                                                                  known)))
    ctx.before.append(register)
    ctx.after.append(lambda: ctx.found.update(
        ladder={"players": players, "strongest": made[0].strongest()}))
    s.later(lambda: made[0].sentences())
    s.key_findings(lambda: [(made[0].headline(), "the strong line-up that re-measures the key "
                             "findings is " + strong_rank(ctx, players))])


def strong_rank(ctx: Runs, players: int) -> str:
    """Where the ladder puts the strong line-up's policy at its player count, in words."""
    policy = ctx.strong_policy(players)[0] if ctx.strong else None
    found = ctx.found.get("ladder")
    if policy is None:
        return "not measured: no strong line-up at this player count"
    if found is None or found["players"] != players:
        return f"{policy} (not rated on this report's ladder)"
    group = found["strongest"]
    if group == [policy]:
        return f"{policy}, the ladder's strongest policy"
    if policy in group:
        return f"{policy}, not distinguishable from the ladder's strongest ({names_text(group)})"
    return f"{policy}; the ladder rates {names_text(group)} above it"


def ladder_section(ctx: Runs, order: int, players: int, policies=None,
                   why: str = "") -> Section:
    """The skill ladder at the report's main player count (analysis.ladder): every built-in
    policy and the bundled tuned one (or `policies`, `why` saying what is left out) rated
    against each other with seats rotated."""
    from ..analysis.ladder import default_field, ladder

    policies, why = ladder_policies(ctx.game, ctx.games, players, policies, why)
    spend = budgets(ctx.games, ctx.ladder_games)
    games, search_games = spend["ladder_games"], spend["search_games"]
    lad = ladder(ctx.game, players, policies=policies, games=games, seed=ctx.seed,
                 threads=ctx.threads, components=ctx.components, search_games=search_games)
    left = [p for p in default_field(ctx.game, players) if p not in lad.policies]
    ctx.tick()
    prov = lad.provenance
    s = Section("9-ladder", order, "Skill ladder",
                f"{len(lad.policies)} policies ({', '.join(lad.policies)}) at "
                f"{prov.get('tables')} tables of {players}, each table in all its seat "
                f"assignments equally often on shared deals, {games:,} games per table "
                + (f"({search_games:,} at a table seating a search policy or the exact kind, "
                   "which cost tens of times more a game) "
                   if lad.provenance.get("search_games_per_table") else "")
                + f"(each rounded up to whole rounds of the table's seat assignments; "
                f"{lad.games:,} in all). A rating is a Bradley-Terry log-strength fitted to "
                "who finished ahead of whom (won, then score; a tie counts half): A finishes "
                "ahead of B with chance 1 / (1 + exp(rating_B - rating_A)); greedy, the "
                "line-up of the other sections, is rated 0 when in the field. Intervals: 95% "
                "bootstrap over deals; pairwise shares: 95% Wilson intervals. A policy is "
                "named strongest only when it finishes ahead of every other policy "
                "meaningfully more than half the time under the report's standard (a pair "
                "another section plays head to head: as measured there)."
                + (f" Left out: {', '.join(left)} ({why})." if left else ""))
    ratings, pairwise = lad.ratings.copy(), lad.pairwise.copy()
    s.tables["ladder_ratings"] = ratings
    s.tables["ladder_pairwise"] = pairwise
    note = f"n = {lad.games:,} games, seed {ctx.seed}"
    s.figure("ladder", F.bars(ratings, "policy", "rating", "ci_low", "ci_high",
                              f"Skill ladder, {ctx.players_label(players)}", note,
                              ylabel="rating (Bradley-Terry log-strength)", ref=0.0),
             ctx.caption("Bradley-Terry rating of each policy, strongest first",
                         ", ".join(lad.policies) + " (every seat assignment)", players,
                         games=lad.games, interval="95% bootstrap CIs over deals"))
    order_ = list(ratings.policy)
    share, lo, hi = (pairwise.pivot(index="policy", columns="opponent", values=c)
                     .reindex(index=order_, columns=order_) * 100
                     for c in ("share", "ci_low", "ci_high"))
    s.figure("ladder_pairwise",
             F.heatmap(share.rename_axis(index="policy", columns="opponent"), lo, hi,
                       "Share of meetings the row policy finished ahead", note,
                       "row policy ahead (%)"),
             ctx.caption("Share of meetings (%) the row policy finished ahead of the column "
                         "policy, 95% CI in brackets", ", ".join(lad.policies), players,
                         games=lad.games))
    ladder_findings(ctx, s, lad, players)
    ctx.records["ladder"] = prov
    return s


# ---------------------------------------------------------------- luck and skill


def luck_section(ctx: Runs, order: int, players, opponents=("greedy", "random")) -> Section:
    """Luck and skill at each player count: the strong line-up's policy (the strongest rated
    one the report plays; the game's default policy without one) in one seat against copies
    of each of `opponents`, every deal played in each seat rotation (analysis.luck): its win
    rate against the fair share, and how much of a seat's result skill, the deal and the
    chance of play decide."""
    spec = get_game(ctx.game)
    s = Section("0-luck", order, "Luck and skill",
                "How much of a result the players' skill decides. At each player count the "
                "strongest policy the report plays (the strong line-up's) sits in one seat "
                "against copies of greedy, then of random; every deal is played once in each "
                "rotation of the seats (duplicate play: the same deal, every policy in every "
                "seat). Its win rate is given against the fair share 1/players (95% interval "
                "by the delta method over deals), and the variance of a seat's result (a win "
                "1, a shared win 1/k) is split into skill (which policy sits there), the deal "
                "(what the deal gives the seat whoever plays it) and the rest (the chance of "
                "play: dice, later draws), as omega squared with 95% bootstrap intervals over "
                "deals (docs/reading-reports.md, Luck and skill).")
    table = _luck_table(ctx, spec, players, opponents)
    if table.empty:
        return s
    table = table.drop(columns="deals").rename(columns={"results": "seat_results"})
    s.tables["luck_and_skill"] = table
    _luck_figure(ctx, s, table, players)
    s.findings += [_luck_line(ctx, r) for r in table.itertuples()]
    main = table[table.players == (4 if 4 in set(table.players) else table.players.iloc[0])]

    def summary() -> list[str]:
        out = [_luck_count_line(ctx, table, n)
               for n in sorted(set(table.players), key=lambda k: (k != 4, k))]
        n = int(main.players.iloc[0])
        out.append(f"The strongest policy measured, {strong_rank(ctx, n)}.")
        return out
    s.summary.append(summary)
    greedy = main[main.opponents == spec.default_policy]
    if len(greedy):
        r = greedy.iloc[0]
        weaker = main[main.opponents != spec.default_policy]
        s.key_findings(lambda: [(_luck_line(ctx, r), _luck_meaning(r, weaker))])
    return s


def _luck_table(ctx: Runs, spec, players, opponents) -> pd.DataFrame:
    """One row per player count and opponent: the strongest policy's win rate over deals
    and the variance decomposition of a seat's result."""
    from ..sim.agents import resolve_policy

    rows = []
    for n in players:
        best = (ctx.strong_policy(n)[0] if ctx.strong else None) or spec.default_policy
        name = resolve_policy(ctx.game, best).name
        deals = max(LADDER_MIN, ctx.games // n)
        for opp in opponents:
            if opp == best:
                continue
            lineup = [best] + [opp] * (n - 1)
            res = duplicate_results([ctx.sim(rot, games=deals, rotate=False, players=n)
                                     for rot in rotations(lineup)])
            wr, lo, hi = win_rate_over_deals(res, name)
            dec = decompose(res, seed=ctx.seed)
            rows.append({"players": n, "policy": best, "opponents": opp, "deals": deals,
                         "win_rate": wr, "win_rate_ci_low": lo, "win_rate_ci_high": hi,
                         "fair_share": 1 / n, **dec.row()})
    return pd.DataFrame(rows)


def _luck_figure(ctx: Runs, s: Section, table: pd.DataFrame, players) -> None:
    plot = table.assign(against=table.policy + " vs " + table.opponents,
                        **{c.replace("_share", ""): 100 * table[c]
                           for c in ("skill_share", "skill_share_ci_low",
                                     "skill_share_ci_high")})
    s.figure("luck_and_skill",
             F.bars(plot, "against", "skill", "skill_ci_low", "skill_ci_high",
                    "Share of a seat's result that skill decides", ctx.note(), hue="players",
                    ylabel="skill share of the variance (%)", legend=ctx.players_label,
                    xlabel="line-up"),
             ctx.caption("Skill share (omega squared) of the variance of a seat's result",
                         "the strong line-up's policy in one seat, greedy or random in the "
                         "others, every seat rotation on each deal", list(players),
                         interval="95% bootstrap CIs over deals"))


def _luck_line(ctx: Runs, r) -> str:
    """One row of the luck table as a finding."""
    others = f"{r.players - 1} {r.opponents} player" + ("s" if r.players > 2 else "")
    return (f"{ctx.players_label(r.players)}: {r.policy} wins {pct(r.win_rate)} "
            f"[{pct(r.win_rate_ci_low)}, {pct(r.win_rate_ci_high)}] against {others} "
            f"(fair share {pct(r.fair_share)}); skill decides "
            f"{pct(r.skill_share)} [{pct(r.skill_share_ci_low)}, "
            f"{pct(r.skill_share_ci_high)}] of the variance of a seat's result, the "
            f"deal {pct(r.deal_share)} [{pct(r.deal_share_ci_low)}, "
            f"{pct(r.deal_share_ci_high)}], the chance of play the rest.")


def _luck_count_line(ctx: Runs, table: pd.DataFrame, n: int) -> str:
    """One player count in a line: the strongest policy against greedy and random, and
    the skill and deal shares against greedy."""
    rows = table[table.players == n].set_index("opponents")
    r = rows.iloc[0]
    wins = "; ".join(f"wins {pct(x.win_rate)} [{pct(x.win_rate_ci_low)}, "
                     f"{pct(x.win_rate_ci_high)}] against {opp}" for opp, x in rows.iterrows())
    return (f"Luck and skill, {ctx.players_label(n)}: {r.policy} {wins} (fair share "
            f"{pct(r.fair_share)}); against {rows.index[0]} skill decides "
            f"{pct(r.skill_share)} [{pct(r.skill_share_ci_low)}, "
            f"{pct(r.skill_share_ci_high)}] of a seat's result and the deal "
            f"{pct(r.deal_share)} [{pct(r.deal_share_ci_low)}, "
            f"{pct(r.deal_share_ci_high)}].")


def _luck_meaning(r, weaker: pd.DataFrame) -> str:
    """The key finding's design meaning: ten games against greedy players, and how much the
    deal and skill decide."""
    against = "".join(f"; against {x.opponents} players skill decides {pct(x.skill_share)}"
                      for x in weaker.itertuples())
    return (f"over ten games against {r.players - 1} greedy "
            f"player{'s' if r.players > 2 else ''} the strongest policy "
            f"wins about {10 * r.win_rate:.0f} where a fair share is {10 / r.players:.1f}; "
            f"between {r.policy} and greedy players a seat's result is {pct(r.deal_share)} "
            f"the deal's and {pct(r.skill_share)} the players' skill{against}")


Study = tuple[Callable[[Runs], Section], int]  # (function, runs it adds to the cache)


def build_report(game: str, title: str, studies: dict[str, Study], out, games: int, seed: int,
                 chosen=None, threads=None, components=None, progress=True,
                 runs_type: type[Runs] = Runs, min_games: int = 10,
                 meta: dict | None = None, strong: str | None = STRONG,
                 strong_games: int | None = None, ladder_games: int | None = None,
                 smallest: Smallest | None = None, words: dict | None = None,
                 tolerances=None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (`strong`, None for greedy only), test every claim under one standard against
    the smallest effects of interest (`smallest`, default `Smallest()`), save the sections
    and render the report (`words`: plain words for its knob and column names), opening
    with the verdict against `tolerances` (analysis.verdict; default: its defaults)."""
    names = list(studies) if chosen is None else entries(chosen, "studies")
    bad = [n for n in names if n not in studies]
    if bad:
        raise InputError(f"unknown study {bad[0]!r}; choose from {', '.join(studies)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < min_games:
        raise InputError(f"games must be a whole number >= {min_games}, got {games!r}")
    for name, value in (("strong games", strong_games), ("ladder games", ladder_games)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < min_games):
            raise InputError(f"{name} must be a whole number >= {min_games}, got {value!r}")
    if strong is not None:
        from ..sim.agents import resolve_policy

        strong = str(strong).strip()
        if strong != STRONG:
            resolve_policy(game, strong)  # an unknown policy fails here, before any game
    smallest = smallest or Smallest()
    tolerances = fill_tolerances(game, tolerances)
    out = Path(out)
    if components is not None:  # a variant file's knobs are played by every study
        components = load_variant(game, components)
    with exclusive(out):  # one writer from the claim to the last file
        claim_report_folder(out, game, seed, games, components, smallest=smallest)
        key = _report_key(out, game, {
            "title": title, "studies": names, "games": games, "seed": seed,
            "components": components_record(game, components) if components is not None
            else None, "strong": strong, "strong_games": strong_games,
            "ladder_games": ladder_games, "smallest": smallest.record(),
            "tolerances": tolerances, "meta": meta, "words": words, "runs": runs_type.__name__})
        kept = run_cache.load_files(key) if key else None
        if kept is not None:
            return _copy_report(out, kept)
        path = _build(game, title, studies, names, out, games, seed, threads, components,
                      progress, runs_type, meta, strong, strong_games, ladder_games, smallest,
                      words, tolerances)
        if key:
            run_cache.store_files(key, {p.relative_to(out).as_posix(): p.read_bytes()
                                        for p in sorted(out.rglob("*")) if _reported(out, p)})
        return path


def _report_key(out: Path, game: str, settings: dict) -> str | None:
    """The run cache's key of a whole report made with `settings` by this code (and the game
    package's tuned tables and data), or None where `out` already holds a report of the
    same run, which a study re-run alone adds to (its files are not the settings' alone)."""
    from ..sim.registry import game_folder

    if (out / PROVENANCE_FILE).exists() or (out / SECTIONS).exists() or \
            not run_cache.enabled():
        return None
    return run_cache.files_key({"report": game, **settings}, game_folder(game))


def _reported(out: Path, path: Path) -> bool:
    """Whether `path` is one of the report's own files (not the folder's lock, its list of
    snapsim's files or a staging folder)."""
    rel = path.relative_to(out)
    return path.is_file() and not any(part.startswith(".") for part in rel.parts)


def _copy_report(out: Path, kept: dict[str, bytes]) -> Path:
    """Write a report kept in the run cache into `out`, whole, its provenance saying so: the
    same settings and code made it before, so every file is what a new build would write."""
    with staged(out) as stage:
        for name, data in kept.items():
            path = stage.path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if name == PROVENANCE_FILE:
                data = json.dumps({**json.loads(data), "report_from_cache": True},
                                  indent=1).encode()
            path.write_bytes(data)
    return out / "index.html"


def _build(game, title, studies, names, out: Path, games, seed, threads, components, progress,
           runs_type, meta, strong, strong_games, ladder_games, smallest, words,
           tolerances) -> Path:
    runs = runs_type(game, games, seed, threads, components, strong=strong,
                     strong_games=strong_games, ladder_games=ladder_games, smallest=smallest,
                     out=out, tolerances=tolerances)
    runs.records["smallest_effect"] = smallest.record()
    total = sum(studies[n][1] for n in names)
    with (report_seating(game, games, names),
          tqdm(total=total, unit="run", desc=f"{game} report", disable=not progress) as bar):
        # each study has its share of the bar, the runs it adds (more with the strong
        # line-up's, fewer when it reuses others'): a run advances the bar within the share,
        # a study done fills it, so the bar ends at its total
        runs.bar = bar
        sections = []
        for n in names:
            runs.bar_cap += studies[n][1]
            bar.set_description(f"{game} report: {n}")  # the study running, by name
            sections.append(studies[n][0](runs))
            bar.update(runs.bar_cap - bar.n)
    runs.finish(sections, saved_claims(out, {s.key for s in sections}))
    runs.records["standard"] = {"method": runs.standard.method, "claims": len(runs.standard),
                                "alpha": runs.standard.alpha}
    verdict = runs.headline()
    runs.records["verdict"] = {**verdict_record(game, runs.tolerances),
                               "claims": int((verdict.rows["class"] != "").sum())}
    table = runs.found.get("strong")
    if table is not None:
        counts = table.label.value_counts()
        meta = {**(meta or {}), "strong line-up": (
            ", ".join(dict.fromkeys(table.strong_line_up)) + f": {len(table)} findings, "
            + ", ".join(f"{counts[k]} {k}" for k in LABELS if counts.get(k, 0)))}
    with staged(out) as stage:  # each file appears whole; provenance.json comes last
        for section in sections:
            section.save(stage.path)
        verdict.table().to_csv(stage.path / "verdict.csv", index=False)
        stage.commit()  # the report renders every section in the folder, old and new
        runs.out = out
        record = report_provenance(game, runs, names)
        (stage.path / PROVENANCE_FILE).write_text(json.dumps(record, indent=1))
        standard = (f"Every claim in this report is an estimate classed against the smallest "
                    f"effects of interest ({smallest.text()}), or a ranking, tested under one "
                    f"standard: {runs.standard.text()}.")
        return write_report(out, Report(title, {"games per configuration": f"{games:,}",
                                                "seed": seed, **(meta or {}),
                                                "snapsim": __version__}, footer(record),
                                        words=words or {}, standard=standard,
                                        guide="strategy.md",
                                        verdict=(verdict.title(title.split(":")[0].split(
                                            " - ")[0]), verdict.lines(), verdict.note()),
                                        dealt_first=dealt_first(game)),
                            into=stage.path)


def saved_claims(out: Path, rebuilt: set[str]) -> dict[str, float]:
    """The raw p-values of the claims of every section saved in `out` that is not being
    rebuilt: a study re-run alone is corrected together with the others' claims."""
    kept: dict[str, float] = {}
    for path in sorted((out / SECTIONS).glob("*.json")) if (out / SECTIONS).is_dir() else []:
        try:
            meta = json.loads(read_text(path))
        except (OSError, ValueError):
            continue
        if meta.get("key") not in rebuilt:
            kept.update(meta.get("claims", {}))
    return kept


SAME_RUN = ("game", "components", "seed", "games", "smallest_effect")  # what a report's
# folder keeps to itself


def claim_report_folder(out, game: str, seed: int, games: int, components=None,
                        force: bool = False, smallest: Smallest | None = None) -> None:
    """Refuse a folder that holds files snapsim did not write (even forced), another run's
    report (another game, component file, seed, n or smallest effects; a study re-run alone
    on the same run is welcome) or another snapsim output (a comparison, a rebalance).
    Forced, snapsim's files there are removed, so none of the old report's sections
    survives."""
    out = Path(out)
    if not claim_folder(out, kind="report"):
        return
    try:
        old = json.loads(read_text(out / PROVENANCE_FILE))
    except (OSError, ValueError):
        old = None
    if isinstance(old, dict) and "studies" in old:
        comps = components if components is not None else \
            get_game(game).load_components(None)
        comps_record = components_record(game, comps)
        new = {"game": game, "components": comps_record, "seed": seed,
               "games": games, "smallest_effect": (smallest or Smallest()).record()}
        key = next((k for k in SAME_RUN if old.get(k) != new[k]), None)
        if key is None:
            return
        was, now = (old.get(key), new[key]) if key != "components" else \
            ((old.get(key) or {}).get("file"), comps_record["file"])
        what = f"the report of another run ({key} {was}, not {now})"
    elif old is None and (out / SECTIONS).is_dir():
        return  # a report from before provenance.json: nothing to tell it apart by
    else:
        what = "another snapsim output that is not a report"
    if not force:
        raise InputError(f"{out} holds {what}; choose another --out or add --force to "
                         "replace it")
    clear_own(out)


def report_provenance(game: str, runs: Runs, studies: list[str]) -> dict:
    """What made a report: components and their SHA-256, seed, n, and every configuration
    its studies ran (knobs that differ from the defaults, policies)."""
    spec = get_game(game)
    comps = runs.components if runs.components is not None else spec.load_components(None)
    configs = [{**{k: df.attrs["provenance"][k]
                   for k in ("players", "knobs", "policies", "games")},
                **({"from_cache": True} if df.attrs.get("from_cache") else {})}
               for df in runs.cache.values()
               if isinstance(df, pd.DataFrame) and "provenance" in df.attrs]
    record = {"snapsim": __version__, "commit": commit(), "game": game,
              "components": components_record(game, comps), "seed": runs.seed,
              "games": runs.games, "studies": studies, "configurations": configs,
              "run_cache": {"runs": len(configs),
                            "from_cache": sum("from_cache" in c for c in configs)},
              # every table of games its studies asked for (ladder, fixes, card values too)
              "cached_tables": {k: run_cache.COUNTS[k] - runs._counted[k]
                                for k in run_cache.COUNTS},
              "strong": runs.strong, **runs.records}
    try:  # one study re-run alone keeps what the other studies recorded
        old = json.loads(read_text(Path(runs.out) / PROVENANCE_FILE)) if runs.out else {}
    except (OSError, ValueError):
        old = {}
    if all(old.get(k) == record[k] for k in ("game", "components", "seed", "games")):
        record["studies"] = list(dict.fromkeys(old.get("studies", []) + studies))
        seen = {json.dumps(c, sort_keys=True) for c in configs}
        record["configurations"] = configs + [c for c in old.get("configurations", [])
                                              if json.dumps(c, sort_keys=True) not in seen]
        for key, value in old.items():  # e.g. the ladder of a study not re-run
            record.setdefault(key, value)
    return record


# ---------------------------------------------------------------- smallest fixes

FIX_MEASURES = ("seat_spread", "first_player", "assignments", "length")  # a target's units


@dataclass(frozen=True)
class Problem:
    """One of a report's balance measures that may need a fix, and what rebalancing may
    change for it at which player counts; its target is the measure at the report's own
    tolerance (`Runs.tolerances`)."""

    name: str
    measure: str  # a headline measure with a rebalancing target of the same name
    edits: tuple[str, ...]
    players: tuple[int, ...]

    def target(self, tolerances: dict) -> str:
        """"seat_spread=2", or "length=A-B", from the report's tolerances."""
        tol = tolerances[self.measure]
        if isinstance(tol, tuple | list):
            return f"{self.measure}={tol[0]:g}-{tol[1]:g}"
        return f"{self.measure}={tol:g}"


def _headline_status(ctx: Runs, p: Problem) -> list[tuple[str, Status, str]]:
    """(line-up, status, line) of the problem's measure at each of its player counts under
    greedy play and the strong line-up, from the report's verdict."""
    verdict = ctx.headline()
    out = []
    for n in p.players:
        for lineup in ([None, "strong"] if ctx.strong else [None]):
            try:
                out.append((lineup or "greedy", verdict.status(p.measure, n, lineup),
                            verdict.line(p.measure, n, lineup)))
            except KeyError:  # not measured under this line-up (no strong policy bundled)
                continue
    return out


FIX_MEANING = {  # a fix's status, in what it means for the designer
    "recommended": "the patch beside this report holds under every line-up, on deals that "
                   "did not choose it: a change to try",
    "unconfirmed": "the patch met its target where it was chosen but not on fresh deals: not "
                   "a change to make yet",
    "compromise": "no change tried holds under every line-up: the best compromise is written "
                  "beside the report, not recommended; widen what may change or the tolerance",
    "none": "no change tried moves it nearer its tolerance",
    "already": "the fix search's own deals already meet the tolerance: nothing to change",
    "no fix needed": "nothing to change: the verdict finds it within its tolerance",
    "not settled": "whether it needs a change is not settled at this n: more games would tell",
}


def fixes_section(ctx: Runs, order: int, problems: list[Problem],
                  reference_games: int) -> Section:
    """"Smallest fixes found": for each problem the report's verdict classes not balanced
    under greedy play or the strong line-up, `snapsim rebalance` with the report's own
    tolerance as target, over both line-ups (worst case), with the candidates `budgets`
    gives (FIX_BUDGET from FULL_BUDGET games up) of a quarter of the report's games each,
    chosen on half the report's games on fresh deals and confirmed on as many others; the
    patch is written beside the report as fix-<name>.toml. A problem balanced under every
    line-up needs no fix, an unsettled one says what would settle it. `reference_games` is
    the report's committed size (its figure's note)."""
    lineups = ["greedy", ctx.strong] if ctx.strong else ["greedy"]
    s = Section("10-fixes", order, "Smallest fixes found",
                "For each balance measure the verdict finds not balanced, `snapsim rebalance` "
                "searched the fewest changes that bring it within the report's own tolerance "
                "under greedy play and under the strong line-up at once (their worst case), "
                "chose one on fresh deals and confirmed it on others that did not choose it "
                "(95% intervals, the confirmation's). The bundled card values are "
                "reconstructed, so these fixes show the method on them; run `snapsim "
                "rebalance` on your own component file for advice about your game.")
    tables, plotted, heads = [], [], []
    statuses = [_headline_status(ctx, p) for p in problems]
    searches = _fix_searches(ctx, [p for p, st in zip(problems, statuses, strict=True)
                                   if any(status == "not balanced" for _, status, _ in st)],
                             problems, lineups)
    for p, status in zip(problems, statuses, strict=True):
        heads.append(len(s.findings))  # each problem's first line is its key finding
        target = p.target(ctx.tolerances)
        found = {"target": target, "changes": [], "phrases": [], "lineups": ""}
        ctx.found.setdefault("fixes", {})[p.name] = found
        if p.name not in searches:
            _no_fix(ctx, s, p, status, found)
            continue
        r = _fix(ctx, s, p, target, found, searches[p.name])
        checks = r.checks_table()
        if len(checks):
            tables.append(checks.assign(problem=p.name))
            plotted += _fix_points(p, checks, lineups)
        ctx.records.setdefault("fixes", {})[p.name] = {
            k: r.provenance[k] for k in ("targets", "edits", "players", "lineups", "seed",
                                         "games", "budget", "evaluations", "verify_seed",
                                         "confirm_seed", "verify_games")}
    if tables:
        df = pd.concat(tables, ignore_index=True)
        s.tables["fixes"] = df[["problem"] + [c for c in df.columns if c != "problem"]]
    if plotted:
        _fixes_figure(ctx, s, problems, plotted, budgets(ctx.games)["verify_games"])
    s.key_findings(lambda: [(s.findings[k], FIX_MEANING.get(
        ctx.found["fixes"][p.name]["status"], "see section Smallest fixes found"))
        for k, p in zip(heads, problems, strict=True)])
    return s


def _no_fix(ctx: Runs, s: Section, p: Problem, statuses, found: dict) -> None:
    """A problem the verdict does not find unbalanced: no fix needed, or not settled."""
    settled = bool(statuses) and all(st == "balanced" for _, st, _ in statuses)
    found["status"] = "no fix needed" if settled else "not settled"
    found["lines"] = [f"{who}: {line}" for who, _, line in statuses]
    s.findings.append(f"{p.name}: {found['status']}: " + "; ".join(found["lines"])
                      + " (the verdict's intervals, Bonferroni over its line's claims).")
    ctx.tick()


def _fix_searches(ctx: Runs, needed: list[Problem], problems: list[Problem],
                  lineups: list) -> dict:
    """The rebalance of each problem `needed`, by name, run side by side (each on its own
    seed, the problem's place in `problems` added to the report's: the same result whatever
    runs beside it). A search spends much of its time in Python between batches; run
    together, one plays its games while the other chooses its next candidates. The threads
    are daemons: a report stopped with Ctrl-C does not wait for them."""
    import threading

    from .rebalance import rebalance

    spend = budgets(ctx.games)
    done: dict[str, object] = {}  # a problem's Rebalance, or what its search raised

    def search(p: Problem) -> None:
        try:
            done[p.name] = rebalance(
                ctx.game, [p.target(ctx.tolerances)], list(p.edits), components=ctx.components,
                players=list(p.players), games=spend["fix_games"],
                candidates=spend["fix_candidates"], verify_games=spend["verify_games"],
                lineups=lineups, seed=ctx.seed + problems.index(p), threads=ctx.threads)
        except BaseException as e:  # raised again in the report's own thread
            done[p.name] = e

    threads = [threading.Thread(target=search, args=(p,), name=f"snapsim-fix-{k}", daemon=True)
               for k, p in enumerate(needed)]
    for t in threads:
        t.start()
    if ctx.bar is not None and needed:
        ctx.bar.set_description(f"{ctx.game} report: fixes (searching "
                                + "; ".join(p.name for p in needed) + ")")
    for t in threads:
        while t.is_alive():  # the bar's clock goes on while the searches run
            t.join(timeout=1.0)
            if ctx.bar is not None:
                ctx.bar.refresh()
    for p in needed:
        failed = done[p.name]
        if isinstance(failed, BaseException):
            raise failed
    return done


def _fix(ctx: Runs, s: Section, p: Problem, target: str, found: dict, r):
    """One problem's rebalance `r`: its findings, and its patch written beside the report."""
    ctx.tick()
    found.update(status=r.status, changes=r.patch_changes, lineups=r.lineup_words(),
                 phrases=r.lineup_phrases(r.confirmed) if r.confirmed else [])
    slug = "".join(c if c.isalnum() else "-" for c in p.name.lower()).strip("-")
    verdict = r.verdict()
    s.findings.append(f"{p.name} (target {target}; may change {', '.join(p.edits)}): "
                      + verdict[0] + " " + "; ".join(
                          line.strip().removeprefix("- ") for line in verdict[1:]
                          if line.strip().startswith("- ")))
    s.findings += [f"{p.name}: {line.strip()}" for line in verdict[1:]
                   if line.strip().startswith(("after", "left", "where chosen"))]
    if r.patch is not None and ctx.out is not None:
        (Path(ctx.out) / f"fix-{slug}.toml").write_text(r.patch)
        record_written(ctx.out, [f"fix-{slug}.toml"])
        s.findings.append(f"{p.name}: the patch is fix-{slug}.toml beside this report"
                          f"{'' if r.met else ' (not recommended)'}.")
    return r


def _fix_points(p: Problem, checks: pd.DataFrame, lineups: list) -> list[dict]:
    """The figure's points of one fix: each target's ratio before, and after on the
    confirmation's deals under each line-up."""
    points = []
    after = checks[checks.deals == "confirmation"]
    for (n, key), rows in after.groupby(["players", "target"], sort=False):
        point = {"label": f"{p.name}: {key} ({n}p)",
                 "before": float(rows.baseline_ratio.max())}
        for side, name in zip(("greedy", "strong"), lineups, strict=False):
            mine = rows[rows.line_up == name]
            point[side] = float(mine.ratio.iloc[0]) if len(mine) else math.nan
        points.append(point)
    return points


def _fixes_figure(ctx: Runs, s: Section, problems: list[Problem], plotted: list[dict],
                  games: int) -> None:
    counts = sorted({n for p in problems for n in p.players})
    line_ups = ["greedy"] + [ctx.strong_policy(n)[0] or "" for n in counts if ctx.strong]
    s.figure("fixes", F.fix_targets(pd.DataFrame(plotted), ctx.note(games)),
             ctx.caption("Each fixed problem's target as value over tolerance before (grey) "
                         "and after the chosen fix on its confirmation deals, under greedy "
                         "play (blue) and the strong line-up (red); dashed: the tolerance, "
                         "at most 1 met",
                         ", ".join(dict.fromkeys(p for p in line_ups if p)), counts,
                         games, "each value's 95% CI in fixes.csv"))
