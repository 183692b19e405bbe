"""Preparation and re-roll planning kernels shared by the policies and the advisor.

The exact search over every allocation of dice and tokens (`search`, what `snapsim advise
prep` ranks and the `exact` policy plays) and the exact re-roll search (`reroll_search`), with
the photograph odds lookup they read. The policies and the advisor both import this module;
it imports neither.
"""

import numpy as np
from numba import njit

from ...odds.explore import face_success
from ...sim.kernel import kernel, pointer

NEG = -1e18
MAX_T = 20  # tokens beyond this change no probability (difficulties are at most 10)
PHOTO_DICE, PHOTO_DIFFICULTY = 6, 40  # the photo table's dice and difficulties (`photo_table`)


@kernel
def photo_p(ptab, dice, tokens, difficulty):
    """P(photograph) from the exact table `ptab` (`config.photo_table`: [difficulty - 1,
    tokens, dice - 1], read flat so that the table may come as a `pointer`)."""
    p = 0.0
    if dice > 0:
        p = 1.0
        if difficulty > 0:
            p = pointer(ptab)[((difficulty - 1) * (MAX_T + 1) + min(tokens, MAX_T)) * PHOTO_DICE
                              + dice - 1]
    return p


@njit(cache=True)
def explore_with_budget(explore_dice, targets, budget0, max_budget):
    """P(explore succeeds) per habitat and E[re-rolls paid], re-rolls drawn from one shared
    budget in habitat order (a final failure refunds, so only successes spend)."""
    p_ok = np.zeros(explore_dice.shape[0])
    paid = explore_into(explore_dice, targets, budget0, np.zeros(max_budget + 1),
                        np.zeros(max_budget + 1), p_ok)
    return p_ok, paid


@njit(cache=True)
def explore_into(explore_dice, targets, budget0, dist, new, p_ok):
    """`explore_with_budget` in the caller's work space: P(explore) into p_ok, the budget's
    distribution (the budgets up to max_budget) kept in dist and new in turn; returns
    E[re-rolls paid]."""
    n_hab = explore_dice.shape[0]
    dist[:] = 0.0
    dist[budget0] = 1.0
    p_ok[:] = 0.0
    paid = 0.0
    for h in range(n_hab):
        e = explore_dice[h]
        if e == 0:
            continue
        p = face_success(targets[h])
        q = 1.0 - p
        new[:] = 0.0
        for b in range(dist.shape[0]):
            m = dist[b]
            if m == 0.0:
                continue
            first = 1.0 - q**e
            p_ok[h] += m * first
            new[b] += m * first
            reach = q**e
            for k in range(1, b + 1):  # success on the k-th re-roll spends k
                ok = reach * p
                p_ok[h] += m * ok
                new[b - k] += m * ok
                paid += m * ok * k
                reach *= q
            new[b] += m * reach  # final failure: every re-roll token comes back
        dist, new = new, dist
    return paid


@njit(cache=True)
def token_knapsack(gain, n, limit, best, choice):
    """best[n, t] = max sum of gain[i, t_i] (i < n) with sum t_i <= t, for t <= limit, and
    choice[i, t] for reconstruction; row 0 of best is left as the caller's zeros."""
    width = gain.shape[1]
    for i in range(n):
        for t in range(limit + 1):
            best[i + 1, t] = -1e18
            for k in range(min(t, width - 1) + 1):
                v = best[i, t - k] + gain[i, k]
                if v > best[i + 1, t]:
                    best[i + 1, t] = v
                    choice[i + 1, t] = k


@njit(cache=True)
def evaluate(ptab, hab, diff, val, dice_on, hab_dice, targets, tokens, cost, lam, tok_out,
             space):
    """Best token placement for one dice allocation; returns (expected value, re-roll cap)
    and writes the tokens per card into tok_out. `space` is `search`'s work space."""
    idx, dist, new, p_ok, gain, best, choice = space
    n = hab.shape[0]
    m = np.int64(0)  # a count passed on, not the constant 0 (numba would compile for both)
    for i in range(n):
        if dice_on[i] > 0:
            idx[m] = i
            m += 1
    best_total = -1e18
    best_cap = 0
    tcap = min(tokens, MAX_T)
    for placed in range(tokens + 1):
        budget = (tokens - placed) // cost
        paid = explore_into(hab_dice, targets, budget, dist, new, p_ok)
        limit = min(placed, tcap * max(m, 1))
        for j in range(m):
            i = idx[j]
            for t in range(tcap + 1):
                s = photo_p(ptab, dice_on[i], t, diff[i])
                gain[j, t] = p_ok[hab[i]] * s * (val[i] - lam * t)
        token_knapsack(gain, m, limit, best, choice)
        total = best[m, limit] - lam * paid * cost
        if total > best_total + 1e-12:
            best_total = total
            best_cap = budget
            t = limit
            for j in range(m, 0, -1):
                k = choice[j, t]
                tok_out[idx[j - 1]] = k
                t -= k
            for i in range(n):
                if dice_on[i] == 0:
                    tok_out[i] = 0
    return best_total, best_cap


@njit(cache=True)
def search(ptab, hab, diff, val, mandatory, targets, dice, tokens, cost, lam, top):
    """Every allocation of `dice` (habitat dice, then animal dice in habitats that have one);
    keeps the `top` best as rows (value, habitat dice, card dice, card tokens, re-roll cap).
    Its work space is laid out once here: an evaluation allocates nothing."""
    n = hab.shape[0]
    n_hab = targets.shape[0]
    width = 2 + n_hab + 2 * n
    kept = np.full((top, width), -1e18)
    count = 0
    hd = np.zeros(n_hab, np.int64)
    has = np.zeros(n_hab, np.int64)
    for i in range(n):
        has[hab[i]] = 1
    tok = np.zeros(n, np.int64)
    dice_on = np.zeros(n, np.int64)
    elig = np.zeros(n, np.int64)
    tcap = min(tokens, MAX_T)
    limit = min(tokens, tcap * max(n, 1))
    space = (np.empty(n, np.int64), np.zeros(tokens // cost + 1), np.zeros(tokens // cost + 1),
             np.zeros(n_hab), np.zeros((max(n, 1), tcap + 1)), np.zeros((n + 1, limit + 1)),
             np.zeros((n + 1, limit + 1), np.int64))
    # odometer over habitat dice (only habitats holding a candidate card)
    while True:
        used = hd.sum()
        ok = used <= dice
        for i in range(n):
            if mandatory[i] and hd[hab[i]] == 0:
                ok = False
        if ok:
            rem = dice - used
            for i in range(n):
                elig[i] = 1 if hd[hab[i]] > 0 else 0
            dice_on[:] = 0
            for i in range(n):
                if mandatory[i]:
                    dice_on[i] = 1
            # odometer over animal dice
            while True:
                if dice_on.sum() <= rem:
                    v, cap = evaluate(ptab, hab, diff, val, dice_on, hd, targets, tokens, cost,
                                      lam, tok, space)
                    count += 1
                    worst = 0
                    for r in range(1, top):
                        if kept[r, 0] < kept[worst, 0]:
                            worst = r
                    if v > kept[worst, 0] + 1e-12:
                        # element by element: an array copied into a slice compiles numba's
                        # shape-mismatch error message, seconds of a first run's compile
                        kept[worst, 0] = v
                        for h in range(n_hab):
                            kept[worst, 1 + h] = hd[h]
                        for i in range(n):
                            kept[worst, 1 + n_hab + i] = dice_on[i]
                            kept[worst, 1 + n_hab + n + i] = tok[i]
                        kept[worst, 1 + n_hab + 2 * n] = cap
                # next animal allocation
                k = 0
                while k < n:
                    if elig[k] and dice_on[k] < rem:
                        dice_on[k] += 1
                        if dice_on.sum() <= rem:
                            break
                    dice_on[k] = 1 if mandatory[k] else 0
                    k += 1
                if k == n:
                    break
        # next habitat allocation
        h = 0
        while h < n_hab:
            if has[h] and hd[h] < dice:
                hd[h] += 1
                if hd.sum() <= dice:
                    break
            hd[h] = 0
            h += 1
        if h == n_hab:
            break
    return kept, count


MAX_REROLL_STATES = 200_000  # beyond this, card tokens are not offered as re-roll sources


@njit(cache=True)
def reroll_search(ptab, dice, diff, val, tok, stake, supply, pot, cost, lam, target, need,
                  floor, pay):
    """After a failed explore roll: the best way on, exact over every payment of every re-roll.

    The habitat's animals with dice are given by (dice, diff, val, tok), in card order; tokens
    may be taken off them (lowering their totals) and from the supply, any combination per
    re-roll. Value relative to giving up now (which returns every token): on success the pot
    is lost and each animal is worth P(photo) x (val - lam x its tokens), plus `stake` for
    animals without tokens to take. `need` tokens are still owed for the re-roll being paid
    (cost: none begun, giving up allowed), from sources numbered from `floor` (cards 0..m-1,
    then the supply m). Returns (value, P(explore), E[re-roll tokens lost]) and writes the
    best payment now into pay[0..m] (all zero: give up). States: supply x tokens on each
    card; if there are more than MAX_REROLL_STATES, card tokens stay where they are.
    """
    m = dice.shape[0]
    dims = np.empty(m + 1, np.int64)
    dims[m] = supply + 1
    n_states = supply + 1
    for i in range(m):
        dims[i] = tok[i] + 1
        n_states *= tok[i] + 1
    fixed = np.zeros(m, np.int64)  # tokens that stay on their card
    if n_states > MAX_REROLL_STATES:
        for i in range(m):
            fixed[i] = tok[i]
            dims[i] = 1
        n_states = supply + 1
    stride = np.empty(m + 1, np.int64)
    k = 1
    for j in range(m + 1):
        stride[j] = k
        k *= dims[j]
    p = face_success(target)
    q = 1.0 - p
    value = np.zeros(n_states)
    p_ok = np.zeros(n_states)
    lost = np.zeros(n_states)
    have = np.empty(m + 1, np.int64)
    x = np.zeros(m + 1, np.int64)
    total0 = supply
    for i in range(m):
        total0 += dims[i] - 1
    pay[:] = 0
    root = n_states - 1
    # a payment takes tokens away, so it leads to a smaller index: increasing order works
    for idx in range(n_states):
        r = idx
        left = 0
        for j in range(m + 1):
            have[j] = r % dims[j]
            r //= dims[j]
            left += have[j]
        at_root = idx == root
        owe = need if at_root else cost
        lo = floor if at_root else 0
        pot2 = pot + (total0 - left) + owe
        best, best_p, best_l = NEG, 0.0, 0.0
        if owe == cost:
            best = 0.0  # give up
        x[:] = 0
        while True:  # odometer over payments x (x[j] <= have[j], only sources >= lo)
            s = 0
            for j in range(m + 1):
                s += x[j]
            if s == owe:
                child = idx
                succ = stake - lam * pot2
                for j in range(m + 1):
                    child -= x[j] * stride[j]
                for i in range(m):
                    t = fixed[i] + have[i] - x[i]
                    succ += photo_p(ptab, dice[i], t, diff[i]) * (val[i] - lam * t)
                v = p * succ + q * value[child]
                if v > best + 1e-12:
                    best = v
                    best_p = p + q * p_ok[child]
                    best_l = p * pot2 + q * lost[child]
                    if at_root:
                        for j in range(m + 1):  # (not pay[:] = x: see `search`)
                            pay[j] = x[j]
            j = lo
            while j <= m:
                if x[j] < have[j] and s < owe:
                    x[j] += 1
                    break
                s -= x[j]
                x[j] = 0
                j += 1
            if j > m:
                break
        value[idx] = best
        p_ok[idx] = best_p
        lost[idx] = best_l
    return value[root], p_ok[root], lost[root]
