"""The Snapshot heuristic kinds' decisions (greedy, cautious, aggressive, collector, exact):
one interpreter of a parameter vector (layout.PARAM_NAMES).

- Research: keep drawing while fewer than `max_placed` cards were placed this turn and the
  exact risk that the next card cannot be placed (card counting over the unseen cards) is at
  most `max_risk` (scaled by `slot_risk` while a reserve slot is free).
- Offers, acceptances and reserving compare the card's value (`values.card_value`) with
  thresholds; a raccoon (drawn or dealt at set-up) goes where it turns the fewest unseen
  cards into spookers.
- Preparation: the turn's plan (preparation.py), placed action by action.
- Re-rolls are bought while what is at stake exceeds what paying costs; each token comes
  from the cheapest source, the supply (a token is worth `token_value`) or an animal card
  (the photograph value its total loses), so cards may share a re-roll's cost. The exact
  kind re-rolls as the advisor's exact search says (`plans.reroll_search`, over every
  payment from the supply and the habitat's animal cards), at most the plan's cap.

Each decision is one function that reads what is legal from the engine's rules, so the step
API (`heuristic_action`, given the legal actions) and the batch's fast path
(`heuristic_decision`, which lists them only where a choice compares them) play the same
moves. The kernels take `sim.kernel.pointer`s, as the engine's do.
"""

import numpy as np
from numba import njit

from ...sim.kernel import (
    POLICY,
    bit_count,
    is_legal,
    kernel,
    low_bit,
    pointer,
    randint,
    shifted,
)
from . import engine as E
from .layout import (
    M_CAP,
    M_TURN,
    P_ACCEPT_MAX,
    P_ALLOW_OFFERS,
    P_ALLOW_REROLLS,
    P_ALLOW_RESERVE,
    P_ALLOW_TOKENS,
    P_KEEP_MIN,
    P_MAX_PLACED,
    P_MAX_RISK,
    P_OFFER_MIN,
    P_OFFER_TOKENS,
    P_RESERVE_MIN,
    P_SLOT_RISK,
    P_TOKEN_VALUE,
    W_TAKEN,
    on_fast_path,
    turns_played,
)
from .plans import photo_p, reroll_search
from .preparation import dice_action, make_plan, prepare, reserved_action, token_action
from .values import card_value

# ---------------------------------------------------------------- the heuristic's decisions
# One function per decision, shared by the step API (`heuristic_action`) and the batch's
# fast path (`heuristic_decision`); they read what is legal from the engine's own rules, so
# the two drivers play the same moves.


@kernel
def next_risk(st, comp):
    """Exact P(the next card drawn cannot be placed), counted over the unseen cards."""
    unseen = E.cards_at(st, E.L_DECK if st[E.N_DECK] > 0 else E.L_DISCARD)
    tops = E.habitat_tops(st, comp)
    n = bit_count(unseen)
    bad = bit_count(unseen & E.spookers(comp, tops))
    if unseen >> E.RACCOON & 1:
        blocked = True
        for h in range(E.N_HAB):
            if tops[h] < st[E.RACCOON_DIFF]:
                blocked = False
        if blocked:
            bad += 1
    return bad / n if n > 0 else 1.0



@kernel
def wants_draw(st, cfg, comp, par):
    """Research: keep drawing while fewer than `max_placed` cards were placed this turn and
    the risk that the next card cannot be placed is at most `max_risk` (divided by
    `slot_risk` while a reserve slot is free)."""
    draw = False
    if E.deck_can_draw(st) and st[E.PLACED_TURN] < par[P_MAX_PLACED]:
        risk = next_risk(st, comp)
        if E.free_slots(st, cfg, st[E.CUR]) > 0:
            risk /= par[P_SLOT_RISK]
        draw = risk <= par[P_MAX_RISK]
    return draw


@kernel
def wants_to_offer(st, cfg, comp, par):
    """Option D, the asked player's side: offer for a card worth at least `offer_min` while
    holding at least `offer_tokens` tokens."""
    p = st[E.ASKED]
    offer = False
    # the tokens first: a player holding too few does not value the card
    if par[P_ALLOW_OFFERS] > 0 and par[P_ALLOW_RESERVE] > 0 and par[P_ALLOW_TOKENS] > 0 \
            and st[E.TOKENS + p] >= par[P_OFFER_TOKENS]:
        offer = card_value(st, cfg, comp, par, p, st[E.DRAWN]) >= par[P_OFFER_MIN]
    return offer


@kernel
def raccoon_habitat(st, comp, habitats):
    """Of the habitats in the bit mask `habitats`, the first where the raccoon turns the
    fewest unseen cards into spookers."""
    best = -1
    best_new = 1 << 30
    for h in range(E.N_HAB):
        if habitats >> h & 1:
            # the unseen animals of h above its top and up to the raccoon's difficulty
            low = E.K_LOW + h * E.LOW_W
            unseen = st[E.AT + E.L_DECK] | st[E.AT + E.L_DISCARD]
            new = bit_count(unseen & comp[low + st[E.RACCOON_DIFF]]
                            & ~comp[low + E.habitat_top(st, comp, h)])
            if new < best_new:
                best, best_new = h, new
    return best


@kernel
def decide_action(st, cfg, comp, par):
    """The drawn card: accept an offer unless the card is placeable and worth at least
    `accept_max` (or worth keeping, `keep_min`, when it is not); reserve a placeable card
    worth at least `keep_min`, else place it (the raccoon where it makes fewest spookers);
    reserve a card that would spook if worth at least `reserve_min`; else spook, leaving
    the raccoon in the habitat worth least."""
    p = st[E.CUR]
    c = st[E.DRAWN]
    v = card_value(st, cfg, comp, par, p, c)
    can_reserve = E.free_slots(st, cfg, p) > 0 and par[P_ALLOW_RESERVE] > 0
    mask, fits = E.placements(st, cfg, comp)
    place = -1
    if mask != 0:
        h = raccoon_habitat(st, comp, mask) if c == E.RACCOON else low_bit(mask)
        place = E.act(E.A_PLACE, h)
    if st[E.OFFERER] >= 0:
        a = E.act(E.A_ACCEPT)
        if place >= 0 and v >= par[P_ACCEPT_MAX]:
            a = place
        elif place < 0 and can_reserve and v >= par[P_KEEP_MIN]:
            a = E.act(E.A_RESERVE)
    elif place >= 0:
        a = place
        if can_reserve and v >= par[P_KEEP_MIN]:
            a = E.act(E.A_RESERVE)
    elif can_reserve and v >= par[P_RESERVE_MIN]:
        a = E.act(E.A_RESERVE)
    else:
        # spook (no habitat takes the card): the raccoon is left in the habitat worth least
        first = 0 if c == E.RACCOON else comp[E.K_HAB + c]
        last = E.N_HAB - 1 if c == E.RACCOON else first
        best_v = 1e18
        a = E.act(E.A_SPOOK, first)
        for h in range(first, last + 1):
            hv = 0.0
            cards = st[E.HAB_CARDS + h]
            while cards != 0:
                x = low_bit(cards)
                cards &= cards - 1
                hv += card_value(st, cfg, comp, par, p, x)
            if hv < best_v:
                a, best_v = E.act(E.A_SPOOK, h), hv
    return a


@kernel
def token_loss(st, cfg, comp, ptab, par, p, c, taken):
    """What taking one more token off card c (after `taken`) costs in photograph value."""
    d = E.card_difficulty(st, comp, c)
    t = st[E.TOK_ON + c] - taken
    drop = photo_p(ptab, st[E.DICE_ON + c], t, d) - photo_p(ptab, st[E.DICE_ON + c], t - 1, d)
    loss = 0.0  # (a token the photograph does not need costs nothing: the card not valued)
    if drop != 0.0:
        loss = drop * card_value(st, cfg, comp, par, p, c)
    return loss


@kernel
def greedy_reroll(st, cfg, comp, ptab, par, p, mem):
    """Buy a re-roll while the habitat's stake beats the cheapest payment; pay each token from
    the cheapest source (card order, supply last, as the engine asks for them). The tokens
    the payment takes off each card are counted in mem[W_TAKEN + c]."""
    a = E.act(E.A_GIVE_UP)
    if st[E.PAY_PENDING] > 0 or (par[P_ALLOW_REROLLS] > 0 and par[P_ALLOW_TOKENS] > 0):
        need = cfg[E.C_REROLL_COST] - st[E.PAY_PENDING]
        floor = st[E.PAY_FLOOR]
        # tokens lie on the table's animals only (a card leaving the table loses its tokens);
        # those from the payment's floor on may pay
        sources = 0
        if floor < E.N_CARDS:
            sources = st[E.AT + E.L_TABLE] >> floor << floor
        left = sources
        while left != 0:
            mem[W_TAKEN + low_bit(left)] = 0
            left &= left - 1
        from_supply = 0
        loss = 0.0
        first = E.SUPPLY
        payable = True
        for _ in range(need):
            best_c = E.SUPPLY
            best = par[P_TOKEN_VALUE] if st[E.TOKENS + p] > from_supply else 1e18
            left = sources
            while left != 0:
                c = low_bit(left)
                left &= left - 1
                if st[E.TOK_ON + c] > mem[W_TAKEN + c]:
                    x = token_loss(st, cfg, comp, ptab, par, p, c, mem[W_TAKEN + c])
                    if x < best:
                        best, best_c = x, c
            if best >= 1e18:
                payable = False
                break
            loss += best
            if best_c == E.SUPPLY:
                from_supply += 1
            else:
                mem[W_TAKEN + best_c] += 1
                first = min(first, best_c)
        if payable:
            a = E.act(E.A_REROLL, first)
            if st[E.PAY_PENDING] == 0:
                # the tokens are lost only if this die succeeds, and then the stake is won
                stake = 0.0
                left = st[E.HAB_CARDS + st[E.RES_HAB]]
                while left != 0:
                    c = low_bit(left)
                    left &= left - 1
                    if st[E.DICE_ON + c] > 0:
                        stake += photo_p(ptab, st[E.DICE_ON + c], st[E.TOK_ON + c],
                                         E.card_difficulty(st, comp, c)) * \
                            card_value(st, cfg, comp, par, p, c)
                if stake <= loss:
                    a = E.act(E.A_GIVE_UP)
    return a


@njit(cache=True)
def exact_reroll(st, cfg, comp, ptab, par, p, mem):
    """The advisor's exact re-roll search over the habitat's animals and the supply; at most
    the plan's re-roll cap (the advisor's preparation model keeps the rest of the supply for
    the habitats still to come); with no plan of this turn (its preparation was not its
    own), as many as the tokens pay for."""
    h = st[E.RES_HAB]
    cost = cfg[E.C_REROLL_COST]
    left = mem[M_CAP] - st[E.REROLLS_TURN]  # the re-roll being paid included
    if mem[M_TURN] != turns_played(st):
        left = st[E.TOKENS + p] + 1  # (more than the supply pays for: no cap)
    if left <= 0:
        return E.act(E.A_GIVE_UP)
    m = np.int64(0)  # (a count passed on: see NO_CARD)
    cards = np.empty(E.N_CARDS, np.int64)
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == E.L_TABLE and st[E.ON_HAB + c] == h and st[E.DICE_ON + c] > 0:
            cards[m] = c
            m += 1
    dice = np.empty(m, np.int64)
    diff = np.empty(m, np.int64)
    val = np.empty(m)
    tok = np.empty(m, np.int64)
    floor = m
    for i in range(m):
        c = cards[i]
        dice[i] = st[E.DICE_ON + c]
        diff[i] = E.card_difficulty(st, comp, c)
        val[i] = card_value(st, cfg, comp, par, p, c)
        tok[i] = st[E.TOK_ON + c]
        if c >= st[E.PAY_FLOOR] and floor == m:
            floor = i
    if st[E.PAY_FLOOR] == E.SUPPLY:
        floor = m
    supply = min(st[E.TOKENS + p], left * cost - st[E.PAY_PENDING])
    pay = np.zeros(m + 1, np.int64)
    reroll_search(ptab, dice, diff, val, tok, 0.0, supply, st[E.POT], cost,
                  par[P_TOKEN_VALUE], comp[E.K_EXPLORE + h], cost - st[E.PAY_PENDING], floor,
                  pay)
    for j in range(m):
        if pay[j] > 0:
            return E.act(E.A_REROLL, cards[j])
    if pay[m] > 0:
        return E.act(E.A_REROLL, E.SUPPLY)
    return E.act(E.A_GIVE_UP)


@kernel(inline="always")
def reroll_action(st, cfg, comp, ptab, par, buf, n, exact, mem):
    """Re-Rolls: the greedy kinds' `greedy_reroll` (the exact kind: `exact_reroll`), if
    legal; else the first legal action (a re-roll once begun must be paid in full: any
    legal token). `n` legal actions in buf."""
    p = st[E.CUR]
    if exact is not None and exact:
        a = exact_reroll(st, cfg, comp, ptab, par, p, mem)
    else:
        a = greedy_reroll(st, cfg, comp, ptab, par, p, mem)
    if not is_legal(buf, n, a):
        a = buf[0]
    return a


# ---------------------------------------------------------------- the interpreter


@kernel
def heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, exact, mem):
    """The heuristic kinds' action (the n legal actions in buf are read in the reserved-cards
    step, re-rolls and set-up only); the preparation follows the turn's plan kept in `mem`.
    `exact` is True for the exact kind, else None (the advisor's search is then not
    compiled)."""
    ph = st[E.PHASE]
    a = buf[0]
    if ph == E.PH_RESEARCH:
        a = E.act(E.A_DRAW) if wants_draw(st, cfg, comp, par) else E.act(E.A_STOP)
    elif ph == E.PH_OFFER:
        a = E.act(E.A_OFFER) if wants_to_offer(st, cfg, comp, par) else E.act(E.A_PASS)
    elif ph == E.PH_DECIDE:
        a = decide_action(st, cfg, comp, par)
    elif ph == E.PH_PREP_RESERVED:
        a = reserved_action(st, cfg, comp, ptab, par, buf, n, exact, mem)
    elif ph == E.PH_PREP_DICE:
        make_plan(st, cfg, comp, ptab, par, exact, mem)
        a = dice_action(st, mem)
    elif ph == E.PH_PREP_TOKENS:
        make_plan(st, cfg, comp, ptab, par, exact, mem)
        a = token_action(st, mem)
    elif ph == E.PH_RESOLVE:
        a = E.act(E.A_RESOLVE, E.next_habitat(st))
    elif ph == E.PH_SETUP:
        habitats = np.int64(0)  # (not the constant: see NO_CARD)
        for i in range(n):
            habitats |= 1 << E.act_arg(buf[i])
        a = E.act(E.A_SETUP_RACCOON, raccoon_habitat(st, comp, habitats))
    elif ph == E.PH_REROLL:
        a = reroll_action(st, cfg, comp, ptab, par, buf, n, exact, mem)
    return a


@kernel(inline="always")
def heuristic_decision(st, cfg, comp, ptab, rng, par, buf, mem):
    """The batch's fast path for a seat of the greedy kinds (`on_fast_path`): play its
    decision now, as `heuristic_action` (or, for a whole preparation step,
    `preparation.prepare`) chooses it, applying it without `engine.step`'s listing of the
    legal actions and forced moves after it: the seat's decisions read what is legal from
    the engine's rules, and at a forced decision they choose its one legal action, so the
    game is the step API's. Only the reserved-cards step, re-rolls and set-up list the legal
    actions (into buf), since their choices compare them. The caller lists them again
    before a seat of another kind decides."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    ph = st[E.PHASE]
    if ph == E.PH_PREP_RESERVED or ph == E.PH_PREP_DICE or ph == E.PH_PREP_TOKENS:
        prepare(st, cfg, comp, ptab, rng, par, buf, mem)
    else:
        n = 0
        if ph == E.PH_REROLL or ph == E.PH_SETUP:
            n = E.legal_actions(st, cfg, comp, buf)
        a = heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, None, mem)
        E.apply_action(st, cfg, comp, rng, a)


@kernel
def heuristic_turns(st, cfg, comp, ptab, rng, kinds, params, width, seats, buf, mem):
    """The batch's fast path over several decisions: `heuristic_decision` for each, while
    the seat to decide plays one of the greedy kinds (seat s plays kinds[seats[s]] with the
    parameters in row seats[s] of `params`, `width` to a row); returns at the end of the
    game or before another kind's decision."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    kinds = pointer(kinds)
    params = pointer(params)
    seats = pointer(seats)
    buf = pointer(buf)
    mem = pointer(mem)
    while st[E.PHASE] != E.PH_OVER:
        k = seats[E.decider(st)]
        kind = kinds[k]
        if not on_fast_path(kind):
            break
        heuristic_decision(st, cfg, comp, ptab, rng, shifted(params, k * width), buf, mem)


@kernel
def random_action(rng, buf, n):
    """The random kind: one of the n legal actions in buf, uniformly (the policy stream)."""
    a = buf[randint(rng, POLICY, n)]
    return a


@kernel(inline="always")
def base_action(st, cfg, comp, ptab, rng, par, buf, n, mem):
    """`heuristic_action` of the heuristic kinds but exact, as a call of its own: the callers
    off the hot path (the step API, a search's own moves) share it, instead of each having
    the interpreter compiled into it."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    return heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, None, mem)


