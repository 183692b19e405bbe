"""The built-in players from any position: `policy_action()` is legal wherever the game can
get to, also when the seat's earlier moves were not its policy's (a person at the play
prompt, an outside agent, random moves mixed in), and asking for it changes nothing.

Each game below is played by its built-in players with about 30% of the moves (every seat's,
the policies' own seats included) replaced by a uniformly random legal move, from a seeded
generator; at every decision the seat's policy is asked first and its answer must be one of
the legal moves, with the game's position (state, random streams, the policies' kept plan,
log) the same after asking as before.
"""

import numpy as np
import pytest

from snapsim.games.snapshot import engine as E
from snapsim.protocol import new_game

OTHER_MOVES = 0.3  # the share of moves that are random legal moves instead of the policy's

LINEUPS = [  # (game, players, line-up, positions to ask at least)
    ("snapshot", 2, ["greedy", "exact"], 1500),
    ("snapshot", 4, ["greedy", "cautious", "aggressive", "collector"], 1500),
    ("yosemite", 2, ["greedy", "rollout"], 2000),
    ("shutterbug", 4, ["greedy", "trader", "lookahead", "greedy"], 2000),
]


def _mixed_positions(name, players, lineup, positions):
    """Ask the policy at every decision of mixed games until `positions` asks; returns the
    asks and the illegal answers (as words)."""
    asked, illegal = 0, []
    rs = np.random.default_rng(39)
    game_no = 0
    while asked < positions:
        g = new_game(name, seed=5, game=game_no, policies=lineup, players=players)
        game_no += 1
        while not g.is_terminal:
            legal_ids = set(g.legal_action_ids().tolist())
            before, log = g.serialize(), list(g.log)
            a = int(g.policy_action())
            asked += 1
            assert g.serialize() == before and g.log == log, "asking changed the game"
            if a not in legal_ids:
                illegal.append(f"{g.action_to_string(a)} in phase {g.phase}")
            if rs.random() < OTHER_MOVES or a not in legal_ids:
                a = int(rs.choice(sorted(legal_ids)))
            g.apply(a)
    return asked, illegal


@pytest.mark.parametrize("name,players,lineup,positions", LINEUPS,
                         ids=[f"{g}-{p}p" for g, p, _, _ in LINEUPS])
def test_policy_action_legal_after_moves_not_its_own(name, players, lineup, positions):
    asked, illegal = _mixed_positions(name, players, lineup, positions)
    assert asked >= positions
    assert illegal == []


def _dice_steps(count):
    """Greedy two-player Snapshot games at the first decision of a dice step offering at
    least three moves, `count` of them."""
    found, game_no = [], 0
    while len(found) < count:
        g = new_game("snapshot", seed=11, game=game_no, policies=["greedy"] * 2, players=2)
        game_no += 1
        while not g.is_terminal and not (g.phase == "prepare: dice"
                                         and len(g.legal_action_ids()) >= 3):
            g.apply(g.policy_action())
        if not g.is_terminal:
            found.append(g)
    return found


def _finish_preparation(g):
    """Play the seat's preparation on by its policy; the allocation (dice on habitats, dice
    and tokens on cards) it ends with."""
    me = g.current_player
    while g.phase.startswith("prepare") and g.current_player == me:
        a = g.policy_action()
        assert int(a) in g.legal_action_ids()
        if a.kind == "token":
            assert g.state[E.DICE_ON + a.card] > 0, "a token on an animal without dice"
        g.apply(a)
    s = g.state
    return (s[E.HAB_DICE:E.HAB_DICE + E.N_HAB].tolist(), s[E.DICE_ON:E.DICE_ON + E.N_CARDS]
            .tolist())


def test_snapshot_plan_kept_when_the_move_is_its_own_and_rebuilt_when_not():
    """At a dice step, a person playing the plan's own first move leaves the policy's
    allocation as it was (the plan is kept); a person's other first die, or ending the dice
    step at once where allowed, leaves a position the plan no longer fits: the policy then
    completes the step legally and tokens only animals with dice."""
    departed = 0
    for g in _dice_steps(8):
        alone = _finish_preparation(g.clone())
        same = g.clone()
        same.apply(same.policy_action())
        assert _finish_preparation(same) == alone
        planned = int(g.policy_action())
        for other in g.legal_action_ids().tolist():
            if other == planned:
                continue
            h = g.clone()
            h.apply(other)
            departed += _finish_preparation(h) != alone
    assert departed > 0  # the other moves led to other allocations: the plans were rebuilt
