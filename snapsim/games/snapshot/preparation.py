"""Snapshot's preparation plan (Phase 2) for the heuristic kinds: one search a turn decides
the whole phase, which of the player's reserved cards to place (Step A), the dice on
habitats and animals (Step B) and the tokens on animals (Step C).

- Its items are the cards that may take dice this turn: the animals on the table (a
  sideways one must take a die) and, in the reserved-cards step, the player's reserved cards
  (placed when the plan gives them dice; a reserved raccoon is tried in each habitat).
- An item's worth with a dice is its photograph value (`values.card_value`) times the
  chance to photograph it with the best number of tokens (`snapsim.odds`), a token lost
  costing `token_value`.
- Dice: exact for those worths. Given a successful explore the animals of a habitat are
  independent, so the best split of j dice over them is a dynamic programme; its explore
  dice are then chosen (with the re-rolls the tokens would buy); a knapsack over habitats
  gives the plan.
- Tokens: added greedily, in bundles (k on one item) with the best gain per token, while
  that gain is positive.

The heuristic kinds place the plan one action at a time (the step API asks
`reserved_action` and follows the plan kept in the policies' memory) or a step at a time
(`prepare`, the batch's fast path): the same actions. The `exact` kind plans with the
advisor's exhaustive search (`plans.search`). The kernels take `sim.kernel.pointer`s, as
the engine's do.
"""

import numpy as np
from numba import njit

from ...odds.explore import explore_kernel
from ...sim.kernel import is_legal, kernel, low_bit, pointer
from . import engine as E
from .layout import (
    _D,
    _H,
    F_BGAIN,
    F_BRATE,
    F_F,
    F_G,
    F_HV,
    F_ODDS,
    F_PE,
    F_PEH,
    F_VAL,
    F_WORTH,
    M_CAP,
    M_DICE,
    M_HAB,
    M_PLACED,
    M_RACCOON,
    M_TABLE,
    M_TOK,
    M_TURN,
    NO,
    NO_CARD,
    ODDS_REROLLS,
    P_ALLOW_REROLLS,
    P_ALLOW_TOKENS,
    P_TOKEN_VALUE,
    W_BITEM,
    W_BK,
    W_CARD,
    W_DICE,
    W_DIFF,
    W_FIRST,
    W_HE,
    W_IHAB,
    W_KOF,
    W_LO,
    W_ODDS_KEY,
    W_PICK,
    W_TOKENS,
    W_TSTAR,
    YES,
    float_space,
    turns_played,
)
from .plans import MAX_T, photo_p, search
from .values import card_value, generalist_standing, value_of

NONE = -np.inf  # the value of an option no allocation reaches (adds up to itself)

# ---------------------------------------------------------------- explore odds


@kernel
def explore_table(cfg, comp, mem, work):
    """Make work[F_ODDS ...] the explore odds of this config (`explore_kernel` of every
    habitat, explore dice 1-6 and re-roll budget up to ODDS_REROLLS), unless they already
    are: a plan reads them dozens of times, and they depend on the config alone, so they
    are worked out once per memory (in the batch, once per thread)."""
    same = mem[W_ODDS_KEY] == cfg[E.C_REROLL_COST]
    for h in range(_H):
        same = same and mem[W_ODDS_KEY + 1 + h] == comp[E.K_EXPLORE + h]
    if not same:
        for h in range(_H):
            for e in range(1, _D):
                for r in range(ODDS_REROLLS + 1):
                    pe, paid, _ = explore_kernel(e, comp[E.K_EXPLORE + h], r,
                                                 cfg[E.C_REROLL_COST])
                    at = F_ODDS + ((h * (ODDS_REROLLS + 1) + r) * _D + e) * 2
                    work[at] = pe
                    work[at + 1] = paid
        mem[W_ODDS_KEY] = cfg[E.C_REROLL_COST]
        for h in range(_H):
            mem[W_ODDS_KEY + 1 + h] = comp[E.K_EXPLORE + h]


@kernel
def explore_row(cfg, comp, work, h, rerolls, dice):
    """Where (P(explore), E[tokens paid]) of habitat h with e = 1 .. dice dice and a budget
    of `rerolls` lie in work, pair by pair: the table `explore_table` keeps, or beyond its
    budgets `explore_kernel`'s worked out into F_PE."""
    if rerolls <= ODDS_REROLLS:
        return F_ODDS + (h * (ODDS_REROLLS + 1) + rerolls) * _D * 2
    for e in range(1, dice + 1):
        pe, paid, _ = explore_kernel(e, comp[E.K_EXPLORE + h], rerolls, cfg[E.C_REROLL_COST])
        work[F_PE + 2 * e] = pe
        work[F_PE + 2 * e + 1] = paid
    return F_PE


@kernel
def explore_odds(cfg, comp, work, h, e, rerolls):
    """(P(explore), E[tokens paid]) of habitat h with e dice and a budget of `rerolls`
    (`explore_row`)."""
    at = explore_row(cfg, comp, work, h, rerolls, e) + 2 * e
    return work[at], work[at + 1]


# ---------------------------------------------------------------- the plan's items


@kernel
def plan_tokens(st, cfg, par):
    """The tokens a plan may use: the player's, unless the policy never spends tokens; and
    the explore re-rolls they buy, unless the policy never buys one."""
    tokens = st[E.TOKENS + st[E.CUR]] if par[P_ALLOW_TOKENS] > 0 else 0
    rerolls = tokens // cfg[E.C_REROLL_COST] if cfg[E.C_TOKENS] == 1 else 0
    if par[P_ALLOW_REROLLS] <= 0:
        rerolls = 0
    return tokens, rerolls


@kernel
def my_reserved(st, p):
    """p's reserved cards, as a bit mask."""
    mine = 0
    held = st[E.AT + E.L_RESERVE]
    while held != 0:
        c = low_bit(held)
        held &= held - 1
        if st[E.OWNER + c] == p:
            mine |= np.int64(1) << c
    return mine


@kernel
def collect_items(st, cfg, comp, par, mem, work, reserved, raccoon_hab):
    """The plan's items into the work space (W_CARD, W_DIFF, W_LO, F_VAL; habitat h's from
    W_FIRST + h): each habitat's animals on the table and the current player's reserved
    cards in the bit mask `reserved` of that habitat (a reserved raccoon in `raccoon_hab`),
    in card order. An item's fewest dice (W_LO) are those already on it, and one for a
    sideways card: a plan made after the seat's own moves departed from its last one keeps
    what is placed and completes it."""
    p = st[E.CUR]
    least, level = generalist_standing(st, p)
    n = 0
    for h in range(_H):
        mem[W_FIRST + h] = n
        cards = st[E.HAB_CARDS + h] | (reserved & comp[E.K_LOW + h * E.LOW_W + E.LOW_W - 1])
        if raccoon_hab == h:
            cards |= np.int64(1) << E.RACCOON
        while cards != 0:
            c = low_bit(cards)
            cards &= cards - 1
            mem[W_CARD + n] = c
            mem[W_DIFF + n] = E.card_difficulty(st, comp, c)
            mem[W_LO + n] = 0
            if st[E.LOC + c] == E.L_TABLE:  # what is on it stays; a sideways card takes one
                mem[W_LO + n] = max(st[E.DICE_ON + c], st[E.SIDEWAYS + c])
            mem[W_IHAB + n] = h
            work[F_VAL + n] = value_of(st, cfg, comp, par, p, c, least, level)
            n += 1
    mem[W_FIRST + _H] = n


@kernel
def item_worths(ptab, mem, work, i, dice, tcap, lam):
    """Item i's worth with a dice, a = 0 .. dice - 1 (one die at least explores), into
    work[F_WORTH + i * _D + a]: its value times P(photograph) with the best number of tokens
    up to tcap, less their cost; that number into mem[W_TSTAR + i * _D + a]."""
    at = F_WORTH + i * _D
    v = work[F_VAL + i]
    d = mem[W_DIFF + i]
    work[at] = 0.0
    mem[W_TSTAR + i * _D] = 0
    for a in range(1, dice):
        w = 0.0
        best_t = 0
        for t in range(tcap + 1):
            q = photo_p(ptab, a, t, d)
            f = q * (v - lam * t)
            if f > w:
                w = f
                best_t = t
            # more tokens cannot do better once the photograph is certain, the token cost
            # has eaten the card's value, or a token gained less than it cost: the chance
            # of a dice total (with tokens) is log-concave in the tokens, and so is the
            # value left, so their product rises to its best and then falls
            if lam >= 0.0 and (f < w or q >= 1.0 or v - lam * t <= 0.0):
                break
        work[at + a] = w
        mem[W_TSTAR + i * _D + a] = best_t
        if lam >= 0.0 and w == v:  # certain without a token: so with every further die
            for b in range(a + 1, dice):
                work[at + b] = v
                mem[W_TSTAR + i * _D + b] = 0
            break


# ---------------------------------------------------------------- dice


@kernel
def habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, rerolls, h, dice):
    """Habitat h's best value for every count k of the plan's `dice` (work[F_HV + h * _D +
    k], NONE where none), with its explore dice (mem[W_HE + h * _D + k], at least those on
    it already), given the re-rolls the tokens buy (`plan_tokens`); the dynamic programme's
    choices are kept in W_PICK for the dice of the plan (`plan_dice`)."""
    lam = par[P_TOKEN_VALUE]
    first, last = mem[W_FIRST + h], mem[W_FIRST + h + 1]
    hv = F_HV + h * _D
    he = W_HE + h * _D
    if first == last:  # no animal: no dice
        for k in range(dice + 1):
            work[hv + k] = NONE
            mem[he + k] = 0
        work[hv] = 0.0
        return
    tcap = min(tokens, MAX_T) if cfg[E.C_TOKENS] == 1 else 0
    explored = st[E.HAB_DICE + h]  # explore dice placed: they stay
    any_mandatory = explored > 0
    for i in range(first, last):
        item_worths(ptab, mem, work, i, dice, tcap, lam)
        lo = mem[W_LO + i]
        if lo > 0:
            any_mandatory = True
        w = F_WORTH + i * _D
        pick = W_PICK + i * _D
        if i == first:
            # after no item every count is worth 0: the best of at most j dice is the best
            # worth so far, reached first at `a`
            best = NONE
            a = 0
            for j in range(dice):
                better = j >= lo and work[w + j] > best
                best = work[w + j] if better else best
                a = j if better else a
                work[F_F + j] = best
                mem[pick + j] = a
        else:
            # f[j] from f[j - a] (a >= lo), in place from the top down (a count no split
            # reaches, NONE, adds up to NONE and so is never better)
            for j in range(dice - 1, -1, -1):
                best = NONE
                a = 0
                for x in range(lo, j + 1):
                    val = work[F_F + j - x] + work[w + x]
                    better = val > best
                    best = val if better else best
                    a = x if better else a
                work[F_F + j] = best
                mem[pick + j] = a
    odds = explore_row(cfg, comp, work, h, rerolls, dice)
    for k in range(dice + 1):
        best = NONE if any_mandatory else 0.0
        explore = 0
        for e in range(max(explored, 1), k + 1):
            # (NONE, no split, gives NONE, or NaN where P(explore) is 0: never better)
            val = work[odds + 2 * e] * work[F_F + k - e] - lam * work[odds + 2 * e + 1]
            better = val > best + 1e-12
            best = val if better else best
            explore = e if better else explore
        work[hv + k] = best
        mem[he + k] = explore


@kernel
def plan_dice(work, mem, dice):
    """The knapsack over the habitats' options for `dice` dice: the best plan's dice into
    mem[W_KOF + h] (per habitat) and mem[W_DICE + i] (per item); returns its value (NONE:
    none). work[F_G + h * _D + t]: the best value of the first h habitats with t dice in
    all."""
    for t in range(dice + 1):
        work[F_G + t] = NONE
    work[F_G] = 0.0
    before = False  # whether a habitat before h has items
    for h in range(_H):
        g0 = F_G + h * _D
        g1 = g0 + _D
        hv = F_HV + h * _D
        if mem[W_FIRST + h] == mem[W_FIRST + h + 1]:  # no items: no dice
            for t in range(dice + 1):
                work[g1 + t] = work[g0 + t]
            continue
        if not before:  # with no dice before it, the first habitat's options are the values
            before = True
            for t in range(dice + 1):
                work[g1 + t] = work[hv + t]
            continue
        for t in range(dice + 1):
            best = NONE
            for k in range(t + 1):
                val = work[g0 + t - k] + work[hv + k]
                if val > best + 1e-12:
                    best = val
            work[g1 + t] = best
    last = F_G + _H * _D
    t = 0
    for x in range(dice + 1):
        if work[last + x] > work[last + t] + 1e-12:
            t = x
    total = work[last + t]
    if total > NONE:
        # back through the habitats: the first split that reaches each best value
        for h in range(_H - 1, -1, -1):
            g0 = F_G + h * _D
            hv = F_HV + h * _D
            target = work[g0 + _D + t]
            k = 0
            while k < t:
                a = work[g0 + t - k]
                b = work[hv + k]
                if a > NONE and b > NONE and a + b >= target - 1e-9:
                    break
                k += 1
            mem[W_KOF + h] = k
            t -= k
        for h in range(_H):
            k = mem[W_KOF + h]
            e = mem[W_HE + h * _D + k]
            j = k - e
            for i in range(mem[W_FIRST + h + 1] - 1, mem[W_FIRST + h] - 1, -1):
                a = mem[W_PICK + i * _D + j] if e > 0 else 0
                mem[W_DICE + i] = a
                j -= a
    return total


# ---------------------------------------------------------------- tokens


@kernel
def best_bundle(ptab, pe, dice, t, d, v, lam, left):
    """The first bundle of k <= `left` more tokens (on a card with `dice` dice, `t` tokens,
    difficulty d and value v, in a habitat explored with probability pe) with the best gain
    per token above 1e-9: (its gain per token, k, its gain); k = 0 when none gains."""
    best_rate = 1e-9
    best_k = 0
    best_gain = 0.0
    base = photo_p(ptab, dice, t, d) * (v - lam * t)
    for k in range(1, min(left, MAX_T - t) + 1):
        q = photo_p(ptab, dice, t + k, d)
        gain = pe * (q * (v - lam * (t + k)) - base)
        if gain > best_rate * k:
            best_rate = gain / k
            best_k, best_gain = k, gain
        if q >= 1.0:
            break
    return best_rate, best_k, best_gain


@kernel
def plan_tokens_onto(st, cfg, comp, ptab, par, work, mem, tokens):
    """Tokens onto the items the plan gives dice (mem[W_DICE]) into mem[W_TOKENS], on top of
    those already on them (`tokens` more at most): each its best number (`item_worths`)
    when the tokens suffice for all; else in bundles with the best gain per token while
    positive, the first item in card order with the best rate taking its bundle. An item's
    best bundle changes only when it gains tokens or fewer tokens are left than it takes
    (its best over a shorter range is the same bundle), so only those are redone. Returns
    the expected gain."""
    lam = par[P_TOKEN_VALUE]
    # the items given dice, in card order, and their habitats' P(explore) with no re-roll
    m = 0
    for h in range(_H):
        e = mem[W_HE + h * _D + mem[W_KOF + h]]
        work[F_PEH + h] = explore_odds(cfg, comp, work, h, e, np.int64(0))[0] if e > 0 \
            else 0.0
        for i in range(mem[W_FIRST + h], mem[W_FIRST + h + 1]):
            c = mem[W_CARD + i]
            mem[W_TOKENS + i] = st[E.TOK_ON + c] if st[E.LOC + c] == E.L_TABLE else 0
            if mem[W_DICE + i] > 0:
                at = m
                while at > 0 and mem[W_CARD + mem[W_BITEM + at - 1]] > mem[W_CARD + i]:
                    mem[W_BITEM + at] = mem[W_BITEM + at - 1]
                    at -= 1
                mem[W_BITEM + at] = i
                m += 1
    gained = 0.0
    left = tokens if cfg[E.C_TOKENS] == 1 else 0
    # enough tokens for every item's best number with its dice (`item_worths`): those
    wanted = 0
    for b in range(m):
        i = mem[W_BITEM + b]
        wanted += max(mem[W_TSTAR + i * _D + mem[W_DICE + i]] - mem[W_TOKENS + i], 0)
    if 0 < wanted <= left:
        for b in range(m):
            i = mem[W_BITEM + b]
            a, t0 = mem[W_DICE + i], mem[W_TOKENS + i]
            t = mem[W_TSTAR + i * _D + a]
            if t > t0:
                v, d = work[F_VAL + i], mem[W_DIFF + i]
                mem[W_TOKENS + i] = t
                gained += work[F_PEH + mem[W_IHAB + i]] * (
                    photo_p(ptab, a, t, d) * (v - lam * t) - photo_p(ptab, a, t0, d)
                    * (v - lam * t0))
        left = 0
    for b in range(m):
        mem[W_BK + b] = -1  # to find
    while left > 0:
        best_rate = 1e-9
        best_b = -1
        for b in range(m):
            i = mem[W_BITEM + b]
            if mem[W_BK + b] < 0 or mem[W_BK + b] > left:
                rate, k, gain = best_bundle(ptab, work[F_PEH + mem[W_IHAB + i]],
                                            mem[W_DICE + i], mem[W_TOKENS + i],
                                            mem[W_DIFF + i], work[F_VAL + i], lam, left)
                work[F_BRATE + b] = rate
                mem[W_BK + b] = k
                work[F_BGAIN + b] = gain
            if mem[W_BK + b] > 0 and work[F_BRATE + b] > best_rate:
                best_rate = work[F_BRATE + b]
                best_b = b
        if best_b < 0:
            break
        mem[W_TOKENS + mem[W_BITEM + best_b]] += mem[W_BK + best_b]
        gained += work[F_BGAIN + best_b]
        left -= mem[W_BK + best_b]
        mem[W_BK + best_b] = -1
    return gained


# ---------------------------------------------------------------- the plan


@kernel
def dice_budget(st, cfg):
    """The dice a plan allocates: the player's, or in the tokens step those placed (the dice
    step is over)."""
    dice = cfg[E.C_DICE]
    if st[E.PHASE] == E.PH_PREP_TOKENS:
        dice -= st[E.DICE_LEFT]
    return dice


@kernel
def store_plan(st, mem, raccoon_hab):
    """The work space's best plan as the turn's plan (M_*): dice per habitat, dice and
    tokens per card, the reserved cards it places (and the raccoon's habitat), the table it
    is for."""
    for h in range(_H):
        mem[M_HAB + h] = mem[W_HE + h * _D + mem[W_KOF + h]]
    for c in range(E.N_CARDS):
        mem[M_DICE + c] = 0
        mem[M_TOK + c] = 0
    placed = 0
    for i in range(mem[W_FIRST + _H]):
        c = mem[W_CARD + i]
        mem[M_DICE + c] = mem[W_DICE + i]
        mem[M_TOK + c] = mem[W_TOKENS + i]
        if mem[W_DICE + i] > 0 and st[E.LOC + c] != E.L_TABLE:
            placed |= np.int64(1) << c
    mem[M_PLACED] = placed
    mem[M_RACCOON] = raccoon_hab
    mem[M_TABLE] = st[E.AT + E.L_TABLE] | placed
    mem[M_TURN] = turns_played(st)


@kernel(inline="always")
def plan_with(st, cfg, comp, ptab, par, mem, work, tokens, rerolls, reserved, raccoon_hab,
              store_above):
    """The best plan over the table's animals and the reserved cards in `reserved` (the
    raccoon in `raccoon_hab`); returns its expected value, and stores it as the turn's plan
    when that beats `store_above` (-inf: always, inf: never)."""
    collect_items(st, cfg, comp, par, mem, work, reserved, raccoon_hab)
    dice = dice_budget(st, cfg)
    for h in range(_H):
        habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, rerolls, h, dice)
    total = plan_dice(work, mem, dice)
    if total > NONE:
        total += plan_tokens_onto(st, cfg, comp, ptab, par, work, mem, tokens)
        if total > store_above + 1e-9:
            store_plan(st, mem, raccoon_hab)
    return total


@kernel
def plan(st, cfg, comp, ptab, par, mem, with_reserved, write):
    """The current player's best plan, placing any of its reserved cards if `with_reserved`
    (the reserved-cards step); stored as the turn's plan if `write`. Returns its value."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    par = pointer(par)
    mem = pointer(mem)
    work = float_space(mem)
    explore_table(cfg, comp, mem, work)
    tokens, rerolls = plan_tokens(st, cfg, par)
    reserved = my_reserved(st, st[E.CUR]) if with_reserved else np.int64(0)
    raccoon = reserved >> E.RACCOON & 1
    reserved &= ~(np.int64(1) << E.RACCOON)
    best = plan_with(st, cfg, comp, ptab, par, mem, work, tokens, rerolls, reserved, NO_CARD,
                     -np.inf if write else np.inf)
    if raccoon == 1:  # a reserved raccoon: each habitat tried
        for h in range(_H):
            v = plan_with(st, cfg, comp, ptab, par, mem, work, tokens, rerolls, reserved,
                          np.int64(h), best if write else np.inf)
            best = max(best, v)
    return best


@kernel(inline="always")
def plan_value(st, cfg, comp, ptab, par, mem, write):
    """The value of the dice step's plan (no reserved card placed); stored if `write`."""
    return plan(st, cfg, comp, ptab, par, mem, NO, write)


@kernel
def plan_fits(st, mem):
    """Whether the kept plan is this turn's and the position is part of it: the table it was
    made for, no die or token beyond it, and in the tokens step its dice all placed. A seat
    whose moves were all its plan's always fits; any other move (a person's, an outside
    agent's, a random one) that departed from the plan makes it not fit. Only the table's
    cards are read: a die or token lies only on a card on the table, and the plan's only on
    the table it was made for, which the position's must be (every decision of a
    preparation asks)."""
    table = st[E.AT + E.L_TABLE]
    if mem[M_TURN] != turns_played(st) or mem[M_TABLE] != table:
        return False
    tokens_step = st[E.PHASE] == E.PH_PREP_TOKENS
    for h in range(E.N_HAB):
        d = st[E.HAB_DICE + h]
        if d > mem[M_HAB + h] or (tokens_step and d != mem[M_HAB + h]):
            return False
    while table != 0:
        c = low_bit(table)
        table &= table - 1
        d = st[E.DICE_ON + c]
        if d > mem[M_DICE + c] or (tokens_step and d != mem[M_DICE + c]) \
                or st[E.TOK_ON + c] > mem[M_TOK + c]:
            return False
    return True


@kernel(inline="always")
def make_plan(st, cfg, comp, ptab, par, exact, mem):
    """Keep the turn's plan in `mem` while it fits the position (`plan_fits`: the
    reserved-cards step placed what it planned, the dice and tokens placed are its own);
    else make one from the position, keeping what is placed (the exact kind's exhaustive
    search in the dice step, if what is placed is part of its optimum). The heuristic kinds
    place its dice and tokens one action at a time."""
    st = pointer(st)
    mem = pointer(mem)
    if not plan_fits(st, mem):
        fits = False
        if exact is not None and exact and st[E.PHASE] == E.PH_PREP_DICE:
            exact_plan(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, YES)
            fits = plan_fits(st, mem)  # (the forced dice placed are part of it)
        if not fits:
            plan(st, cfg, comp, ptab, par, mem, NO, YES)
            if exact is not None and exact:  # its re-rolls: as many as the tokens buy
                mem[M_CAP] = plan_tokens(st, cfg, par)[1]


# ---------------------------------------------------------------- the plan's actions


@kernel(inline="always")
def reserved_action(st, cfg, comp, ptab, par, buf, n, exact, mem):
    """Step A: the next reserved card the turn's plan places (in card order; the plan is
    made at the step's first decision), if legal; else the step ends. The exact kind
    compares each legal placement by the advisor's search (`exact_reserved_action`)."""
    if exact is not None and exact:
        return exact_reserved_action(st, cfg, comp, ptab, par, buf, n, mem)
    if mem[M_TURN] != turns_played(st) or st[E.AT + E.L_TABLE] & ~mem[M_TABLE] != 0:
        plan(st, cfg, comp, ptab, par, mem, YES, YES)  # (after a placement not its own)
    a = E.act(E.A_RESERVED_DONE)
    left = mem[M_PLACED] & st[E.AT + E.L_RESERVE]
    if left != 0:
        c = low_bit(left)
        a = E.act(E.A_PLACE_RESERVED, E.RACCOON_ARG + mem[M_RACCOON] if c == E.RACCOON else c)
        if not is_legal(buf, n, a):
            a = E.act(E.A_RESERVED_DONE)
    return a


@kernel
def dice_action(st, mem):
    """Step B: the plan's next die (habitats first, in habitat order, then animals in card
    order), or the step's end."""
    a = E.act(E.A_DICE_DONE)
    for c in range(E.N_CARDS - 1, -1, -1):
        if st[E.DICE_ON + c] < mem[M_DICE + c]:
            a = E.act(E.A_DIE_ANIMAL, c)
    for h in range(E.N_HAB - 1, -1, -1):
        if st[E.HAB_DICE + h] < mem[M_HAB + h]:
            a = E.act(E.A_DIE_HABITAT, h)
    return a


@kernel
def token_action(st, mem):
    """Step C: the plan's next token (in card order), or the step's end."""
    a = E.act(E.A_TOKENS_DONE)
    if st[E.TOKENS + st[E.CUR]] > 0:
        for c in range(E.N_CARDS - 1, -1, -1):
            if st[E.TOK_ON + c] < mem[M_TOK + c]:
                a = E.act(E.A_TOKEN, c)
    return a


@kernel(inline="always")
def prepare(st, cfg, comp, ptab, rng, par, buf, mem):
    """A greedy-kind seat's step of Phase 2 (reserved cards, dice or tokens) in one go: the
    actions its policy takes one decision at a time, applied with `engine.apply_action`.
    Reserved cards: the plan's placements, each while legal, and with only the step's end
    left it is played as the forced move it is. Dice and tokens: each die and token of the
    plan `make_plan` stores; the plan is legal (sideways cards and their habitats get their
    dice), so the forced moves between those decisions are moves of the plan, and the order
    of placing draws no random number: the game is the one played decision by decision.
    The step ends with its closing action applied (the forced moves after it are left to
    the caller)."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    ph = st[E.PHASE]
    if ph == E.PH_PREP_RESERVED:
        n = E.legal_actions(st, cfg, comp, buf)
        while True:
            if n == 1:  # the step's end alone: forced
                E.apply_action(st, cfg, comp, rng, buf[0])
                break
            a = reserved_action(st, cfg, comp, ptab, par, buf, n, None, mem)
            E.apply_action(st, cfg, comp, rng, a)
            if a == E.act(E.A_RESERVED_DONE):
                break
            n = E.legal_actions(st, cfg, comp, buf)
    elif ph == E.PH_PREP_DICE:
        make_plan(st, cfg, comp, ptab, par, None, mem)
        for h in range(E.N_HAB):
            for _ in range(st[E.HAB_DICE + h], mem[M_HAB + h]):
                E.apply_action(st, cfg, comp, rng, E.act(E.A_DIE_HABITAT, h))
        table = st[E.AT + E.L_TABLE]  # (the plan's cards are on the table)
        while table != 0:
            c = low_bit(table)
            table &= table - 1
            for _ in range(st[E.DICE_ON + c], mem[M_DICE + c]):
                E.apply_action(st, cfg, comp, rng, E.act(E.A_DIE_ANIMAL, c))
        E.apply_action(st, cfg, comp, rng, E.act(E.A_DICE_DONE))
    else:
        make_plan(st, cfg, comp, ptab, par, None, mem)
        p = st[E.CUR]
        table = st[E.AT + E.L_TABLE]
        while table != 0:
            c = low_bit(table)
            table &= table - 1
            for _ in range(st[E.TOK_ON + c], mem[M_TOK + c]):
                if st[E.TOKENS + p] > 0:
                    E.apply_action(st, cfg, comp, rng, E.act(E.A_TOKEN, c))
        E.apply_action(st, cfg, comp, rng, E.act(E.A_TOKENS_DONE))


# ---------------------------------------------------------------- the exact kind


@njit(cache=True)
def exact_allocations(st, cfg, comp, ptab, par, extra_card, extra_hab, top):
    """The advisor's exhaustive search (snapsim advise prep, `plans.search`) for the current
    player, with one more reserved card placed: its best `top` rows, and the cards they
    allocate dice and tokens to (cards[:n], in row order)."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    par = pointer(par)
    p = st[E.CUR]
    n = 0
    cards = np.empty(E.N_CARDS, np.int64)
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == E.L_TABLE or c == extra_card:
            cards[n] = c
            n += 1
    hab = np.empty(n, np.int64)
    diff = np.empty(n, np.int64)
    val = np.empty(n)
    mand = np.zeros(n, np.bool_)
    for i in range(n):
        c = cards[i]
        on = st[E.LOC + c] == E.L_TABLE
        hab[i] = st[E.ON_HAB + c] if on else extra_hab
        diff[i] = E.card_difficulty(st, comp, c)
        val[i] = card_value(st, cfg, comp, par, p, c)
        mand[i] = (not on) or st[E.SIDEWAYS + c] == 1
    targets = np.empty(E.N_HAB, np.int64)
    for h in range(E.N_HAB):
        targets[h] = comp[E.K_EXPLORE + h]
    tokens = st[E.TOKENS + p] if cfg[E.C_TOKENS] == 1 else 0
    kept, _ = search(ptab, hab, diff, val, mand, targets, cfg[E.C_DICE], tokens,
                     cfg[E.C_REROLL_COST], par[P_TOKEN_VALUE], top)
    return kept, cards, n


@njit(cache=True)
def exact_plan(st, cfg, comp, ptab, par, extra_card, extra_hab, mem, write):
    """The advisor's exhaustive optimum (snapsim advise prep) for the current player, with
    one more reserved card placed; optionally stored as the plan, with its re-roll cap."""
    kept, cards, n = exact_allocations(st, cfg, comp, ptab, par, extra_card, extra_hab,
                                       np.int64(1))
    row = kept[0]
    if write:
        for h in range(E.N_HAB):
            mem[M_HAB + h] = np.int64(row[1 + h])
        for c in range(E.N_CARDS):
            mem[M_DICE + c] = 0
            mem[M_TOK + c] = 0
        for i in range(n):
            mem[M_DICE + cards[i]] = np.int64(row[1 + E.N_HAB + i])
            mem[M_TOK + cards[i]] = np.int64(row[1 + E.N_HAB + n + i])
        mem[M_CAP] = np.int64(row[1 + E.N_HAB + 2 * n])
        mem[M_PLACED] = 0
        mem[M_TABLE] = st[E.AT + E.L_TABLE]
        mem[M_TURN] = turns_played(st)
    return row[0]


@kernel(inline="always")
def exact_reserved_action(st, cfg, comp, ptab, par, buf, n, mem):
    """The exact kind's Step A: of the legal placements of reserved cards in buf, the one
    that raises the advisor's best plan most; the step's end if none does."""
    best = exact_plan(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, NO)
    best_a = E.act(E.A_RESERVED_DONE)
    for i in range(n):
        a = buf[i]
        if E.act_kind(a) != E.A_PLACE_RESERVED:
            continue
        c, h = E.reserved_placement(comp, E.act_arg(a))
        v = exact_plan(st, cfg, comp, ptab, par, c, h, mem, NO)
        if v > best + 1e-9:
            best = v
            best_a = a
    return best_a
