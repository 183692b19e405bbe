"""Yosemite hidden information: every policy decides from its seat's view alone, and asking a
policy for a move never changes the game (docs/rulings.md, Hidden information)."""

import numpy as np
import pytest
from yosemite_helpers import code, game_in_turn, put, sq

from snapsim.games.yosemite import YosemiteGame, make_policy
from snapsim.games.yosemite import engine as E
from snapsim.games.yosemite import policies as P
from snapsim.games.yosemite.api import uses_search
from snapsim.sim.kernel import policy_arrays

KINDS = ("random", "greedy", "rollout:rollouts=2", "search:rollouts=2:candidates=3:margin=0")
assert {k.split(":")[0] for k in KINDS} == set(P.KIND_NAMES)  # every kind is checked
KINDS += ("rules",)  # and the rules of thumb (greedy with their numbers)


def decide(g, spec, state, rng):
    """The policy's action at `state` (legal actions listed afresh), asserting that asking
    leaves the state byte-identical."""
    kinds, params = policy_arrays([make_policy(spec)])
    buf = E.action_buffer()
    n = E.legal_actions(state, g._cfg, g._comp, buf)
    before = state.copy()
    action = P.policy_action(state, g._cfg, g._comp, rng.copy(), kinds[0], params[0], buf, n,
                             P.new_memory(), uses_search(kinds))
    assert state.tobytes() == before.tobytes()
    return int(action)


def hidden_variant(state, comp, p, seed):
    """The same position seen from p, with everything p cannot see changed: the opponent's
    unseen tiles swapped for unseen deck tiles of other animals, the deck reordered, and the
    unseen photos dealt differently between the photo deck and the box."""
    s = state.copy()
    r = np.random.default_rng(seed)
    opp = 1 - p
    animal = lambda t: int(comp[E.K_TILE_ANIMAL + t])  # noqa: E731
    theirs = [t for t in range(E.N_TILES) if s[E.TILE_LOC + t] == E.L_HAND
              and s[E.TILE_OWNER + t] == opp and not s[E.SEEN + t]]
    for t in theirs:
        spots = [i for i in range(int(s[E.N_DECK])) if s[E.DECK + i] < E.N_TILES
                 and not s[E.SEEN + s[E.DECK + i]] and animal(s[E.DECK + i]) != animal(t)]
        if not spots:
            continue
        i = spots[r.integers(len(spots))]
        u = int(s[E.DECK + i])
        s[E.DECK + i] = t
        s[E.TILE_LOC + t], s[E.TILE_OWNER + t] = E.L_DECK, -1
        s[E.TILE_LOC + u], s[E.TILE_OWNER + u] = E.L_HAND, opp
        s[E.HAND + opp * 5 + animal(t)] -= 1
        s[E.HAND + opp * 5 + animal(u)] += 1
    n = int(s[E.N_DECK])
    s[E.DECK:E.DECK + n] = r.permutation(s[E.DECK:E.DECK + n])
    unseen = [ph for ph in range(E.N_PHOTOS) if s[E.PHOTO_LOC + ph] in (E.P_BOX, E.P_DECK)]
    unseen = list(r.permutation(unseen))
    k = int(s[E.N_PHOTO_DECK])
    for i, ph in enumerate(unseen):
        s[E.PHOTO_LOC + ph] = E.P_DECK if i < k else E.P_BOX
        if i < k:
            s[E.PHOTO_DECK + i] = ph
    return s


def positions(seed, keep=lambda s: True, limit=10_000):
    """Decision points (game, state) of a greedy game that `keep` accepts, at most `limit`."""
    g = YosemiteGame(seed=seed, policies=["greedy", "greedy"])
    out = []
    while not g.is_over() and len(out) < limit:
        if keep(g.state):
            out.append((g, g.state.copy()))
        g.apply(g.policy_action())
    return out


def check(g, state, kinds, seed):
    p = int(state[E.CUR])
    other = hidden_variant(state, g._comp, p, seed)
    changed = other[E.HAND + (1 - p) * 5:E.HAND + (2 - p) * 5].tolist() != \
        state[E.HAND + (1 - p) * 5:E.HAND + (2 - p) * 5].tolist()
    for spec in kinds:
        for r in range(2):
            rng = np.array([11 + r, 23 + seed], np.uint64)
            assert decide(g, spec, state, rng) == decide(g, spec, other, rng), \
                (spec, int(state[E.PHASE]))
    return changed


@pytest.mark.parametrize("seed", [1, 2])
def test_random_and_greedy_ignore_what_their_seat_cannot_see(seed):
    changed, phases = 0, set()
    for i, (g, state) in enumerate(positions(seed)):
        changed += check(g, state, KINDS[:2], i)
        phases.add(int(state[E.PHASE]))
    assert changed > 20  # the opponent's hand really differed in many positions
    assert {E.PH_PLACE, E.PH_FISH, E.PH_EXPLORE, E.PH_CAMERA} <= phases


def test_rollout_and_search_ignore_what_their_seat_cannot_see():
    changed = 0
    for i, (g, state) in enumerate(positions(3, limit=4)):
        for j in range(1, int(state[E.N_PHOTO_DECK])):  # one photo left: short rollouts
            state[E.PHOTO_LOC + state[E.PHOTO_DECK + j]] = E.P_BOX
        state[E.PHOTO_LOC + state[E.PHOTO_DECK]] = E.P_DECK
        state[E.N_PHOTO_DECK] = 1
        changed += check(g, state, KINDS[2:], i)
    assert changed > 0


def test_greedy_push_and_payment_ignore_the_opponent_hidden_tiles():
    """A push (judged by the tiles seen taken) and a camera payment, with the opponent's
    dealt tiles swapped: the same decisions."""
    g = game_in_turn(p0=sq(0, 0), p1=sq(2, 2))
    put(g, sq(0, 0), E.BEAR, 1)
    g.apply(code(E.A_ANIMAL, sq(2, 0)))
    assert g.phase == "push"
    assert check(g, g.state, KINDS[:2], 0)
    for seed in range(4, 8):
        for g, state in positions(seed):
            if state[E.PHASE] == E.PH_PAY:
                check(g, state, KINDS[:2], seed)
                return
    pytest.fail("no payment decision in the games played")


def test_observation_shows_the_tiles_seen_taken_not_the_dealt_ones():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    dealt = {k: v for k, v in g.observation(1)["hand"].items()}
    assert sum(g.observation(0)["opponent_tiles_seen"].values()) == 0
    put(g, sq(0, 0), E.SHEEP, 2)
    g.apply(code(E.A_ANIMAL, sq(0, 2)))
    seen = g.observation(1)["opponent_tiles_seen"]
    assert seen["bighorn sheep"] == 1 and sum(seen.values()) == 1
    assert g.observation(0)["opponent_hand_size"] == sum(dealt.values())
