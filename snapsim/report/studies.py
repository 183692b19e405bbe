"""What every game's report shares: a cache of seeded runs, the build driver and the
command line of the `analyses/` scripts. A game supplies its studies (functions from a
run cache to a Section) and nothing else."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from tqdm import tqdm

from ..analysis import balance as B
from ..analysis.labels import Estimate, Finding, label_findings
from ..analysis.ladder import interval_text
from ..analysis.lineups import STRONG, strong_policy
from ..analysis.measures import seat_matrix
from ..analysis.paired import Ratio, spread_interval, spread_value
from ..analysis.stats import mean_interval, wilson_interval
from ..errors import InputError
from ..sim import get_game, simulate
from ..sim.checks import entries
from ..sim.files import read_text
from ..sim.locks import exclusive
from ..sim.provenance import PROVENANCE_FILE, components_record, footer
from ..sim.store import content, staged
from ..sim.variants import load_variant
from ..version import __version__
from . import figures as F
from .render import SECTIONS, Report, Section, write_report


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


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
    half = stats.norm.ppf(0.975) * np.std(r.influence(), ddof=1) / np.sqrt(len(r.num))
    return {name: r.value, f"{name}_ci_low": r.value - half, f"{name}_ci_high": r.value + half}


def seat_spread(df: pd.DataFrame, seed: int) -> dict:
    """Best minus worst seat's win rate with its 95% percentile bootstrap interval (whole
    games resampled)."""
    won = seat_matrix(df, "won")
    lo, hi = spread_interval(won, np.ones_like(won), seed=seed)
    return {"seat_spread": spread_value(won, np.ones_like(won)), "seat_spread_ci_low": lo,
            "seat_spread_ci_high": hi}


def seat_finding(seats: pd.DataFrame, players: int, label: str) -> str:
    """One line on the best and worst seat at a player count (from analysis.seat_advantage)."""
    sub = seats[seats.players == players]
    best, worst = sub.loc[sub.win_rate.idxmax()], sub.loc[sub.win_rate.idxmin()]
    sig = "significant" if sub.significant.any() else "not significant"
    return (f"{label}: seat {int(best.seat)} wins {pct(best.win_rate)} "
            f"[{pct(best.ci_low)}, {pct(best.ci_high)}], seat {int(worst.seat)} "
            f"{pct(worst.win_rate)}, fair {pct(1 / players)} ({sig} after Holm correction).")


def seat_advantage(ctx: Runs, s: Section, players, policy: str = "greedy",
                   labelled=None) -> pd.DataFrame:
    """The seat-advantage table and figure of a section: win rate by seat minus the fair
    share 1/players in pp with 95% Wilson intervals, one colour per player count; adds one
    finding per player count (the main count, 4, first) and returns the table. At the
    `labelled` counts (default all) the last seat's lead over the first is measured again
    under the strong line-up."""
    seats = B.seat_advantage(pd.concat([ctx.sim([policy], players=n) for n in players],
                                       ignore_index=True))
    seats["seat"] += 1
    for col, name in (("win_rate", ""), ("ci_low", "_ci_low"), ("ci_high", "_ci_high")):
        seats[f"vs_fair_pp{name}"] = 100 * (seats[col] - seats.fair_share)
    seats["label"] = [ctx.players_label(n) for n in seats.players]
    s.tables["seat_advantage"] = seats
    s.figure("seat_advantage",
             F.bars(seats, "seat", "vs_fair_pp", "vs_fair_pp_ci_low", "vs_fair_pp_ci_high",
                    "Win rate minus fair share, by seat", ctx.note(), hue="players",
                    ref=0.0, ylabel="win rate - 1/players (pp)", legend=ctx.players_label),
             ctx.caption("Win rate by seat minus the fair share 1/players, in percentage "
                         "points", [policy], players))
    s.findings += [seat_finding(seats, n, ctx.players_label(n))
                   for n in sorted(players, key=lambda k: (k != 4, k))]
    for n in sorted(players if labelled is None else labelled, key=lambda k: (k != 4, k)):
        ctx.label(s, f"{ctx.players_label(n)}: last seat's win rate minus the first seat's",
                  seat_gap(n), n)
    return seats


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
AFFORDABLE = 1000  # a search policy is played from this many games per configuration


LADDER_SHARE = 10  # the skill ladder plays games/10 games per table (at least LADDER_MIN)
LADDER_MIN = 24
# a table seating a search policy plays the ladder's games per table / this (at least
# LADDER_MIN): a searched game costs tens of times a heuristic one
SEARCH_SHARE = {"snapshot": 10, "yosemite": 10, "shutterbug": 10}


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


@dataclass(frozen=True)
class Effect:
    """A finding's effect under one line-up: a weighted sum of ratio measures over the same
    deals (a seat's win rate minus the fair share, a knob's change in game length) minus a
    reference value. Its error comes from the per-game linearisation (analysis.paired), so
    the effect under two line-ups dealt alike is compared game by game."""

    terms: tuple[tuple[float, Ratio], ...]
    ref: float = 0.0

    @property
    def value(self) -> float:
        return float(sum(c * r.value for c, r in self.terms) - self.ref)

    def influence(self) -> np.ndarray:
        """Per-game contributions: the error of their mean is the effect's error."""
        return sum(c * r.influence() for c, r in self.terms)

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
                rows=None) -> Callable[[LineUp], Effect]:
    """The measure "mean of `column` under `knobs` minus under `base` (default: the
    rulebook)", over every row or the rows `rows(df)` selects; both runs dealt alike."""
    def mean(df):
        keep = np.ones(len(df), bool) if rows is None else np.asarray(rows(df), bool)
        return game_ratio(df, np.where(keep, df[column], 0.0), keep)

    def measure(side: LineUp) -> Effect:
        return Effect(((1.0, mean(side.sim(players, **knobs))),
                       (-1.0, mean(side.sim(players, **(base or {}))))))
    return measure


@dataclass
class Labelled:
    """One finding measured under both line-ups, before its label (Holm across the report)."""

    section: str
    finding: Finding
    players: int
    policy: str  # the strong line-up's policy
    unit: str  # "pp" (a rate difference) or the unit of the effect
    base: str = "greedy"  # the policy the section measured the finding with


@dataclass
class Runs:
    """Settings shared by a report's studies and a cache of their runs, so sections reuse
    each other's games; each new run advances the report's progress bar by one."""

    game: str
    games: int
    seed: int
    threads: int | None = None
    components: object = None
    bar: object = None
    cache: dict = field(default_factory=dict)
    out: Path | None = None  # the report folder, once known
    strong: str | None = STRONG  # the strong line-up's policy; None: greedy only
    strong_games: int | None = None  # its games (default: `strong_policy`'s)
    ladder_games: int | None = None  # games per table of the skill ladder
    labelled: list[Labelled] = field(default_factory=list)
    records: dict = field(default_factory=dict)  # provenance beyond the cached runs

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
        if self.bar is not None:
            self.bar.update(1)

    def sim(self, policies, games: int | None = None, **knobs) -> pd.DataFrame:
        """The run of `policies` (one per seat, or one for all) on the report's seed; a run
        asked for again, in whatever words (one name for all seats, the default knobs
        spelled out), comes from the cache. A bundled tuned policy is known by its name."""
        from ..sim.agents import resolve_policy

        games = games or self.games
        config = self.config(**knobs)
        seats = get_game(self.game).players(config)
        policies = [str(p) for p in policies]
        key = ("sim", tuple(policies * seats if len(policies) == 1 else policies), games,
               repr(config))
        if key not in self.cache:
            self.cache[key] = simulate(self.game, policies=[resolve_policy(self.game, p)
                                                            for p in policies],
                                       games=games, seed=self.seed, threads=self.threads,
                                       config=config)
            self.tick()
        return self.cache[key]

    def strong_policy(self, players: int) -> tuple[str | None, int, str]:
        """(policy, games, why) of the strong line-up at `players` seats (`strong_policy`;
        None: none affordable): its share of the report's games (at least SEARCH_MIN) unless
        `strong_games` says."""
        choice, share, why = strong_policy(self.game, players, self.strong)
        games = self.strong_games or max(min(SEARCH_MIN, self.games), self.games // share)
        return choice, games, why

    def label(self, s: Section, name: str, measure: Callable[[LineUp], Effect | Estimate],
              players: int, unit: str = "pp", base: str = "greedy") -> None:
        """Measure one finding of section `s` with the policy the section measured it with
        (`base`) and under the strong line-up, both from the report's seed (game i dealt
        alike, so an `Effect` pairs game by game; an `Estimate` is taken as independent),
        and keep it for `strong_play` to label."""
        if self.strong is None:
            return
        policy, games, why = self.strong_policy(players)
        if policy is None:
            note = f"Not measured again under strong play: {why}."
            if note not in s.findings:
                s.findings.append(note)
            return
        greedy = measure(LineUp(self, lambda n: base, self.games))
        strong = measure(LineUp(self, lambda n: self.strong_policy(n)[0], games))
        if isinstance(greedy, Effect) and isinstance(strong, Effect):
            found = Finding(name, greedy.estimate(), strong.estimate(),
                            paired_change_se(greedy.influence(), strong.influence()))
        else:
            found = Finding(name, greedy, strong)
        self.labelled.append(Labelled(s.key, found, players, policy, unit, base))


def _signed(value: float, unit: str, named: bool = True) -> str:
    number = f"{value:+.1f}" if unit == "pp" else f"{value:+.2f}"
    return f"{number} {unit}" if named else number


def strong_play(ctx: Runs, sections: list[Section]) -> pd.DataFrame | None:
    """Label every finding measured under both line-ups (labels.label_findings: Holm across
    the findings of the studies built together) and add to each section its table (both
    effects with 95% CIs, the label, the games per line-up that would settle an open one)
    and one sentence per finding generated from those numbers."""
    if not ctx.labelled:
        return None
    labels = label_findings([x.finding for x in ctx.labelled])
    z = float(stats.norm.ppf(0.975))
    rows = []
    for x, r in zip(ctx.labelled, labels.itertuples(), strict=True):
        scale = 100 if x.unit == "pp" else 1
        row = {"section": x.section, "finding": x.finding.name, "players": x.players,
               "unit": x.unit}
        for side, est in (("greedy", x.finding.greedy), ("strong", x.finding.strong)):
            row |= {side: scale * est.effect, f"{side}_ci_low": scale * (est.effect - z * est.se),
                    f"{side}_ci_high": scale * (est.effect + z * est.se),
                    f"{side}_games": est.games}
        rows.append({**row, "greedy_line_up": x.base, "strong_line_up": x.policy,
                     "paired": r.paired,
                     "p_change_holm": r.p_change_holm, "label": r.label,
                     "games_to_settle": r.settle_games})
    table = pd.DataFrame(rows)
    for s in sections:
        mine = table[table.section == s.key].drop(columns="section").reset_index(drop=True)
        if mine.empty:
            continue
        s.tables[f"strong_{s.key.split('-', 1)[-1].replace('-', '_')}"] = mine
        for r in mine.itertuples():
            settle = ""
            if r.label == "inconclusive":
                settle = (f"; about {r.games_to_settle:,.0f} games per line-up would settle it"
                          if np.isfinite(r.games_to_settle) else "; no effect either way")
            elif r.label == "changes":
                settle = f" (Holm-corrected p of the change {r.p_change_holm:.3g})"
            s.findings.append(
                f"Under strong play ({r.strong_line_up}, {r.strong_games:,} games): "
                f"{r.finding} is {_signed(r.greedy, r.unit)} "
                f"[{_signed(r.greedy_ci_low, r.unit, False)}, "
                f"{_signed(r.greedy_ci_high, r.unit, False)}] with {r.greedy_line_up} play and "
                f"{_signed(r.strong, r.unit)} [{_signed(r.strong_ci_low, r.unit, False)}, "
                f"{_signed(r.strong_ci_high, r.unit, False)}] with {r.strong_line_up}: "
                f"{r.label.upper()}{settle}.")
    ctx.records["strong_play"] = {
        "line_up": {int(n): ctx.strong_policy(int(n))[0] for n in sorted(table.players.unique())},
        "games": {int(n): ctx.strong_policy(int(n))[1] for n in sorted(table.players.unique())},
        "why": {int(n): ctx.strong_policy(int(n))[2] for n in sorted(table.players.unique())},
        "findings": len(table), "labels": table.label.value_counts().to_dict()}
    return table


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


def ladder_section(ctx: Runs, order: int, players: int, policies=None,
                   why: str = "") -> Section:
    """The skill ladder at the report's main player count (analysis.ladder): every built-in
    policy and the bundled tuned one (or `policies`, `why` saying what is left out) rated
    against each other with seats rotated."""
    from ..analysis.ladder import default_field, ladder

    policies, why = ladder_policies(ctx.game, ctx.games, players, policies, why)
    games = ctx.ladder_games or max(LADDER_MIN, ctx.games // LADDER_SHARE)
    search_games = max(LADDER_MIN, games // SEARCH_SHARE.get(ctx.game, 1))
    lad = ladder(ctx.game, players, policies=policies, games=games, seed=ctx.seed,
                 threads=ctx.threads, components=ctx.components, search_games=search_games)
    left = [p for p in default_field(ctx.game, players) if p not in lad.policies]
    ctx.tick()
    prov = lad.provenance
    s = Section("9-ladder", order, "Skill ladder",
                f"{len(lad.policies)} policies ({', '.join(lad.policies)}) at "
                f"{prov.get('tables')} tables of {players}, each table in all its seat "
                f"assignments equally often on shared deals, {games:,} games per table "
                + (f"({search_games:,} at a table seating a search policy, which costs tens "
                   "of times more a game) " if lad.provenance.get("search_games_per_table")
                   else "")
                + f"({lad.games:,} in all). A rating is a Bradley-Terry log-strength fitted to "
                "who finished ahead of whom (won, then score; a tie counts half): A finishes "
                "ahead of B with chance 1 / (1 + exp(rating_B - rating_A)); greedy, the "
                "line-up of the other sections, is rated 0 when in the field. Intervals: 95% "
                "bootstrap over deals; pairwise shares: 95% Wilson intervals."
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
    top, low = ratings.iloc[0], ratings.iloc[-1]
    s.findings.append(f"Strongest: {top.policy}, rating {top.rating:+.2f} "
                      f"{interval_text(top.ci_low, top.ci_high, '+.2f')}; weakest: "
                      f"{low.policy}, {low.rating:+.2f} "
                      f"{interval_text(low.ci_low, low.ci_high, '+.2f')}.")
    if len(ratings) > 1:
        second = ratings.iloc[1]
        meet = pairwise[(pairwise.policy == top.policy) & (pairwise.opponent == second.policy)]
        if len(meet):
            m = meet.iloc[0]
            bounded = np.isfinite([top.ci_low, second.ci_high]).all()
            sep = ("apart" if top.ci_low > second.ci_high else "overlapping") if bounded \
                else "not both bounded"
            s.findings.append(f"{top.policy} finishes ahead of {second.policy} (second) in "
                              f"{pct(m.share)} [{pct(m.ci_low)}, {pct(m.ci_high)}] of "
                              f"{m.meetings:,} meetings; their rating intervals are {sep}.")
    if "greedy" in order_:
        above = order_[:order_.index("greedy")]
        s.findings.append("Rated above greedy, the policy every other section measures with: "
                          + (", ".join(above) if above else "none") + ".")
    ctx.records["ladder"] = prov
    return s


Study = tuple[Callable[[Runs], Section], int]  # (function, runs it adds to the cache)


def build_report(game: str, title: str, studies: dict[str, Study], out, games: int, seed: int,
                 chosen=None, threads=None, components=None, progress=True,
                 runs_type: type[Runs] = Runs, min_games: int = 10,
                 meta: dict | None = None, strong: str | None = STRONG,
                 strong_games: int | None = None, ladder_games: int | None = None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (`strong`, None for greedy only), save their sections, render the report."""
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
    out = Path(out)
    if components is not None:  # a variant file's knobs are played by every study
        components = load_variant(game, components)
    with exclusive(out):  # one writer from the claim to the last file
        claim_report_folder(out, game, seed, games, components)
        return _build(game, title, studies, names, out, games, seed, threads, components,
                      progress, runs_type, meta, strong, strong_games, ladder_games)


def _build(game, title, studies, names, out: Path, games, seed, threads, components, progress,
           runs_type, meta, strong, strong_games, ladder_games) -> Path:
    runs = runs_type(game, games, seed, threads, components, strong=strong,
                     strong_games=strong_games, ladder_games=ladder_games)
    total = sum(studies[n][1] for n in names)
    with report_seating(game, games, names):
        with tqdm(total=total, unit="run", desc=f"{game} report", disable=not progress) as bar:
            runs.bar = bar
            sections = [studies[n][0](runs) for n in names]
        table = strong_play(runs, sections)
    if table is not None:
        counts = table.label.value_counts()
        meta = {**(meta or {}), "strong line-up": (
            ", ".join(dict.fromkeys(table.strong_line_up)) + f": {len(table)} findings, "
            + ", ".join(f"{counts.get(k, 0)} {k}" for k in ("holds", "changes", "reverses",
                                                            "inconclusive")))}
    with staged(out) as stage:  # each file appears whole; provenance.json comes last
        for section in sections:
            section.save(stage.path)
        stage.commit()  # the report renders every section in the folder, old and new
        runs.out = out
        record = report_provenance(game, runs, names)
        (stage.path / PROVENANCE_FILE).write_text(json.dumps(record, indent=1))
        return write_report(out, Report(title, {"games per configuration": f"{games:,}",
                                                "seed": seed, **(meta or {}),
                                                "snapsim": __version__}, footer(record)),
                            into=stage.path)


SAME_RUN = ("game", "components", "seed", "games")  # what a report's folder keeps to itself


def claim_report_folder(out, game: str, seed: int, games: int, components=None,
                        force: bool = False) -> None:
    """Refuse a folder that holds another run's report (another game, component file, seed
    or n; a study re-run alone on the same run is welcome) or files that are no report.
    Forced, the old report's files are removed, so none of its sections survives."""
    from .sweep import _clear

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; give a folder for the report")
    if not out.exists() or not content(out):
        return
    if (out / PROVENANCE_FILE).exists():
        try:
            old = json.loads(read_text(out / PROVENANCE_FILE))
        except (OSError, ValueError):
            old = {}
        old = old if isinstance(old, dict) else {}
        comps = components if components is not None else \
            get_game(game).load_components(None)
        new = {"game": game, "components": components_record(game, comps), "seed": seed,
               "games": games}
        key = next((k for k in SAME_RUN if old.get(k) != new[k]), None)
        if key is None:
            return
        was, now = (old.get(key), new[key]) if key != "components" else \
            ((old.get(key) or {}).get("file"), new[key]["file"])
        what = f"the report of another run ({key} {was}, not {now})"
    elif (out / SECTIONS).is_dir():
        return  # a report from before provenance.json: nothing to tell it apart by
    else:
        what = "files that are not a snapsim report"
    if not force:
        raise InputError(f"{out} holds {what}; choose another --out or add --force to "
                         "replace it")
    _clear(out, None, force=True)


def report_provenance(game: str, runs: Runs, studies: list[str]) -> dict:
    """What made a report: components and their SHA-256, seed, n, and every configuration
    its studies ran (knobs that differ from the defaults, policies)."""
    spec = get_game(game)
    comps = runs.components if runs.components is not None else spec.load_components(None)
    configs = [{k: df.attrs["provenance"][k] for k in ("players", "knobs", "policies", "games")}
               for df in runs.cache.values()
               if isinstance(df, pd.DataFrame) and "provenance" in df.attrs]
    record = {"snapsim": __version__, "game": game,
              "components": components_record(game, comps), "seed": runs.seed,
              "games": runs.games, "studies": studies, "configurations": configs,
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

FIX_BUDGET = 3.0  # minutes per problem at the report's committed number of games


@dataclass(frozen=True)
class Problem:
    """One of a report's worst findings and the fix rebalancing looks for: targets, what may
    change, at which player counts."""

    name: str
    targets: tuple[str, ...]
    edits: tuple[str, ...]
    players: tuple[int, ...]


def fixes_section(ctx: Runs, order: int, problems: list[Problem],
                  reference_games: int) -> Section:
    """"Smallest fixes found": `snapsim rebalance` run on each problem (a budget of FIX_BUDGET
    minutes at `reference_games` report games, less in proportion for a smaller run), its
    verified patch with the targets before and after under greedy and strong play, and the
    patch written beside the report as fix-<name>.toml."""
    from .rebalance import rebalance

    # in proportion to the games, down to the least budget rebalance takes (a smoke-sized
    # report spends seconds on its fixes, not minutes)
    budget = max(0.1, FIX_BUDGET * min(1.0, ctx.games / reference_games))
    s = Section("10-fixes", order, "Smallest fixes found",
                "For the report's worst findings, `snapsim rebalance` searched the fewest "
                "changes that bring the game within a designer's targets and verified them on "
                "fresh deals under greedy play and under the strong line-up (95% intervals). "
                "The bundled card values are reconstructed, so these fixes show the method on "
                "them; run `snapsim rebalance` on your own component file for advice about "
                "your game.")
    tables, plotted = [], []
    for i, p in enumerate(problems):
        small = ctx.games < reference_games  # a smaller run verifies on its own n
        r = rebalance(ctx.game, list(p.targets), list(p.edits), components=ctx.components,
                      players=list(p.players), budget=budget, seed=ctx.seed + i,
                      threads=ctx.threads, strong=ctx.strong,
                      verify_games=max(10, ctx.games) if small else None)
        ctx.tick()
        slug = "".join(c if c.isalnum() else "-" for c in p.name.lower()).strip("-")
        head = (f"{p.name} (targets {', '.join(p.targets)}; may change "
                f"{', '.join(p.edits)})")
        verdict = r.verdict()
        s.findings.append(f"{head}: {verdict[0]} " + "; ".join(
            line.strip().removeprefix("- ") for line in verdict[1:]
            if line.strip().startswith("- ")))
        s.findings += [f"{p.name}: {line.strip()}" for line in verdict[1:]
                       if line.strip().startswith("after")]
        if r.patch is not None and ctx.out is not None:
            (Path(ctx.out) / f"fix-{slug}.toml").write_text(r.patch)
            s.findings.append(f"{p.name}: the patch is fix-{slug}.toml beside this report.")
        checks = r.checks_table()
        if len(checks):
            tables.append(checks.assign(problem=p.name))
        for row in r.base_checks.itertuples():
            label = f"{p.name}: {row.target} ({row.players}p)"
            point = {"label": label, "before": row.baseline_ratio}
            mine = (checks[(checks.target == row.target) & (checks.players == row.players)]
                    if len(checks) else checks)
            for check in mine.itertuples():
                side = "greedy" if check.line_up == r.provenance["line_up"] else "strong"
                point[side] = check.ratio
            plotted.append(point)
        ctx.records.setdefault("fixes", {})[p.name] = {
            k: r.provenance[k] for k in ("targets", "edits", "players", "seed", "games",
                                         "evaluations", "verify_seed", "verify_games",
                                         "strong")}
    if tables:
        df = pd.concat(tables, ignore_index=True)
        s.tables["fixes"] = df[["problem"] + [c for c in df.columns if c != "problem"]]
    if plotted:
        games = ctx.records["fixes"][problems[0].name]["verify_games"]
        counts = sorted({n for p in problems for n in p.players})
        line_ups = ["greedy"] + [ctx.strong_policy(n)[0] or "" for n in counts if ctx.strong]
        s.figure("fixes", F.fix_targets(pd.DataFrame(plotted), ctx.note(games)),
                 ctx.caption("Each problem's targets as value over tolerance before (grey) and "
                             "after the recommended fix, under greedy play (blue) and the "
                             "strong line-up (red); dashed: the tolerance, at most 1 met",
                             ", ".join(dict.fromkeys(p for p in line_ups if p)), counts,
                             games, "each value's 95% CI in fixes.csv"))
    return s
