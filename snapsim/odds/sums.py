"""Dice sums in plain numpy: the pmf of n d6 and P(photograph), for callers outside compiled
code. `snapsim odds photo` and the workbench's photo table need no kernel: a process's first
numba kernel, even one read from the cache, costs about a second to load.

The pmf is counted in whole numbers (ways to roll each total, exact in int64 up to six dice)
and divided once, so each probability is the correctly rounded exact fraction; the compiled
callers use `odds.dice`, the same odds in kernels.
"""

from __future__ import annotations

import numpy as np

from ..sim.checks import whole

FACES = 6
MAX_DICE = 6  # the game's dice
# Bounds that keep every answer exact and quick: a total past 1000 is beyond any dice.
MAX_VALUE = 1000
_DIE = np.array([0] + [1] * FACES, np.int64)  # ways to roll each total with one die


def _int(name, value, lo, hi=MAX_VALUE, hint=""):
    return whole(value, name, lo, hi, hint=hint)


def _dice(value, name="dice"):
    return _int(name, value, 1, MAX_DICE, " (the game has six dice)")


def _ways(dice: int) -> np.ndarray:
    """ways[s] = the number of the 6**dice rolls of `dice` d6 totalling s."""
    ways = np.ones(1, np.int64)
    for _ in range(dice):
        ways = np.convolve(ways, _DIE)
    return ways


def sum_pmf(dice: int) -> np.ndarray:
    """pmf[s] = P(sum of `dice` d6 == s), s = 0..6*dice."""
    n = _dice(dice)
    return _ways(n) / FACES ** n


def photo_success(dice: int, tokens: int, difficulty: int) -> float:
    """P(sum of `dice` d6 + `tokens` >= `difficulty`): one photograph attempt.

    Parameters
    ----------
    dice : int
        Dice on the animal, 1-6.
    tokens : int
        Tracking tokens on the card, each adding 1 to the roll.
    difficulty : int
        The card's difficulty.

    Returns
    -------
    float
        The exact probability, e.g. ``photo_success(2, 2, 8)`` is 0.7222.
    """
    n = _dice(dice)
    need = _int("difficulty", difficulty, 1) - _int("tokens", tokens, 0)
    return float(_ways(n)[max(need, 0):].sum() / FACES ** n)
