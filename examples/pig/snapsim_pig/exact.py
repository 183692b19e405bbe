"""The exact chance that the first player wins a two-player game of Pig between two
threshold players (policies.threshold), by a dynamic programme over (the mover's score, the
other's score, the turn's total), the formulation of Neller & Presser (2004).

W[m][i, j, k] is the chance that the mover, playing policy m against the other policy, wins
from scores i (its own) and j with k on the turn. Holding banks k and hands the turn over:
1 - W[other][j, i + k, 0], or 1 once i + k reaches the goal. Rolling averages over the
faces: a bust is 1 - W[other][j, i, 0], any other face moves to k + face. Every transition
leads to a larger i + j except the bust, which swaps (i, j) for (j, i) at turn total 0; so
going down i + j, each pair {(i, j), (j, i)} leaves two unknowns, W[m][i, j, 0] and
W[other][j, i, 0], each affine in the other: a 2x2 linear system solved exactly.
"""

from __future__ import annotations

import numpy as np

from snapsim.sim.kernel import kernel

from . import engine as E
from . import policies as P


@kernel
def _column(W, m, i, j, goal, faces, bust, params):
    """W[m][i, j, k] for every k as a + b * x, x the chance the other wins from its turn at
    (j, i, 0); returns (a0, b0), the k = 0 coefficients, and writes a, b of each k into
    W's spare rows (kept for the solve)."""
    n = faces.shape[0]
    span = goal - i
    a = np.zeros(span + 101)
    b = np.zeros(span + 101)
    st = np.zeros(E.STATE_SIZE, np.int64)
    st[E.PLAYERS] = 2
    st[E.SCORE] = i
    st[E.SCORE + 1] = j
    for k in range(span - 1, -1, -1):
        hold = False
        if k > 0:
            hold = k >= P.threshold(st, np.zeros(0, np.int64), 0, params[m])
        if hold:
            a[k] = 1.0 - W[1 - m, j, i + k]
            continue
        for f in range(n):
            v = faces[f]
            if v == bust:
                b[k] += 1.0 / n
            elif k + v >= span:
                a[k] += 1.0 / n  # the mover holds at the goal and wins
            else:
                a[k] += a[k + v] / n
                b[k] += b[k + v] / n
    return a[0], b[0]


@kernel
def _solve(goal, faces, bust, params):
    """W[m, i, j]: the chance that the mover playing m wins from (i, j, 0)."""
    W = np.zeros((2, goal, goal))
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            j = total - i
            if i > j:
                continue
            for m in range(2):
                # x = W[m, i, j], y = W[1 - m, j, i]: x = a + b (1 - y), y = c + d (1 - x)
                a, b = _column(W, m, i, j, goal, faces, bust, params)
                c, d = _column(W, 1 - m, j, i, goal, faces, bust, params)
                x = (a + b - b * c - b * d) / (1.0 - b * d)
                W[m, i, j] = x
                W[1 - m, j, i] = c + d * (1.0 - x)
    return W


def first_player_wins(config, first: tuple[float, float], second: tuple[float, float]) -> float:
    """The exact chance that the first player wins a two-player game of `config` (its goal,
    die and starting points), the first playing threshold parameters `first` (hold_at,
    chase), the second `second`."""
    comp = config.components
    params = np.array([first, second], np.float64)
    W = _solve(config.goal, np.array(comp.faces, np.int64), comp.bust, params)
    s0, s1 = config.points_by_seat
    return float(W[0, s0, s1])
