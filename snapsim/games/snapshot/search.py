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

A searched decision allocates nothing of its own: its worlds, playouts, candidates and totals
live in the search's work space at the end of the policies' memory (`policies.S_*`), laid
out once per game (step API) or per thread (batch) and overwritten by each decision. Only
the advisor's candidates (`plans.search`, sized by the tokens held) lay out their work space
once per decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...sim.kernel import next_u64, seed_stream, shuffle
from . import engine as E
from . import policies as P

# ---------------------------------------------------------------- the work space


@njit(cache=True, inline="always")
def streams(mem):
    """The search's random streams in `mem` (uint64): [0] the world's, [1:3] the rollout's,
    [3:5] the playout's, [5] a digest's."""
    return mem[P.S_RNG:P.S_TOTALS].view(np.uint64)


@njit(cache=True, inline="always")
def plan_row(mem, i):
    """Candidate plan i of the work space: its habitat dice, card dice and card tokens."""
    at = P.S_PLANS + i * P.PLAN_ROW
    return (mem[at:at + E.N_HAB], mem[at + E.N_HAB:at + E.N_HAB + E.N_CARDS],
            mem[at + E.N_HAB + E.N_CARDS:at + P.PLAN_ROW])


@njit(cache=True, inline="always")
def copy_into(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


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
def sort_deck(st):
    """Put the deck in card order, in place (what the seat knows of it: its cards)."""
    for i in range(E.DECK + 1, E.DECK + st[E.N_DECK]):
        c = st[i]
        j = i
        while j > E.DECK and st[j - 1] > c:
            st[j] = st[j - 1]
            j -= 1
        st[j] = c


@njit(cache=True)
def determinize(st, cfg, comp, me, rng, pool):
    """Resample what `me` cannot see, in place, from rng stream 0: the deck order (same
    cards, same N_DECK) and the other players' assignments (`pool`: work space for the
    assignments). The result depends on what `me` sees only: the deck is put in card order
    before it is shuffled."""
    sort_deck(st)
    shuffle(rng, st[E.DECK:E.DECK + st[E.N_DECK]], st[E.N_DECK])
    n = E.n_players(cfg)
    m = 0
    for a in range(comp[E.K_N_ASSIGN]):
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
def public_view(st, cfg, me, out):
    """Write into `out` the state with what `me` cannot see blanked: the deck order (sorted)
    and the other players' assignments and what follows from them."""
    copy_into(out, st)
    sort_deck(out)
    for p in range(E.n_players(cfg)):
        if p != me:
            out[E.ASSIGN + p] = -1
            out[E.SYM_COUNT + p] = 0
            out[E.COVER_DONE + p] = 0


@njit(cache=True)
def state_key(st, seed, h):
    """A 64-bit digest of a state (the search hashes its `public_view`) and a seed; h: a
    uint64 work slot."""
    h[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for i in range(st.shape[0]):
        h[0] ^= np.uint64(st[i] & 0xFFFFFFFF) * np.uint64(0x9E3779B1) + np.uint64(i)
        next_u64(h, 0)
    return next_u64(h, 0)


@njit(cache=True)
def decision_key(st, cfg, mem):
    """The digest of what the seat to move sees, from which all the decision's randomness
    comes (the public view is written where the worlds will be)."""
    det = mem[P.S_DET:P.S_PLAY]
    public_view(st, cfg, E.decider(st), det)
    return state_key(det[:E.DERIVED], 0, streams(mem)[5:6])  # (the card sets follow from it)


@njit(cache=True)
def sample(st, cfg, comp, me, key, r, mem):
    """Rollout r's world in the work space: a determinized copy of `st` and its chance and
    policy streams (the playout state is the assignments' work space meanwhile)."""
    u = streams(mem)
    seed_stream(u, 0, key, 3 * r)
    seed_stream(u, 1, key, 3 * r + 1)
    seed_stream(u, 2, key, 3 * r + 2)
    det = mem[P.S_DET:P.S_PLAY]
    copy_into(det, st)
    determinize(det, cfg, comp, me, u[0:1], mem[P.S_PLAY:P.S_BUF])


# ---------------------------------------------------------------- rollouts


@njit(cache=True)
def playout(s, cfg, comp, ptab, par, rng, mem, buf, me):
    """Play `s` to the end with every seat on the base heuristic `par`, on the batch's fast
    path (`policies.heuristic_decision`); `me`'s win share."""
    while s[E.PHASE] != E.PH_OVER:
        P.heuristic_decision(s, cfg, comp, ptab, rng, P.GREEDY, par, buf, mem, None)
    return E.win_share(s, cfg, me)


@njit(cache=True)
def rollout(cfg, comp, ptab, par, me, mem, move, plan):
    """`me`'s win share in a copy of the sampled world (`sample`) and its streams after
    action `move`, or (move < 0) when its turn, before its first die, plays candidate
    `plan`."""
    s = mem[P.S_PLAY:P.S_BUF]
    copy_into(s, mem[P.S_DET:P.S_PLAY])
    u = streams(mem)
    u[3] = u[1]
    u[4] = u[2]
    rng = u[3:5]
    pmem = mem[P.S_PMEM:P.S_DET]
    P.clear_memory(pmem)
    buf = mem[P.S_BUF:P.S_MOVES]
    if move >= 0:
        E.apply_action(s, cfg, comp, rng, move)
    else:
        hab, dice, tok = plan_row(mem, plan)
        write_plan(pmem, s, hab, dice, tok)
    return playout(s, cfg, comp, ptab, par, rng, pmem, buf, me)


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
def plan_is_legal(st, cfg, comp, ptab, par, mem, i):
    """Would the heuristic interpreter (parameters `par`) play candidate plan i with legal
    actions only (and all of it)? Tried on the playout state of the work space."""
    hab, dice, tok = plan_row(mem, i)
    s = mem[P.S_PLAY:P.S_BUF]
    copy_into(s, st)
    pmem = mem[P.S_PMEM:P.S_DET]
    P.clear_memory(pmem)
    write_plan(pmem, s, hab, dice, tok)
    me = s[E.CUR]
    rng = streams(mem)[3:5]
    rng[0] = 0
    rng[1] = 0
    buf = mem[P.S_BUF:P.S_MOVES]
    n = E.legal_actions(s, cfg, comp, buf)
    while s[E.CUR] == me and (s[E.PHASE] == E.PH_PREP_DICE or s[E.PHASE] == E.PH_PREP_TOKENS):
        a = P.base_action(s, cfg, comp, ptab, rng, par, buf, n, pmem)
        ok = False
        for j in range(n):
            if buf[j] == a:
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
def same_plan(mem, i, j):
    at, bt = P.S_PLANS + i * P.PLAN_ROW, P.S_PLANS + j * P.PLAN_ROW
    for k in range(P.PLAN_ROW):
        if mem[at + k] != mem[bt + k]:
            return False
    return True


@njit(cache=True)
def candidate_plans(st, cfg, comp, ptab, par, top, mem):
    """The base's plan, then the exact advisor's best `top` allocations that differ from it
    and that the interpreter plays as they are, as the work space's plan rows (`plan_row`);
    returns how many."""
    pmem = mem[P.S_PMEM:P.S_DET]
    P.clear_memory(pmem)
    P.plan_value(st, cfg, comp, ptab, par, P.NO_CARD, P.NO_CARD, pmem, P.YES)
    for k in range(P.PLAN_ROW):
        mem[P.S_PLANS + k] = pmem[P.M_HAB + k]
    if top == 0:
        return 1
    kept, cards, n = P.exact_allocations(st, cfg, comp, ptab, par, P.NO_CARD, P.NO_CARD, top)
    if n == 0:
        return 1
    # the rows by value, best first; equal values keep the search order (a stable sort)
    order = mem[P.S_ORDER:P.S_RNG]
    rows = kept.shape[0]
    for i in range(rows):
        j = i
        while j > 0 and kept[order[j - 1], 0] < kept[i, 0]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    m = np.int64(1)  # (a count, not the constant 1: see policies.NO_CARD)
    for k in range(rows):
        row = order[k]
        if kept[row, 0] <= -1e17:
            continue
        hab, dice, tok = plan_row(mem, m)
        for h in range(E.N_HAB):
            hab[h] = np.int64(kept[row, 1 + h])
        for c in range(E.N_CARDS):
            dice[c] = 0
            tok[c] = 0
        for i in range(n):
            dice[cards[i]] = np.int64(kept[row, 1 + E.N_HAB + i])
            tok[cards[i]] = np.int64(kept[row, 1 + E.N_HAB + n + i])
        seen = False
        for j in range(m):
            if same_plan(mem, j, m):
                seen = True
        if not seen and plan_is_legal(st, cfg, comp, ptab, par, mem, m):
            m += 1
    return m


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
def totals_of(st, cfg, comp, ptab, par, mem, count, plans):
    """Summed win share of the seat to move over `rollouts` rollouts for each of `count`
    choices: the work space's candidate plans (plans) or its moves; the work space's totals.

    A choice is dropped (its total set to -1) once it can no longer be picked, whatever the
    remaining rollouts give (each gives at most 1): it can no longer beat the base's total
    by the margin, or another's total; the rollouts stop once the pick is certain. So `pick`
    picks what it would from every choice's full total, for fewer playouts."""
    me = E.decider(st)
    key = decision_key(st, cfg, mem)
    totals = mem[P.S_TOTALS:P.MEMORY_SIZE].view(np.float64)[:count]
    totals[:] = 0.0
    rollouts = np.int64(par[P.P_ROLLOUTS])
    margin_total = par[P.P_MARGIN] * rollouts
    for r in range(rollouts):
        sample(st, cfg, comp, me, key, r, mem)
        for i in range(count):
            if totals[i] < 0.0:
                continue
            if plans:
                totals[i] += rollout(cfg, comp, ptab, par, me, mem, P.NO_MOVE, i)
            else:
                totals[i] += rollout(cfg, comp, ptab, par, me, mem, mem[P.S_MOVES + i],
                                     P.NO_MOVE)
        left = rollouts - r - 1
        bar = totals[0] + margin_total  # what a choice must reach to be picked
        for i in range(1, count):
            bar = max(bar, totals[i])
        alive, last = 0, 0
        for i in range(1, count):
            if totals[i] >= 0.0 and totals[i] + left < bar - 1e-6:
                totals[i] = -1.0
            elif totals[i] >= 0.0:
                alive += 1
                last = i
        if alive == 0 or (alive == 1 and totals[last] - totals[0] - left >= margin_total + 1e-6):
            break
    return totals


@njit(cache=True)
def search_action(st, cfg, comp, ptab, rng, par, buf, n, mem):
    """The `search` kind's action (see the module docstring); always one of buf[:n]."""
    ph = st[E.PHASE]
    margin_total = par[P.P_MARGIN] * np.int64(par[P.P_ROLLOUTS])
    if ph == E.PH_PREP_DICE and dice_placed(st) == 0:
        m = candidate_plans(st, cfg, comp, ptab, par, np.int64(par[P.P_CANDIDATES]), mem)
        j = 0
        if m > 1:
            j = pick(totals_of(st, cfg, comp, ptab, par, mem, m, P.YES), margin_total)
        hab, dice, tok = plan_row(mem, j)
        write_plan(mem, st, hab, dice, tok)
        return P.base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
    base = P.base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
    if n < 2 or not (ph == E.PH_PREP_RESERVED or (ph == E.PH_REROLL and st[E.PAY_PENDING] == 0)):
        return base
    mem[P.S_MOVES] = base  # the base's move first
    m = np.int64(1)  # (a count passed on: see policies.NO_CARD)
    for i in range(n):
        if buf[i] != base:
            mem[P.S_MOVES + m] = buf[i]
            m += 1
    return mem[P.S_MOVES + pick(totals_of(st, cfg, comp, ptab, par, mem, m, P.NO),
                                margin_total)]
