"""Where does the next tracking token buy the most photograph probability?

For one animal in one habitat, P(photo) = P(explore) * P(dice + tokens >= difficulty). A
token can go on the card (+1 to its total) or be held back: `cost` held tokens buy one more
explore re-roll. The kernel compares the two gains per token.
"""

import numpy as np
from numba import njit

from .dice import photo_success_kernel
from .explore import explore_kernel


@njit(cache=True)
def token_gain_kernel(explore_dice, target, animal_dice, difficulty, tokens, rerolls, cost):
    """Return (P(photo) now, gain of +1 token on the card, gain per token of +1 re-roll)."""
    pe, _, _ = explore_kernel(explore_dice, target, rerolls, cost)
    pe_more, _, _ = explore_kernel(explore_dice, target, rerolls + 1, cost)
    s = photo_success_kernel(animal_dice, tokens, difficulty)
    s_more = photo_success_kernel(animal_dice, tokens + 1, difficulty)
    now = pe * s
    return now, pe * s_more - now, (pe_more - pe) * s / cost


@njit(cache=True)
def token_table_kernel(targets, explore_dice, animal_dice, difficulties, tokens, rerolls, cost):
    """Rows: target, explore dice, animal dice, difficulty, tokens, now, card gain, re-roll gain."""
    n = (targets.shape[0] * explore_dice.shape[0] * animal_dice.shape[0]
         * difficulties.shape[0] * tokens.shape[0])
    out = np.empty((n, 8))
    i = 0
    for tg in targets:
        for ed in explore_dice:
            for ad in animal_dice:
                for d in difficulties:
                    for t in tokens:
                        now, card, reroll = token_gain_kernel(ed, tg, ad, d, t, rerolls, cost)
                        out[i, 0] = tg
                        out[i, 1] = ed
                        out[i, 2] = ad
                        out[i, 3] = d
                        out[i, 4] = t
                        out[i, 5] = now
                        out[i, 6] = card
                        out[i, 7] = reroll
                        i += 1
    return out
