"""ShutterBug policies: a kind plus a small float vector, interpreted by njit code.

`random` picks uniformly among the legal actions. The other kinds share one interpreter:

- creature weights: the tabloid side with the least quality still missing is the target;
  its creatures weigh `w_assign`, the others `w_off`;
- a tile's value = weight * quality + `w_job` * side-job progress (points times the share
  of the job the photo completes) - `tip_value` per tip it costs;
- route planning at every step: every route of up to the steps left (split between the
  two pawns in the team game) is scored by the best affordable tile on each space
  entered, tips from cities passed (1) and ended on (2), the city bonus in the last round,
  and (`lookahead`) `look` times the best tile value reachable next turn from the end;
  the first step of the best route is taken (a lone pawn's best route is kept while nothing
  it was valued on changes: values on a fine grid add up exactly, so its rest is the best
  route from its next space);
- starting cities (set-up, an empty board): the one with the most target-creature spaces
  near it (within 3 steps, nearer counts more), weighted up by the tips in hand that show
  those creatures;
- tips paid, discarded, swapped and traded away are the ones worth least to keep;
- `trader` starts a trade when its least useful tip is worth less than a random unseen
  tip, and values spaces holding other pawns (`seek`);
- `search` (determinized Monte Carlo) takes its base's best `candidates` moves, routes,
  photos, trades and starting cities by the interpreter's own values and plays each out
  `rollouts` times, every seat on the base's parameters, over a fresh sample of what the seat
  cannot see each time: the other hands, their assignments, the tip deck's and the bag's
  order. A playout ends `depth` rounds after the current one (or at the game's end) and is
  scored as if the game ended there. Its base is the bundled tuned policy for the player
  count (`base` = 1; 0: the interpreter parameters given), and it leaves the base's move
  only when another's mean playout value leads by more than `margin` plus `z` standard
  errors of the paired playouts: a small budget's noise otherwise picks a worse move often
  enough to lose to its own base.
"""

import numpy as np
from numba import njit

from ...sim.kernel import (
    Layout,
    Param,
    is_legal,
    kernel,
    low_bit,
    next_u64,
    pointer,
    position_digest,
    randint,
    seed_stream,
    shifted,
)
from . import engine as E

RANDOM, GREEDY, TRADER, LOOKAHEAD, SEARCH = 0, 1, 2, 3, 4
KIND_NAMES = ("random", "greedy", "trader", "lookahead", "search")

# Each parameter with its valid range, from its meaning: values and weights 0-100 (a negative
# weight would seek what scores less), thresholds -100..100, the trade switch 0 or 1; the
# search's budget as counts.
PARAM_NAMES = (
    Param("w_assign", 0, 100),  # 0-100: value per quality point of a target-side creature
    Param("w_off", 0, 100),  # 0-100: ... of any other creature
    Param("w_job", 0, 100),  # 0-100: weight of side-job progress (points * share completed)
    Param("tip_value", 0, 100),  # 0-100: value of one tip in hand
    Param("w_city", 0, 100),  # 0-100: weight of the end-of-game city bonus
    Param("trade", 0, 1, whole=True),  # 0 or 1: start trades when they pay
    # -100..100: trade only when a random tip beats the one given by this much
    Param("trade_margin", -100, 100),
    # 0-100: route value of a space holding another player's pawn (when trading)
    Param("seek", 0, 100),
    # 0-100: weight of the best tile reachable next turn from the route's end
    Param("look", 0, 100),
    Param("swap_max", -100, 100),  # -100..100: swap (solo) a tip whose keep value is at most this
    Param("rollouts", 1, 1000, whole=True),  # 1-1000: search: playouts per candidate move
    Param("candidates", 1, 16, whole=True),  # 1-16: search: greedy's best moves played out
    # 0-100: search: rounds a playout runs after the current one (then scored as it stands)
    Param("depth", 0, 100, whole=True),
    # 0-100: search: the lead in mean playout value a move needs over the base's move
    Param("margin", 0, 100),
    # 0-10: search: ... and its lead must exceed this many standard errors (paired playouts)
    Param("z", 0, 10),
    # 0 or 1: search: 1 plays on the bundled tuned policy's interpreter parameters for the
    # game's player count (where one is bundled) instead of those given (`on_base`)
    Param("base", 0, 1, whole=True),
)
N_PARAMS = len(PARAM_NAMES)
(P_W_ASSIGN, P_W_OFF, P_W_JOB, P_TIP_VALUE, P_W_CITY, P_TRADE, P_TRADE_MARGIN, P_SEEK, P_LOOK,
 P_SWAP_MAX, P_ROLLOUTS, P_CANDIDATES, P_DEPTH, P_MARGIN, P_Z, P_BASE) = range(N_PARAMS)

_BASE = (1.0, 0.25, 1.0, 0.6, 1.0, 0.0, 0.1, 0.0, 0.0, 0.5, 16.0, 3.0, 1.0, 0.0, 2.0, 0.0)
DEFAULT_PARAMS = {
    "random": _BASE,
    "greedy": _BASE,
    "trader": _BASE[:5] + (1.0, 0.1, 0.3) + _BASE[8:],
    "lookahead": _BASE[:8] + (0.5,) + _BASE[9:],
    "search": _BASE[:-1] + (1.0,),
}
NEG = -1e18
HORIZON = E.NEAR_STEPS  # route steps planned (the rulebook's 3; longer custom moves re-plan)
TIP_COUNTS = 9  # routes are told apart by the city tips they draw: 0..7, 8 or more
ROUTES = E.MAX_PAWNS * (HORIZON + 1) * TIP_COUNTS  # best route per pawn, length, tips drawn
MAX_JOBS = 63  # side jobs are bits of an int64 mask
MAX_CANDIDATES = 16  # the most moves a search plays out (`candidates`)
# Route values are whole multiples of QUANTUM (`on_grid`), far below any difference that
# matters: their sums are then exact, the same in whatever order they are added, so a route
# planned at one step is still the best at the next when nothing else changed (`planned_step`)
QUANTUM = 2.0 ** -20

# ---------------------------------------------------------------- scratch
# A deciding policy's working arrays: a float and an int vector and the search's random
# streams, allocated once per game (`new_scratch`) and overwritten by every decision, so
# deciding, searching included, allocates nothing. They are the policy's own, never part of
# the game: asking for a move leaves the game as it was. The search's work space follows the
# interpreter's fields, and in it the playouts' own scratch, laid out as those fields
# (F_CORE, I_CORE).
_f = Layout()
F_W = _f.field("W", E.N_CREATURES)  # creature weights
F_KV = _f.field("KV", E.N_TYPES)  # keep value per tip type
F_V = _f.field("V", E.MAX_SPACES)  # value of entering each space
F_R = _f.field("R", E.MAX_SPACES)  # best space value within reach of each space
F_END = _f.field("END", E.MAX_SPACES)  # value of ending a route on each space
F_PAS = _f.field("PAS", E.MAX_SPACES)  # ... of passing through it
F_VE = _f.field("VE", E.MAX_SPACES)  # value of entering and ending on each space: V + END
F_VP = _f.field("VP", E.MAX_SPACES)  # ... of entering and passing through it: V + PAS
F_CITY = _f.field("CITY", E.MAX_SPACES)  # 1.0 on a city, else 0.0
F_VALS = _f.field("VALS", ROUTES)
F_BC = _f.field("BC", E.N_CREATURES)  # board tiles per creature (keep values)
F_BT = _f.field("BT", E.N_TERRAINS)  # ... per terrain
F_TIPS = _f.field("TIPS", E.N_TYPES)  # tips of each type in the game (trade values)
F_TV = _f.field("TV", E.N_TILES)  # tile values (`tile_value`) worked out so far
F_PAR = _f.field("PAR", N_PARAMS)  # the parameters the seat's values were worked out with
F_CITY_W = _f.field("CITY_W", E.N_CREATURES)  # a creature's worth near a city (`city_weights`)
STOP_SLOT = E.MAX_PAWNS * E.PAWN_SPAN
F_STEP = _f.field("STEP", STOP_SLOT + 1)  # best route value by first step (search), then stop
F_CORE = _f.size
F_SCORES = _f.field("SCORES", E.MAX_LEGAL)  # search: `move_scores` of the legal actions
F_ROW = _f.field("ROW", MAX_CANDIDATES)  # ... one playout's value of each candidate
F_LEAD = _f.field("LEAD", MAX_CANDIDATES)  # ... sum of each candidate's paired leads
F_LEAD_SQ = _f.field("LEAD_SQ", MAX_CANDIDATES)  # ... and of their squares
F_PLAY = _f.field("PLAY", F_CORE)  # ... the playouts' scratch
F_SIZE = _f.size
_i = Layout()
I_END_T = _i.field("END_T", E.MAX_SPACES)  # city tips drawn for ending on each space
I_PAS_T = _i.field("PAS_T", E.MAX_SPACES)  # ... for passing through it
I_CRE_TIPS = _i.field("CRE_TIPS", E.N_CREATURES)  # tips in hand showing each creature
I_TER_TIPS = _i.field("TER_TIPS", E.N_TERRAINS)  # ... each terrain
# a lone pawn's plan (`planned_step`): the spaces of its best route, their number (-1: no
# plan), the next one's index, and where the pawn stands and its steps taken when it is due
I_PLAN = _i.field("PLAN", HORIZON)
I_PLAN_LEN = _i.field("PLAN_LEN")
I_PLAN_NEXT = _i.field("PLAN_NEXT")
I_PLAN_POS = _i.field("PLAN_POS")
I_PLAN_STEPS = _i.field("PLAN_STEPS")
I_FIRST = _i.field("FIRST", ROUTES)  # first step of each best route
# what the space values and route ends in fs[F_V:], [F_R:], [F_END:], [F_PAS:], [F_VE:] and
# [F_VP:] were worked out from (`route_values`): the seat, its turn, and its tips paid,
# drawn, traded and swapped so far (-1: nothing yet)
I_ROUTE_FROM = _i.field("ROUTE_FROM", 6)
I_JOBS = _i.field("JOBS", MAX_JOBS)  # side-job progress worth adding to (-1: none)
I_TV_OK = _i.field("TV_OK")  # bitmask of the tiles whose value is in F_TV
I_HOT = _i.field("HOT", E.MAX_SPACES)  # spaces worth entering (`reach_values`)
# what the seat's weights, side-job targets and tile values were worked out from
I_SEAT = _i.field("SEAT")  # the seat (-1: nothing yet)
I_ASSIGN = _i.field("ASSIGN")  # its assignment card
I_PHOTOS = _i.field("PHOTOS")  # the photos its team had taken
I_KV_FROM = _i.field("KV_FROM")  # the board the keep values fs[F_KV:] were worked out on
I_CORE = _i.size
I_CANDS = _i.field("CANDS", MAX_CANDIDATES)  # search: the moves played out
I_WORLD = _i.field("WORLD", E.STATE_SIZE)  # ... a sample of what the seat cannot see
I_SIM = _i.field("SIM", E.STATE_SIZE)  # ... a candidate played out in it
I_SIM_BUF = _i.field("SIM_BUF", E.MAX_LEGAL)  # ... its legal actions
I_UNSEEN = _i.field("UNSEEN", E.N_TIPS)  # `determinize`: the tips the seat has not seen
I_PLAY = _i.field("PLAY", I_CORE)  # ... the playouts' scratch
I_CARDS = _i.size  # `determinize`: the assignment cards the seat does not hold (one per card)


@njit(cache=True)
def new_scratch(cfg, comp):
    """A policy's scratch for one game, the search's work space included: floats, ints and
    the random streams of the search's playouts."""
    fs, js, rs = seat_scratches(cfg, comp, 1, True)
    return fs[0], js[0], rs


@njit(cache=True)
def seat_scratches(cfg, comp, n, search=None):
    """A scratch for each of n seats (rows of fs and js; the random streams shared): what a
    seat's values were worked out from then stays its own between its turns, so they are
    worked out again only when that changed. `search` (see `decide`) None: only the
    interpreter's fields, without the search's work space."""
    fw = F_SIZE if search is not None else F_CORE
    iw = I_CARDS + comp[E.K_N_ASSIGN] if search is not None else I_CORE
    fs = np.zeros((n, fw))
    js = np.zeros((n, iw), np.int64)
    for p in range(n):
        fixed_tables(cfg, comp, fs[p], js[p])
        if search is not None:
            fixed_tables(cfg, comp, fs[p, F_PLAY:F_PLAY + F_CORE], js[p, I_PLAY:I_PLAY + I_CORE])
    return fs, js, np.zeros(2, np.uint64)


@kernel
def forget_seats(js, n, width):
    """A new game for the n seats' scratches (rows of js, `width` apart): what each seat's
    values were worked out from is forgotten, so they are worked out afresh; the tables the
    rules fix stay (`fixed_tables`)."""
    for p in range(n):
        js[p * width + I_SEAT] = -1
        js[p * width + I_ROUTE_FROM] = -1


@kernel
def fixed_tables(cfg, comp, fs, js):
    """The tables the rules fix for a game: city tips drawn for ending on or passing through
    each space, tips of each type; no seat's values worked out yet."""
    for s in range(comp[E.K_N_SPACES]):
        if E.is_city(comp, s):
            js[I_END_T + s] = cfg[E.C_END_TIPS]
            js[I_PAS_T + s] = cfg[E.C_PASS_TIPS]
            fs[F_CITY + s] = 1.0
    for i in range(E.N_TIPS):
        fs[F_TIPS + comp[E.K_TIP_TYPE + i]] += 1.0
    js[I_SEAT] = -1
    js[I_ROUTE_FROM] = -1


@kernel(inline="always")
def seat_values(st, cfg, comp, par, p, fs, js):
    """Creature weights (fs[F_W:]) and side-job targets (js[I_JOBS:]) of seat p. They depend
    only on its assignment and its team's portfolio, which change with a photo taken while
    the seat decides many times per photo: the scratch keeps them, and the tile values
    worked out from them, as long as what they came from is unchanged. A portfolio only
    grows, one photo at a time, along a game, so the count of photos the team has taken
    stands for it (a playout starts another line of play: it forgets them, `playout`)."""
    m = E.team(cfg, p)
    photos = st[E.ST_PHOTOS + p]
    if cfg[E.C_COOP] == 1:  # one portfolio for all
        for q in range(E.n_players(cfg)):
            if q != p:
                photos += st[E.ST_PHOTOS + q]
    if js[I_SEAT] == p and js[I_ASSIGN] == st[E.ASSIGN + p] and js[I_PHOTOS] == photos:
        same = True
        for i in range(N_PARAMS):  # (no early exit: one vector compare)
            same &= fs[F_PAR + i] == par[i]
        if same:
            return
    for i in range(N_PARAMS):
        fs[F_PAR + i] = par[i]
    js[I_SEAT] = p
    js[I_ASSIGN] = st[E.ASSIGN + p]
    js[I_PHOTOS] = photos
    creature_weights(st, cfg, comp, par, p, fs)
    job_targets(st, cfg, comp, m, js)
    js[I_TV_OK] = 0
    js[I_ROUTE_FROM] = -1
    js[I_KV_FROM] = -1


@kernel(inline="always")
def known_tile_value(st, cfg, comp, par, p, t, fs, js):
    """`tile_value` of tile t to seat p, once per tile while `seat_values` stands."""
    if not (js[I_TV_OK] >> t) & 1:
        fs[F_TV + t] = tile_value(st, comp, par, E.team(cfg, p), fs, js, t)
        js[I_TV_OK] |= 1 << t
    return fs[F_TV + t]


@kernel(inline="always")
def route(k, length, tips):
    """Index of pawn k's best route of `length` steps drawing `tips` city tips."""
    return (k * (HORIZON + 1) + length) * TIP_COUNTS + tips


# ---------------------------------------------------------------- values


@kernel
def creature_weights(st, cfg, comp, par, p, fs):
    """Target the side with the least quality still missing (ties: more points now): the
    weights go to fs[F_W:] in place (a view would cost reference counts)."""
    m = E.team(cfg, p)
    a = st[E.ASSIGN + p]
    best_side = 0
    best_key = NEG
    for side in range(2):
        missing = 0
        pts = 0
        for i in range(E.SIDE_N):
            cre, need = E.side_entry(comp, a, side, i)
            have = st[E.QUAL + m * E.N_CREATURES + cre]
            missing += max(0, need - have)
            if have >= need:
                pts += have
        key = -100.0 * missing + pts
        if key > best_key:
            best_key = key
            best_side = side
    for c in range(E.N_CREATURES):
        fs[F_W + c] = par[P_W_OFF]
    for i in range(E.SIDE_N):
        cre, need = E.side_entry(comp, a, best_side, i)
        fs[F_W + cre] = par[P_W_ASSIGN]


@kernel
def job_targets(st, cfg, comp, m, js):
    """Progress of each side job team slot m still works toward, else -1 (js[I_JOBS:], in
    place): done, or (every marker placed) paid no better than the marked ones. Once per
    decision, not per tile."""
    floor = -1
    if comp[E.K_N_JOBS] > cfg[E.C_MARKERS]:
        mask, count, _ = E.marked_jobs(st, cfg, comp, m)
        if count == cfg[E.C_MARKERS]:
            floor = 1 << 30
            for j in range(comp[E.K_N_JOBS]):
                if (mask >> j) & 1:
                    floor = min(floor, E.job_points(comp, j))
    for j in range(comp[E.K_N_JOBS]):
        got, need = E.job_progress(st, comp, m, j, E.NO_PHOTO, E.NO_PHOTO, E.NO_PHOTO)
        js[I_JOBS + j] = got if got < need and E.job_points(comp, j) > floor else -1


@kernel
def tile_value(st, comp, par, m, fs, js, t):
    """What photographing tile t is worth to team slot m, less the tips it costs: quality by
    creature weight (fs[F_W:]), plus the share of each targeted side job (js[I_JOBS:]) it
    completes times its points."""
    cre = comp[E.K_TILE_CRE + t]
    ter = comp[E.K_TILE_TER + t]
    q = comp[E.K_TILE_Q + t]
    v = fs[F_W + cre] * q - par[P_TIP_VALUE] * q
    for j in range(comp[E.K_N_JOBS]):
        got = js[I_JOBS + j]
        if got >= 0:
            got2 = E.job_gain(st, comp, m, j, got, cre, ter, q)
            v += par[P_W_JOB] * E.job_points(comp, j) * (got2 - got) / E.job_need(comp, j)
    return v


@kernel(inline="always")
def keep_values(st, cfg, comp, fs, js):
    """How much each tip type is worth keeping (fs[F_KV + type]): its creature's weight
    (fs[F_W:]), plus a little per board tile showing its creature or terrain. The scratch is
    indexed in place: views would cost reference counts. Worked out again only when the
    board changed since (a photo taken, tiles drawn from the bag: along a game the photos
    only grow and the bag only shrinks, so the two counts key the board) or the seat's values
    did (`seat_values` clears the key)."""
    key = st[E.N_BAG]
    for q in range(E.n_players(cfg)):
        key += (E.N_TILES + 1) * st[E.ST_PHOTOS + q]
    if js[I_KV_FROM] == key:
        return
    js[I_KV_FROM] = key
    for c in range(E.N_CREATURES):
        fs[F_BC + c] = 0.0
    for ter in range(E.N_TERRAINS):
        fs[F_BT + ter] = 0.0
    spaces = st[E.BOARD]
    while spaces != 0:
        s = low_bit(spaces)
        spaces &= spaces - 1
        for _ in range(st[E.ON_SPACE + s]):  # a space's tiles show its creature and terrain
            fs[F_BC + comp[E.K_SCRE + s]] += 0.05
            fs[F_BT + comp[E.K_STER + s]] += 0.05
    for u in range(E.N_TYPES):
        c = E.tip_creature(u)
        fs[F_KV + u] = fs[F_W + c] + fs[F_BC + c] + fs[F_BT + E.tip_terrain(u)]


@kernel(inline="always")
def cheapest(buf, n, kind, fs):
    """The action of `kind` whose tip type is worth least to keep (fs[F_KV:], -1: none)."""
    best = -1
    best_v = 1e18
    for i in range(n):
        if E.act_kind(buf[i]) == kind and fs[F_KV + E.act_arg(buf[i])] < best_v:
            best_v = fs[F_KV + E.act_arg(buf[i])]
            best = buf[i]
    return best


@kernel(inline="always")
def space_values(st, cfg, comp, par, p, fs, js):
    """Best affordable tile value on each space (0 if none, or if a tile was taken there this
    turn), plus `seek` for other pawns, on the grid (`on_grid`): fs[F_V + space], written in
    place (a view would cost reference counts). Only the tiles on the board are looked at,
    what p can pay comes from its tips per creature and per terrain, counted once, and a
    tile counts or not without a branch (which tiles p can pay for is hard to foretell)."""
    for s in range(comp[E.K_N_SPACES]):
        fs[F_V + s] = 0.0
    tiles = st[E.BOARD_TILES]
    if tiles != 0:
        hand_totals(st, p, js)
    shot = st[E.SHOT]
    while tiles != 0:
        t = low_bit(tiles)
        tiles &= tiles - 1
        # a space's tiles show its creature and terrain; the first tip must show the
        # creature, the others either (`engine.payable`)
        s = comp[E.K_TILE_SPACE + t]
        cre = comp[E.K_SCRE + s]
        ter = comp[E.K_STER + s]
        first = js[I_CRE_TIPS + cre]
        most = first + js[I_TER_TIPS + ter] - E.hand(st, p, cre * E.N_TERRAINS + ter)
        ok = (first > 0) & (comp[E.K_TILE_Q + t] <= most) & (((shot >> s) & 1) == 0)
        if ok and not (js[I_TV_OK] >> t) & 1:  # worked out once, then only read
            known_tile_value(st, cfg, comp, par, p, t, fs, js)
        fs[F_V + s] = max(fs[F_V + s], on_grid(fs[F_TV + t]) if ok else 0.0)
    if par[P_TRADE] > 0 and cfg[E.C_TRADING] == 1 and st[E.N_HAND + p] > 0:
        seek = on_grid(par[P_SEEK])
        for q in range(E.n_players(cfg)):
            if q != p:
                for k in range(cfg[E.C_PAWNS]):
                    s = st[E.PAWN + q * E.MAX_PAWNS + k]
                    if st[E.N_HAND + q] > 0:
                        fs[F_V + s] += seek


@kernel(inline="always")
def hand_totals(st, p, js):
    """p's tips showing each creature (js[I_CRE_TIPS:]) and each terrain (js[I_TER_TIPS:])."""
    for c in range(E.N_CREATURES):  # sums kept in registers, then stored
        tot = 0
        for ter in range(E.N_TERRAINS):
            tot += E.hand(st, p, c * E.N_TERRAINS + ter)
        js[I_CRE_TIPS + c] = tot
    for ter in range(E.N_TERRAINS):
        tot = 0
        for c in range(E.N_CREATURES):
            tot += E.hand(st, p, c * E.N_TERRAINS + ter)
        js[I_TER_TIPS + ter] = tot


@kernel(inline="always")
def on_grid(x):
    """x rounded to a whole multiple of QUANTUM: route values on the grid add up exactly."""
    return np.floor(x * (1.0 / QUANTUM) + 0.5) * QUANTUM


@kernel(inline="always")
def reach_values(comp, fs, js):
    """Best space value (fs[F_V:]) within 3 steps of each space (next turn's prospects), into
    fs[F_R:]. Values are never negative, so only the few spaces worth something can raise a
    space's own: they are listed best first, and the first within reach is the best within
    reach."""
    ns = comp[E.K_N_SPACES]
    hot = 0
    for s in range(ns):
        if fs[F_V + s] > 0.0:
            i = hot  # insertion: best first
            while i > 0 and fs[F_V + js[I_HOT + i - 1]] < fs[F_V + s]:
                js[I_HOT + i] = js[I_HOT + i - 1]
                i -= 1
            js[I_HOT + i] = s
            hot += 1
    for s in range(ns):
        fs[F_R + s] = fs[F_V + s]
        near = E.near(comp, s, HORIZON)
        for i in range(hot):
            x = js[I_HOT + i]
            if (near >> x) & 1:
                fs[F_R + s] = max(fs[F_R + s], fs[F_V + x])
                break


@kernel
def tip_worth(st, cfg, par, p):
    """Value of one more tip: little once the hand is at its limit."""
    return par[P_TIP_VALUE] if st[E.N_HAND + p] < cfg[E.C_HAND_LIMIT] else 0.1 * par[P_TIP_VALUE]


@kernel(inline="always")
def route_ends(st, cfg, comp, par, fs):
    """Per space, the value of ending a route there (city tips, the city bonus in the last
    round, next turn's prospects fs[F_R:]) and of passing through it (city tips), on the
    grid, and each with the space's own value (fs[F_VE:], fs[F_VP:]): what a route gains
    by entering the space last, or on its way."""
    tip = tip_worth(st, cfg, par, st[E.CUR])
    last = st[E.ROUND] == cfg[E.C_ROUNDS] - 1
    bonus = par[P_W_CITY] * cfg[E.C_CITY_BONUS] if last else 0.0
    look = 0.0 if last else par[P_LOOK]
    city_end = tip * cfg[E.C_END_TIPS] + bonus
    city_pas = on_grid(tip * cfg[E.C_PASS_TIPS])
    if look > 0.0:
        for s in range(comp[E.K_N_SPACES]):
            fs[F_END + s] = on_grid(look * fs[F_R + s] + fs[F_CITY + s] * city_end)
    else:  # (a city's ends alone, no branch per space: fs[F_CITY:] is 1 or 0)
        city_end = on_grid(city_end)
        for s in range(comp[E.K_N_SPACES]):
            fs[F_END + s] = fs[F_CITY + s] * city_end
    for s in range(comp[E.K_N_SPACES]):
        fs[F_PAS + s] = fs[F_CITY + s] * city_pas
        fs[F_VE + s] = fs[F_V + s] + fs[F_END + s]
        fs[F_VP + s] = fs[F_V + s] + fs[F_PAS + s]


@kernel(inline="always")
def route_end(fs, js, direct, val, length, tips_before, end, first, at, best, best_x, most):
    """`best_routes`' step for a route of `length` steps ending on space `end` (its first
    step `first`) with value `val` and `tips_before` tips drawn before its end: `direct`
    keeps it when it beats the best (ties: the fewer tips), else it goes into its slot of
    fs[F_VALS:] if better than the slot's. Returns (whether `direct` took it, best, best_x,
    most)."""
    took = False
    tips = min(tips_before + js[I_END_T + end], TIP_COUNTS - 1)
    if direct:
        if val >= best:
            x = length * TIP_COUNTS + tips
            if val > best or x < best_x:
                took, best, best_x = True, val, x
    else:
        x = at + length * TIP_COUNTS + tips
        if val > fs[F_VALS + x]:
            fs[F_VALS + x] = val
            js[I_FIRST + x] = first
            most = max(most, tips)
    return took, best, best_x, most


@kernel(inline="always")
def best_routes(st, cfg, comp, par, k, horizon, must, direct, fs, js):
    """Best route of each length 0..horizon (at most 3) and each number of city tips drawn
    on it (TIP_COUNTS - 1 or more share the last count) for pawn k, by enumeration: a route
    scores the spaces it enters (fs[F_V:]), tips from cities passed and ended on, the city
    bonus in the last round and (lookahead) next turn's prospects from its end (fs[F_VE:],
    fs[F_VP:], `route_ends`). Values go to fs[F_VALS + route(k, ...)], each route's first
    step to js[I_FIRST + route(k, ...)]; returns the most city tips any route draws (the
    pairing of the two pawns' routes in `planned_step` need not look past it) and -1.
    `direct` (a lone pawn, no limit on the tips drawn: its best route is the turn's plan)
    keeps only the best route of at least `must` steps instead, its spaces in js[I_PLAN:]
    and their number in js[I_PLAN_LEN], and returns (0, its first step, -1: stop), the same
    route `planned_step`'s pairing picks: ties go to the shorter route, then the fewer tips,
    then the first found.
    The hottest loop of a game: it keeps a route in place (a loop per step, each step's end
    weighed by `route_end`, compiled inline), and a space's neighbours end at the first -1."""
    p = st[E.CUR]
    p0 = st[E.PAWN + p * E.MAX_PAWNS + k]
    block = E.blocked(st, cfg, k)
    at = route(k, 0, 0)
    if not direct:
        for x in range(at, route(k + 1, 0, 0)):
            fs[F_VALS + x] = NEG
    entered0 = p0 != st[E.START + k]
    most = 0
    if entered0:
        most = min(js[I_END_T + p0], TIP_COUNTS - 1)
        stay = fs[F_END + p0]
    else:
        last = st[E.ROUND] == cfg[E.C_ROUNDS] - 1
        bonus = par[P_W_CITY] * cfg[E.C_CITY_BONUS] if last and E.is_city(comp, p0) else 0.0
        stay = on_grid((0.0 if last else par[P_LOOK]) * fs[F_R + p0] + bonus)
    # direct: the best so far, its slot (length * TIP_COUNTS + tips: the tie order), spaces
    best, best_x, size, r1, r2, r3 = NEG, ROUTES, -1, -1, -1, -1
    if not direct:
        fs[F_VALS + at + most] = stay
    elif must == 0:
        best, best_x, size = stay, most, 0
    if horizon > 0:
        acc0 = fs[F_PAS + p0] if entered0 else 0.0
        t0 = js[I_PAS_T + p0] if entered0 else 0
        for i in range(E.MAX_DEGREE):
            a = E.adjacent(comp, p0, i)
            if a < 0:
                break
            if (block >> a) & 1:
                continue
            took, best, best_x, most = route_end(fs, js, direct, acc0 + fs[F_VE + a], 1,
                                                 t0, a, a, at, best, best_x, most)
            if took:
                size, r1 = 1, a
            if horizon == 1:
                continue
            b1 = block | (1 << a)
            acc1 = acc0 + fs[F_VP + a]
            t1 = t0 + js[I_PAS_T + a]
            for j in range(E.MAX_DEGREE):
                b = E.adjacent(comp, a, j)
                if b < 0:
                    break
                if (b1 >> b) & 1:
                    continue
                took, best, best_x, most = route_end(fs, js, direct, acc1 + fs[F_VE + b], 2,
                                                     t1, b, a, at, best, best_x, most)
                if took:
                    size, r1, r2 = 2, a, b
                if horizon == 2:
                    continue
                b2 = b1 | (1 << b)
                acc2 = acc1 + fs[F_VP + b]
                t2 = t1 + js[I_PAS_T + b]
                for m in range(E.MAX_DEGREE):
                    c = E.adjacent(comp, b, m)
                    if c < 0:
                        break
                    if (b2 >> c) & 1:
                        continue
                    took, best, best_x, most = route_end(fs, js, direct,
                                                         acc2 + fs[F_VE + c], 3, t2, c, a, at,
                                                         best, best_x, most)
                    if took:
                        size, r1, r2, r3 = 3, a, b, c
    if direct:
        js[I_PLAN] = r1
        js[I_PLAN + 1] = r2
        js[I_PLAN + 2] = r3
        js[I_PLAN_LEN] = size
    return most, r1


@kernel
def planned_step(st, cfg, comp, par, p, fs, js, per_step=False):
    """The first step of the best route for the rest of the turn (both pawns in the team
    game), or -1 to stop. Tips past the turn's limit are not drawn, so they count for
    nothing. The route is planned from what the player sees now (`seat_values` worked
    out), in the policy's scratch, so asking for a move never writes
    to the game. `per_step` also keeps the best route's value by first step (the search's
    candidates) in fs[F_STEP + pawn_space], stopping in fs[F_STEP + STOP_SLOT]. A compiled
    call of its own (per_step a numpy bool), which the heuristic's and the search's kernels
    share, instead of a copy compiled into each.
    A lone pawn's best route is kept as its plan (`follow_plan`): while nothing its values
    come from changed, the best route from the next space is the rest of it."""
    route_values(st, cfg, comp, par, p, fs, js)
    horizon = min(HORIZON, cfg[E.C_MAX_STEPS] - st[E.STEPS])
    must = 1 if st[E.STEPS] == 0 else 0
    pawns = cfg[E.C_PAWNS]
    # a lone pawn drawing tips without a limit: its best route is the plan (`best_routes`)
    direct = pawns == 1 and cfg[E.C_TURN_TIPS] == 0 and not per_step
    if direct and js[I_PLAN_LEN] >= 0 and js[I_PLAN_STEPS] == st[E.STEPS] \
            and js[I_PLAN_POS] == st[E.PAWN + p * E.MAX_PAWNS]:
        return follow_plan(st, js)
    if pawns == 1 and not direct:  # a missing second pawn stays put
        for x in range(route(1, 0, 0), route(2, 0, 0)):
            fs[F_VALS + x] = NEG
        fs[F_VALS + route(1, 0, 0)] = 0.0
    most0 = most1 = 0
    for k in range(pawns):  # one call site: compiled into this function once
        most, first = best_routes(st, cfg, comp, par, k, horizon, must, direct, fs, js)
        if direct:
            keep_plan(st, cfg, horizon, js)
            return E.pawn_space(0, first) if first >= 0 else -1
        if k == 0:
            most0 = most
        else:
            most1 = most
    left = cfg[E.C_TURN_TIPS] - st[E.TURN_TIPS] if cfg[E.C_TURN_TIPS] > 0 else 1 << 30
    tip = tip_worth(st, cfg, par, p)
    best = NEG
    step = -1
    if per_step:
        for x in range(F_STEP, F_STEP + STOP_SLOT + 1):
            fs[x] = NEG
    for l0 in range(horizon + 1):
        for l1 in range(horizon + 1 - l0):
            if l0 + l1 < must:
                continue
            for t0 in range(most0 + 1):
                v0 = fs[F_VALS + route(0, l0, t0)]
                if v0 == NEG:
                    continue
                for t1 in range(most1 + 1):
                    v1 = fs[F_VALS + route(1, l1, t1)]
                    if v1 == NEG:
                        continue
                    tot = v0 + v1 - tip * max(0, t0 + t1 - left)
                    if tot > best or per_step:
                        first = _first_step(js, l0, t0, l1, t1)
                        if tot > best:
                            best = tot
                            step = first
                        if per_step:
                            slot = F_STEP + (first if first >= 0 else STOP_SLOT)
                            fs[slot] = max(fs[slot], tot)
    return step


@kernel(inline="always")
def keep_plan(st, cfg, horizon, js):
    """Keep the route `best_routes` just made (js[I_PLAN:]) as the plan, due at its second
    space, where its rest is what planning afresh from its first space gives: it has a step,
    it looked ahead to the end of the movement, and no route draws so many tips that routes
    share the last tip count (the tie order). Values are on the grid (`on_grid`), so a
    route's value from the next space is its value less the step's, exactly, and the best
    route from there is the rest of this one."""
    if js[I_PLAN_LEN] < 1 or horizon < cfg[E.C_MAX_STEPS] - st[E.STEPS] or \
            cfg[E.C_PASS_TIPS] * HORIZON + cfg[E.C_END_TIPS] > TIP_COUNTS - 1:
        js[I_PLAN_LEN] = -1
    js[I_PLAN_NEXT] = 1
    js[I_PLAN_POS] = js[I_PLAN]
    js[I_PLAN_STEPS] = st[E.STEPS] + 1


@kernel(inline="always")
def follow_plan(st, js):
    """The plan's next step (-1: stop there), the plan then due one step on."""
    i = js[I_PLAN_NEXT]
    if i >= js[I_PLAN_LEN]:
        return -1
    js[I_PLAN_NEXT] = i + 1
    js[I_PLAN_POS] = js[I_PLAN + i]
    js[I_PLAN_STEPS] = st[E.STEPS] + 1
    return E.pawn_space(0, js[I_PLAN + i])


ROUTE_FROM = (E.ST_TURNS, E.ST_PAID, E.ST_DRAWN, E.ST_TRADES, E.ST_SWAPS)  # seat p's at + p


@kernel(inline="always")
def route_values(st, cfg, comp, par, p, fs, js):
    """Space values, next turn's prospects and route ends (`space_values`, `reach_values`,
    `route_ends`) for seat p, worked out once per turn and again only after something they
    come from changed: within a turn they change only with the hand (a photo paid for, a tip
    drawn, traded or swapped: p's counts of those), a photo taken (paid for) or the seat's
    values (`seat_values` clears them); a step alone leaves them as they were."""
    same = js[I_ROUTE_FROM] == p
    for i in range(len(ROUTE_FROM)):  # (no early exit: a few compares, one branch)
        same &= js[I_ROUTE_FROM + 1 + i] == st[ROUTE_FROM[i] + p]
    if same:
        return
    js[I_ROUTE_FROM] = p
    for i in range(len(ROUTE_FROM)):
        js[I_ROUTE_FROM + 1 + i] = st[ROUTE_FROM[i] + p]
    js[I_PLAN_LEN] = -1  # a plan made on other values
    space_values(st, cfg, comp, par, p, fs, js)
    if par[P_LOOK] > 0:  # (else next turn's prospects count 0 times: fs[F_R:] unread)
        reach_values(comp, fs, js)
    route_ends(st, cfg, comp, par, fs)


@kernel
def _first_step(js, l0, t0, l1, t1):
    """The first step of the routes of lengths l0, l1 (pawn 0 moves first), -1: none."""
    if l0 > 0:
        return E.pawn_space(0, js[I_FIRST + route(0, l0, t0)])
    if l1 > 0:
        return E.pawn_space(1, js[I_FIRST + route(1, l1, t1)])
    return -1


# ---------------------------------------------------------------- decisions


@kernel(inline="always")
def move_action(st, cfg, comp, par, buf, n, fs, js):
    """Swap (solo) a tip worth at most `swap_max`, else the planned route's next step."""
    if st[E.SWAPS_LEFT] > 0:
        keep_values(st, cfg, comp, fs, js)
        a = cheapest(buf, n, E.A_SWAP, fs)
        if a >= 0 and fs[F_KV + E.act_arg(a)] <= par[P_SWAP_MAX]:
            return a
    target = planned_step(st, cfg, comp, par, st[E.CUR], fs, js, np.bool_(False))
    if target >= 0 and is_legal(buf, n, E.act(E.A_MOVE, target)):
        return E.act(E.A_MOVE, target)
    if is_legal(buf, n, E.act(E.A_STOP)):
        return E.act(E.A_STOP)
    return buf[0]


@kernel(inline="always")
def trade_action(st, cfg, comp, par, buf, n, fs, js):
    """Trade the least useful tip when a random unseen tip is worth more on average (the
    `trade` switch on: `heuristic_action` declines every trade else)."""
    keep_values(st, cfg, comp, fs, js)
    p = st[E.CUR]
    give = cheapest(buf, n, E.A_TRADE, fs)
    tot = 0.0
    cnt = 0.0
    for u in range(E.N_TYPES):
        k = fs[F_TIPS + u] - E.hand(st, p, u) - st[E.DISC + u]
        if k > 0:
            tot += k * fs[F_KV + u]
            cnt += k
    if cnt > 0 and fs[F_KV + E.act_arg(give)] + par[P_TRADE_MARGIN] < tot / cnt:
        return give
    return E.act(E.A_NO_TRADE)


@kernel(inline="always")
def photo_action(st, cfg, comp, par, buf, n, fs, js):
    best = E.act(E.A_SKIP)
    best_v = 0.0
    for i in range(n):
        if E.act_kind(buf[i]) == E.A_PHOTO:
            val = known_tile_value(st, cfg, comp, par, st[E.CUR], E.act_arg(buf[i]), fs, js)
            if val > best_v:
                best_v = val
                best = buf[i]
    return best


@kernel
def keep_action(st, comp, buf, n):
    """Solo: keep the offered card whose easier side asks for the least quality."""
    best = buf[0]
    best_need = 1 << 30
    for i in range(n):
        a = st[E.OFFER + E.act_arg(buf[i])]
        for side in range(2):
            need = 0
            for j in range(E.SIDE_N):
                need += E.side_entry(comp, a, side, j)[1]
            if need < best_need:
                best_need = need
                best = buf[i]
    return best


@kernel
def city_action(st, comp, buf, n, fs):
    """Set-up (the board is still empty): the city with the most promising wilderness
    nearby. A space d steps away (d <= 3) counts its silhouette creature's weight, once more
    for each tip in hand showing that creature (a photo there needs one first), over d. The
    scratch is read in place: a view would cost reference counts."""
    city_weights(st, fs)
    best = buf[0]
    best_v = NEG
    for i in range(n):
        val = city_value(comp, E.arg_space(E.act_arg(buf[i])), fs)
        if val > best_v:
            best_v = val
            best = buf[i]
    return best


@kernel(inline="always")
def city_weights(st, fs):
    """What a space showing each creature is worth one step from a city to the player
    choosing (fs[F_CITY_W:]): its weight, once more per tip in hand showing it; once per
    choice, not per space."""
    p = st[E.CUR]
    for cre in range(E.N_CREATURES):
        have = 0
        for ter in range(E.N_TERRAINS):
            have += E.hand(st, p, cre * E.N_TERRAINS + ter)
        fs[F_CITY_W + cre] = fs[F_W + cre] * (1 + have)


@kernel
def city_value(comp, s, fs):
    """How promising the wilderness near city s is to the player choosing (`city_action`;
    `city_weights` worked out)."""
    val = 0.0
    for d in range(1, HORIZON + 1):
        ring = E.near(comp, s, d) & ~E.near(comp, s, d - 1)
        while ring != 0:
            x = low_bit(ring)
            ring &= ring - 1
            cre = comp[E.K_SCRE + x]
            if cre >= 0:
                val += fs[F_CITY_W + cre] / d
    return val


@kernel
def heuristic_action(st, cfg, comp, par, buf, n, fs, js):
    """The heuristic kinds' action (greedy, trader, lookahead) among buf[:n]. One compiled
    function that the batch, the playouts, the search and the step API call: compiled into
    each of them instead, a search line-up's kernel took over two minutes to compile."""
    p = st[E.CUR]
    ph = st[E.PHASE]
    if ph == E.PH_KEEP:
        return keep_action(st, comp, buf, n)
    if ph == E.PH_TRADE and par[P_TRADE] <= 0:
        return E.act(E.A_NO_TRADE)
    seat_values(st, cfg, comp, par, p, fs, js)
    if ph == E.PH_MOVE:
        return move_action(st, cfg, comp, par, buf, n, fs, js)
    if ph == E.PH_CITY:
        return city_action(st, comp, buf, n, fs)
    if ph == E.PH_PHOTO:
        return photo_action(st, cfg, comp, par, buf, n, fs, js)
    if ph == E.PH_TRADE:
        return trade_action(st, cfg, comp, par, buf, n, fs, js)
    keep_values(st, cfg, comp, fs, js)
    if ph == E.PH_PAY:
        return cheapest(buf, n, E.A_PAY, fs)
    return cheapest(buf, n, E.A_DISCARD, fs)


# ---------------------------------------------------------------- search

NO_END = np.int64(1 << 30)  # a playout's last round that plays the game to its end
MARGIN = 0.05  # a playout's value: the win share plus this per point of lead over the best rival


@kernel
def determinize(st, cfg, comp, me, rng, js):
    """Redeal, in place and from rng stream 0, what seat `me` cannot see: the other hands
    (same sizes) and the tip deck from the tips `me` has not seen, the other seats'
    assignments from the cards `me` does not hold, the bag's order. What is redealt is laid
    out in a fixed order first (in the scratch js), so the sample depends on what `me` sees
    only."""
    n = E.n_players(cfg)
    unseen = shifted(js, I_UNSEEN)
    k = 0
    for u in range(E.N_TYPES):
        left = -st[E.DISC + u] - E.hand(st, me, u)
        for i in range(E.N_TIPS):
            left += comp[E.K_TIP_TYPE + i] == u
        for _ in range(left):
            unseen[k] = u
            k += 1
    E.shuffle(rng, unseen, k)
    for q in range(n):
        if q != me:
            for u in range(E.N_TYPES):
                st[E.HAND + q * E.N_TYPES + u] = 0
            for _ in range(st[E.N_HAND + q]):
                k -= 1
                st[E.HAND + q * E.N_TYPES + unseen[k]] += 1
    for i in range(k):  # what is left is the deck: N_DECK tips
        st[E.DECK + i] = unseen[i]
    if cfg[E.C_COOP] == 0 and n > 1:
        cards = shifted(js, I_CARDS)
        k = 0
        for a in range(comp[E.K_N_ASSIGN]):
            if a != st[E.ASSIGN + me]:
                cards[k] = a
                k += 1
        E.shuffle(rng, cards, k)
        for q in range(n):
            if q != me:
                k -= 1
                st[E.ASSIGN + q] = cards[k]
    nb = st[E.N_BAG]
    bag = 0  # the tiles in the bag, each once: laid out in order, then shuffled
    for i in range(nb):
        bag |= 1 << st[E.BAG + i]
    k = 0
    for t in range(E.N_TILES):
        if (bag >> t) & 1:
            st[E.BAG + k] = t
            k += 1
    E.shuffle(rng, shifted(st, E.BAG), nb)


@kernel
def playout(st, cfg, comp, rng, par, buf, n, me, last_round, fs, js):
    """Play `st` on with every seat greedy (weights `par`) until the game ends or round
    `last_round` is over, score it as if it ended there; `me`'s win share plus MARGIN per
    point of lead over the best rival."""
    js[I_SEAT] = -1  # values of another playout's: counts that only grow along one game
    while st[E.PHASE] != E.PH_OVER and st[E.ROUND] <= last_round:
        n = E.step(st, cfg, comp, rng, heuristic_action(st, cfg, comp, par, buf, n, fs, js),
                   buf)
    if st[E.PHASE] != E.PH_OVER:
        E.end_game(st, cfg, comp)
    rival = -(1 << 30)
    for q in range(E.n_players(cfg)):
        if q != me:
            rival = max(rival, E.score(st, q))
    lead = E.score(st, me) - rival if E.n_players(cfg) > 1 else E.score(st, me)
    return E.win_share(st, cfg, me) + MARGIN * lead


@kernel
def move_scores(st, cfg, comp, par, buf, n, out, fs, js):
    """The greedy interpreter's value of each action in buf[:n] where the search looks
    further (route steps, photos, trades, starting cities); NEG elsewhere. heuristic_action
    ran (`seat_values` worked out, but for a trade it declines)."""
    ph = st[E.PHASE]
    for i in range(n):
        out[i] = NEG
    if ph == E.PH_MOVE:
        planned_step(st, cfg, comp, par, st[E.CUR], fs, js, np.bool_(True))
    elif ph == E.PH_CITY:
        city_weights(st, fs)
    elif ph == E.PH_TRADE:  # (the interpreter works these out only when it trades)
        seat_values(st, cfg, comp, par, st[E.CUR], fs, js)
        keep_values(st, cfg, comp, fs, js)
    for i in range(n):
        kind = E.act_kind(buf[i])
        arg = E.act_arg(buf[i])
        if kind == E.A_MOVE:
            out[i] = fs[F_STEP + arg]
        elif kind == E.A_STOP:
            out[i] = fs[F_STEP + STOP_SLOT]
        elif kind == E.A_PHOTO:
            out[i] = known_tile_value(st, cfg, comp, par, st[E.CUR], arg, fs, js)
        elif kind == E.A_SKIP or kind == E.A_NO_TRADE:
            out[i] = 0.0
        elif kind == E.A_TRADE:
            out[i] = -fs[F_KV + arg]
        elif kind == E.A_CITY:
            out[i] = city_value(comp, E.arg_space(arg), fs)


@kernel
def search_candidates(st, cfg, comp, par, buf, n, greedy, fs, js):
    """The greedy choice, then the best other moves by `move_scores`, up to `candidates`:
    their number; the moves are js[I_CANDS:]."""
    scores = shifted(fs, F_SCORES)
    move_scores(st, cfg, comp, par, buf, n, scores, fs, js)
    size = max(1, min(n, int(par[P_CANDIDATES])))
    js[I_CANDS] = greedy
    m = 1
    while m < size:
        best = -1
        for i in range(n):
            if buf[i] != greedy and scores[i] > NEG and (best < 0 or scores[i] > scores[best]):
                best = i
        if best < 0:
            break
        js[I_CANDS + m] = buf[best]
        scores[best] = NEG
        m += 1
    return m


@kernel
def search_action(st, cfg, comp, rng, par, buf, n, fs, js, sim_rng):
    """Determinized Monte Carlo over the greedy interpreter's best moves: each playout
    samples the hidden information once (`determinize`) and plays every candidate from that
    sample with the same chance draws (common random numbers); `chosen` says whether a move
    leads the interpreter's own choice clearly enough. One number is drawn from the policy
    stream per search."""
    greedy = heuristic_action(st, cfg, comp, par, buf, n, fs, js)
    if st[E.PHASE] == E.PH_KEEP:
        return greedy
    m = search_candidates(st, cfg, comp, par, buf, n, greedy, fs, js)
    if m == 1:
        return greedy
    key = next_u64(rng, 1)
    me = st[E.CUR]
    last_round = st[E.ROUND] + int(par[P_DEPTH])
    rollouts = int(par[P_ROLLOUTS])
    world = shifted(js, I_WORLD)
    sim = shifted(js, I_SIM)
    sim_buf = shifted(js, I_SIM_BUF)
    sfs = shifted(fs, F_PLAY)
    sjs = shifted(js, I_PLAY)
    sjs[I_SEAT] = -1  # the playouts work their values out afresh
    row = shifted(fs, F_ROW)
    lead = shifted(fs, F_LEAD)
    lead_sq = shifted(fs, F_LEAD_SQ)
    for j in range(m):
        lead[j] = 0.0
        lead_sq[j] = 0.0
    for r in range(rollouts):
        for i in range(E.STATE_SIZE):
            world[i] = st[i]
        seed_stream(sim_rng, 0, key, 3 * r)
        determinize(world, cfg, comp, me, sim_rng, js)
        for j in range(m):
            for i in range(E.STATE_SIZE):
                sim[i] = world[i]
            seed_stream(sim_rng, 0, key, 3 * r + 1)
            seed_stream(sim_rng, 1, key, 3 * r + 2)
            k = E.step(sim, cfg, comp, sim_rng, js[I_CANDS + j], sim_buf)
            row[j] = playout(sim, cfg, comp, sim_rng, par, sim_buf, k, me, last_round, sfs,
                             sjs)
        add_leads(row, lead, lead_sq, m)
    return js[I_CANDS + chosen(lead, lead_sq, m, rollouts, par[P_MARGIN], par[P_Z])]


@kernel
def move_wins(st, cfg, comp, par, key, first, count, moves, m, width, fs, js, rs, wins,
              points, reach):
    """The mover's win shares and points scored at once, summed over rollouts first ..
    first+count-1 of each of the m moves, into wins[:m] and points[:m]. A move is `width`
    step actions in `moves` (row j from j * width, ended early by a negative one). Rollout
    r redeals what the mover cannot see once (`determinize`, from `key` and r only: never
    the game's own streams) and plays every move in that world with the same chance draws,
    its step actions and the forced moves after each (the points now; reach[j] sums the
    `position_digest` there), then every seat greedy with parameters `par` to the game's
    end (`playout`). (fs, js, rs): a scratch of
    `new_scratch`."""
    me = st[E.CUR]
    world = shifted(js, I_WORLD)
    sim = shifted(js, I_SIM)
    sim_buf = shifted(js, I_SIM_BUF)
    sfs = shifted(fs, F_PLAY)
    sjs = shifted(js, I_PLAY)
    sjs[I_SEAT] = -1  # the playouts work their values out afresh
    for r in range(first, first + count):
        for i in range(E.STATE_SIZE):
            world[i] = st[i]
        seed_stream(rs, 0, key, 3 * r)
        determinize(world, cfg, comp, me, rs, js)
        for j in range(m):
            for i in range(E.STATE_SIZE):
                sim[i] = world[i]
            seed_stream(rs, 0, key, 3 * r + 1)
            seed_stream(rs, 1, key, 3 * r + 2)
            before = E.score(sim, me)
            k = np.int64(0)  # (every move has a first step action)
            for a in range(width):
                if moves[j * width + a] >= 0 and sim[E.PHASE] != E.PH_OVER:
                    k = E.step(sim, cfg, comp, rs, moves[j * width + a], sim_buf)
            points[j] += E.score(sim, me) - before
            reach[j] += position_digest(sim, E.STATE_SIZE)
            playout(sim, cfg, comp, rs, par, sim_buf, k, me, NO_END, sfs, sjs)
            wins[j] += E.win_share(sim, cfg, me)


def rollout_wins(game, moves, key: int, first: int, count: int):
    """(win shares, points scored at once, position digests) of the seat to move in step game
    `game`, each
    summed over rollouts first .. first+count-1 of each move, a row of step actions of the
    2-d `moves` (padded with -1) (`move_wins`, every seat on the search kind's base: the
    bundled tuned weights for the player count), from `key` (a digest of what the seat
    sees) and the rollout numbers only. Reads the game's state, never its random streams;
    never changes it."""
    moves = np.asarray(moves, np.int64)
    wins, points, reach = (np.zeros(len(moves)) for _ in range(3))
    if len(moves):
        kinds = np.array([SEARCH], np.int64)
        params = np.array([DEFAULT_PARAMS["search"]], np.float64)
        on_base(kinds, params, game.config.players)
        fs, js, rs = new_scratch(game._cfg, game._comp)
        move_wins(game.state, game._cfg, game._comp, params[0], np.uint64(key),
                  np.int64(first), np.int64(count), moves.ravel(), np.int64(len(moves)),
                  np.int64(moves.shape[1]), fs, js, rs, wins, points, reach)
    return wins, points, reach


@kernel
def add_leads(row, lead, lead_sq, m):
    """Add one playout's values of the m candidates (row; row[0] the base's move) to the sums
    of each candidate's lead over the base's move and of its square (paired by sample)."""
    for j in range(m):
        d = row[j] - row[0]
        lead[j] += d
        lead_sq[j] += d * d


@kernel
def chosen(lead_sum, lead_sq, m, rollouts, margin, z):
    """The candidate (0 the base's move; m of them) with the best mean lead over the base's
    move, from `add_leads`' sums over `rollouts` playouts, when that lead exceeds `margin`
    plus `z` standard errors; else 0."""
    best = 0
    best_lead = 0.0
    for j in range(1, m):
        lead = lead_sum[j] / rollouts
        var = max(0.0, lead_sq[j] / rollouts - lead * lead) / max(1, rollouts - 1)
        if lead > best_lead and lead > margin + z * np.sqrt(var):
            best = j
            best_lead = lead
    return best


def on_base(kinds, params, players: int) -> None:
    """Give every `search` row of a line-up's parameter table with `base` = 1 the bundled
    tuned policy's interpreter parameters (those before `rollouts`) for `players` players, in
    place, so that where it does not search it plays the tuned move; none bundled: as given."""
    from ..tuning import bundled_tuned

    rows = [i for i, kind in enumerate(kinds) if kind == SEARCH and params[i, P_BASE] == 1]
    tuned = bundled_tuned("shutterbug", f"tuned-{players}p") if rows else None
    if tuned is None:  # (the file is read only where a row takes it: every run asks)
        return
    for i in rows:
        params[i, :P_ROLLOUTS] = tuned[1][:P_ROLLOUTS]


@kernel(inline="always")
def decide(st, cfg, comp, rng, kind, par, buf, n, fs, js, rs, search=None):
    """The action policy `kind` with parameters `par` takes among buf[:n], working in the
    scratch (fs, js, rs) of `new_scratch`. `search` is True when the line-up seats the search
    kind, else None: numba then drops its branch, so line-ups without it never compile it."""
    if kind == RANDOM:
        return buf[randint(rng, 1, n)]
    if kind == SEARCH:
        if search is not None:
            return search_action(st, cfg, comp, rng, par, buf, n, fs, js, rs)
        raise ValueError("a line-up seating a search policy passes search=True")
    return heuristic_action(st, cfg, comp, par, buf, n, fs, js)


@kernel
def policy_action(st, cfg, comp, rng, kind, par, buf, n, search=None):
    """The action policy `kind` with parameters `par` takes among buf[:n] (one decision:
    a scratch of its own); `search` as for `decide`."""
    fs, js, rs = new_scratch(cfg, comp)
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    return decide(st, cfg, comp, rng, kind, par, buf, n, pointer(fs), pointer(js), pointer(rs),
                  search)
