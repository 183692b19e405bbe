"""Yosemite rules, clause by clause (IDs from shared/rules/CLAUSES.md), through the step API."""

import copy

import numpy as np
import pytest
from yosemite_helpers import (
    BEAR,
    CAMERA,
    COUGAR,
    FISH,
    FOX,
    SHEEP,
    SNAKE,
    TENT,
    animal_dests,
    camera_turn,
    code,
    codes,
    empty_hand,
    game_in_turn,
    give,
    hand,
    pay_options,
    photo_needing,
    push_dests,
    put,
    put_landmark,
    show_photo,
    sq,
)

from snapsim.errors import InputError
from snapsim.games.yosemite import (
    YosemiteConfig,
    YosemiteGame,
    load_components,
    make_policy,
    run_games,
)
from snapsim.games.yosemite import engine as E
from snapsim.games.yosemite import policies as P
from snapsim.sim.kernel import game_rngs, root_keys


def setup_state(seed: int = 3, **knobs):
    g = YosemiteGame(YosemiteConfig(**knobs), seed=seed)
    return g, g.state


# ---------------------------------------------------------------- set-up


@pytest.mark.parametrize("dealt", [3, 5])
def test_setup_deals_and_lays_the_park_YO_SET_1_YO_SET_2(dealt):
    g, s = setup_state(tiles_dealt=dealt)
    assert [E.hand_size(s, p) for p in range(2)] == [dealt, dealt]
    park = [int(s[E.PARK + q]) for q in range(25)]
    assert len(set(park)) == 25 and max(park) < E.N_TILES  # animals only in the park
    deck = {int(s[E.DECK + i]) for i in range(int(s[E.N_DECK]))}
    assert set(range(E.N_TILES, E.N_ALL_TILES)) <= deck  # YO-SET-2 landmarks in the deck
    assert len(deck) == 45 - 25 - 2 * dealt + 5


def test_setup_tracks_photos_judges_fish_YO_SET_3_YO_SET_4_YO_SET_5_YO_SET_6():
    g, s = setup_state()
    assert s[E.CAMP] == 0 and s[E.TENT_SUPPLY] == 10  # YO-SET-3
    locs = [int(s[E.PHOTO_LOC + ph]) for ph in range(20)]
    assert locs.count(E.P_BOX) == 10 and locs.count(E.P_SLOT) == 2  # YO-SET-4
    assert s[E.N_PHOTO_DECK] == 8
    assert sum(s[E.JUDGE_IN + a] for a in range(5)) == 2  # YO-SET-5
    assert list(s[E.FISH:E.FISH + 2]) == [2, 2]  # YO-SET-6


def test_start_fish_may_differ_by_turn_order_a_handicap_knob_YO_SET_6():
    # a designer's handicap (docs/rulings.md): start_fish=(first, second) gives the second
    # player more fish; whoever the random draw makes first gets the first number
    firsts = set()
    for seed in range(12):
        g, s = setup_state(seed=seed, start_fish=(1, 3))
        first = int(s[E.FIRST])
        firsts.add(first)
        assert (int(s[E.FISH + first]), int(s[E.FISH + 1 - first])) == (1, 3)
    assert firsts == {0, 1}
    with pytest.raises(InputError, match="start_fish takes one number"):
        YosemiteConfig(start_fish=(1, 2, 3))


def test_any_two_of_the_five_judges_can_judge_the_game_YO_SET_5():
    """The judges are shuffled before three go back to the box, so every pair can be dealt."""
    pairs = set()
    for seed in range(60):
        s = YosemiteGame(seed=seed).state
        pairs.add(tuple(a for a in range(5) if s[E.JUDGE_IN + a]))
    assert len(pairs) == 10


def test_start_squares_first_player_then_other_YO_SET_7():
    firsts = set()
    for seed in range(12):
        g = YosemiteGame(seed=seed)
        first = g.current_player
        firsts.add(first)
        assert g.phase == "start square" and len(g.legal_actions()) == 25
        g.apply(code(E.A_START, 7))
        assert g.current_player == 1 - first
        assert code(E.A_START, 7) not in codes(g)  # any other animal tile
        g.apply(code(E.A_START, 8))
        assert g.current_player == first and g.phase in ("eat fish", "explore")
    assert firsts == {0, 1}


# ---------------------------------------------------------------- eat fish, explore A and C


def test_eat_fish_steps_not_through_or_onto_opponent_YO_FSH_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(0, 1), fish=(2, 0))
    assert g.phase == "eat fish"
    assert codes(g) == {code(E.A_EAT, 1), code(E.A_STOP_EATING)}  # right is the opponent
    g.apply(code(E.A_EAT, 1))
    g.apply(code(E.A_EAT, 3))  # any directions; the last fish ends the phase
    assert g.state[E.POS] == sq(1, 1) and g.state[E.FISH] == 0 and g.phase == "explore"


def test_explore_a_one_step_and_a_fish_capped_at_5_YO_EXA_1_YO_BON_FSH():
    g = game_in_turn(p0=sq(2, 2), p1=sq(2, 3), fish=(0, 0))
    steps = {a.direction for a in g.legal_actions() if a.kind == "step"}
    assert steps == {0, 1, 2}
    g.apply(code(E.A_STEP, 0))
    s = g.state
    assert s[E.FISH] == 1 and s[E.CUR] == 1 and s[E.POS] == sq(1, 2)
    g = game_in_turn(p0=sq(2, 2), p1=sq(4, 4), fish=(5, 0))
    g.apply(code(E.A_STOP_EATING))
    g.apply(code(E.A_STEP, 0))
    assert g.state[E.FISH] == 5


def test_explore_c_takes_the_token_and_stays_YO_EXC_1():
    g = game_in_turn(p0=sq(1, 1), p1=sq(4, 4))
    put_landmark(g, sq(1, 1), 2)
    assert code(E.A_LANDMARK) in codes(g)
    assert not animal_dests(g)
    g.apply(code(E.A_LANDMARK))
    s = g.state
    assert s[E.LM_OWNER + 2] == 0 and s[E.LM_TOKEN_ON + 2] == 0
    assert s[E.POS] == sq(1, 1) and s[E.PARK + sq(1, 1)] == E.N_TILES + 2


def on_empty_landmark(fish, g=None):
    """Player 0's turn begins on the empty landmark tile at b2 (landmark 0, its token taken)
    with `fish` fish; landmark 1's tile, its token on it, lies at b3; the rest are animals."""
    g = g or game_in_turn(p0=sq(1, 1), p1=sq(4, 4), fish=(fish, 0))
    put_landmark(g, sq(1, 1), 0, token=False)
    put_landmark(g, sq(1, 2), 1)
    E.start_turn(g.state)  # the turn begins where the pawn now stands
    return g


def test_empty_landmark_eating_may_not_end_on_a_landmark_with_its_token_YO_EXC_2():
    g = on_empty_landmark(fish=1)
    # one fish: up, down and left reach animal tiles; right would end on landmark 1's tile
    assert codes(g) == {code(E.A_EAT, 0), code(E.A_EAT, 1), code(E.A_EAT, 2),
                        code(E.A_STOP_EATING)}
    g = on_empty_landmark(fish=2)  # two fish: over landmark 1's tile, never stopping there
    g.apply(code(E.A_EAT, 3))
    assert g.state[E.POS] == sq(1, 2) and g.phase == "eat fish"
    # on: up, down, right onto animals; back left onto the empty landmark with no fish left: no
    assert codes(g) == {code(E.A_EAT, 0), code(E.A_EAT, 1), code(E.A_EAT, 3)}
    g.apply(code(E.A_EAT, 3))  # the last fish: onto the animal tile at b4, on to Explore
    s = g.state
    assert s[E.POS] == sq(1, 3) and s[E.FISH] == 0 and g.phase == "explore"
    assert {a.kind for a in g.legal_actions()} == {"step", "animal move"}
    assert s[E.LM_TOKEN_ON + 1] == 1 and s[E.LM_OWNER + 1] == -1  # the token stays there


def test_empty_landmark_eating_out_and_back_must_go_on_to_an_animal_YO_EXC_2():
    g = on_empty_landmark(fish=3)
    g.apply(code(E.A_EAT, 1))  # down onto an animal tile: stopping there is allowed
    assert code(E.A_STOP_EATING) in codes(g)
    g.apply(code(E.A_EAT, 0))  # back onto the empty landmark, one fish left
    assert g.state[E.POS] == sq(1, 1)
    assert codes(g) == {code(E.A_EAT, 0), code(E.A_EAT, 1), code(E.A_EAT, 2)}  # not b3, no stop


def test_empty_landmark_eating_nothing_takes_explore_a_YO_EXC_2_YO_EXA_1():
    g = on_empty_landmark(fish=1)
    g.apply(code(E.A_STOP_EATING))
    assert codes(g) == {code(E.A_STEP, d) for d in range(4)}  # A only: no B, no C
    g.apply(code(E.A_STEP, 3))  # A may step onto landmark 1's tile (not eating)
    s = g.state
    assert s[E.FISH] == 2 and s[E.POS] == sq(1, 2) and g.current_player == 1
    assert s[E.LM_TOKEN_ON + 1] == 1


def test_empty_landmark_with_no_animal_in_reach_leaves_only_explore_a_YO_EXC_2():
    g = game_in_turn(p0=sq(0, 0), p1=sq(1, 0), fish=(1, 0))
    put_landmark(g, sq(0, 0), 0, token=False)
    put_landmark(g, sq(0, 1), 1)
    E.start_turn(g.state)
    assert codes(g) == {code(E.A_STOP_EATING)}  # right: a landmark, down: the opponent
    g.apply(code(E.A_STOP_EATING))  # then the one step right, forced
    s = g.state
    assert s[E.POS] == sq(0, 1) and s[E.FISH] == 2 and g.current_player == 1


def test_a_turn_that_begins_on_an_empty_landmark_after_play_is_bound_YO_EXC_2():
    # player 0 steps onto the empty landmark (A), player 1 steps; player 0's next turn
    # begins there
    g = on_empty_landmark(fish=0)
    g.state[E.POS] = sq(2, 1)
    E.start_turn(g.state)
    assert g.phase == "explore" and g.state[E.LM_START] == 0
    g.apply(code(E.A_STEP, 0))
    assert g.current_player == 1 and g.state[E.POS] == sq(1, 1) and g.phase == "explore"
    g.apply(code(E.A_STEP, 0))
    assert g.current_player == 0 and g.phase == "eat fish" and g.state[E.FISH] == 1
    assert code(E.A_EAT, 3) not in codes(g)  # no eating onto landmark 1's tile
    assert code(E.A_EAT, 0) in codes(g) and code(E.A_STOP_EATING) in codes(g)


def test_a_turn_begun_elsewhere_may_still_eat_onto_a_landmark_and_take_it_YO_EXC_1():
    g = on_empty_landmark(fish=1)
    g.state[E.POS] = sq(2, 2)  # an animal tile below landmark 1's
    E.start_turn(g.state)
    g.apply(code(E.A_EAT, 0))
    assert code(E.A_LANDMARK) in codes(g)


@pytest.mark.parametrize("spec", ["random", "greedy", "tuned-2p", "rollout:rollouts=2",
                                  "search:rollouts=2:candidates=4:margin=0"])
def test_every_policy_keeps_to_the_empty_landmark_rule_YO_EXC_2(spec):
    """Landmark 1's token would score 9 (three matching photos): the old reading ate onto it
    and took it; now every kind eats on to an animal tile or takes A, through legal moves."""
    for fish in (1, 2, 3):
        g = on_empty_landmark(fish)
        g = YosemiteGame(seed=0, policies=[spec, "greedy"]).deserialize(g.serialize())
        g.state[E.LM_MATCH + 1] = 3
        assert g.state[E.LM_START] == 1
        while g.current_player == 0:
            g.apply(g.policy_action())  # `apply` refuses an illegal move
            s = g.state
            if g.phase == "explore" and g.current_player == 0:
                assert s[E.EATEN] == 0 or E.tile_animal(s, g._comp, s[E.POS]) >= 0
        assert g.state[E.LM_OWNER + 1] == -1


def test_the_batch_greedy_moves_are_legal_after_empty_landmark_starts_YO_EXC_2():
    """The batch plays greedy's fish steps from its memory without listing legal actions
    (`policies.greedy_play`); played the same way here, each is checked against the list."""
    config = YosemiteConfig()
    cfg, comp = config.to_array(), config.comp_vector()
    par = np.array(make_policy("tuned-2p").params)
    key0, key1 = root_keys(4)
    bound = ate = 0
    for game in range(8):
        rng = game_rngs(np.uint64(key0), np.uint64(key1), game)
        st, buf, mem = E.new_game(cfg, comp, rng), E.action_buffer(), P.new_memory()
        while st[E.PHASE] != E.PH_OVER:
            n = E.legal_actions(st, cfg, comp, buf)
            legal = set(buf[:n].tolist())
            if P.greedy_lists(st):
                a = buf[0] if n == 1 else P.listed_action(st, cfg, comp, par, buf, n)
            else:
                a = P.greedy_move(st, cfg, comp, par, buf, mem)
            assert int(a) in legal
            if st[E.LM_START] == 1 and st[E.PHASE] == E.PH_EXPLORE:
                assert st[E.EATEN] == 0 or E.tile_animal(st, comp, st[E.POS]) >= 0
                bound += 1
                ate += st[E.EATEN] > 0
            E.apply_action(st, cfg, comp, rng, a)
    assert bound >= 10 and ate >= 3  # the rule was met often, eating on and taking A


def test_eat_fish_onto_a_landmark_with_its_token_then_explore_c_YO_EXC_1_YO_FSH_1():
    g = game_in_turn(p0=sq(2, 0), p1=sq(4, 4), fish=(3, 0))
    put(g, sq(2, 0), SHEEP, TENT)
    put_landmark(g, sq(2, 2), 1)
    g.apply(code(E.A_EAT, 3))
    g.apply(code(E.A_EAT, 3))
    g.apply(code(E.A_STOP_EATING))  # one fish kept
    assert {a.kind for a in g.legal_actions()} == {"step", "take landmark"}
    g.apply(code(E.A_LANDMARK))
    s = g.state
    assert s[E.LM_OWNER + 1] == 0 and s[E.POS] == sq(2, 2) and s[E.FISH] == 1
    assert g.current_player == 1


def test_landmark_with_token_also_allows_explore_a_YO_EXA_1_YO_EXC_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    put_landmark(g, sq(0, 0), 4)
    assert codes(g) == {code(E.A_STEP, 1), code(E.A_STEP, 3), code(E.A_LANDMARK)}
    g.apply(code(E.A_STEP, 3))
    s = g.state
    assert s[E.LM_TOKEN_ON + 4] == 1 and s[E.LM_OWNER + 4] == -1 and s[E.FISH] == 1


def test_eat_fish_off_a_landmark_onto_an_animal_leaves_the_token_YO_EXB_1_YO_FSH_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4), fish=(1, 0))
    put_landmark(g, sq(0, 0), 2)
    put(g, sq(1, 0), BEAR, TENT)
    g.apply(code(E.A_EAT, 1))
    assert code(E.A_LANDMARK) not in codes(g)  # C only on the landmark tile itself
    assert animal_dests(g) == {sq(3, 0), sq(1, 2)}


def test_second_player_eats_steps_and_moves_their_own_pawn_YO_FSH_1_YO_EXB_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4), fish=(0, 1))
    g.apply(code(E.A_STEP, 1))
    assert g.current_player == 1 and g.phase == "eat fish"
    g.apply(code(E.A_EAT, 0))  # their last fish: straight on to Explore
    s = g.state
    assert s[E.POS + 1] == sq(3, 4) and s[E.FISH + 1] == 0 and g.phase == "explore"
    t = put(g, sq(3, 4), SHEEP, TENT)
    g.apply(code(E.A_ANIMAL, sq(3, 1)))
    assert s[E.POS + 1] == sq(3, 1) and s[E.POS] == sq(1, 0)
    assert s[E.TILE_OWNER + t] == 1 and s[E.PARK + sq(3, 4)] != t
    assert s[E.CAMP] == -1 and g.current_player == 0


# ---------------------------------------------------------------- explore B and movements


def test_fox_one_to_three_any_directions_YO_MOV_FOX():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    put(g, sq(0, 0), FOX)
    want = {q for q in range(25) if q // 5 + q % 5 <= 3}  # the start square: out and back
    assert animal_dests(g) == want


@pytest.mark.parametrize("animal", [FOX, SNAKE])
def test_fox_and_snake_may_end_on_their_start_square_YO_EXB_3(animal):
    """Out and back is two spaces moved: the tile left is collected and the square refilled
    under the pawn (docs/rulings.md, Animal Movement)."""
    g = game_in_turn(p0=sq(0, 0), p1=sq(0, 1))  # the opponent blocks one way out
    t = put(g, sq(0, 0), animal, TENT)
    assert sq(0, 0) in animal_dests(g)
    top = int(g.state[E.DECK + g.state[E.N_DECK] - 1])
    g.apply(code(E.A_ANIMAL, sq(0, 0)))
    s = g.state
    assert s[E.POS] == sq(0, 0) and s[E.TILE_OWNER + t] == 0 and s[E.TILE_LOC + t] == E.L_HAND
    assert s[E.PARK + sq(0, 0)] == top and s[E.CAMP] == 1  # refilled; the bonus happened


def test_cougar_and_sheep_and_bear_never_end_where_they_started_YO_EXB_3():
    for animal in (SHEEP, BEAR, COUGAR):
        g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
        put(g, sq(0, 0), animal)
        assert sq(0, 0) not in animal_dests(g)


def test_fox_blocked_by_opponent_YO_MOV_FOX_YO_MOV_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(0, 1))
    put(g, sq(0, 0), FOX)
    dests = animal_dests(g)
    assert sq(0, 1) not in dests  # not onto
    assert sq(1, 2) in dests  # around: (1,0) (1,1) (1,2)
    assert sq(0, 2) not in dests  # would need 4 steps around the opponent


def test_sheep_any_distance_one_direction_YO_MOV_SHP():
    g = game_in_turn(p0=sq(2, 0), p1=sq(2, 3))
    put(g, sq(2, 0), SHEEP)
    assert animal_dests(g) == {sq(2, 1), sq(2, 2), sq(1, 0), sq(0, 0), sq(3, 0), sq(4, 0)}


def test_bear_exactly_two_straight_YO_MOV_BER():
    g = game_in_turn(p0=sq(0, 1), p1=sq(2, 1))
    put(g, sq(0, 1), BEAR)
    assert animal_dests(g) == {sq(0, 3)}  # down blocked at the end, left too short


def test_bear_may_push_opponent_one_space_YO_MOV_BER_YO_EXB_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(3, 3))
    put(g, sq(0, 0), BEAR, TENT)
    g.apply(code(E.A_ANIMAL, sq(2, 0)))
    assert g.phase == "push"
    assert push_dests(g) == {sq(2, 3), sq(4, 3), sq(3, 2), sq(3, 4)}
    assert code(E.A_NO_PUSH) in codes(g)
    assert E.hand_size(g.state, 0) == 3  # the tile is collected only after the push
    g.apply(code(E.A_PUSH, sq(3, 2)))
    assert g.state[E.POS + 1] == sq(3, 2) and E.hand_size(g.state, 0) == 4


def test_bear_unusable_without_two_clear_spaces_YO_MOV_BER():
    g2 = game_in_turn(p0=sq(0, 0), p1=sq(0, 2))
    put(g2, sq(0, 0), BEAR)
    g2.state[E.POS + 1] = sq(0, 1)
    assert animal_dests(g2) == {sq(2, 0)}
    g3 = game_in_turn(p0=sq(1, 0), p1=sq(3, 0))
    put(g3, sq(1, 0), BEAR)
    assert animal_dests(g3) == {sq(1, 2)}


def test_snake_lands_on_opponent_and_must_move_them_YO_MOV_SNK():
    g = game_in_turn(p0=sq(2, 2), p1=sq(2, 4))
    put(g, sq(2, 2), SNAKE, TENT)
    dests = animal_dests(g)
    assert sq(2, 4) in dests and sq(0, 2) in dests and sq(1, 3) in dests
    assert sq(2, 2) in dests and sq(0, 0) not in dests  # out and back; three is too far
    g.apply(code(E.A_ANIMAL, sq(2, 4)))
    assert g.phase == "push" and code(E.A_NO_PUSH) not in codes(g)
    assert push_dests(g) == {sq(1, 4), sq(3, 4), sq(2, 3)}
    g.apply(code(E.A_PUSH, sq(1, 4)))
    assert g.state[E.POS + 1] == sq(1, 4) and g.state[E.POS] == sq(2, 4)


def test_snake_cannot_pass_through_opponent_YO_MOV_SNK_YO_MOV_1():
    g = game_in_turn(p0=sq(2, 0), p1=sq(2, 1))
    put(g, sq(2, 0), SNAKE)
    dests = animal_dests(g)
    assert sq(2, 2) not in dests and sq(2, 1) in dests


def test_cougar_to_the_edge_through_opponent_push_up_to_two_YO_MOV_CGR():
    g = game_in_turn(p0=sq(2, 0), p1=sq(2, 2))
    put(g, sq(2, 0), COUGAR, TENT)
    assert animal_dests(g) == {sq(0, 0), sq(4, 0), sq(2, 4)}
    g.apply(code(E.A_ANIMAL, sq(2, 4)))
    assert g.phase == "push" and code(E.A_NO_PUSH) in codes(g)
    dests = push_dests(g)
    assert sq(0, 2) in dests and sq(3, 3) in dests and sq(2, 4) not in dests
    g.apply(code(E.A_PUSH, sq(0, 2)))
    assert g.state[E.POS + 1] == sq(0, 2)


def test_cougar_push_moves_the_opponent_one_or_two_spaces_YO_MOV_CGR():
    """Crossing them, the cougar moves the opponent up to two spaces, never onto the mover;
    leaving them where they stand is the no-push choice, not a push."""
    g = game_in_turn(p0=sq(2, 0), p1=sq(2, 2))
    put(g, sq(2, 0), COUGAR, TENT)
    g.apply(code(E.A_ANIMAL, sq(2, 4)))
    one = {sq(1, 2), sq(3, 2), sq(2, 1), sq(2, 3)}
    two = {sq(0, 2), sq(4, 2), sq(2, 0), sq(1, 1), sq(1, 3), sq(3, 1), sq(3, 3)}  # not (2, 4)
    assert push_dests(g) == one | two and code(E.A_NO_PUSH) in codes(g)


def test_cougar_landing_on_opponent_must_move_them_and_edge_needs_a_step_YO_MOV_CGR():
    g = game_in_turn(p0=sq(0, 2), p1=sq(4, 2))
    put(g, sq(0, 2), COUGAR, TENT)
    assert animal_dests(g) == {sq(0, 0), sq(0, 4), sq(4, 2)}  # not up: already at the edge
    g.apply(code(E.A_ANIMAL, sq(4, 2)))
    assert code(E.A_NO_PUSH) not in codes(g)
    g.apply(code(E.A_PUSH, sq(3, 1)))
    assert g.state[E.POS + 1] == sq(3, 1)


def test_cougar_not_crossing_gives_no_push_YO_MOV_CGR():
    g = game_in_turn(p0=sq(2, 2), p1=sq(0, 0))
    put(g, sq(2, 2), COUGAR, TENT)
    g.apply(code(E.A_ANIMAL, sq(4, 2)))
    assert g.state[E.CUR] == 1  # no push phase: the turn is over


def test_collect_then_bonus_fish_YO_EXB_2_YO_BON_FSH():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    t = put(g, sq(0, 0), SHEEP, FISH)
    g.apply(code(E.A_ANIMAL, sq(0, 3)))
    s = g.state
    assert s[E.TILE_LOC + t] == E.L_HAND and s[E.TILE_OWNER + t] == 0
    assert s[E.FISH] == 1 and s[E.ST_USE + SHEEP] == 1


def test_statistics_count_each_collected_tile_under_its_icon_for_its_collector():
    """Each animal move collects the tile left (YO-EXB-2), so in each seat's row of the
    statistics the movements used add up to the icons collected."""
    df = run_games(YosemiteConfig(), ["random", "random"], 0, 4, 3)
    uses = df[[c for c in df if c.startswith("use_") and "points" not in c]]
    icons = df[["bonus_fish", "bonus_tent", "bonus_camera"]]
    assert (uses.sum(axis=1) == icons.sum(axis=1)).all()
    assert (icons > 0).all().all()  # both seats collected tiles of every icon


# ---------------------------------------------------------------- bonuses


def collect_tent(g):
    """The current player collects a sheep, fox or rattlesnake tent tile, moving one space."""
    p = g.current_player
    if g.phase == "eat fish":
        g.apply(code(E.A_STOP_EATING))
    pos = int(g.state[E.POS + p])
    for animal in (SHEEP, FOX, SNAKE):
        try:
            put(g, pos, animal, TENT)
            break
        except LookupError:
            continue
    g.apply(code(E.A_ANIMAL, pos + 5 if pos < 20 else pos - 5))


def test_tent_tug_of_war_and_tent_tokens_YO_BON_TNT():
    g = game_in_turn(p0=sq(0, 0), p1=sq(0, 4))
    g.state[E.TENT_SUPPLY] = 1
    g.state[E.CUR] = 1
    E.start_turn(g.state)
    track = []
    for _ in range(4):  # player 1 first, then alternately
        collect_tent(g)
        track.append(int(g.state[E.CAMP]))
    # the first tent puts the token on the collector's 1; each later one moves it one space
    # toward its collector (from the opponent's 1 to your 1: the track has no centre)
    assert track == [-1, 1, -1, 1]
    g.state[E.CAMP] = 4
    collect_tent(g)  # player 1: one space back toward them
    assert g.state[E.CAMP] == 3
    g.state[E.CAMP] = 4
    for _ in range(2):  # player 0 collects, player 1 steps
        collect_tent(g)
        if g.current_player == 1:
            if g.phase == "eat fish":
                g.apply(code(E.A_STOP_EATING))
            g.apply(next(a for a in g.legal_actions() if a.kind == "step"))
    s = g.state
    assert s[E.CAMP] == 5 and s[E.TENTS] == 1 and s[E.TENT_SUPPLY] == 0  # at 5: a tent token
    collect_tent(g)  # the pile is empty: nothing more
    assert s[E.CAMP] == 5 and s[E.TENTS] == 1


def test_tent_moves_the_token_on_along_the_collectors_own_side_YO_BON_TNT():
    g = game_in_turn(p0=sq(0, 0), p1=sq(0, 4))
    g.state[E.CAMP] = 1  # on player 0's 1
    collect_tent(g)
    assert g.state[E.CAMP] == 2
    g.state[E.CAMP] = -1  # on player 1's 1
    collect_tent(g)
    assert g.state[E.CAMP] == -2


def test_camera_takes_a_photo_with_matching_tiles_YO_BON_CAM_YO_RST_4():
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1})
    s = g.state
    deck_before = int(s[E.N_PHOTO_DECK])
    assert g.phase == "camera" and codes(g) >= {code(E.A_PHOTO, 0), code(E.A_NO_PHOTO)}
    g.apply(code(E.A_PHOTO, 0))  # one payment only: paid at once
    assert s[E.PHOTO_OWNER + el_cap] == 0 and s[E.S_PHOTOS] == 4 and hand(g, 0) == [0] * 5
    assert s[E.SLOT] >= 0 and s[E.SLOT] != el_cap  # refilled (YO-RST-4)
    assert s[E.N_PHOTO_DECK] == deck_before - 1 and g.current_player == 1


def test_camera_photo_is_optional_YO_BON_CAM():
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1})
    g.apply(code(E.A_NO_PHOTO))
    s = g.state
    assert s[E.PHOTO_LOC + el_cap] == E.P_SLOT and s[E.PHOTOS] == 0
    assert hand(g, 0) == [1, 0, 1, 2, 0] and g.current_player == 1


def test_camera_player_chooses_which_photo_YO_BON_CAM():
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1}, other=[FOX, SNAKE])
    other = int(g.state[E.SLOT + 1])
    assert {code(E.A_PHOTO, 0), code(E.A_PHOTO, 1)} <= codes(g)
    g.apply(code(E.A_PHOTO, 1))
    assert pay_options(g) == [1, 2]  # the fox is forced; one snake, or the pair as a wild
    g.apply(code(E.A_PAY, 1))
    assert g.state[E.PHOTO_OWNER + other] == 0 and g.state[E.PHOTO_LOC + el_cap] == E.P_SLOT
    assert hand(g, 0) == [0, 0, 1, 1, 0]


def test_camera_offers_a_photo_in_either_slot_YO_BON_CAM():
    """The camera takes any available photo the hand can pay for, not only the first one."""
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    empty_hand(g, 0)
    half_dome = photo_needing(g, [SHEEP, SHEEP, COUGAR, BEAR])  # out of reach
    soda_springs = photo_needing(g, [FOX, SNAKE])
    show_photo(g, 0, half_dome)
    show_photo(g, 1, soda_springs)
    give(g, 0, SNAKE)
    put(g, sq(0, 0), FOX, CAMERA)
    g.apply(code(E.A_ANIMAL, sq(0, 1)))
    assert g.phase == "camera" and codes(g) == {code(E.A_PHOTO, 1), code(E.A_NO_PHOTO)}
    g.apply(code(E.A_PHOTO, 1))  # the collected fox and the rattlesnake pay
    assert g.state[E.PHOTO_OWNER + soda_springs] == 0 and hand(g, 0) == [0] * 5


def test_camera_two_of_a_kind_is_wild_and_the_player_picks_the_payment_YO_BON_CAM():
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1, COUGAR: 2})
    g.apply(code(E.A_PHOTO, 0))
    assert g.phase == "pay" and pay_options(g) == [0, 1]  # the fox: itself or a wild pair
    g.apply(code(E.A_PAY, 0))  # keep the fox
    # sheep: none held (forced); then the bear must be paid, both snakes too, and the
    # cougar pair stands in for the fox
    assert hand(g, 0) == [1, 0, 0, 0, 0] and g.state[E.PHOTO_OWNER + el_cap] == 0
    log = [line for line in g.log if ": pay" in line]
    assert [line.split(": ")[1].split(" (")[0].split(" [")[0] for line in log] == [
        "pay 0 red fox", "pay 0 bighorn sheep", "pay 1 black bear", "pay 2 rattlesnake",
        "pay 2 cougar"]


def test_camera_every_distinct_payment_is_one_choice_sequence_YO_BON_CAM():
    g, _ = camera_turn({SNAKE: 2, BEAR: 1, COUGAR: 2})
    g.apply(code(E.A_PHOTO, 0))
    held = hand(g, 0)
    payments = set()

    def walk(game):
        if game.phase != "pay":
            payments.add(tuple(h - k for h, k in zip(held, hand(game, 0), strict=True)))
            return
        for c in pay_options(game):
            nxt = copy.deepcopy(game)
            nxt.apply(code(E.A_PAY, c))
            walk(nxt)

    walk(g)
    spent = sorted(payments)
    # tiles of fox, sheep, bear, rattlesnake, cougar discarded: all matching; the cougar pair
    # standing in for the fox, the bear or one snake; or the snake pair standing in for one
    # snake and the cougar pair for the other (legal as written, never better)
    assert spent == sorted([(1, 0, 1, 2, 0), (0, 0, 1, 2, 2), (1, 0, 0, 2, 2),
                            (1, 0, 1, 1, 2), (1, 0, 1, 2, 2)])


def test_camera_wilds_off_only_matching_tiles_pay_YO_BON_CAM():
    g, el_cap = camera_turn({SNAKE: 2, COUGAR: 2}, config=YosemiteConfig(wilds=False))
    assert g.current_player == 1 and g.state[E.PHOTO_LOC + el_cap] == E.P_SLOT  # no camera
    g, el_cap = camera_turn({SNAKE: 2, COUGAR: 2})
    assert g.phase == "camera"  # with wilds the cougar pair stands in for the bear


# ---------------------------------------------------------------- reset and end


def test_refill_brings_landmark_token_YO_RST_1():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    s = g.state
    put(g, sq(0, 0), SHEEP, TENT)
    top = int(s[E.N_DECK]) - 1
    lm_tile = E.N_TILES + 3
    i = next(i for i in range(top + 1) if s[E.DECK + i] == lm_tile)
    s[E.DECK + i], s[E.DECK + top] = s[E.DECK + top], s[E.DECK + i]
    g.apply(code(E.A_ANIMAL, sq(0, 2)))
    assert s[E.PARK + sq(0, 0)] == lm_tile and s[E.LM_TOKEN_ON + 3] == 1


def test_empty_deck_reshuffles_discards_YO_RST_2():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    s = g.state
    put(g, sq(0, 0), SHEEP, TENT)
    spare = iter(range(sq(3, 0), sq(4, 4)))
    for i in range(int(s[E.N_DECK])):  # the deck to the discards; landmarks into the park
        t = int(s[E.DECK + i])
        if t >= E.N_TILES:
            q = next(spare)
            t, s[E.PARK + q] = int(s[E.PARK + q]), t
            s[E.TILE_LOC + s[E.PARK + q]] = E.L_PARK
        s[E.TILE_LOC + t] = E.L_DISCARD
    s[E.N_DECK] = 0
    g.apply(code(E.A_ANIMAL, sq(0, 2)))
    assert s[E.PARK + sq(0, 0)] >= 0
    assert sum(s[E.TILE_LOC + t] == E.L_DISCARD for t in range(E.N_ALL_TILES)) == 0


def test_discard_down_to_hand_limit_YO_RST_3():
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    s = g.state
    give(g, 0, FOX, 10 - E.hand_size(s, 0))
    put(g, sq(0, 0), SHEEP, TENT)
    g.apply(code(E.A_ANIMAL, sq(0, 2)))
    assert g.phase == "discard" and E.hand_size(s, 0) == 11
    g.apply(code(E.A_DISCARD, SHEEP))
    assert E.hand_size(s, 0) == 10 and s[E.CUR] == 1


def test_hand_limit_discard_gives_up_a_tile_the_opponent_has_seen_YO_RST_3():
    """Of two foxes the one taken face up from the park goes, so the one drawn from the deck
    stays hidden (docs/rulings.md, Discards)."""
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    s = g.state
    empty_hand(g, 0)
    give(g, 0, FOX)  # from the deck, never face up
    give(g, 0, BEAR, 4)
    give(g, 0, COUGAR, 5)
    t = put(g, sq(0, 0), FOX, TENT)
    s[E.SEEN + t] = 1  # face up in the park
    g.apply(code(E.A_ANIMAL, sq(0, 2)))
    assert g.phase == "discard"
    g.apply(code(E.A_DISCARD, FOX))
    assert s[E.TILE_LOC + t] == E.L_DISCARD and hand(g, 0)[FOX] == 1
    assert g.observation(1)["opponent_tiles_seen"]["red fox"] == 0


def empty_photo_deck(g):
    s = g.state
    for i in range(int(s[E.N_PHOTO_DECK])):
        s[E.PHOTO_LOC + s[E.PHOTO_DECK + i]] = E.P_BOX
    s[E.N_PHOTO_DECK] = 0


def test_game_ends_when_a_photo_cannot_be_refilled_YO_END_1():
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1})
    empty_photo_deck(g)
    g.apply(code(E.A_NO_PHOTO))  # nothing to refill: play goes on
    assert not g.is_over() and g.current_player == 1
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1})
    empty_photo_deck(g)
    g.apply(code(E.A_PHOTO, 0))
    assert g.is_over() and g.state[E.TURN] == 0 and g.state[E.SLOT] == -1
    assert g.scores().photos.tolist() == [4, 0]


def test_nine_photos_are_taken_when_the_game_ends_YO_END_1():
    """Ten photos are in play: the game ends with nine in front of the players, one face up."""
    df = run_games(YosemiteConfig(), ["random", "random"], 0, 4, 3)
    assert (df.truncated == 0).all()
    assert df.groupby("game").photos.sum().eq(9).all()


# ---------------------------------------------------------------- scoring


def credit(g, p, ph):
    """Photo ph taken by p on an earlier turn (the arranged position's history)."""
    s, comp = g.state, g.config.components
    photo = comp.photos[ph]
    if s[E.PHOTO_LOC + ph] == E.P_SLOT:
        slot = next(k for k in range(E.MAX_SLOTS) if s[E.SLOT + k] == ph)
        s[E.SLOT + slot] = next(q for q in range(E.N_PHOTOS) if s[E.PHOTO_LOC + q] == E.P_BOX)
        s[E.PHOTO_LOC + s[E.SLOT + slot]] = E.P_SLOT
    s[E.PHOTO_LOC + ph] = E.P_TAKEN
    s[E.PHOTO_OWNER + ph] = p
    s[E.PHOTOS + p] += 1
    s[E.S_PHOTOS + p] += photo.points
    for a in photo.animals:
        s[E.PHOTO_ANIMALS + p * 5 + a] += 1
    s[E.LM_MATCH + p * 5 + photo.landmark] += 1


def scoring_game():
    """Player 0 to play the last turn, both hands empty, no judges, the photo deck empty."""
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4))
    for p in range(2):
        empty_hand(g, p)
    g.state[E.JUDGE_IN:E.JUDGE_IN + 5] = 0
    empty_photo_deck(g)
    return g


def last_photo(g, ph):
    """Player 0 collects a camera tile, takes photo ph paying its own animals, and the game
    ends, since the photo deck cannot refill the slot (YO-END-1)."""
    animals = g.config.components.photos[ph].animals
    show_photo(g, 0, ph)
    for a in animals[1:]:
        give(g, 0, a)
    put(g, sq(0, 0), animals[0], CAMERA)
    g.apply(next(a for a in g.legal_actions() if a.kind == "animal move"))
    if g.phase == "push":
        g.apply(g.legal_actions()[0])
    g.apply(code(E.A_PHOTO, 0))
    while g.phase == "pay":
        a = int(g.state[E.PAY_ANIMAL])
        g.apply(code(E.A_PAY, animals.count(a)))
    assert g.is_over()
    return g.scores()


def plain_photo(g, avoid=()):
    """A photo worth scoring that needs none of `avoid` and is not on a landmark in `avoid`."""
    comp = g.config.components
    return next(i for i, ph in enumerate(comp.photos) if g.state[E.PHOTO_LOC + i] != E.P_TAKEN
                and not set(ph.animals) & set(avoid))


def test_rulebook_scoring_example_is_34_YO_SCO_EX_YO_SCO_PHO_YO_SCO_CMP_YO_SCO_JDG_YO_SCO_LMK():
    ex = load_components().example
    g = scoring_game()
    s = g.state
    for ph in ex.photos[:-1]:
        credit(g, 0, ph)
    s[E.CAMP], s[E.TENTS] = ex.camping, ex.tents
    s[E.TENT_SUPPLY] -= ex.tents
    for a in ex.judges:
        s[E.JUDGE_IN + a] = 1
    for lm in ex.landmarks:
        s[E.LM_OWNER + lm], s[E.LM_TOKEN_ON + lm] = 0, 0
    for a in ex.hand:
        give(g, 0, a)
    sheet = last_photo(g, ex.photos[-1]).iloc[0]  # the example's fourth photo, taken in play
    assert hand(g, 0) == [list(ex.hand).count(a) for a in range(5)]
    assert (sheet.photos, sheet.camping, sheet.judges, sheet.landmarks) == (14, 5, 4, 11)
    assert sheet.score == ex.total == 34


def test_judge_needs_strictly_the_most_photos_and_hand_tiles_YO_SCO_JDG():
    for extra, judges in ((0, [0, 0]), (1, [0, 4])):
        g = scoring_game()
        g.state[E.JUDGE_IN + BEAR] = 1
        give(g, 0, BEAR, 2)  # two bear tiles in hand ...
        credit(g, 1, photo_needing(g, [BEAR, BEAR, FOX]))  # ... against two bears photographed
        give(g, 1, BEAR, extra)
        sheet = last_photo(g, plain_photo(g, avoid=[BEAR]))
        assert sheet.judges.tolist() == judges  # a tie gives nobody the card


@pytest.mark.parametrize("matches,points", [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14)])
def test_landmark_chart_YO_SCO_LMK(matches, points):
    g = scoring_game()
    comp = g.config.components
    lm = 1
    g.state[E.LM_OWNER + lm], g.state[E.LM_TOKEN_ON + lm] = 1, 0
    for ph in [i for i, p in enumerate(comp.photos) if p.landmark == lm][:matches]:
        credit(g, 1, ph)
    last = next(i for i, p in enumerate(comp.photos) if p.landmark != lm)
    assert last_photo(g, last).landmarks.tolist() == [0, points]


def test_camping_points_on_your_side_only_plus_tent_tokens_YO_SCO_CMP():
    g = scoring_game()
    g.state[E.CAMP] = -4  # on player 1's 4
    g.state[E.TENTS], g.state[E.TENT_SUPPLY] = 3, 7
    sheet = last_photo(g, plain_photo(g))
    track = g.config.components.camping_track
    assert sheet.camping.tolist() == [3, track[3]] == [3, 4]


def test_camping_scores_nothing_while_the_token_is_off_the_track_YO_SCO_CMP():
    g = scoring_game()
    assert g.state[E.CAMP] == 0
    assert last_photo(g, plain_photo(g)).camping.tolist() == [0, 0]


@pytest.mark.parametrize("camp,won", [(1, [1.0, 0.0]), (2, [1.0, 0.0]), (-1, [0.0, 1.0]),
                                      (0, [0.5, 0.5])])
def test_tie_break_by_camping_token_else_shared_YO_TIE_1(camp, won):
    g = scoring_game()
    track = g.config.components.camping_track
    ph = plain_photo(g)
    g.state[E.CAMP] = camp
    mine = track[camp - 1] if camp > 0 else 0
    theirs = track[-camp - 1] if camp < 0 else 0
    g.state[E.S_PHOTOS + 1] = g.config.components.photos[ph].points + mine - theirs
    sheet = last_photo(g, ph)
    assert sheet.score[0] == sheet.score[1]
    assert sheet.won.tolist() == won


# ---------------------------------------------------------------- bad inputs


@pytest.mark.parametrize("knobs,needle", [
    (dict(players=3), "two-player"), (dict(tiles_dealt=11), "tiles_dealt"),
    (dict(hand_limit=13), "hand_limit"), (dict(photos_removed=19), "photos_removed"),
    (dict(judges=6), "judges"), (dict(wilds=1), "wilds"), (dict(start_fish=6), "start_fish"),
])
def test_bad_knobs_raise_input_error(knobs, needle):
    with pytest.raises(InputError, match=needle):
        YosemiteConfig(**knobs)


def test_unknown_knob_and_illegal_action_are_input_errors():
    with pytest.raises(InputError, match="unknown Yosemite rule knob"):
        YosemiteConfig.from_knobs(photo_target=3)
    g = game_in_turn()
    before = g.state.copy()
    with pytest.raises(InputError, match="not legal"):
        g.apply(code(E.A_DISCARD, 0))
    assert (g.state == before).all()
