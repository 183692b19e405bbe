"""Verification: a candidate measured again, on fresh deals and many games, against the base
game played on the same deals (the paired comparison of `snapsim compare`), under every
line-up; an ablation that takes one change out at a time; and the chosen patch's
confirmation on a second set of fresh deals, which did not choose it.

The search chose its candidates on its own deals, so their measured balance is optimistic
(the best of many noisy measurements); played again with another seed and more games, each
target's value, its 95% interval and its change from the base game say whether the patch
really meets it. The comparison's table is built by `analysis.comparison` from the same runs,
so it holds exactly the numbers `snapsim compare` gives for the patch file.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...sim import cache as run_cache
from ...sim.backends import make_backend
from ...sim.registry import get_game
from ..comparison import flag_table, measure_rows, side_measures
from ..extras import extra_measures
from ..normal import norm_ppf
from ..paired import ALPHA, Ratio, ratio_difference, spread_difference, spread_interval
from .edits import Candidate, EditSpace
from .lineups import LineUp
from .search import Outcome, noise
from .targets import KINDS, Items, Target, interval, items, resample

FRESH = 7_919  # a verification's seed is the search's plus this: fresh deals
CONFIRM = 2 * FRESH  # the chosen patch is confirmed on the search's seed plus this
NEAR = 3  # candidates verified per cost of the front: its point and those within its noise
EXTRA_VERIFY = 6  # candidates met in the search verified beyond the front, if none held


@dataclass
class Verification:
    """One candidate verified under every line-up.

    Attributes
    ----------
    label : str
        Its name ("patch", "front 3", "without <change>").
    cand : tuple
        Its changes.
    lineups : list of str
        The line-ups it was played under (their names; `checks.policy` says what played).
    games, seed : int
        Paired games per side, line-up and player count, and their seed.
    checks : pandas.DataFrame
        One row per line-up, player count and target: the base game's value and the
        candidate's with 95% intervals, the paired change with its interval, the tolerance,
        `met` (the candidate's value within it), `sure` (its whole interval within it) and
        `flipped` (its worst item lies on the other side of fair, or of the spread, than the
        same item in the base game).
    table : pandas.DataFrame
        The paired comparison's table under the first line-up (every measure, as
        `snapsim compare` gives it).
    items : dict
        (line-up, players, target) -> the candidate's per-game Items, for the paired effect
        of one change (an ablation) with its interval.
    """

    label: str
    cand: Candidate
    lineups: list[str]
    games: int
    seed: int
    checks: pd.DataFrame
    table: pd.DataFrame
    items: dict = field(default_factory=dict, repr=False)
    runs: dict = field(default_factory=dict, repr=False)  # with `tables`: the played runs,
    # ("base" or "patch", line-up, players) -> (df, config, cards), for the balance verdict

    @property
    def met(self) -> bool:
        """Every target met under every line-up."""
        return bool(self.checks.met.all())

    @property
    def ratio(self) -> float:
        """The worst ratio over every line-up and target."""
        return summary_ratio(self.checks)

    def under(self, lineup: str) -> pd.DataFrame:
        """The checks of one line-up."""
        return self.checks[self.checks.line_up == lineup]


class _Played:
    """`side_measures`'s runner over runs already played."""

    def __init__(self, tables, games, seed, threads):
        self.tables, self.games, self.seed, self.threads = tables, games, seed, threads

    def run(self, config, lineup, seed):
        return self.tables[id(config)]


def verify(space: EditSpace, targets: list[Target], cands: dict[str, Candidate],
           lineups: list[LineUp], games: int, seed: int, threads=None, workers=None,
           scheduler=None, reps: int = 1000, tables: bool = False) -> dict[str, Verification]:
    """Each candidate against the base game on `games` fresh paired deals per line-up and
    player count; one Verification per candidate label. With `tables`, each also gets the
    paired comparison's whole table (every measure) under the first line-up. The base game's
    runs are kept and each candidate's played and measured in turn, so memory holds one
    candidate's runs at a time."""
    game = space.game
    spec = get_game(game)
    counts = space.players
    backend = make_backend(game, space.base.config(counts[0]), lineups[0].seats(counts[0]),
                           threads, workers, scheduler)
    run = _Runs(game, spec, targets, games, seed, threads, backend, tables)
    try:
        base = run.play([(lu, n, space.base.config(n)) for lu in lineups for n in counts])
        out = {}
        for label, cand in cands.items():
            variant = space.variant(cand, f"{label}.toml")
            mine = run.play([(lu, n, variant.config(n)) for lu in lineups for n in counts])
            rows, checks, kept = [], [], {}
            for lu in lineups:
                for n in counts:
                    b, m = base[(lu.name, n)], mine[(lu.name, n)]
                    if tables and lu is lineups[0]:
                        rows += measure_rows(b.found, m.found, n, label, seed, True, reps)
                    for t in targets:
                        check = _check(t, game, n, b, m, seed, reps, spec.measures)
                        checks.append({"line_up": lu.name, "policy": lu.policy(n), **check})
                        kept[(lu.name, n, t.key)] = _items(t, game, m)
            table = (flag_table(pd.DataFrame(rows), spec.measures.outlier_groups)
                     if rows else pd.DataFrame())
            runs = ({(side, lu, n): (r.df, r.config, r.cards) for side, played in
                     (("base", base), ("patch", mine)) for (lu, n), r in played.items()}
                    if tables else {})
            out[label] = Verification(label, cand, [lu.name for lu in lineups], games, seed,
                                      pd.DataFrame(checks), table, kept, runs)
        return out
    finally:
        backend.close()


def effect(with_it: Verification, without: Verification, targets: list[Target],
           reps: int = 1000) -> pd.DataFrame:
    """One change's own effect, paired on the same deals: each target's value with the
    change (`with_it`) less its value without it, with a 95% bootstrap interval, per
    line-up and player count."""
    by_key = {t.key: t for t in targets}
    rows = []
    for (lu, n, key), mine in with_it.items.items():
        other = without.items[(lu, n, key)]
        t = by_key[key]
        x, y = resample([other, mine], reps, with_it.seed)
        lo, hi = interval(t.rows(y, n) - t.rows(x, n))
        rows.append({"line_up": lu, "players": n, "target": key,
                     "effect": t.value(mine.values, n) - t.value(other.values, n),
                     "effect_ci_low": lo, "effect_ci_high": hi})
    return pd.DataFrame(rows)


# verifies candidates by label: run(cands, seed=the verification's, tables=False)
Verify = Callable[..., dict[str, Verification]]


@dataclass
class Choice:
    """What verification decided: every candidate verified (by label), the base game's own
    verification, the chosen patch (None: the base game meets every target, or no candidate
    improves on it) with its confirmation, the ablation round that kept it, and how many
    changes pruning took out of the search's patch."""

    verified: dict[str, Verification]
    base: Verification
    chosen: str | None = None
    confirmed: Verification | None = None
    ablation: dict[str, Verification] = field(default_factory=dict)
    pruned: int = 0


def choose_patch(outcome: Outcome, space: EditSpace, targets: list[Target], size: bool,
                 run: Verify, confirm_seed: int) -> Choice:
    """Verify the search's front (and, when none of it holds, more of what the search found
    met) with the base game on fresh deals, choose the cheapest that holds, prune it, and
    confirm it on other deals (`confirm_seed`), which did not choose it."""
    labels = _near_front(outcome, space, targets, size)
    verified = run({"base": (), **labels})
    choice = Choice(verified, verified.pop("base"))
    if choice.base.met:
        return choice
    if not any(v.met for v in verified.values()):
        extra = _more_candidates(outcome, space, size, set(labels.values()))
        if extra:
            verified.update(run({f"candidate {i + 1}": c for i, c in enumerate(extra)}))
    pick = _prune(choose(list(verified.values()), space, size), choice, space, size, run)
    if pick is not None and not pick.met and pick.ratio >= choice.base.ratio:
        pick = None  # no candidate improves on the base game
    if pick is not None:
        choice.chosen = pick.label
        choice.confirmed = run({pick.label: pick.cand}, confirm_seed, tables=True)[pick.label]
    return choice


def _prune(pick: Verification | None, choice: Choice, space: EditSpace, size: bool,
           run: Verify) -> Verification | None:
    """Take out each change in turn: a smaller patch that meets every target under every
    line-up (or, when none does, whose worst ratio is lower: the change moved a target the
    wrong way) is a candidate like any other, and taken apart again; when several changes
    move a target the wrong way, the patch without all of them is tried too (one ablation
    round instead of one per change). Records the kept round and the count in `choice`."""
    while pick is not None and len(pick.cand) > 1:
        abl = run({f"without {space.vars[k].change(v)}":
                   tuple(c for c in pick.cand if c != (k, v)) for k, v in pick.cand})
        pool = [pick, *abl.values()]
        wrong = set(pick.cand) - set.intersection(
            *(set(v.cand) for v in abl.values() if v.ratio < pick.ratio), set(pick.cand))
        if not pick.met and 1 < len(wrong) < len(pick.cand):
            rest = tuple(c for c in pick.cand if c not in wrong)
            pool += run({f"without {len(wrong)} changes": rest}).values()
        best = choose(pool, space, size)
        if best is pick or best is None:
            choice.ablation = abl
            return pick
        choice.pruned += len(pick.cand) - len(best.cand)
        best.label = f"pruned {choice.pruned}"
        choice.verified[best.label] = best
        pick = best
    return pick


def choose(pool: list[Verification], space: EditSpace, size: bool) -> Verification | None:
    """The cheapest candidate that meets every target under every line-up (the lower worst
    ratio on a tie); when none does, the lowest worst ratio (the best compromise; the
    cheaper on a tie)."""
    valid = [v for v in pool if v.cand and math.isfinite(v.ratio)]
    met = [v for v in valid if v.met]
    if met:
        return min(met, key=lambda v: (space.cost(v.cand, size), v.ratio))
    return min(valid, key=lambda v: (v.ratio, space.cost(v.cand, size)), default=None)


def _near_front(outcome: Outcome, space: EditSpace, targets: list[Target],
                size: bool) -> dict[str, Candidate]:
    """The front's points, each with up to NEAR - 1 others of the same cost whose worst ratio
    is within twice the search's noise of it: at the search's n two candidates that close
    cannot be told apart, and verification on more games decides between them."""
    games = max(e.games for e in outcome.evaluations)
    valid = [e for e in outcome.evaluations if e.invalid is None and e.cand
             and math.isfinite(e.ratio) and e.games == games]
    out: dict[str, Candidate] = {}
    for i, point in enumerate((e for e in outcome.front if e.cand), start=1):
        c = space.cost(point.cand, size)
        near = sorted((e for e in valid if space.cost(e.cand, size) == c
                       and e.ratio <= point.ratio + 2 * noise(e, targets)
                       and e.cand != point.cand), key=lambda e: e.ratio)
        out[f"front {i}"] = point.cand
        seen = set(out.values())
        for j, e in enumerate((e for e in near if e.cand not in seen), start=1):
            if j >= NEAR:
                break
            out[f"front {i}, near {j}"] = e.cand
    return out


def _more_candidates(outcome: Outcome, space: EditSpace, size: bool,
                     seen: set) -> list[Candidate]:
    """Candidates the search measured as meeting every target, beyond the front's, cheapest
    first: verified when no front point held on fresh deals."""
    games = max(e.games for e in outcome.evaluations)
    met = sorted((e for e in outcome.evaluations
                  if e.invalid is None and e.ratio <= 1.0 and e.cand not in seen
                  and e.games == games),
                 key=lambda e: (space.cost(e.cand, size), e.ratio))
    return [e.cand for e in met[:EXTRA_VERIFY]]


@dataclass
class _Run:
    """One played run: its table, config, card values (for the cards target) and, when the
    whole comparison table is wanted, every measure."""

    df: pd.DataFrame
    config: object
    cards: list | None
    found: list | None
    memo: dict = field(default_factory=dict)  # `_kept`: items and check halves, once a run


def _items(t: Target, game: str, run) -> Items:
    """A target's items in a run (a _Run's measured once and kept; a comparison's side, as
    analysis.verdict passes, measured each time)."""
    return _kept(run, t, lambda: items(t, game, run.df, run.config, run.cards))


def _kept(run, key, compute):
    """`compute()` once per run and `key` (a _Run keeps it; a comparison's side does not):
    a target's items, and the base game's half of a check, the same for every candidate
    checked against it."""
    memo = getattr(run, "memo", None)
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]


class _Runs:
    def __init__(self, game, spec, targets, games, seed, threads, backend, full):
        self.game, self.spec = game, spec
        self.games, self.seed, self.threads, self.backend = games, seed, threads, backend
        self.full = full
        # the cards' values for a cards target, and with the whole table for the verdict
        self.cards = (any(t.kind == "cards" for t in targets)
                      or (full and spec.measures.levers.card_group is not None))

    def play(self, configs) -> dict:
        """(line-up name, players) -> _Run for each (line-up, players, config)."""
        tables = run_cache.simulate_many(self.game,
                                         [(cfg, lu.seats(n)) for lu, n, cfg in configs],
                                         self.games, self.seed, backend=self.backend)
        mspec = self.spec.measures
        out = {}
        for (lu, n, cfg), df in zip(configs, tables, strict=True):
            found = cards = None
            if self.full:
                played = _Played({id(cfg): df}, self.games, self.seed, self.threads)
                found = side_measures(played, cfg, lu.seats(n), mspec, {}, self.spec, n,
                                      self.seed)
            if self.cards:
                group = mspec.levers.card_group
                extra = ([(m.name, m.group, m.unit, m.ratio) for m in found] if found else
                         extra_measures(self.game, cfg, lu.seats(n), self.games, self.seed,
                                        self.threads))
                cards = [(name.split(": ", 1)[-1], ratio) for name, grp, _, ratio in extra
                         if grp == group]
            out[(lu.name, n)] = _Run(df, cfg, cards, found)
        return out


def _check(t: Target, game, n, base: _Run, mine: _Run, seed, reps, mspec) -> dict:
    """One target at one player count: both values with 95% intervals and the paired change
    with its interval. The seat spread and the game length use the paired comparison's own
    functions with its seed, so they equal `snapsim compare`'s rows for these runs; the
    others (a largest distance from fair, a spread of card values) a bootstrap over games."""
    base_it, it = _items(t, game, base), _items(t, game, mine)
    b, v = t.value(base_it.values, n), t.value(it.values, n)
    s = t.scale()
    if t.kind == "seat_spread":
        one = np.ones_like(base_it.num)
        b_ci = _kept(base, ("spread interval", t, seed, reps), lambda: tuple(
            x * s for x in spread_interval(base_it.num, one, seed=seed, reps=reps)))
        v_ci = tuple(x * s for x in spread_interval(it.num, one, seed=seed, reps=reps))
        d = spread_difference((base_it.num, one), (it.num, one), seed=seed, reps=reps)
        d_ci = tuple(x * s for x in d.ci)
    elif t.kind == "length":
        rb, rv = Ratio.mean(base_it.num[:, 0]), Ratio.mean(it.num[:, 0])
        z = norm_ppf(1 - ALPHA / 2)
        b_ci = _ratio_interval(rb, z)
        v_ci = _ratio_interval(rv, z)
        d_ci = ratio_difference(rb, rv).ci
    else:
        # each side's resamples, paired: the same games' counts (drawn from the seed)
        (x,) = _kept(base, ("resamples", t, seed, reps), lambda: resample([base_it], reps, seed))
        (y,) = resample([it], reps, seed)
        b_ci, v_ci = interval(t.rows(x, n)), interval(t.rows(y, n))
        d_ci = interval(t.rows(y, n) - t.rows(x, n))
    ratio = t.ratio(it.values, n)
    limit = _limits(t, n)
    return {"players": n, "target": t.key, "tolerance": t.text, "baseline": b,
            "baseline_ci_low": b_ci[0], "baseline_ci_high": b_ci[1], "value": v,
            "ci_low": v_ci[0], "ci_high": v_ci[1], "change": v - b,
            "change_ci_low": d_ci[0], "change_ci_high": d_ci[1], "ratio": ratio,
            "baseline_ratio": t.ratio(base_it.values, n), "met": bool(ratio <= 1.0),
            "sure": bool(limit[0] <= v_ci[0] and v_ci[1] <= limit[1]),
            "worst": _worst(t, it, n), "flipped": _flipped(t, base_it, it, n)}


def _ratio_interval(r: Ratio, z: float) -> tuple[float, float]:
    se = float(np.std(r.influence(), ddof=1) / math.sqrt(len(r.num)))
    return r.value - z * se, r.value + z * se


def _limits(t: Target, n: int) -> tuple[float, float]:
    """The range a target's headline value must lie in: [0, tol] for a spread or a distance
    from fair, [A, B] for a length."""
    if t.kind == "length":
        return t.floor, t.high
    return 0.0, t.high


def _worst(t: Target, it: Items, n: int) -> str:
    """The item furthest out: "Live Fast 31.2%", "seat 4 29.0% / seat 1 21.1%"."""
    v = it.values
    if not np.isfinite(v).any():
        return ""
    unit = KINDS[t.kind].unit
    show = (lambda x: f"{100 * x:.1f}%") if unit == "pp" else (lambda x: f"{x:.2f}")
    if KINDS[t.kind].shape == "spread":
        hi, lo = int(np.nanargmax(v)), int(np.nanargmin(v))
        return f"{it.names[hi]} {show(v[hi])} / {it.names[lo]} {show(v[lo])}"
    centre, _ = t.band(n)
    k = int(np.nanargmax(np.abs(v - centre)))
    return f"{it.names[k]} {show(v[k])}"


def _flipped(t: Target, base: Items, it: Items, n: int) -> bool:
    """The candidate's worst item lies on the other side than in the base game: for a
    spread, its best and worst items were the other way round in the base game; for a band,
    its item furthest from the centre was on the other side of it."""
    b, v = base.values, it.values
    if not np.isfinite(v).any() or not np.isfinite(b).any():
        return False
    if KINDS[t.kind].shape == "spread":
        hi, lo = int(np.nanargmax(v)), int(np.nanargmin(v))
        return bool(b[hi] < b[lo])
    centre, _ = t.band(n)
    k = int(np.nanargmax(np.abs(v - centre)))
    return bool((v[k] - centre) * (b[k] - centre) < 0)


def summary_ratio(checks: pd.DataFrame) -> float:
    """The worst ratio of a verification's checks (inf when none is finite)."""
    r = checks.ratio.to_numpy(float)
    return float(np.nanmax(r)) if np.isfinite(r).any() else math.inf
