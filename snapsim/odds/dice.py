"""Exact dice-sum odds: the pmf of n d6 and the photograph success probability.

Photographing an animal succeeds when the dice total plus the tracking tokens on the card
reaches the animal's difficulty (rulebook, Phase 3 Step B), so everything here is a tail of
the n-d6 sum distribution.
"""

import numpy as np
from numba import njit

MAX_DICE = 6
FACES = 6


@njit(cache=True)
def sum_pmf(n):
    """pmf[s] = P(sum of n d6 == s) for s in 0..6n, by repeated convolution (exact in float64)."""
    pmf = np.zeros(FACES * n + 1)
    pmf[0] = 1.0
    for k in range(n):
        nxt = np.zeros(FACES * n + 1)
        for s in range(FACES * k + 1):
            p = pmf[s] / FACES
            if p != 0.0:
                for f in range(1, FACES + 1):
                    nxt[s + f] += p
        pmf = nxt
    return pmf


@njit(cache=True)
def sum_tail(n, need):
    """P(sum of n d6 >= need); n == 0 means a sum of 0."""
    if need <= n:
        return 1.0
    if need > FACES * n:
        return 0.0
    pmf = sum_pmf(n)
    total = 0.0
    for s in range(need, FACES * n + 1):
        total += pmf[s]
    return total


@njit(cache=True)
def photo_success_kernel(dice, tokens, difficulty):
    """P(dice total + tokens >= difficulty)."""
    return sum_tail(dice, difficulty - tokens)


@njit(cache=True)
def photo_table_kernel(max_dice, max_tokens, max_difficulty):
    """table[d-1, t, D-1] = P(sum of d dice + t >= D), d = 1..max_dice, D = 1..max_difficulty.

    Built from cumulative tails of each pmf so the whole table costs O(size).
    """
    table = np.empty((max_dice, max_tokens + 1, max_difficulty))
    for d in range(1, max_dice + 1):
        pmf = sum_pmf(d)
        top = FACES * d
        # tail[s] = P(sum >= s) for s in 0..top+1
        tail = np.zeros(top + 2)
        for s in range(top, -1, -1):
            tail[s] = tail[s + 1] + pmf[s]
        for t in range(max_tokens + 1):
            for diff in range(1, max_difficulty + 1):
                need = diff - t
                if need <= 0:
                    table[d - 1, t, diff - 1] = 1.0
                elif need > top:
                    table[d - 1, t, diff - 1] = 0.0
                else:
                    table[d - 1, t, diff - 1] = tail[need]
    return table
