"""Snapshot's `search` policy kind: determinized Monte Carlo over the decisions that shape a
turn's photographs.

The kind plays its base heuristic (its own heuristic parameters) everywhere except the
decisions below, where it compares moves by playing each to the end of the game `rollouts`
times:

- the Preparation plan, before its first die (Phase 2): the base's plan and the exact
  advisor's best `candidates` allocations (`plans.search`, as `snapsim advise prep` ranks);
- each reserved card's placement (Phase 2, Step 1): every legal placement, and placing none;
- a failed exploration (Phase 3, Re-Rolls): give up, or begin paying a re-roll with each
  legal token source (the base pays the rest of it).

Before every rollout what the seat cannot see is resampled (the deck order; the other
players' assignments among those it does not hold), and every seat is played by the base
(a seat does not know which policies the others are). A rollout's value is the seat's win
share plus `lead` per point of its score's lead over the best rival (at most 20 points
either way): the lead tells good moves from bad ones in games a few rollouts do not swing.
The moves share each rollout's random numbers (common random numbers); a move other than the
base's is taken only when its mean value beats the base's by `margin`, so the noise of the
rollouts does not override the base. All the search's randomness comes from a digest of the
seat's public view, so a decision is a pure function of what the seat sees: it draws nothing
from the game's streams and writes only the policies' memory (the plan it chose), like the
base.

A searched decision allocates nothing of its own: its worlds, playouts, candidates and totals
live in the search's work space at the end of the policies' memory (`layout.S_*`), laid
out once per game (step API) or per thread (batch) and overwritten by each decision. Only
the advisor's candidates (`plans.search`, sized by the tokens held) lay out their work space
once per decision. The kernels take `sim.kernel.pointer`s, as the engine's do.
"""

from __future__ import annotations

import numpy as np

from ...sim.kernel import (
    as_floats,
    as_uints,
    bit_count,
    kernel,
    low_bit,
    next_u64,
    pointer,
    position_digest,
    seed_stream,
    shifted,
    shuffle,
)
from . import engine as E
from . import layout as L
from .heuristic import base_action, heuristic_turns
from .preparation import exact_allocations, plan_value

LEAD_CAP = 20  # score points of lead (or deficit) a rollout's value counts at most

# ---------------------------------------------------------------- the work space


@kernel
def streams(mem):
    """The search's random streams in `mem` (uint64): [0] the world's, [1:3] the rollout's,
    [3:5] the playout's, [5] a digest's."""
    return as_uints(shifted(mem, L.S_RNG))


@kernel
def plan_row(mem, i):
    """Candidate plan i of the work space: its habitat dice, card dice and card tokens."""
    at = L.S_PLANS + i * L.PLAN_ROW
    return shifted(mem, at), shifted(mem, at + E.N_HAB), shifted(mem, at + E.N_HAB + E.N_CARDS)


@kernel
def copy_into(dst, src, n):
    for i in range(n):
        dst[i] = src[i]


# ---------------------------------------------------------------- hidden information


@kernel
def recount_assignment(st, cfg, comp, p):
    """Recompute player p's symbol count and cover flag from their portfolio."""
    st[E.SYM_COUNT + p] = 0
    st[E.COVER_DONE + p] = 0
    if cfg[E.C_ASSIGNMENTS] == 0:
        return
    a = st[E.ASSIGN + p]
    photos = st[E.AT + E.L_PORTFOLIO]
    while photos != 0:
        c = low_bit(photos)
        photos &= photos - 1
        if st[E.OWNER + c] == p:
            st[E.SYM_COUNT + p] += bit_count(comp[E.K_SYMBOLS + c] & E.assignment_symbols(comp, a))
            if E.is_cover(comp, a, c):
                st[E.COVER_DONE + p] = 1


@kernel
def sort_deck(st):
    """Put the deck in card order, in place (what the seat knows of it: its cards)."""
    for i in range(E.DECK + 1, E.DECK + st[E.N_DECK]):
        c = st[i]
        j = i
        while j > E.DECK and st[j - 1] > c:
            st[j] = st[j - 1]
            j -= 1
        st[j] = c


@kernel
def determinize(st, cfg, comp, me, rng, pool):
    """Resample what `me` cannot see, in place, from rng stream 0: the deck order (same
    cards, same N_DECK) and the other players' assignments (`pool`: work space for the
    assignments). The result depends on what `me` sees only: the deck is put in card order
    before it is shuffled."""
    st = pointer(st)
    rng = pointer(rng)
    pool = pointer(pool)
    sort_deck(st)
    shuffle(rng, shifted(st, E.DECK), st[E.N_DECK])
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


@kernel
def public_view(st, cfg, me, out):
    """Write into `out` the state with what `me` cannot see blanked: the deck order (sorted)
    and the other players' assignments and what follows from them."""
    copy_into(out, st, E.STATE_SIZE)
    sort_deck(out)
    for p in range(E.n_players(cfg)):
        if p != me:
            out[E.ASSIGN + p] = -1
            out[E.SYM_COUNT + p] = 0
            out[E.COVER_DONE + p] = 0


@kernel
def state_key(st, n, seed, h):
    """A 64-bit digest of a state's first n numbers (the search hashes its `public_view`)
    and a seed; h: a uint64 work slot."""
    h[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for i in range(n):
        h[0] ^= np.uint64(st[i] & 0xFFFFFFFF) * np.uint64(0x9E3779B1) + np.uint64(i)
        next_u64(h, np.int64(0))  # (slot 0 as a numpy scalar: see `sim.kernel.CHANCE`)
    return next_u64(h, np.int64(0))


@kernel
def decision_key(st, cfg, mem):
    """The digest of what the seat to move sees, from which all the decision's randomness
    comes (the public view is written where the worlds will be; the card sets that follow
    the state's first part are left out)."""
    st = pointer(st)
    mem = pointer(mem)
    det = shifted(mem, L.S_DET)
    public_view(st, cfg, E.decider(st), det)
    return state_key(det, E.DERIVED, 0, shifted(streams(mem), 5))


@kernel
def sample(st, cfg, comp, me, key, r, mem):
    """Rollout r's world in the work space: a determinized copy of `st` and its chance and
    policy streams (the playout state is the assignments' work space meanwhile)."""
    st = pointer(st)
    mem = pointer(mem)
    u = streams(mem)
    seed_stream(u, np.int64(0), key, 3 * r)  # (numpy scalars: see `sim.kernel.CHANCE`)
    seed_stream(u, np.int64(1), key, 3 * r + 1)
    seed_stream(u, np.int64(2), key, 3 * r + 2)
    det = shifted(mem, L.S_DET)
    copy_into(det, st, E.STATE_SIZE)
    determinize(det, cfg, comp, me, u, shifted(mem, L.S_PLAY))


# ---------------------------------------------------------------- rollouts


@kernel
def value(st, cfg, me, lead):
    """A finished playout's value to `me`: its win share plus `lead` per point of its
    score's lead over the best rival, at most LEAD_CAP points either way."""
    best = -1 << 30
    for p in range(E.n_players(cfg)):
        if p != me:
            best = max(best, E.score(st, p))
    margin = min(LEAD_CAP, max(-LEAD_CAP, E.score(st, me) - best))
    return E.win_share(st, cfg, me) + lead * margin


@kernel
def playout_lineup(mem):
    """The work space's line-up of a playout (`playout`): one greedy kind at every seat."""
    lineup = shifted(mem, L.S_LINEUP)
    lineup[0] = L.GREEDY
    for p in range(E.MAX_PLAYERS):
        lineup[1 + p] = 0
    return lineup


@kernel(inline="always")
def playout(s, cfg, comp, ptab, par, rng, mem, buf, me, lineup):
    """Play `s` to the end with every seat on the base heuristic `par`, on the batch's fast
    path (`heuristic.heuristic_turns`, the line-up `playout_lineup`: the batch's compiled
    call, not another copy of the heuristic compiled into the search); its `value` to `me`."""
    heuristic_turns(s, cfg, comp, ptab, rng, lineup, par, np.int64(0), shifted(lineup, 1), buf,
                    mem)
    return value(s, cfg, me, par[L.P_LEAD])


@kernel(inline="always")
def rollout(cfg, comp, ptab, par, me, mem, move, plan):
    """`me`'s value of a copy of the sampled world (`sample`) and its streams after action
    `move`, or (move < 0) when its turn, before its first die, plays candidate `plan`."""
    mem = pointer(mem)
    s = shifted(mem, L.S_PLAY)
    copy_into(s, shifted(mem, L.S_DET), E.STATE_SIZE)
    u = streams(mem)
    u[3] = u[1]
    u[4] = u[2]
    rng = shifted(u, 3)
    pmem = shifted(mem, L.S_PMEM)
    L.clear_memory(pmem)
    buf = shifted(mem, L.S_BUF)
    if move >= 0:
        E.apply_action(s, cfg, comp, rng, move)
    else:
        hab, dice, tok = plan_row(mem, plan)
        write_plan(pmem, s, hab, dice, tok)
    return playout(s, cfg, comp, ptab, par, rng, pmem, buf, me, playout_lineup(mem))


@kernel
def pick(totals, count, margin_total):
    """Index of the move to play of the `count` whose totals are given: the best total, if it
    beats the base's (index 0) by the margin; else the base."""
    best = 0
    for j in range(1, count):
        if totals[j] > totals[best] + 1e-9:
            best = j
    return best if totals[best] >= totals[0] + margin_total - 1e-9 else 0


# ---------------------------------------------------------------- Preparation plans


@kernel
def write_plan(mem, st, hab, dice, tok):
    """Store a plan in the policies' memory `mem` as the plan of the turn of `st`."""
    for h in range(E.N_HAB):
        mem[L.M_HAB + h] = hab[h]
    for c in range(E.N_CARDS):
        mem[L.M_DICE + c] = dice[c]
        mem[L.M_TOK + c] = tok[c]
    mem[L.M_PLACED] = 0
    mem[L.M_TABLE] = st[E.AT + E.L_TABLE]
    mem[L.M_TURN] = L.turns_played(st)


@kernel(inline="always")
def plan_is_legal(st, cfg, comp, ptab, par, mem, i):
    """Would the heuristic interpreter (parameters `par`) play candidate plan i with legal
    actions only (and all of it)? Tried on the playout state of the work space."""
    hab, dice, tok = plan_row(mem, i)
    s = shifted(mem, L.S_PLAY)
    copy_into(s, st, E.STATE_SIZE)
    pmem = shifted(mem, L.S_PMEM)
    L.clear_memory(pmem)
    write_plan(pmem, s, hab, dice, tok)
    me = s[E.CUR]
    rng = shifted(streams(mem), 3)
    rng[0] = 0
    rng[1] = 0
    buf = shifted(mem, L.S_BUF)
    n = E.legal_actions(s, cfg, comp, buf)
    legal = True
    while legal and s[E.CUR] == me and (s[E.PHASE] == E.PH_PREP_DICE
                                        or s[E.PHASE] == E.PH_PREP_TOKENS):
        a = base_action(s, cfg, comp, ptab, rng, par, buf, n, pmem)
        legal = False
        for j in range(n):
            if buf[j] == a:
                legal = True
        if legal:
            E.apply_action(s, cfg, comp, rng, a)
            if s[E.PHASE] == E.PH_OVER:
                break
            n = E.legal_actions(s, cfg, comp, buf)
    # the whole plan was placed
    for h in range(E.N_HAB):
        if s[E.HAB_DICE + h] != hab[h]:
            legal = False
    for c in range(E.N_CARDS):
        if s[E.DICE_ON + c] != dice[c] or s[E.TOK_ON + c] != tok[c]:
            legal = False
    return legal


@kernel
def same_plan(mem, i, j):
    at, bt = L.S_PLANS + i * L.PLAN_ROW, L.S_PLANS + j * L.PLAN_ROW
    same = True
    for k in range(L.PLAN_ROW):
        if mem[at + k] != mem[bt + k]:
            same = False
    return same


@kernel(inline="always")
def candidate_plans(st, cfg, comp, ptab, par, top, mem):
    """The base's plan, then the exact advisor's best `top` allocations that differ from it
    and that the interpreter plays as they are, as the work space's plan rows (`plan_row`);
    returns how many."""
    pmem = shifted(mem, L.S_PMEM)
    L.clear_memory(pmem)
    plan_value(st, cfg, comp, ptab, par, pmem, L.YES)
    for k in range(L.PLAN_ROW):
        mem[L.S_PLANS + k] = pmem[L.M_HAB + k]
    m = np.int64(1)  # (a count, not the constant 1: see layout.NO_CARD)
    if top > 0:
        kept, cards, n = exact_allocations(st, cfg, comp, ptab, par, L.NO_CARD, L.NO_CARD,
                                           top)
        # the rows by value, best first; equal values keep the search order (a stable sort)
        order = shifted(mem, L.S_ORDER)
        rows = kept.shape[0] if n > 0 else 0
        for i in range(rows):
            j = i
            while j > 0 and kept[order[j - 1], 0] < kept[i, 0]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
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


@kernel
def dice_placed(st):
    """Dice placed so far in this Preparation."""
    k = 0
    for h in range(E.N_HAB):
        k += st[E.HAB_DICE + h]
    for c in range(E.N_CARDS):
        k += st[E.DICE_ON + c]
    return k


@kernel
def totals_of(st, cfg, comp, ptab, par, mem, count, plans):
    """Summed value to the seat to move over `rollouts` rollouts of each of `count` choices
    (the work space's candidate plans if `plans`, else its moves), into the work space's
    totals (floats from S_TOTALS).

    A choice is dropped (its total set to -inf) once it can no longer be picked, whatever the
    remaining rollouts give (a rollout's values of two choices differ by at most 1 + 2 lead):
    it can no longer beat the base's total by the margin, or another's total; the rollouts
    stop once the pick is certain. So `pick` picks what it would from every choice's full
    total, for fewer playouts."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    par = pointer(par)
    mem = pointer(mem)
    me = E.decider(st)
    key = decision_key(st, cfg, mem)
    totals = as_floats(shifted(mem, L.S_TOTALS))
    for i in range(count):
        totals[i] = 0.0
    rollouts = np.int64(par[L.P_ROLLOUTS])
    margin_total = par[L.P_MARGIN] * rollouts
    spread = 1.0 + 2.0 * par[L.P_LEAD]  # how far one rollout can move two totals apart
    for r in range(rollouts):
        sample(st, cfg, comp, me, key, r, mem)
        for i in range(count):
            if totals[i] == -np.inf:
                continue
            # one call of the inlined rollout, not one per branch (each compiles a copy)
            move, plan = (L.NO_MOVE, i) if plans else (mem[L.S_MOVES + i], L.NO_MOVE)
            totals[i] += rollout(cfg, comp, ptab, par, me, mem, move, plan)
        left = spread * (rollouts - r - 1)
        bar = totals[0] + margin_total  # what a choice must reach to be picked
        for i in range(1, count):
            bar = max(bar, totals[i])
        alive, last = 0, 0
        for i in range(1, count):
            if totals[i] > -np.inf and totals[i] + left < bar - 1e-6:
                totals[i] = -np.inf
            elif totals[i] > -np.inf:
                alive += 1
                last = i
        if alive == 0 or (alive == 1 and totals[last] - totals[0] - left >= margin_total + 1e-6):
            break


@kernel(inline="always")
def search_action(st, cfg, comp, ptab, rng, par, buf, n, mem):
    """The `search` kind's action (see the module docstring); always one of buf[:n]."""
    ph = st[E.PHASE]
    margin_total = par[L.P_MARGIN] * np.int64(par[L.P_ROLLOUTS])
    if ph == E.PH_PREP_DICE and dice_placed(st) == 0:
        m = candidate_plans(st, cfg, comp, ptab, par, np.int64(par[L.P_CANDIDATES]), mem)
        j = 0
        if m > 1:
            totals_of(st, cfg, comp, ptab, par, mem, m, L.YES)
            j = pick(as_floats(shifted(mem, L.S_TOTALS)), m, margin_total)
        hab, dice, tok = plan_row(mem, j)
        write_plan(mem, st, hab, dice, tok)
        return base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
    base = base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
    if n < 2 or not (ph == E.PH_PREP_RESERVED or (ph == E.PH_REROLL and st[E.PAY_PENDING] == 0)):
        return base
    mem[L.S_MOVES] = base  # the base's move first
    m = np.int64(1)  # (a count passed on: see layout.NO_CARD)
    for i in range(n):
        if buf[i] != base:
            mem[L.S_MOVES + m] = buf[i]
            m += 1
    totals_of(st, cfg, comp, ptab, par, mem, m, L.NO)
    return mem[L.S_MOVES + pick(as_floats(shifted(mem, L.S_TOTALS)), m, margin_total)]


# ---------------------------------------------------------------- a seat's win chances


@kernel
def finish_preparation(s, cfg, comp, ptab, rng, par, buf, mem, me):
    """Play the rest of `me`'s Preparation step by step on the base's moves, each checked to
    be legal (else the step's last legal action: its end where the rules allow it): after a
    move the base's plan did not make, its fast path's plan may not fit the dice left."""
    while s[E.PHASE] != E.PH_OVER and E.decider(s) == me and (
            s[E.PHASE] == E.PH_PREP_RESERVED or s[E.PHASE] == E.PH_PREP_DICE
            or s[E.PHASE] == E.PH_PREP_TOKENS):
        n = E.legal_actions(s, cfg, comp, buf)
        a = base_action(s, cfg, comp, ptab, rng, par, buf, n, mem)
        legal = False
        for i in range(n):
            if buf[i] == a:
                legal = True
        E.apply_action(s, cfg, comp, rng, a if legal else buf[n - 1])


@kernel
def move_wins(st, cfg, comp, ptab, par, key, first, count, moves, m, width, mem, wins, points,
              reach):
    """The seat to move's win shares and points scored at once, summed over rollouts first ..
    first+count-1 of each of the m moves, into wins[:m] and points[:m]. A move is `width`
    step actions in `moves` (row j from j * width, ended early by a negative one). Rollout r
    samples what the seat cannot see and the chance to come once (`sample`, from `key` and r
    only: never the game's own streams), then plays every move in that world with the same
    streams (common random numbers): its step actions and the forced moves after each (the
    points now), the rest of its Preparation by `finish_preparation` (reach[j] sums the
    `position_digest` there), then every seat on the base heuristic `par` to the end
    (`playout`)."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    par = pointer(par)
    moves = pointer(moves)
    mem = pointer(mem)
    wins = pointer(wins)
    points = pointer(points)
    reach = pointer(reach)
    me = E.decider(st)
    u = streams(mem)
    s = shifted(mem, L.S_PLAY)
    pmem = shifted(mem, L.S_PMEM)
    buf = shifted(mem, L.S_BUF)
    rng = shifted(u, 3)
    for r in range(first, first + count):
        sample(st, cfg, comp, me, key, r, mem)
        for j in range(m):
            copy_into(s, shifted(mem, L.S_DET), E.STATE_SIZE)
            u[3] = u[1]
            u[4] = u[2]
            L.clear_memory(pmem)
            before = E.score(s, me)
            for k in range(width):
                if moves[j * width + k] >= 0 and s[E.PHASE] != E.PH_OVER:
                    E.step(s, cfg, comp, rng, moves[j * width + k], buf)
            points[j] += E.score(s, me) - before
            finish_preparation(s, cfg, comp, ptab, rng, par, buf, pmem, me)
            E.settle(s, cfg, comp, rng, buf)  # to the next decision, however the step ended
            reach[j] += position_digest(s, E.STATE_SIZE)
            playout(s, cfg, comp, ptab, par, rng, pmem, buf, me, playout_lineup(mem))
            wins[j] += E.win_share(s, cfg, me)
