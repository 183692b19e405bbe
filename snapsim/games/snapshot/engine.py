"""The Snapshot rules, once, as numba functions over plain arrays.

A game is an int64 state vector `st` (layout below), two splitmix64 streams in `rng`
(chance: shuffles and dice; policy: random choices of policies) and read-only inputs: the
config vector `cfg` and the component vector `comp` (flat int64, layout below). Play
advances by actions: every decision the rulebook gives a player is one small action (draw,
offer, place, one die, one re-roll token ...), `legal_actions` lists them, `apply_action`
applies one (each kind of action is one rule function below) and `step` applies one and
then plays every forced move. The step API plays through `step`; the batch's fast path
(`heuristic.heuristic_turns`) applies the greedy kinds' actions through the same
rule functions without listing them first, so both play exactly the same game.

The kernels take their arrays as `sim.kernel.pointer`s (no reference counting, see there);
the functions called from Python or from array code (`legal_actions`, `apply_action`,
`step`, `settle`) make the pointers themselves.

Phases follow the rulebook: Set-Up (where a dealt raccoon goes), Research (draw / stop,
offers, place / reserve / accept / spook), Preparation (reserved cards, dice, tokens),
Photography (resolve a habitat: explore, re-rolls, photograph) and Review (experience,
awards, game end).
"""

import numpy as np
from numba.extending import overload

from ...sim.kernel import (
    CHANCE,
    Layout,
    bit_count,
    kernel,
    low_bit,
    pointer,
    randint,
    shifted,
    shuffle,
)
from .components import MAX_DIFFICULTY

N_CARDS = 37  # 36 animals + the raccoon
RACCOON = 36
N_HAB = 4
N_CAT = 5  # award categories: 4 Specialist (habitat order) + Generalist
GENERALIST = 4
MAX_PLAYERS = 5
SUPPLY = 63  # re-roll token source: the player's own supply (after every card)

# ---------------------------------------------------------------- config vector
C_PLAYERS = 0
C_TARGET = 1  # photos that trigger the end
C_DICE = 2
C_REROLL_COST = 3
C_EXPERIENCE = 4
C_RESERVE_LIMIT = 5
C_SETUP_CARDS = 6
C_OFFERS = 7
C_RACCOON = 8
C_ASSIGNMENTS = 9
C_TOKENS = 10  # tracking tokens in play
C_RESERVING = 11
C_PLACE_TOKENS = 12
C_OFFER_PRICE = 13
C_COVER_POINTS = 14
C_MAX_ROUNDS = 15
C_START_TOKENS = 16  # one per seat
CFG_SIZE = C_START_TOKENS + MAX_PLAYERS

# ---------------------------------------------------------------- component vector
# header: assignments, award-stack width, chart width, then offsets of the assignment data
K_N_ASSIGN = 0
K_AWARD_WIDTH = 1
K_CHART_WIDTH = 2
K_COVER_AT = 3
K_ASSIGN_SYM_AT = 4
K_CHART_AT = 5
K_EXPLORE = 8
K_HAB = K_EXPLORE + N_HAB  # natural habitat per card (raccoon -1)
K_DIFF = K_HAB + N_CARDS
K_PRESTIGE = K_DIFF + N_CARDS
K_SYMBOLS = K_PRESTIGE + N_CARDS  # bitmask of characteristics
LOW_W = MAX_DIFFICULTY + 1  # difficulties counted by K_LOW: every one a card may have
K_LOW = K_SYMBOLS + N_CARDS  # [habitat, d]: bit mask of its animals of difficulty <= d
K_AWARD_COUNT = K_LOW + N_HAB * LOW_W
K_AWARDS = K_AWARD_COUNT + N_CAT


def component_vector(a):
    """Pack a ComponentArrays into the flat vector the kernels read."""
    n_assign, chart_w = a.assign_chart.shape
    width = a.awards.shape[1]
    cover_at = K_AWARDS + N_CAT * width
    sym_at = cover_at + 2 * n_assign
    chart_at = sym_at + n_assign
    comp = np.zeros(chart_at + n_assign * chart_w, np.int64)
    comp[:6] = (n_assign, width, chart_w, cover_at, sym_at, chart_at)
    comp[K_EXPLORE:K_EXPLORE + N_HAB] = a.explore
    comp[K_HAB:K_HAB + N_CARDS] = a.card_habitat
    comp[K_DIFF:K_DIFF + N_CARDS] = a.card_difficulty
    comp[K_PRESTIGE:K_PRESTIGE + N_CARDS] = a.card_prestige
    comp[K_SYMBOLS:K_SYMBOLS + N_CARDS] = a.card_symbols
    for c in range(RACCOON):
        h, d = a.card_habitat[c], a.card_difficulty[c]
        comp[K_LOW + h * LOW_W + d:K_LOW + (h + 1) * LOW_W] |= 1 << c
    comp[K_AWARD_COUNT:K_AWARD_COUNT + N_CAT] = a.award_counts
    comp[K_AWARDS:cover_at] = a.awards.ravel()
    comp[cover_at:sym_at] = a.assign_cover.ravel()
    comp[sym_at:chart_at] = a.assign_symbols
    comp[chart_at:] = a.assign_chart.ravel()
    return comp


@kernel
def award_value(comp, cat, i):
    """Prestige of the i-th token (0 = top) of award category `cat`."""
    return comp[K_AWARDS + cat * comp[K_AWARD_WIDTH] + i]


@kernel
def is_cover(comp, a, c):
    at = comp[K_COVER_AT] + 2 * a
    first, second = comp[at], comp[at + 1]
    return first == c or second == c


@kernel
def assignment_symbols(comp, a):
    return comp[comp[K_ASSIGN_SYM_AT] + a]


@kernel
def chart_value(comp, a, count):
    """Feature-article prestige for `count` matching symbols (the chart's last value beyond)."""
    w = comp[K_CHART_WIDTH]
    return comp[comp[K_CHART_AT] + a * w + min(count, w - 1)]


# ---------------------------------------------------------------- phases
PH_RESEARCH = 0
PH_OFFER = 1
PH_DECIDE = 2
PH_PREP_RESERVED = 3
PH_PREP_DICE = 4
PH_PREP_TOKENS = 5
PH_RESOLVE = 6
PH_REROLL = 7
PH_OVER = 8
PH_SETUP = 9  # the starting player puts a raccoon dealt at set-up into a habitat

# ---------------------------------------------------------------- actions: `act(kind, arg)`
A_DRAW = 0
A_STOP = 1
A_OFFER = 2
A_PASS = 3
A_PLACE = 4  # arg habitat (sideways when an offer was refused)
A_RESERVE = 5
A_ACCEPT = 6
A_SPOOK = 7  # arg habitat
A_PLACE_RESERVED = 8  # arg card (raccoon: 40 + habitat)
A_RESERVED_DONE = 9
A_DIE_HABITAT = 10  # arg habitat
A_DIE_ANIMAL = 11  # arg card
A_DICE_DONE = 12
A_TOKEN = 13  # arg card
A_TOKENS_DONE = 14
A_RESOLVE = 15  # arg habitat
A_REROLL = 16  # one re-roll token, arg its source: a card or SUPPLY (see `reroll_sources`)
A_GIVE_UP = 17
A_SETUP_RACCOON = 18  # arg habitat
N_KINDS = 19
RACCOON_ARG = 40
MAX_LEGAL = 128
ARG_SPAN = 64  # an action's argument is below this


# The action codes' arithmetic as plain overloads: compiled once for every call (a kernel
# would compile once more for each constant kind it is called with, and numba's own inlining
# copies the callee's IR into every call site; LLVM inlines these).


def act(kind, arg=0):
    """The action code of `kind` with argument `arg` (card, habitat or token source)."""
    return kind * ARG_SPAN + arg


def act_kind(a):
    return a // ARG_SPAN


def act_arg(a):
    return a % ARG_SPAN


@overload(act)
def _act_jit(kind, arg=0):
    return lambda kind, arg=0: kind * ARG_SPAN + arg


@overload(act_kind)
def _act_kind_jit(a):
    return lambda a: a // ARG_SPAN


@overload(act_arg)
def _act_arg_jit(a):
    return lambda a: a % ARG_SPAN


@kernel
def reserved_placement(comp, arg):
    """(card, habitat) that A_PLACE_RESERVED's argument names: a reserved animal goes to its
    own habitat, the raccoon to the one its argument names (RACCOON_ARG + habitat)."""
    c, h = RACCOON, arg - RACCOON_ARG
    if arg < RACCOON_ARG:
        c, h = arg, comp[K_HAB + arg]
    return c, h


# ---------------------------------------------------------------- card locations
# (numpy scalars: numba compiles a function once more for each plain constant it is
# passed, and the locations are passed to `move_card` and `cards_at`)
L_DECK = np.int64(0)
L_TABLE = np.int64(1)
L_DISCARD = np.int64(2)
L_RESERVE = np.int64(3)
L_PORTFOLIO = np.int64(4)
L_DRAWN = np.int64(5)
L_BOX = np.int64(6)  # not in this game (raccoon switched off)
N_LOC = 7
NO_HAB = np.int64(-1)  # a card's habitat off the table

# ---------------------------------------------------------------- state layout
_layout = Layout()
_field = _layout.field

PHASE = _field("PHASE")
CUR = _field("CUR")
ROUND = _field("ROUND")
END_TRIGGERED = _field("END_TRIGGERED")
TRUNCATED = _field("TRUNCATED")
N_DECK = _field("N_DECK")
DRAWN = _field("DRAWN")
LAST_DRAWN = _field("LAST_DRAWN")  # for logs: the card drawn most recently
ASKED = _field("ASKED")
OFFERER = _field("OFFERER")
RES_HAB = _field("RES_HAB")
POT = _field("POT")  # re-roll tokens on the habitat being explored
PAY_PENDING = _field("PAY_PENDING")  # tokens paid so far toward the re-roll being bought
PAY_FLOOR = _field("PAY_FLOOR")  # lowest source the next token of that re-roll may come from
PLACED_TURN = _field("PLACED_TURN")
PHOTOS_TURN = _field("PHOTOS_TURN")
DICE_LEFT = _field("DICE_LEFT")
RACCOON_DIFF = _field("RACCOON_DIFF")
DECK = _field("DECK", N_CARDS)
LOC = _field("LOC", N_CARDS)
OWNER = _field("OWNER", N_CARDS)
ON_HAB = _field("ON_HAB", N_CARDS)  # habitat of a card on the table (the raccoon's is chosen)
SIDEWAYS = _field("SIDEWAYS", N_CARDS)
DICE_ON = _field("DICE_ON", N_CARDS)
TOK_ON = _field("TOK_ON", N_CARDS)
HAB_DICE = _field("HAB_DICE", N_HAB)
RESOLVED = _field("RESOLVED", N_HAB)
AWARD_NEXT = _field("AWARD_NEXT", N_CAT)
REROLLS_TURN = _field("REROLLS_TURN")  # re-rolls bought this turn
# the dice as they fall, for the game's log and a player's screen (no rule reads them): ROLLS
# keeps the last ROLL_KEEP, each its value + 8 * what rolled it (`R_EXPLORE`, `R_REROLL`,
# R_ANIMAL + card), in a ring indexed by ROLL_N, the dice rolled so far
ROLL_KEEP = 32
ROLL_N = _field("ROLL_N")
ROLLS = _field("ROLLS", ROLL_KEEP)
# per player
TOKENS = _field("TOKENS", MAX_PLAYERS)
ASSIGN = _field("ASSIGN", MAX_PLAYERS)
PHOTOS = _field("PHOTOS", MAX_PLAYERS)
N_RESERVED = _field("N_RESERVED", MAX_PLAYERS)
HAB_COUNT = _field("HAB_COUNT", MAX_PLAYERS * N_HAB)
AWARDS_WON = _field("AWARDS_WON", MAX_PLAYERS * N_CAT)
SYM_COUNT = _field("SYM_COUNT", MAX_PLAYERS)
COVER_DONE = _field("COVER_DONE", MAX_PLAYERS)
S_PRESTIGE = _field("S_PRESTIGE", MAX_PLAYERS)
S_AWARDS = _field("S_AWARDS", MAX_PLAYERS)
S_COVER = _field("S_COVER", MAX_PLAYERS)
S_ARTICLE = _field("S_ARTICLE", MAX_PLAYERS)
# per-player statistics
ST_TURNS = _field("ST_TURNS", MAX_PLAYERS)
ST_DRAWS = _field("ST_DRAWS", MAX_PLAYERS)
ST_PLACED = _field("ST_PLACED", MAX_PLAYERS)
ST_SPOOKS = _field("ST_SPOOKS", MAX_PLAYERS)
ST_ATTEMPTS = _field("ST_ATTEMPTS", MAX_PLAYERS)
ST_EXPLORE_FAILS = _field("ST_EXPLORE_FAILS", MAX_PLAYERS)
ST_REROLLS = _field("ST_REROLLS", MAX_PLAYERS)
ST_TOK_PLACE = _field("ST_TOK_PLACE", MAX_PLAYERS)  # tokens earned by placing cards
ST_TOK_EXPERIENCE = _field("ST_TOK_EXPERIENCE", MAX_PLAYERS)
ST_TOK_OFFERS_IN = _field("ST_TOK_OFFERS_IN", MAX_PLAYERS)  # paid to me for my drawn cards
ST_TOK_OFFERS_OUT = _field("ST_TOK_OFFERS_OUT", MAX_PLAYERS)
ST_TOK_PHOTO = _field("ST_TOK_PHOTO", MAX_PLAYERS)  # spent on successful photographs
ST_TOK_REROLL = _field("ST_TOK_REROLL", MAX_PLAYERS)  # kept by the bank after re-rolls
ST_OFFERS_MADE = _field("ST_OFFERS_MADE", MAX_PLAYERS)
ST_OFFERS_TAKEN = _field("ST_OFFERS_TAKEN", MAX_PLAYERS)
ST_END_ROUND = _field("ST_END_ROUND")
# per-card and per-award statistics (for card value and award timing studies)
MAX_STACK = 8  # award tokens per category whose claim round is recorded
CS_ATTEMPTS = _field("CS_ATTEMPTS", N_CARDS)
CS_PHOTOS = _field("CS_PHOTOS", N_CARDS)
CS_DICE = _field("CS_DICE", N_CARDS)  # dice rolled in photograph attempts
AWARD_ROUND = _field("AWARD_ROUND", N_CAT * MAX_STACK)  # round (1-based) each token was taken
# the card sets, as bit masks (bit c: card c): what LOC and ON_HAB say, kept up to date by
# `move_card` as cards move, so that a rule reads a set in one load instead of a pass over
# the 37 cards. Everything before DERIVED is the game; what follows is worked out from it
# (`index_cards` works it out afresh, for a state written by hand).
AT = _field("AT", N_LOC)  # the cards at each location
HAB_CARDS = _field("HAB_CARDS", N_HAB)  # the animals on the table in each habitat
HAB_TOP = _field("HAB_TOP", N_HAB)  # and the highest difficulty among them (0: none)
DERIVED = AT
STATE_SIZE = _layout.size



# ---------------------------------------------------------------- randomness


# what rolled a die (ROLLS): R_ANIMAL + card (numpy scalars: see `sim.kernel.CHANCE`)
R_EXPLORE, R_REROLL, R_ANIMAL = np.int64(0), np.int64(1), np.int64(2)


@kernel
def roll(rng):
    """One d6 from the chance stream."""
    return randint(rng, CHANCE, np.int64(6)) + 1


@kernel
def rolled(st, rng, what):
    """One d6 from the chance stream, kept in ROLLS as rolled by `what`."""
    v = roll(rng)
    st[ROLLS + st[ROLL_N] % ROLL_KEEP] = v + 8 * what
    st[ROLL_N] += 1
    return v


# ---------------------------------------------------------------- small queries


@kernel
def n_players(cfg):
    return cfg[C_PLAYERS]


@kernel
def card_difficulty(st, comp, c):
    d = comp[K_DIFF + c]
    if c == RACCOON:
        d = st[RACCOON_DIFF]
    return d


@kernel
def habitat_top(st, comp, h):
    """Highest difficulty among the animals in habitat h (0 if empty)."""
    return st[HAB_TOP + h]


@kernel
def find_top(st, comp, h):
    """`habitat_top` worked out from habitat h's cards (HAB_TOP keeps it)."""
    top = 0
    cards = st[HAB_CARDS + h]
    while cards != 0:
        c = low_bit(cards)
        cards &= cards - 1
        top = max(top, card_difficulty(st, comp, c))
    return top


@kernel
def cards_at(st, where):
    """The cards at location `where` (L_DECK, L_TABLE, ...) as a bit mask (bit c: card c)."""
    return st[AT + where]


@kernel
def habitat_tops(st, comp):
    """Every habitat's `habitat_top`."""
    return (st[HAB_TOP], st[HAB_TOP + 1], st[HAB_TOP + 2], st[HAB_TOP + 3])


@kernel
def move_card(st, c, where, h):
    """Card c to location `where` (on the table: into habitat h; elsewhere h is -1), the card
    sets (AT, HAB_CARDS) kept as they are. A card put on the table changes its habitat's top
    too (`to_table`); the rules that take cards off it set that top afresh."""
    bit = np.int64(1) << c
    was = st[LOC + c]
    st[AT + was] &= ~bit
    if was == L_TABLE:
        st[HAB_CARDS + st[ON_HAB + c]] &= ~bit
    st[LOC + c] = where
    st[ON_HAB + c] = h
    st[AT + where] |= bit
    if where == L_TABLE:
        st[HAB_CARDS + h] |= bit


@kernel
def to_table(st, comp, c, h):
    """Card c onto the table, into habitat h (`move_card`, and the habitat's top)."""
    move_card(st, c, L_TABLE, h)
    st[HAB_TOP + h] = max(st[HAB_TOP + h], card_difficulty(st, comp, c))


@kernel
def index_cards(st, comp):
    """Work the card sets (AT, HAB_CARDS, HAB_TOP) out afresh from LOC and ON_HAB: for a
    state whose cards were placed by hand (tests, the advisor's situations)."""
    for i in range(N_LOC):
        st[AT + i] = 0
    for h in range(N_HAB):
        st[HAB_CARDS + h] = 0
    for c in range(N_CARDS):
        st[AT + st[LOC + c]] |= np.int64(1) << c
        if st[LOC + c] == L_TABLE:
            st[HAB_CARDS + st[ON_HAB + c]] |= np.int64(1) << c
    for h in range(N_HAB):
        st[HAB_TOP + h] = find_top(st, comp, h)


@kernel
def spookers(comp, tops):
    """The animals that cannot be placed above `tops` (`habitat_tops`), as a bit mask: those
    of difficulty at most their habitat's top (K_LOW); the raccoon is not among them."""
    m = 0
    for h in range(N_HAB):
        m |= comp[K_LOW + h * LOW_W + tops[h]]
    return m


@kernel
def can_place(st, comp, c, h, top):
    """Option A: the card is placed only above every animal already in its habitat (`top`,
    that habitat's `habitat_top`)."""
    ok = card_difficulty(st, comp, c) > top
    if c != RACCOON and comp[K_HAB + c] != h:
        ok = False
    return ok


@kernel
def free_slots(st, cfg, p):
    free = 0
    if cfg[C_RESERVING] != 0:
        free = cfg[C_RESERVE_LIMIT] - st[N_RESERVED + p]
    return free


@kernel
def table_scan(st):
    """One pass over the table: (dice still owed to sideways cards, one on each and one on
    each of their habitats; habitats holding a sideways card; habitats holding an animal),
    the two sets as bit masks (bit h)."""
    need = 0
    habs = 0
    animals = 0
    for h in range(N_HAB):
        cards = st[HAB_CARDS + h]
        if cards != 0:
            animals |= 1 << h
        while cards != 0:
            c = low_bit(cards)
            cards &= cards - 1
            if st[SIDEWAYS + c] == 1:
                if st[DICE_ON + c] == 0:
                    need += 1
                habs |= 1 << h
        if habs >> h & 1 and st[HAB_DICE + h] == 0:
            need += 1
    return need, habs, animals


@kernel
def sideways_need(st, scan, extra_hab):
    """The dice owed (from `table_scan`'s `scan`) counting one more sideways card in habitat
    `extra_hab`: its own die, and its habitat's if that owes none yet."""
    need, habs, _ = scan
    if habs >> extra_hab & 1 == 0 and st[HAB_DICE + extra_hab] == 0:
        need += 1
    return need + 1


@kernel
def can_offer(st, cfg, p):
    """An offer needs a free reserve slot and a token to pay (Option D)."""
    ok = free_slots(st, cfg, p) > 0 and st[TOKENS + p] >= cfg[C_OFFER_PRICE]
    return ok


@kernel
def offers_open(cfg):
    ok = cfg[C_OFFERS] == 1 and cfg[C_RESERVING] == 1 and cfg[C_TOKENS] == 1
    return ok


@kernel
def next_asked(st, cfg, after):
    """The next player, in priority order after `after`, who is able to offer (-1: none)."""
    n = n_players(cfg)
    cur = st[CUR]
    k = (after - cur) % n
    asked = -1
    for i in range(k + 1, n):
        p = (cur + i) % n
        if can_offer(st, cfg, p):
            asked = p
            break
    return asked


@kernel
def deck_can_draw(st):
    ok = st[N_DECK] > 0 or st[AT + L_DISCARD] != 0
    return ok


@kernel
def placements(st, cfg, comp):
    """Option A for the drawn card: (bit mask of the habitats it may be placed in, whether
    any habitat would take it). A card placed after a refused offer goes sideways, so it may
    go only where the dice it then owes still fit."""
    c = st[DRAWN]
    offer = st[OFFERER] >= 0
    tops = habitat_tops(st, comp)
    scan = table_scan(st) if offer else (0, 0, 0)
    mask = 0
    fits = False
    for h in range(N_HAB):
        if can_place(st, comp, c, h, tops[h]):
            fits = True
            if not offer or sideways_need(st, scan, h) <= cfg[C_DICE]:
                mask |= 1 << h
    return mask, fits


@kernel
def reroll_sources(st, cfg, out, n):
    """Phase 3, Re-Rolls: the tokens of one re-roll may come from the supply and from tokens
    on any animal cards, in any combination. A re-roll is bought one token at a time, each
    action naming where that token comes from; the die is re-rolled once the cost is paid.
    So that each combination is one sequence, a re-roll's tokens are named in card order with
    the supply last (PAY_FLOOR), and a source is offered only if it and the sources after it
    still hold the tokens the re-roll needs. Writes the token actions from out[n]; returns n."""
    if cfg[C_TOKENS] != 0:
        need = cfg[C_REROLL_COST] - st[PAY_PENDING]
        floor = st[PAY_FLOOR]
        supply = st[TOKENS + st[CUR]]
        later = supply  # tokens at the sources from the current one on
        sources = 0  # the cards from the floor on (only those on the table hold tokens)
        if floor < N_CARDS:
            sources = st[AT + L_TABLE] >> floor << floor
        left = sources
        while left != 0:
            later += st[TOK_ON + low_bit(left)]
            left &= left - 1
        while sources != 0:
            c = low_bit(sources)
            sources &= sources - 1
            if st[TOK_ON + c] > 0:
                if later >= need:
                    out[n] = act(A_REROLL, c)
                    n += 1
                later -= st[TOK_ON + c]
        if supply > 0 and supply >= need:
            out[n] = act(A_REROLL, SUPPLY)
            n += 1
    return n


@kernel
def setup_raccoon_fits(st, comp, h):
    """Set-Up 4: cards go out in ascending difficulty, so when the raccoon goes out only the
    set-up animals up to its difficulty are there (an equal one first: a ruling); it needs a
    habitat where those are all below it."""
    rd = st[RACCOON_DIFF]
    fits = True
    cards = st[HAB_CARDS + h] & ~(np.int64(1) << RACCOON)
    while cards != 0:
        c = low_bit(cards)
        cards &= cards - 1
        if comp[K_DIFF + c] == rd:
            fits = False
    return fits


@kernel
def next_habitat(st):
    """The first habitat (in habitat order) with dice on it still to resolve (-1: none)."""
    first = -1
    for h in range(N_HAB - 1, -1, -1):
        if st[HAB_DICE + h] > 0 and st[RESOLVED + h] == 0:
            first = h
    return first


# ---------------------------------------------------------------- legal actions


@kernel
def legal_actions(st, cfg, comp, out):
    """Write the legal actions into `out`; return how many."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    out = pointer(out)
    n = 0
    ph = st[PHASE]
    p = st[CUR]
    if ph == PH_RESEARCH:
        if deck_can_draw(st):
            out[n] = act(A_DRAW)
            n += 1
        out[n] = act(A_STOP)
        n += 1
    elif ph == PH_OFFER:
        out[n] = act(A_OFFER)
        out[n + 1] = act(A_PASS)
        n += 2
    elif ph == PH_DECIDE:
        c = st[DRAWN]
        mask, fits = placements(st, cfg, comp)
        for h in range(N_HAB):
            if mask >> h & 1:
                out[n] = act(A_PLACE, h)
                n += 1
        if free_slots(st, cfg, p) > 0:
            out[n] = act(A_RESERVE)
            n += 1
        if st[OFFERER] >= 0:
            out[n] = act(A_ACCEPT)
            n += 1
        elif not fits:
            if c == RACCOON:
                for h in range(N_HAB):
                    out[n] = act(A_SPOOK, h)
                    n += 1
            else:
                out[n] = act(A_SPOOK, comp[K_HAB + c])
                n += 1
    elif ph == PH_PREP_RESERVED:
        scan = table_scan(st)
        reserved = cards_at(st, L_RESERVE)
        while reserved != 0:
            c = low_bit(reserved)
            reserved &= reserved - 1
            if st[OWNER + c] == p:
                if c == RACCOON:
                    for h in range(N_HAB):
                        if sideways_need(st, scan, h) <= cfg[C_DICE]:
                            out[n] = act(A_PLACE_RESERVED, RACCOON_ARG + h)
                            n += 1
                elif sideways_need(st, scan, comp[K_HAB + c]) <= cfg[C_DICE]:
                    out[n] = act(A_PLACE_RESERVED, c)
                    n += 1
        out[n] = act(A_RESERVED_DONE)
        n += 1
    elif ph == PH_PREP_DICE:
        left = st[DICE_LEFT]
        need, habs, animals = table_scan(st)
        if left > 0:
            for h in range(N_HAB):
                # a habitat holding a sideways card owes a die until it has one
                owes = 1 if habs >> h & 1 and st[HAB_DICE + h] == 0 else 0
                if animals >> h & 1 and left - 1 >= need - owes:
                    out[n] = act(A_DIE_HABITAT, h)
                    n += 1
            explored = 0  # the animals in habitats with a die
            for h in range(N_HAB):
                if st[HAB_DICE + h] > 0:
                    explored |= st[HAB_CARDS + h]
            while explored != 0:
                c = low_bit(explored)
                explored &= explored - 1
                owed = 1 if (st[SIDEWAYS + c] == 1 and st[DICE_ON + c] == 0) else 0
                if left - 1 >= need - owed:
                    out[n] = act(A_DIE_ANIMAL, c)
                    n += 1
        if need == 0:
            out[n] = act(A_DICE_DONE)
            n += 1
    elif ph == PH_PREP_TOKENS:
        if st[TOKENS + p] > 0:
            table = cards_at(st, L_TABLE)
            while table != 0:
                c = low_bit(table)
                table &= table - 1
                if st[DICE_ON + c] > 0:
                    out[n] = act(A_TOKEN, c)
                    n += 1
        out[n] = act(A_TOKENS_DONE)
        n += 1
    elif ph == PH_RESOLVE:
        for h in range(N_HAB):
            if st[HAB_DICE + h] > 0 and st[RESOLVED + h] == 0:
                out[n] = act(A_RESOLVE, h)
                n += 1
    elif ph == PH_REROLL:
        n = reroll_sources(st, cfg, out, n)
        if st[PAY_PENDING] == 0:  # a re-roll once begun is paid in full
            out[n] = act(A_GIVE_UP)
            n += 1
    elif ph == PH_SETUP:
        for h in range(N_HAB):
            if setup_raccoon_fits(st, comp, h):
                out[n] = act(A_SETUP_RACCOON, h)
                n += 1
        if n == 0:  # no spooking at set-up: with every habitat closed, any habitat will do
            for h in range(N_HAB):
                out[n] = act(A_SETUP_RACCOON, h)
                n += 1
    return n


# ---------------------------------------------------------------- setup


@kernel
def shuffle_deck(st, rng, cards, n):
    """Fisher-Yates over cards[:n] into the deck."""
    shuffle(rng, cards, n)
    for i in range(n):
        st[DECK + i] = cards[i]
        move_card(st, cards[i], L_DECK, NO_HAB)
    st[N_DECK] = n


@kernel
def reshuffle(st, rng):
    """An empty deck is refilled by shuffling the discards (Phase 1), listed in the empty
    deck's own slots."""
    cards = shifted(st, DECK)
    n = np.int64(0)  # a count, not the constant 0: numba would compile shuffle_deck for both
    discards = st[AT + L_DISCARD]
    while discards != 0:
        cards[n] = low_bit(discards)
        discards &= discards - 1
        n += 1
    shuffle_deck(st, rng, cards, n)


@kernel
def draw_card(st, rng):
    if st[N_DECK] == 0:
        reshuffle(st, rng)
    st[N_DECK] -= 1
    c = st[DECK + st[N_DECK]]
    move_card(st, c, L_DRAWN, NO_HAB)
    st[LAST_DRAWN] = c
    return c


@kernel
def new_game(cfg, comp, rng):
    """Set-up: shuffle, deal 3 cards to the table in ascending order, assignments, tokens."""
    st = np.empty(STATE_SIZE, np.int64)
    cards = np.empty(work_cards(comp), np.int64)
    start_game(pointer(st), pointer(cfg), pointer(comp), pointer(rng), pointer(cards))
    return st


@kernel
def work_cards(comp):
    """The length of `start_game`'s work space."""
    return max(N_CARDS, comp[K_N_ASSIGN])


@kernel
def start_game(st, cfg, comp, rng, cards):
    """`new_game` into the caller's state vector st (a batch reuses one from game to game);
    `cards`: work space of `work_cards` integers."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[RACCOON_DIFF] = comp[K_DIFF + RACCOON]
    for c in range(N_CARDS):
        st[OWNER + c] = -1
        st[ON_HAB + c] = -1
        st[LOC + c] = L_BOX
    st[AT + L_BOX] = (np.int64(1) << N_CARDS) - 1
    for i in range(work_cards(comp)):
        cards[i] = i
    fill_new_game(st, cfg, comp, rng, cards)


@kernel
def fill_new_game(st, cfg, comp, rng, cards):
    """`new_game` into the fresh state st (`cards`: 0, 1, 2, ..., work space for the deck's
    and the assignments' shuffles)."""
    shuffle_deck(st, rng, cards, N_CARDS if cfg[C_RACCOON] == 1 else N_CARDS - 1)
    # set-up cards go to their natural habitats without spooking; a raccoon among them waits,
    # drawn, for the starting player to choose its habitat (PH_SETUP, `setup_raccoon_fits`)
    k = min(cfg[C_SETUP_CARDS], st[N_DECK])
    raccoon_dealt = False
    for _ in range(k):
        c = draw_card(st, rng)
        if c == RACCOON:
            raccoon_dealt = True
        else:
            to_table(st, comp, c, comp[K_HAB + c])
    n = n_players(cfg)
    n_assign = comp[K_N_ASSIGN]
    perm = cards  # the assignments' shuffle, in the cards' work space
    for a in range(n_assign):
        perm[a] = a
    shuffle(rng, perm, n_assign)
    for p in range(n):
        st[ASSIGN + p] = perm[p]
        st[TOKENS + p] = cfg[C_START_TOKENS + p] if cfg[C_TOKENS] == 1 else 0
    for i in range(N_CAT):
        st[AWARD_NEXT + i] = 0
    st[DRAWN] = -1
    st[OFFERER] = -1
    st[ASKED] = -1
    st[RES_HAB] = -1
    start_turn(st, cfg)
    if raccoon_dealt:
        st[DRAWN] = RACCOON
        st[PHASE] = PH_SETUP


@kernel
def start_turn(st, cfg):
    st[PHASE] = PH_RESEARCH
    st[PLACED_TURN] = 0
    st[PHOTOS_TURN] = 0
    st[REROLLS_TURN] = 0
    st[DICE_LEFT] = cfg[C_DICE]
    st[ST_TURNS + st[CUR]] += 1


@kernel
def setup_raccoon(st, comp, h):
    """Set-Up 4: the starting player puts a raccoon dealt at set-up into habitat h."""
    to_table(st, comp, np.int64(RACCOON), h)
    st[DRAWN] = -1
    st[PHASE] = PH_RESEARCH


# ---------------------------------------------------------------- phase 1: research


@kernel
def draw(st, cfg, rng):
    """Draw a card (Phase 1); the players able to offer are asked in priority order."""
    p = st[CUR]
    c = draw_card(st, rng)
    st[DRAWN] = c
    st[ST_DRAWS + p] += 1
    st[OFFERER] = -1
    st[ASKED] = next_asked(st, cfg, p) if offers_open(cfg) else -1
    st[PHASE] = PH_OFFER if st[ASKED] >= 0 else PH_DECIDE


@kernel
def stop_drawing(st):
    """End Research: on to Preparation (its reserved-cards step only with reserved cards)."""
    st[PHASE] = PH_PREP_RESERVED
    if st[N_RESERVED + st[CUR]] == 0:
        st[PHASE] = PH_PREP_DICE


@kernel
def make_offer(st):
    """Option D: the asked player offers to reserve the drawn card."""
    st[OFFERER] = st[ASKED]
    st[ST_OFFERS_MADE + st[ASKED]] += 1
    st[PHASE] = PH_DECIDE


@kernel
def pass_offer(st, cfg):
    """The asked player makes no offer: the next one able to is asked."""
    st[ASKED] = next_asked(st, cfg, st[ASKED])
    if st[ASKED] < 0:
        st[PHASE] = PH_DECIDE


@kernel
def after_card(st):
    st[DRAWN] = -1
    st[OFFERER] = -1
    st[ASKED] = -1
    st[PHASE] = PH_RESEARCH


@kernel
def place_card(st, cfg, comp, c, h, sideways):
    p = st[CUR]
    to_table(st, comp, c, h)
    st[SIDEWAYS + c] = sideways
    if cfg[C_TOKENS] == 1:
        st[TOKENS + p] += cfg[C_PLACE_TOKENS]
        st[ST_TOK_PLACE + p] += cfg[C_PLACE_TOKENS]
    st[PLACED_TURN] += 1
    st[ST_PLACED + p] += 1


@kernel
def place_drawn(st, cfg, comp, h):
    """Option A: the drawn card into habitat h, sideways if an offer for it was refused."""
    place_card(st, cfg, comp, st[DRAWN], h, 1 if st[OFFERER] >= 0 else 0)
    after_card(st)


@kernel
def reserve_card(st, c, p):
    move_card(st, c, L_RESERVE, NO_HAB)
    st[OWNER + c] = p
    st[N_RESERVED + p] += 1


@kernel
def reserve_drawn(st):
    """Option C: the drawer reserves the drawn card."""
    reserve_card(st, st[DRAWN], st[CUR])
    after_card(st)


@kernel
def accept_offer(st, cfg):
    """Option D: the offering player reserves the drawn card and pays the drawer."""
    p = st[CUR]
    q = st[OFFERER]
    reserve_card(st, st[DRAWN], q)
    price = cfg[C_OFFER_PRICE]
    st[TOKENS + q] -= price
    st[TOKENS + p] += price
    st[ST_TOK_OFFERS_OUT + q] += price
    st[ST_TOK_OFFERS_IN + p] += price
    st[ST_OFFERS_TAKEN + q] += 1
    after_card(st)


@kernel
def discard(st, c):
    move_card(st, c, L_DISCARD, NO_HAB)
    st[OWNER + c] = -1
    st[SIDEWAYS + c] = 0
    st[DICE_ON + c] = 0
    st[TOK_ON + c] = 0


@kernel
def spook(st, cfg, comp, h):
    """Option B: the drawn card and every animal in its habitat are discarded; turn over."""
    p = st[CUR]
    discard(st, st[DRAWN])
    cards = st[HAB_CARDS + h]
    while cards != 0:
        c = low_bit(cards)
        cards &= cards - 1
        if st[TOK_ON + c] > 0:  # cannot happen before Step C; kept for safety of custom flows
            st[TOKENS + p] += st[TOK_ON + c]
        discard(st, c)
    st[HAB_TOP + h] = 0
    st[ST_SPOOKS + p] += 1
    st[DRAWN] = -1
    st[OFFERER] = -1
    review(st, cfg, comp)


# ---------------------------------------------------------------- phase 2: preparation


@kernel
def place_reserved(st, comp, arg):
    """Step A: a reserved card into its habitat (the raccoon into the one `arg` names),
    sideways: it must be photographed this turn."""
    c, h = reserved_placement(comp, arg)
    to_table(st, comp, c, h)
    st[OWNER + c] = -1
    st[SIDEWAYS + c] = 1
    st[N_RESERVED + st[CUR]] -= 1


@kernel
def end_dice(st, cfg, comp):
    """Step B done: on to the tokens (Step C), or with no tokens in play to photography."""
    st[PHASE] = PH_PREP_TOKENS if cfg[C_TOKENS] == 1 else PH_RESOLVE
    if st[PHASE] == PH_RESOLVE:
        start_photography(st, cfg, comp)


@kernel
def start_photography(st, cfg, comp):
    if next_habitat(st) >= 0:
        st[PHASE] = PH_RESOLVE
    else:
        review(st, cfg, comp)


# ---------------------------------------------------------------- phase 3: photography


@kernel
def explore(st, cfg, comp, rng, h):
    """Step A: roll the habitat's dice; any one meeting its explore value succeeds (dice are
    never summed). A failure waits for re-rolls (PH_REROLL)."""
    st[RES_HAB] = h
    st[POT] = 0
    st[PAY_PENDING] = 0
    st[PAY_FLOOR] = 0
    success = False
    for _ in range(st[HAB_DICE + h]):
        if rolled(st, rng, R_EXPLORE) >= comp[K_EXPLORE + h]:
            success = True
    if success:
        explored(st, cfg, comp, rng, h)
    else:
        st[PHASE] = PH_REROLL


@kernel
def pay_reroll(st, cfg, comp, rng, source):
    """Re-Rolls: one token toward a re-roll from `source` (a card, or SUPPLY); once the cost
    is paid one die is re-rolled."""
    p = st[CUR]
    if source == SUPPLY:
        st[TOKENS + p] -= 1
    else:
        st[TOK_ON + source] -= 1  # off the card: that animal's total drops by one
    st[POT] += 1
    st[PAY_PENDING] += 1
    st[PAY_FLOOR] = source
    if st[PAY_PENDING] == cfg[C_REROLL_COST]:  # paid: re-roll one die
        st[PAY_PENDING] = 0
        st[PAY_FLOOR] = 0
        st[ST_REROLLS + p] += 1
        st[REROLLS_TURN] += 1
        h = st[RES_HAB]
        if rolled(st, rng, R_REROLL) >= comp[K_EXPLORE + h]:
            explored(st, cfg, comp, rng, h)


@kernel
def photograph(st, cfg, comp, rng, h):
    """Step B: each animal with dice in the explored habitat is rolled on its own."""
    p = st[CUR]
    cards = st[HAB_CARDS + h]
    while cards != 0:
        c = low_bit(cards)
        cards &= cards - 1
        if st[DICE_ON + c] > 0:
            total = st[TOK_ON + c]
            for _ in range(st[DICE_ON + c]):
                total += rolled(st, rng, R_ANIMAL + c)
            st[ST_ATTEMPTS + p] += 1
            st[CS_ATTEMPTS + c] += 1
            st[CS_DICE + c] += st[DICE_ON + c]
            if total >= card_difficulty(st, comp, c):
                st[CS_PHOTOS + c] += 1
                st[ST_TOK_PHOTO + p] += st[TOK_ON + c]
                st[TOK_ON + c] = 0  # spent, to the bank, even if not needed
                st[DICE_ON + c] = 0
                st[SIDEWAYS + c] = 0
                move_card(st, c, L_PORTFOLIO, NO_HAB)
                st[OWNER + c] = p
                add_photo(st, cfg, comp, p, c)
            else:
                st[TOKENS + p] += st[TOK_ON + c]  # kept
                discard(st, c)
    st[HAB_TOP + h] = find_top(st, comp, h)
    finish_habitat(st, cfg, comp, h)


@kernel
def add_photo(st, cfg, comp, p, c):
    st[PHOTOS + p] += 1
    st[PHOTOS_TURN] += 1
    st[S_PRESTIGE + p] += comp[K_PRESTIGE + c]
    if c != RACCOON:  # the raccoon never counts toward awards
        st[HAB_COUNT + p * N_HAB + comp[K_HAB + c]] += 1
    if cfg[C_ASSIGNMENTS] == 1:
        a = st[ASSIGN + p]
        st[SYM_COUNT + p] += bit_count(comp[K_SYMBOLS + c] & assignment_symbols(comp, a))
        if is_cover(comp, a, c):
            st[COVER_DONE + p] = 1


@kernel
def fail_explore(st, cfg, comp, h):
    """Failed exploration: animals with dice are discarded, every token returns."""
    p = st[CUR]
    st[ST_EXPLORE_FAILS + p] += 1
    st[TOKENS + p] += st[POT]
    st[POT] = 0
    cards = st[HAB_CARDS + h]
    while cards != 0:
        c = low_bit(cards)
        cards &= cards - 1
        if st[DICE_ON + c] > 0:
            st[TOKENS + p] += st[TOK_ON + c]
            discard(st, c)
    st[HAB_TOP + h] = find_top(st, comp, h)
    finish_habitat(st, cfg, comp, h)


@kernel
def explored(st, cfg, comp, rng, h):
    """Successful exploration: re-roll tokens go to the bank, then photograph."""
    st[ST_TOK_REROLL + st[CUR]] += st[POT]
    st[POT] = 0
    photograph(st, cfg, comp, rng, h)


@kernel
def finish_habitat(st, cfg, comp, h):
    st[RESOLVED + h] = 1
    st[RES_HAB] = -1
    start_photography(st, cfg, comp)


# ---------------------------------------------------------------- phase 4: review


@kernel
def take_award(st, comp, p, cat):
    """Take the top token of a category's stack."""
    i = st[AWARD_NEXT + cat]
    st[S_AWARDS + p] += award_value(comp, cat, i)
    if i < MAX_STACK:
        st[AWARD_ROUND + cat * MAX_STACK + i] = st[ROUND] + 1
    st[AWARD_NEXT + cat] += 1
    st[AWARDS_WON + p * N_CAT + cat] += 1


@kernel
def collect_awards(st, comp, p):
    """The k-th award of a category needs 3k animals of the habitat (Generalist: k of each)."""
    least = 1 << 30
    for h in range(N_HAB):
        cnt = st[HAB_COUNT + p * N_HAB + h]
        least = min(least, cnt)
        while st[AWARDS_WON + p * N_CAT + h] < cnt // 3 and \
                st[AWARD_NEXT + h] < comp[K_AWARD_COUNT + h]:
            take_award(st, comp, p, h)
    g = np.int64(GENERALIST)  # (not the constant: take_award would compile for both)
    while st[AWARDS_WON + p * N_CAT + g] < least and st[AWARD_NEXT + g] < comp[K_AWARD_COUNT + g]:
        take_award(st, comp, p, g)


@kernel
def review(st, cfg, comp):
    p = st[CUR]
    if st[PHOTOS_TURN] == 0 and cfg[C_TOKENS] == 1:
        st[TOKENS + p] += cfg[C_EXPERIENCE]
        st[ST_TOK_EXPERIENCE + p] += cfg[C_EXPERIENCE]
    collect_awards(st, comp, p)
    # the turn's dice, resolutions and sideways marks are cleared
    for h in range(N_HAB):
        st[HAB_DICE + h] = 0
        st[RESOLVED + h] = 0
    table = st[AT + L_TABLE]  # (only a card on the table holds dice, tokens or a mark)
    while table != 0:
        c = low_bit(table)
        table &= table - 1
        st[DICE_ON + c] = 0
        st[SIDEWAYS + c] = 0
        if st[TOK_ON + c] > 0:  # tokens on cards left unresolved return (none in legal play)
            st[TOKENS + p] += st[TOK_ON + c]
            st[TOK_ON + c] = 0
    if st[PHOTOS + p] >= cfg[C_TARGET] and st[END_TRIGGERED] == 0:
        st[END_TRIGGERED] = 1
        st[ST_END_ROUND] = st[ROUND]
    nxt = (p + 1) % n_players(cfg)
    over = False
    if nxt == 0:
        if st[END_TRIGGERED] == 1:
            over = True
        else:
            st[ROUND] += 1
            if st[ROUND] >= cfg[C_MAX_ROUNDS]:
                st[TRUNCATED] = 1
                over = True
    if over:
        end_game(st, cfg, comp)
    else:
        st[CUR] = nxt
        start_turn(st, cfg)


@kernel
def end_game(st, cfg, comp):
    """Scoring: animals, awards, cover photo, feature article."""
    st[PHASE] = PH_OVER
    if cfg[C_ASSIGNMENTS] != 0:
        for p in range(n_players(cfg)):
            a = st[ASSIGN + p]
            st[S_COVER + p] = cfg[C_COVER_POINTS] * st[COVER_DONE + p]
            st[S_ARTICLE + p] = chart_value(comp, a, st[SYM_COUNT + p])


@kernel
def score(st, p):
    return st[S_PRESTIGE + p] + st[S_AWARDS + p] + st[S_COVER + p] + st[S_ARTICLE + p]


@kernel
def win_shares(st, cfg):
    """Each player's `win_share`."""
    n = n_players(cfg)
    out = np.zeros(n)
    for p in range(n):
        out[p] = win_share(st, cfg, p)
    return out


@kernel
def win_share(st, cfg, p):
    """Player p's share of the win: highest score wins; ties: most tokens; still tied: the
    win is shared."""
    n = n_players(cfg)
    best_s = -1
    best_t = -1
    for q in range(n):
        s = score(st, q)
        t = st[TOKENS + q]
        if s > best_s or (s == best_s and t > best_t):
            best_s, best_t = s, t
    share = 0.0
    if score(st, p) == best_s and st[TOKENS + p] == best_t:
        k = 0
        for q in range(n):
            if score(st, q) == best_s and st[TOKENS + q] == best_t:
                k += 1
        share = 1.0 / k
    return share


# ---------------------------------------------------------------- applying actions


@kernel
def apply_action(st, cfg, comp, rng, action):
    """Apply one legal action (not checked here: `legal_actions` is the contract): each kind
    is one rule of the phase it belongs to."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    kind = act_kind(action)
    arg = act_arg(action)
    if kind == A_DRAW:
        draw(st, cfg, rng)
    elif kind == A_STOP:
        stop_drawing(st)
    elif kind == A_OFFER:
        make_offer(st)
    elif kind == A_PASS:
        pass_offer(st, cfg)
    elif kind == A_PLACE:
        place_drawn(st, cfg, comp, arg)
    elif kind == A_RESERVE:
        reserve_drawn(st)
    elif kind == A_ACCEPT:
        accept_offer(st, cfg)
    elif kind == A_SPOOK:
        spook(st, cfg, comp, arg)
    elif kind == A_PLACE_RESERVED:
        place_reserved(st, comp, arg)
    elif kind == A_RESERVED_DONE:
        st[PHASE] = PH_PREP_DICE
    elif kind == A_DIE_HABITAT:
        st[HAB_DICE + arg] += 1
        st[DICE_LEFT] -= 1
    elif kind == A_DIE_ANIMAL:
        st[DICE_ON + arg] += 1
        st[DICE_LEFT] -= 1
    elif kind == A_DICE_DONE:
        end_dice(st, cfg, comp)
    elif kind == A_TOKEN:
        st[TOK_ON + arg] += 1
        st[TOKENS + st[CUR]] -= 1
    elif kind == A_TOKENS_DONE:
        start_photography(st, cfg, comp)
    elif kind == A_RESOLVE:
        explore(st, cfg, comp, rng, arg)
    elif kind == A_REROLL:
        pay_reroll(st, cfg, comp, rng, arg)
    elif kind == A_GIVE_UP:
        fail_explore(st, cfg, comp, st[RES_HAB])
    elif kind == A_SETUP_RACCOON:
        setup_raccoon(st, comp, arg)


@kernel(inline="always")
def step(st, cfg, comp, rng, action, buf):
    """Apply `action`, then every forced move (a decision with a single legal action).

    Returns the number of legal actions now, which are left in `buf` (0 when over).
    """
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    buf = pointer(buf)
    apply_action(st, cfg, comp, rng, action)
    n = settle(st, cfg, comp, rng, buf)
    return n


@kernel(inline="always")
def settle(st, cfg, comp, rng, buf):
    """Play forced moves until a real decision (or the end); returns its legal-action count."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    buf = pointer(buf)
    n = 0
    while st[PHASE] != PH_OVER:
        n = legal_actions(st, cfg, comp, buf)
        if n != 1:
            break
        apply_action(st, cfg, comp, rng, buf[0])
    if st[PHASE] == PH_OVER:
        n = 0
    return n


@kernel
def decider(st):
    """The player who must act now (the asked player during offers)."""
    return st[ASKED] if st[PHASE] == PH_OFFER else st[CUR]
