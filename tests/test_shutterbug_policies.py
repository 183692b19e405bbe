"""ShutterBug policies keep what they worked out in their scratch between decisions (a seat's
values; space values and route ends within a turn, `route_values`): a decision on kept values
is the decision of a fresh scratch, and a photo paid for within the turn has the space values
worked out again."""

import numpy as np
import pytest
from shutterbug_helpers import code, move, new, play, sid
from test_shutterbug_hidden import move_start

from snapsim.games.shutterbug import ShutterbugConfig
from snapsim.games.shutterbug import engine as E
from snapsim.games.shutterbug import policies as P


def decide(g, kind, scratch):
    """`kind`'s action in g's position, deciding in `scratch`; the game is left as it was."""
    buf = np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(g.state, g._cfg, g._comp, buf)
    par = np.array(P.DEFAULT_PARAMS[kind])
    return P.decide(g.state, g._cfg, g._comp, g._rng.copy(), P.KIND_NAMES.index(kind), par, buf,
                    n, *scratch)


def same_decision(g, kind, kept):
    """The action deciding on the kept scratch, checked against a fresh scratch's."""
    action = decide(g, kind, kept)
    assert action == decide(g, kind, P.new_scratch(g._cfg, g._comp))
    return action


def space_values(g, scratch):
    return scratch[0][P.F_V:P.F_V + g._comp[E.K_N_SPACES]].copy()


@pytest.mark.parametrize("kind", ["greedy", "lookahead", "trader"])
def test_space_values_kept_within_a_turn_are_worked_out_again_after_a_photo(kind):
    g = move_start(kind)  # a 3-quality tile on Mountain 2, one step away, affordable
    kept = P.new_scratch(g._cfg, g._comp)
    same_decision(g, kind, kept)
    before = space_values(g, kept)
    mountain = sid(g, "Mountain 2")
    assert before[mountain] > 0
    play(g, move(g, "Mountain 2"))
    assert E.act_kind(same_decision(g, kind, kept)) == E.A_PHOTO
    play(g, next(a.code for a in g.legal_actions() if a.kind == "photograph"))
    while g.state[E.PHASE] == E.PH_PAY:
        play(g, same_decision(g, kind, kept))
    assert g.state[E.PHASE] == E.PH_MOVE and g.state[E.STEPS] == 1
    fresh = P.new_scratch(g._cfg, g._comp)
    assert decide(g, kind, kept) == decide(g, kind, fresh)
    after = space_values(g, kept)
    assert after[mountain] == 0  # one photo per space a turn: nothing left to take there
    assert (after == space_values(g, fresh)).all()


@pytest.mark.parametrize("kind", ["greedy", "lookahead"])
def test_a_lone_pawns_best_route_is_the_step_the_pairing_of_routes_picks(kind):
    # 4 players: one pawn and no limit on the tips drawn, so the planner keeps only the best
    # route while it enumerates them; the search's pass (per step) pairs the routes by
    # length and tips drawn, as the team game does, and must take the same step, ties
    # (routes worth nothing) included, at every move of a whole game
    g = new(ShutterbugConfig(players=4), seed=3)
    par = np.array(P.DEFAULT_PARAMS[kind])
    scratch = P.new_scratch(g._cfg, g._comp)
    fs, js, _ = scratch
    checked = 0
    while g.state[E.PHASE] != E.PH_OVER:
        action = decide(g, kind, scratch)  # the seat's values worked out
        if g.state[E.PHASE] == E.PH_MOVE:
            st, p = g.state, g.state[E.CUR]
            alone = P.planned_step(st, g._cfg, g._comp, par, p, fs, js)
            assert alone == P.planned_step(st, g._cfg, g._comp, par, p, fs, js, True)
            checked += 1
        play(g, action)
    assert checked > 50


def test_the_starting_city_counts_each_nearby_creature_once_more_per_tip_showing_it():
    # set-up, an empty board: a wilderness space d (1-3) steps from a city counts its
    # creature's weight, once more per tip in hand showing that creature, over d; the city
    # worth most is chosen (the first listed on a tie). Each hand holds five tips of one
    # creature, and the choice follows the creature.
    g = new(ShutterbugConfig(players=4))
    assert g.state[E.PHASE] == E.PH_CITY and g.state[E.CUR] == 0
    comp = g.config.components
    chosen = set()
    for creature in range(E.N_CREATURES):
        g.state[E.HAND:E.HAND + E.N_TYPES] = 0
        g.state[E.HAND + creature * E.N_TERRAINS] = 5
        g.state[E.N_HAND] = 5
        scratch = P.new_scratch(g._cfg, g._comp)
        action = decide(g, "greedy", scratch)
        weights = scratch[0][P.F_W:P.F_W + E.N_CREATURES]
        best, best_value = None, -1.0
        for city in comp.cities:
            steps, ring, value = {city}, {city}, 0.0
            for d in (1, 2, 3):
                ring = {a for s in ring for a in comp.spaces[s].adjacent} - steps
                steps |= ring
                for x in sorted(ring):
                    cre = comp.spaces[x].creature
                    if cre >= 0:
                        value += weights[cre] * (1 + (5 if cre == creature else 0)) / d
            if value > best_value:
                best, best_value = city, value
        assert action == code(E.A_CITY, E.pawn_space(0, best))
        chosen.add(best)
    assert len(chosen) > 1  # the tips in hand move the choice


@pytest.mark.parametrize("knobs,first", [
    ({}, 0),
    ({"max_steps": 5}, 2),  # a plan looks 3 steps ahead: kept once it reaches the end
    ({"pass_tips": 3, "end_tips": 4}, None),  # routes would share the last tip count
])
def test_a_lone_pawns_plan_is_followed_only_where_it_is_the_fresh_plan(knobs, first):
    # 4 players, every seat greedy on a scratch of its own kept through the game: at every
    # step the kept plan's next step (values on the grid add up exactly) is the step a
    # fresh scratch plans, and a plan is followed only where the rules let it stand: made
    # at step `first` or later of the turn, never with tip knobs this large
    g = new(ShutterbugConfig(players=4, **knobs), seed=11)
    scratches = [P.new_scratch(g._cfg, g._comp) for _ in range(4)]
    followed = moves = 0
    while g.state[E.PHASE] != E.PH_OVER:
        p = int(g.state[E.CUR])
        steps = int(g.state[E.STEPS])
        action = same_decision(g, "greedy", scratches[p])
        if g.state[E.PHASE] == E.PH_MOVE:
            moves += 1
            done = scratches[p][1][P.I_PLAN_NEXT] - 1  # the plan's steps taken before
            if done > 0:
                followed += 1
                assert first is not None and steps - done >= first
        play(g, action)
    assert moves > 80
    assert followed > {0: 20, 2: 0}[first] if first is not None else followed == 0
