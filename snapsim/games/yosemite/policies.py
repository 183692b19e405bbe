"""Yosemite policies: a kind plus a small float vector, interpreted by njit code.

- `random` picks uniformly among the legal actions.
- `greedy` plans its turn (one ply): for every square it can reach by eating fish it values
  each explore choice there (the tile collected: progress toward the face-up photos, judges,
  its bonus; a landmark token by the chart; the square it ends on, for next turn) less the
  fish eaten, walks there and plays the best; pushes leave the opponent on the square worth
  least to them by the tiles it has seen them take; the camera takes the photo worth most
  net of the tiles it costs, paid with the tiles worth least kept (judges, other photos);
  discards drop the tile worth least. The turn's plan (square, explore choice and the way
  there) is made once, at the turn's first move, and kept in the policies' memory; it is
  made again only if the pawn ends its eating elsewhere.
- `rollout` is a Monte Carlo player: every legal action is tried in `rollouts` games played
  to the end by greedy players, each on a copy whose hidden part is sampled afresh (the
  opponent's unseen tiles, the deck order, the unseen photos; the same rollout seeds for
  every action), and the best mean result (win share plus a little score margin) is played.
  Deterministic for a seed: its randomness comes from the policy stream.
- `search` improves on a base greedy player (by default the bundled tuned-2p weights) where
  it doubts it: at the turn's move (eating fish, then exploring) its candidates are the base's
  `candidates` best plans (square and explore choice), elsewhere (start square, push, camera,
  payment, discard) every legal action when there are no more than `candidates`; each is
  played out `rollouts` times to the end by base players on the same sampled hidden parts
  (common random numbers), and a candidate replaces the base's move only when its mean result
  beats the base's by more than `margin`. A few noisy playouts thus never override a strong
  base on a whim, and a search costs candidates x rollouts playouts. The plan it picks is
  kept in the memory as greedy's is, so a turn's move is searched once.

Every seat decides from what it may see: the public table, its own hand, and of the opponent's
hand only the size and the tiles it took face up from the park (`engine.SEEN`).
"""

from pathlib import Path

import numpy as np
from numba import njit

from ...sim.kernel import (
    Param,
    as_floats,
    as_uints,
    kernel,
    mix_seed,
    next_u64,
    pointer,
    position_digest,
    randint,
    shifted,
)
from ..tuning import read_tuned
from . import engine as E

RANDOM, GREEDY, ROLLOUT, SEARCH = 0, 1, 2, 3
KIND_NAMES = ("random", "greedy", "rollout", "search")

# Each parameter with its valid range, from its meaning: values and weights 0-100 (a negative
# weight would seek what scores less), rollouts and candidates whole numbers.
PARAM_NAMES = (
    # 0-100: points one fish is worth (gained by Explore A or a fish tile, spent moving)
    Param("fish_value", 0, 100),
    Param("w_photo", 0, 100),  # 0-100: weight of progress toward the face-up photos
    Param("w_judge", 0, 100),  # 0-100: points per tile of a judged animal
    Param("w_landmark", 0, 100),  # 0-100: weight of the next chart step a landmark token could gain
    Param("w_next", 0, 100),  # 0-100: weight of the square a move ends on (what it offers next)
    Param("w_tent", 0, 100),  # 0-100: weight of camping points a tent moves
    Param("rollouts", 1, 100, whole=True),  # 1-100: rollout, search: games per candidate
    Param("candidates", 1, 16, whole=True),  # 1-16: search: moves played out (1: the base)
    # 0-100: search: what a candidate's mean result (win share + score margin / 100) must
    # add to the base's
    Param("margin", 0, 100),
)
N_PARAMS = len(PARAM_NAMES)
(P_FISH, P_PHOTO, P_JUDGE, P_LANDMARK, P_NEXT, P_TENT, P_ROLLOUTS, P_CANDIDATES,
 P_MARGIN) = range(N_PARAMS)
_BASE = (0.6, 1.0, 0.4, 0.8, 0.3, 1.0, 8.0, 3.0, 0.05)
DEFAULT_PARAMS = {"random": _BASE, "greedy": _BASE, "rollout": _BASE}
# the search's base: the weights of the bundled tuned two-player policy; then its budget
# (rollouts, candidates, margin)
DEFAULT_PARAMS["search"] = read_tuned(
    "yosemite", Path(__file__).parent / "data" / "tuned-2p.toml")[1][:P_ROLLOUTS] + (4.0, 2.0, 0.15)
NEG = -1e18
# `tile_worths`: a value per tile kind (`engine.K_TILE_KIND`: by animal and bonus, then by
# landmark), then working rows
N_BONUS = E.N_BONUS
AV_LM = E.N_ANIMALS * N_BONUS
AV_WORK = AV_LM + E.N_LM
TV_SIZE = AV_WORK + 2 * E.N_ANIMALS


# the greedy player's working arrays in the action buffer's policy tail: moves (one square's
# animal moves), then as floats av (`tile_worths`) and sv (square values)
MOVES_AT = E.POLICY_AT
FLOATS_AT = MOVES_AT + E.MAX_LEGAL


@kernel
def work(buf):
    """The greedy player's working arrays: (moves, av, sv)."""
    av, sv = floats(buf)
    return shifted(buf, MOVES_AT), av, sv


@kernel
def floats(buf):
    """The greedy player's float working arrays: (av, sv)."""
    f = as_floats(shifted(buf, FLOATS_AT))
    return f, shifted(f, TV_SIZE)


# room for one plan in the policy tail, after the working arrays (`plans` rows of one)
BEST_AT = FLOATS_AT + TV_SIZE + E.N_SQ
assert BEST_AT + 4 <= E.BUF_SIZE

# ---------------------------------------------------------------- the policies' memory
# The turn's plan, kept between decisions by whoever drives the game (per thread in the batch,
# per game in the step API), never in the game state: asking a policy for a move changes
# nothing, and a saved game carries its memory.
M_TURN = 0  # the turn the plan is for (-1: none)
M_TARGET = 1  # the square it eats its way to
M_ACTION = 2  # the explore action there
M_PAY_TURN = 3  # the turn a photo's payment is planned for (-1: none)
M_PAY_SLOT = M_PAY_TURN + 1  # the photo's slot
M_PAY = M_PAY_SLOT + 1  # tiles of each animal to pay
PLAN_SIZE = M_PAY + E.N_ANIMALS
# then the rollout and search players' work space, written before it is read at every decision
# (laid out once per game with the memory, so a searched decision allocates nothing)
MAX_CANDIDATES = 16  # the `candidates` parameter's upper bound
W_RNG = PLAN_SIZE  # a playout's streams (two uint64)
W_SAMPLED = W_RNG + 2  # the streams as sampling left them, for every candidate of a sample
W_PLAN = W_SAMPLED + 2  # a playout's memory (its players' plans)
W_BUF = W_PLAN + PLAN_SIZE  # a playout's action buffer
W_SEEN = W_BUF + E.BUF_SIZE  # the sampled state every candidate starts from
W_SIM = W_SEEN + E.STATE_SIZE  # the state a playout plays on
W_TOTAL = W_SIM + E.STATE_SIZE  # each candidate's summed results (floats)
W_CAND = W_TOTAL + E.MAX_LEGAL  # the candidates' first actions
W_TQ = W_CAND + E.MAX_LEGAL  # turn candidates: the plans' squares, explore choices, keys
W_TA = W_TQ + MAX_CANDIDATES
W_TKEY = W_TA + MAX_CANDIDATES
W_TVAL = W_TKEY + MAX_CANDIDATES  # and values (floats)
W_POOL = W_TVAL + MAX_CANDIDATES  # `determinize`: the tiles, then the photos, it deals afresh
MEMORY_SIZE = W_POOL + E.N_TILES


@njit(cache=True)
def new_memory():
    """An empty memory (no plan) with the search's work space, as at the start of a game
    (all zero: a new game's memory is the same whatever ran before it)."""
    mem = np.zeros(MEMORY_SIZE, np.int64)
    clear_memory(mem)
    return mem


@kernel
def clear_memory(mem):
    """No plan (in a playout's memory, only the plan part)."""
    for i in range(PLAN_SIZE):
        mem[i] = 0
    mem[M_TURN] = -1
    mem[M_PAY_TURN] = -1


@kernel
def remember(st, mem, target, action):
    """Keep plan (target, action) for this turn (the way there is `eat_toward`'s)."""
    mem[M_TURN] = st[E.TURN]
    mem[M_TARGET] = target
    mem[M_ACTION] = action


# ---------------------------------------------------------------- values


@kernel
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


@kernel
def camp_margin(st, comp, camp, p):
    """p's camping points minus the opponent's for a token position."""
    mine = camp * (1 if p == 0 else -1)
    if mine > 0:
        return float(comp[E.K_TRACK + mine - 1])
    if mine < 0:
        return -float(comp[E.K_TRACK - mine - 1])
    return 0.0


@kernel
def tent_value(st, comp, p):
    """Camping margin a tent icon adds for p (a tent token once the token is on p's end)."""
    sign = 1 if p == 0 else -1
    mine = st[E.CAMP] * sign
    if mine == comp[E.K_TRACK_LEN]:
        return 1.0 if st[E.TENT_SUPPLY] > 0 else 0.0
    after = 1 if (mine == 0 or mine == -1) else mine + 1
    return camp_margin(st, comp, after * sign, p) - camp_margin(st, comp, st[E.CAMP], p)


@kernel
def landmark_value(st, comp, par, p, lm):
    m = st[E.LM_MATCH + p * E.N_LM + lm]
    return E.chart_value(comp, m) + par[P_LANDMARK] * (E.chart_value(comp, m + 1)
                                                       - E.chart_value(comp, m))


@kernel
def visible_hand(st, p):
    """p's tiles by animal as the opponent knows them: those taken face up from the park."""
    return shifted(st, E.SEEN_HAND + p * E.N_ANIMALS)


@kernel
def tile_worths(st, cfg, comp, par, p, hand, av):
    """What collecting a tile is worth to p, who holds `hand` (by animal), now, by its kind
    (`tile_value` reads it): an animal tile by its animal (progress toward the face-up photos,
    judges) and bonus (a fish, a tent, the photo a camera could take), a landmark tile by its
    token's worth if the token lies there. The last rows of av are working space."""
    tg = AV_WORK  # av[tg + a]: an animal tile's worth without its bonus
    cam = AV_WORK + E.N_ANIMALS  # av[cam + a]: the photo a camera there could take
    for a in range(E.N_ANIMALS):
        av[tg + a] = par[P_JUDGE] * st[E.JUDGE_IN + a]
        av[cam + a] = 0.0
    for s in range(cfg[E.C_SLOTS]):
        ph = st[E.SLOT + s]
        if ph < 0:
            continue
        g = photo_gain(st, comp, par, p, ph)
        need = shifted(comp, E.K_NEED + ph * E.N_ANIMALS)
        miss = 0
        pairs = 0
        for a in range(E.N_ANIMALS):
            extra = hand[a] - need[a]
            miss += max(0, -extra)
            pairs += max(0, extra) >> 1
        # one fewer missing: from 1 / (1 + miss) of the photo's gain to 1 / miss
        closer = par[P_PHOTO] * g * (1.0 / miss - 1.0 / (1 + miss)) if miss > 0 else 0.0
        # pairs standing in for missing animals (none without wilds: never enough)
        wild_pairs = pairs if cfg[E.C_WILDS] == 1 else -1
        # one more tile of a: one fewer missing, or one more pair (an odd surplus); written
        # without branches, as the hand makes them unpredictable
        for a in range(E.N_ANIMALS):
            extra = hand[a] - need[a]
            short = extra < 0
            m = miss - short
            pr = wild_pairs + (max(0, extra) & 1)
            av[tg + a] += closer if short else 0.0
            done = (m == 0) | (pr >= m)
            cur = av[cam + a]
            av[cam + a] = g if done & (g > cur) else cur
    fish = par[P_FISH] if st[E.FISH + p] < comp[E.K_MAX_FISH] else 0.0
    tent = par[P_TENT] * tent_value(st, comp, p)
    for a in range(E.N_ANIMALS):
        av[a * N_BONUS + E.B_NONE] = av[tg + a]
        av[a * N_BONUS + E.B_FISH] = av[tg + a] + fish
        av[a * N_BONUS + E.B_TENT] = av[tg + a] + tent
        av[a * N_BONUS + E.B_CAMERA] = av[tg + a] + av[cam + a]
    for lm in range(E.N_LM):
        tok = st[E.LM_TOKEN_ON + lm] == 1
        av[AV_LM + lm] = landmark_value(st, comp, par, p, lm) if tok else 0.0
    return av


@kernel
def tile_value(comp, av, t):
    """What collecting tile t (-1: none) is worth, by `tile_worths` av."""
    return av[comp[E.K_TILE_KIND + t]] if t >= 0 else 0.0


@kernel
def square_values(st, cfg, comp, par, p, hand, av, sv):
    """sv[s]: what the tile on square s is worth to p, who holds `hand`; the most of them."""
    tile_worths(st, cfg, comp, par, p, hand, av)
    top = 0.0
    for s in range(E.N_SQ):
        sv[s] = tile_value(comp, av, st[E.PARK + s])
        top = max(top, sv[s])
    return top


@kernel
def own_hand(st, p):
    return shifted(st, E.HAND + p * E.N_ANIMALS)


# ---------------------------------------------------------------- the turn plan


@kernel(inline="always")
def better(v, key, best_v, best_key):
    """Whether candidate (v, key) beats the best so far: higher value, or equal and earlier."""
    return (v > best_v) | ((v == best_v) & (key < best_key))


@kernel(inline="always")
def keep_plan(v, key, q, a, out, at, room, tval, n, k):
    """Insert plan (v, key, q, a) into the ranked k plans so far (`plans` out, at, room, tval)
    if it is among the best n; returns how many are ranked now. (Most plans are not: that
    test is inlined, the insertion is a call.)"""
    if k == n and not better(v, key, tval[k - 1], out[at + 2 * room + k - 1]):
        return k
    return insert_plan(v, key, q, a, out, at, room, tval, n, k)


@kernel
def insert_plan(v, key, q, a, out, at, room, tval, n, k):
    """`keep_plan`'s insertion of a plan among the best n."""
    i = k if k < n else k - 1
    while i > 0 and better(v, key, tval[i - 1], out[at + 2 * room + i - 1]):
        for row in range(3):
            out[at + row * room + i] = out[at + row * room + i - 1]
        tval[i] = tval[i - 1]
        i -= 1
    out[at + i] = q
    out[at + room + i] = a
    out[at + 2 * room + i] = key
    tval[i] = v
    return min(k + 1, n)


@kernel
def plan(st, cfg, comp, par, fish, buf):
    """The best plan (square reached by eating up to `fish` fish, explore action there)."""
    if plans(st, cfg, comp, par, fish, buf, buf, BEST_AT, 1, 1) == 0:
        return st[E.POS + st[E.CUR]], -1
    return buf[BEST_AT], buf[BEST_AT + 1]


@kernel
def plans(st, cfg, comp, par, fish, buf, out, at, n, room):
    """The n best plans (square reached by eating up to `fish` fish, explore action there)
    into out from `at`, in rows `room` apart: their squares, explore actions, order keys and
    values (floats); the highest values first, and of equal values the first in (square,
    action) order; returns how many there are. Written in place (no array per row: each
    costs reference counts at every turn).

    The start square (no fish eaten) is valued first; any other square is skipped when even
    its tile or a fish plus the best square a move could end on, less the fish eaten, cannot
    beat the last plan kept, so most squares never list their moves. A square eating may not
    end on (`engine.may_stop_eating`) is never planned, and the way to a square the rule
    allows is made of legal fish steps: each step leaves that square within the fish left.
    """
    p = st[E.CUR]
    pos = st[E.POS + p]
    opp = st[E.POS + 1 - p]
    av, sv = floats(buf)
    tval = as_floats(shifted(out, at + 3 * room))
    # the most any square a move ends on can add (a move back to q adds 0)
    best_tile = square_values(st, cfg, comp, par, p, own_hand(st, p), av, sv)
    top = par[P_NEXT] * best_tile
    gain_fish = par[P_FISH] if st[E.FISH + p] < comp[E.K_MAX_FISH] else 0.0
    k = 0
    low = below(NEG)  # `below` the value to beat: the last kept once n are kept
    # the squares nearest first: once even the best tile that far away cannot reach the last
    # kept, no farther square can (the order does not change the plans kept)
    order = E.BY_STEPS[pos]
    for i in range(E.RING[pos, min(fish, E.MAX_REACH) + 1]):
        q = order[i]
        if q == opp:
            continue
        far = E.manhattan(pos, q)  # the fewest fish the way could take
        if max(gain_fish, best_tile) + top - par[P_FISH] * far < low:
            break
        tile = sv[q]
        bound = max(gain_fish, tile) + top
        if bound - par[P_FISH] * far < low:
            continue  # nothing here can reach the last kept
        reach = E.steps(pos, q, opp)
        if reach > fish or \
                not E.may_stop_eating(st, comp, q, st[E.EATEN] + (1 if i > 0 else 0)):
            continue  # out of reach, or eating may not end there (YO-EXC-2)
        cost = par[P_FISH] * reach
        if bound - cost < low:
            continue
        key = q * 2 * E.MAX_LEGAL
        for d in range(4):  # Explore A
            nb = E.neighbour(q, d)
            if nb >= 0 and nb != opp:
                k = keep_plan(gain_fish + par[P_NEXT] * sv[nb] - cost, key + d, q,
                              E.act(E.A_STEP, d), out, at, room, tval, n, k)
        key += 4
        a = E.tile_animal(st, comp, q)
        if a >= 0:  # Explore B (ending on q itself: q is refilled from the unseen deck)
            low = below(tval[k - 1] if k == n else NEG)
            if tile + top - cost < low:
                continue
            nm = E.animal_dests(q, opp, a, buf, MOVES_AT, 0)
            for j in range(nm):
                move = buf[MOVES_AT + j]
                dest = E.act_arg(move)
                nxt = sv[dest] if dest != q else 0.0
                k = keep_plan(tile + par[P_NEXT] * nxt - cost, key + j, q, move, out, at,
                              room, tval, n, k)
        else:  # Explore C
            lm = E.tile_landmark(st, q)
            if st[E.LM_TOKEN_ON + lm] == 1:
                k = keep_plan(tile - cost, key, q, E.act(E.A_LANDMARK), out, at, room, tval, n,
                              k)
        low = below(tval[k - 1] if k == n else NEG)
    return k


@kernel(inline="always")
def below(cut):
    """A plan's bound under this skips it: the value to beat less a margin for rounding."""
    return cut - 1e-9 * (1.0 + abs(cut))


# ---------------------------------------------------------------- the camera


@kernel
def keep_weights(st, cfg, comp, par, w):
    """What `keep_value` weighs, into w: per animal, a held tile's worth to the judges; per
    photo slot, the face-up photo's worth (0 for an empty slot)."""
    for a in range(E.N_ANIMALS):
        w[a] = par[P_JUDGE] * st[E.JUDGE_IN + a]
    for s in range(cfg[E.C_SLOTS]):
        ph = st[E.SLOT + s]
        w[E.N_ANIMALS + s] = par[P_PHOTO] * photo_gain(st, comp, par, st[E.CUR], ph) \
            if ph >= 0 else 0.0
    return w


@kernel
def keep_value(st, cfg, comp, w, hand, skip):
    """What tiles still held are worth (`keep_weights` w): judged animals, and progress toward
    the face-up photos other than slot `skip`."""
    v = 0.0
    for a in range(E.N_ANIMALS):
        v += w[a] * hand[a]
    for s in range(cfg[E.C_SLOTS]):
        ph = st[E.SLOT + s]
        if ph < 0 or s == skip:
            continue
        miss = 0
        for a in range(E.N_ANIMALS):
            miss += max(0, E.need(comp, ph, a) - hand[a])
        v += w[E.N_ANIMALS + s] / (1 + miss)
    return v


@kernel
def best_payment(st, cfg, comp, slot, first, lo, hi, w, paid, left, d, sums):
    """The payment for the photo in `slot` that keeps the most valuable hand (`keep_weights`
    w): over every count of tiles of animals first.. (the earlier ones paid, covering lo..hi
    of its animals) that completes it, the kept value; the tiles of each animal it pays in
    `paid` (`left`, `d`, `sums`: room for the hand it keeps, the counts tried and their
    partial cover). The first best in count order (animal `first` counting fastest) wins.

    Counts are tried last animal first, each from 0 up, which is count order; once the
    counts chosen for the later animals cover too many of the photo's animals, or cannot
    reach enough with the earlier ones, the earlier animals' counts are not tried."""
    ph = st[E.SLOT + slot]
    k = E.photo_size(comp, ph)
    hand = own_hand(st, st[E.CUR])
    n = E.N_ANIMALS
    low, high, most = sums, shifted(sums, n + 1), shifted(sums, 2 * n + 2)
    most[first] = 0  # most[a]: the most animals first..a-1 can stand for
    for a in range(first, n):
        most[a + 1] = most[a] + E.cover_max(st, cfg, comp, st[E.CUR], ph, a)
    for a in range(n):
        paid[a] = 0
    for a in range(n):  # copied by element: a slice copy compiles numba's shape-error text
        left[a] = hand[a]
    low[n], high[n] = lo, hi  # covered by the counts of the animals after a
    best_v = NEG
    a = n - 1
    d[a] = 0
    while True:
        dl, dh = E.cover_span(cfg, comp, ph, a, d[a])
        low[a], high[a] = low[a + 1] + dl, high[a + 1] + dh
        if dl <= dh and low[a] <= k <= high[a] + most[a]:
            if a > first:  # on to the earlier animal's counts
                a -= 1
                d[a] = 0
                continue
            for b in range(first, n):
                left[b] = hand[b] - d[b]
            v = keep_value(st, cfg, comp, w, left, slot)
            if v > best_v:
                best_v = v
                for b in range(n):
                    paid[b] = 0
                for b in range(first, n):
                    paid[b] = d[b]
        elif dl <= dh and low[a] > k:
            d[a] = hand[a]  # more of this animal's tiles only cover more: none of them works
        while d[a] == hand[a]:  # the next counts
            a += 1
            if a == n:
                return best_v
        d[a] += 1


@kernel
def payment_space(buf):
    """Room in the policy tail for `best_payment`: (weights, paid, left, counts, sums), the
    weights where `floats` puts sv, the rest in the moves' room; sliced from buf directly
    (every intermediate view costs reference counts)."""
    n = E.N_ANIMALS
    w = FLOATS_AT + TV_SIZE
    m = MOVES_AT
    return as_floats(shifted(buf, w)), shifted(buf, m), shifted(buf, m + n), \
        shifted(buf, m + 2 * n), shifted(buf, m + 3 * n)


@kernel
def camera_action(st, cfg, comp, par, buf, mem):
    """Take the photo worth most net of the tiles it costs, if any is worth taking; its best
    payment is remembered for the payment decisions that follow."""
    p = st[E.CUR]
    hand = own_hand(st, p)
    w, paid, left, d, sums = payment_space(buf)
    keep_weights(st, cfg, comp, par, w)
    best, best_v = E.act(E.A_NO_PHOTO), 0.0
    for slot in range(cfg[E.C_SLOTS]):
        if not E.can_photo(st, cfg, comp, p, slot):
            continue
        ph = st[E.SLOT + slot]
        judged = 0.0
        for a in range(E.N_ANIMALS):
            judged += par[P_JUDGE] * st[E.JUDGE_IN + a] * E.need(comp, ph, a)
        # (zeros as numpy scalars: plain constants would compile best_payment once more)
        zero = np.int64(0)
        kept = best_payment(st, cfg, comp, slot, zero, zero, zero, w, paid, left, d, sums)
        v = photo_gain(st, comp, par, p, ph) + judged + kept - \
            keep_value(st, cfg, comp, w, hand, slot)
        if v > best_v:
            best, best_v = E.act(E.A_PHOTO, slot), v
            mem[M_PAY_TURN] = st[E.TURN]
            mem[M_PAY_SLOT] = slot
            for a in range(E.N_ANIMALS):
                mem[M_PAY + a] = paid[a]
    return best


@kernel
def pay_action(st, cfg, comp, par, buf, mem):
    """The next animal's tiles of the payment remembered for this photo (else found now: the
    same, as the best payment's remaining counts are the best completion of what it paid)."""
    a = st[E.PAY_ANIMAL]
    if paying(st, mem) and E.can_pay(st, cfg, comp, st[E.CUR], mem[M_PAY + a]):
        return E.act(E.A_PAY, mem[M_PAY + a])
    return pay_found(st, cfg, comp, par, buf)


@kernel
def paying(st, mem):
    """Whether the memory holds the payment for the photo being paid for."""
    return mem[M_PAY_TURN] == st[E.TURN] and mem[M_PAY_SLOT] == st[E.PAY_SLOT]


@kernel
def pay_found(st, cfg, comp, par, buf):
    """`pay_action` without a remembered payment: the next animal's tiles of the best one."""
    a = st[E.PAY_ANIMAL]
    w, paid, left, d, sums = payment_space(buf)
    keep_weights(st, cfg, comp, par, w)
    best_payment(st, cfg, comp, st[E.PAY_SLOT], a, st[E.PAY_LO], st[E.PAY_HI], w, paid, left, d,
                 sums)
    return E.act(E.A_PAY, paid[a])


# ---------------------------------------------------------------- greedy


@kernel
def eat_toward(st, mem):
    """The first fish step on a shortest way to the plan's square, the first in direction
    order (stop eating there, or where the fish left cannot reach it)."""
    p = st[E.CUR]
    pos = st[E.POS + p]
    target = mem[M_TARGET]
    opp = st[E.POS + 1 - p]
    if pos != target:
        left = E.steps(pos, target, opp)
        if left <= st[E.FISH + p]:
            for d in range(4):
                nb = E.neighbour(pos, d)
                if E.can_enter(st, p, nb) and E.steps(nb, target, opp) == left - 1:
                    return E.act(E.A_EAT, d)
    return E.act(E.A_STOP_EATING)


@kernel
def turn_action(st, cfg, comp, par, buf, mem):
    """The turn's move (eating fish, then exploring) by the plan in memory, made now if there
    is none for this turn, the pawn stopped short of its square, or the fish left no longer
    reach it (a move not the plan's took the pawn off its way). A plan's explore choice is
    legal where it was planned: `plans` lists only legal moves."""
    p = st[E.CUR]
    ph = st[E.PHASE]
    pos = st[E.POS + p]
    if mem[M_TURN] != st[E.TURN] or (ph == E.PH_EXPLORE and pos != mem[M_TARGET]) or (
            ph == E.PH_FISH and E.steps(pos, mem[M_TARGET], st[E.POS + 1 - p])
            > st[E.FISH + p]):
        target, action = plan(st, cfg, comp, par, st[E.FISH + p] if ph == E.PH_FISH else 0, buf)
        remember(st, mem, target, action)
    if ph == E.PH_FISH:
        return eat_toward(st, mem)
    return mem[M_ACTION]


@kernel
def greedy_lists(st):
    """Whether greedy decides now from the legal actions (start square, push); its other
    moves come from the state and its memory alone."""
    return st[E.PHASE] == E.PH_PLACE or st[E.PHASE] == E.PH_PUSH


@kernel
def greedy_move(st, cfg, comp, par, buf, mem):
    """Greedy's move where it needs no list of legal actions (`greedy_lists` false): always a
    legal one, so at a forced decision the forced move."""
    ph = st[E.PHASE]
    p = st[E.CUR]
    if ph == E.PH_FISH or ph == E.PH_EXPLORE:
        return turn_action(st, cfg, comp, par, buf, mem)
    if ph == E.PH_CAMERA:
        return camera_action(st, cfg, comp, par, buf, mem)
    if ph == E.PH_PAY:
        return pay_action(st, cfg, comp, par, buf, mem)
    # discard: the animal whose tiles are worth least
    av = tile_worths(st, cfg, comp, par, p, own_hand(st, p), work(buf)[1])
    keep = work(buf)[2]
    for a in range(E.N_ANIMALS):
        keep[a] = -NEG
    for t in range(E.N_TILES):  # an animal's worth: its tiles' worth without the bonus
        a = comp[E.K_TILE_ANIMAL + t]
        keep[a] = min(keep[a], tile_value(comp, av, t))
    best = -1
    for a in range(E.N_ANIMALS):
        if st[E.HAND + p * E.N_ANIMALS + a] > 0 and (best < 0 or keep[a] < keep[best]):
            best = a
    return E.act(E.A_DISCARD, best)


@kernel
def greedy_action(st, cfg, comp, par, buf, n, mem):
    """Greedy's move among the n legal actions in buf."""
    if greedy_lists(st):
        return listed_action(st, cfg, comp, par, buf, n)
    return greedy_move(st, cfg, comp, par, buf, mem)


@kernel
def listed_action(st, cfg, comp, par, buf, n):
    """Greedy's move where it reads the n legal actions in buf (`greedy_lists`): the start
    square with the tile worth most to me; the push to the square worth least to them, as far
    as I know their hand."""
    ph = st[E.PHASE]
    p = st[E.CUR]
    av, sv = floats(buf)
    if ph == E.PH_PLACE:
        square_values(st, cfg, comp, par, p, own_hand(st, p), av, sv)
    else:
        seen = visible_hand(st, 1 - p)
        square_values(st, cfg, comp, par, 1 - p, seen, av, sv)
    sign = 1.0 if ph == E.PH_PLACE else -1.0
    best = buf[0]
    best_v = NEG
    for i in range(n):
        s = E.act_arg(buf[i]) if E.act_kind(buf[i]) != E.A_NO_PUSH else st[E.POS + 1 - p]
        v = sign * sv[s]
        if v > best_v:
            best, best_v = buf[i], v
    return best


@kernel
def greedy_play(st, cfg, comp, rng, par, buf, mem):
    """Play the mover's greedy moves until the other seat is to move or the game is over,
    listing the legal actions only where greedy reads them (a forced move plays itself
    unasked, as `engine.settle` plays it): the moves `engine.step` and `greedy_action` play."""
    p = st[E.CUR]
    while st[E.PHASE] != E.PH_OVER and st[E.CUR] == p:
        if greedy_lists(st):
            n = E.legal_actions(st, cfg, comp, buf)
            a = buf[0] if n == 1 else listed_action(st, cfg, comp, par, buf, n)
        elif st[E.PHASE] == E.PH_PAY and paying(st, mem):
            # the payment `camera_action` found, unchecked: here no one else chose a tile
            a = E.act(E.A_PAY, mem[M_PAY + st[E.PAY_ANIMAL]])
        else:
            a = greedy_move(st, cfg, comp, par, buf, mem)
        E.apply_action(st, cfg, comp, rng, a)


# ---------------------------------------------------------------- Monte Carlo


@kernel
def determinize(st, comp, rng, p, pool):
    """Sample what p cannot see, from what p can: the opponent's tiles p never saw face up
    come from the pool of such tiles (theirs and the deck's), the deck is reshuffled and the
    unseen photos are dealt afresh to the photo deck and the box. Pools are built in tile
    order (in `pool`, room for every animal tile), so the sample depends only on p's view and
    the stream."""
    opp = 1 - p
    k = 0
    hidden = 0
    for t in range(E.N_TILES):
        loc = st[E.TILE_LOC + t]
        theirs = loc == E.L_HAND and st[E.TILE_OWNER + t] == opp
        if st[E.SEEN + t] == 0 and (loc == E.L_DECK or theirs):
            pool[k] = t
            k += 1
            hidden += theirs
    E.shuffle(rng, pool, k)
    for i in range(k):
        t = pool[i]
        st[E.TILE_LOC + t] = E.L_HAND if i < hidden else E.L_DECK
        st[E.TILE_OWNER + t] = opp if i < hidden else -1
    n = 0
    for a in range(E.N_ANIMALS):
        st[E.HAND + opp * E.N_ANIMALS + a] = 0
    for t in range(E.N_ALL_TILES):
        if st[E.TILE_LOC + t] == E.L_DECK:
            st[E.DECK + n] = t
            n += 1
        elif st[E.TILE_LOC + t] == E.L_HAND and st[E.TILE_OWNER + t] == opp:
            st[E.HAND + opp * E.N_ANIMALS + comp[E.K_TILE_ANIMAL + t]] += 1
    E.shuffle(rng, shifted(st, E.DECK), n)
    k = 0
    for ph in range(E.N_PHOTOS):
        if st[E.PHOTO_LOC + ph] == E.P_BOX or st[E.PHOTO_LOC + ph] == E.P_DECK:
            pool[k] = ph
            k += 1
    E.shuffle(rng, pool, k)
    n_deck = st[E.N_PHOTO_DECK]
    for i in range(k):
        ph = pool[i]
        if i < k - n_deck:
            st[E.PHOTO_LOC + ph] = E.P_BOX
        else:
            st[E.PHOTO_LOC + ph] = E.P_DECK
            st[E.PHOTO_DECK + i - (k - n_deck)] = ph


@kernel
def sample(st, comp, seed, p, seen, rng2, sampled, pool):
    """One rollout's sample of what p cannot see, into `seen` (a copy of st), from its own
    stream seeded by `seed`; that stream, as sampling leaves it, in rng2 and `sampled`."""
    rng2[0] = seed
    rng2[1] = seed ^ np.uint64(0x5DEECE66D)
    for i in range(E.STATE_SIZE):
        seen[i] = st[i]
    determinize(seen, comp, rng2, p, pool)
    sampled[0] = rng2[0]
    sampled[1] = rng2[1]


@kernel
def playout(sim, cfg, comp, rng2, par, buf2, p, mem2):
    """Play `sim` to the end by greedy players with parameters `par` and memory mem2; p's
    result: its win share plus a hundredth of its score margin."""
    while sim[E.PHASE] != E.PH_OVER:
        greedy_play(sim, cfg, comp, rng2, par, buf2, mem2)
    return E.win_share(sim, p) + 0.01 * (E.score(sim, p) - E.score(sim, 1 - p))


@kernel
def playout_totals(st, cfg, comp, rng, par, mem, c, follow):
    """Each of the c first actions in the memory's candidates (W_CAND), summed over `par`'s
    rollouts into its totals (W_TOTAL): every rollout seed samples the hidden part once, and
    every candidate is played out from that same sample (and the stream as it stands after
    sampling) by greedy players. `follow`: the candidates are turn plans (squares W_TQ,
    explore choices W_TA) that the mover keeps to for the rest of its turn."""
    p = st[E.CUR]
    r = max(1, int(par[P_ROLLOUTS]))
    cand, tq, ta = shifted(mem, W_CAND), shifted(mem, W_TQ), shifted(mem, W_TA)
    buf2 = shifted(mem, W_BUF)
    mem2 = shifted(mem, W_PLAN)
    rng2 = as_uints(shifted(mem, W_RNG))
    sampled = as_uints(shifted(mem, W_SAMPLED))
    seen = shifted(mem, W_SEEN)
    sim = shifted(mem, W_SIM)
    total = as_floats(shifted(mem, W_TOTAL))
    for i in range(c):
        total[i] = 0.0
    for _ in range(r):  # the seeds, drawn one by one: playouts draw from their own streams

        sample(st, comp, next_u64(rng, 1), p, seen, rng2, sampled, shifted(mem, W_POOL))
        for i in range(c):
            for j in range(E.STATE_SIZE):
                sim[j] = seen[j]
            rng2[0] = sampled[0]
            rng2[1] = sampled[1]
            clear_memory(mem2)
            if follow:
                remember(sim, mem2, tq[i], ta[i])
            E.apply_action(sim, cfg, comp, rng2, cand[i])
            total[i] += playout(sim, cfg, comp, rng2, par, buf2, p, mem2)
    return total


@kernel
def move_wins(st, cfg, comp, par, mem, key, first, count, moves, m, width, wins, points,
              reach):
    """The mover's win shares and points scored at once, summed over rollouts first ..
    first+count-1 of each of the m moves, into wins[:m] and points[:m]. A move is `width`
    step actions in `moves` (row i from i * width, ended early by a negative one). Rollout r
    samples what the mover cannot see and the chance to come once (`sample`, seeded from
    `key` and r only: never the game's own streams) and plays every move from that sample
    with the same stream, its step actions and the forced moves after each (the points
    now; reach[i] sums the `position_digest` there), then greedy players with parameters
    `par` to the end (`playout`)."""
    p = st[E.CUR]
    buf2 = shifted(mem, W_BUF)
    mem2 = shifted(mem, W_PLAN)
    rng2 = as_uints(shifted(mem, W_RNG))
    sampled = as_uints(shifted(mem, W_SAMPLED))
    seen = shifted(mem, W_SEEN)
    sim = shifted(mem, W_SIM)
    for r in range(first, first + count):
        sample(st, comp, mix_seed(key, r), p, seen, rng2, sampled, shifted(mem, W_POOL))
        for i in range(m):
            for j in range(E.STATE_SIZE):
                sim[j] = seen[j]
            rng2[0] = sampled[0]
            rng2[1] = sampled[1]
            clear_memory(mem2)
            before = E.score(sim, p)
            for k in range(width):
                if moves[i * width + k] >= 0 and sim[E.PHASE] != E.PH_OVER:
                    E.step(sim, cfg, comp, rng2, moves[i * width + k], buf2)
            points[i] += E.score(sim, p) - before
            reach[i] += position_digest(sim, E.STATE_SIZE)
            playout(sim, cfg, comp, rng2, par, buf2, p, mem2)
            wins[i] += E.win_share(sim, p)


def rollout_wins(game, moves, key: int, first: int, count: int):
    """(win shares, points scored at once, position digests) of the seat to move in step game
    `game`, each
    summed over rollouts first .. first+count-1 of each move, a row of step actions of the
    2-d `moves` (padded with -1) (`move_wins`, both seats on the search kind's base), from
    `key` (a digest of what the seat sees) and the rollout numbers only. Reads the game's
    state, never its random streams; never changes it."""
    moves = np.asarray(moves, np.int64)
    wins, points, reach = (np.zeros(len(moves)) for _ in range(3))
    if len(moves):
        move_wins(game.state, game._cfg, game._comp,
                  np.array(DEFAULT_PARAMS["search"], np.float64), new_memory(),
                  np.uint64(key), np.int64(first), np.int64(count), moves.ravel(),
                  np.int64(len(moves)), np.int64(moves.shape[1]), wins, points, reach)
    return wins, points, reach


@kernel
def rollout_action(st, cfg, comp, rng, par, buf, n, mem):
    """The legal action with the best playouts (`playout_totals` over all of them)."""
    for i in range(n):
        mem[W_CAND + i] = buf[i]
    # (np.bool_: the constant False would compile playout_totals once more)
    total = playout_totals(st, cfg, comp, rng, par, mem, n, np.bool_(False))
    best = buf[0]
    best_v = NEG
    for i in range(n):
        if total[i] > best_v:
            best, best_v = buf[i], total[i]
    return best


@kernel
def search_action(st, cfg, comp, rng, par, buf, n, mem):
    """The base's move unless a candidate's playouts beat it by more than the margin.

    At the turn's first move a candidate is a plan (square, explore choice): it eats its way
    to the square as the base would, then explores so; its first action is what is played
    now, and the plan chosen is remembered for the rest of the turn. The base's move is
    candidate 0. Every candidate is played out from the same samples."""
    ph = st[E.PHASE]
    p = st[E.CUR]
    k = int(par[P_CANDIDATES])
    turn = ph == E.PH_FISH or ph == E.PH_EXPLORE
    if turn and mem[M_TURN] == st[E.TURN] or k < 2:
        return greedy_action(st, cfg, comp, par, buf, n, mem)  # planned already, or no search
    cand = shifted(mem, W_CAND)  # first actions
    tq, ta = shifted(mem, W_TQ), shifted(mem, W_TA)  # turn: the plans' squares, explore choices
    if turn:
        c = plans(st, cfg, comp, par, st[E.FISH + p] if ph == E.PH_FISH else 0, buf, mem, W_TQ,
                  k, MAX_CANDIDATES)
        if c == 0:
            return greedy_action(st, cfg, comp, par, buf, n, mem)
        for i in range(c):
            remember(st, mem, tq[i], ta[i])
            cand[i] = turn_action(st, cfg, comp, par, buf, mem)
    else:
        base = greedy_action(st, cfg, comp, par, buf, n, mem)
        if n > k:
            return base
        c = n
        cand[0] = base
        j = 1
        for i in range(n):
            if buf[i] != base:
                cand[j] = buf[i]
                j += 1
    best = 0
    if c > 1:
        total = playout_totals(st, cfg, comp, rng, par, mem, c, turn)
        for i in range(1, c):
            if total[i] > total[best]:
                best = i
        if total[best] - total[0] <= par[P_MARGIN] * max(1, int(par[P_ROLLOUTS])):
            best = 0
    if turn:
        remember(st, mem, tq[best], ta[best])
    return cand[best]


@kernel
def policy_action(st, cfg, comp, rng, kind, par, buf, n, mem, search=None, greedy=True):
    """The action policy `kind` with parameters `par` and memory `mem` takes now, given the n
    legal actions in buf (as `engine.step` leaves them); always one of them.

    `search` is True when the line-up seats a rollout or search policy, else None: numba
    drops their branches for None, so line-ups without one never compile them. `greedy` is
    None where the caller plays greedy seats itself (`play`): its branch is dropped too."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    rng = pointer(rng)
    par = pointer(par)
    buf = pointer(buf)
    mem = pointer(mem)
    if kind == RANDOM:
        return buf[randint(rng, 1, n)]
    if ROLLOUT <= kind <= SEARCH:  # the two searching kinds
        if search is not None:
            if kind == ROLLOUT:
                return rollout_action(st, cfg, comp, rng, par, buf, n, mem)
            return search_action(st, cfg, comp, rng, par, buf, n, mem)
        raise ValueError("a line-up seating a rollout or search policy passes search=True")
    if greedy is None:
        raise ValueError("greedy seats are played by `play` (greedy_play)")
    return greedy_action(st, cfg, comp, par, buf, n, mem)


@kernel
def play(st, cfg, comp, rng, kind, par, buf, mem, search=None):
    """Play the mover's next moves by policy `kind`: those `engine.step` and `policy_action`
    would play, listing the legal actions only where they are read (a forced move plays
    itself unasked, as `engine.settle` plays it): a greedy seat's moves up to the other
    seat's (`greedy_play`), another kind's next move."""
    if kind == GREEDY:
        greedy_play(st, cfg, comp, rng, par, buf, mem)
        return
    n = E.legal_actions(st, cfg, comp, buf)
    E.apply_action(st, cfg, comp, rng, buf[0] if n == 1 else
                   policy_action(st, cfg, comp, rng, kind, par, buf, n, mem, search, None))
