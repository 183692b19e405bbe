"""Snapshot's points now are exact: each move's chance of every score change equals a brute
force over every face of every die the move's forced chain rolls (played by the engine's own
rules on the game's real state), and two games that look the same from the seat but differ
in hidden cards and random streams give the same points. Yosemite and ShutterBug keep the
rollouts' mean, said so on the screen."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_hints_no_peeking import look_alike

from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot.screen import interpreted, points_now
from snapsim.play import choices
from snapsim.play.hints import hints
from snapsim.play.wins import Budget, move_chances
from snapsim.protocol import new_game

MAX_DICE = 5  # a brute force rolls 6^dice chains
FEW = Budget(rollouts=4)


class TooMany(Exception):
    pass


def brute_force(game, seat, steps) -> dict[int, Fraction]:
    """The seat's score change after `steps` as {points: chance}, each die's six faces tried
    in turn (each 1/6) on a copy of the game's own state."""
    out: dict[int, Fraction] = {}
    todo: list[tuple[int, ...]] = [()]
    while todo:
        faces = todo.pop()
        rolls = iter(faces)

        def rolled(st, rng, what, rolls=rolls, faces=faces):
            face = next(rolls, None)
            if face is None:
                raise LookupError
            return face

        rules = interpreted(E, rolled=rolled)
        st, buf = game.state.copy(), np.empty(E.MAX_LEGAL, np.int64)
        rng = np.zeros_like(game._rng)
        before = rules.score(st, seat)
        try:
            for code in steps:
                rules.step(st, game._cfg, game._comp, rng, np.int64(code), buf)
        except LookupError:
            if len(faces) == MAX_DICE:
                raise TooMany from None
            todo += [faces + (f,) for f in range(1, 7)]
            continue
        gained = int(rules.score(st, seat) - before)
        out[gained] = out.get(gained, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out


def scoring_positions(seeds=range(4), per_game=3, dice=3):
    """Positions of Snapshot games (greedy, but at most `dice` dice placed a Preparation, at
    random, so that a brute force can roll them all) where some move's forced chain rolls
    dice (the end of a Preparation, a habitat's exploring, a re-roll), `per_game` a game."""
    for seed in seeds:
        g, found = new_game("snapshot", seed=seed, players=2 + seed % 3), 0
        rng, placed = np.random.default_rng(seed), 0
        while not g.is_terminal and found < per_game:
            moves = [chosen for chosen, _ in choices(g)]
            if g.phase in ("prepare: tokens", "photograph", "re-roll") and any(
                    len(d) > 1 for d in points_now(g, g.current_player, moves)):
                found += 1
                yield g.clone()
            if g.phase == "prepare: dice":
                legal = g.legal_action_ids().tolist()
                done = int(E.act(E.A_DICE_DONE))
                dies = [a for a in legal if a != done]
                move = done if (placed >= dice or not dies) and done in legal else \
                    int(rng.choice(dies or legal))
                placed = 0 if move == done else placed + 1
                g.apply(move)
            else:
                g.apply(g.policy_action())


def test_points_now_equal_a_brute_force_over_every_die():
    compared = chancy = 0
    for g in scoring_positions():
        me, moves = g.current_player, [chosen for chosen, _ in choices(g)]
        for steps, exact in zip(moves, points_now(g, me, moves), strict=True):
            assert sum(exact.values()) == 1
            try:
                want = brute_force(g, me, steps)
            except TooMany:
                continue
            assert exact == want, (g.phase, g.choice_to_string(steps, steps))
            compared += 1
            chancy += len(exact) > 1
    assert compared >= 20 and chancy >= 5, (compared, chancy)


def test_points_now_read_nothing_hidden():
    positions = list(scoring_positions(range(2), per_game=2))
    assert len(positions) == 4
    for g in positions:
        me, moves = g.current_player, [chosen for chosen, _ in choices(g)]
        want = points_now(g, me, moves)
        assert any(len(d) > 1 for d in want)  # a chance to get wrong
        for k in range(2):
            assert points_now(look_alike(g, k), me, moves) == want


def test_the_table_and_screen_say_exact_or_mean():
    g = next(scoring_positions(range(1), per_game=1))
    me, legal = g.current_player, choices(g)
    table = move_chances(g, me, FEW, choices=legal)
    assert table.points_exact.all()
    odds = points_now(g, me, [legal[m - 1][0] for m in table.move])
    assert table.points.tolist() == [float(sum(k * p for k, p in d.items())) for d in odds]
    assert table.p_none.tolist() == [float(d.get(0, 0)) for d in odds]
    text = hints(g, me, FEW, choices=legal)
    assert "expected points scored at once: exact, from the dice odds" in text
    assert " now (P(0) 0." in text


@pytest.mark.parametrize("name", ["yosemite", "shutterbug"])
def test_other_games_keep_the_rollout_mean(name):
    g = new_game(name, seed=2)
    g.apply(g.policy_action())
    table = move_chances(g, g.current_player, FEW)
    assert not table.points_exact.any() and table.p_none.isna().all()
    assert "expected points scored at once: the mean over the rollouts" in \
        hints(g, g.current_player, FEW)
