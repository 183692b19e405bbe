"""Exact explore odds with bought re-rolls.

Exploring succeeds when at least one habitat die meets the explore value; after a failed
roll a player may pay `cost` tokens (rulebook: 2) to re-roll a single die, as often as they
can pay. Re-roll tokens go to the bank only if the exploration finally succeeds; on a final
failure they come back (Phase 3, Re-Rolls / Failed exploration). The kernels assume the
player keeps buying re-rolls until success or until the budget is spent.
"""

from numba import njit


@njit(cache=True)
def face_success(target):
    """P(one d6 >= target)."""
    if target <= 1:
        return 1.0
    if target > 6:
        return 0.0
    return (7 - target) / 6.0


@njit(cache=True)
def explore_kernel(dice, target, rerolls, cost):
    """(P(success), E[tokens paid to the bank], E[re-rolls bought]).

    A re-roll is one more independent die, so P(success) = 1 - q**(dice + rerolls); the k-th
    re-roll is bought only if the first roll and k-1 re-rolls all failed, and its tokens are
    kept by the bank only if a later die (this one or a further re-roll) succeeds.
    """
    if dice <= 0:
        return 0.0, 0.0, 0.0
    p = face_success(target)
    q = 1.0 - p
    fail_first = q**dice
    success = 1.0 - fail_first * q**rerolls
    paid = 0.0
    bought = 0.0
    reach = fail_first  # P(all rolls so far failed) = P(the next re-roll is bought)
    for k in range(1, rerolls + 1):
        bought += reach
        # success exactly on re-roll k: the bank keeps k * cost tokens
        paid += k * cost * reach * p
        reach *= q
    return success, paid, bought
