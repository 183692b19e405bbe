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
"""

from pathlib import Path

import numpy as np
from numba import njit

from ...odds.explore import explore_kernel
from ...sim.kernel import Param, is_legal, randint
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
# then the plan search's work space (`plan_space`, `knapsack_space`), so that no search
# allocates: per habitat row (the 4 habitats, and one re-planned with one more card) its
# options, the dynamic programme's tables, the knapsack's; floats kept as their bit patterns
MAX_DICE = 6  # the most dice a config allows
_R, _D, _N = E.N_HAB + 1, MAX_DICE + 1, E.N_CARDS
W_HE = KEPT_MEMORY  # ints
W_ALLOCS = W_HE + _R * _D
W_HCARDS = W_ALLOCS + _R * _D * _N
W_HN = W_HCARDS + _R * _N
W_PICK = W_HN + _R
W_ROWS = W_PICK + (_N + 1) * _D
W_MAND = W_ROWS + E.N_HAB
W_TAKE = W_MAND + _N
W_KOF = W_TAKE + _R * _D
W_PDICE = W_KOF + E.N_HAB
W_PTOK = W_PDICE + _N
W_TOPS = W_PTOK + _N  # each habitat's top difficulty (`next_risk`)
W_BCARD = W_TOPS + E.N_HAB  # the token bundles' cards (those with dice) and their best size
W_BK = W_BCARD + MAX_DICE
W_HV = W_BK + MAX_DICE  # floats
W_F = W_HV + _R * _D
W_G = W_F + (_N + 1) * _D
W_WORTH = W_G + _R * _D
W_VALS = W_WORTH + _D
W_PEH = W_VALS + _N
W_BRATE = W_PEH + E.N_HAB  # each bundle card's best gain per token, and that gain
W_BGAIN = W_BRATE + MAX_DICE
W_TAKEN = W_BGAIN + MAX_DICE  # ints: tokens a re-roll's payment takes off each card
PLAN_MEMORY = W_TAKEN + _N  # what the heuristic kinds use (a playout's memory)
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


@njit(cache=True)
def clear_memory(mem):
    """No plan. Only the kept head is cleared: the work spaces after it are written before
    they are read."""
    mem[:KEPT_MEMORY] = 0
    mem[M_TURN] = -1


@njit(cache=True, inline="always")
def turns_played(st):
    """Turns begun so far in the game: a new value every turn."""
    t = 0
    for p in range(E.MAX_PLAYERS):
        t += st[E.ST_TURNS + p]
    return t


# ---------------------------------------------------------------- values


@njit(cache=True)
def card_value(st, cfg, comp, par, p, c):
    """What photographing card c is worth to player p now."""
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
        least = 1 << 30
        for j in range(E.N_HAB):
            least = min(least, st[E.HAB_COUNT + p * E.N_HAB + j])
        g = E.GENERALIST
        if cnt == least and st[E.AWARD_NEXT + g] < comp[E.K_AWARD_COUNT + g]:
            award = E.award_value(comp, g, st[E.AWARD_NEXT + g])
            missing = 0
            for j in range(E.N_HAB):
                if st[E.HAB_COUNT + p * E.N_HAB + j] == least:
                    missing += 1
            if missing == 1:
                v += par[P_W_AWARD] * award
            else:
                v += par[P_W_PROGRESS] * award / missing
    if cfg[E.C_ASSIGNMENTS] == 1:
        a = st[E.ASSIGN + p]
        if st[E.COVER_DONE + p] == 0 and E.is_cover(comp, a, c):
            v += par[P_W_COVER] * cfg[E.C_COVER_POINTS]
        m = comp[E.K_SYMBOLS + c] & E.assignment_symbols(comp, a)
        k = 0
        while m:
            k += m & 1
            m >>= 1
        if k > 0:
            have = st[E.SYM_COUNT + p]
            gain = E.chart_value(comp, a, have + k) - E.chart_value(comp, a, have)
            v += par[P_W_ARTICLE] * gain
    return v


@njit(cache=True)
def next_risk(st, comp, mem):
    """Exact P(the next card drawn cannot be placed), counted over the unseen cards (each
    habitat's top difficulty kept in the policies' memory `mem`, found in one pass)."""
    src = E.L_DECK if st[E.N_DECK] > 0 else E.L_DISCARD
    tops = mem[W_TOPS:W_HV]
    tops[:] = 0
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == E.L_TABLE:
            tops[st[E.ON_HAB + c]] = max(tops[st[E.ON_HAB + c]], E.card_difficulty(st, comp, c))
    n = 0
    bad = 0
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == src:
            n += 1
            if c == E.RACCOON:
                blocked = True
                for h in range(E.N_HAB):
                    if tops[h] < st[E.RACCOON_DIFF]:
                        blocked = False
                if blocked:
                    bad += 1
            elif comp[E.K_DIFF + c] <= tops[comp[E.K_HAB + c]]:
                bad += 1
    return bad / n if n > 0 else 1.0


# ---------------------------------------------------------------- preparation plan


@njit(cache=True)
def habitat_options(st, cfg, comp, ptab, par, h, cards, n, mandatory, vals, tokens, best_v, best_e,
                    alloc, f, pick, worth):
    """Best value of habitat h for every dice count k (0 tokens on cards), with the split.

    Given a successful explore the animals are independent, so the best split of j dice
    over the animals is an exact dynamic programme; the explore dice e are then chosen.
    alloc[k, i] = dice on cards[i] in the best plan with k dice; vals[c] is card c's value;
    f and pick are work space of at least (n + 1, dice + 1), worth of dice + 1.
    """
    dice = cfg[E.C_DICE]
    lam = par[P_TOKEN_VALUE]
    tcap = min(tokens, MAX_T) if cfg[E.C_TOKENS] == 1 else 0
    for j in range(dice + 1):
        f[0, j] = 0.0
    worth[0] = 0.0
    for i in range(n):
        c = cards[i]
        v = vals[c]
        d = E.card_difficulty(st, comp, c)
        # worth[a]: a dice on this card, with the best number of tokens (a lost token costs lam)
        for a in range(1, dice + 1):
            worth[a] = 0.0
            for t in range(tcap + 1):
                q = photo_p(ptab, a, t, d)
                worth[a] = max(worth[a], q * (v - lam * t))
                # more tokens cannot do better once the photograph is certain or the token
                # cost has eaten the card's value
                if lam >= 0.0 and (q >= 1.0 or v - lam * t <= 0.0):
                    break
        lo = 1 if mandatory[i] else 0
        for j in range(dice + 1):
            f[i + 1, j] = NEG
            pick[i + 1, j] = 0
            for a in range(lo, j + 1):
                if f[i, j - a] <= NEG:
                    continue
                val = f[i, j - a] + worth[a]
                if val > f[i + 1, j]:
                    f[i + 1, j] = val
                    pick[i + 1, j] = a
    any_mandatory = False
    for i in range(n):
        if mandatory[i]:
            any_mandatory = True
    rerolls = tokens // cfg[E.C_REROLL_COST] if cfg[E.C_TOKENS] == 1 else 0
    if par[P_ALLOW_REROLLS] <= 0:
        rerolls = 0
    for k in range(dice + 1):
        best_v[k] = NEG if any_mandatory else 0.0
        best_e[k] = 0
    for e in range(1, dice + 1):
        pe, paid, _ = explore_kernel(e, comp[E.K_EXPLORE + h], rerolls, cfg[E.C_REROLL_COST])
        for k in range(e, dice + 1):
            if f[n, k - e] <= NEG:
                continue
            val = pe * f[n, k - e] - lam * paid
            if val > best_v[k] + 1e-12:
                best_v[k] = val
                best_e[k] = e
    for k in range(dice + 1):
        j = k - best_e[k]
        for i in range(n, 0, -1):
            a = pick[i, j] if best_e[k] > 0 else 0
            alloc[k, i - 1] = a
            j -= a


@njit(cache=True)
def plan_tables(st, cfg, comp, ptab, par, vals, tokens, extra_card, extra_hab, h, row, space):
    """Habitat h's options (`habitat_options`) into row `row` of the plan tables, with
    `extra_card` placed (sideways) in `extra_hab`; `space` is `plan_space`'s."""
    hv, he, allocs, hcards, hn, f, pick, _, _, mand, worth = space
    n = np.int64(0)  # (a count passed on: see NO_CARD)
    for c in range(E.N_CARDS):
        on = st[E.LOC + c] == E.L_TABLE and st[E.ON_HAB + c] == h
        if on or (c == extra_card and extra_hab == h):
            hcards[row, n] = c
            mand[n] = (not on) or st[E.SIDEWAYS + c] == 1
            n += 1
    hn[row] = n
    for k in range(hv.shape[1]):
        hv[row, k] = NEG
        he[row, k] = 0
    if n > 0:
        habitat_options(st, cfg, comp, ptab, par, h, hcards[row], n, mand, vals, tokens, hv[row],
                        he[row], allocs[row], f, pick, worth)
    else:
        hv[row, 0] = 0.0


@njit(cache=True)
def plan_from_tables(st, cfg, comp, ptab, par, tokens, extra_card, extra_hab, space, mem,
                     store_above):
    """The best plan over the habitats' options (habitat h in row rows[h]): dice by an exact
    knapsack over habitats, then tokens added greedily by marginal expected value, a lost
    token costing `token_value`. Returns its expected value, and stores the plan in the
    policy memory `mem` when that value beats `store_above` as `best_reserved` compares
    (-inf: always, inf: never); `space` is `plan_space`'s, the tables of `plan_tables` by
    row."""
    hv, he, allocs, hcards, hn, _, _, rows, vals, _, _ = space
    g, take, k_of, pdice, ptok, pe_h = knapsack_space(mem)
    dice = cfg[E.C_DICE]
    lam = par[P_TOKEN_VALUE]
    g[:] = NEG
    take[:] = 0
    g[0, 0] = 0.0
    for h in range(E.N_HAB):
        r = rows[h]
        for j in range(dice + 1):
            if g[h, j] <= NEG:
                continue
            for k in range(dice - j + 1):
                if hv[r, k] <= NEG:
                    continue
                val = g[h, j] + hv[r, k]
                if val > g[h + 1, j + k] + 1e-12:
                    g[h + 1, j + k] = val
                    take[h + 1, j + k] = k
    best_j = 0
    for j in range(dice + 1):
        if g[E.N_HAB, j] > g[E.N_HAB, best_j] + 1e-12:
            best_j = j
    total = g[E.N_HAB, best_j]
    if total <= NEG:
        return NEG
    # reconstruct dice, then add tokens greedily
    j = best_j
    for h in range(E.N_HAB, 0, -1):
        k_of[h - 1] = take[h, j]
        j -= take[h, j]
    pdice[:] = 0
    ptok[:] = 0
    pe_h[:] = 0.0
    for h in range(E.N_HAB):
        r = rows[h]
        k = k_of[h]
        for i in range(hn[r]):
            pdice[hcards[r, i]] = allocs[r, k, i]
        if he[r, k] > 0:
            pe_h[h] = explore_kernel(he[r, k], comp[E.K_EXPLORE + h], np.int64(0),
                                     cfg[E.C_REROLL_COST])[0]
    if cfg[E.C_TOKENS] == 1:
        # tokens in the bundle (k on one card) with the best gain per token, while positive:
        # bundles matter because one token alone often cannot lift a hard photograph. The
        # first card (in card order) with the best rate takes its first best bundle. A card's
        # best bundle changes only when it gains tokens or fewer tokens are left than it
        # takes (its best over a shorter range is the same bundle), so only those are redone.
        bcard, bk, brate, bgain = bundle_space(mem)
        m = 0
        for c in range(E.N_CARDS):
            if pdice[c] > 0:
                bcard[m] = c
                bk[m] = -1  # to find
                m += 1
        left = tokens
        while left > 0:
            best_rate = 1e-9
            best_i = -1
            for i in range(m):
                c = bcard[i]
                if bk[i] < 0 or bk[i] > left:
                    h = extra_hab if c == extra_card else st[E.ON_HAB + c]
                    brate[i], bk[i], bgain[i] = best_bundle(
                        ptab, pe_h[h], pdice[c], ptok[c], E.card_difficulty(st, comp, c),
                        vals[c], lam, left)
                if bk[i] > 0 and brate[i] > best_rate:
                    best_rate = brate[i]
                    best_i = i
            if best_i < 0:
                break
            ptok[bcard[best_i]] += bk[best_i]
            total += bgain[best_i]
            left -= bk[best_i]
            bk[best_i] = -1
    if total > store_above + 1e-9:
        for h in range(E.N_HAB):
            mem[M_HAB + h] = he[rows[h], k_of[h]]
        for c in range(E.N_CARDS):
            mem[M_DICE + c] = pdice[c]
            mem[M_TOK + c] = ptok[c]
        mem[M_TURN] = turns_played(st)
    return total


@njit(cache=True)
def best_bundle(ptab, pe, dice, t, d, v, lam, left):
    """The first bundle of k <= `left` more tokens (on a card with `dice` dice, `t` tokens,
    difficulty d and value v, in a habitat explored with probability pe) with the best gain
    per token above 1e-9: (its gain per token, k, its gain); k = 0 when none gains."""
    best_rate = 1e-9
    best_k = 0
    best_gain = 0.0
    base = photo_p(ptab, dice, t, d) * (v - lam * t)
    for k in range(1, min(left, MAX_T - t) + 1):
        gain = pe * (photo_p(ptab, dice, t + k, d) * (v - lam * (t + k)) - base)
        if gain / k > best_rate:
            best_rate = gain / k
            best_k, best_gain = k, gain
        if photo_p(ptab, dice, t + k, d) >= 1.0:
            break
    return best_rate, best_k, best_gain


@njit(cache=True)
def plan_value(st, cfg, comp, ptab, par, extra_card, extra_hab, mem, write):
    """Expected value of the best plan, with one more reserved card placed; optionally store it.

    Dice: exact optimum (per-habitat programme + knapsack). Tokens: added greedily by
    marginal expected value, a lost token costing `token_value`.
    """
    p = st[E.CUR]
    tokens = st[E.TOKENS + p] if par[P_ALLOW_TOKENS] > 0 else 0
    space = plan_space(mem)
    vals = space[8]
    for c in range(E.N_CARDS):
        vals[c] = 0.0
        if st[E.LOC + c] == E.L_TABLE or c == extra_card:
            vals[c] = card_value(st, cfg, comp, par, p, c)
    for h in range(E.N_HAB):
        plan_tables(st, cfg, comp, ptab, par, vals, tokens, extra_card, extra_hab, h, h, space)
    return plan_from_tables(st, cfg, comp, ptab, par, tokens, extra_card, extra_hab, space, mem,
                            -np.inf if write else np.inf)


@njit(cache=True)
def plan_space(mem):
    """Work space of a plan, in the policies' memory: the options of each habitat row (value,
    explore dice, split, cards, their number), the dynamic programme's tables, the row of each
    habitat (row h to begin with), card values, mandatory flags and one card's worth by dice."""
    w = mem[W_HV:].view(np.float64)
    hv = w[:_R * _D].reshape((_R, _D))
    f = w[W_F - W_HV:W_G - W_HV].reshape((_N + 1, _D))
    vals = w[W_VALS - W_HV:W_PEH - W_HV]
    worth = w[W_WORTH - W_HV:W_VALS - W_HV]
    he = mem[W_HE:W_ALLOCS].reshape((_R, _D))
    allocs = mem[W_ALLOCS:W_HCARDS].reshape((_R, _D, _N))
    hcards = mem[W_HCARDS:W_HN].reshape((_R, _N))
    hn = mem[W_HN:W_PICK]
    pick = mem[W_PICK:W_ROWS].reshape((_N + 1, _D))
    rows = mem[W_ROWS:W_MAND]
    for h in range(E.N_HAB):
        rows[h] = h
    mand = mem[W_MAND:W_TAKE]
    return hv, he, allocs, hcards, hn, f, pick, rows, vals, mand, worth


@njit(cache=True)
def knapsack_space(mem):
    """Work space of the knapsack over habitats and the token bundles, in the policies'
    memory: its value and choice tables, dice per habitat and per card, tokens per card and
    P(explore) per habitat."""
    w = mem[W_HV:].view(np.float64)
    g = w[W_G - W_HV:W_WORTH - W_HV].reshape((_R, _D))
    pe_h = w[W_PEH - W_HV:W_BRATE - W_HV]
    take = mem[W_TAKE:W_KOF].reshape((_R, _D))
    k_of = mem[W_KOF:W_PDICE]
    pdice = mem[W_PDICE:W_PTOK]
    ptok = mem[W_PTOK:W_TOPS]
    return g, take, k_of, pdice, ptok, pe_h


@njit(cache=True)
def bundle_space(mem):
    """Work space of the token bundles, in the policies' memory: per card with dice (at most
    one per die) the card, its best bundle's size, gain per token and gain."""
    w = mem[W_HV:].view(np.float64)
    return (mem[W_BCARD:W_BK], mem[W_BK:W_HV], w[W_BRATE - W_HV:W_BGAIN - W_HV],
            w[W_BGAIN - W_HV:])


@njit(cache=True)
def exact_allocations(st, cfg, comp, ptab, par, extra_card, extra_hab, top):
    """The advisor's exhaustive search (snapsim advise prep, `plans.search`) for the current
    player, with one more reserved card placed: its best `top` rows, and the cards they
    allocate dice and tokens to (cards[:n], in row order)."""
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


@njit(cache=True)
def reserved_choice(st, cfg, comp, ptab, par, buf, n, exact, mem):
    """Place the reserved card whose placement raises the best plan's value most; when none
    does, end the step. The greedy kinds keep the best plan seen as the turn's plan: with no
    card placed it is the plan the dice will follow; with a card placed it is the plan the
    next look (or, when that card ends the step, the dice) makes from the tables after it."""
    space = plan_space(mem)
    if exact is not None and exact:
        tokens, best = 0, exact_plan(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, NO)
    else:
        tokens, best = reserved_tables(st, cfg, comp, ptab, par, space, mem)
    best_a, _ = best_reserved(st, cfg, comp, ptab, par, buf, n, exact, tokens, best, space,
                              mem)
    return best_a


@njit(cache=True, inline="always")
def reserved_tables(st, cfg, comp, ptab, par, space, mem):
    """The greedy kinds' first look at their reserved cards: card values (the table's and the
    player's reserved cards) and every habitat's options, kept in `space` (`plan_space`'s; a
    card placed changes only its own habitat's: `replan_habitat`). Returns the tokens the
    plan may use and the best plan's value with no card placed, that plan stored in `mem`."""
    p = st[E.CUR]
    tokens = st[E.TOKENS + p] if par[P_ALLOW_TOKENS] > 0 else 0
    vals = space[8]
    for c in range(E.N_CARDS):
        vals[c] = 0.0
        if st[E.LOC + c] == E.L_TABLE or (st[E.LOC + c] == E.L_RESERVE and
                                            st[E.OWNER + c] == p):
            vals[c] = card_value(st, cfg, comp, par, p, c)
    for h in range(E.N_HAB):
        plan_tables(st, cfg, comp, ptab, par, vals, tokens, NO_CARD, NO_CARD, h, h, space)
    return tokens, plan_from_tables(st, cfg, comp, ptab, par, tokens, NO_CARD, NO_CARD, space, mem,
                                    -np.inf)


@njit(cache=True, inline="always")
def best_reserved(st, cfg, comp, ptab, par, buf, n, exact, tokens, best, space, mem):
    """Among the legal placements of reserved cards in buf, the one that raises the best
    plan's value (`best`) most, and that value; (RESERVED_DONE, best) if none does. The
    greedy kinds re-plan only the card's habitat over the options `reserved_tables` keeps
    in `space`, and store each plan that beats the best so far in `mem` (so `mem` ends with
    the plan of the placement chosen, or with the plan it was given when none is)."""
    rows, vals = space[7], space[8]
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
            plan_tables(st, cfg, comp, ptab, par, vals, tokens, c, h, h, E.N_HAB, space)
            rows[h] = E.N_HAB
            v = plan_from_tables(st, cfg, comp, ptab, par, tokens, c, h, space, mem, best)
            rows[h] = h
        if v > best + 1e-9:
            best = v
            best_a = a
    return best_a, best


@njit(cache=True, inline="always")
def replan_habitat(st, cfg, comp, ptab, par, tokens, h, space):
    """Habitat h's options anew (a reserved card was placed there); the others' stay."""
    plan_tables(st, cfg, comp, ptab, par, space[8], tokens, NO_CARD, NO_CARD, h, h, space)


@njit(cache=True, inline="always")
def make_plan(st, cfg, comp, ptab, par, exact, mem):
    """Store this turn's preparation plan in `mem`, unless choosing reserved cards already
    did: the heuristic kinds then place its dice and tokens one action at a time."""
    if mem[M_TURN] != turns_played(st):
        if exact is not None and exact:
            exact_plan(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, YES)
        else:
            plan_value(st, cfg, comp, ptab, par, NO_CARD, NO_CARD, mem, YES)


@njit(cache=True, inline="always")
def follows_plan(kind):
    """Whether `kind` prepares by the plan `make_plan` stores (the heuristic kinds)."""
    return GREEDY <= kind <= EXACT


@njit(cache=True, inline="always")
def prepare(st, cfg, comp, ptab, rng, kind, par, buf, n, mem, exact=None):
    """A heuristic seat's step of Phase 2 (reserved cards, dice or tokens; `n` legal actions
    in buf) in one go: the actions its policy would take one decision at a time. Reserved
    cards: the same choices, each re-planning only the habitat the last card went to (the
    others' options are unchanged), the best plan kept as they are compared. Dice and
    tokens: each die and token of the plan that `make_plan` stores (or the search wrote)
    or the reserved cards' step kept; the plan is
    legal (sideways cards and their habitats get their dice), so the forced moves between
    those decisions are moves of the plan, and the order of placing draws no random number:
    the game is the one played decision by decision. Returns the legal-action count after,
    as `engine.step` does. `exact` as for `policy_action`: with None the exact kind's
    search is not compiled."""
    if st[E.PHASE] == E.PH_PREP_RESERVED:
        turn = turns_played(st)
        space = plan_space(mem)
        tokens, best = reserved_tables(st, cfg, comp, ptab, par, space, mem)
        while True:
            a, best = best_reserved(st, cfg, comp, ptab, par, buf, n, None, tokens, best, space,
                                    mem)
            if a == E.act(E.A_RESERVED_DONE):
                return E.step(st, cfg, comp, rng, a, buf)
            n = E.step(st, cfg, comp, rng, a, buf)
            if turns_played(st) != turn or st[E.PHASE] != E.PH_PREP_RESERVED:
                # the last card placed ended the step: the plan stored with it is the one
                # the dice would make from the tables after it (placed dice change no option)
                return n
            replan_habitat(st, cfg, comp, ptab, par, tokens,
                           E.reserved_placement(comp, E.act_arg(a))[1], space)
    if st[E.PHASE] == E.PH_PREP_DICE:
        if exact is not None and kind == EXACT:
            make_plan(st, cfg, comp, ptab, par, True, mem)
        else:
            make_plan(st, cfg, comp, ptab, par, None, mem)
        for h in range(E.N_HAB):
            while st[E.HAB_DICE + h] < mem[M_HAB + h]:
                E.apply_action(st, cfg, comp, rng, E.act(E.A_DIE_HABITAT, h))
        for c in range(E.N_CARDS):
            while st[E.DICE_ON + c] < mem[M_DICE + c]:
                E.apply_action(st, cfg, comp, rng, E.act(E.A_DIE_ANIMAL, c))
        return E.step(st, cfg, comp, rng, E.act(E.A_DICE_DONE), buf)
    p = st[E.CUR]
    for c in range(E.N_CARDS):
        while st[E.TOK_ON + c] < mem[M_TOK + c] and st[E.TOKENS + p] > 0:
            E.apply_action(st, cfg, comp, rng, E.act(E.A_TOKEN, c))
    return E.step(st, cfg, comp, rng, E.act(E.A_TOKENS_DONE), buf)


# ---------------------------------------------------------------- the interpreter


@njit(cache=True)
def raccoon_habitat(st, comp, buf, n, kind):
    """The action of `kind` (place, or place at set-up) that puts the raccoon where it turns
    the fewest unseen cards into spookers."""
    best = -1
    best_new = 1 << 30
    for i in range(n):
        if E.act_kind(buf[i]) != kind:
            continue
        h = E.act_arg(buf[i])
        top = E.habitat_top(st, comp, h)
        new = 0
        for c in range(E.RACCOON):
            if comp[E.K_HAB + c] == h and top < comp[E.K_DIFF + c] <= st[E.RACCOON_DIFF] and \
                    (st[E.LOC + c] == E.L_DECK or st[E.LOC + c] == E.L_DISCARD):
                new += 1
        if new < best_new:
            best, best_new = buf[i], new
    return best


@njit(cache=True, inline="always")
def heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, exact, mem):
    """The heuristic kinds' action; the preparation follows the plan kept in `mem`. `exact`
    is True for the exact kind, else None (the advisor's search is then not compiled)."""
    ph = st[E.PHASE]
    p = E.decider(st)
    if ph == E.PH_RESEARCH:
        if is_legal(buf, n, E.act(E.A_DRAW)) and st[E.PLACED_TURN] < par[P_MAX_PLACED]:
            risk = next_risk(st, comp, mem)
            if E.free_slots(st, cfg, p) > 0:
                risk /= par[P_SLOT_RISK]
            if risk <= par[P_MAX_RISK]:
                return E.act(E.A_DRAW)
        return E.act(E.A_STOP)
    if ph == E.PH_OFFER:
        if par[P_ALLOW_OFFERS] <= 0 or par[P_ALLOW_RESERVE] <= 0 or par[P_ALLOW_TOKENS] <= 0:
            return E.act(E.A_PASS)
        v = card_value(st, cfg, comp, par, p, st[E.DRAWN])
        if v >= par[P_OFFER_MIN] and st[E.TOKENS + p] >= par[P_OFFER_TOKENS]:
            return E.act(E.A_OFFER)
        return E.act(E.A_PASS)
    if ph == E.PH_DECIDE:
        c = st[E.DRAWN]
        v = card_value(st, cfg, comp, par, p, c)
        can_reserve = is_legal(buf, n, E.act(E.A_RESERVE)) and par[P_ALLOW_RESERVE] > 0
        place = -1
        for i in range(n):
            if E.act_kind(buf[i]) == E.A_PLACE:
                place = buf[i]
                break
        if c == E.RACCOON and place >= 0:
            place = raccoon_habitat(st, comp, buf, n, E.A_PLACE)
        if is_legal(buf, n, E.act(E.A_ACCEPT)):
            if place >= 0 and v >= par[P_ACCEPT_MAX]:
                return place
            if place < 0 and can_reserve and v >= par[P_KEEP_MIN]:
                return E.act(E.A_RESERVE)
            return E.act(E.A_ACCEPT)
        if place >= 0:
            if can_reserve and v >= par[P_KEEP_MIN]:
                return E.act(E.A_RESERVE)
            return place
        if can_reserve and v >= par[P_RESERVE_MIN]:
            return E.act(E.A_RESERVE)
        # spook: the raccoon is left in the habitat worth least to this player
        best = buf[0]
        best_v = 1e18
        for i in range(n):
            if E.act_kind(buf[i]) == E.A_SPOOK:
                h = E.act_arg(buf[i])
                hv = 0.0
                for a in range(E.N_CARDS):
                    if st[E.LOC + a] == E.L_TABLE and st[E.ON_HAB + a] == h:
                        hv += card_value(st, cfg, comp, par, p, a)
                if hv < best_v:
                    best, best_v = buf[i], hv
        return best
    if ph == E.PH_PREP_RESERVED:
        return reserved_choice(st, cfg, comp, ptab, par, buf, n, exact, mem)
    if ph == E.PH_PREP_DICE:
        make_plan(st, cfg, comp, ptab, par, exact, mem)
        for h in range(E.N_HAB):
            if st[E.HAB_DICE + h] < mem[M_HAB + h]:
                return E.act(E.A_DIE_HABITAT, h)
        for c in range(E.N_CARDS):
            if st[E.DICE_ON + c] < mem[M_DICE + c]:
                return E.act(E.A_DIE_ANIMAL, c)
        return E.act(E.A_DICE_DONE)
    if ph == E.PH_PREP_TOKENS:
        for c in range(E.N_CARDS):
            if st[E.TOK_ON + c] < mem[M_TOK + c] and st[E.TOKENS + p] > 0:
                return E.act(E.A_TOKEN, c)
        return E.act(E.A_TOKENS_DONE)
    if ph == E.PH_RESOLVE:
        return buf[0]
    if ph == E.PH_SETUP:
        return raccoon_habitat(st, comp, buf, n, E.A_SETUP_RACCOON)
    if ph == E.PH_REROLL:
        if exact is not None and exact:
            a = exact_reroll(st, cfg, comp, ptab, par, p, mem)
        else:
            a = greedy_reroll(st, cfg, comp, ptab, par, p, mem[W_TAKEN:W_TAKEN + E.N_CARDS])
        if is_legal(buf, n, a):
            return a
        return buf[0]  # (a re-roll once begun must be paid in full: any legal token)
    return buf[0]


@njit(cache=True)
def token_loss(st, cfg, comp, ptab, par, p, c, taken):
    """What taking one more token off card c (after `taken`) costs in photograph value."""
    d = E.card_difficulty(st, comp, c)
    t = st[E.TOK_ON + c] - taken
    drop = photo_p(ptab, st[E.DICE_ON + c], t, d) - photo_p(ptab, st[E.DICE_ON + c], t - 1, d)
    return drop * card_value(st, cfg, comp, par, p, c)


@njit(cache=True)
def greedy_reroll(st, cfg, comp, ptab, par, p, taken):
    """Buy a re-roll while the habitat's stake beats the cheapest payment; pay each token from
    the cheapest source (card order, supply last, as the engine asks for them). `taken`:
    work space for the tokens the payment takes off each card."""
    if st[E.PAY_PENDING] == 0 and (par[P_ALLOW_REROLLS] <= 0 or par[P_ALLOW_TOKENS] <= 0):
        return E.act(E.A_GIVE_UP)
    need = cfg[E.C_REROLL_COST] - st[E.PAY_PENDING]
    floor = st[E.PAY_FLOOR]
    taken[:] = 0
    from_supply = 0
    loss = 0.0
    first = E.SUPPLY
    for _ in range(need):
        best_c = E.SUPPLY
        best = par[P_TOKEN_VALUE] if st[E.TOKENS + p] > from_supply else 1e18
        for c in range(floor if floor < E.N_CARDS else E.N_CARDS, E.N_CARDS):
            if st[E.TOK_ON + c] > taken[c]:
                x = token_loss(st, cfg, comp, ptab, par, p, c, taken[c])
                if x < best:
                    best, best_c = x, c
        if best >= 1e18:
            return E.act(E.A_GIVE_UP)
        loss += best
        if best_c == E.SUPPLY:
            from_supply += 1
        else:
            taken[best_c] += 1
            first = min(first, best_c)
    if st[E.PAY_PENDING] == 0:
        # the tokens are lost only if this die succeeds, and then the stake is won
        h = st[E.RES_HAB]
        stake = 0.0
        for c in range(E.N_CARDS):
            if st[E.LOC + c] == E.L_TABLE and st[E.ON_HAB + c] == h and st[E.DICE_ON + c] > 0:
                stake += photo_p(ptab, st[E.DICE_ON + c], st[E.TOK_ON + c],
                                 E.card_difficulty(st, comp, c)) * \
                    card_value(st, cfg, comp, par, p, c)
        if stake <= loss:
            return E.act(E.A_GIVE_UP)
    return E.act(E.A_REROLL, first)


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


@njit(cache=True, inline="always")
def random_action(rng, buf, n):
    """The random kind: one of the n legal actions in buf, uniformly (the policy stream)."""
    return buf[randint(rng, 1, n)]


@njit(cache=True)
def policy_action(st, cfg, comp, ptab, rng, kind, par, buf, n, mem, search=None, exact=None):
    """The action policy `kind` with parameters `par` takes now, given the n legal actions in
    buf (as `engine.step` leaves them); always one of them. Reads and writes only the
    policies' memory `mem` (see `new_memory`), never the game state.

    `search` is True when the line-up seats a search policy, else None: numba drops the
    search branch for None, so line-ups without one never compile it (it is most of the
    compile time). `exact` likewise is True when the line-up seats the exact kind (its
    exhaustive preparation search is the next largest part), else None."""
    if kind == RANDOM:
        return random_action(rng, buf, n)
    if kind == SEARCH:
        if search is not None:
            return search_action(st, cfg, comp, ptab, rng, par, buf, n, mem)
        raise ValueError("a line-up seating a search policy passes search=True")
    if kind == EXACT:
        if exact is not None:
            return heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, True, mem)
        raise ValueError("a line-up seating the exact policy passes exact=True")
    return base_action(st, cfg, comp, ptab, rng, par, buf, n, mem)


@njit(cache=True)
def base_action(st, cfg, comp, ptab, rng, par, buf, n, mem):
    """`heuristic_action` of the heuristic kinds but exact, as a call of its own: the callers
    off the hot path (the step API, a search's own moves) share it, instead of each having
    the interpreter compiled into it."""
    return heuristic_action(st, cfg, comp, ptab, rng, par, buf, n, None, mem)


# the search kind plays the heuristic above: imported last, once every name it uses exists
from .search import search_action  # noqa: E402
