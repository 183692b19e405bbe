"""Pig's built-in players: `random` (roll or hold at random) and `greedy`, the threshold
player: hold once the turn's total reaches `hold_at` (20: the classic "hold at 20") or
would reach the goal. `chase` moves the threshold with the race: `chase` points more per
10 points the seat trails the best other score (fewer when it leads), so a tuned player
may learn to push when behind. The tuner searches both (spec.SEARCHED)."""

from __future__ import annotations

from snapsim.sim.kernel import POLICY, Param, kernel, randint

from . import engine as E

RANDOM, GREEDY = 0, 1
KIND_NAMES = ("random", "greedy")
PARAM_NAMES = (
    Param("hold_at", 1, 1000),  # hold once the turn's total reaches this
    Param("chase", -20, 20),  # threshold points per 10 points behind the best other score
)
DEFAULT_PARAMS = {"random": (20.0, 0.0), "greedy": (20.0, 0.0)}


@kernel
def threshold(st, cfg, p, params):
    """The turn total at which seat p holds, given the race."""
    best = -1
    for q in range(st[E.PLAYERS]):
        if q != p and st[E.SCORE + q] > best:
            best = st[E.SCORE + q]
    return params[0] + params[1] * (best - st[E.SCORE + p]) / 10.0


@kernel
def policy_action(st, cfg, comp, rng, kind, params, buf, n):
    """The action of a `kind` player with `params` among the n legal ones in buf."""
    if n == 1:
        return buf[0]
    if kind == RANDOM:
        return buf[randint(rng, POLICY, n)]
    p = st[E.MOVER]
    total = st[E.TURN_TOTAL]
    if st[E.SCORE + p] + total >= cfg[E.C_GOAL] or total >= threshold(st, cfg, p, params):
        return E.HOLD
    return E.ROLL
