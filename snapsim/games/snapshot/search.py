"""Snapshot's `search` policy kind: determinized Monte Carlo over the decisions that shape a
turn's photographs.

The kind plays its base heuristic (its own heuristic parameters) everywhere except three
decisions, where it compares moves by playing each to the end of the game `rollouts` times:

- the Preparation plan, before its first die (Phase 2): the base's plan and the exact
  advisor's best `candidates` allocations (`plans.search`, as `snapsim advise prep` ranks);
- each reserved card's placement (Phase 2, Step 1): every legal placement, and placing none;
- a failed exploration (Phase 3, Re-Rolls): give up, or begin paying a re-roll with each
  legal token source (the base pays the rest of it).

Before every rollout what the seat cannot see is resampled (the deck order; the other
players' assignments among those it does not hold), and every seat is played by the base
(a seat does not know which policies the others are). The moves share each rollout's random
numbers (common random numbers); a move other than the base's is taken only when its mean
win share beats the base's by `margin`, so the noise of a few rollouts does not override
the base. All the search's randomness comes from a digest of the seat's public view, so a
decision is a pure function of what the seat sees: it draws nothing from the game's streams
and writes only the policies' memory (the plan it chose), like the base.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...sim.kernel import mix_seed, next_u64, shuffle
from . import engine as E
from . import policies as P

# ---------------------------------------------------------------- hidden information


@njit(cache=True)
def recount_assignment(st, cfg, comp, p):
    """Recompute player p's symbol count and cover flag from their portfolio."""
    st[E.SYM_COUNT + p] = 0
    st[E.COVER_DONE + p] = 0
    if cfg[E.C_ASSIGNMENTS] == 0:
        return
    a = st[E.ASSIGN + p]
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == E.L_PORTFOLIO and st[E.OWNER + c] == p:
            m = comp[E.K_SYMBOLS + c] & E.assignment_symbols(comp, a)
            while m:
                st[E.SYM_COUNT + p] += m & 1
                m >>= 1
            if E.is_cover(comp, a, c):
                st[E.COVER_DONE + p] = 1


@njit(cache=True)
def determinize(st, cfg, comp, me, rng):
    """Resample what `me` cannot see, in place, from rng stream 0: the deck order (same
    cards, same N_DECK) and the other players' assignments. The result depends on what `me`
    sees only: the deck is put in card order before it is shuffled."""
    nd = st[E.N_DECK]
    st[E.DECK:E.DECK + nd] = np.sort(st[E.DECK:E.DECK + nd])
    shuffle(rng, st[E.DECK:E.DECK + nd], nd)
    n = E.n_players(cfg)
    n_assign = comp[E.K_N_ASSIGN]
    pool = np.empty(n_assign, np.int64)
    m = 0
    for a in range(n_assign):
        if a != st[E.ASSIGN + me]:
            pool[m] = a
            m += 1
    shuffle(rng, pool, m)
    k = 0
    for p in range(n):
        if p == me or k >= m:
            continue
        st[E.ASSIGN + p] = pool[k]
        k += 1
        recount_assignment(st, cfg, comp, p)


@njit(cache=True)
def public_view(st, cfg, me):
    """A copy of the state with what `me` cannot see blanked: the deck order (sorted) and
    the other players' assignments and what follows from them."""
    s = st.copy()
    nd = s[E.N_DECK]
    s[E.DECK:E.DECK + nd] = np.sort(s[E.DECK:E.DECK + nd])
    for p in range(E.n_players(cfg)):
        if p != me:
            s[E.ASSIGN + p] = -1
            s[E.SYM_COUNT + p] = 0
            s[E.COVER_DONE + p] = 0
    return s


@njit(cache=True)
def state_key(st, seed):
    """A 64-bit digest of a state (the search hashes its `public_view`) and a seed."""
    h = np.empty(1, np.uint64)
    h[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for i in range(st.shape[0]):
        h[0] ^= np.uint64(st[i] & 0xFFFFFFFF) * np.uint64(0x9E3779B1) + np.uint64(i)
        next_u64(h, 0)
    return next_u64(h, 0)


@njit(cache=True)
def sample(st, cfg, comp, me, key, r):
    """Rollout r's world: a determinized copy of `st` and its chance and policy streams."""
    drng = np.empty(1, np.uint64)
    drng[0] = mix_seed(key, 3 * r)
    det = st.copy()
    determinize(det, cfg, comp, me, drng)
    rng = np.empty(2, np.uint64)
    rng[0] = mix_seed(key, 3 * r + 1)
    rng[1] = mix_seed(key, 3 * r + 2)
    return det, rng


# ---------------------------------------------------------------- rollouts


@njit(cache=True)
def playout(s, cfg, comp, ptab, par, rng, mem, buf, n):
    """Play `s` (n legal actions in buf) to the end with every seat on the base heuristic
    `par`, each preparation in one go as in the batch (`policies.prepare`); win shares."""
    while s[E.PHASE] != E.PH_OVER:
        ph = s[E.PHASE]
        if ph == E.PH_PREP_DICE or ph == E.PH_PREP_TOKENS or ph == E.PH_PREP_RESERVED:
            n = P.prepare(s, cfg, comp, ptab, rng, P.GREEDY, par, buf, n, mem)
            continue
        a = P.heuristic_action(s, cfg, comp, ptab, rng, par, buf, n, False, mem)
        n = E.step(s, cfg, comp, rng, a, buf)
    return E.win_shares(s, cfg)


@njit(cache=True)
def rollout_move(det, cfg, comp, ptab, par, rng, me, a):
    """`me`'s win share after action `a` in copies of `det` and `rng`."""
    s = det.copy()
    r = rng.copy()
    buf = np.empty(E.MAX_LEGAL, np.int64)
    n = E.step(s, cfg, comp, r, a, buf)
    return playout(s, cfg, comp, ptab, par, r, P.new_memory(), buf, n)[me]


@njit(cache=True)
def rollout_plan(det, cfg, comp, ptab, par, rng, me, hab, dice, tok):
    """`me`'s win share when the turn of `det` (before its first die) plays this plan."""
    s = det.copy()
    r = rng.copy()
    mem = P.new_memory()
    write_plan(mem, s, hab, dice, tok)
    buf = np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(s, cfg, comp, buf)
    return playout(s, cfg, comp, ptab, par, r, mem, buf, n)[me]


@njit(cache=True)
def pick(totals, margin_total):
    """Index of the move to play: the best total, if it beats the base's (index 0) by the
    margin; else the base."""
    best = 0
    for j in range(1, totals.shape[0]):
        if totals[j] > totals[best] + 1e-9:
            best = j
    return best if totals[best] >= totals[0] + margin_total - 1e-9 else 0


# ---------------------------------------------------------------- Preparation plans


@njit(cache=True)
def write_plan(mem, st, hab, dice, tok):
    """Store a plan in the policies' memory `mem` as the plan of the turn of `st`."""
    for h in range(E.N_HAB):
        mem[P.M_HAB + h] = hab[h]
    for c in range(E.N_CARDS):
        mem[P.M_DICE + c] = dice[c]
        mem[P.M_TOK + c] = tok[c]
    mem[P.M_TURN] = P.turns_played(st)


@njit(cache=True)
def plan_is_legal(st, cfg, comp, ptab, hab, dice, tok, par):
    """Would the heuristic interpreter (parameters `par`) play this plan with legal actions
    only (and all of it)?"""
    s = st.copy()
    mem = P.new_memory()
    write_plan(mem, s, hab, dice, tok)
    me = s[E.CUR]
    rng = np.zeros(2, np.uint64)
    buf = np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(s, cfg, comp, buf)
    while s[E.CUR] == me and (s[E.PHASE] == E.PH_PREP_DICE or s[E.PHASE] == E.PH_PREP_TOKENS):
        a = P.heuristic_action(s, cfg, comp, ptab, rng, par, buf, n, False, mem)
        ok = False
        for i in range(n):
            if buf[i] == a:
                ok = True
        if not ok:
            return False
        E.apply_action(s, cfg, comp, rng, a)
        if s[E.PHASE] == E.PH_OVER:
            break
        n = E.legal_actions(s, cfg, comp, buf)
    # the whole plan was placed
    for h in range(E.N_HAB):
        if s[E.HAB_DICE + h] != hab[h]:
            return False
    for c in range(E.N_CARDS):
        if s[E.DICE_ON + c] != dice[c] or s[E.TOK_ON + c] != tok[c]:
            return False
    return True


@njit(cache=True)
def candidate_plans(st, cfg, comp, ptab, par, top):
    """The base's plan, then the exact advisor's best `top` allocations that differ from it
    and that the interpreter plays as they are: (hab dice, card dice, card tokens) rows."""
    habs = np.zeros((top + 1, E.N_HAB), np.int64)
    dices = np.zeros((top + 1, E.N_CARDS), np.int64)
    toks = np.zeros((top + 1, E.N_CARDS), np.int64)
    mem = P.new_memory()
    P.plan_value(st, cfg, comp, ptab, par, -1, -1, mem, True)
    habs[0] = mem[P.M_HAB:P.M_HAB + E.N_HAB]
    dices[0] = mem[P.M_DICE:P.M_DICE + E.N_CARDS]
    toks[0] = mem[P.M_TOK:P.M_TOK + E.N_CARDS]
    if top == 0:
        return habs[:1], dices[:1], toks[:1]
    kept, cards, n = P.exact_allocations(st, cfg, comp, ptab, par, -1, -1, top)
    if n == 0:
        return habs[:1], dices[:1], toks[:1]
    m = 1
    # stable: equal values keep the search order, with the JIT on or off
    for row in np.argsort(-kept[:, 0], kind="mergesort"):
        if kept[row, 0] <= -1e17:
            continue
        for h in range(E.N_HAB):
            habs[m, h] = np.int64(kept[row, 1 + h])
        dices[m, :] = 0
        toks[m, :] = 0
        for i in range(n):
            dices[m, cards[i]] = np.int64(kept[row, 1 + E.N_HAB + i])
            toks[m, cards[i]] = np.int64(kept[row, 1 + E.N_HAB + n + i])
        seen = False
        for j in range(m):
            if (habs[j] == habs[m]).all() and (dices[j] == dices[m]).all() and \
                    (toks[j] == toks[m]).all():
                seen = True
        if not seen and plan_is_legal(st, cfg, comp, ptab, habs[m], dices[m], toks[m], par):
            m += 1
    return habs[:m], dices[:m], toks[:m]


# ---------------------------------------------------------------- the kind


@njit(cache=True)
def dice_placed(st):
    """Dice placed so far in this Preparation."""
    k = 0
    for h in range(E.N_HAB):
        k += st[E.HAB_DICE + h]
    for c in range(E.N_CARDS):
        k += st[E.DICE_ON + c]
    return k


@njit(cache=True)
def plan_totals(st, cfg, comp, ptab, par, habs, dices, toks):
    """Summed win share of the seat to move over `rollouts` rollouts for each plan."""
    me = E.decider(st)
    key = state_key(public_view(st, cfg, me), 0)
    totals = np.zeros(habs.shape[0])
    for r in range(np.int64(par[P.P_ROLLOUTS])):
        det, rng = sample(st, cfg, comp, me, key, r)
        for i in range(habs.shape[0]):
            totals[i] += rollout_plan(det, cfg, comp, ptab, par, rng, me, habs[i], dices[i],
                                      toks[i])
    return totals


@njit(cache=True)
def move_totals(st, cfg, comp, ptab, par, moves):
    """Summed win share of the seat to move over `rollouts` rollouts for each action."""
    me = E.decider(st)
    key = state_key(public_view(st, cfg, me), 0)
    totals = np.zeros(moves.shape[0])
    for r in range(np.int64(par[P.P_ROLLOUTS])):
        det, rng = sample(st, cfg, comp, me, key, r)
        for i in range(moves.shape[0]):
            totals[i] += rollout_move(det, cfg, comp, ptab, par, rng, me, moves[i])
    return totals


@njit(cache=True)
def search_action(st, cfg, comp, ptab, rng, par, buf, n, mem):
    """The `search` kind's action (see the module docstring); always one of buf[:n]."""
    ph = st[E.PHASE]
    margin_total = par[P.P_MARGIN] * np.int64(par[P.P_ROLLOUTS])
    if ph == E.PH_PREP_DICE and dice_placed(st) == 0:
        habs, dices, toks = candidate_plans(st, cfg, comp, ptab, par,
                                            np.int64(par[P.P_CANDIDATES]))
        j = 0
        if habs.shape[0] > 1:
            j = pick(plan_totals(st, cfg, comp, ptab, par, habs, dices, toks), margin_total)
        write_plan(mem, st, habs[j], dices[j], toks[j])
        return P.heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, False, mem)
    base = P.heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, False, mem)
    if n < 2 or not (ph == E.PH_PREP_RESERVED or (ph == E.PH_REROLL and st[E.PAY_PENDING] == 0)):
        return base
    moves = np.empty(n, np.int64)  # the base's move first
    moves[0] = base
    m = 1
    for i in range(n):
        if buf[i] != base:
            moves[m] = buf[i]
            m += 1
    return moves[pick(move_totals(st, cfg, comp, ptab, par, moves[:m]), margin_total)]
