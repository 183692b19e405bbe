"""Snapshot policies: a kind plus a small float vector, interpreted by njit code.

`random` picks uniformly among the legal actions. The heuristic kinds (greedy, cautious,
aggressive, collector, exact) share one interpreter and differ only in their parameter
vectors, except that `exact` prepares with the advisor's exhaustive search (and its re-roll
cap) instead of the fast programme below, so it plays what `snapsim advise prep` ranks first:

- research: keep drawing while fewer than `max_placed` cards were placed this turn and the
  exact risk that the next card cannot be placed (card counting over the unseen cards) is at
  most `max_risk` (scaled by `slot_risk` while a reserve slot is free);
- preparation: the allocation of dice that maximises expected value, found exactly for
  dice (per-habitat dynamic programme over animals, then a knapsack over habitats) using
  `snapsim.odds` for explore and photograph odds; tokens are then added one at a time
  while the best marginal gain is positive; reserved cards are placed when that raises the
  plan's value;
- value of a photograph = prestige + award, cover and feature-article gains, weighted by
  `w_award`, `w_progress`, `w_cover` and `w_article`; a token lost costs `token_value`;
- offers, acceptances and reserving compare that value with thresholds;
- re-rolls are bought while what is at stake exceeds what paying costs; each token comes
  from the cheapest source, the supply (a token is worth `token_value`) or an animal card
  (the photograph value its total loses), so cards may share a re-roll's cost;
- a raccoon (drawn or dealt at set-up) goes where it turns the fewest unseen cards into
  spookers.

`exact` re-rolls as the advisor's exact re-roll search says (`plans.reroll_search`, over
every payment from the supply and the habitat's animal cards), at most the plan's cap.

`search` (search.py) plays the heuristic with its own weights (by default the bundled
tuned-2p policy's) and compares moves by determinized rollouts at the Preparation plan, each
reserved card's placement and each re-roll, with a budget of `rollouts` and `candidates`.

Each of the heuristic's decisions is one function (`wants_draw`, `wants_to_offer`,
`decide_action`, the plan, `reroll_action`) that reads what is legal from the engine's
rules, so the step API (`heuristic_action`, given the legal actions) and the batch's fast
path (`heuristic_decision`, which lists them only where a choice compares them) play the
same moves. The kernels take `sim.kernel.pointer`s, as the engine's do.
"""

from pathlib import Path

import numpy as np
from numba import njit

from ...odds.explore import explore_kernel
from ...sim.kernel import (
    Param,
    as_floats,
    bit_count,
    is_legal,
    kernel,
    low_bit,
    pointer,
    randint,
    shifted,
)
from ...sim.tuning import read_tuned
from . import engine as E
from .plans import MAX_T, NEG, photo_p, reroll_search, search

RANDOM, GREEDY, CAUTIOUS, AGGRESSIVE, COLLECTOR, EXACT, SEARCH = 0, 1, 2, 3, 4, 5, 6
KIND_NAMES = ("random", "greedy", "cautious", "aggressive", "collector", "exact", "search")

# Each parameter with its valid range, from its meaning: probabilities 0-1, weights and
# prices of a token 0-100 (a negative weight would seek what the rule rewards less), value
# thresholds -1000..1000 (beyond every card value: always / never), switches 0 or 1.
PARAM_NAMES = (
    Param("max_risk", 0, 1),  # 0-1: stop drawing when P(next card cannot be placed) exceeds this
    Param("max_placed", 0, 36),  # 0-36: stop drawing after this many cards placed this turn
    # 1-100: risk divisor while a reserve slot is free (a reserve absorbs a spook)
    Param("slot_risk", 1, 100),
    Param("token_value", 0, 100),  # 0-100: prestige value of one tracking token
    Param("w_award", 0, 100),  # 0-100: weight of an award a photograph would complete
    Param("w_progress", 0, 100),  # 0-100: weight of progress toward the next award
    Param("w_cover", 0, 100),  # 0-100: weight of the cover-photo bonus
    Param("w_article", 0, 100),  # 0-100: weight of feature-article chart gains
    # -1000..1000: offer to reserve another player's card worth at least this
    Param("offer_min", -1000, 1000),
    Param("offer_tokens", 0, 100),  # 0-100: ... if holding at least this many tokens
    # -1000..1000: accept an offer for a placeable card worth less than this to me
    Param("accept_max", -1000, 1000),
    # -1000..1000: reserve a card that would spook if worth at least this (else spook)
    Param("reserve_min", -1000, 1000),
    # -1000..1000: reserve a placeable card instead of placing it if worth at least this
    Param("keep_min", -1000, 1000),
    Param("allow_reserve", 0, 1, whole=True),  # 0: never reserve or offer (restricted play)
    Param("allow_offers", 0, 1, whole=True),  # 0: never make offers
    # 0: never put tokens on cards, buy re-rolls or make offers
    Param("allow_tokens", 0, 1, whole=True),
    Param("allow_rerolls", 0, 1, whole=True),  # 0: never buy explore re-rolls
    # `search` (search.py) plays the heuristic above as its base and searches some decisions
    # by rollouts: its budget and how much better a move must look than the base's. Every
    # kind carries these (only `search` reads them), so a tuned file stays one vector.
    Param("rollouts", 1, 1000, whole=True),  # 1-1000: search: playouts of each move compared
    # 0-16: search: the exact advisor's best allocations compared with the base's plan
    Param("candidates", 0, 16, whole=True),
    # 0-1: search: mean win share by which a move must beat the base's move to be played
    Param("margin", 0, 1),
)
N_PARAMS = PARAM_NAMES.index("rollouts")  # the heuristic's parameters; the search's follow
(P_MAX_RISK, P_MAX_PLACED, P_SLOT_RISK, P_TOKEN_VALUE, P_W_AWARD, P_W_PROGRESS, P_W_COVER,
 P_W_ARTICLE, P_OFFER_MIN, P_OFFER_TOKENS, P_ACCEPT_MAX, P_RESERVE_MIN,
 P_KEEP_MIN, P_ALLOW_RESERVE, P_ALLOW_OFFERS, P_ALLOW_TOKENS, P_ALLOW_REROLLS) = range(N_PARAMS)

_ALLOW = (1.0, 1.0, 1.0, 1.0)
_BASE = (0.25, 3.0, 1.6, 0.4, 1.0, 0.0, 1.0, 1.0, 5.0, 3.0, 3.0, 0.0, 99.0) + _ALLOW
DEFAULT_PARAMS = {
    "random": _BASE,
    "greedy": _BASE,
    "cautious": (0.12, 2.0, 1.3) + _BASE[3:],
    "aggressive": (0.45, 6.0, 2.0) + _BASE[3:],
    "collector": _BASE[:4] + (1.5, 0.6, 1.5, 1.5, 4.0, 2.0, 4.0, 0.0, 7.0) + _ALLOW,
    "exact": _BASE,  # greedy whose preparation is the advisor's exhaustive search
}

P_ROLLOUTS, P_CANDIDATES, P_MARGIN = range(N_PARAMS, len(PARAM_NAMES))
_SEARCH = (12.0, 2.0, 0.1)  # every kind's search budget (read by `search` only)
DEFAULT_PARAMS = {k: v + _SEARCH for k, v in DEFAULT_PARAMS.items()}
# search's base weights: the bundled tuned-2p policy's (measured a stronger base than greedy's)
SEARCH_BASE = "tuned-2p"
DEFAULT_PARAMS["search"] = read_tuned(
    "snapshot", Path(__file__).parent / "data" / f"{SEARCH_BASE}.toml")[1][:N_PARAMS] + _SEARCH

# ---------------------------------------------------------------- the policies' memory
# The preparation plan lives in an int64 array owned by whoever runs the policies (one per
# thread in the batch, one per step game), never in the game state. It holds the plan of the
# turn it was made in (the turn count `turns_played` then); a later turn makes a new one.
M_TURN = 0
M_CAP = 1  # re-rolls the plan allows this turn (the exact policy)
M_HAB = 2  # dice per habitat
M_DICE = M_HAB + E.N_HAB  # dice per card
M_TOK = M_DICE + E.N_CARDS  # tokens per card
KEPT_MEMORY = M_TOK + E.N_CARDS  # the plan: all that carries from one decision to the next
# then the plan search's work space, so that no search allocates: per habitat row (the 4
# habitats, and one re-planned with one more card) its options, the dynamic programme's
# tables, the knapsack's, the token bundles'. Integers are read from `mem` at the W_*
# offsets; floats from its float view `work` (`float_space`) at the F_* offsets.
MAX_DICE = 6  # the most dice a config allows
_R, _D, _N = E.N_HAB + 1, MAX_DICE + 1, E.N_CARDS
W_HE = KEPT_MEMORY  # explore dice of each row's option for k dice [row, k]
W_ALLOCS = W_HE + _R * _D  # dice on each of the row's cards in that option [row, k, i]
W_HCARDS = W_ALLOCS + _R * _D * _N  # the row's cards, in card order [row, i]
W_HN = W_HCARDS + _R * _N  # how many [row]
W_PICK = W_HN + _R  # the dynamic programme's choices [i, j]
W_ROWS = W_PICK + (_N + 1) * _D  # the row of each habitat [h]
W_TAKE = W_ROWS + E.N_HAB  # the knapsack's choices [h, j]
W_KOF = W_TAKE + _R * _D  # dice of each habitat in the best plan [h]
W_PDICE = W_KOF + E.N_HAB  # the plan's dice per card [c]
W_PTOK = W_PDICE + _N  # the plan's tokens per card [c]
W_BCARD = W_PTOK + _N  # the token bundles' cards (those with dice) [i]
W_BK = W_BCARD + MAX_DICE  # and their best bundle's size [i]
W_TAKEN = W_BK + MAX_DICE  # tokens a re-roll's payment takes off each card [c]
W_ODDS_KEY = W_TAKEN + _N  # the config the explore odds table is of (`explore_table`)
W_WORTH_KEY = W_ODDS_KEY + 1 + E.N_HAB  # what each card's kept worths are of [c, 3]
W_FLOATS = W_WORTH_KEY + 3 * _N  # the floats (bit patterns, viewed by `float_space`):
F_HV = 0  # each row's option value for k dice [row, k]
F_F = F_HV + _R * _D  # the dynamic programme's values [i, j]
F_G = F_F + (_N + 1) * _D  # the knapsack's values [h, j]
F_WORTH = F_G + _R * _D  # one card's worth by dice [a]
F_VALS = F_WORTH + _D  # each card's value [c]
F_PEH = F_VALS + _N  # P(explore) of each habitat in the plan [h]
F_BRATE = F_PEH + E.N_HAB  # each bundle card's best gain per token [i]
F_BGAIN = F_BRATE + MAX_DICE  # and that gain [i]
ODDS_REROLLS = 40  # the explore odds table's re-roll budgets: 0 .. this
F_KEPT = F_BGAIN + MAX_DICE  # each card's kept worths by dice [c, a], value and token cost
F_ODDS = F_KEPT + _N * (_D + 2)  # P(explore) and E[tokens paid] [h, e, re-rolls, 2]
PLAN_MEMORY = W_FLOATS + F_ODDS + E.N_HAB * _D * (ODDS_REROLLS + 1) * 2  # the heuristic
# kinds' memory (a playout's)
# then the `search` kind's work space (search.py), laid out once so that no searched decision
# allocates: a playout's policy memory, the determinized world and the playout's state, the
# playout's legal actions, the moves compared, the candidate plans (rows of habitat dice,
# card dice, card tokens) and the advisor's rows in value order, the random streams
# (uint64: the world's, the rollout's two, the playout's two, a digest's), the totals (floats)
MAX_CANDIDATES = 16  # the `candidates` parameter's upper bound
PLAN_ROW = E.N_HAB + 2 * E.N_CARDS
S_PMEM = PLAN_MEMORY
S_DET = S_PMEM + PLAN_MEMORY
S_PLAY = S_DET + E.STATE_SIZE
S_BUF = S_PLAY + E.STATE_SIZE
S_MOVES = S_BUF + E.MAX_LEGAL
S_PLANS = S_MOVES + E.MAX_LEGAL
S_ORDER = S_PLANS + (MAX_CANDIDATES + 1) * PLAN_ROW
S_RNG = S_ORDER + MAX_CANDIDATES
S_TOTALS = S_RNG + 6
MEMORY_SIZE = S_TOTALS + E.MAX_LEGAL

# Constant arguments of compiled calls, as numpy scalars: numba compiles a function once more
# for each plain constant it is called with (the constant is its argument's type), so `-1`
# here and a card number there would compile the plan search twice.
NO_CARD = np.int64(-1)  # no reserved card placed (extra_card, extra_hab)
NO_MOVE = np.int64(-1)  # search.rollout: no move (it plays a plan), or no plan (a move)
YES, NO = np.bool_(True), np.bool_(False)


@njit(cache=True)
def new_memory():
    """An empty policy memory (no plan), as at the start of a game."""
    mem = np.zeros(MEMORY_SIZE, np.int64)
    clear_memory(mem)
    return mem


@kernel
def clear_memory(mem):
    """No plan. Only the kept head is cleared: the work spaces after it are written before
    they are read."""
    for i in range(KEPT_MEMORY):
        mem[i] = 0
    mem[M_TURN] = -1


@kernel
def float_space(mem):
    """The plan search's floats: `mem`'s work space from W_FLOATS, as float64 (F_* offsets)."""
    return as_floats(shifted(mem, W_FLOATS))


@kernel
def turns_played(st):
    """Turns begun so far in the game: a new value every turn."""
    t = 0
    for p in range(E.MAX_PLAYERS):
        t += st[E.ST_TURNS + p]
    return t


# ---------------------------------------------------------------- values


@kernel
def card_value(st, cfg, comp, par, p, c):
    """What photographing card c is worth to player p now."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    par = pointer(par)
    least, level = generalist_standing(st, p)
    return value_of(st, cfg, comp, par, p, c, least, level)


@kernel
def generalist_standing(st, p):
    """p's progress toward the Generalist award: the fewest animals p has photographed in one
    habitat, and in how many habitats p has that few (worked out once for all the cards a
    plan values)."""
    least = 1 << 30
    for j in range(E.N_HAB):
        least = min(least, st[E.HAB_COUNT + p * E.N_HAB + j])
    level = 0
    for j in range(E.N_HAB):
        if st[E.HAB_COUNT + p * E.N_HAB + j] == least:
            level += 1
    return least, level


@kernel
def value_of(st, cfg, comp, par, p, c, least, level):
    """`card_value`, given p's `generalist_standing` (least, level): prestige, the award its
    habitat's count completes or progresses toward, the Generalist's, the cover photo and the
    feature article's chart gain, weighted by the policy."""
    v = float(comp[E.K_PRESTIGE + c])
    if c != E.RACCOON:
        h = comp[E.K_HAB + c]
        cnt = st[E.HAB_COUNT + p * E.N_HAB + h]
        nxt = st[E.AWARD_NEXT + h]
        if nxt < comp[E.K_AWARD_COUNT + h]:
            award = E.award_value(comp, h, nxt)
            if (cnt + 1) % 3 == 0:
                v += par[P_W_AWARD] * award
            else:
                v += par[P_W_PROGRESS] * award * ((cnt % 3) + 1) / 3.0
        g = E.GENERALIST
        if cnt == least and st[E.AWARD_NEXT + g] < comp[E.K_AWARD_COUNT + g]:
            award = E.award_value(comp, g, st[E.AWARD_NEXT + g])
            if level == 1:
                v += par[P_W_AWARD] * award
            else:
                v += par[P_W_PROGRESS] * award / level
    if cfg[E.C_ASSIGNMENTS] == 1:
        a = st[E.ASSIGN + p]
        if st[E.COVER_DONE + p] == 0 and E.is_cover(comp, a, c):
            v += par[P_W_COVER] * cfg[E.C_COVER_POINTS]
        k = bit_count(comp[E.K_SYMBOLS + c] & E.assignment_symbols(comp, a))
        if k > 0:
            have = st[E.SYM_COUNT + p]
            gain = E.chart_value(comp, a, have + k) - E.chart_value(comp, a, have)
            v += par[P_W_ARTICLE] * gain
    return v


@kernel
def card_values(st, cfg, comp, par, p, work, extra_card, reserved):
    """Each card's `card_value` to p into work[F_VALS + c] for the cards on the table and
    `extra_card` (and p's reserved cards if `reserved`); 0 for the others."""
    least, level = generalist_standing(st, p)
    valued = E.cards_at(st, E.L_TABLE)
    if extra_card >= 0:
        valued |= 1 << extra_card
    if reserved:
        held = E.cards_at(st, E.L_RESERVE)
        while held != 0:
            c = low_bit(held)
            held &= held - 1
            if st[E.OWNER + c] == p:
                valued |= 1 << c
    for c in range(E.N_CARDS):
        work[F_VALS + c] = 0.0
    while valued != 0:
        c = low_bit(valued)
        valued &= valued - 1
        work[F_VALS + c] = value_of(st, cfg, comp, par, p, c, least, level)


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


# ---------------------------------------------------------------- preparation plan


@kernel
def explore_table(cfg, comp, mem, work):
    """Make work[F_ODDS ...] the explore odds of this config (`explore_kernel` of every
    habitat, explore dice 1-6 and re-roll budget up to ODDS_REROLLS), unless they already
    are: a plan reads them dozens of times, and they depend on the config alone, so they
    are worked out once per memory (in the batch, once per thread)."""
    same = mem[W_ODDS_KEY] == cfg[E.C_REROLL_COST]
    for h in range(E.N_HAB):
        same = same and mem[W_ODDS_KEY + 1 + h] == comp[E.K_EXPLORE + h]
    if not same:
        for h in range(E.N_HAB):
            for e in range(1, _D):
                for r in range(ODDS_REROLLS + 1):
                    pe, paid, _ = explore_kernel(e, comp[E.K_EXPLORE + h], r,
                                                 cfg[E.C_REROLL_COST])
                    at = F_ODDS + ((h * _D + e) * (ODDS_REROLLS + 1) + r) * 2
                    work[at] = pe
                    work[at + 1] = paid
        mem[W_ODDS_KEY] = cfg[E.C_REROLL_COST]
        for h in range(E.N_HAB):
            mem[W_ODDS_KEY + 1 + h] = comp[E.K_EXPLORE + h]


@kernel
def explore_odds(cfg, comp, work, h, e, rerolls):
    """(P(explore), E[tokens paid]) of habitat h with e dice and a budget of `rerolls`:
    `explore_kernel`'s, from the table `explore_table` keeps."""
    if rerolls <= ODDS_REROLLS:
        at = F_ODDS + ((h * _D + e) * (ODDS_REROLLS + 1) + rerolls) * 2
        pe, paid = work[at], work[at + 1]
    else:
        pe, paid, _ = explore_kernel(e, comp[E.K_EXPLORE + h], rerolls, cfg[E.C_REROLL_COST])
    return pe, paid


@kernel
def table_rows(st, mem):
    """Rows 0-3 of the plan tables' cards: each habitat's animals on the table, in card
    order (mem[W_HCARDS + h * _N + i], how many in mem[W_HN + h]), in one pass."""
    for h in range(E.N_HAB):
        mem[W_HN + h] = 0
    table = E.cards_at(st, E.L_TABLE)
    while table != 0:
        c = low_bit(table)
        table &= table - 1
        h = st[E.ON_HAB + c]
        mem[W_HCARDS + h * _N + mem[W_HN + h]] = c
        mem[W_HN + h] += 1


@kernel
def habitat_row(st, mem, h, row, extra_card):
    """Row `row` of the plan tables' cards: habitat h's animals on the table and the
    reserved `extra_card` placed there, in card order."""
    n = 0
    cards = E.cards_at(st, E.L_TABLE)
    if extra_card >= 0:
        cards |= 1 << extra_card
    while cards != 0:
        c = low_bit(cards)
        cards &= cards - 1
        if st[E.ON_HAB + c] == h or c == extra_card:
            mem[W_HCARDS + row * _N + n] = c
            n += 1
    mem[W_HN + row] = n


@kernel
def card_worths(ptab, work, mem, c, v, d, dice, tcap, lam):
    """Card c's worth with a dice, a = 1 .. dice - 1 (one die at least explores), into
    work[F_WORTH + a]: its photograph value v with the best number of tokens up to tcap
    (difficulty d, a lost token costing lam).

    The worths are kept per card with what they were worked out from, and reused while
    those are the same: a card keeps its value from plan to plan until the planning
    player's standing changes. Each a's search over tokens may stop early (below), so
    worths worked out with tcap are those of any cap from the furthest stop on, unless a
    search ran up to tcap itself: W_WORTH_KEY keeps the difficulty and dice, and the
    lowest and highest cap they hold for."""
    key = W_WORTH_KEY + 3 * c
    kept = F_KEPT + c * (_D + 2)
    if mem[key] == (d + 1) * _D + dice and mem[key + 1] <= tcap <= mem[key + 2] and \
            work[kept + _D] == v and work[kept + _D + 1] == lam:
        for a in range(1, dice):
            work[F_WORTH + a] = work[kept + a]
    else:
        lowest, highest = 0, MAX_T
        for a in range(1, dice):
            w = 0.0
            stop = -1
            for t in range(tcap + 1):
                q = photo_p(ptab, a, t, d)
                w = max(w, q * (v - lam * t))
                # more tokens cannot do better once the photograph is certain or the
                # token cost has eaten the card's value
                if lam >= 0.0 and (q >= 1.0 or v - lam * t <= 0.0):
                    stop = t
                    break
            if stop < 0:  # searched up to tcap: the same for tcap alone
                lowest, highest = tcap, tcap
            lowest = max(lowest, stop)
            work[F_WORTH + a] = w
            work[kept + a] = w
        mem[key] = (d + 1) * _D + dice
        mem[key + 1] = lowest
        mem[key + 2] = highest
        work[kept + _D] = v
        work[kept + _D + 1] = lam


@kernel
def habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, extra_card, h, row):
    """Habitat h's best value for every dice count k (0 tokens on cards), with the split,
    into row `row` of the plan tables: value work[F_HV + row * _D + k], explore dice
    mem[W_HE + ...] and dice per card mem[W_ALLOCS + (row * _D + k) * _N + i] of the row's
    cards (`table_rows`, `habitat_row`: `extra_card` among them goes sideways).

    Given a successful explore the animals are independent, so the best split of j dice
    over the animals is an exact dynamic programme; the explore dice e are then chosen.
    A card's worth with a dice is its photograph value with the best number of tokens (a
    lost token costs `token_value`); the card values are work[F_VALS + c]. A sideways card
    (or `extra_card`) must get a die."""
    dice = cfg[E.C_DICE]
    lam = par[P_TOKEN_VALUE]
    n = mem[W_HN + row]
    hv = F_HV + row * _D
    he = W_HE + row * _D
    for k in range(_D):
        work[hv + k] = NEG
        mem[he + k] = 0
    if n == 0:
        work[hv] = 0.0
    else:
        tcap = min(tokens, MAX_T) if cfg[E.C_TOKENS] == 1 else 0
        for j in range(dice + 1):
            work[F_F + j] = 0.0
        any_mandatory = False
        work[F_WORTH] = 0.0
        for i in range(n):
            c = mem[W_HCARDS + row * _N + i]
            v = work[F_VALS + c]
            card_worths(ptab, work, mem, c, v, E.card_difficulty(st, comp, c), dice, tcap,
                        lam)
            lo = 1 if c == extra_card or st[E.SIDEWAYS + c] == 1 else 0
            if lo == 1:
                any_mandatory = True
            f0 = F_F + i * _D
            if i == 0:
                # after no card every count is worth 0: the best of at most j dice is the
                # best worth so far, reached first at `pick` (the programme below, in a
                # single pass)
                best = NEG
                pick = 0
                for j in range(dice):
                    if j >= lo:
                        val = work[f0 + 0] + work[F_WORTH + j]
                        if val > best:
                            best = val
                            pick = j
                    work[f0 + _D + j] = best
                    mem[W_PICK + _D + j] = pick
            else:
                for j in range(dice):
                    best = NEG
                    pick = 0
                    for a in range(lo, j + 1):
                        prev = work[f0 + j - a]
                        if prev <= NEG:
                            continue
                        val = prev + work[F_WORTH + a]
                        if val > best:
                            best = val
                            pick = a
                    work[f0 + _D + j] = best
                    mem[W_PICK + (i + 1) * _D + j] = pick
        rerolls = tokens // cfg[E.C_REROLL_COST] if cfg[E.C_TOKENS] == 1 else 0
        if par[P_ALLOW_REROLLS] <= 0:
            rerolls = 0
        for k in range(dice + 1):
            work[hv + k] = NEG if any_mandatory else 0.0
        fn = F_F + n * _D
        for e in range(1, dice + 1):
            pe, paid = explore_odds(cfg, comp, work, h, e, rerolls)
            for k in range(e, dice + 1):
                if work[fn + k - e] <= NEG:
                    continue
                val = pe * work[fn + k - e] - lam * paid
                if val > work[hv + k] + 1e-12:
                    work[hv + k] = val
                    mem[he + k] = e
        for k in range(dice + 1):
            e = mem[he + k]
            j = k - e
            for i in range(n, 0, -1):
                a = mem[W_PICK + i * _D + j] if e > 0 else 0
                mem[W_ALLOCS + (row * _D + k) * _N + i - 1] = a
                j -= a


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
        if gain / k > best_rate:
            best_rate = gain / k
            best_k, best_gain = k, gain
        if q >= 1.0:
            break
    return best_rate, best_k, best_gain


@kernel
def plan_from_tables(st, cfg, comp, ptab, par, work, mem, tokens, extra_card, extra_hab,
                     store_above):
    """The best plan over the habitats' options (habitat h in row mem[W_ROWS + h]): dice by
    an exact knapsack over habitats, then tokens added greedily by marginal expected value,
    in bundles (k on one card) with the best gain per token while positive, a lost token
    costing `token_value`. Returns its expected value, and stores the plan in the policy
    memory when that value beats `store_above` as `best_reserved` compares (-inf: always,
    inf: never)."""
    dice = cfg[E.C_DICE]
    lam = par[P_TOKEN_VALUE]
    for i in range(_R * _D):
        work[F_G + i] = NEG
        mem[W_TAKE + i] = 0
    work[F_G] = 0.0
    for h in range(E.N_HAB):
        r = mem[W_ROWS + h]
        for j in range(dice + 1):
            gj = work[F_G + h * _D + j]
            if gj <= NEG:
                continue
            for k in range(dice - j + 1):
                option = work[F_HV + r * _D + k]
                if option <= NEG:
                    continue
                val = gj + option
                if val > work[F_G + (h + 1) * _D + j + k] + 1e-12:
                    work[F_G + (h + 1) * _D + j + k] = val
                    mem[W_TAKE + (h + 1) * _D + j + k] = k
    last = F_G + E.N_HAB * _D
    best_j = 0
    for j in range(dice + 1):
        if work[last + j] > work[last + best_j] + 1e-12:
            best_j = j
    total = work[last + best_j]
    if total > NEG:
        # reconstruct the dice, then add tokens
        j = best_j
        for h in range(E.N_HAB, 0, -1):
            k = mem[W_TAKE + h * _D + j]
            mem[W_KOF + h - 1] = k
            j -= k
        # the plan's cards are the rows' (no other card is on the table or placed); those
        # given dice are the token bundles' cards, kept in card order
        m = 0
        for h in range(E.N_HAB):
            r = mem[W_ROWS + h]
            k = mem[W_KOF + h]
            for i in range(mem[W_HN + r]):
                c = mem[W_HCARDS + r * _N + i]
                a = mem[W_ALLOCS + (r * _D + k) * _N + i]
                mem[W_PDICE + c] = a
                mem[W_PTOK + c] = 0
                if a > 0:
                    at = m
                    while at > 0 and mem[W_BCARD + at - 1] > c:
                        mem[W_BCARD + at] = mem[W_BCARD + at - 1]
                        at -= 1
                    mem[W_BCARD + at] = c
                    mem[W_BK + m] = -1  # to find
                    m += 1
            e = mem[W_HE + r * _D + k]
            work[F_PEH + h] = 0.0
            if e > 0:
                work[F_PEH + h] = explore_odds(cfg, comp, work, h, e, np.int64(0))[0]
        if cfg[E.C_TOKENS] == 1:
            # The first card (in card order) with the best rate takes its first best bundle.
            # A card's best bundle changes only when it gains tokens or fewer tokens are left
            # than it takes (its best over a shorter range is the same bundle), so only those
            # are redone.
            left = tokens
            while left > 0:
                best_rate = 1e-9
                best_i = -1
                for i in range(m):
                    c = mem[W_BCARD + i]
                    if mem[W_BK + i] < 0 or mem[W_BK + i] > left:
                        h = extra_hab if c == extra_card else st[E.ON_HAB + c]
                        rate, k, gain = best_bundle(
                            ptab, work[F_PEH + h], mem[W_PDICE + c], mem[W_PTOK + c],
                            E.card_difficulty(st, comp, c), work[F_VALS + c], lam, left)
                        work[F_BRATE + i] = rate
                        mem[W_BK + i] = k
                        work[F_BGAIN + i] = gain
                    if mem[W_BK + i] > 0 and work[F_BRATE + i] > best_rate:
                        best_rate = work[F_BRATE + i]
                        best_i = i
                if best_i < 0:
                    break
                mem[W_PTOK + mem[W_BCARD + best_i]] += mem[W_BK + best_i]
                total += work[F_BGAIN + best_i]
                left -= mem[W_BK + best_i]
                mem[W_BK + best_i] = -1
        if total > store_above + 1e-9:
            for h in range(E.N_HAB):
                mem[M_HAB + h] = mem[W_HE + mem[W_ROWS + h] * _D + mem[W_KOF + h]]
            for c in range(E.N_CARDS):
                mem[M_DICE + c] = 0
                mem[M_TOK + c] = 0
            for h in range(E.N_HAB):
                r = mem[W_ROWS + h]
                for i in range(mem[W_HN + r]):
                    c = mem[W_HCARDS + r * _N + i]
                    mem[M_DICE + c] = mem[W_PDICE + c]
                    mem[M_TOK + c] = mem[W_PTOK + c]
            mem[M_TURN] = turns_played(st)
    return total


@kernel
def plan_tokens(st, par):
    """The tokens a plan may use: the player's, unless the policy never spends tokens."""
    tokens = st[E.TOKENS + st[E.CUR]] if par[P_ALLOW_TOKENS] > 0 else 0
    return tokens


@kernel
def plan_value(st, cfg, comp, ptab, par, extra_card, extra_hab, mem, write):
    """Expected value of the best plan, with one more reserved card placed; optionally store it.

    Dice: exact optimum (per-habitat programme + knapsack). Tokens: added greedily by
    marginal expected value, a lost token costing `token_value`.
    """
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    par = pointer(par)
    mem = pointer(mem)
    work = float_space(mem)
    explore_table(cfg, comp, mem, work)
    tokens = plan_tokens(st, par)
    card_values(st, cfg, comp, par, st[E.CUR], work, extra_card, NO)
    table_rows(st, mem)
    if extra_card >= 0:
        habitat_row(st, mem, extra_hab, extra_hab, extra_card)
    for h in range(E.N_HAB):
        habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, extra_card, h, h)
        mem[W_ROWS + h] = h
    v = plan_from_tables(st, cfg, comp, ptab, par, work, mem, tokens, extra_card, extra_hab,
                         -np.inf if write else np.inf)
    return v


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
        mem[M_TURN] = turns_played(st)
    return row[0]


@kernel
def reserved_tables(st, cfg, comp, ptab, par, work, mem):
    """The greedy kinds' first look at their reserved cards: card values (the table's and the
    player's reserved cards) and every habitat's options, kept in the plan tables (a card
    placed changes only its own habitat's: `replan_habitat`). Returns the tokens the plan may
    use and the best plan's value with no card placed, that plan stored in `mem`."""
    explore_table(cfg, comp, mem, work)
    tokens = plan_tokens(st, par)
    card_values(st, cfg, comp, par, st[E.CUR], work, NO_CARD, YES)
    table_rows(st, mem)
    for h in range(E.N_HAB):
        habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, NO_CARD, h, h)
        mem[W_ROWS + h] = h
    v = plan_from_tables(st, cfg, comp, ptab, par, work, mem, tokens, NO_CARD, NO_CARD,
                         -np.inf)
    return tokens, v


@kernel
def best_reserved(st, cfg, comp, ptab, par, buf, n, exact, tokens, best, work, mem):
    """Among the legal placements of reserved cards in buf, the one that raises the best
    plan's value (`best`) most, and that value; (RESERVED_DONE, best) if none does. The
    greedy kinds re-plan only the card's habitat (row N_HAB) over the options
    `reserved_tables` keeps, and store each plan that beats the best so far in `mem` (so
    `mem` ends with the plan of the placement chosen, or with the plan it was given when
    none is)."""
    best_a = E.act(E.A_RESERVED_DONE)
    # one more card at a time: each decision re-plans with the cards already placed
    for i in range(n):
        a = buf[i]
        if E.act_kind(a) != E.A_PLACE_RESERVED:
            continue
        c, h = E.reserved_placement(comp, E.act_arg(a))
        if exact is not None and exact:
            v = exact_plan(st, cfg, comp, ptab, par, c, h, mem, NO)
        else:
            habitat_row(st, mem, h, E.N_HAB, c)
            habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, c, h, E.N_HAB)
            mem[W_ROWS + h] = E.N_HAB
            v = plan_from_tables(st, cfg, comp, ptab, par, work, mem, tokens, c, h, best)
            mem[W_ROWS + h] = h
        if v > best + 1e-9:
            best = v
            best_a = a
    return best_a, best


@kernel
def reserved_choice(st, cfg, comp, ptab, par, buf, n, exact, mem):
    """Place the reserved card whose placement raises the best plan's value most; when none
    does, end the step. The greedy kinds keep the best plan seen as the turn's plan: with no
    card placed it is the plan the dice will follow; with a card placed it is the plan the
    next look (or, when that card ends the step, the dice) makes from the tables after it."""
    work = float_space(mem)
    if exact is not None and exact:
        tokens, best = 0, exact_plan(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, NO)
    else:
        tokens, best = reserved_tables(st, cfg, comp, ptab, par, work, mem)
    best_a, _ = best_reserved(st, cfg, comp, ptab, par, buf, n, exact, tokens, best, work,
                              mem)
    return best_a


@kernel
def make_plan(st, cfg, comp, ptab, par, exact, mem):
    """Store this turn's preparation plan in `mem`, unless choosing reserved cards already
    did: the heuristic kinds then place its dice and tokens one action at a time."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    par = pointer(par)
    mem = pointer(mem)
    if mem[M_TURN] != turns_played(st):
        if exact is not None and exact:
            exact_plan(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, YES)
        else:
            plan_value(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, YES)


@kernel(inline="always")
def follows_plan(kind):
    """Whether `kind` prepares by the plan `make_plan` stores (the heuristic kinds)."""
    return GREEDY <= kind <= EXACT


@kernel
def prepare(st, cfg, comp, ptab, rng, kind, par, buf, n, mem, exact=None):
    """A heuristic seat's step of Phase 2 (reserved cards, dice or tokens; `n` legal actions
    in buf) in one go: the actions its policy would take one decision at a time, applied
    with `engine.apply_action`. Reserved cards: the same choices, each re-planning only the
    habitat the last card went to (the others' options are unchanged), the best plan kept
    as they are compared. Dice and tokens: each die and token of the plan that `make_plan`
    stores (or the search wrote) or the reserved cards' step kept; the plan is legal
    (sideways cards and their habitats get their dice), so the forced moves between those
    decisions are moves of the plan, and the order of placing draws no random number: the
    game is the one played decision by decision. The step ends with its closing action
    applied (the forced moves after it are left to the caller). `exact` as for
    `policy_action`: with None the exact kind's search is not compiled."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    ph = st[E.PHASE]
    p = st[E.CUR]
    if ph == E.PH_PREP_RESERVED:
        work = float_space(mem)
        tokens, best = reserved_tables(st, cfg, comp, ptab, par, work, mem)
        while True:
            a, best = best_reserved(st, cfg, comp, ptab, par, buf, n, None, tokens, best, work,
                                    mem)
            E.apply_action(st, cfg, comp, rng, a)
            if a == E.act(E.A_RESERVED_DONE):
                break
            n = E.legal_actions(st, cfg, comp, buf)
            if n == 1:  # the last card placed ended the step (RESERVED_DONE alone is left):
                # the plan stored with it is the one the dice would make from the tables
                # after it (placed dice change no option)
                E.apply_action(st, cfg, comp, rng, buf[0])
                break
            replan_habitat(st, cfg, comp, ptab, par, work, mem, tokens,
                           E.reserved_placement(comp, E.act_arg(a))[1])
    elif ph == E.PH_PREP_DICE:
        if exact is not None and kind == EXACT:
            make_plan(st, cfg, comp, ptab, par, True, mem)
        else:
            make_plan(st, cfg, comp, ptab, par, None, mem)
        for h in range(E.N_HAB):
            for _ in range(st[E.HAB_DICE + h], mem[M_HAB + h]):
                E.apply_action(st, cfg, comp, rng, E.act(E.A_DIE_HABITAT, h))
        for c in range(E.N_CARDS):
            for _ in range(st[E.DICE_ON + c], mem[M_DICE + c]):
                E.apply_action(st, cfg, comp, rng, E.act(E.A_DIE_ANIMAL, c))
        E.apply_action(st, cfg, comp, rng, E.act(E.A_DICE_DONE))
    else:
        for c in range(E.N_CARDS):
            for _ in range(st[E.TOK_ON + c], mem[M_TOK + c]):
                if st[E.TOKENS + p] > 0:
                    E.apply_action(st, cfg, comp, rng, E.act(E.A_TOKEN, c))
        E.apply_action(st, cfg, comp, rng, E.act(E.A_TOKENS_DONE))


@kernel
def replan_habitat(st, cfg, comp, ptab, par, work, mem, tokens, h):
    """Habitat h's options anew (a reserved card was placed there); the others' stay."""
    habitat_row(st, mem, h, h, NO_CARD)
    habitat_options(st, cfg, comp, ptab, par, work, mem, tokens, NO_CARD, h, h)


# ---------------------------------------------------------------- the heuristic's decisions
# One function per decision, shared by the step API (`heuristic_action`) and the batch's
# fast path (`heuristic_decision`); they read what is legal from the engine's own rules, so
# the two drivers play the same moves.


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
    if par[P_ALLOW_OFFERS] > 0 and par[P_ALLOW_RESERVE] > 0 and par[P_ALLOW_TOKENS] > 0:
        v = card_value(st, cfg, comp, par, p, st[E.DRAWN])
        offer = v >= par[P_OFFER_MIN] and st[E.TOKENS + p] >= par[P_OFFER_TOKENS]
    return offer


@kernel
def raccoon_habitat(st, comp, habitats):
    """Of the habitats in the bit mask `habitats`, the first where the raccoon turns the
    fewest unseen cards into spookers."""
    best = -1
    best_new = 1 << 30
    for h in range(E.N_HAB):
        if habitats >> h & 1:
            top = E.habitat_top(st, comp, h)
            new = 0
            for c in range(E.RACCOON):
                if comp[E.K_HAB + c] == h and top < comp[E.K_DIFF + c] <= st[E.RACCOON_DIFF] \
                        and (st[E.LOC + c] == E.L_DECK or st[E.LOC + c] == E.L_DISCARD):
                    new += 1
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
            for x in range(E.N_CARDS):
                if st[E.LOC + x] == E.L_TABLE and st[E.ON_HAB + x] == h:
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
        for c in range(E.N_CARDS):
            mem[W_TAKEN + c] = 0
        from_supply = 0
        loss = 0.0
        first = E.SUPPLY
        payable = True
        for _ in range(need):
            best_c = E.SUPPLY
            best = par[P_TOKEN_VALUE] if st[E.TOKENS + p] > from_supply else 1e18
            for c in range(floor if floor < E.N_CARDS else E.N_CARDS, E.N_CARDS):
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
                h = st[E.RES_HAB]
                stake = 0.0
                for c in range(E.N_CARDS):
                    if st[E.LOC + c] == E.L_TABLE and st[E.ON_HAB + c] == h and \
                            st[E.DICE_ON + c] > 0:
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
    the habitats still to come)."""
    h = st[E.RES_HAB]
    cost = cfg[E.C_REROLL_COST]
    left = mem[M_CAP] - st[E.REROLLS_TURN]  # the re-roll being paid included
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


@kernel
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
    step, re-rolls and set-up only); the preparation follows the plan kept in `mem`.
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
        a = reserved_choice(st, cfg, comp, ptab, par, buf, n, exact, mem)
    elif ph == E.PH_PREP_DICE:
        make_plan(st, cfg, comp, ptab, par, exact, mem)
        a = E.act(E.A_DICE_DONE)
        for c in range(E.N_CARDS - 1, -1, -1):
            if st[E.DICE_ON + c] < mem[M_DICE + c]:
                a = E.act(E.A_DIE_ANIMAL, c)
        for h in range(E.N_HAB - 1, -1, -1):
            if st[E.HAB_DICE + h] < mem[M_HAB + h]:
                a = E.act(E.A_DIE_HABITAT, h)
    elif ph == E.PH_PREP_TOKENS:
        a = E.act(E.A_TOKENS_DONE)
        if st[E.TOKENS + st[E.CUR]] > 0:
            for c in range(E.N_CARDS - 1, -1, -1):
                if st[E.TOK_ON + c] < mem[M_TOK + c]:
                    a = E.act(E.A_TOKEN, c)
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


@kernel
def heuristic_decision(st, cfg, comp, ptab, rng, kind, par, buf, mem, exact):
    """The batch's fast path for a heuristic seat: play its decision now, as
    `heuristic_action` (or, for a whole preparation step, `prepare`) chooses it, applying
    it without `engine.step`'s listing of the legal actions and forced moves after it: the
    seat's decisions read what is legal from the engine's rules, and at a forced decision
    they choose its one legal action, so the game is the step API's. Only the reserved-cards
    step, re-rolls and set-up list the legal actions (into buf), since their choices
    compare them. The caller lists them again before a seat of another kind decides."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    ph = st[E.PHASE]
    if ph == E.PH_PREP_DICE or ph == E.PH_PREP_TOKENS or (
            ph == E.PH_PREP_RESERVED and kind != EXACT):
        n = E.legal_actions(st, cfg, comp, buf) if ph == E.PH_PREP_RESERVED else 0
        prepare(st, cfg, comp, ptab, rng, kind, par, buf, n, mem, exact)
    else:
        n = 0
        if ph == E.PH_PREP_RESERVED or ph == E.PH_REROLL or ph == E.PH_SETUP:
            n = E.legal_actions(st, cfg, comp, buf)
        if exact is not None and kind == EXACT:
            a = heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, True, mem)
        else:
            a = heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, None, mem)
        E.apply_action(st, cfg, comp, rng, a)


@kernel
def random_action(rng, buf, n):
    """The random kind: one of the n legal actions in buf, uniformly (the policy stream)."""
    a = buf[randint(rng, 1, n)]
    return a


@njit(cache=True)
def policy_action(st, cfg, comp, ptab, rng, kind, par, buf, n, mem, search=None, exact=None):
    """The action policy `kind` with parameters `par` takes now, given the n legal actions in
    buf (as `engine.step` leaves them); always one of them. Reads and writes only the
    policies' memory `mem` (see `new_memory`), never the game state.

    `search` is True when the line-up seats a search policy, else None: numba drops the
    search branch for None, so line-ups without one never compile it (it is most of the
    compile time). `exact` likewise is True when the line-up seats the exact kind (its
    exhaustive preparation search is the next largest part), else None. The search kind
    gets the arrays; the others their `pointer`s."""
    if kind == SEARCH:
        if search is not None:
            return search_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
        raise ValueError("a line-up seating a search policy passes search=True")
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    ptab = pointer(ptab)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    if kind == RANDOM:
        return random_action(rng, buf, n)
    if kind == EXACT:
        if exact is not None:
            return heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, True, mem)
        raise ValueError("a line-up seating the exact policy passes exact=True")
    return base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)


@kernel
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


# the search kind plays the heuristic above: imported last, once every name it uses exists
from .search import search_action  # noqa: E402
