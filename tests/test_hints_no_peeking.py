"""Hints, advice and points never peek: two games that look the same from the seat (equal
observation tensors) but differ in every hidden card and in the random streams that will roll
the dice and draw the cards after the move give the same numbers, for every move, in the three
games at each phase of a game where the seat has a choice."""

from __future__ import annotations

import numpy as np
import pytest
from test_play import GAMES, HIDE

import snapsim
from snapsim.play import choices
from snapsim.play.hints import hints
from snapsim.play.wins import Budget, move_chances
from snapsim.protocol import new_game
from snapsim.sim.kernel import game_rngs, root_keys

FEW = Budget(rollouts=16)
PHASES_PER_GAME = 4  # distinct phases looked at per game (the first of each with a choice)


def phase_positions(name, seed=5):
    """The first position of each phase where the seat to move has two or more moves, in a
    greedy game, at most PHASES_PER_GAME of them."""
    g, seen = new_game(name, seed=seed), {}
    while not g.is_terminal and len(seen) < PHASES_PER_GAME:
        if len(g.legal_action_ids()) > 1 and g.phase not in seen:
            seen[g.phase] = g.clone()
        g.apply(g.policy_action())
    return list(seen.values())


def look_alike(g, k):
    """A copy of `g` whose hidden cards are redealt and whose random streams (the dice and
    draws to come) are another game's, the seat to move seeing exactly the same."""
    twin = g.clone()
    HIDE[g.NAME](twin, 20 + k)
    key0, key1 = root_keys(1000 + k)
    twin._rng[:] = game_rngs(np.uint64(key0), np.uint64(key1), 7)
    me = g.current_player
    assert np.array_equal(twin.observation_tensor(me), g.observation_tensor(me))
    assert not np.array_equal(twin.state, g.state)
    assert not np.array_equal(twin._rng, g._rng)
    return twin


def the_future_differs(g, twin):
    """Whether some move leads to different positions in the two games (a roll or a draw
    after it already tells them apart): otherwise the test could not fail."""
    for code in g.legal_action_ids():
        a, b = g.clone(), twin.clone()
        a.log = b.log = None
        a.apply(int(code))
        b.apply(int(code))
        if not np.array_equal(a.observation_tensor(a.current_player if a.current_player >= 0
                                                   else 0),
                              b.observation_tensor(b.current_player if b.current_player >= 0
                                                   else 0)):
            return True
    return False


@pytest.mark.parametrize("name", GAMES)
def test_same_view_different_hidden_cards_and_dice_give_the_same_hints(name):
    positions = phase_positions(name)
    assert len(positions) >= 3, [g.phase for g in positions]
    differing = 0
    for g in positions:
        me = g.current_player
        want_table = move_chances(g, me, FEW, seed=2)
        want_screen = hints(g, me, FEW, seed=2, choices=choices(g))
        want_advice = snapsim.advise(g, me + 1, budget=FEW, seed=2).to_dict()
        for k in range(2):
            twin = look_alike(g, k)
            differing += the_future_differs(g, twin)
            assert move_chances(twin, me, FEW, seed=2).equals(want_table), g.phase
            assert hints(twin, me, FEW, seed=2, choices=choices(twin)) == want_screen, g.phase
            assert snapsim.advise(twin, me + 1, budget=FEW, seed=2).to_dict() == want_advice
    assert differing  # some move's real outcome differs between the twins: a peek would show
