"""The ShutterBug rules, once, as numba kernels over flat int64 vectors.

A game is an int64 state vector `st` (layout below), two splitmix64 streams in `rng`
(chance: bag, tip deck, trades; policy: random choices) and read-only inputs: the config
vector `cfg` and the flat int64 component vector `comp` (one vector, not a tuple of arrays).
The kernels take them as raw pointers (`sim.kernel.pointer`: no reference counts per call);
those that Python and array code call (`legal_actions`, `apply_action`, `settle`,
`new_game`) make the pointers from arrays. Every decision the rulebook gives a player is one
small action (one step of a pawn, one trade, one tip paid for a photo, one tip discarded
...); `legal_actions` lists them and `step` applies one and then plays every forced move,
so the batch kernel and the step API run exactly the same code.

Turn order follows the rulebook: populate the board, move 1-3 spaces (per space entered:
trades, then the photograph; city tips are drawn when a pawn leaves a city it entered or
ends its movement there), discard to 7. Tips of one creature-terrain pair are identical,
so hands, the discard pile and payments are counts per tip type (creature * 6 + terrain).
"""

import numpy as np
from numba import njit

from ...sim.kernel import Layout, bit_count, kernel, pointer, randint, shifted, shuffle
from .components import MAX_DEGREE, MAX_SPACES, N_CREATURES, N_TERRAINS, N_TILES, N_TIPS

MAX_PLAYERS = 6
MAX_PAWNS = 2
N_TYPES = N_CREATURES * N_TERRAINS
SIDE_N = 3
N_Q = 3  # photo qualities 1..3
JOB_EACH_CREATURE, JOB_SAME_CREATURE, JOB_TERRAINS, JOB_SAME_TERRAIN, JOB_TOP_QUALITY = range(5)

# ---------------------------------------------------------------- config vector
C_PLAYERS = 0
C_PAWNS = 1  # pawns per player: 2 in the team game and solo
C_POPULATE = 2  # spaces holding tiles after Step 1
C_START_TIPS = 3
C_HAND_LIMIT = 4
C_ROUNDS = 5
C_CITY_BONUS = 6  # per pawn ending in a city
C_SWAPS = 7  # tip swaps per turn (solo)
C_TRADING = 8
C_COOP = 9  # one shared portfolio, assignment and goal
C_KEEP = 10  # assignments offered at set-up of which one is kept (solo: 3; else 1)
C_GOAL_JOBS = 11  # side jobs an all-or-nothing game needs
C_ALL_OR_NOTHING = 12
C_MAX_STEPS = 13
C_PASS_TIPS = 14
C_END_TIPS = 15
C_TURN_TIPS = 16  # most city tips one player gains in a turn (0: no limit)
C_RANDOM_CITIES = 17  # 1: starting cities drawn at random instead of chosen
C_MARKERS = 18  # side-job markers per player: no one fulfils more side jobs than this
C_SEAT_TIPS = 19  # tips a seat is dealt at set-up beyond C_START_TIPS, one entry per seat
CFG_SIZE = C_SEAT_TIPS + MAX_PLAYERS

# ---------------------------------------------------------------- component vector
K_N_SPACES = 0
K_N_ASSIGN = 1
K_N_JOBS = 2
K_ASSIGN_AT = 3
K_JOBS_AT = 4
K_CITY = 8
K_SCRE = K_CITY + MAX_SPACES  # silhouette creature per space (-1 city)
K_STER = K_SCRE + MAX_SPACES
K_ADJ = K_STER + MAX_SPACES  # MAX_DEGREE per space, -1 padded
K_TILE_SPACE = K_ADJ + MAX_SPACES * MAX_DEGREE
K_TILE_CRE = K_TILE_SPACE + N_TILES
K_TILE_TER = K_TILE_CRE + N_TILES
K_TILE_Q = K_TILE_TER + N_TILES
K_TIP_TYPE = K_TILE_Q + N_TILES
K_SPACE_AT = K_TIP_TYPE + N_TIPS  # per space, where its tiles start in K_SPACE_TILES (+1: end)
K_SPACE_TILES = K_SPACE_AT + MAX_SPACES + 1  # the tiles by space, each space's in tile order
NEAR_STEPS = 3  # a turn's move by the rulebook: 1-3 spaces
# per d = 1..NEAR_STEPS and space, bitmask of the spaces d or fewer steps away (`near`)
K_NEAR = K_SPACE_TILES + N_TILES
K_END = K_NEAR + NEAR_STEPS * MAX_SPACES


def component_vector(c):
    """Pack a Components into the flat vector the kernels read."""
    n_a, n_j = len(c.assignments), len(c.side_jobs)
    assign_at = K_END
    jobs_at = assign_at + n_a * 2 * SIDE_N * 2
    comp = np.full(jobs_at + n_j * 3, -1, np.int64)
    comp[:5] = (len(c.spaces), n_a, n_j, assign_at, jobs_at)
    for i, s in enumerate(c.spaces):
        comp[K_CITY + i] = int(s.city)
        comp[K_SCRE + i] = s.creature
        comp[K_STER + i] = s.terrain
        comp[K_ADJ + i * MAX_DEGREE:K_ADJ + i * MAX_DEGREE + len(s.adjacent)] = s.adjacent
    for i, t in enumerate(c.tiles):
        comp[K_TILE_SPACE + i] = t.space
        comp[K_TILE_CRE + i] = t.creature
        comp[K_TILE_TER + i] = t.terrain
        comp[K_TILE_Q + i] = t.quality
    for i, (cre, ter) in enumerate(c.tips):
        comp[K_TIP_TYPE + i] = cre * N_TERRAINS + ter
    by_space = sorted(range(len(c.tiles)), key=lambda t: (c.tiles[t].space, t))
    comp[K_SPACE_TILES:K_SPACE_TILES + len(by_space)] = by_space
    # where each space's tiles start: the count of tiles on lower spaces
    comp[K_SPACE_AT:K_SPACE_AT + MAX_SPACES + 1] = np.searchsorted(
        np.sort([t.space for t in c.tiles]), np.arange(MAX_SPACES + 1))
    for s in range(len(c.spaces)):
        near = {s}
        for d in range(NEAR_STEPS):
            near |= {a for x in near for a in c.spaces[x].adjacent}
            comp[K_NEAR + d * MAX_SPACES + s] = sum(1 << x for x in near)
    at = assign_at
    for a in c.assignments:
        for side in a.sides:
            for cre, need in side:
                comp[at] = cre
                comp[at + 1] = need
                at += 2
    for j, job in enumerate(c.side_jobs):
        comp[jobs_at + 3 * j:jobs_at + 3 * j + 3] = (job.kind, job.count, job.points)
    return comp


@kernel(inline="always")
def side_entry(comp, a, side, i):
    """(creature, minimum) of the i-th creature of side `side` (0 left, 1 right) of card a."""
    at = comp[K_ASSIGN_AT] + ((a * 2 + side) * SIDE_N + i) * 2
    return comp[at], comp[at + 1]


@kernel
def adjacent(comp, s, i):
    return comp[K_ADJ + s * MAX_DEGREE + i]


@kernel(inline="always")
def near(comp, s, d):
    """Bitmask of the spaces at most d steps from s (d <= NEAR_STEPS)."""
    return (1 << s) if d == 0 else comp[K_NEAR + (d - 1) * MAX_SPACES + s]


@kernel
def space_tile(comp, i):
    """The i-th tile of the by-space list: space s holds those from comp[K_SPACE_AT + s] up
    to comp[K_SPACE_AT + s + 1] (the tiles printed for it, on the board or not)."""
    return comp[K_SPACE_TILES + i]


# ---------------------------------------------------------------- phases and actions
PH_KEEP = 0
PH_MOVE = 1
PH_TRADE = 2
PH_PHOTO = 3
PH_PAY = 4
PH_DISCARD = 5
PH_OVER = 6
PH_CITY = 7  # set-up: players choose their starting cities in turn order

BASE = 128  # action = kind * BASE + arg
A_KEEP = 0  # arg: offered assignment
A_MOVE = 1  # arg: pawn_space(pawn, space)
A_STOP = 2
A_SWAP = 3  # arg: tip type
A_TRADE = 4  # arg: tip type given
A_NO_TRADE = 5
A_PHOTO = 6  # arg: tile
A_SKIP = 7
A_PAY = 8  # arg: tip type
A_DISCARD = 9  # arg: tip type
A_CITY = 10  # arg: pawn_space(pawn, city)
N_KINDS = 11
MAX_LEGAL = 128
PAWN_SPAN = 64  # a move's or a starting city's arg: pawn * PAWN_SPAN + space


@kernel(inline="always")
def act(kind, arg=0):
    """The action code of `kind` with argument `arg`."""
    return kind * BASE + arg


@kernel(inline="always")
def act_kind(a):
    return a // BASE


@kernel(inline="always")
def act_arg(a):
    return a % BASE


@kernel(inline="always")
def pawn_space(k, s):
    """The arg of a move or starting city: pawn k to space s."""
    return k * PAWN_SPAN + s


@kernel(inline="always")
def arg_pawn(arg):
    return arg // PAWN_SPAN


@kernel(inline="always")
def arg_space(arg):
    return arg % PAWN_SPAN

T_BAG = 0
T_BOARD = 1
T_PORTFOLIO = 2

# ---------------------------------------------------------------- state layout
_layout = Layout()
_field = _layout.field

PHASE = _field("PHASE")
CUR = _field("CUR")
ROUND = _field("ROUND")
STEPS = _field("STEPS")
AT_PAWN = _field("AT_PAWN")  # pawn whose space is being resolved
TRADE_NEXT = _field("TRADE_NEXT")  # seat offset of the next possible trade partner
PHOTO_TILE = _field("PHOTO_TILE")
PAY_LEFT = _field("PAY_LEFT")
SWAPS_LEFT = _field("SWAPS_LEFT")
TURN_TIPS = _field("TURN_TIPS")  # city tips the active player gained this turn
SHOT = _field("SHOT")  # spaces where the active player took a tile this turn, bitmask
N_DECK = _field("N_DECK")
N_BAG = _field("N_BAG")
LAST_TRADE = _field("LAST_TRADE")  # for logs: tip type taken in the last trade
DECK = _field("DECK", N_TIPS)  # tip types, top at N_DECK - 1
DISC = _field("DISC", N_TYPES)  # discard pile, counts per type
HAND = _field("HAND", MAX_PLAYERS * N_TYPES)
N_HAND = _field("N_HAND", MAX_PLAYERS)
BAG = _field("BAG", N_TILES)  # tiles, next drawn at N_BAG - 1
TILE_LOC = _field("TILE_LOC", N_TILES)
TILE_OWNER = _field("TILE_OWNER", N_TILES)
ON_SPACE = _field("ON_SPACE", MAX_SPACES)  # tiles on each space
BOARD = _field("BOARD")  # spaces holding tiles, bitmask
BOARD_TILES = _field("BOARD_TILES")  # tiles on the board, bitmask
PAWN = _field("PAWN", MAX_PLAYERS * MAX_PAWNS)  # space, -1 without a second pawn
VISITED = _field("VISITED", MAX_PAWNS)  # active player's spaces this turn, bitmask
START = _field("START", MAX_PAWNS)  # active player's spaces at the start of the turn
ASSIGN = _field("ASSIGN", MAX_PLAYERS)
OFFER = _field("OFFER", 3)  # solo: assignments offered at set-up
# portfolio totals by team (a seat; everyone shares team 0 in the cooperative game)
QUAL = _field("QUAL", MAX_PLAYERS * N_CREATURES)  # photo quality per creature
NPH = _field("NPH", MAX_PLAYERS * N_CREATURES)  # photos per creature
TERC = _field("TERC", MAX_PLAYERS * N_TERRAINS)  # photos per terrain
QC = _field("QC", MAX_PLAYERS * N_Q)  # photos per quality
# end-of-game scoring by seat
S_ASSIGN = _field("S_ASSIGN", MAX_PLAYERS)
S_JOBS = _field("S_JOBS", MAX_PLAYERS)
S_CITY = _field("S_CITY", MAX_PLAYERS)
SIDE = _field("SIDE", MAX_PLAYERS)
JOBS_DONE = _field("JOBS_DONE", MAX_PLAYERS)  # bitmask
MET = _field("MET", MAX_PLAYERS)  # creatures of the chosen side at their minimum
GOAL = _field("GOAL", MAX_PLAYERS)  # all-or-nothing goal reached
# per-seat statistics
ST_TURNS = _field("ST_TURNS", MAX_PLAYERS)
ST_STEPS = _field("ST_STEPS", MAX_PLAYERS)
ST_PHOTOS = _field("ST_PHOTOS", MAX_PLAYERS)
ST_QUALITY = _field("ST_QUALITY", MAX_PLAYERS)
ST_DRAWN = _field("ST_DRAWN", MAX_PLAYERS)  # city tips
ST_PAID = _field("ST_PAID", MAX_PLAYERS)
ST_DISCARDED = _field("ST_DISCARDED", MAX_PLAYERS)  # down to the hand limit
ST_TRADES = _field("ST_TRADES", MAX_PLAYERS)  # trades started
ST_TRADED_WITH = _field("ST_TRADED_WITH", MAX_PLAYERS)  # trades others started with me
ST_SWAPS = _field("ST_SWAPS", MAX_PLAYERS)
STATE_SIZE = _layout.size


# ---------------------------------------------------------------- small queries


@kernel
def n_players(cfg):
    return cfg[C_PLAYERS]


@kernel
def team(cfg, p):
    """Portfolio slot of seat p: its own, or the shared one in the cooperative game."""
    return 0 if cfg[C_COOP] == 1 else p


@kernel
def is_city(comp, s):
    return comp[K_CITY + s] == 1


@kernel
def tip_creature(u):
    return u // N_TERRAINS


@kernel
def tip_terrain(u):
    return u % N_TERRAINS


@kernel(inline="always")
def hand(st, p, u):
    return st[HAND + p * N_TYPES + u]


@kernel
def eligible(u, cre, ter):
    """A tip pays for a photo of `cre` in `ter` as its creature or as its terrain."""
    return tip_creature(u) == cre or tip_terrain(u) == ter


@kernel
def payable(st, p, cre, ter):
    """The highest quality p can pay for a photo of `cre` in `ter`: the first tip must show
    the creature, every one of `quality` tips matches one way (0: none payable)."""
    first = 0  # tips showing the creature
    for t in range(N_TERRAINS):
        first += hand(st, p, cre * N_TERRAINS + t)
    if first == 0:
        return 0
    total = first  # ... and those showing only the terrain
    for c in range(N_CREATURES):
        if c != cre:
            total += hand(st, p, c * N_TERRAINS + ter)
    return total


@kernel
def can_afford(st, comp, p, tile):
    return payable(st, p, comp[K_TILE_CRE + tile], comp[K_TILE_TER + tile]) \
        >= comp[K_TILE_Q + tile]


@kernel
def photo_open(st, s):
    """A tile may be taken on s: one per space a turn, whichever of the player's pawns."""
    return st[ON_SPACE + s] > 0 and not (st[SHOT] >> s) & 1


@kernel
def pawn_at(st, cfg, p, s):
    for k in range(cfg[C_PAWNS]):
        if st[PAWN + p * MAX_PAWNS + k] == s:
            return True
    return False


@kernel
def unplaced_pawn(st, p):
    """The first of p's pawns not yet on the board (set-up)."""
    k = 0
    while k < MAX_PAWNS and st[PAWN + p * MAX_PAWNS + k] >= 0:
        k += 1
    return k


@kernel
def can_draw(st):
    if st[N_DECK] > 0:
        return True
    for u in range(N_TYPES):
        if st[DISC + u] > 0:
            return True
    return False


@kernel
def blocked(st, cfg, k):
    """Bitmask of the spaces the active player's pawn k may not move to: never back onto a
    space it occupied this turn, nor onto the other own pawn."""
    p = st[CUR]
    block = st[VISITED + k]
    for j in range(cfg[C_PAWNS]):
        if j != k:
            block |= 1 << st[PAWN + p * MAX_PAWNS + j]
    return block


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
    if ph == PH_KEEP:
        for i in range(cfg[C_KEEP]):
            out[n] = act(A_KEEP, i)
            n += 1
    elif ph == PH_MOVE:
        if st[STEPS] < cfg[C_MAX_STEPS]:
            for k in range(cfg[C_PAWNS]):
                pos = st[PAWN + p * MAX_PAWNS + k]
                block = blocked(st, cfg, k)
                for i in range(MAX_DEGREE):
                    s = adjacent(comp, pos, i)
                    if s < 0:  # the neighbours end at the first -1
                        break
                    if not (block >> s) & 1:
                        out[n] = act(A_MOVE, pawn_space(k, s))
                        n += 1
        if st[STEPS] > 0 or n == 0:
            out[n] = act(A_STOP)
            n += 1
        if st[SWAPS_LEFT] > 0 and can_draw(st):
            for u in range(N_TYPES):
                if hand(st, p, u) > 0:
                    out[n] = act(A_SWAP, u)
                    n += 1
    elif ph == PH_TRADE:
        for u in range(N_TYPES):
            if hand(st, p, u) > 0:
                out[n] = act(A_TRADE, u)
                n += 1
        out[n] = act(A_NO_TRADE)
        n += 1
    elif ph == PH_PHOTO:
        s = st[PAWN + p * MAX_PAWNS + st[AT_PAWN]]
        if photo_open(st, s):
            for i in range(comp[K_SPACE_AT + s], comp[K_SPACE_AT + s + 1]):
                t = space_tile(comp, i)
                if st[TILE_LOC + t] == T_BOARD and can_afford(st, comp, p, t):
                    out[n] = act(A_PHOTO, t)
                    n += 1
        out[n] = act(A_SKIP)
        n += 1
    elif ph == PH_PAY:
        t = st[PHOTO_TILE]
        cre = comp[K_TILE_CRE + t]
        ter = comp[K_TILE_TER + t]
        first = st[PAY_LEFT] == comp[K_TILE_Q + t]
        for c in range(N_CREATURES):  # by tip type: the creature's, then (not first) ...
            if c == cre:
                for u in range(c * N_TERRAINS, (c + 1) * N_TERRAINS):
                    if hand(st, p, u) > 0:
                        out[n] = act(A_PAY, u)
                        n += 1
            elif not first and hand(st, p, c * N_TERRAINS + ter) > 0:  # ... the terrain's
                out[n] = act(A_PAY, c * N_TERRAINS + ter)
                n += 1
    elif ph == PH_DISCARD:
        for u in range(N_TYPES):
            if hand(st, p, u) > 0:
                out[n] = act(A_DISCARD, u)
                n += 1
    elif ph == PH_CITY:
        k = unplaced_pawn(st, p)
        for s in range(comp[K_N_SPACES]):
            if is_city(comp, s) and not pawn_at(st, cfg, p, s):  # own pawns: separate cities
                out[n] = act(A_CITY, pawn_space(k, s))
                n += 1
    return n


# ---------------------------------------------------------------- set-up and chance


@kernel
def draw_tip(st, rng, p):
    """Top tip of the deck to p's hand; an empty deck is the shuffled discard pile."""
    if st[N_DECK] == 0:
        n = 0
        for u in range(N_TYPES):
            for _ in range(st[DISC + u]):
                st[DECK + n] = u
                n += 1
            st[DISC + u] = 0
        shuffle(rng, shifted(st, DECK), n)
        st[N_DECK] = n
        if n == 0:  # every tip is in a hand: nothing to draw
            return
    st[N_DECK] -= 1
    u = st[DECK + st[N_DECK]]
    st[HAND + p * N_TYPES + u] += 1
    st[N_HAND + p] += 1


@kernel
def city_tips(st, cfg, rng, k):
    """Draw k city tips for the active player, none beyond the turn's limit (the team game:
    "a maximum of four cards per turn")."""
    p = st[CUR]
    for _ in range(k):
        if cfg[C_TURN_TIPS] > 0 and st[TURN_TIPS] >= cfg[C_TURN_TIPS]:
            return
        draw_tip(st, rng, p)
        st[TURN_TIPS] += 1
        st[ST_DRAWN + p] += 1


@kernel
def discard_tip(st, p, u):
    st[HAND + p * N_TYPES + u] -= 1
    st[N_HAND + p] -= 1
    st[DISC + u] += 1


@njit(cache=True)
def new_game(cfg, comp, rng):
    """Set-up: tiles into the bag, assignments, 3 tips each; then (solo) an assignment is
    kept and the players choose their starting cities, unless they are drawn at random."""
    st = np.empty(STATE_SIZE, np.int64)
    work = np.empty(work_size(comp), np.int64)
    deal(pointer(st), pointer(cfg), pointer(comp), pointer(rng), pointer(work))
    return st


@kernel
def work_size(comp):
    """The length of `deal`'s work space."""
    return max(comp[K_N_ASSIGN], comp[K_N_SPACES])


@kernel
def deal(st, cfg, comp, rng, work):
    """`new_game` into the caller's state vector st (a batch reuses one from game to game);
    `work` (`work_size`) holds the assignments' shuffle, then the cities' (one entry per
    card and per space)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    n = n_players(cfg)
    for t in range(N_TILES):
        st[BAG + t] = t
        st[TILE_OWNER + t] = -1
    shuffle(rng, shifted(st, BAG), N_TILES)
    st[N_BAG] = N_TILES
    for i in range(N_TIPS):
        st[DECK + i] = comp[K_TIP_TYPE + i]
    shuffle(rng, shifted(st, DECK), N_TIPS)
    st[N_DECK] = N_TIPS
    perm = work
    n_assign = comp[K_N_ASSIGN]
    for a in range(n_assign):
        perm[a] = a
    shuffle(rng, perm, n_assign)
    for p in range(n):
        st[ASSIGN + p] = perm[0] if cfg[C_COOP] == 1 else perm[p]
    for i in range(cfg[C_KEEP]):
        st[OFFER + i] = perm[i]
    for p in range(n):
        for _ in range(cfg[C_START_TIPS] + cfg[C_SEAT_TIPS + p]):
            draw_tip(st, rng, p)
    for i in range(MAX_PLAYERS * MAX_PAWNS):
        st[PAWN + i] = -1
    if cfg[C_RANDOM_CITIES] == 1:
        cities = work  # the assignments are dealt
        nc = 0
        for s in range(comp[K_N_SPACES]):
            if is_city(comp, s):
                cities[nc] = s
                nc += 1
        for p in range(n):
            shuffle(rng, cities, nc)  # a team's pawns start on separate cities
            for k in range(cfg[C_PAWNS]):
                st[PAWN + p * MAX_PAWNS + k] = cities[k]
    st[PHOTO_TILE] = -1
    st[LAST_TRADE] = -1
    if cfg[C_KEEP] > 1:
        st[PHASE] = PH_KEEP
    else:
        place_pawns(st, cfg, comp, rng)


@kernel
def place_pawns(st, cfg, comp, rng):
    """Starting cities are chosen in turn order (PH_CITY) unless they were drawn."""
    if st[PAWN] < 0:
        st[PHASE] = PH_CITY
    else:
        start_turn(st, cfg, comp, rng)


@kernel
def populate(st, cfg, comp):
    """Step 1: draw tiles until enough spaces hold tiles; a twin joins its space."""
    while bit_count(st[BOARD]) < cfg[C_POPULATE] and st[N_BAG] > 0:
        st[N_BAG] -= 1
        t = st[BAG + st[N_BAG]]
        s = comp[K_TILE_SPACE + t]
        if st[ON_SPACE + s] == 0:
            st[BOARD] |= 1 << s
        st[ON_SPACE + s] += 1
        st[TILE_LOC + t] = T_BOARD
        st[BOARD_TILES] |= 1 << t


@kernel
def start_turn(st, cfg, comp, rng):
    p = st[CUR]
    populate(st, cfg, comp)
    st[PHASE] = PH_MOVE
    st[STEPS] = 0
    st[SWAPS_LEFT] = cfg[C_SWAPS]
    st[TURN_TIPS] = 0
    st[SHOT] = 0
    for k in range(MAX_PAWNS):
        s = st[PAWN + p * MAX_PAWNS + k]
        st[START + k] = s
        st[VISITED + k] = (1 << s) if s >= 0 else 0
    st[ST_TURNS + p] += 1


# ---------------------------------------------------------------- a space entered


@kernel
def resolve_space(st, cfg, comp):
    """Per space in order: trades (clockwise from the active player), then the photograph."""
    p = st[CUR]
    n = n_players(cfg)
    s = st[PAWN + p * MAX_PAWNS + st[AT_PAWN]]
    k = st[TRADE_NEXT]
    if cfg[C_TRADING] == 1 and st[N_HAND + p] > 0:
        while k < n:
            q = p + k - n if p + k >= n else p + k  # clockwise, without a division
            if pawn_at(st, cfg, q, s) and st[N_HAND + q] > 0:
                st[TRADE_NEXT] = k
                st[PHASE] = PH_TRADE
                return
            k += 1
    st[TRADE_NEXT] = max(k, n)
    if photo_open(st, s):
        for i in range(comp[K_SPACE_AT + s], comp[K_SPACE_AT + s + 1]):
            t = space_tile(comp, i)
            if st[TILE_LOC + t] == T_BOARD and can_afford(st, comp, p, t):
                st[PHASE] = PH_PHOTO
                return
    st[PHASE] = PH_MOVE


@kernel
def trade(st, cfg, rng, u):
    """Give tip u face down, take a random tip from the partner's hand, partner takes u."""
    p = st[CUR]
    q = (p + st[TRADE_NEXT]) % n_players(cfg)
    st[HAND + p * N_TYPES + u] -= 1
    r = randint(rng, 0, st[N_HAND + q])
    v = 0
    while r >= hand(st, q, v):
        r -= hand(st, q, v)
        v += 1
    st[HAND + q * N_TYPES + v] -= 1
    st[HAND + p * N_TYPES + v] += 1
    st[HAND + q * N_TYPES + u] += 1
    st[LAST_TRADE] = v
    st[ST_TRADES + p] += 1
    st[ST_TRADED_WITH + q] += 1


@kernel
def take_photo(st, cfg, comp, p, t):
    """The paid tile joins the portfolio; its quality becomes its scoring value."""
    st[TILE_LOC + t] = T_PORTFOLIO
    st[TILE_OWNER + t] = p
    st[BOARD_TILES] &= ~(1 << t)
    s = comp[K_TILE_SPACE + t]
    st[ON_SPACE + s] -= 1
    if st[ON_SPACE + s] == 0:
        st[BOARD] &= ~(1 << s)
    m = team(cfg, p)
    cre = comp[K_TILE_CRE + t]
    q = comp[K_TILE_Q + t]
    st[QUAL + m * N_CREATURES + cre] += q
    st[NPH + m * N_CREATURES + cre] += 1
    st[TERC + m * N_TERRAINS + comp[K_TILE_TER + t]] += 1
    st[QC + m * N_Q + q - 1] += 1
    st[ST_PHOTOS + p] += 1
    st[ST_QUALITY + p] += q


# ---------------------------------------------------------------- end of turn and game


@kernel
def end_movement(st, cfg, comp, rng):
    """Pawns that ended their movement on a city they entered draw 2 tips each."""
    p = st[CUR]
    for k in range(cfg[C_PAWNS]):
        s = st[PAWN + p * MAX_PAWNS + k]
        if is_city(comp, s) and s != st[START + k]:
            city_tips(st, cfg, rng, cfg[C_END_TIPS])
    if st[N_HAND + p] > cfg[C_HAND_LIMIT]:
        st[PHASE] = PH_DISCARD
    else:
        end_turn(st, cfg, comp, rng)


@kernel
def end_turn(st, cfg, comp, rng):
    n = n_players(cfg)
    nxt = (st[CUR] + 1) % n
    if nxt == 0:
        st[ROUND] += 1
        if st[ROUND] >= cfg[C_ROUNDS]:
            end_game(st, cfg, comp)
            return
    st[CUR] = nxt
    start_turn(st, cfg, comp, rng)


@kernel
def side_score(st, comp, m, a, side):
    """(points, creatures at their minimum): a creature scores its total only at its minimum."""
    pts = 0
    met = 0
    for i in range(SIDE_N):
        cre, need = side_entry(comp, a, side, i)
        have = st[QUAL + m * N_CREATURES + cre]
        if have >= need:
            pts += have
            met += 1
    return pts, met


# job_progress's (cre, ter, q) for the photos taken alone: a numpy scalar, as a plain constant
# would have numba compile job_progress (and job_gain within it) once more for it
NO_PHOTO = np.int64(-1)


@kernel
def job_progress(st, comp, m, j, cre, ter, q):
    """Photos counted toward side job j (its target is its count), with one more photo of
    (cre, ter, q) when cre >= 0."""
    at = comp[K_JOBS_AT] + 3 * j
    kind = comp[at]
    k = comp[at + 1]
    got = 0
    if kind == JOB_EACH_CREATURE:
        for c in range(N_CREATURES):
            got += min(k, st[NPH + m * N_CREATURES + c])
    elif kind == JOB_SAME_CREATURE:
        for c in range(N_CREATURES):
            got = max(got, st[NPH + m * N_CREATURES + c])
    elif kind == JOB_TERRAINS:
        for t in range(N_TERRAINS):
            if st[TERC + m * N_TERRAINS + t] > 0:
                got += 1
    elif kind == JOB_SAME_TERRAIN:
        for t in range(N_TERRAINS):
            got = max(got, st[TERC + m * N_TERRAINS + t])
    else:
        got = st[QC + m * N_Q + N_Q - 1]
    need = job_need(comp, j)
    if cre >= 0:
        return job_gain(st, comp, m, j, got, cre, ter, q), need
    return min(got, need), need


@kernel
def job_need(comp, j):
    """Photos side job j counts to: its count, per creature for `each creature`."""
    at = comp[K_JOBS_AT] + 3 * j
    return comp[at + 1] * (N_CREATURES if comp[at] == JOB_EACH_CREATURE else 1)


@kernel
def job_gain(st, comp, m, j, got, cre, ter, q):
    """Side job j's progress with one more photo of (cre, ter, q), from `got`, its progress
    without it (`job_progress`)."""
    at = comp[K_JOBS_AT] + 3 * j
    kind = comp[at]
    k = comp[at + 1]
    if kind == JOB_EACH_CREATURE:
        return got + (1 if st[NPH + m * N_CREATURES + cre] < k else 0)
    if kind == JOB_SAME_CREATURE:
        return min(k, max(got, st[NPH + m * N_CREATURES + cre] + 1))
    if kind == JOB_TERRAINS:
        return min(k, got + (1 if st[TERC + m * N_TERRAINS + ter] == 0 else 0))
    if kind == JOB_SAME_TERRAIN:
        return min(k, max(got, st[TERC + m * N_TERRAINS + ter] + 1))
    return min(k, got + (1 if q == N_Q else 0))


@kernel(inline="always")
def job_points(comp, j):
    return comp[comp[K_JOBS_AT] + 3 * j + 2]


@kernel
def marked_jobs(st, cfg, comp, m):
    """(bitmask, count, points) of the side jobs team slot m marks: fulfilled ones, the best
    paid first (board order on ties), one marker each while markers last."""
    done = 0
    for j in range(comp[K_N_JOBS]):
        got, need = job_progress(st, comp, m, j, NO_PHOTO, NO_PHOTO, NO_PHOTO)
        if got >= need:
            done |= 1 << j
    mask = 0
    count = 0
    pts = 0
    while count < cfg[C_MARKERS]:
        best = -1
        for j in range(comp[K_N_JOBS]):
            if (done >> j) & 1 and not (mask >> j) & 1 and \
                    (best < 0 or job_points(comp, j) > job_points(comp, best)):
                best = j
        if best < 0:
            break
        mask |= 1 << best
        count += 1
        pts += job_points(comp, best)
    return mask, count, pts


@kernel
def end_game(st, cfg, comp):
    """Scoring: the better tabloid side, side jobs, punctuality bonus; all-or-nothing goal."""
    st[PHASE] = PH_OVER
    n = n_players(cfg)
    aon = cfg[C_ALL_OR_NOTHING] == 1
    city_total = 0
    for p in range(n):
        c = 0
        for k in range(cfg[C_PAWNS]):
            if is_city(comp, st[PAWN + p * MAX_PAWNS + k]):
                c += cfg[C_CITY_BONUS]
        st[S_CITY + p] = c
        city_total += c
    for p in range(n):
        m = team(cfg, p)
        a = st[ASSIGN + p]
        best = -1
        for side in range(2):
            pts, met = side_score(st, comp, m, a, side)
            key = pts + (1000 if (aon and met == SIDE_N) else 0)
            if key > best:
                best = key
                st[SIDE + p] = side
                st[S_ASSIGN + p] = pts
                st[MET + p] = met
        mask, done, jobs = marked_jobs(st, cfg, comp, m)
        st[JOBS_DONE + p] = mask
        st[S_JOBS + p] = jobs
        if cfg[C_COOP] == 1:
            st[S_CITY + p] = city_total
        st[GOAL + p] = 1 if (st[MET + p] == SIDE_N and done >= cfg[C_GOAL_JOBS]) else 0


@kernel
def score(st, p):
    return st[S_ASSIGN + p] + st[S_JOBS + p] + st[S_CITY + p]


@kernel
def total_quality(st, cfg, p):
    m = team(cfg, p)
    t = 0
    for c in range(N_CREATURES):
        t += st[QUAL + m * N_CREATURES + c]
    return t


@njit(cache=True)
def win_shares(st, cfg):
    """Each player's `win_share`."""
    n = n_players(cfg)
    out = np.zeros(n)
    for p in range(n):
        out[p] = win_share(pointer(st), pointer(cfg), p)
    return out


@kernel
def win_share(st, cfg, p):
    """All-or-nothing: the goal. Else highest score; ties: highest total photo quality;
    still tied: the victory is shared. Player p's share."""
    if cfg[C_ALL_OR_NOTHING] == 1:
        return float(st[GOAL + p])
    n = n_players(cfg)
    best_s = -1
    best_q = -1
    for q in range(n):
        s = score(st, q)
        tq = total_quality(st, cfg, q)
        if s > best_s or (s == best_s and tq > best_q):
            best_s, best_q = s, tq
    if score(st, p) != best_s or total_quality(st, cfg, p) != best_q:
        return 0.0
    k = 0
    for q in range(n):
        if score(st, q) == best_s and total_quality(st, cfg, q) == best_q:
            k += 1
    return 1.0 / k


# ---------------------------------------------------------------- applying actions


@kernel
def apply_action(st, cfg, comp, rng, action):
    """Apply one legal action (not checked here: `legal_actions` is the contract)."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    kind = act_kind(action)
    arg = act_arg(action)
    p = st[CUR]
    if kind == A_KEEP:
        st[ASSIGN + p] = st[OFFER + arg]
        place_pawns(st, cfg, comp, rng)
    elif kind == A_CITY:
        st[PAWN + p * MAX_PAWNS + arg_pawn(arg)] = arg_space(arg)
        if unplaced_pawn(st, p) == cfg[C_PAWNS]:
            st[CUR] = (p + 1) % n_players(cfg)
            if st[CUR] == 0:
                start_turn(st, cfg, comp, rng)
    elif kind == A_MOVE:
        k = arg_pawn(arg)
        s = arg_space(arg)
        at = PAWN + p * MAX_PAWNS + k
        if is_city(comp, st[at]) and st[at] != st[START + k]:  # passing through a city
            city_tips(st, cfg, rng, cfg[C_PASS_TIPS])
        st[at] = s
        st[VISITED + k] |= 1 << s
        st[STEPS] += 1
        st[ST_STEPS + p] += 1
        st[AT_PAWN] = k
        st[TRADE_NEXT] = 1
        resolve_space(st, cfg, comp)
    elif kind == A_STOP:
        end_movement(st, cfg, comp, rng)
    elif kind == A_SWAP:
        discard_tip(st, p, arg)
        draw_tip(st, rng, p)
        st[SWAPS_LEFT] -= 1
        st[ST_SWAPS + p] += 1
    elif kind == A_TRADE:
        trade(st, cfg, rng, arg)
        st[TRADE_NEXT] += 1
        resolve_space(st, cfg, comp)
    elif kind == A_NO_TRADE:
        st[TRADE_NEXT] += 1
        resolve_space(st, cfg, comp)
    elif kind == A_PHOTO:
        st[PHOTO_TILE] = arg
        st[PAY_LEFT] = comp[K_TILE_Q + arg]
        st[PHASE] = PH_PAY
    elif kind == A_SKIP:
        st[PHASE] = PH_MOVE
    elif kind == A_PAY:
        discard_tip(st, p, arg)
        st[ST_PAID + p] += 1
        st[PAY_LEFT] -= 1
        if st[PAY_LEFT] == 0:
            take_photo(st, cfg, comp, p, st[PHOTO_TILE])
            st[SHOT] |= 1 << comp[K_TILE_SPACE + st[PHOTO_TILE]]  # one tile per space
            st[PHOTO_TILE] = -1
            st[PHASE] = PH_MOVE
    elif kind == A_DISCARD:
        discard_tip(st, p, arg)
        st[ST_DISCARDED + p] += 1
        if st[N_HAND + p] <= cfg[C_HAND_LIMIT]:
            end_turn(st, cfg, comp, rng)


@kernel
def step(st, cfg, comp, rng, action, buf):
    """Apply `action`, then every forced move; returns the legal count now (0 when over)."""
    apply_action(st, cfg, comp, rng, action)
    return settle(st, cfg, comp, rng, buf)


@kernel
def settle(st, cfg, comp, rng, buf):
    """Play forced moves until a real decision (or the end); returns its legal-action count."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    buf = pointer(buf)
    while st[PHASE] != PH_OVER:
        n = legal_actions(st, cfg, comp, buf)
        if n != 1:
            return n
        apply_action(st, cfg, comp, rng, buf[0])
    return 0


@kernel(inline="always")
def decider(st):
    return st[CUR]
