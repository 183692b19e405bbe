"""Rebalancing: the smallest changes to a game's components and rule knobs that bring it
within a designer's balance targets, found by a search and verified by paired comparison.

`targets` says what "balanced enough" is, `edits` what may change, `lineups` the players it
must hold for, `evaluate` plays candidates on common random numbers under every line-up,
`search` finds the Pareto front of the worst case over line-ups and targets against edit
cost, `verify` measures candidates again on fresh deals (and confirms the chosen one on
others). The command and its report are `snapsim.report.rebalance`.
"""

from .edits import Candidate, EditSpace, Var, edit_space
from .evaluate import Evaluation, Evaluator, Journal
from .lineups import LineUp, parse_lineups
from .samplers import sample_search
from .search import OPTIMIZERS, Outcome, Plan, pareto, search
from .targets import KINDS, Target, available, parse_targets
from .verify import Verification, effect, verify


def optimise(evaluator: Evaluator, plan: Plan, seed: int) -> Outcome:
    """The search with the plan's optimiser: the surrogate (kept) or an optuna sampler."""
    if plan.optimizer == "surrogate":
        return search(evaluator, plan, seed)
    return sample_search(evaluator, plan, seed)


__all__ = ["KINDS", "OPTIMIZERS", "Candidate", "EditSpace", "Evaluation", "Evaluator",
           "Journal", "LineUp", "Outcome", "Plan", "Target", "Var", "Verification",
           "available", "edit_space", "effect", "optimise", "pareto", "parse_lineups",
           "parse_targets", "search", "verify"]
