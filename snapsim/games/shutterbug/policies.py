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
  the first step of the best route is taken;
- starting cities (set-up, an empty board): the one with the most target-creature spaces
  near it (within 3 steps, nearer counts more), weighted up by the tips in hand that show
  those creatures;
- tips paid, discarded, swapped and traded away are the ones worth least to keep;
- `trader` starts a trade when its least useful tip is worth less than a random unseen
  tip, and values spaces holding other pawns (`seek`).
"""

import numpy as np
from numba import njit

from ...sim.kernel import Param, randint
from . import engine as E

RANDOM, GREEDY, TRADER, LOOKAHEAD = 0, 1, 2, 3
KIND_NAMES = ("random", "greedy", "trader", "lookahead")

# Each parameter with its valid range, from its meaning: values and weights 0-100 (a negative
# weight would seek what scores less), thresholds -100..100, the trade switch 0 or 1.
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
)
N_PARAMS = len(PARAM_NAMES)
(P_W_ASSIGN, P_W_OFF, P_W_JOB, P_TIP_VALUE, P_W_CITY, P_TRADE, P_TRADE_MARGIN, P_SEEK, P_LOOK,
 P_SWAP_MAX) = range(N_PARAMS)

_BASE = (1.0, 0.25, 1.0, 0.6, 1.0, 0.0, 0.1, 0.0, 0.0, 0.5)
DEFAULT_PARAMS = {
    "random": _BASE,
    "greedy": _BASE,
    "trader": _BASE[:5] + (1.0, 0.1, 0.3) + _BASE[8:],
    "lookahead": _BASE[:8] + (0.5,) + _BASE[9:],
}
NEG = -1e18
HORIZON = 3  # route steps planned (the rulebook's 3; longer custom moves re-plan)
TIP_COUNTS = 9  # routes are told apart by the city tips they draw: 0..7, 8 or more


# ---------------------------------------------------------------- values


@njit(cache=True)
def creature_weights(st, cfg, comp, par, p, w):
    """Target the side with the least quality still missing (ties: more points now)."""
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
        w[c] = par[P_W_OFF]
    for i in range(E.SIDE_N):
        cre, need = E.side_entry(comp, a, best_side, i)
        w[cre] = par[P_W_ASSIGN]


@njit(cache=True)
def tile_value(st, cfg, comp, par, m, w, t):
    """What photographing tile t is worth to team slot m, less the tips it costs."""
    cre = comp[E.K_TILE_CRE + t]
    ter = comp[E.K_TILE_TER + t]
    q = comp[E.K_TILE_Q + t]
    v = w[cre] * q - par[P_TIP_VALUE] * q
    floor = -1  # with every marker placed, only a better-paid job is worth working toward
    if comp[E.K_N_JOBS] > cfg[E.C_MARKERS]:
        mask, count, _ = E.marked_jobs(st, cfg, comp, m)
        if count == cfg[E.C_MARKERS]:
            floor = 1 << 30
            for j in range(comp[E.K_N_JOBS]):
                if (mask >> j) & 1:
                    floor = min(floor, E.job_points(comp, j))
    for j in range(comp[E.K_N_JOBS]):
        got, need = E.job_progress(st, comp, m, j, -1, -1, 0)
        if got < need and E.job_points(comp, j) > floor:
            got2, _ = E.job_progress(st, comp, m, j, cre, ter, q)
            v += par[P_W_JOB] * E.job_points(comp, j) * (got2 - got) / need
    return v


@njit(cache=True)
def keep_values(st, comp, w, kv):
    """How much each tip type is worth keeping: its creature's weight, plus a little per
    board tile showing its creature or terrain."""
    bc = np.zeros(E.N_CREATURES)
    bt = np.zeros(E.N_TERRAINS)
    for t in range(E.N_TILES):
        if st[E.TILE_LOC + t] == E.T_BOARD:
            bc[comp[E.K_TILE_CRE + t]] += 0.05
            bt[comp[E.K_TILE_TER + t]] += 0.05
    for u in range(E.N_TYPES):
        kv[u] = w[E.tip_creature(u)] + bc[E.tip_creature(u)] + bt[E.tip_terrain(u)]


@njit(cache=True)
def cheapest(buf, n, kind, kv):
    """The action of `kind` whose tip type is worth least to keep (-1: none)."""
    best = -1
    best_v = 1e18
    for i in range(n):
        if buf[i] // E.BASE == kind and kv[buf[i] % E.BASE] < best_v:
            best_v = kv[buf[i] % E.BASE]
            best = buf[i]
    return best


@njit(cache=True)
def space_values(st, cfg, comp, par, p, w, v):
    """Best affordable tile value on each space (0 if none, or if a tile was taken there this
    turn), plus `seek` for other pawns."""
    m = E.team(cfg, p)
    v[:] = 0.0
    for t in range(E.N_TILES):
        s = comp[E.K_TILE_SPACE + t]
        if st[E.TILE_LOC + t] == E.T_BOARD and E.photo_open(st, s) \
                and E.can_afford(st, comp, p, t):
            v[s] = max(v[s], tile_value(st, cfg, comp, par, m, w, t))
    if par[P_TRADE] > 0 and cfg[E.C_TRADING] == 1 and st[E.N_HAND + p] > 0:
        for q in range(E.n_players(cfg)):
            if q != p:
                for k in range(cfg[E.C_PAWNS]):
                    s = st[E.PAWN + q * E.MAX_PAWNS + k]
                    if st[E.N_HAND + q] > 0:
                        v[s] += par[P_SEEK]


@njit(cache=True)
def reach_values(comp, v, r):
    """Best space value within 3 steps of each space (next turn's prospects)."""
    ns = comp[E.K_N_SPACES]
    r[:ns] = v[:ns]
    tmp = np.empty(ns)
    for _ in range(HORIZON):
        tmp[:] = r[:ns]
        for s in range(ns):
            for i in range(E.MAX_DEGREE):
                a = E.adjacent(comp, s, i)
                if a >= 0 and tmp[a] > r[s]:
                    r[s] = tmp[a]


@njit(cache=True)
def tip_worth(st, cfg, par, p):
    """Value of one more tip: little once the hand is at its limit."""
    return par[P_TIP_VALUE] if st[E.N_HAND + p] < cfg[E.C_HAND_LIMIT] else 0.1 * par[P_TIP_VALUE]


@njit(cache=True)
def best_routes(st, cfg, comp, par, v, r, k, horizon, vals, first):
    """Best route of each length 0..horizon (at most 3) and each number of city tips drawn
    on it (TIP_COUNTS - 1 or more share the last count) for pawn k, by enumeration: a route
    scores the spaces it enters, tips from cities passed and ended on, the city bonus in the
    last round and (lookahead) next turn's prospects from its end. `first` keeps each
    route's first step."""
    p = st[E.CUR]
    p0 = st[E.PAWN + p * E.MAX_PAWNS + k]
    tip = tip_worth(st, cfg, par, p)
    last = st[E.ROUND] == cfg[E.C_ROUNDS] - 1
    bonus = par[P_W_CITY] * cfg[E.C_CITY_BONUS] if last else 0.0
    look = 0.0 if last else par[P_LOOK]
    ns = comp[E.K_N_SPACES]
    end = np.empty(ns)  # value of ending on a space entered this turn
    pas = np.zeros(ns)  # value of passing through it
    end_t = np.zeros(ns, np.int64)  # tips drawn for ending there
    pas_t = np.zeros(ns, np.int64)  # ... for passing through
    for s in range(ns):
        end[s] = look * r[s]
        if E.is_city(comp, s):
            end[s] += tip * cfg[E.C_END_TIPS] + bonus
            pas[s] = tip * cfg[E.C_PASS_TIPS]
            end_t[s] = cfg[E.C_END_TIPS]
            pas_t[s] = cfg[E.C_PASS_TIPS]
    block = st[E.VISITED + k]
    for j in range(cfg[E.C_PAWNS]):
        if j != k:
            block |= 1 << st[E.PAWN + p * E.MAX_PAWNS + j]
    vals[:] = NEG
    entered0 = p0 != st[E.START + k]
    if entered0:
        _keep(vals, first, 0, end_t[p0], end[p0], -1)
    else:
        _keep(vals, first, 0, 0, look * r[p0] + (bonus if E.is_city(comp, p0) else 0.0), -1)
    if horizon == 0:
        return
    acc0 = pas[p0] if entered0 else 0.0
    t0 = pas_t[p0] if entered0 else 0
    for i in range(E.MAX_DEGREE):
        a = E.adjacent(comp, p0, i)
        if a < 0 or (block >> a) & 1:
            continue
        acc1 = acc0 + v[a]
        _keep(vals, first, 1, t0 + end_t[a], acc1 + end[a], a)
        if horizon == 1:
            continue
        b1 = block | (1 << a)
        acc1 += pas[a]
        t1 = t0 + pas_t[a]
        for j in range(E.MAX_DEGREE):
            b = E.adjacent(comp, a, j)
            if b < 0 or (b1 >> b) & 1:
                continue
            acc2 = acc1 + v[b]
            _keep(vals, first, 2, t1 + end_t[b], acc2 + end[b], a)
            if horizon == 2:
                continue
            b2 = b1 | (1 << b)
            acc2 += pas[b]
            t2 = t1 + pas_t[b]
            for m in range(E.MAX_DEGREE):
                c = E.adjacent(comp, b, m)
                if c < 0 or (b2 >> c) & 1:
                    continue
                _keep(vals, first, 3, t2 + end_t[c], acc2 + v[c] + end[c], a)


@njit(cache=True)
def _keep(vals, first, length, tips, value, step):
    t = min(tips, TIP_COUNTS - 1)
    if value > vals[length, t]:
        vals[length, t] = value
        first[length, t] = step


@njit(cache=True)
def planned_step(st, cfg, comp, par, p):
    """The first step of the best route for the rest of the turn (both pawns in the team
    game), or -1 to stop. Tips past the turn's limit are not drawn, so they count for
    nothing. The route is planned afresh at every step from what the player sees now, so
    asking for a move never writes to the game."""
    w = np.empty(E.N_CREATURES)
    creature_weights(st, cfg, comp, par, p, w)
    ns = comp[E.K_N_SPACES]
    v = np.zeros(ns)
    space_values(st, cfg, comp, par, p, w, v)
    r = np.zeros(ns)
    if par[P_LOOK] > 0:
        reach_values(comp, v, r)
    horizon = min(HORIZON, cfg[E.C_MAX_STEPS] - st[E.STEPS])
    must = 1 if st[E.STEPS] == 0 else 0
    pawns = cfg[E.C_PAWNS]
    vals = np.full((E.MAX_PAWNS, HORIZON + 1, TIP_COUNTS), NEG)
    first = np.full((E.MAX_PAWNS, HORIZON + 1, TIP_COUNTS), -1, np.int64)
    vals[1, 0, 0] = 0.0  # a missing second pawn stays put
    for k in range(pawns):
        best_routes(st, cfg, comp, par, v, r, k, horizon, vals[k], first[k])
    left = cfg[E.C_TURN_TIPS] - st[E.TURN_TIPS] if cfg[E.C_TURN_TIPS] > 0 else 1 << 30
    tip = tip_worth(st, cfg, par, p)
    best = NEG
    step = -1
    for l0 in range(horizon + 1):
        for l1 in range(horizon + 1 - l0):
            if l0 + l1 < must:
                continue
            for t0 in range(TIP_COUNTS):
                for t1 in range(TIP_COUNTS):
                    if vals[0, l0, t0] == NEG or vals[1, l1, t1] == NEG:
                        continue
                    tot = vals[0, l0, t0] + vals[1, l1, t1] - tip * max(0, t0 + t1 - left)
                    if tot > best:
                        best = tot
                        step = first[0, l0, t0] if l0 > 0 else (
                            64 + first[1, l1, t1] if l1 > 0 else -1)
    return step


# ---------------------------------------------------------------- decisions


@njit(cache=True)
def _find(buf, n, action):
    for i in range(n):
        if buf[i] == action:
            return True
    return False


@njit(cache=True)
def move_action(st, cfg, comp, par, buf, n, kv):
    if st[E.SWAPS_LEFT] > 0:
        a = cheapest(buf, n, E.A_SWAP, kv)
        if a >= 0 and kv[a % E.BASE] <= par[P_SWAP_MAX]:
            return a
    target = planned_step(st, cfg, comp, par, st[E.CUR])
    if target >= 0 and _find(buf, n, E.A_MOVE * E.BASE + target):
        return E.A_MOVE * E.BASE + target
    if _find(buf, n, E.A_STOP * E.BASE):
        return E.A_STOP * E.BASE
    return buf[0]


@njit(cache=True)
def trade_action(st, cfg, comp, par, buf, n, kv):
    """Trade the least useful tip when a random unseen tip is worth more on average."""
    if par[P_TRADE] <= 0:
        return E.A_NO_TRADE * E.BASE
    p = st[E.CUR]
    give = cheapest(buf, n, E.A_TRADE, kv)
    unseen = np.zeros(E.N_TYPES)
    for i in range(E.N_TIPS):
        unseen[comp[E.K_TIP_TYPE + i]] += 1.0
    tot = 0.0
    cnt = 0.0
    for u in range(E.N_TYPES):
        k = unseen[u] - E.hand(st, p, u) - st[E.DISC + u]
        if k > 0:
            tot += k * kv[u]
            cnt += k
    if cnt > 0 and kv[give % E.BASE] + par[P_TRADE_MARGIN] < tot / cnt:
        return give
    return E.A_NO_TRADE * E.BASE


@njit(cache=True)
def photo_action(st, cfg, comp, par, buf, n, w):
    m = E.team(cfg, st[E.CUR])
    best = E.A_SKIP * E.BASE
    best_v = 0.0
    for i in range(n):
        if buf[i] // E.BASE == E.A_PHOTO:
            val = tile_value(st, cfg, comp, par, m, w, buf[i] % E.BASE)
            if val > best_v:
                best_v = val
                best = buf[i]
    return best


@njit(cache=True)
def keep_action(st, comp, buf, n):
    """Solo: keep the offered card whose easier side asks for the least quality."""
    best = buf[0]
    best_need = 1 << 30
    for i in range(n):
        a = st[E.OFFER + buf[i] % E.BASE]
        for side in range(2):
            need = 0
            for j in range(E.SIDE_N):
                need += E.side_entry(comp, a, side, j)[1]
            if need < best_need:
                best_need = need
                best = buf[i]
    return best


@njit(cache=True)
def within(comp, s, steps):
    """Bitmask of the spaces at most `steps` moves from s."""
    mask = 1 << s
    for _ in range(steps):
        grown = mask
        for x in range(comp[E.K_N_SPACES]):
            if (mask >> x) & 1:
                for i in range(E.MAX_DEGREE):
                    a = E.adjacent(comp, x, i)
                    if a >= 0:
                        grown |= 1 << a
        mask = grown
    return mask


@njit(cache=True)
def city_action(st, comp, buf, n, w):
    """Set-up (the board is still empty): the city with the most promising wilderness
    nearby. A space d steps away (d <= 3) counts its silhouette creature's weight, once more
    for each tip in hand showing that creature (a photo there needs one first), over d."""
    p = st[E.CUR]
    best = buf[0]
    best_v = NEG
    for i in range(n):
        s = buf[i] % 64
        val = 0.0
        for d in range(1, HORIZON + 1):
            ring = within(comp, s, d) & ~within(comp, s, d - 1)
            for x in range(comp[E.K_N_SPACES]):
                cre = comp[E.K_SCRE + x]
                if (ring >> x) & 1 and cre >= 0:
                    have = 0
                    for ter in range(E.N_TERRAINS):
                        have += E.hand(st, p, cre * E.N_TERRAINS + ter)
                    val += w[cre] * (1 + have) / d
        if val > best_v:
            best_v = val
            best = buf[i]
    return best


@njit(cache=True)
def heuristic_action(st, cfg, comp, par, buf, n):
    p = st[E.CUR]
    ph = st[E.PHASE]
    if ph == E.PH_KEEP:
        return keep_action(st, comp, buf, n)
    w = np.empty(E.N_CREATURES)
    creature_weights(st, cfg, comp, par, p, w)
    if ph == E.PH_CITY:
        return city_action(st, comp, buf, n, w)
    if ph == E.PH_PHOTO:
        return photo_action(st, cfg, comp, par, buf, n, w)
    kv = np.empty(E.N_TYPES)
    keep_values(st, comp, w, kv)
    if ph == E.PH_MOVE:
        return move_action(st, cfg, comp, par, buf, n, kv)
    if ph == E.PH_TRADE:
        return trade_action(st, cfg, comp, par, buf, n, kv)
    if ph == E.PH_PAY:
        return cheapest(buf, n, E.A_PAY, kv)
    return cheapest(buf, n, E.A_DISCARD, kv)


@njit(cache=True)
def policy_action(st, cfg, comp, rng, kind, par, buf, n):
    """The action policy `kind` with parameters `par` takes among buf[:n]."""
    if kind == RANDOM:
        return buf[randint(rng, 1, n)]
    return heuristic_action(st, cfg, comp, par, buf, n)
