"""Exact value of one habitat's dice-and-token allocation.

A habitat is resolved as a unit (Phase 3): explore first; if it fails every animal with dice
there is discarded and its tokens return; if it succeeds each animal is rolled on its own, a
success spends the card's tokens, a failure returns them. Given the explore, animals are
independent, so the number photographed is a Poisson-binomial scaled by P(explore).
"""

import numpy as np
from numba import njit

from .dice import photo_success_kernel
from .explore import explore_kernel


@njit(cache=True)
def habitat_kernel(explore_dice, target, rerolls, cost, difficulty, dice, tokens):
    """Return (p_explore, p_photo[i], photos_pmf[k], expected_tokens_lost, expected_reroll_paid).

    p_photo[i] is the unconditional probability animal i ends in the portfolio; tokens lost
    are the re-roll tokens the bank keeps plus the tokens on successfully photographed cards.
    """
    n = difficulty.shape[0]
    p_explore, reroll_paid, _ = explore_kernel(explore_dice, target, rerolls, cost)
    p_photo = np.empty(n)
    cond = np.zeros(n + 1)  # Poisson-binomial pmf given a successful explore
    cond[0] = 1.0
    lost = reroll_paid
    for i in range(n):
        s = photo_success_kernel(dice[i], tokens[i], difficulty[i]) if dice[i] > 0 else 0.0
        p_photo[i] = p_explore * s
        lost += p_explore * s * tokens[i]
        for k in range(i + 1, 0, -1):
            cond[k] = cond[k] * (1.0 - s) + cond[k - 1] * s
        cond[0] *= 1.0 - s
    pmf = cond * p_explore
    pmf[0] += 1.0 - p_explore
    return p_explore, p_photo, pmf, lost, reroll_paid
