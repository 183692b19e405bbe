"""A skill ladder: the built-in policies of a game played against each other and rated.

Tables: every set of `players` different policies of the field (or, when the field is
smaller than the table, the whole field with every choice for the seats left over), each
played in every distinct seat assignment equally often, so no policy keeps a seat or a
neighbour.
The assignments of one table share their deals (one seed per table), so a seat or a deal
favours nobody. Games go through `snapsim.simulate`: the same seed gives the same ladder
for any number of threads.

Rating: a Bradley-Terry model fitted by maximum likelihood with `choix` (iterative Luce
spectral ranking) on every pair of seats at a table that hold different policies: the one
that finished ahead (won, then higher score) beats the other, a full tie counts half to
each. Bradley-Terry is the pairwise marginal of Plackett-Luce; a batch maximum-likelihood
fit of all games at once does not depend on the order games were played in, as an online
rating (Elo, TrueSkill, OpenSkill) does, and its uncertainty comes from the data rather
than from a prior. A rating is a log-strength: the chance that A finishes ahead of B is
1 / (1 + exp(rating_B - rating_A)). Ratings are relative to greedy (0), the line-up the
reports measure with, when it is in the field, so an interval is that of the difference
from greedy (a weakly identified rating, such as random's, moves no other one); otherwise
they are centred on their mean. Confidence
intervals are percentile bootstraps (seeded) that resample whole deals (a table's game
index, all its seat assignments together), so the pairs of one game are never treated as
independent. A tiny regularisation (`ALPHA` pseudo-comparisons) keeps an unbeaten policy's
rating finite.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field

import choix
import numpy as np
import pandas as pd

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, entries, flag, whole
from .stats import wilson_interval

ALPHA = 0.01  # pseudo-comparisons between every pair: keeps an unbeaten rating finite
REPS = 500  # bootstrap resamples of the rating intervals
REFERENCE = "greedy"  # rating 0 when in the field: the reports' line-up
MAX_RUNS = 1000  # line-ups of one ladder, each with its rotations
SEARCH_KINDS = frozenset({"search", "rollout"})  # Monte Carlo kinds: far dearer per game
# kinds that cost tens of times a heuristic game or more, whose tables play `search_games`:
# the searches, and Snapshot's exact kind (an exhaustive preparation, about 130 times greedy)
DEAR_KINDS = SEARCH_KINDS | {"exact"}
MIN_DEALS = 10  # deals a bootstrap resamples before its intervals mean anything


def interval_text(lo: float, hi: float, fmt: str = "+.3f") -> str:
    """A rating interval for people: "[lo, hi]", or what stands in for one (NaN bounds: the
    reference, fixed at 0, or too little data to bound the rating)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "[no interval]"
    return f"[{lo:{fmt}}, {hi:{fmt}}]"


@dataclass
class Ladder:
    """Ratings and the pairwise record of one ladder, with what made it."""

    game: str
    players: int
    policies: list[str]
    ratings: pd.DataFrame  # policy, rating, ci_low, ci_high, games, win_rate
    pairwise: pd.DataFrame  # policy, opponent, meetings, ahead, share, ci_low, ci_high
    games: int  # games played in all
    seed: int
    provenance: dict = field(default_factory=dict)
    results: pd.DataFrame | None = None  # one row per (game, seat): deal, game, seat, policy,
    # won, score

    def standings(self, standard, smallest, known: dict | None = None) -> Standings:
        """What the ladder claims under `standard` against `smallest`, reusing the `known`
        claims of pairs measured elsewhere (`Standings`)."""
        return Standings(self, standard, smallest, known)

    def claims(self, smallest=None) -> list[str]:
        """The ladder's claims in words under a standard of their own (Holm across them):
        the strongest and weakest policies or tied groups, the top policy's lead, who
        finishes meaningfully ahead of greedy, and the top policy against greedy and random
        (luck and skill)."""
        from .effects import Smallest, Standard

        standard = Standard()
        st = self.standings(standard, smallest or Smallest())
        standard.settle()
        return st.sentences() + [f"Standard: {standard.text()}; smallest effect of interest "
                                 f"{(smallest or Smallest()).rate:g} pp of a share."]

    def summary(self) -> str:
        """The ratings as a few lines of text, strongest first."""
        lines = [f"{self.game} ladder, {self.players} players, {self.games:,} games, seed "
                 f"{self.seed} (Bradley-Terry log-strength"
                 f"{', greedy = 0' if REFERENCE in self.policies else ''}, 95% bootstrap CI)"]
        for r in self.ratings.itertuples():
            shown = "(reference)" if r.policy == self.provenance.get("reference") else \
                interval_text(r.ci_low, r.ci_high)
            lines.append(f"  {r.policy:<18} {r.rating:+7.3f}  {shown}  win rate "
                         f"{r.win_rate:.3f} over {r.games:,} seats")
        if self.ratings.ci_low.isna().any():
            lines.append(f"  [no interval]: too few deals ({MIN_DEALS} at least) or results "
                         "that cannot bound a rating (never or always ahead); play more games")
        return "\n".join(lines)


def default_field(game: str, players: int) -> list[str]:
    """Every built-in policy of `game`, and its bundled tuned policy for `players` seats."""
    from ..sim.registry import get_game

    spec = get_game(game)
    return list(spec.policy_kinds) + [n for n in spec.tuned_names() if n == f"tuned-{players}p"]


def tables(field_size: int, players: int) -> list[tuple[int, ...]]:
    """Policy indices at each table: `players` different policies, or, when the field is
    smaller than the table, the whole field with every choice of policies for the seats
    left over."""
    if field_size >= players:
        return list(itertools.combinations(range(field_size), players))
    return [tuple(sorted((*range(field_size), *extra))) for extra in
            itertools.combinations_with_replacement(range(field_size), players - field_size)]


def seatings(table: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct seat assignment of a table, in a fixed order."""
    return sorted(set(itertools.permutations(table)))


def rotations(table: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
    """The table's seat assignments grouped by cyclic rotation: (one line-up, how many
    distinct assignments its rotations make). A run of that line-up with seats rotated
    game by game plays each of them in turn."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for lineup in seatings(table):
        if lineup not in seen:
            orbit = {lineup[k:] + lineup[:k] for k in range(len(lineup))}
            seen |= orbit
            out.append((lineup, len(orbit)))
    return out


def table_seed(seed: int, table: int) -> int:
    """The seed of one table's deals: independent across tables, fixed by the ladder seed."""
    return int(np.random.SeedSequence([seed, table]).generate_state(1, dtype=np.uint32)[0])


def is_dear(game: str, policy) -> bool:
    """Is `policy` of one of the game's `DEAR_KINDS` (not a Python agent)?"""
    from ..sim.registry import get_game

    kinds = get_game(game).policy_kinds
    kind = getattr(policy, "kind", None)
    return isinstance(kind, int) and 0 <= kind < len(kinds) and kinds[kind] in DEAR_KINDS


def ladder(game: str, players: int | None = None, policies=None, games: int = 240,
           seed: int = 0, threads: int | None = None, components=None, reps: int = REPS,
           progress: bool = False, search_games: int | None = None, **knobs) -> Ladder:
    """Play the field against itself with seats rotated and rate it.

    Parameters
    ----------
    game : str
        "snapshot", "yosemite" or "shutterbug".
    players : int, optional
        Seats per table (default: the game's usual count).
    policies : list, optional
        The field, at least two distinct policies (default: `default_field`): policy specs,
        tuned-policy names or files, or Python agents (objects or ``module:object``, played
        through the step class, so slower).
    games : int
        Games per table, rounded up to a multiple of its distinct seat assignments (played
        as runs of one line-up with seats rotated game by game, one run per rotation class).
    seed : int
        Root seed: the same seed gives the same ladder.
    threads : int, optional
        numba threads (default: all cores); the ladder does not depend on it.
    components, **knobs
        Component set and rule knobs of every game, as for `snapsim.simulate`.
    reps : int
        Bootstrap resamples for the rating intervals.
    progress : bool
        Show a progress bar.
    search_games : int, optional
        Games per table at the tables that seat a search policy or Snapshot's exact kind
        (`DEAR_KINDS`), which cost tens of times more a game (default: `games`). The fit
        weighs every meeting alike, so those pairs get wider intervals, nothing else
        changes.
    """
    from ..sim.runner import prepare

    _check_counts(games, seed, reps, progress, search_games)
    spec, config, _ = prepare(game, players, None, components=components, **knobs)
    n = spec.players(config)
    if n < 2:
        raise InputError(f"a ladder needs tables of at least 2 players, got {n}")
    pols, labels = _field(spec.name, n, policies)
    schedule = _Schedule.of(spec.name, pols, n, games, search_games)
    results = _play(spec.name, config, pols, labels, schedule, seed, threads, progress)
    ratings, pairwise = rate(results, labels, seed=seed, reps=reps, reference=REFERENCE)
    record = _record(spec.name, config, pols, labels, schedule, seed, games, search_games,
                     reps)
    return Ladder(spec.name, n, labels, ratings, pairwise, schedule.total, seed, record,
                  results)


def _check_counts(games, seed, reps, progress, search_games) -> None:
    whole(games, "games", 1, MAX_IN_MEMORY_GAMES)
    whole(seed, "seed", 0)
    whole(reps, "reps", 10, 100_000)
    flag(progress, "progress")
    if search_games is not None:
        whole(search_games, "search_games", 1, MAX_IN_MEMORY_GAMES)


def _field(game: str, n: int, policies) -> tuple[list, list[str]]:
    """The field's policies, resolved, and their names (at least two, all different)."""
    from ..sim.agents import resolve_policy

    names = entries(policies, "policies") if policies else default_field(game, n)
    pols = [resolve_policy(game, p) for p in names]
    labels = [p.name for p in pols]
    if len(set(labels)) != len(labels) or len(labels) < 2:
        raise InputError(f"a ladder needs at least two different policies, got "
                         f"{', '.join(labels) or 'none'}")
    return pols, labels


@dataclass
class _Schedule:
    """The runs of a ladder: (table, line-up, rotations) each, the seat assignments of each
    table, the tables that seat a search policy, games per assignment and in all."""

    plan: list[tuple[int, tuple, int]]
    assignments: dict[int, int]
    slow: set[int]
    each: dict[int, int]
    total: int

    @classmethod
    def of(cls, game: str, pols: list, n: int, games: int,
           search_games: int | None) -> _Schedule:
        plan = [(t, lineup, size) for t, table in enumerate(tables(len(pols), n))
                for lineup, size in rotations(table)]
        if len(plan) > MAX_RUNS:
            raise InputError(f"{len(pols)} policies at {n}-player tables make {len(plan):,} "
                             f"line-ups to rotate; at most {MAX_RUNS:,} (give fewer --policies)")
        assignments = {t: 0 for t, _, _ in plan}
        for t, _, size in plan:
            assignments[t] += size
        slow = {t for t, table in enumerate(tables(len(pols), n))
                if any(is_dear(game, pols[i]) for i in table)}
        per_table = {t: search_games if t in slow and search_games is not None else games
                     for t in assignments}
        each = {t: math.ceil(per_table[t] / a) for t, a in assignments.items()}
        total = sum(each[t] * size for t, _, size in plan)
        if total > MAX_IN_MEMORY_GAMES:
            raise InputError(f"{total:,} games cannot be held in memory (at most "
                             f"{MAX_IN_MEMORY_GAMES:,}); give fewer --games or --policies")
        return cls(plan, assignments, slow, each, total)


def _play(game: str, config, pols: list, labels: list[str], schedule: _Schedule, seed: int,
          threads: int | None, progress: bool) -> pd.DataFrame:
    """Every run of the schedule, one row per seat of a game with the field's name of its
    policy; deals numbered apart per table, games apart per run. Kept in the run cache as
    one table (hundreds of small runs, each stored alone, took longer to store than to
    play)."""
    from ..sim import cache as run_cache

    plan = [[t, list(lineup), schedule.each[t] * size] for t, lineup, size in schedule.plan]
    return run_cache.measured(
        game, config, pols, schedule.total, seed, f"ladder {json.dumps([labels, plan])}",
        lambda: _play_all(game, config, pols, labels, schedule, seed, threads, progress),
        rows=schedule.total * len(schedule.plan[0][1]))


def _play_all(game: str, config, pols: list, labels: list[str], schedule: _Schedule,
              seed: int, threads: int | None, progress: bool) -> pd.DataFrame:
    from tqdm import tqdm

    from ..sim.kernel import lineup_names, seating
    from ..sim.runner import simulate

    parts: list[pd.DataFrame] = []
    with (tqdm(total=schedule.total, unit="game", disable=not progress,
               desc=f"{game} ladder") as bar,
          seating(pols)):  # one compile of the kernels for every table
        for t, lineup, size in schedule.plan:
            seated = [pols[i] for i in lineup]  # a repeated policy's table name has a #seat
            field_name = dict(zip(lineup_names(seated), (labels[i] for i in lineup),
                                  strict=True))
            played = schedule.each[t] * size
            df = simulate(game, config=config, policies=seated, games=played,
                          seed=table_seed(seed, t), rotate_seats=True, threads=threads)
            parts.append(pd.DataFrame({
                "deal": t * MAX_IN_MEMORY_GAMES + df.game.to_numpy(),
                "game": len(parts) * MAX_IN_MEMORY_GAMES + df.game.to_numpy(),
                "seat": df.seat.to_numpy(),
                "policy": df.policy.astype(str).map(field_name).to_numpy(),
                "won": df.won.to_numpy(float), "score": df.score.to_numpy(float)}))
            bar.update(played)
    return pd.concat(parts, ignore_index=True)


def _record(game: str, config, pols: list, labels: list[str], schedule: _Schedule, seed: int,
            games: int, search_games: int | None, reps: int) -> dict:
    from ..sim.provenance import provenance

    return provenance(game, config, pols, seed, schedule.total, games_per_table=games,
                      search_games_per_table=search_games if schedule.slow else None,
                      tables=len(schedule.assignments),
                      seat_assignments=sum(schedule.assignments.values()), reps=reps,
                      rating="Bradley-Terry (choix ILSR), bootstrap over deals",
                      reference=REFERENCE if REFERENCE in labels else "mean")


# ---------------------------------------------------------------- rating


def comparisons(results: pd.DataFrame, labels: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, the matrix of pairwise finishes: [d, i, j] = times policy i finished ahead
    of policy j (a tie counts half to each). Returns (deal ids, matrices)."""
    index = {name: k for k, name in enumerate(labels)}
    k = len(labels)
    df = results.assign(p=results.policy.astype(str).map(index))
    if df.p.isna().any():
        raise InputError(f"results name a policy outside the field: "
                         f"{sorted(set(df.policy.astype(str)) - set(labels))}")
    pairs = df.merge(df, on="game", suffixes=("_a", "_b"))
    pairs = pairs[pairs.p_a != pairs.p_b]
    ahead = ((pairs.won_a > pairs.won_b)
             | ((pairs.won_a == pairs.won_b) & (pairs.score_a > pairs.score_b))).to_numpy(float)
    tie = ((pairs.won_a == pairs.won_b) & (pairs.score_a == pairs.score_b)).to_numpy(float)
    deals, inverse = np.unique(pairs.deal_a.to_numpy(), return_inverse=True)
    mats = np.zeros((len(deals), k * k))
    np.add.at(mats, (inverse, pairs.p_a.to_numpy(int) * k + pairs.p_b.to_numpy(int)),
              ahead + 0.5 * tie)
    return deals, mats.reshape(len(deals), k, k)


def fit(matrix: np.ndarray) -> np.ndarray:
    """Bradley-Terry log-strengths (mean 0) from a matrix of wins [i, j] of i over j."""
    return choix.ilsr_pairwise_dense(np.asarray(matrix, float), alpha=ALPHA, max_iter=10_000)


def rate(results: pd.DataFrame, labels: list[str], seed: int = 0, reps: int = REPS,
         reference: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Ratings with bootstrap intervals (relative to the `reference` policy, else centred on
    their mean), and the pairwise record with Wilson intervals.

    `results` has one row per (game, seat): deal (games sharing their random deal), game,
    policy (a name in `labels`), won and score. Ratings come out strongest first."""
    _, mats = comparisons(results, labels)
    total = mats.sum(axis=0)
    anchor = np.array([name == reference for name in labels]) if reference in labels \
        else np.ones(len(labels), bool)
    rating = fit(total)
    rating -= rating[anchor].mean()
    rng = np.random.default_rng(seed)
    flat = mats.reshape(len(mats), -1)
    boot = np.empty((reps, len(labels)))
    for r in range(reps):
        weights = np.bincount(rng.integers(0, len(mats), len(mats)), minlength=len(mats))
        boot[r] = fit((weights @ flat).reshape(total.shape))
        boot[r] -= boot[r][anchor].mean()
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    # no interval where the data give none: the reference (0 by definition), a bootstrap of
    # too few deals, or resamples that all agree (a policy never or always ahead)
    unbounded = anchor & (reference in labels) | (hi - lo <= 1e-9) | (len(mats) < MIN_DEALS)
    lo, hi = np.where(unbounded, np.nan, lo), np.where(unbounded, np.nan, hi)
    seats = results.groupby(results.policy.astype(str)).won.agg(["size", "mean"])
    ratings = pd.DataFrame({"policy": labels, "rating": rating, "ci_low": lo, "ci_high": hi,
                            "games": [int(seats["size"].get(n, 0)) for n in labels],
                            "win_rate": [float(seats["mean"].get(n, np.nan)) for n in labels]})
    ratings = ratings.sort_values("rating", ascending=False, ignore_index=True)
    rows = []
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            meetings = total[i, j] + total[j, i]
            if i == j or meetings == 0:
                continue
            low, high = wilson_interval(total[i, j], meetings)
            rows.append((a, b, int(round(meetings)), total[i, j], total[i, j] / meetings,
                         float(low), float(high)))
    pairwise = pd.DataFrame(rows, columns=["policy", "opponent", "meetings", "ahead", "share",
                                           "ci_low", "ci_high"])
    return ratings, pairwise


# ---------------------------------------------------------------- what a ladder may claim


def ahead_estimate(pairwise: pd.DataFrame, a: str, b: str):
    """How often `a` finished ahead of `b` minus one half (an `effects.Estimate`, its
    Wilson interval as the error), or None when they never met."""
    from .effects import Estimate

    meet = pairwise[(pairwise.policy == a) & (pairwise.opponent == b)]
    if meet.empty:
        return None
    m = meet.iloc[0]
    return Estimate.from_ci(m.share - 0.5, m.ci_low - 0.5, m.ci_high - 0.5, int(m.meetings))


class Standings:
    """What a ladder claims under a standard (`effects.Standard`): the strongest and the
    weakest policy, each with the policies it is not meaningfully ahead of (behind) as a
    tied group; the top policy's lead over the second; the policies that finish ahead of
    greedy, the reports' line-up, meaningfully more than half the time; and, as a measure of
    luck and skill, how often the top policy finishes ahead of greedy and of random. Each
    pair of policies is one claim (how often one finishes ahead of the other, against the
    smallest effect), made once and read by every sentence that compares them; a pair in
    `known` ((a, b) -> (claim of a ahead of b, where it was measured), e.g. a report's own
    head-to-head) is that claim instead of the ladder's meetings. Built before the standard
    is settled, read after."""

    def __init__(self, lad: Ladder, standard, smallest, known: dict | None = None):
        self.lad, self.standard = lad, standard
        order = list(lad.ratings.policy)
        self.order = order
        self.delta = smallest.delta("pp")
        self.known = dict(known or {})
        self.made: dict[tuple[str, str], object] = {}
        self.ends = {lead: {o: c for o in order if o != lead and (c := self.ahead(lead, o))}
                     for lead in dict.fromkeys((order[0], order[-1]))}
        self.second = self.ahead(order[0], order[1]) if len(order) > 1 else None
        self.above = {} if REFERENCE not in order else {
            n: c for n in order[:order.index(REFERENCE)] if (c := self.ahead(n, REFERENCE))}
        self.luck = {opp: c for opp in (REFERENCE, "random")
                     if opp in order and opp != order[0] and (c := self.ahead(order[0], opp))}

    def ahead(self, a: str, b: str):
        """The claim that `a` finishes ahead of `b` more (or less) than half the time: the
        known one, else from their meetings, added to the standard once per pair (None when
        they never met)."""
        from .effects import Claim

        if (a, b) in self.known:
            return self.known[(a, b)][0]
        if (b, a) in self.known or (b, a) in self.made:
            c = self.ahead(b, a)
            return None if c is None else c.reversed()
        if (a, b) not in self.made:
            est = ahead_estimate(self.lad.pairwise, a, b)
            self.made[(a, b)] = None if est is None else Claim.make(
                self.standard, f"ladder: {a} ahead of {b}", est, self.delta)
        return self.made[(a, b)]

    def group(self, lead: str) -> list[str]:
        """`lead` and the policies it does not finish meaningfully ahead of (the weakest:
        behind)."""
        from .effects import MEANINGFUL

        sign = 1 if lead == self.order[0] else -1
        return [lead] + [o for o, c in self.ends[lead].items()
                         if not (c.cls == MEANINGFUL and sign * c.estimate.effect > 0)]

    def strongest(self) -> list[str]:
        return self.group(self.order[0])

    def _rating(self, name: str) -> str:
        r = self.lad.ratings.set_index("policy").loc[name]
        shown = "(the reference)" if name == self.lad.provenance.get("reference") else \
            interval_text(r.ci_low, r.ci_high, "+.2f")
        return f"{name} {r.rating:+.2f} {shown}"

    def _share(self, a: str, b: str) -> str:
        """How often `a` finished ahead of `b` where their claim was measured."""
        if (a, b) in self.known:
            return self.known[(a, b)][1]
        m = self.lad.pairwise[(self.lad.pairwise.policy == a)
                              & (self.lad.pairwise.opponent == b)].iloc[0]
        return (f"{100 * m.share:.1f}% [{100 * m.ci_low:.1f}%, {100 * m.ci_high:.1f}%] of "
                f"{m.meetings:,} meetings")

    def headline(self) -> str:
        """Strongest and weakest, each alone or as a tied group."""
        from .effects import names_text

        top, bottom = self.strongest(), self.group(self.order[-1])
        head = ("Strongest: " + self._rating(top[0]) if len(top) == 1 else
                "Strongest, not distinguishable at this n: "
                + names_text([self._rating(n) for n in top]))
        tail = ("weakest: " + self._rating(bottom[0]) if len(bottom) == 1 else
                "weakest, not distinguishable at this n: "
                + names_text([self._rating(n) for n in bottom]))
        return f"{head}; {tail}."

    def sentences(self) -> list[str]:
        """Every claim in words (after the standard is settled)."""
        from .effects import MEANINGFUL, names_text, said

        out = [self.headline()]
        if self.second is not None:
            a, b = self.order[0], self.order[1]
            out.append(f"{a} finishes ahead of {b} (rated second) in {self._share(a, b)}: "
                       f"{said(self.second, 'pp')} from an even 50%.")
        if REFERENCE in self.order:
            sure = [n for n, c in self.above.items()
                    if c.cls == MEANINGFUL and c.estimate.effect > 0]
            rest = [n for n in self.above if n not in sure]
            text = (f"Finish ahead of {REFERENCE} (the reports' line-up) meaningfully more "
                    "than half the time: " + (names_text(sure) if sure else "none"))
            if rest:
                text += (f"; rated above {REFERENCE} but not meaningfully ahead of it at this "
                         "n: " + names_text(rest))
            out.append(text + ".")
        for opp, c in self.luck.items():
            out.append(f"Luck and skill: the top-rated {self.order[0]} finishes ahead of "
                       f"{opp} in {self._share(self.order[0], opp)} ({said(c, 'pp')} from "
                       "an even 50%).")
        return out
