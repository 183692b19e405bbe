"""A seat decides from what it can see: changing only hidden information (opponents' tips of
the same count, their secret assignments, the bag's tile order, the tip deck's order) never
changes any policy's decision, and asking a policy for a move leaves the game untouched."""

import numpy as np
import pytest
from shutterbug_helpers import arrange, move, new, play, tile_with, tiles_of, tip

from snapsim.games.shutterbug import ShutterbugConfig, ShutterbugGame
from snapsim.games.shutterbug import engine as E
from snapsim.games.shutterbug.policies import KIND_NAMES

HAND0 = [tip("Jackalope", "beach"), tip("Jackalope", "mountain"), tip("Pegasus", "mountain"),
         tip("Bigfoot", "plains")]
OPP = [tip("Chupacabra", "desert"), tip("Pegasus", "swamp"), tip("Bigfoot", "beach")]


def move_start(policy):
    g = new(ShutterbugConfig(players=3), policies=[policy] * 3)
    return arrange(g, ["Mountain 1", "New Orleans", "Mountain 3"], hands={0: HAND0, 1: OPP,
                   2: OPP[:2]}, board=[tile_with(g, "Mountain 2", 3), tiles_of(g, "Beach 1")[0]])


def trade_phase(policy):
    g = new(ShutterbugConfig(players=3), policies=[policy] * 3)
    arrange(g, ["Plains 1", "New Orleans", "Swamp 4"], hands={0: HAND0, 1: OPP, 2: OPP[:1]},
            board=[tile_with(g, "Mountain 2", 2)])
    return play(g, move(g, "New Orleans"))


def photo_phase(policy):
    g = move_start(policy)
    return play(g, move(g, "Mountain 2"))


def pay_phase(policy):
    g = photo_phase(policy)
    return play(g, next(a for a in g.legal_actions() if a.kind == "photograph"))


def discard_phase(policy):
    g = new(ShutterbugConfig(players=3), policies=[policy] * 3)
    arrange(g, ["Plains 1", "Swamp 4", "Swamp 4"], hands={0: list(range(7)), 1: OPP, 2: OPP[:2]},
            board=[tiles_of(g, "Beach 3")[0]])
    return play(g, move(g, "New Orleans"), E.act(E.A_STOP))


def team_move(policy):
    g = new(ShutterbugConfig(players=2), policies=[policy] * 2)
    return arrange(g, [["Denver", "Plains 3"], ["New Orleans", "Beach 3"]],
                   hands={0: HAND0, 1: OPP}, board=[tile_with(g, "Mountain 2", 2),
                                                    tiles_of(g, "Swamp 1")[0]])


def mid_game(policy):
    g = new(ShutterbugConfig(players=4), seed=9, policies=[policy] * 4)
    for _ in range(40):
        g.apply(g.policy_action())
    return g


def city_choice(policy):
    g = new(ShutterbugConfig(players=2), seed=6, policies=[policy] * 2)
    return play(g, g.policy_action())  # the second pawn of the team, then the rival's


def solo_keep(policy):
    return new(ShutterbugConfig(players=1), seed=4, policies=[policy])


POSITIONS = [move_start, trade_phase, photo_phase, pay_phase, discard_phase, team_move,
             mid_game, city_choice, solo_keep]


def twin(g: ShutterbugGame) -> ShutterbugGame:
    """An independent copy of the game (state and both random streams)."""
    h = ShutterbugGame(g.config, policies=g.policies)
    h.state[:] = g.state
    h._rng[:] = g._rng
    h._comp[:] = g._comp
    return h


def hide_differently(g: ShutterbugGame, seed: int) -> None:
    """Redeal what the current player cannot see, keeping everything public."""
    rs = np.random.default_rng(seed)
    st, n, me = g.state, g.config.players, g.current_player
    pool = list(st[E.DECK:E.DECK + st[E.N_DECK]])
    for q in range(n):
        if q != me:
            for u in range(E.N_TYPES):
                pool += [u] * int(st[E.HAND + q * E.N_TYPES + u])
            st[E.HAND + q * E.N_TYPES:E.HAND + (q + 1) * E.N_TYPES] = 0
    pool = list(rs.permutation(pool))
    for q in range(n):
        if q != me:
            for _ in range(int(st[E.N_HAND + q])):
                st[E.HAND + q * E.N_TYPES + pool.pop()] += 1
            st[E.ASSIGN + q] = rs.integers(len(g.config.components.assignments))
    st[E.DECK:E.DECK + len(pool)] = pool
    st[E.BAG:E.BAG + st[E.N_BAG]] = rs.permutation(st[E.BAG:E.BAG + st[E.N_BAG]])


def decision(g: ShutterbugGame, rng) -> int:
    g._rng[:] = rng
    before = g.state.tobytes()
    a = g.policy_action().code
    assert g.state.tobytes() == before  # asking for a move never changes the game
    return a


# every kind; the search at a small budget that still plays several candidates out
SPECS = [k if k != "search" else "search:rollouts=3:candidates=3:depth=0:z=0"
         for k in KIND_NAMES] + ["rules"]  # and the rules of thumb


@pytest.mark.parametrize("position", POSITIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("policy", SPECS)
def test_decisions_ignore_hidden_information(position, policy):
    g = position(policy)
    assert not g.is_over() and len(g.legal_actions()) > 1
    rng = g._rng.copy()
    want = decision(g, rng)
    hidden_changed = False
    for seed in range(4):
        h = twin(g)
        hide_differently(h, seed)
        hidden_changed |= h.state.tobytes() != g.state.tobytes()
        assert decision(h, rng) == want, (position.__name__, seed)
    assert hidden_changed


def test_hide_differently_changes_only_what_the_seat_cannot_see():
    g = move_start("greedy")
    h = twin(g)
    hide_differently(h, 0)
    assert h.observation(0) == g.observation(0)
    assert h.observation(1) != g.observation(1)  # another seat's view did change
