"""Snapshot policies: a kind plus a small float vector, interpreted by njit code.

`random` picks uniformly among the legal actions. The heuristic kinds (greedy, cautious,
aggressive, collector, exact) share one interpreter (heuristic.py) and differ only in their
parameter vectors (layout.PARAM_NAMES), except that `exact` prepares with the advisor's
exhaustive search (and its re-roll cap) instead of the turn's plan (preparation.py), so it
plays what `snapsim advise prep` ranks first:

- research: keep drawing while fewer than `max_placed` cards were placed this turn and the
  exact risk that the next card cannot be placed (card counting over the unseen cards) is at
  most `max_risk` (scaled by `slot_risk` while a reserve slot is free);
- preparation: one plan a turn, which reserved cards to place, the dice (exact for the
  cards' worths: a dynamic programme over each habitat's animals, then a knapsack over
  habitats, using `snapsim.odds` for explore and photograph odds) and then the tokens,
  added in bundles while the best gain per token is positive;
- value of a photograph (values.py) = prestige + award, cover and feature-article gains,
  weighted by `w_award`, `w_progress`, `w_cover` and `w_article`; a token lost costs
  `token_value`;
- offers, acceptances and reserving compare that value with thresholds;
- re-rolls are bought while what is at stake exceeds what paying costs; each token comes
  from the cheapest source, the supply (a token is worth `token_value`) or an animal card
  (the photograph value its total loses), so cards may share a re-roll's cost;
- a raccoon (drawn or dealt at set-up) goes where it turns the fewest unseen cards into
  spookers.

`exact` re-rolls as the advisor's exact re-roll search says (`plans.reroll_search`, over
every payment from the supply and the habitat's animal cards), at most the plan's cap.

`search` (search.py) plays the heuristic with its own weights (by default the bundled
tuned-2p policy's) and compares moves by determinized rollouts at the Preparation plan, each
reserved card's placement and each re-roll, with a budget of `rollouts` and `candidates`.

This module gathers the kinds' names and defaults and `policy_action`, the one entry the
step API and the batch ask; the names the other modules define are imported here too, as
the rest of the package reads them from here.
"""

from pathlib import Path

import numpy as np
from numba import njit

from ...sim.kernel import pointer
from ..tuning import read_tuned
from .heuristic import (  # noqa: F401
    base_action,
    decide_action,
    greedy_reroll,
    heuristic_action,
    heuristic_decision,
    heuristic_turns,
    next_risk,
    random_action,
    wants_draw,
    wants_to_offer,
)
from .layout import *  # noqa: F403
from .layout import (
    _D,  # noqa: F401
    EXACT,
    N_PARAMS,
    RANDOM,
    SEARCH,
    new_memory,
)
from .plans import MAX_T, NEG  # noqa: F401
from .preparation import (  # noqa: F401
    best_bundle,
    exact_allocations,
    exact_plan,
    make_plan,
    plan,
    plan_value,
    prepare,
)
from .search import move_wins, search_action
from .values import card_value, value_of  # noqa: F401

_ALLOW = (1.0, 1.0, 1.0, 1.0)
_BASE = (0.25, 3.0, 1.6, 0.4, 1.0, 0.0, 1.0, 1.0, 5.0, 3.0, 3.0, 0.0, 99.0) + _ALLOW
DEFAULT_PARAMS = {
    "random": _BASE,
    "greedy": _BASE,
    "cautious": (0.12, 2.0, 1.3) + _BASE[3:],
    "aggressive": (0.45, 6.0, 2.0) + _BASE[3:],
    "collector": _BASE[:4] + (1.5, 0.6, 1.5, 1.5, 4.0, 2.0, 4.0, 0.0, 7.0) + _ALLOW,
    "exact": _BASE,  # greedy whose preparation is the advisor's exhaustive search
}
_SEARCH = (96.0, 0.0, 0.05, 0.02)  # every kind's search budget (read by `search` only)
DEFAULT_PARAMS = {k: v + _SEARCH for k, v in DEFAULT_PARAMS.items()}
# search's base weights: the bundled tuned-2p policy's (measured a stronger base than greedy's)
SEARCH_BASE = "tuned-2p"
DEFAULT_PARAMS["search"] = read_tuned(
    "snapshot", Path(__file__).parent / "data" / f"{SEARCH_BASE}.toml")[1][:N_PARAMS] + _SEARCH


@njit(cache=True)
def policy_action(st, cfg, comp, ptab, rng, kind, par, buf, n, mem, search=None, exact=None):
    """The action policy `kind` with parameters `par` takes now, given the n legal actions in
    buf (as `engine.step` leaves them); always one of them. Reads and writes only the
    policies' memory `mem` (see `new_memory`), never the game state.

    `search` is True when the line-up seats a search policy, else None: numba drops the
    search branch for None, so line-ups without one never compile it (it is most of the
    compile time). `exact` likewise is True when the line-up seats the exact kind (its
    exhaustive preparation search is the next largest part), else None."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    if kind == SEARCH:
        if search is not None:
            return search_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
        raise ValueError("a line-up seating a search policy passes search=True")
    if kind == RANDOM:
        return random_action(rng, buf, n)
    if kind == EXACT:
        if exact is not None:
            return heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, True, mem)
        raise ValueError("a line-up seating the exact policy passes exact=True")
    return base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)




def rollout_wins(game, moves, key: int, first: int, count: int):
    """(win shares, points scored at once, position digests) of the seat to move in step game
    `game`, each summed over rollouts first .. first+count-1 of each move, a row of step
    actions of the 2-d `moves` (padded with -1) (`search.move_wins`, every seat on the search
    kind's base), from `key` (a digest of what the seat sees) and the rollout numbers only.
    Reads the game's state, never its random streams; never changes it."""
    moves = np.asarray(moves, np.int64)
    wins, points, reach = (np.zeros(len(moves)) for _ in range(3))
    if len(moves):
        move_wins(game.state, game._cfg, game._comp, game._ptab,
                  np.array(DEFAULT_PARAMS["search"], np.float64), np.uint64(key),
                  np.int64(first), np.int64(count), moves.ravel(), np.int64(len(moves)),
                  np.int64(moves.shape[1]), new_memory(), wins, points, reach)
    return wins, points, reach
