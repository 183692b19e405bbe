"""Snapshot's whole preparations are offered at the reserve step too: the advisor's best
allocations, the reserved cards they place included, each a legal sequence of step actions
that ends the seat's Preparation, rated on the screen's rollouts."""

from __future__ import annotations

from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot.hints import wholes
from snapsim.play import choices
from snapsim.play.hints import hints, rated_moves
from snapsim.play.wins import Budget
from snapsim.protocol import new_game


def reserve_steps(seeds=range(3)):
    """The first reserve step of a greedy game, per seed."""
    for seed in seeds:
        g = new_game("snapshot", seed=seed, players=2)
        while not g.is_terminal and g.phase != "prepare: reserved":
            g.apply(g.policy_action())
        if not g.is_terminal:
            yield g


def test_whole_preparations_at_the_reserve_step():
    positions = list(reserve_steps())
    assert len(positions) == 3
    placing = 0
    for g in positions:
        me = g.current_player
        whole = wholes(g, me)
        assert whole
        for steps, text, _ in whole:
            twin = g.clone()
            twin.log = None
            for code in steps:
                assert code in twin.legal_action_ids().tolist(), text
                twin.apply(code)
            placing += E.A_PLACE_RESERVED in [E.act_kind(code) for code in steps]
            # the whole preparation: the seat's Preparation is over after it
            assert twin.current_player != me or not twin.phase.startswith("prepare")
            assert text.startswith("place reserved ")
        _, rated = rated_moves(g, me, Budget(rollouts=4), choices=choices(g))
        assert len(rated) == len(whole) and rated.value.notna().all()
        assert "whole preparations" in hints(g, me, Budget(rollouts=4), choices=choices(g))
    assert placing  # some plan places a reserved card
