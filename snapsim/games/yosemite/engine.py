"""The Yosemite rules, once, as numba functions over plain arrays.

A game is an int64 state vector `st` (layout below), two splitmix64 streams in `rng`
(chance: shuffles; policy: the policies' own random choices) and read-only inputs: the config
vector `cfg` and the flat int64 component vector `comp`. The kernels take these as
`sim.kernel.pointer`s (no reference counting); `legal_actions`, `apply_action` and `settle`,
called from Python and array code, make the pointers themselves. Every decision the rulebook
gives a player is one small action (a start square, one fish step, an explore choice, a push,
a photo, its payment, a discard); `legal_actions` lists them and `step` applies one and then
every forced move, so the batch kernel and the step API run exactly the same code.

A camera payment is chosen animal by animal in component order (fox, sheep, bear, rattlesnake,
cougar): action `act(A_PAY, c)` discards c tiles of the animal `PAY_ANIMAL` names, and only
counts that still leave a complete payment are legal, so each distinct set of discarded tiles
(matching tiles and wild pairs, two of one animal standing in for any animal) is exactly one
sequence of choices.

The action buffer has `BUF_SIZE` entries: the legal actions at the front, then the policies'
working space, so neither listing moves nor asking a policy ever
writes to the state or allocates.

The park is 5x5, square = row * 5 + column. Tiles 0..44 are the animal tiles (component
order), tile 45 + l is landmark l's tile. The camping token sits at CAMP = +k on player 0's
space k, -k on player 1's space k, 0 off the track.
"""

import numpy as np
from numba import njit

from ...sim.kernel import Layout, kernel, pointer, randint, shifted, shuffle

SIZE = 5
N_SQ = SIZE * SIZE
N_TILES = 45
N_LM = 5
N_ALL_TILES = N_TILES + N_LM
N_ANIMALS = 5
N_PHOTOS = 20
MAX_SLOTS = 4
MAX_CHART = 16
MAX_TRACK = 10
FOX, SHEEP, BEAR, SNAKE, COUGAR = range(5)
B_NONE, B_FISH, B_TENT, B_CAMERA = range(4)
N_BONUS = 4
DR = (-1, 1, 0, 0)  # directions: up, down, left, right
DC = (0, 0, -1, 1)

# ---------------------------------------------------------------- config vector
C_DEALT = 0
C_PHOTOS_REMOVED = 1
C_JUDGES = 2
C_HAND_LIMIT = 3
C_START_FISH = 4
C_SLOTS = 5
C_MAX_TURNS = 6
C_WILDS = 7
C_START_FISH_SECOND = 8  # the second player's starting fish (C_START_FISH: the first's)
CFG_SIZE = 9

# ---------------------------------------------------------------- component vector
K_MAX_FISH = 0
K_TENTS = 1
K_CHART_LEN = 2
K_TRACK_LEN = 3
K_TILE_ANIMAL = 8  # [50], landmark tiles -1
K_TILE_BONUS = K_TILE_ANIMAL + N_ALL_TILES  # [50], landmark tiles -1
K_NEED = K_TILE_BONUS + N_ALL_TILES  # [20 * 5] animals each photo needs
K_POINTS = K_NEED + N_PHOTOS * N_ANIMALS
K_PHOTO_LM = K_POINTS + N_PHOTOS
K_JUDGE = K_PHOTO_LM + N_PHOTOS  # [5] judge points by animal
K_CHART = K_JUDGE + N_ANIMALS  # [16] landmark chart, padded with its last value
K_TRACK = K_CHART + MAX_CHART  # [10] camping points at spaces 1..
K_BY_ANIMAL = K_TRACK + MAX_TRACK  # [45] the animal tiles by animal, each animal's in tile order
K_ANIMAL_START = K_BY_ANIMAL + N_TILES  # [6] where each animal's tiles start in K_BY_ANIMAL
# [50] each tile's kind, all a tile's collector gets from it: animal * N_BONUS + bonus for an
# animal tile, N_ANIMALS * N_BONUS + landmark for a landmark tile (one lookup for the policies)
K_TILE_KIND = K_ANIMAL_START + N_ANIMALS + 1
COMP_SIZE = K_TILE_KIND + N_ALL_TILES


def component_vector(a):
    """Pack `components.component_arrays` output into the flat vector the kernels read."""
    comp = np.zeros(COMP_SIZE, np.int64)
    comp[K_MAX_FISH] = a["max_fish"]
    comp[K_TENTS] = a["tent_tokens"]
    chart, track = a["landmark_chart"][:MAX_CHART], a["camping_track"]
    comp[K_CHART_LEN] = len(chart)
    comp[K_TRACK_LEN] = len(track)
    comp[K_TILE_ANIMAL:K_TILE_ANIMAL + N_ALL_TILES] = -1
    comp[K_TILE_ANIMAL:K_TILE_ANIMAL + N_TILES] = a["tile_animal"]
    comp[K_TILE_BONUS:K_TILE_BONUS + N_ALL_TILES] = -1
    comp[K_TILE_BONUS:K_TILE_BONUS + N_TILES] = a["tile_bonus"]
    comp[K_NEED:K_POINTS] = a["photo_need"].ravel()
    comp[K_POINTS:K_PHOTO_LM] = a["photo_points"]
    comp[K_PHOTO_LM:K_JUDGE] = a["photo_landmark"]
    comp[K_JUDGE:K_CHART] = a["judge_points"]
    comp[K_CHART:K_TRACK] = chart[-1]
    comp[K_CHART:K_CHART + len(chart)] = chart
    comp[K_TRACK:K_TRACK + len(track)] = track
    comp[K_BY_ANIMAL:K_ANIMAL_START] = np.argsort(a["tile_animal"], kind="stable")
    comp[K_ANIMAL_START:K_TILE_KIND] = np.searchsorted(np.sort(a["tile_animal"]),
                                                       np.arange(N_ANIMALS + 1))
    comp[K_TILE_KIND:K_TILE_KIND + N_TILES] = a["tile_animal"] * N_BONUS + a["tile_bonus"]
    comp[K_TILE_KIND + N_TILES:COMP_SIZE] = N_ANIMALS * N_BONUS + np.arange(N_LM)
    return comp


@kernel
def need(comp, ph, a):
    return comp[K_NEED + ph * N_ANIMALS + a]


@kernel
def chart_value(comp, matches):
    return comp[K_CHART + min(matches, MAX_CHART - 1)]


# ---------------------------------------------------------------- phases and actions
PH_PLACE = 0  # set-up: choose a start square
PH_FISH = 1
PH_EXPLORE = 2
PH_PUSH = 3  # the mover moves the opponent (bear, rattlesnake, cougar)
PH_CAMERA = 4
PH_PAY = 5  # the photo's payment, one animal at a time
PH_DISCARD = 6
PH_OVER = 7

A_START = 0  # arg square
A_EAT = 1  # arg direction: eat one fish, one step
A_STOP_EATING = 2
A_STEP = 3  # arg direction: Explore A
A_ANIMAL = 4  # arg destination square: Explore B
A_LANDMARK = 5  # Explore C
A_PUSH = 6  # arg the opponent's new square
A_NO_PUSH = 7
A_PHOTO = 8  # arg photo slot
A_NO_PHOTO = 9
A_DISCARD = 10  # arg animal
A_PAY = 11  # arg how many tiles of PAY_ANIMAL go to the discard pile
N_KINDS = 12
ACTION_SPAN = 64  # an action is kind * ACTION_SPAN + arg
MAX_LEGAL = 64
# the policies' working space, the buffer's tail: per thread, preallocated, and never part of
# the game state, so asking a policy for a move allocates nothing and changes nothing
POLICY_SCRATCH = 3 * MAX_LEGAL
# legal actions, then the policies' working space; read by offset (a view of an array costs
# reference counting)
POLICY_AT = MAX_LEGAL
BUF_SIZE = POLICY_AT + POLICY_SCRATCH


@kernel(inline="always")
def act(kind, arg=0):
    """The action code of `kind` with its argument (square, direction, slot, animal, count)."""
    return kind * ACTION_SPAN + arg


@kernel(inline="always")
def act_kind(action):
    return action // ACTION_SPAN


@kernel(inline="always")
def act_arg(action):
    return action % ACTION_SPAN


# ---------------------------------------------------------------- locations
L_DECK = 0
L_PARK = 1
L_HAND = 2
L_DISCARD = 3
P_BOX = 0  # photos removed at set-up
P_DECK = 1
P_SLOT = 2
P_TAKEN = 3

# ---------------------------------------------------------------- state layout
_layout = Layout()
_field = _layout.field

PHASE = _field("PHASE")
CUR = _field("CUR")
FIRST = _field("FIRST")
TURN = _field("TURN")  # turns completed
TRUNCATED = _field("TRUNCATED")
CAMP = _field("CAMP")
TENT_SUPPLY = _field("TENT_SUPPLY")
N_DECK = _field("N_DECK")
N_PHOTO_DECK = _field("N_PHOTO_DECK")
FROM = _field("FROM")  # square left by Explore B this turn (-1: none)
MOVED = _field("MOVED")  # animal whose movement was used this turn (-1: none)
# 1: the turn began on a landmark tile without its token, so eating must end on an animal tile
LM_START = _field("LM_START")
EATEN = _field("EATEN")  # fish eaten this turn
PUSH_MIN = _field("PUSH_MIN")
PUSH_MAX = _field("PUSH_MAX")
PAY_SLOT = _field("PAY_SLOT")  # the photo being paid for
PAY_ANIMAL = _field("PAY_ANIMAL")  # the animal whose tiles are chosen next
PAY_LO = _field("PAY_LO")  # needs the tiles paid so far cover at least ...
PAY_HI = _field("PAY_HI")  # ... and at most
PARK = _field("PARK", N_SQ)  # tile on each square
POS = _field("POS", 2)  # pawn squares (-1: not placed)
FISH = _field("FISH", 2)
TENTS = _field("TENTS", 2)
HAND = _field("HAND", 2 * N_ANIMALS)  # tiles in hand by animal
# of those, the tiles that had been face up (taken from the park): what the opponent knows
SEEN_HAND = _field("SEEN_HAND", 2 * N_ANIMALS)
TILE_LOC = _field("TILE_LOC", N_ALL_TILES)
TILE_OWNER = _field("TILE_OWNER", N_ALL_TILES)
SEEN = _field("SEEN", N_ALL_TILES)  # 1 once the tile has been face up (park, discards)
DECK = _field("DECK", N_ALL_TILES)
LM_TOKEN_ON = _field("LM_TOKEN_ON", N_LM)  # 1: the token lies on its tile in the park
LM_OWNER = _field("LM_OWNER", N_LM)
PHOTO_LOC = _field("PHOTO_LOC", N_PHOTOS)
PHOTO_OWNER = _field("PHOTO_OWNER", N_PHOTOS)
PHOTO_DECK = _field("PHOTO_DECK", N_PHOTOS)
SLOT = _field("SLOT", MAX_SLOTS)  # face-up photo in each slot (-1: empty)
JUDGE_IN = _field("JUDGE_IN", N_ANIMALS)
# per player: photos and their animals and landmarks, scores
PHOTOS = _field("PHOTOS", 2)
PHOTO_ANIMALS = _field("PHOTO_ANIMALS", 2 * N_ANIMALS)
LM_MATCH = _field("LM_MATCH", 2 * N_LM)
S_PHOTOS = _field("S_PHOTOS", 2)
S_CAMPING = _field("S_CAMPING", 2)
S_JUDGES = _field("S_JUDGES", 2)
S_LANDMARKS = _field("S_LANDMARKS", 2)
LM_POINTS = _field("LM_POINTS", N_LM)  # what each landmark token scored its owner
JUDGE_WINNER = _field("JUDGE_WINNER", N_ANIMALS)  # -1: tie or not in play
# per-player statistics
ST_TURNS = _field("ST_TURNS", 2)
ST_USE = _field("ST_USE", 2 * N_ANIMALS)  # movements used, by animal
ST_USE_POINTS = _field("ST_USE_POINTS", 2 * N_ANIMALS)  # photo points taken on those turns
ST_BONUS = _field("ST_BONUS", 2 * 4)  # tiles collected, by bonus icon
ST_FISH_EATEN = _field("ST_FISH_EATEN", 2)
ST_EXPLORE_A = _field("ST_EXPLORE_A", 2)
ST_EXPLORE_C = _field("ST_EXPLORE_C", 2)
ST_PUSHES = _field("ST_PUSHES", 2)
ST_DISCARDS = _field("ST_DISCARDS", 2)
STATE_SIZE = _layout.size


# ---------------------------------------------------------------- the park


def _neighbours():
    out = np.full((N_SQ, 4), -1, np.int64)
    for sq in range(N_SQ):
        for d in range(4):
            r, c = sq // SIZE + DR[d], sq % SIZE + DC[d]
            if 0 <= r < SIZE and 0 <= c < SIZE:
                out[sq, d] = r * SIZE + c
    return out


NEIGHBOURS = _neighbours()  # the square one step from each square in each direction, -1 off


def _within():
    """Per reach 0..3 (a fox's, a rattlesnake's, a push's) and square: the squares at most that
    many steps away (ignoring the opponent), in square order, then -1."""
    out = np.full((4, N_SQ, N_SQ), -1, np.int64)
    for reach in range(4):
        for a in range(N_SQ):
            near = [b for b in range(N_SQ)
                    if abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) <= reach]
            out[reach, a, :len(near)] = near
    return out


def _rings():
    """Per square a: every square by its steps from a (ignoring the opponent), nearest first,
    and where each distance 0..MAX_REACH + 1 begins in that order."""
    order = np.empty((N_SQ, N_SQ), np.int64)
    start = np.empty((N_SQ, MAX_REACH + 2), np.int64)
    for a in range(N_SQ):
        far = [abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(N_SQ)]
        order[a] = sorted(range(N_SQ), key=lambda b: (far[b], b))
        start[a] = [sum(f < d for f in far) for d in range(MAX_REACH + 2)]
    return order, start


MAX_REACH = 2 * (SIZE - 1)  # corner to corner: every square
WITHIN = _within()
BY_STEPS, RING = _rings()


@kernel(inline="always")
def neighbour(sq, d):
    """The square one step from sq in direction d, -1 off the park."""
    return NEIGHBOURS[sq, d]


@kernel(inline="always")
def manhattan(a, b):
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@kernel(inline="always")
def steps(a, b, block):
    """Orthogonal steps from a to b (neither of them `block`) never entering `block`: the
    Manhattan distance, unless a and b share a row or column with `block` between them, when
    the way round through the next row or column takes two more. (Off a straight line two
    shortest ways share no square, so one square blocks at most one of them.)"""
    ra, ca, rb, cb = a // SIZE, a % SIZE, b // SIZE, b % SIZE
    rk, ck = block // SIZE, block % SIZE
    # (no branches: whether the opponent stands between is hard to foresee)
    row = (ra == rb) & (rb == rk) & (min(ca, cb) < ck) & (ck < max(ca, cb))
    col = (ca == cb) & (cb == ck) & (min(ra, rb) < rk) & (rk < max(ra, rb))
    return abs(ra - rb) + abs(ca - cb) + 2 * ((block >= 0) & (row | col))


def action_buffer():
    """A buffer for `legal_actions`, `step` and the policies (legal actions, then their
    working space)."""
    return np.empty(BUF_SIZE, np.int64)


@kernel
def tile_animal(st, comp, sq):
    """Animal of the tile on sq (-1 on a landmark tile)."""
    return comp[K_TILE_ANIMAL + st[PARK + sq]]


@kernel
def tile_landmark(st, sq):
    t = st[PARK + sq]
    return t - N_TILES if t >= N_TILES else -1


@kernel
def animal_dests(frm, opp, animal, buf, at, n):
    """Append A_ANIMAL actions for every end square of `animal`'s movement from frm to the n
    actions at buf[at:]; return how many there are.

    Fox 1-3 and rattlesnake 1-2 steps in any directions, sheep any distance in one direction,
    bear exactly 2 in one direction, cougar to the edge; only the rattlesnake may end on the
    opponent and only the cougar may pass through them. A fox or rattlesnake may end on frm
    itself, one step out and back (two spaces moved; the opponent can block at most one of
    frm's two or more neighbours, so that is always possible).
    """
    if animal in (FOX, SNAKE):
        reach = 3 if animal == FOX else 2
        gap = manhattan(frm, opp)
        # the squares within reach on the park (in square order), those the opponent leaves
        # within reach kept: each written, then counted if kept, as which are is hard to
        # foresee
        for i in range(N_SQ):
            s = WITHIN[reach, frm, i]
            if s < 0:
                break
            buf[at + n] = act(A_ANIMAL, s)
            n += (s != opp) & (steps(frm, s, opp) <= reach)
        if animal == SNAKE and gap in (1, 2):
            buf[at + n] = act(A_ANIMAL, opp)
            n += 1
        return n
    for d in range(4):
        s = neighbour(frm, d)
        if animal == SHEEP:
            while s >= 0 and s != opp:
                buf[at + n] = act(A_ANIMAL, s)
                n += 1
                s = neighbour(s, d)
        elif animal == BEAR:
            if s >= 0 and s != opp:
                s2 = neighbour(s, d)
                if s2 >= 0 and s2 != opp:
                    buf[at + n] = act(A_ANIMAL, s2)
                    n += 1
        elif s >= 0:  # cougar
            while neighbour(s, d) >= 0:
                s = neighbour(s, d)
            buf[at + n] = act(A_ANIMAL, s)
            n += 1
    return n


# ---------------------------------------------------------------- small queries


@kernel
def hand_size(st, p):
    t = 0
    for a in range(N_ANIMALS):
        t += st[HAND + p * N_ANIMALS + a]
    return t


@kernel
def photo_size(comp, ph):
    k = 0
    for a in range(N_ANIMALS):
        k += need(comp, ph, a)
    return k


@kernel
def cover_span(cfg, comp, ph, a, d):
    """Camera: how many of the photo's animals d discarded tiles of animal a can stand for,
    (least, most); least > most when no split works. Each tile matching a needed a stands for
    one animal, each pair of the same animal (a wild, if allowed) for any one."""
    k = need(comp, ph, a)
    if cfg[C_WILDS] == 0:
        return (d, d) if d <= k else (1, 0)
    if d % 2 == 1 and k == 0:  # an odd tile out can only be a matching one
        return 1, 0
    m = min(k, d)
    if (d - m) % 2 == 1:
        m -= 1
    return (d + d % 2) // 2, (d + m) // 2


@kernel
def cover_max(st, cfg, comp, p, ph, a):
    """The most of the photo's animals p's tiles of animal a can stand for."""
    h = st[HAND + p * N_ANIMALS + a]
    m = min(h, need(comp, ph, a))
    return m + (h - m) // 2 if cfg[C_WILDS] == 1 else m


@kernel
def pay_allows(st, cfg, comp, p, c):
    """Whether discarding c tiles of PAY_ANIMAL still leaves a complete payment: the tiles
    paid so far and these stand for few enough of the photo's animals, and the animals still to
    come can stand for the rest."""
    ph = st[SLOT + st[PAY_SLOT]]
    j = st[PAY_ANIMAL]
    lo, hi = cover_span(cfg, comp, ph, j, c)
    if lo > hi:
        return False
    rest = 0
    for a in range(j + 1, N_ANIMALS):
        rest += cover_max(st, cfg, comp, p, ph, a)
    k = photo_size(comp, ph)
    return st[PAY_LO] + lo <= k <= st[PAY_HI] + hi + rest


@kernel
def can_take(st, cfg, comp, p, ph):
    """Camera: p's tiles can pay for the photo (matching tiles, and pairs as wilds)."""
    total = 0
    for a in range(N_ANIMALS):
        total += cover_max(st, cfg, comp, p, ph, a)
    return total >= photo_size(comp, ph)


@kernel
def can_photo(st, cfg, comp, p, s):
    """Camera: whether p may take the photo in slot s."""
    return st[SLOT + s] >= 0 and can_take(st, cfg, comp, p, st[SLOT + s])


@kernel
def any_photo(st, cfg, comp, p):
    for s in range(cfg[C_SLOTS]):
        if can_photo(st, cfg, comp, p, s):
            return True
    return False


@kernel
def can_pay(st, cfg, comp, p, c):
    """Payment: whether p may discard c tiles of PAY_ANIMAL."""
    return 0 <= c <= st[HAND + p * N_ANIMALS + st[PAY_ANIMAL]] and pay_allows(st, cfg, comp, p, c)


@kernel
def can_enter(st, p, sq):
    """Whether p's pawn may step onto sq (on the park, not the opponent's square)."""
    return sq >= 0 and sq != st[POS + 1 - p]


@kernel
def may_stop_eating(st, comp, sq, eaten):
    """Whether eating may end on sq with `eaten` fish eaten this turn: anywhere, unless the
    turn began on an empty landmark tile (YO-EXC-2); then only on an animal tile, or with no
    fish eaten (Explore A follows)."""
    return st[LM_START] == 0 or eaten == 0 or tile_animal(st, comp, sq) >= 0


@kernel
def may_eat_to(st, comp, p, sq):
    """Whether p may eat one fish to step onto sq: p may enter it and, after a turn begun on
    an empty landmark tile, an animal tile is still within the fish left (YO-EXC-2)."""
    if not can_enter(st, p, sq):
        return False
    if st[LM_START] == 0:
        return True
    opp = st[POS + 1 - p]
    for s in range(N_SQ):
        if s != opp and steps(sq, s, opp) <= st[FISH + p] - 1 and tile_animal(st, comp, s) >= 0:
            return True
    return False


@kernel
def decider(st):
    return st[CUR]


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
    pos = st[POS + p]
    opp = st[POS + 1 - p]
    if ph == PH_PLACE:
        for s in range(N_SQ):
            if s != opp and tile_animal(st, comp, s) >= 0:
                out[n] = act(A_START, s)
                n += 1
    elif ph == PH_FISH:
        for d in range(4):
            if may_eat_to(st, comp, p, neighbour(pos, d)):
                out[n] = act(A_EAT, d)
                n += 1
        if may_stop_eating(st, comp, pos, st[EATEN]):
            out[n] = act(A_STOP_EATING)
            n += 1
    elif ph == PH_EXPLORE:
        for d in range(4):
            if can_enter(st, p, neighbour(pos, d)):
                out[n] = act(A_STEP, d)
                n += 1
        a = tile_animal(st, comp, pos)
        if a >= 0:
            n = animal_dests(pos, opp, a, out, 0, n)
        else:
            lm = tile_landmark(st, pos)
            if st[LM_TOKEN_ON + lm] == 1:
                out[n] = act(A_LANDMARK)
                n += 1
    elif ph == PH_PUSH:
        near = WITHIN[st[PUSH_MAX], opp]
        for i in range(N_SQ):
            s = near[i]
            if s < 0:
                break
            if s != pos and s != opp and steps(opp, s, pos) <= st[PUSH_MAX]:
                out[n] = act(A_PUSH, s)
                n += 1
        if st[PUSH_MIN] == 0:
            out[n] = act(A_NO_PUSH)
            n += 1
    elif ph == PH_CAMERA:
        for s in range(cfg[C_SLOTS]):
            if can_photo(st, cfg, comp, p, s):
                out[n] = act(A_PHOTO, s)
                n += 1
        out[n] = act(A_NO_PHOTO)
        n += 1
    elif ph == PH_PAY:
        for c in range(st[HAND + p * N_ANIMALS + st[PAY_ANIMAL]] + 1):
            if pay_allows(st, cfg, comp, p, c):
                out[n] = act(A_PAY, c)
                n += 1
    elif ph == PH_DISCARD:
        for a in range(N_ANIMALS):
            if st[HAND + p * N_ANIMALS + a] > 0:
                out[n] = act(A_DISCARD, a)
                n += 1
    return n


# ---------------------------------------------------------------- set-up


@njit(cache=True)
def new_game(cfg, comp, rng):
    """Set-up steps 1-13: deal, lay the park, build the deck, photos and judges, pick a first
    player; the start squares are then chosen as actions (step 13-14)."""
    st = np.empty(STATE_SIZE, np.int64)
    start_game(st, cfg, comp, rng, np.empty(N_TILES, np.int64))
    return st


@kernel
def start_game(st, cfg, comp, rng, order):
    """`new_game` into the caller's state vector st (a batch reuses one from game to game);
    `order`: work space of N_TILES integers for the shuffles."""
    for i in range(STATE_SIZE):
        st[i] = 0
    tiles = order
    for t in range(N_TILES):
        tiles[t] = t
    shuffle(rng, tiles, N_TILES)
    k = 0
    for _ in range(cfg[C_DEALT]):
        for p in range(2):
            give_tile(st, comp, tiles[k], p)
            k += 1
    for s in range(N_SQ):
        st[PARK + s] = tiles[k]
        st[TILE_LOC + tiles[k]] = L_PARK
        st[SEEN + tiles[k]] = 1
        k += 1
    n = 0
    for i in range(k, N_TILES):
        st[DECK + n] = tiles[i]
        n += 1
    for lm in range(N_LM):
        st[DECK + n] = N_TILES + lm
        n += 1
        st[LM_OWNER + lm] = -1
    shuffle(rng, shifted(st, DECK), n)
    st[N_DECK] = n
    photos = order  # (the tiles are dealt)
    for i in range(N_PHOTOS):
        photos[i] = i
    shuffle(rng, photos, N_PHOTOS)
    removed = cfg[C_PHOTOS_REMOVED]
    for i in range(N_PHOTOS):
        st[PHOTO_OWNER + i] = -1
    for i in range(removed, N_PHOTOS):  # the first `removed` stay in the box, unseen
        st[PHOTO_DECK + i - removed] = photos[i]
        st[PHOTO_LOC + photos[i]] = P_DECK
    st[N_PHOTO_DECK] = N_PHOTOS - removed
    for s in range(MAX_SLOTS):
        st[SLOT + s] = -1
    for s in range(cfg[C_SLOTS]):
        draw_photo(st, s)
    judges = order
    for i in range(N_ANIMALS):
        judges[i] = i
    shuffle(rng, judges, N_ANIMALS)
    for i in range(cfg[C_JUDGES]):
        st[JUDGE_IN + judges[i]] = 1
    st[TENT_SUPPLY] = comp[K_TENTS]
    st[FROM] = -1
    st[MOVED] = -1
    st[FIRST] = randint(rng, 0, 2)
    st[CUR] = st[FIRST]
    for p in range(2):
        st[FISH + p] = cfg[C_START_FISH] if p == st[FIRST] else cfg[C_START_FISH_SECOND]
        st[POS + p] = -1
    st[PHASE] = PH_PLACE


@kernel
def give_tile(st, comp, t, p):
    st[TILE_LOC + t] = L_HAND
    st[TILE_OWNER + t] = p
    a = comp[K_TILE_ANIMAL + t]
    st[HAND + p * N_ANIMALS + a] += 1
    st[SEEN_HAND + p * N_ANIMALS + a] += st[SEEN + t]


@kernel
def draw_photo(st, slot):
    st[N_PHOTO_DECK] -= 1
    ph = st[PHOTO_DECK + st[N_PHOTO_DECK]]
    st[PHOTO_LOC + ph] = P_SLOT
    st[SLOT + slot] = ph


@kernel
def start_turn(st):
    st[FROM] = -1
    st[MOVED] = -1
    st[EATEN] = 0
    lm = tile_landmark(st, st[POS + st[CUR]])
    st[LM_START] = 1 if lm >= 0 and st[LM_TOKEN_ON + lm] == 0 else 0
    st[PHASE] = PH_FISH if st[FISH + st[CUR]] > 0 else PH_EXPLORE


# ---------------------------------------------------------------- explore and bonuses


@kernel
def add_fish(st, comp, p):
    st[FISH + p] = min(st[FISH + p] + 1, comp[K_MAX_FISH])


@kernel
def tent(st, comp, p):
    """First tent: the token to the collector's 1; later: one space toward the collector;
    already on the collector's last space: a tent token from the pile (none left: nothing)."""
    sign = 1 if p == 0 else -1
    mine = st[CAMP] * sign
    if st[CAMP] == 0:
        mine = 1
    elif mine == comp[K_TRACK_LEN]:
        if st[TENT_SUPPLY] > 0:
            st[TENT_SUPPLY] -= 1
            st[TENTS + p] += 1
    elif mine == -1:
        mine = 1
    else:
        mine += 1
    st[CAMP] = mine * sign


@kernel
def passes(frm, dest, sq):
    """Whether a straight move frm -> dest crosses or ends on sq."""
    if frm // SIZE == dest // SIZE:
        d = 3 if dest > frm else 2
    else:
        d = 1 if dest > frm else 0
    s = frm
    while s != dest:
        s = neighbour(s, d)
        if s == sq:
            return True
    return False


# what follows an action's own effect: `apply_action` plays each step in turn, from one call
# site each, so the steps are compiled into it (no call per step, each passing its arrays)
THEN_NOTHING = 0
THEN_COLLECT = 1
THEN_RESET = 2
THEN_REFILL = 3


@kernel
def animal_move(st, comp, dest):
    """Explore B: move by the animal's ability; bear, rattlesnake and cougar may then move the
    opponent (a decision) before the tile is collected. Returns what follows."""
    p = st[CUR]
    frm = st[POS + p]
    opp = st[POS + 1 - p]
    a = tile_animal(st, comp, frm)
    st[FROM] = frm
    st[MOVED] = a
    st[POS + p] = dest
    lo, hi = 0, 0
    if a == BEAR:
        hi = 1
    elif a == SNAKE and dest == opp:
        lo, hi = 1, 1
    elif a == COUGAR and passes(frm, dest, opp):
        lo, hi = (1 if dest == opp else 0), 2
    st[PUSH_MIN] = lo
    st[PUSH_MAX] = hi
    if hi > 0:
        st[PHASE] = PH_PUSH
        return THEN_NOTHING
    return THEN_COLLECT


@kernel
def collect(st, cfg, comp):
    """Explore B, second and third: the tile left goes to the hand, then its bonus; returns
    what follows (the camera's decision, else the reset)."""
    p = st[CUR]
    sq = st[FROM]
    t = st[PARK + sq]
    st[PARK + sq] = -1
    give_tile(st, comp, t, p)
    a = comp[K_TILE_ANIMAL + t]
    st[ST_USE + p * N_ANIMALS + a] += 1
    b = comp[K_TILE_BONUS + t]
    st[ST_BONUS + p * 4 + b] += 1
    if b == B_FISH:
        add_fish(st, comp, p)
    elif b == B_TENT:
        tent(st, comp, p)
    elif b == B_CAMERA and any_photo(st, cfg, comp, p):
        st[PHASE] = PH_CAMERA
        return THEN_NOTHING
    return THEN_RESET


@kernel
def discard_tile(st, comp, p, a):
    """One of p's tiles of animal a to the discard pile, face up: a tile the opponent has
    already seen if p holds one (tiles of one animal differ only in what they reveal)."""
    pick = -1  # the first seen one, else the first
    for i in range(comp[K_ANIMAL_START + a], comp[K_ANIMAL_START + a + 1]):
        t = comp[K_BY_ANIMAL + i]
        if st[TILE_LOC + t] == L_HAND and st[TILE_OWNER + t] == p and \
                (pick < 0 or st[SEEN + t] > st[SEEN + pick]):
            pick = t
            if st[SEEN + t]:
                break
    st[TILE_LOC + pick] = L_DISCARD
    st[TILE_OWNER + pick] = -1
    st[SEEN_HAND + p * N_ANIMALS + a] -= st[SEEN + pick]
    st[SEEN + pick] = 1
    st[HAND + p * N_ANIMALS + a] -= 1


@kernel
def pay(st, cfg, comp, c):
    """Discard c tiles of the animal being paid; after the last animal, take the photo (and
    the reset follows). Returns what follows."""
    p = st[CUR]
    a = st[PAY_ANIMAL]
    lo, hi = cover_span(cfg, comp, st[SLOT + st[PAY_SLOT]], a, c)
    st[PAY_LO] += lo
    st[PAY_HI] += hi
    for _ in range(c):
        discard_tile(st, comp, p, a)
    st[PAY_ANIMAL] = a + 1
    if a + 1 == N_ANIMALS:
        take_photo(st, comp, st[PAY_SLOT])
        return THEN_RESET
    return THEN_NOTHING


@kernel
def take_photo(st, comp, slot):
    """Camera, once paid: the photo goes face up in front of the player."""
    p = st[CUR]
    ph = st[SLOT + slot]
    st[SLOT + slot] = -1
    st[PHOTO_LOC + ph] = P_TAKEN
    st[PHOTO_OWNER + ph] = p
    st[PHOTOS + p] += 1
    pts = comp[K_POINTS + ph]
    st[S_PHOTOS + p] += pts
    for a in range(N_ANIMALS):
        st[PHOTO_ANIMALS + p * N_ANIMALS + a] += need(comp, ph, a)
    st[LM_MATCH + p * N_LM + comp[K_PHOTO_LM + ph]] += 1
    st[ST_USE_POINTS + p * N_ANIMALS + st[MOVED]] += pts


# ---------------------------------------------------------------- reset


@kernel
def draw_tile(st, rng):
    """Top tile of the deck; an empty deck is first rebuilt by shuffling the discards."""
    if st[N_DECK] == 0:
        n = 0
        for t in range(N_TILES):
            if st[TILE_LOC + t] == L_DISCARD:
                st[DECK + n] = t
                st[TILE_LOC + t] = L_DECK
                n += 1
        shuffle(rng, shifted(st, DECK), n)
        st[N_DECK] = n
    st[N_DECK] -= 1
    return st[DECK + st[N_DECK]]


@kernel
def reset(st, cfg, rng):
    """Reset: refill the vacated space (a landmark tile brings its token), then discard down
    to the hand limit (a decision), then refill the photos; returns what follows."""
    sq = st[FROM]
    if sq >= 0 and st[PARK + sq] < 0:
        t = draw_tile(st, rng)
        st[PARK + sq] = t
        st[TILE_LOC + t] = L_PARK
        st[SEEN + t] = 1
        if t >= N_TILES:
            st[LM_TOKEN_ON + t - N_TILES] = 1
    if hand_size(st, st[CUR]) > cfg[C_HAND_LIMIT]:
        st[PHASE] = PH_DISCARD
        return THEN_NOTHING
    return THEN_REFILL


@kernel
def refill_photos(st, cfg, comp):
    """Refill taken photos; the game ends at once when the photo deck cannot refill one."""
    for s in range(cfg[C_SLOTS]):
        if st[SLOT + s] < 0:
            if st[N_PHOTO_DECK] == 0:
                end_game(st, cfg, comp)
                return
            draw_photo(st, s)
    p = st[CUR]
    st[ST_TURNS + p] += 1
    st[TURN] += 1
    if st[TURN] >= cfg[C_MAX_TURNS]:
        st[TRUNCATED] = 1
        end_game(st, cfg, comp)
        return
    st[CUR] = 1 - p
    start_turn(st)


# ---------------------------------------------------------------- end and scoring


@kernel
def end_game(st, cfg, comp):
    """Scoring: photos (kept as taken), camping, judges, landmark tokens."""
    st[PHASE] = PH_OVER
    for p in range(2):
        mine = st[CAMP] * (1 if p == 0 else -1)
        st[S_CAMPING + p] = st[TENTS + p] + (comp[K_TRACK + mine - 1] if mine > 0 else 0)
    for a in range(N_ANIMALS):
        st[JUDGE_WINNER + a] = -1
        if st[JUDGE_IN + a] == 1:
            c0 = st[PHOTO_ANIMALS + a] + st[HAND + a]
            c1 = st[PHOTO_ANIMALS + N_ANIMALS + a] + st[HAND + N_ANIMALS + a]
            if c0 != c1:
                w = 0 if c0 > c1 else 1
                st[JUDGE_WINNER + a] = w
                st[S_JUDGES + w] += comp[K_JUDGE + a]
    for lm in range(N_LM):
        q = st[LM_OWNER + lm]
        if q >= 0:
            v = chart_value(comp, st[LM_MATCH + q * N_LM + lm])
            st[LM_POINTS + lm] = v
            st[S_LANDMARKS + q] += v


@kernel
def score(st, p):
    return st[S_PHOTOS + p] + st[S_CAMPING + p] + st[S_JUDGES + p] + st[S_LANDMARKS + p]


@kernel
def win_share(st, p):
    """p's share of the win: highest score wins; a tie goes to the side the camping token is
    on, else is shared."""
    s0, s1 = score(st, 0), score(st, 1)
    if s0 != s1:
        return 1.0 if (s0 > s1) == (p == 0) else 0.0
    if st[CAMP] != 0:
        return 1.0 if (st[CAMP] > 0) == (p == 0) else 0.0
    return 0.5


# ---------------------------------------------------------------- applying actions


@kernel
def apply_action(st, cfg, comp, rng, action):
    """Apply one legal action (not checked here: `legal_actions` is the contract): its own
    effect, then what follows it in the rulebook's order (collecting the tile, the reset,
    refilling the photos), each up to the next decision."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    kind = act_kind(action)
    arg = act_arg(action)
    p = st[CUR]
    then = THEN_NOTHING
    if kind == A_START:
        st[POS + p] = arg
        if st[POS + 1 - p] < 0:
            st[CUR] = 1 - p
        else:
            st[CUR] = st[FIRST]
            start_turn(st)
    elif kind == A_EAT:
        st[FISH + p] -= 1
        st[ST_FISH_EATEN + p] += 1
        st[EATEN] += 1
        st[POS + p] = neighbour(st[POS + p], arg)
        if st[FISH + p] == 0:
            st[PHASE] = PH_EXPLORE
    elif kind == A_STOP_EATING:
        st[PHASE] = PH_EXPLORE
    elif kind == A_STEP:
        st[POS + p] = neighbour(st[POS + p], arg)
        add_fish(st, comp, p)
        st[ST_EXPLORE_A + p] += 1
        then = THEN_RESET
    elif kind == A_ANIMAL:
        then = animal_move(st, comp, arg)
    elif kind == A_LANDMARK:
        lm = tile_landmark(st, st[POS + p])
        st[LM_TOKEN_ON + lm] = 0
        st[LM_OWNER + lm] = p
        st[ST_EXPLORE_C + p] += 1
        then = THEN_RESET
    elif kind == A_PUSH:
        st[POS + 1 - p] = arg
        st[ST_PUSHES + p] += 1
        then = THEN_COLLECT
    elif kind == A_NO_PUSH:
        then = THEN_COLLECT
    elif kind == A_PHOTO:
        st[PAY_SLOT] = arg
        st[PAY_ANIMAL] = 0
        st[PAY_LO] = 0
        st[PAY_HI] = 0
        st[PHASE] = PH_PAY
    elif kind == A_PAY:
        then = pay(st, cfg, comp, arg)
    elif kind == A_NO_PHOTO:
        then = THEN_RESET
    elif kind == A_DISCARD:
        discard_tile(st, comp, p, arg)
        st[ST_DISCARDS + p] += 1
        if hand_size(st, p) <= cfg[C_HAND_LIMIT]:
            then = THEN_REFILL
    if then == THEN_COLLECT:
        then = collect(st, cfg, comp)
    if then == THEN_RESET:
        then = reset(st, cfg, rng)
    if then == THEN_REFILL:
        refill_photos(st, cfg, comp)


@kernel
def step(st, cfg, comp, rng, action, buf):
    """Apply `action`, then every forced move (a decision with a single legal action).

    Returns the number of legal actions now, which are left in `buf` (0 when over).
    """
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
