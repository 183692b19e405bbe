"""The layouts the Snapshot policies share: the kinds, the heuristic's parameter vector and
the policies' memory (the plan it keeps from one decision to the next, then the work spaces
of the plan, the re-rolls and the search), so that no decision allocates.

The memory is one int64 array owned by whoever runs the policies (one per thread in the
batch, one per step game), never part of the game state. Integers are read at the M_* and
W_* offsets; floats from its float view (`float_space`) at the F_* offsets.
"""

import numpy as np
from numba import njit
from numba.extending import overload

from ...sim.kernel import Param, as_floats, kernel, shifted
from . import engine as E

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
    # 0-1: search: mean value by which a move must beat the base's move to be played
    Param("margin", 0, 1),
    # 0-0.5: search: a rollout's value adds this per point of the seat's lead over the best
    # rival (at most 20 points either way) to its win share
    Param("lead", 0, 0.5),
)
N_PARAMS = PARAM_NAMES.index("rollouts")  # the heuristic's parameters; the search's follow
(P_MAX_RISK, P_MAX_PLACED, P_SLOT_RISK, P_TOKEN_VALUE, P_W_AWARD, P_W_PROGRESS, P_W_COVER,
 P_W_ARTICLE, P_OFFER_MIN, P_OFFER_TOKENS, P_ACCEPT_MAX, P_RESERVE_MIN,
 P_KEEP_MIN, P_ALLOW_RESERVE, P_ALLOW_OFFERS, P_ALLOW_TOKENS, P_ALLOW_REROLLS) = range(N_PARAMS)
P_ROLLOUTS, P_CANDIDATES, P_MARGIN, P_LEAD = range(N_PARAMS, len(PARAM_NAMES))

# ---------------------------------------------------------------- the policies' memory
# The preparation plan of the turn it was made in (the turn count `turns_played` then); a
# later turn makes a new one. M_HAB, M_DICE and M_TOK follow each other (a plan row).
M_TURN = 0
M_CAP = 1  # re-rolls the plan allows this turn (the exact policy)
M_PLACED = 2  # the reserved cards the plan places (bit mask)
M_RACCOON = 3  # the habitat it places a reserved raccoon in
M_TABLE = 4  # the cards on the table the plan is for (bit mask): those then and M_PLACED
M_HAB = 5  # dice per habitat
M_DICE = M_HAB + E.N_HAB  # dice per card
M_TOK = M_DICE + E.N_CARDS  # tokens per card
KEPT_MEMORY = M_TOK + E.N_CARDS  # the plan: all that carries from one decision to the next
# then the plan's work space (preparation.py): its cards (items), habitat by habitat and in
# card order within a habitat, the dice programme's choices, each habitat's options, the
# best plan's dice and tokens, the token bundles; then a re-roll payment's count per card
MAX_DICE = 6  # the most dice a config allows
_D, _N, _H = MAX_DICE + 1, E.N_CARDS, E.N_HAB
W_ODDS_KEY = KEPT_MEMORY  # the config the explore odds table is of (`explore_table`)
W_CARD = W_ODDS_KEY + 1 + _H  # the plan's cards [i]
W_DIFF = W_CARD + _N  # their difficulties [i]
W_LO = W_DIFF + _N  # the fewest dice each takes (a sideways card: 1) [i]
W_IHAB = W_LO + _N  # the habitat each goes to [i]
W_FIRST = W_IHAB + _N  # each habitat's first item, then the number of items [h]
W_PICK = W_FIRST + _H + 1  # dice on item i when its habitat's items up to it get j [i, j]
W_TSTAR = W_PICK + _N * _D  # the best number of tokens for item i with a dice [i, a]
W_HE = W_TSTAR + _N * _D  # explore dice of each habitat's best option for k dice [h, k]
W_KOF = W_HE + _H * _D  # dice of each habitat in the best plan [h]
W_DICE = W_KOF + _H  # dice on each item in the best plan [i]
W_TOKENS = W_DICE + _N  # and tokens [i]
W_BITEM = W_TOKENS + _N  # the token bundles' items (those given dice, in card order) [m]
W_BK = W_BITEM + MAX_DICE  # and their best bundle's size [m]
W_TAKEN = W_BK + MAX_DICE  # tokens a re-roll's payment takes off each card [c]
W_FLOATS = W_TAKEN + _N  # the floats (bit patterns, viewed by `float_space`):
F_VAL = 0  # each item's value [i]
F_WORTH = F_VAL + _N  # each item's worth by its dice [i, a]
F_F = F_WORTH + _N * _D  # the dice programme's values [j]
# a habitat's P(explore) with e dice and the re-rolls the tokens buy, and the re-roll tokens
# it expects to lose, where the explore odds table has no row for those re-rolls [e, 2]
F_PE = F_F + _D
F_HV = F_PE + 2 * _D  # each habitat's option value for k dice [h, k]
F_G = F_HV + _H * _D  # the knapsack's values [h, j]
F_PEH = F_G + (_H + 1) * _D  # P(explore) of each habitat in the plan [h]
F_BRATE = F_PEH + _H  # each bundle item's best gain per token [m]
F_BGAIN = F_BRATE + MAX_DICE  # and that gain [m]
ODDS_REROLLS = 40  # the explore odds table's re-roll budgets: 0 .. this
F_ODDS = F_BGAIN + MAX_DICE  # P(explore) and E[tokens paid] [h, re-rolls, e, 2]
PLAN_MEMORY = W_FLOATS + F_ODDS + _H * _D * (ODDS_REROLLS + 1) * 2  # the heuristic kinds'
# memory (a playout's)
# then the `search` kind's work space (search.py), laid out once so that no searched decision
# allocates: a playout's policy memory, the determinized world and the playout's state, the
# playout's legal actions, the moves compared, the candidate plans (rows of habitat dice,
# card dice, card tokens) and the advisor's rows in value order, the random streams
# (uint64: the world's, the rollout's two, the playout's two, a digest's), the totals (floats)
# and a playout's line-up (one greedy kind, then every seat's index into it: zeros)
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
S_LINEUP = S_TOTALS + E.MAX_LEGAL
MEMORY_SIZE = S_LINEUP + 1 + E.MAX_PLAYERS

# Constant arguments of compiled calls, as numpy scalars: numba compiles a function once more
# for each plain constant it is called with (the constant is its argument's type), so `-1`
# here and a card number there would compile the plan search twice.
NO_CARD = np.int64(-1)  # no card (a reserved card not placed, no raccoon habitat)
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


def on_fast_path(kind):
    """Whether the batch plays `kind`'s seats on its fast path (`heuristic.heuristic_turns`):
    the greedy kinds (greedy, cautious, aggressive, collector). The exact kind, whose
    advisor's search costs far more than asking, is asked decision by decision."""
    return GREEDY <= kind <= COLLECTOR


@overload(on_fast_path)
def _on_fast_path_jit(kind):  # (a plain overload: see engine.act)
    return lambda kind: GREEDY <= kind <= COLLECTOR
