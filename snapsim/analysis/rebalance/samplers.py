"""The alternative optimisers: optuna's multi-objective samplers (NSGA-II, TPE) over the same
variables, objectives (worst ratio, edit cost) and evaluations as the surrogate search, so
the two can be compared on the same budget (benchmarks/rebalance.py; the docs say which is
kept and why). optuna is an optional dependency: ``pip install optuna``.

Each candidate is a choice per variable among its base value and its range. The samplers
start from the same screening design as the surrogate search and are asked one candidate at
a time; their seed is the search's, and an evaluation already in the journal is read back,
so a resumed search asks the same questions and ends the same.
"""

from __future__ import annotations

import math

from ...errors import InputError
from .edits import candidate
from .evaluate import Evaluator
from .search import LEVELS, Budget, Outcome, Plan, Stopped, pareto, screening_design


def _optuna():
    try:
        import optuna
    except ImportError:
        raise InputError("the nsga2 and tpe optimisers need optuna: pip install optuna "
                         "(or use the default surrogate optimiser)") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def sample_search(evaluator: Evaluator, plan: Plan, seed: int) -> Outcome:
    """The search with optuna's `plan.optimizer` sampler; the plan's cap on candidates (by
    default as many as the surrogate search proposes at most)."""
    optuna = _optuna()
    from optuna.distributions import CategoricalDistribution
    from optuna.trial import TrialState

    space = evaluator.space
    size = plan.size_cost
    sampler = (optuna.samplers.NSGAIISampler(seed=seed) if plan.optimizer == "nsga2"
               else optuna.samplers.TPESampler(seed=seed, multivariate=True))
    study = optuna.create_study(directions=["minimize", "minimize"], sampler=sampler)
    dists = {v.key: CategoricalDistribution([v.base, *v.values])
             for v in space.vars.values()}
    base = evaluator.base()
    evs = [base]
    if base.ratio <= 1.0:  # already within every target on the search's deals
        return Outcome(evs, pareto(evs, space, size), "base meets the targets")
    levels = 1 + sum(1 for k in LEVELS if k <= plan.max_cost)
    total = plan.candidates or (plan.screen + plan.rounds * levels)
    budget = Budget(total)
    for cand in screening_design(space, plan.screen, seed):
        study.enqueue_trial({k: v for k, v in cand})
    while not budget.spent:
        trial = study.ask(dists)
        changes = {k: trial.params[k] for k, var in space.vars.items()
                   if trial.params[k] != var.base}
        cand = candidate(changes)
        budget.take([cand])
        (ev,) = evaluator.evaluate([cand])
        evs.append(ev)
        if ev.invalid is not None or not math.isfinite(ev.ratio):
            study.tell(trial, state=TrialState.FAIL)
        else:
            study.tell(trial, [ev.ratio, space.cost(cand, size)])
    # a sampler has no end of its own: it stops at its number of candidates, a budget only
    # when the cap was the plan's (--candidates)
    stopped: Stopped = "budget" if plan.candidates is not None else "sampled"
    return Outcome(evs, pareto(evs, space, size), stopped, budget.used)
