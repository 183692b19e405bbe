"""Yosemite policies: a kind plus a small float vector, interpreted by njit code.

- `random` picks uniformly among the legal actions.
- `greedy` plans its turn once (one ply): for every square it can reach by eating fish it
  values each explore choice there (the tile collected: progress toward the face-up photos,
  judges, its bonus; a landmark token by the chart; the square it ends on, for next turn)
  less the fish eaten, walks there and plays the best; pushes leave the opponent on the
  square worth least to them, the camera takes the best photo and discards drop the tile
  worth least.
- `rollout` is a Monte Carlo player: every legal action is tried in `rollouts` games played
  to the end by greedy players, on a reshuffled copy of the hidden decks (the same rollout
  seeds for every action), and the best mean result (win share plus a little score margin)
  is played. Deterministic for a seed: its randomness comes from the policy stream.
"""

import numpy as np
from numba import njit

from ...sim.kernel import next_u64, randint
from . import engine as E

RANDOM, GREEDY, ROLLOUT = 0, 1, 2
KIND_NAMES = ("random", "greedy", "rollout")

PARAM_NAMES = (
    "fish_value",  # points one fish is worth (gained by Explore A or a fish tile, spent moving)
    "w_photo",  # weight of progress toward the face-up photos
    "w_judge",  # points per tile of a judged animal
    "w_landmark",  # weight of the next chart step a landmark token could still gain
    "w_next",  # weight of the square a move ends on (what it offers next turn)
    "w_tent",  # weight of camping points a tent moves
    "rollouts",  # rollout: games per legal action
)
N_PARAMS = len(PARAM_NAMES)
P_FISH, P_PHOTO, P_JUDGE, P_LANDMARK, P_NEXT, P_TENT, P_ROLLOUTS = range(N_PARAMS)
_BASE = (0.6, 1.0, 0.4, 0.8, 0.3, 1.0, 8.0)
DEFAULT_PARAMS = {"random": _BASE, "greedy": _BASE, "rollout": _BASE}
NEG = -1e18


# ---------------------------------------------------------------- values


@njit(cache=True)
def photo_gain(st, comp, par, p, ph):
    """Points a photo brings p now: its own points and the landmark chart step it adds."""
    lm = comp[E.K_PHOTO_LM + ph]
    m = st[E.LM_MATCH + p * E.N_LM + lm]
    step = E.chart_value(comp, m + 1) - E.chart_value(comp, m)
    v = float(comp[E.K_POINTS + ph])
    if st[E.LM_OWNER + lm] == p:
        v += step
    elif st[E.LM_OWNER + lm] < 0:
        v += 0.5 * par[P_LANDMARK] * step
    return v


@njit(cache=True)
def camp_margin(st, comp, camp, p):
    """p's camping points minus the opponent's for a token position."""
    mine = camp * (1 if p == 0 else -1)
    if mine > 0:
        return float(comp[E.K_TRACK + mine - 1])
    if mine < 0:
        return -float(comp[E.K_TRACK - mine - 1])
    return 0.0


@njit(cache=True)
def tent_value(st, comp, p):
    """Camping margin a tent icon adds for p (a tent token once the token is on p's end)."""
    sign = 1 if p == 0 else -1
    mine = st[E.CAMP] * sign
    if mine == comp[E.K_TRACK_LEN]:
        return 1.0 if st[E.TENT_SUPPLY] > 0 else 0.0
    after = 1 if (mine == 0 or mine == -1) else mine + 1
    return camp_margin(st, comp, after * sign, p) - camp_margin(st, comp, st[E.CAMP], p)


@njit(cache=True)
def landmark_value(st, comp, par, p, lm):
    m = st[E.LM_MATCH + p * E.N_LM + lm]
    return E.chart_value(comp, m) + par[P_LANDMARK] * (E.chart_value(comp, m + 1)
                                                       - E.chart_value(comp, m))


@njit(cache=True)
def tile_values(st, cfg, comp, par, p, out):
    """out[t] for every tile t: what collecting it is worth to p now (landmark tiles: the
    token's worth if it lies there)."""
    tg = np.zeros(E.N_ANIMALS)
    cam = np.zeros(E.N_ANIMALS)
    for a in range(E.N_ANIMALS):
        tg[a] = par[P_JUDGE] * st[E.JUDGE_IN + a]
    hand = st[E.HAND + p * E.N_ANIMALS:E.HAND + (p + 1) * E.N_ANIMALS]
    for s in range(cfg[E.C_SLOTS]):
        ph = st[E.SLOT + s]
        if ph < 0:
            continue
        g = photo_gain(st, comp, par, p, ph)
        miss = 0
        pairs = 0
        for a in range(E.N_ANIMALS):
            k = E.need(comp, ph, a)
            miss += max(0, k - hand[a])
            pairs += max(0, hand[a] - k) // 2
        for a in range(E.N_ANIMALS):  # one more tile of a: one fewer missing, or maybe a pair
            k = E.need(comp, ph, a)
            if hand[a] < k:
                m, pr = miss - 1, pairs
            else:
                m, pr = miss, pairs + (hand[a] - k + 1) // 2 - (hand[a] - k) // 2
            tg[a] += par[P_PHOTO] * g * (1.0 / (1 + m) - 1.0 / (1 + miss))
            if (m == 0 or (cfg[E.C_WILDS] == 1 and pr >= m)) and g > cam[a]:
                cam[a] = g
    fish = par[P_FISH] if st[E.FISH + p] < comp[E.K_MAX_FISH] else 0.0
    tent = par[P_TENT] * tent_value(st, comp, p)
    for t in range(E.N_TILES):
        a = comp[E.K_TILE_ANIMAL + t]
        b = comp[E.K_TILE_BONUS + t]
        out[t] = tg[a] + (fish if b == E.B_FISH else tent if b == E.B_TENT else
                          cam[a] if b == E.B_CAMERA else 0.0)
    for lm in range(E.N_LM):
        tok = st[E.LM_TOKEN_ON + lm] == 1
        out[E.N_TILES + lm] = landmark_value(st, comp, par, p, lm) if tok else 0.0


@njit(cache=True)
def square_value(st, tv, s):
    t = st[E.PARK + s]
    return tv[t] if t >= 0 else 0.0


# ---------------------------------------------------------------- the turn plan


@njit(cache=True)
def plan(st, cfg, comp, par, fish):
    """Best (square reached by eating up to `fish` fish, explore action there); stored in the
    state's plan fields."""
    p = st[E.CUR]
    opp = st[E.POS + 1 - p]
    tv = np.empty(E.N_ALL_TILES)
    tile_values(st, cfg, comp, par, p, tv)
    dist = np.empty(E.N_SQ, np.int64)
    sd, sq = E.scratch(st)
    E.distances(st[E.POS + p], opp, fish, dist, sq)
    dests = np.empty(E.MAX_LEGAL, np.int64)
    gain_fish = par[P_FISH] if st[E.FISH + p] < comp[E.K_MAX_FISH] else 0.0
    best_v = NEG
    best_q = st[E.POS + p]
    best_a = -1
    for q in range(E.N_SQ):
        if dist[q] < 0:
            continue
        cost = par[P_FISH] * dist[q]
        for d in range(4):  # Explore A
            nb = E.neighbour(q, d)
            if nb >= 0 and nb != opp:
                v = gain_fish + par[P_NEXT] * square_value(st, tv, nb) - cost
                if v > best_v:
                    best_v, best_q, best_a = v, q, E.A_STEP * 64 + d
        a = E.tile_animal(st, comp, q)
        if a >= 0:  # Explore B
            k = E.animal_dests(q, opp, a, dests, 0, sd, sq)
            for i in range(k):
                dest = dests[i] % 64
                v = tv[st[E.PARK + q]] + par[P_NEXT] * square_value(st, tv, dest) - cost
                if v > best_v:
                    best_v, best_q, best_a = v, q, dests[i]
        else:  # Explore C
            lm = E.tile_landmark(st, q)
            if st[E.LM_TOKEN_ON + lm] == 1:
                v = tv[st[E.PARK + q]] - cost
                if v > best_v:
                    best_v, best_q, best_a = v, q, E.A_LANDMARK * 64
    st[E.PLAN_TARGET] = best_q
    st[E.PLAN_ACTION] = best_a
    st[E.PLAN_READY] = 1


@njit(cache=True)
def _find(buf, n, action):
    for i in range(n):
        if buf[i] == action:
            return True
    return False


@njit(cache=True)
def greedy_action(st, cfg, comp, par, buf, n):
    ph = st[E.PHASE]
    p = st[E.CUR]
    pos = st[E.POS + p]
    if ph == E.PH_FISH or ph == E.PH_EXPLORE:
        if st[E.PLAN_READY] == 0 or (ph == E.PH_EXPLORE and pos != st[E.PLAN_TARGET]):
            plan(st, cfg, comp, par, st[E.FISH + p] if ph == E.PH_FISH else 0)
        if ph == E.PH_FISH:
            target = st[E.PLAN_TARGET]
            if pos == target:
                return E.A_STOP_EATING * 64
            dist, queue = E.scratch(st)
            E.distances(target, st[E.POS + 1 - p], E.N_SQ, dist, queue)
            for d in range(4):
                nb = E.neighbour(pos, d)
                if nb >= 0 and dist[nb] == dist[pos] - 1 and _find(buf, n, E.A_EAT * 64 + d):
                    return E.A_EAT * 64 + d
            return E.A_STOP_EATING * 64
        return st[E.PLAN_ACTION] if _find(buf, n, st[E.PLAN_ACTION]) else buf[0]
    if ph == E.PH_PLACE or ph == E.PH_PUSH:
        # start square: the tile worth most to me; push: the square worth least to them
        who = p if ph == E.PH_PLACE else 1 - p
        tv = np.empty(E.N_ALL_TILES)
        tile_values(st, cfg, comp, par, who, tv)
        sign = 1.0 if ph == E.PH_PLACE else -1.0
        best = buf[0]
        best_v = NEG
        for i in range(n):
            s = buf[i] % 64 if buf[i] // 64 != E.A_NO_PUSH else st[E.POS + 1 - p]
            v = sign * square_value(st, tv, s)
            if v > best_v:
                best, best_v = buf[i], v
        return best
    if ph == E.PH_CAMERA:
        best = E.A_NO_PHOTO * 64
        best_v = 0.0
        for i in range(n):
            if buf[i] // 64 == E.A_PHOTO:
                v = photo_gain(st, comp, par, p, st[E.SLOT + buf[i] % 64])
                if v > best_v:
                    best, best_v = buf[i], v
        return best
    if ph == E.PH_DISCARD:
        tv = np.empty(E.N_ALL_TILES)
        tile_values(st, cfg, comp, par, p, tv)
        keep = np.full(E.N_ANIMALS, -NEG)
        for t in range(E.N_TILES):  # an animal's worth: its tiles' worth without the bonus
            a = comp[E.K_TILE_ANIMAL + t]
            keep[a] = min(keep[a], tv[t])
        best = buf[0]
        for i in range(n):
            if keep[buf[i] % 64] < keep[best % 64]:
                best = buf[i]
        return best
    return buf[0]


# ---------------------------------------------------------------- Monte Carlo


@njit(cache=True)
def determinize(st, rng):
    """Reshuffle what no player can see: the tile deck and the unseen photos (deck + box)."""
    E.shuffle(rng, st[E.DECK:E.DECK + st[E.N_DECK]], st[E.N_DECK])
    unseen = np.empty(E.N_PHOTOS, np.int64)
    k = 0
    for ph in range(E.N_PHOTOS):
        if st[E.PHOTO_LOC + ph] == E.P_BOX or st[E.PHOTO_LOC + ph] == E.P_DECK:
            unseen[k] = ph
            k += 1
    E.shuffle(rng, unseen, k)
    n_deck = st[E.N_PHOTO_DECK]
    for i in range(k):
        ph = unseen[i]
        if i < k - n_deck:
            st[E.PHOTO_LOC + ph] = E.P_BOX
        else:
            st[E.PHOTO_LOC + ph] = E.P_DECK
            st[E.PHOTO_DECK + i - (k - n_deck)] = ph


@njit(cache=True)
def rollout_action(st, cfg, comp, rng, par, buf, n):
    p = st[E.CUR]
    r = max(1, int(par[P_ROLLOUTS]))
    seeds = np.empty(r, np.uint64)
    for j in range(r):
        seeds[j] = next_u64(rng, 1)
    buf2 = np.empty(E.MAX_LEGAL, np.int64)
    rng2 = np.empty(2, np.uint64)
    best = buf[0]
    best_v = NEG
    for i in range(n):
        total = 0.0
        for j in range(r):
            rng2[0] = seeds[j]
            rng2[1] = seeds[j] ^ np.uint64(0x5DEECE66D)
            sim = st.copy()
            determinize(sim, rng2)
            m = E.step(sim, cfg, comp, rng2, buf[i], buf2)
            sim[E.PLAN_READY] = 0
            while sim[E.PHASE] != E.PH_OVER:
                m = E.step(sim, cfg, comp, rng2, greedy_action(sim, cfg, comp, par, buf2, m),
                           buf2)
            total += E.win_shares(sim)[p] + 0.01 * (E.score(sim, p) - E.score(sim, 1 - p))
        if total > best_v:
            best, best_v = buf[i], total
    return best


@njit(cache=True)
def policy_action(st, cfg, comp, rng, kind, par, buf, n):
    """The action policy `kind` with parameters `par` takes now, given the n legal actions in
    buf (as `engine.step` leaves them); always one of them."""
    if kind == RANDOM:
        return buf[randint(rng, 1, n)]
    if kind == ROLLOUT:
        return rollout_action(st, cfg, comp, rng, par, buf, n)
    return greedy_action(st, cfg, comp, par, buf, n)
