"""The search: the fewest changes that bring every target within its tolerance.

Two objectives, the targets' worst ratio (value over tolerance; at most 1 means met) and the
edit cost (printed values changed, or their total size), give a Pareto front: for each cost,
the best balance found. The kept optimiser ("surrogate") works in three steps:

1. **Screening.** A random design perturbs many variables at once (each run changes every
   variable with probability 1/2, to a value drawn from its range) and plays each run on the
   search's deals. A change alters the policies' decisions, so two games dealt alike soon
   differ and one change at a time would be measured in noise; a design that moves every
   variable in many runs estimates every effect from all of them (a regression, as a
   fractional-factorial screen does), about as many times more precisely as there are
   variables per run.
2. **Surrogate.** A linear model of every target item (each seat's win rate, each
   assignment's, each card's value...) in the changes, fitted by least squares to every
   evaluation so far, each coefficient shrunk towards zero by its own noise (positive-part
   James-Stein), so an effect the data cannot tell from zero is not exploited.
3. **Proposals.** For each cost k, a mixed-integer programme (scipy's HiGHS) picks at most k
   changes minimising the predicted worst ratio; the targets' maxima and minima are linear
   constraints, so the programme is exact on the surrogate. Each proposal is played; the
   model is fitted again with it, and its prediction corrected by the residual at the best
   candidate found so far; this repeats until a round proposes nothing new.

`optuna`'s multi-objective samplers (NSGA-II, TPE) are the alternatives
(``optimizer="nsga2"`` or ``"tpe"``, with the optional dependency installed); the docs give
the planted-suite comparison that chose the surrogate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from .edits import Candidate, EditSpace, candidate
from .evaluate import Evaluation, Evaluator
from .targets import KINDS, Target

OPTIMIZERS = ("surrogate", "nsga2", "tpe")
MARGIN = 0.1  # the min-cost proposal aims this share inside every tolerance
MILP_NODES = 2000  # branch-and-bound nodes a proposal's programme may explore


@dataclass
class Plan:
    """How much the search plays: games per candidate, screening runs, proposal rounds,
    the largest cost proposed, and whether cost is values changed or their total size."""

    games: int
    screen: int
    rounds: int = 8
    max_cost: int = 20
    size_cost: bool = False
    optimizer: str = "surrogate"
    candidates: int | None = None  # a cap on candidates played (the budget)


# why a search ended: no proposal left, its cap on candidates, a sampler's count played, or
# nothing to search
Stopped = Literal["converged", "budget", "sampled", "base meets the targets"]


@dataclass
class Outcome:
    """Every evaluation of a search, in the order played, and its Pareto front."""

    evaluations: list[Evaluation]
    front: list[Evaluation] = field(default_factory=list)
    stopped: Stopped = "converged"
    used: float = 0.0  # candidates played as the budget counts them (a raced one 1/4)


def pareto(evs: list[Evaluation], space: EditSpace, size: bool = False) -> list[Evaluation]:
    """Non-dominated valid evaluations on (worst ratio, cost), cheapest first: no other is
    at most as costly and at most as unbalanced, and better in one. A ratio at or under 1
    counts as met whatever its margin, so the front's feasible end is its cheapest met
    candidate."""
    valid = [e for e in evs if e.invalid is None and math.isfinite(e.ratio)]
    best: dict[float, Evaluation] = {}
    for e in valid:
        c = space.cost(e.cand, size)
        if c not in best or _rank(e) < _rank(best[c]):
            best[c] = e
    front, bound = [], math.inf
    for c in sorted(best):
        e = best[c]
        score = max(e.ratio, 1.0)
        if score < bound:
            front.append(e)
            bound = score
        if bound <= 1.0:
            break
    return front


def _rank(e: Evaluation) -> tuple:
    """Order at one cost: met or not, then the worst ratio."""
    return (max(e.ratio, 1.0), e.ratio)


# ---------------------------------------------------------------- the surrogate


class Surrogate:
    """A linear model of every target item in the candidate's changes from the base."""

    def __init__(self, space: EditSpace, keys: list):
        self.space = space
        self.keys = keys  # [(line-up, players, target)], the items' order
        self.vars = list(space.vars.values())
        self.index = {v.key: i for i, v in enumerate(self.vars)}

    def features(self, cand: Candidate) -> np.ndarray:
        """A candidate's changes: value minus base for a number, 1 for a switched knob."""
        x = np.zeros(len(self.vars))
        for key, value in cand:
            var = self.vars[self.index[key]]
            x[self.index[key]] = 1.0 if isinstance(var.base, bool) else value - var.base
        return x

    def response(self, ev: Evaluation) -> np.ndarray:
        return np.concatenate([ev.values[k] for k in self.keys])

    def fit(self, evs: list[Evaluation], base: Evaluation) -> None:
        """Least squares over every valid evaluation (weighted by its games), then each
        coefficient shrunk by its own standard error."""
        evs = [e for e in evs if e.invalid is None]
        X = np.array([self.features(e.cand) for e in evs])
        Y = np.array([self.response(e) for e in evs])
        y0 = self.response(base)
        Y = np.where(np.isfinite(Y), Y, y0)
        w = np.array([e.games for e in evs], float)
        w /= w.max()
        A = np.hstack([np.ones((len(evs), 1)), X]) * np.sqrt(w)[:, None]
        B = Y * np.sqrt(w)[:, None]
        p = X.shape[1]
        gram = A.T @ A + 1e-6 * np.eye(p + 1)
        coef = np.linalg.solve(gram, A.T @ B)
        resid = B - A @ coef
        dof = max(1, len(evs) - p - 1)
        sigma2 = (resid ** 2).sum(axis=0) / dof
        cov_diag = np.diag(np.linalg.inv(gram))[1:]
        J = coef[1:]
        se2 = cov_diag[:, None] * sigma2[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            shrink = np.clip(1.0 - se2 / (J ** 2), 0.0, 1.0)
        self.J = np.nan_to_num(J * shrink)
        self.intercept = coef[0]

    def predict_change(self, cand: Candidate) -> np.ndarray:
        return self.features(cand) @ self.J


# ---------------------------------------------------------------- proposals


def _blocks(keys, ev_values, targets: list[Target]):
    """(key, target, slice) of each target's items in the stacked response."""
    by_key = {t.key: t for t in targets}
    out, start = [], 0
    for key in keys:
        k = len(ev_values[key])
        out.append((key, by_key[key[2]], slice(start, start + k)))
        start += k
    return out


class _Programme:
    """The proposal's mixed-integer programme as it is built: one row per linear
    constraint over the columns z (one per option), s (the worst ratio) and (u, l) per
    spread target."""

    def __init__(self, nz: int, n_env: int):
        self.nz, self.s_col = nz, nz
        self.nvar = nz + 1 + n_env
        self.rows: list[np.ndarray] = []
        self.lo: list[float] = []
        self.hi: list[float] = []

    def add(self, r: np.ndarray, low: float, high: float) -> None:
        self.rows.append(r)
        self.lo.append(low)
        self.hi.append(high)

    def row(self, coefs: dict, low: float, high: float) -> None:
        r = np.zeros(self.nvar)
        for j, c in coefs.items():
            r[j] += c
        self.add(r, low, high)

    def changes(self, effect: np.ndarray, sign: float, col: int, coef: float,
                high: float) -> None:
        """sign * (the options' effect on one item) + coef * column `col` <= high."""
        r = np.zeros(self.nvar)
        r[:self.nz] = sign * effect
        r[col] = coef
        self.add(r, -np.inf, high)


def _target_rows(prog: _Programme, blocks, D: np.ndarray, level: np.ndarray) -> None:
    """Every target's items within the worst ratio s: a spread target's items between its
    envelope (u, l), whose width is at most s tolerances; a band target's within s halves
    of its band."""
    env = prog.s_col + 1
    for key, target, sl in blocks:
        base = level[sl]
        finite = np.isfinite(base)
        if KINDS[target.kind].shape == "spread":
            u, lcol = env, env + 1
            env += 2
            for i in np.flatnonzero(finite):
                prog.changes(D[:, sl.start + i], 1.0, u, -1.0, -base[i])
                prog.changes(D[:, sl.start + i], -1.0, lcol, 1.0, base[i])
            prog.row({u: 1.0, lcol: -1.0, prog.s_col: -target.tolerance()}, -np.inf, 0.0)
        else:
            centre, half = target.band(key[1])
            for i in np.flatnonzero(finite):
                prog.changes(D[:, sl.start + i], 1.0, prog.s_col, -half, centre - base[i])
                prog.changes(D[:, sl.start + i], -1.0, prog.s_col, -half, base[i] - centre)


def _choice_rows(prog: _Programme, model: Surrogate, options: list, exclude: set) -> None:
    """One value per variable, and no proposal already played."""
    for vi in range(len(model.vars)):
        cols = [j for j, (v, _) in enumerate(options) if v == vi]
        if len(cols) > 1:
            prog.row(dict.fromkeys(cols, 1.0), -np.inf, 1.0)
    index = {(model.vars[vi].key, value): j for j, (vi, value) in enumerate(options)}
    for cand in exclude:
        chosen = [index[c] for c in cand if c in index]
        if len(chosen) != len(cand):
            continue
        r = np.zeros(prog.nvar)
        r[:prog.nz] = -1.0
        r[chosen] = 1.0
        prog.add(r, -np.inf, len(chosen) - 1)


def _objective(prog: _Programme, costs: np.ndarray, cost_limit: float,
               min_cost: bool) -> np.ndarray:
    """The cost within a margin of every tolerance (`min_cost`), or else the worst ratio
    within `cost_limit` (among equal ratios, the cheaper)."""
    c = np.zeros(prog.nvar)
    if min_cost:
        c[:prog.nz] = costs
        prog.row({prog.s_col: 1.0}, -np.inf, 1.0 - MARGIN)
    else:
        c[prog.s_col] = 1.0
        c[:prog.nz] = 1e-4 * costs
        r = np.zeros(prog.nvar)
        r[:prog.nz] = costs
        prog.add(r, -np.inf, cost_limit)
    return c


def _solve(prog: _Programme, c: np.ndarray) -> np.ndarray | None:
    """The programme's solution (z binary, the rest continuous, s at least 0), or None.
    A limit on branch-and-bound nodes, not on time: the same programme gets the same answer
    on any machine under any load."""
    integrality = np.zeros(prog.nvar)
    integrality[:prog.nz] = 1
    lb = np.zeros(prog.nvar)
    ub = np.ones(prog.nvar)
    lb[prog.s_col:] = -np.inf
    ub[prog.s_col:] = np.inf
    lb[prog.s_col] = 0.0
    res = milp(c, constraints=LinearConstraint(np.array(prog.rows), prog.lo, prog.hi),
               integrality=integrality, bounds=Bounds(lb, ub),
               options={"node_limit": MILP_NODES, "presolve": True, "mip_rel_gap": 1e-3})
    return res.x


def propose(model: Surrogate, anchor: Evaluation, targets: list[Target], cost_limit: float,
            size: bool, exclude: set, min_cost: bool = False):
    """(candidate, predicted worst ratio) of cost at most `cost_limit` whose predicted
    worst ratio is least (or, with `min_cost`, the cheapest predicted to meet every target
    with a margin), predicted from `anchor`'s measured items plus the model's change; None
    when the programme has no solution."""
    options = [(vi, value) for vi, var in enumerate(model.vars) for value in var.values]
    nz = len(options)
    if nz == 0:
        return None
    D = np.array([model.J[vi] * (1.0 if isinstance(model.vars[vi].base, bool)
                                  else value - model.vars[vi].base) for vi, value in options])
    level = model.response(anchor) - model.predict_change(anchor.cand)
    costs = np.array([1.0 if not size or isinstance(model.vars[vi].base, bool)
                      else abs(value - model.vars[vi].base) for vi, value in options])
    blocks = _blocks(model.keys, anchor.values, targets)
    prog = _Programme(nz, sum(2 for _, t, _ in blocks if KINDS[t.kind].shape == "spread"))
    _target_rows(prog, blocks, D, level)
    _choice_rows(prog, model, options, exclude)
    x = _solve(prog, _objective(prog, costs, cost_limit, min_cost))
    if x is None:
        return None
    chosen = [options[j] for j in np.flatnonzero(x[:nz] > 0.5)]
    return candidate({model.vars[vi].key: value for vi, value in chosen}), float(x[prog.s_col])


# ---------------------------------------------------------------- the search


def screening_design(space: EditSpace, runs: int, seed: int) -> list[Candidate]:
    """`runs` random candidates: each variable changed with probability 1/2 to a value drawn
    from its range. Variables of one entry (an assignment's chart, a seat schedule) are
    drawn together and drawn again while the game's validator refuses the entry alone (a
    chart must not decrease), so most runs are valid; a run still refused is drawn anew."""
    rng = np.random.default_rng([seed, 0x5C2EE7])
    groups: dict = {}
    for v in space.vars.values():
        groups.setdefault(v.path[:2], []).append(v)
    out: list[Candidate] = []
    tries = 0
    while len(out) < runs and tries < 5 * runs:
        tries += 1
        changes = {}
        for members in groups.values():
            for _ in range(4):
                mine = {v.key: v.values[rng.integers(len(v.values))]
                        for v in members if rng.random() < 0.5}
                if not mine or len(groups) == 1 or space.valid(candidate(mine)) is None:
                    changes.update(mine)
                    break
        cand = candidate(changes)
        if cand and cand not in out and space.valid(cand) is None:
            out.append(cand)
    return out


def search(evaluator: Evaluator, plan: Plan, seed: int) -> Outcome:
    """The surrogate search; every evaluation goes through `evaluator` (cached and
    journaled), so the same seed gives the same search and a resumed one ends the same."""
    space = evaluator.space
    base = evaluator.base()
    evs = [base]
    if base.ratio <= 1.0:  # already within every target on the search's deals
        return Outcome(evs, pareto(evs, space, plan.size_cost), "base meets the targets")
    budget = Budget(plan.candidates)
    design = screening_design(space, plan.screen, seed)
    for start in range(0, len(design), SCREEN_BATCH):  # batches, so the cap can stop it
        evs += evaluator.evaluate(budget.take(design[start:start + SCREEN_BATCH]))
        if budget.spent:
            return Outcome(evs, pareto([e for e in evs if e.games == plan.games], space,
                                       plan.size_cost), "budget", budget.used)
    keys = list(base.values)
    model = Surrogate(space, keys)
    played = {e.cand for e in evs}
    stopped: Stopped = "converged"
    for _ in range(plan.rounds):
        if budget.spent:
            stopped = "budget"
            break
        model.fit(evs, base)
        full = [e for e in evs if e.games == plan.games]
        proposals = _round(model, base, full, evaluator.targets, plan, played, space)
        if not proposals:
            break
        new = _race(evaluator, budget, proposals, full, plan, space)
        evs += new
        played |= {e.cand for e in new}
        if budget.spent:
            stopped = "budget"
            break
    full = [e for e in evs if e.games == plan.games]
    return Outcome(evs, pareto(full, space, plan.size_cost), stopped, budget.used)


RACE_SHARE = 4  # a proposal first plays 1/4 of the search's games
RACE_MIN = 500


def _race(evaluator: Evaluator, budget: Budget, proposals, full, plan: Plan, space):
    """Play the proposals on the first quarter of the search's deals, then the whole of them
    only for those not clearly worse than a candidate already played at no greater cost
    (their worst ratio, less twice its noise, above that candidate's): the rest are dropped
    early (racing), their short evaluation still informing the model."""
    short = max(RACE_MIN, plan.games // RACE_SHARE)
    if short >= plan.games:
        return evaluator.evaluate(budget.take(proposals))
    first = evaluator.evaluate(budget.take(proposals, 1 / RACE_SHARE), short)
    size = plan.size_cost
    keep = []
    for e in first:
        if e.invalid is not None:
            continue
        cost = space.cost(e.cand, size)
        rivals = [f.ratio for f in full if space.cost(f.cand, size) <= cost]
        if not rivals or e.ratio - 2 * noise(e, evaluator.targets) <= min(rivals):
            keep.append(e.cand)
    return first + evaluator.evaluate(budget.take(keep))


def noise(ev: Evaluation, targets) -> float:
    """A candidate's worst ratio's standard error, roughly: each item's paired error from the
    base game over the square root of two (one side's share), over its target's half-width
    (a spread target: its tolerance)."""
    by_key = {t.key: t for t in targets}
    worst = 0.0
    for (_, n, key), se in ev.se.items():
        t = by_key[key]
        scale = t.tolerance() if KINDS[t.kind].shape == "spread" else t.band(n)[1]
        if scale > 0 and len(se) and np.isfinite(se).any():
            worst = max(worst, float(np.nanmax(se)) / math.sqrt(2) / scale)
    return worst


LEVELS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50)  # costs proposed at


def _round(model, base, evs, targets, plan: Plan, played: set, space) -> list[Candidate]:
    """One round of proposals: the cheapest candidate predicted to meet every target (with a
    margin), then for each cost level below it the least unbalanced one, until more changes
    stop helping by the model."""
    size = plan.size_cost
    proposals: list[Candidate] = []
    found = _valid_proposal(model, base, targets, math.inf, size, played, space, min_cost=True)
    ceiling = plan.max_cost
    if found is not None:
        proposals.append(found[0])
        ceiling = min(ceiling, space.cost(found[0], size) - 1)
    anchor_for = _anchors(evs, space, size)
    best = math.inf
    for k in (k for k in LEVELS if k <= ceiling):
        got = _valid_proposal(model, anchor_for(k), targets, k, size, played, space)
        if got is None:
            continue
        cand, predicted = got
        if cand not in proposals:
            proposals.append(cand)
        if predicted >= best - 1e-3:
            break  # one more change does not help, by the model
        best = predicted
    return proposals


def _anchors(evs: list[Evaluation], space: EditSpace, size: bool):
    """The best valid evaluation of cost at most k, for the proposal of cost k."""
    valid = [e for e in evs if e.invalid is None]

    def best(k):
        fit = [e for e in valid if space.cost(e.cand, size) <= k]
        return min(fit, key=lambda e: (e.ratio, space.cost(e.cand, size)))
    return best


def _valid_proposal(model, anchor, targets, limit, size, played, space, min_cost=False,
                    tries: int = 2):
    """(candidate, predicted worst ratio) of a new proposal the game's validator accepts:
    one already played or refused is excluded and the programme solved again once
    (exclusions are added only as they are met, which keeps the programme small)."""
    exclude: set = set()
    for _ in range(tries):
        got = propose(model, anchor, targets, limit, size, exclude, min_cost)
        if got is None or not got[0]:
            return None
        cand = got[0]
        if cand not in played and space.valid(cand) is None:
            return got
        exclude.add(cand)
    return None


SCREEN_BATCH = 16  # screening runs played at a time


class Budget:
    """A cap on candidates played (None: none). A count, never a time, so the same seed,
    games and cap give the same search on any machine."""

    def __init__(self, cap: int | None):
        self.cap = cap
        self.used = 0.0

    def take(self, cands: list[Candidate], weight: float = 1.0) -> list[Candidate]:
        """As many of `cands` as the cap leaves room for, each counting `weight` (a short
        evaluation counts its share of the games)."""
        if self.cap is None:
            self.used += weight * len(cands)
            return cands
        room = max(0, int((self.cap - self.used) / weight + 1e-9))
        self.used += weight * min(room, len(cands))
        return cands[:room]

    @property
    def spent(self) -> bool:
        return self.cap is not None and self.used >= self.cap
