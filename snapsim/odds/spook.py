"""Exact research (push-your-luck) odds by card counting.

A drawn card can be placed only if its difficulty is higher than every animal in its
habitat; otherwise it spooks the habitat unless it is reserved (rulebook, Phase 1). From
the tops of the habitats and the multiset of unseen cards, the process is a Markov chain
whose state per habitat is (top, number of unseen cards that would spook there):
cards above the top are never drawn without raising the top, so the unseen cards above it
are exactly the initial ones. Probability mass is pushed forward draw by draw.

Policy inside the chain: a card that would spook is reserved while free reserve slots last;
the raccoon goes to the habitat where it turns the fewest unseen cards into spookers
(lowest habitat index on ties); the player stops when `max_placed` cards were placed, when
the exact risk of the next draw exceeds `max_risk`, or when the deck is empty.
"""

import numpy as np
from numba import njit

TOP_BITS = 5
SPOOK_BITS = 6
HAB_BITS = TOP_BITS + SPOOK_BITS
EMPTY = -1


@njit(cache=True)
def _slot(keys, key):
    """Open-addressing lookup (multiplicative hashing of the folded key, linear probing).

    The fold keeps the product below 2**63, so it never overflows with or without the JIT;
    results do not depend on the hash, only speed does (tables are read in insertion order).
    """
    mask = keys.shape[0] - 1
    x = (key ^ (key >> 31)) & 0x7FFFFFFF
    i = ((x * 2654435761) >> 7) & mask
    while keys[i] != EMPTY and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _add(keys, vals, used, n_used, key, p):
    """Accumulate p at key; returns the new count of used slots (caller grows at half load)."""
    i = _slot(keys, key)
    if keys[i] == EMPTY:
        keys[i] = key
        vals[i] = p
        used[n_used] = i
        return n_used + 1
    vals[i] += p
    return n_used


@njit(cache=True)
def _grow(keys, vals, used, n_used):
    """Rehash into a table twice as large."""
    cap = keys.shape[0] * 2
    k2 = np.full(cap, EMPTY, np.int64)
    v2 = np.zeros(cap)
    u2 = np.empty(cap, np.int64)
    m = 0
    for j in range(n_used):
        m = _add(k2, v2, u2, m, keys[used[j]], vals[used[j]])
    return k2, v2, u2


@njit(cache=True)
def _encode(tops, spookers, raccoon, reserved):
    key = reserved * 2 + raccoon
    for h in range(tops.shape[0]):
        key = (key << HAB_BITS) | (tops[h] << SPOOK_BITS) | spookers[h]
    return key


@njit(cache=True)
def _decode(key, n_hab, tops, spookers):
    for h in range(n_hab - 1, -1, -1):
        spookers[h] = key & ((1 << SPOOK_BITS) - 1)
        tops[h] = (key >> SPOOK_BITS) & ((1 << TOP_BITS) - 1)
        key >>= HAB_BITS
    raccoon = key & 1
    reserved = key >> 1
    return raccoon, reserved


@njit(cache=True)
def _cumulative(unseen):
    """cum[h, d] = unseen cards of habitat h with difficulty <= d (d = -1 .. max via offset 1)."""
    n_hab, width = unseen.shape
    cum = np.zeros((n_hab, width + 1), np.int64)
    for h in range(n_hab):
        for d in range(width):
            cum[h, d + 1] = cum[h, d] + unseen[h, d]
    return cum


@njit(cache=True)
def _between(cum, h, lo, hi):
    """Initial unseen cards of habitat h with lo < difficulty <= hi."""
    return cum[h, hi + 1] - cum[h, lo + 1]


@njit(cache=True)
def _deck_size(cum, tops, spookers, raccoon):
    last = cum.shape[1] - 2
    n = raccoon
    for h in range(tops.shape[0]):
        n += spookers[h] + _between(cum, h, tops[h], last)
    return n


@njit(cache=True)
def _raccoon_blocked(tops, raccoon_difficulty):
    for h in range(tops.shape[0]):
        if tops[h] < raccoon_difficulty:
            return False
    return True


@njit(cache=True)
def next_draw_risk(tops, unseen, raccoon, raccoon_difficulty):
    """P(the next card drawn cannot be placed), i.e. spooks unless reserved."""
    n_hab = tops.shape[0]
    cum = _cumulative(unseen)
    spookers = np.empty(n_hab, np.int64)
    for h in range(n_hab):
        spookers[h] = _between(cum, h, -1, tops[h])
    n = _deck_size(cum, tops, spookers, raccoon)
    if n == 0:
        return 0.0
    bad = spookers.sum()
    if raccoon and _raccoon_blocked(tops, raccoon_difficulty):
        bad += 1
    return bad / n


@njit(cache=True)
def research_kernel(tops0, unseen, raccoon0, raccoon_difficulty, free_slots, max_placed, max_risk,
                    prune):
    """Walk the draw-by-draw chain.

    Returns (spooked[placed, reserved], stopped[placed, reserved], dropped): the probability
    that research ends by a spook, or by stopping (rule met or deck empty), after `placed`
    cards were placed and `reserved` were reserved. States whose probability falls below
    `prune` are dropped (a deep full-deck walk has millions of states of mass ~1e-20);
    `dropped` is their total mass, the exact bound on the error (0 when prune is 0).
    """
    n_hab = tops0.shape[0]
    top_d = unseen.shape[1] - 1
    cum = _cumulative(unseen)
    spookers = np.empty(n_hab, np.int64)
    for h in range(n_hab):
        spookers[h] = _between(cum, h, -1, tops0[h])
    n0 = _deck_size(cum, tops0, spookers, raccoon0)
    spooked = np.zeros((n0 + 1, free_slots + 1))
    stopped = np.zeros((n0 + 1, free_slots + 1))
    tops = tops0.copy()
    cap = 1024
    ck, cv, cu = np.full(cap, EMPTY, np.int64), np.zeros(cap), np.empty(cap, np.int64)
    nk, nv, nu = np.full(cap, EMPTY, np.int64), np.zeros(cap), np.empty(cap, np.int64)
    n_cur = _add(ck, cv, cu, 0, _encode(tops, spookers, raccoon0, 0), 1.0)
    dropped = 0.0
    for step in range(n0 + 1):
        n_nxt = 0
        for j in range(n_cur):
            key = ck[cu[j]]
            prob = cv[cu[j]]
            if prob < prune:
                dropped += prob
                continue
            if 2 * (n_nxt + 2 * n_hab * top_d + 2) > nk.shape[0]:
                nk, nv, nu = _grow(nk, nv, nu, n_nxt)
            raccoon, reserved = _decode(key, n_hab, tops, spookers)
            placed = step - reserved
            n = _deck_size(cum, tops, spookers, raccoon)
            blocked = raccoon == 1 and _raccoon_blocked(tops, raccoon_difficulty)
            bad = spookers.sum() + (1 if blocked else 0)
            if n == 0 or placed >= max_placed or bad / n > max_risk:
                stopped[placed, reserved] += prob
                continue
            can_reserve = reserved < free_slots
            # a card that would spook: reserve it or spook
            for h in range(n_hab):
                if spookers[h] == 0:
                    continue
                p = prob * spookers[h] / n
                if can_reserve:
                    spookers[h] -= 1
                    k = _encode(tops, spookers, raccoon, reserved + 1)
                    n_nxt = _add(nk, nv, nu, n_nxt, k, p)
                    spookers[h] += 1
                else:
                    spooked[placed, reserved] += p
            # a card above its habitat's top: placed, the top rises
            for h in range(n_hab):
                old_top = tops[h]
                old_spk = spookers[h]
                for d in range(old_top + 1, top_d + 1):
                    c = unseen[h, d]
                    if c == 0:
                        continue
                    tops[h] = d
                    spookers[h] = old_spk + _between(cum, h, old_top, d) - 1
                    k = _encode(tops, spookers, raccoon, reserved)
                    n_nxt = _add(nk, nv, nu, n_nxt, k, prob * c / n)
                tops[h] = old_top
                spookers[h] = old_spk
            if raccoon == 1:
                p = prob / n
                if blocked:
                    if can_reserve:
                        k = _encode(tops, spookers, 0, reserved + 1)
                        n_nxt = _add(nk, nv, nu, n_nxt, k, p)
                    else:
                        spooked[placed, reserved] += p
                else:
                    best = -1
                    best_new = 1 << 30
                    for h in range(n_hab):
                        if tops[h] < raccoon_difficulty:
                            new = _between(cum, h, tops[h], raccoon_difficulty)
                            if new < best_new:
                                best, best_new = h, new
                    old_top = tops[best]
                    tops[best] = raccoon_difficulty
                    spookers[best] += best_new
                    k = _encode(tops, spookers, 0, reserved)
                    n_nxt = _add(nk, nv, nu, n_nxt, k, p)
                    spookers[best] -= best_new
                    tops[best] = old_top
        # the next step's table becomes current; the old one is cleared for reuse
        for j in range(n_cur):
            ck[cu[j]] = EMPTY
        if ck.shape[0] < nk.shape[0]:
            ck, cv, cu = np.full(nk.shape[0], EMPTY, np.int64), np.zeros(nk.shape[0]), \
                np.empty(nk.shape[0], np.int64)
        ck, cv, cu, nk, nv, nu = nk, nv, nu, ck, cv, cu
        n_cur = n_nxt
        if n_cur == 0:
            break
    return spooked, stopped, dropped
