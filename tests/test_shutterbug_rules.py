"""ShutterBug rules, clause by clause (SB-* in shared/rules/CLAUSES.md), through the step API.

Most situations use `populate=1` so that the board holds exactly the tiles a test places.
"""

from dataclasses import replace

import numpy as np
import pytest
from shutterbug_helpers import (
    CRE,
    NO_TRADE,
    SKIP,
    STOP,
    arrange,
    bag_top,
    check_invariants,
    code,
    deck_top,
    give_portfolio,
    hand,
    last_turn,
    legal,
    map_listing_first,
    move,
    new,
    pay,
    place_cities,
    play,
    set_side,
    sid,
    tile_with,
    tiles_of,
    tip,
)

from snapsim.errors import InputError
from snapsim.games.shutterbug import ShutterbugConfig, load_components
from snapsim.games.shutterbug import engine as E
from snapsim.games.shutterbug.components import SideJob

THREE = ShutterbugConfig(players=3, populate=1)


def occupied(st) -> int:
    """Spaces holding tiles, counted tile by tile (and the engine's board mask agreeing)."""
    count = int((st[E.ON_SPACE:E.ON_SPACE + E.MAX_SPACES] > 0).sum())
    assert int(st[E.BOARD]).bit_count() == count
    return count


def photo(t):
    return code(E.A_PHOTO, t)


# ============================================================================ set-up


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_setup_SB_SET_1(players):
    # clause SB-SET-1: tiles in the bag, one assignment each, 3 tips each, then every pawn
    # is placed on a city before the first turn
    for seed in range(3):
        g = new(ShutterbugConfig(players=players), seed=seed)
        st, comp = g.state, g.config.components
        assert g.phase == ("keep an assignment" if players == 1 else "choose a starting city")
        assert st[E.N_BAG] == E.N_TILES and occupied(st) == 0
        tips = 4 if players == 1 else 3
        assert [int(st[E.N_HAND + p]) for p in range(players)] == [tips] * players
        assigned = [int(st[E.ASSIGN + p]) for p in range(players)]
        assert len(set(assigned)) == players
        place_cities(g)
        check_invariants(g)
        assert g.phase == "move" and g.current_player == 0 and occupied(st) == 7 + 3 * (
            players == 1)
        for p in range(players):
            for k in range(g.config.pawns):
                assert comp.spaces[int(st[E.PAWN + p * E.MAX_PAWNS + k])].city


def test_start_tips_may_differ_by_seat_a_handicap_knob_SB_SET_1():
    # a designer's handicap (docs/rulings.md): start_tips per seat, in turn order
    g = new(ShutterbugConfig(players=4, start_tips=(2, 3, 3, 5)), seed=4)
    assert [int(g.state[E.N_HAND + p]) for p in range(4)] == [2, 3, 3, 5]
    with pytest.raises(InputError, match="one per seat"):
        ShutterbugConfig(players=3, start_tips=(3, 3))
    plain, same = (new(ShutterbugConfig(players=3, start_tips=t), seed=9) for t in (3, (3,) * 3))
    assert (plain.state == same.state).all()


CITIES = {"Seattle", "New York", "Chicago", "San Francisco", "Denver", "New Orleans"}


def test_players_choose_starting_cities_in_turn_order_SB_SET_1():
    # clause SB-SET-1: "Players each choose a starting City ... more than one Character can
    # occupy the same City"
    g = new(ShutterbugConfig(players=3))
    for p, city in enumerate(["Denver", "Denver", "Seattle"]):
        assert g.phase == "choose a starting city" and g.current_player == p
        assert {a.space for a in g.legal_actions()} == {sid(g, c) for c in CITIES}
        assert g.observation(0)["pawns"][p] == [None]
        play(g, code(E.A_CITY, sid(g, city)))
    assert g.phase == "move" and g.current_player == 0 and g.state[E.ROUND] == 0
    assert g.observation(2)["pawns"] == [["Denver"], ["Denver"], ["Seattle"]]
    assert occupied(g.state) == 7  # the first turn starts with Step 1
    assert move(g, "Plains 1") in legal(g)  # the pawn moves from its chosen city


def test_team_pawns_choose_two_separate_cities_SB_SET_1_SB_2P_1():
    # clauses SB-SET-1, SB-2P-1: "The teamed-up pawns must start the game on separate Cities"
    g = new(ShutterbugConfig(players=2))
    play(g, code(E.A_CITY, sid(g, "Chicago")))
    assert g.current_player == 0  # the same player places their second pawn
    second = {a.space for a in g.legal_actions()}
    assert second == {sid(g, c) for c in CITIES - {"Chicago"}}
    assert all(a.pawn == 1 for a in g.legal_actions())
    play(g, code(E.A_CITY, 64 + sid(g, "New Orleans")))
    assert g.current_player == 1 and len(g.legal_actions()) == 6  # the rival may share
    play(g, code(E.A_CITY, sid(g, "Chicago")), code(E.A_CITY, 64 + sid(g, "Denver")))
    assert g.phase == "move"
    assert g.observation(1)["pawns"] == [["Chicago", "New Orleans"], ["Chicago", "Denver"]]


def test_solo_keeps_an_assignment_then_chooses_cities_SB_SET_1_SB_VAR_SOLO():
    # clauses SB-SET-1, SB-VAR-SOLO: cities are chosen knowing the assignment kept
    g = new(ShutterbugConfig(players=1))
    play(g, code(E.A_KEEP, 1))
    assert g.phase == "choose a starting city"
    play(g, code(E.A_CITY, sid(g, "Seattle")))
    assert move(g, "Seattle", pawn=1) not in legal(g)
    assert sid(g, "Seattle") not in {a.space for a in g.legal_actions()}
    play(g, code(E.A_CITY, 64 + sid(g, "New York")))
    assert g.phase == "move" and occupied(g.state) == 10


def test_random_cities_knob_draws_the_cities():
    # a study may still draw the starting cities: no set-up decision, separate team cities
    for seed in range(5):
        g = new(ShutterbugConfig(players=2, random_cities=True), seed=seed)
        assert g.phase == "move"
        for p in range(2):
            a, b = g.observation(p)["pawns"][p]
            assert {a, b} <= CITIES and a != b


def greedy_city(policy, creature, other):
    g = new(ShutterbugConfig(players=3), policies=[policy] * 3)
    a = int(g.state[E.ASSIGN])
    for side in (0, 1):
        set_side(g, a, side, [(creature, 6), (other, 2), ("Chupacabra", 2)])
    g.state[E.HAND:E.HAND + E.N_TYPES] = 0
    for terrain in ("beach", "forest", "swamp"):
        g.state[E.HAND + tip(creature, terrain)] += 1
    return g.config.components.spaces[g.policy_action().space].name


@pytest.mark.parametrize("policy", ["greedy", "trader", "lookahead"])
def test_heuristic_policies_choose_cities_by_assignment_and_tips(policy):
    # SB-SET-1 as a decision: Denver reaches most of the map, but a Jackalope hunter with
    # Jackalope tips starts next to the Jackalope plains and swamps of New Orleans
    assert greedy_city(policy, "Bigfoot", "Pegasus") == "Denver"
    assert greedy_city(policy, "Jackalope", "Bigfoot") == "New Orleans"


def test_random_policy_chooses_cities_at_random():
    picks = set()
    for game in range(12):
        g = new(ShutterbugConfig(players=3), game=game)
        picks.add(g.config.components.spaces[g.policy_action().space].name)
    assert len(picks) >= 4 and picks <= CITIES


def test_board_is_populated_to_7_spaces_SB_POP_1():
    # clause SB-POP-1: at the start of every turn the board is refilled to 7 spaces
    g = place_cities(new(ShutterbugConfig(players=4)))
    comp = g.config.components
    for _ in range(6):
        assert occupied(g.state) == 7
        on_board = [t for t in range(E.N_TILES) if g.state[E.TILE_LOC + t] == E.T_BOARD]
        spaces = {comp.tiles[t].space for t in on_board}
        assert len(spaces) == 7
        for t in on_board:  # a tile lies on the space of its creature and terrain
            s = comp.spaces[comp.tiles[t].space]
            assert (s.creature, s.terrain) == (comp.tiles[t].creature, comp.tiles[t].terrain)
        turn = g.state[E.ST_TURNS:E.ST_TURNS + 4].sum()
        while g.state[E.ST_TURNS:E.ST_TURNS + 4].sum() == turn:
            g.apply(g.policy_action())


def test_duplicate_tile_stacks_and_drawing_continues_SB_POP_2():
    # clause SB-POP-2: P1 photographs two lone tiles, leaving 5 spaces with tiles; P2's Step 1
    # draws both Mountain 2 twins (one space: 6) and goes on to a seventh space
    g = new(ShutterbugConfig(players=3))
    board = [8, 10, 24, 28, 34, 40, 42]  # seven spaces, Mountain 2 empty
    cards = [tip("Bigfoot", "plains"), tip("Bigfoot", "desert"), tip("Chupacabra", "forest")]
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"], hands={0: cards}, board=board)
    twin_a, twin_b = tiles_of(g, "Mountain 2")
    bag_top(g, [twin_a, twin_b, 0, 1])
    bag = int(g.state[E.N_BAG])
    play(g, move(g, "Beach 1"), photo(8), pay("Bigfoot", "plains"))  # 2nd tip forced
    play(g, move(g, "Mountain 3"), photo(10))  # its one tip is paid as a forced move
    assert occupied(g.state) == 5 and g.current_player == 0
    play(g, STOP)
    assert g.current_player == 1 and occupied(g.state) == 7
    assert g.state[E.ON_SPACE + sid(g, "Mountain 2")] == 2
    assert g.state[E.TILE_LOC + 0] == E.T_BOARD and g.state[E.TILE_LOC + 1] == E.T_BAG
    assert g.state[E.N_BAG] == bag - 3


# ============================================================================ movement


def test_move_one_to_three_spaces_without_revisiting_SB_MOV_1():
    # clause SB-MOV-1
    g = arrange(new(THREE), ["Seattle", "Swamp 4", "Swamp 4"], board=[tiles_of(new(THREE),
                                                                          "Beach 3")[0]])
    assert legal(g) == {move(g, "Mountain 1"), move(g, "Beach 1")}  # no stop before a step
    play(g, move(g, "Mountain 1"))
    assert move(g, "Seattle") not in legal(g)  # never back onto a space of this turn
    assert legal(g) == {move(g, "Mountain 2"), move(g, "Beach 1"), move(g, "Mountain 3"), STOP}
    play(g, move(g, "Mountain 2"))
    assert move(g, "Mountain 1") not in legal(g)
    play(g, move(g, "Mountain 4"))  # the third step: stopping is forced, the turn passes
    assert g.state[E.CUR] == 1 and g.state[E.ST_STEPS] == 3


def test_move_into_any_neighbour_including_the_corner_city_SB_MOV_1_SB_TIP_1():
    # clauses SB-MOV-1, SB-TIP-1: from Mountain 1 every neighbour is open, Seattle too (the
    # map's first space); ending there draws two tips
    g = new(THREE)
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"], hands={0: [tip("Bigfoot", "beach")]},
            board=[tiles_of(g, "Beach 3")[0]])
    assert legal(g) == {move(g, s) for s in ("Seattle", "Mountain 2", "Beach 1", "Mountain 3")}
    play(g, move(g, "Seattle"), STOP)
    assert g.observation(0)["pawns"][0] == ["Seattle"] and hand(g, 0).sum() == 3


# ============================================================================ trading


def test_trade_gives_chosen_and_takes_random_once_per_player_SB_TRD_1():
    # clause SB-TRD-1
    g = new(THREE)
    a, b, c = tip("Bigfoot", "beach"), tip("Pegasus", "forest"), tip("Jackalope", "swamp")
    arrange(g, ["Plains 1", "New Orleans", "New Orleans"], hands={0: [a, b], 1: [c]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "New Orleans"))
    assert g.phase == "trade"  # with P2 only: P3 holds no tips
    assert legal(g) == {code(E.A_TRADE, a), code(E.A_TRADE, b), NO_TRADE}
    play(g, code(E.A_TRADE, a))
    assert hand(g, 0)[b] == 1 and hand(g, 0)[c] == 1 and hand(g, 0).sum() == 2
    assert hand(g, 1)[a] == 1 and hand(g, 1).sum() == 1  # P2 receives the face-down tip
    assert g.phase == "move"
    check_invariants(g)


def test_trade_takes_a_random_tip_not_the_one_given_SB_TRD_1():
    # clause SB-TRD-1: the tip given is not in the partner's hand while they are drawn from
    taken = set()
    for seed in range(20):
        g = new(THREE, seed=seed)
        a, b, c = tip("Bigfoot", "beach"), tip("Pegasus", "forest"), tip("Jackalope", "swamp")
        arrange(g, ["Plains 1", "New Orleans", "Swamp 4"], hands={0: [a], 1: [b, c]},
                board=[tiles_of(g, "Beach 3")[0]])
        play(g, move(g, "New Orleans"), code(E.A_TRADE, a))
        got = hand(g, 0)
        assert got[a] == 0 and got.sum() == 1
        taken.add(int(np.argmax(got)))
    assert taken == {b, c}


def test_one_trade_with_each_player_on_the_space_SB_TRD_1():
    # clause SB-TRD-1: P2 and P3 wait in New Orleans with a tip each; P1 trades with P2, then
    # is offered a trade with P3, and with no one after that
    g = new(THREE)
    a, b = tip("Bigfoot", "beach"), tip("Pegasus", "forest")
    c, d = tip("Jackalope", "swamp"), tip("Chupacabra", "desert")
    arrange(g, ["Plains 1", "New Orleans", "New Orleans"], hands={0: [a, b], 1: [c], 2: [d]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "New Orleans"), code(E.A_TRADE, a))
    assert hand(g, 1)[a] == 1 and hand(g, 0)[c] == 1
    assert g.phase == "trade" and legal(g) == {code(E.A_TRADE, b), code(E.A_TRADE, c), NO_TRADE}
    play(g, code(E.A_TRADE, b))
    assert hand(g, 2)[b] == 1 and hand(g, 0)[d] == 1 and hand(g, 0).sum() == 2
    assert g.phase == "move" and g.state[E.ST_TRADES] == 2
    assert g.state[E.ST_TRADED_WITH + 1] == 1 and g.state[E.ST_TRADED_WITH + 2] == 1


def test_no_trade_without_tips_or_when_trading_is_off_SB_TRD_1():
    # clause SB-TRD-1: only "if you have Tip cards in your hand"
    g = new(THREE)
    arrange(g, ["Plains 1", "New Orleans", "Swamp 4"], hands={1: [tip("Bigfoot", "beach")]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "New Orleans"))
    assert g.phase == "move" and g.log[-1].endswith("move pawn 1 to New Orleans")  # not asked
    g = new(THREE.replace(trading=False))
    arrange(g, ["Plains 1", "New Orleans", "Swamp 4"], hands={0: [0], 1: [1]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "New Orleans"))
    assert g.phase == "move" and g.log[-1].endswith("move pawn 1 to New Orleans")  # not asked


# ============================================================================ tips


def test_city_tips_pass_one_end_two_and_trade_first_SB_TIP_1():
    # clause SB-TIP-1
    g = new(THREE)
    arrange(g, ["Plains 1", "New Orleans", "Swamp 4"], hands={0: [0], 1: [1]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "New Orleans"))
    assert g.phase == "trade" and hand(g, 0).sum() == 1  # no tips drawn before trading
    play(g, NO_TRADE, move(g, "Swamp 1"))
    assert hand(g, 0).sum() == 2  # passed through: one tip
    g = new(THREE)
    arrange(g, ["Plains 1", "Swamp 4", "Swamp 4"], hands={0: [0]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "New Orleans"), STOP)
    assert hand(g, 0).sum() == 3  # ended there: two tips
    g = new(THREE)
    arrange(g, ["Denver", "Swamp 4", "Swamp 4"], hands={0: [0]},
            board=[tiles_of(g, "Beach 3")[0]])
    play(g, move(g, "Plains 1"), STOP)
    assert hand(g, 0).sum() == 1  # leaving the starting city draws nothing


def test_empty_deck_is_refilled_from_the_shuffled_discards_SB_TIP_1():
    # clause SB-TIP-1 when the deck runs out (ruling: the discards are shuffled into a deck)
    g = new(THREE)
    arrange(g, ["Plains 1", "Swamp 4", "Swamp 4"], hands={0: [0]},
            board=[tiles_of(g, "Beach 3")[0]])
    st = g.state
    for u in st[E.DECK:E.DECK + st[E.N_DECK]]:
        st[E.DISC + u] += 1
    st[E.N_DECK] = 0
    play(g, move(g, "New Orleans"), STOP)
    assert hand(g, 0).sum() == 3 and st[E.N_DECK] == E.N_TIPS - 3
    assert st[E.DISC:E.DISC + E.N_TYPES].sum() == 0
    check_invariants(g)


# ============================================================================ photographs


def test_three_point_photo_is_creature_creature_terrain_SB_PHO_1_SB_PHO_4():
    # clauses SB-PHO-1, SB-PHO-4 (rulebook example: 3 point photo = creature + creature +
    # terrain)
    g = new(THREE)
    t = tile_with(g, "Mountain 2", 3)
    cards = [tip("Jackalope", "beach"), tip("Jackalope", "desert"), tip("Bigfoot", "mountain")]
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"], hands={0: cards}, board=[t])
    play(g, move(g, "Mountain 2"))
    assert legal(g) == {photo(t), SKIP}
    play(g, photo(t))
    assert legal(g) == {pay("Jackalope", "beach"), pay("Jackalope", "desert")}
    play(g, pay("Jackalope", "beach"))
    assert legal(g) == {pay("Jackalope", "desert"), pay("Bigfoot", "mountain")}
    play(g, pay("Bigfoot", "mountain"))  # the last tip left is paid as a forced move
    assert g.state[E.TILE_LOC + t] == E.T_PORTFOLIO and g.state[E.TILE_OWNER + t] == 0
    assert g.state[E.QUAL + CRE["Jackalope"]] == 3
    assert g.state[E.ST_PHOTOS] == 1 and g.state[E.ST_QUALITY] == 3  # the results' columns
    assert hand(g, 0).sum() == 0
    check_invariants(g)


@pytest.mark.parametrize("cards", [
    [("Bigfoot", "mountain"), ("Pegasus", "mountain")],  # no tip shows the creature
    [("Jackalope", "mountain")],  # one tip cannot count as creature and terrain
    [("Jackalope", "beach"), ("Bigfoot", "forest")],  # second tip matches nothing
])
def test_first_tip_shows_the_creature_and_each_tip_counts_once_SB_PHO_2(cards):
    # clause SB-PHO-2
    g = new(THREE)
    t = tile_with(g, "Mountain 2", 2)
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"], hands={0: [tip(*c) for c in cards]},
            board=[t])
    play(g, move(g, "Mountain 2"))
    assert g.phase == "move" and photo(t) not in legal(g)


def test_one_tile_per_space_even_with_a_duplicate_SB_PHO_3():
    # clause SB-PHO-3
    g = new(THREE)
    t1, t2 = tiles_of(g, "Mountain 2")
    cards = [tip("Jackalope", "beach")] * 2 + [tip("Jackalope", "desert")] * 2 + \
        [tip("Bigfoot", "mountain")]
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"], hands={0: cards}, board=[t1, t2])
    play(g, move(g, "Mountain 2"))
    assert legal(g) == {photo(t1), photo(t2), SKIP}
    play(g, photo(t1))
    while g.phase == "pay tips":
        g.apply(g.legal_actions()[0])
    assert g.phase == "move"
    assert not any(a.kind == "photograph" for a in g.legal_actions())
    assert g.state[E.TILE_LOC + t2] == E.T_BOARD


def test_team_player_takes_one_tile_per_space_a_turn_SB_PHO_3():
    # clause SB-PHO-3 in the team game: "You may take only one Creature Photo tile per
    # space, even if there is a duplicate present" binds the player, not each pawn
    g = new(ShutterbugConfig(players=2, populate=1))
    q2, q3 = tile_with(g, "Mountain 2", 2), tile_with(g, "Mountain 2", 3)
    cards = [tip("Jackalope", "beach")] * 2 + [tip("Jackalope", "desert")] * 2 + \
        [tip("Bigfoot", "mountain")] * 2
    arrange(g, [["Mountain 1", "Forest 1"], ["Seattle", "Beach 3"]], hands={0: cards},
            board=[q2, q3])
    play(g, move(g, "Mountain 2", pawn=0), photo(q2), pay("Jackalope", "beach"),
         pay("Bigfoot", "mountain"))
    assert g.state[E.TILE_OWNER + q2] == 0 and hand(g, 0).sum() == 4
    play(g, move(g, "Mountain 4", pawn=0))  # makes room: own pawns never share a space
    play(g, move(g, "Mountain 2", pawn=1))  # the twin is there and affordable, but not now
    assert g.current_player == 1 and g.state[E.TILE_LOC + q3] == E.T_BOARD
    play(g, move(g, "Beach 1"), STOP)  # the rival's turn
    # a later turn is a new visit: the player may take the twin
    play(g, move(g, "Mountain 1", pawn=1), move(g, "Mountain 2", pawn=0))
    assert photo(q3) in legal(g)
    play(g, photo(q3))
    assert g.phase == "pay tips"


def test_no_photograph_decision_without_the_tips_for_it_SB_PHO_2():
    # clause SB-PHO-2: the Mountain 2 Jackalope cannot be paid for (no Jackalope tip), so
    # entering its space asks nothing, although a Bigfoot elsewhere could be paid for
    g = new(THREE)
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"],
            hands={0: [tip("Bigfoot", "beach"), tip("Bigfoot", "mountain")]},
            board=[tile_with(g, "Mountain 2", 2), tile_with(g, "Beach 1", 2)])
    play(g, move(g, "Mountain 2"))
    assert g.phase == "move" and g.log[-1].endswith("move pawn 1 to Mountain 2")


def test_photo_on_the_first_space_of_a_reordered_map_SB_PHO_1(tmp_path):
    # clause SB-PHO-1 on a designer's file listing Mountain 2 first: the order of the map in
    # the file changes nothing, its tile is taken as on the bundled map
    g = new(ShutterbugConfig(players=3, populate=1,
                             components=map_listing_first(tmp_path, "Mountain 2")))
    assert sid(g, "Mountain 2") == 0
    t = tile_with(g, "Mountain 2", 2)
    cards = [tip("Jackalope", "beach"), tip("Bigfoot", "mountain")]
    arrange(g, ["Mountain 1", "Swamp 4", "Swamp 4"], hands={0: cards}, board=[t])
    play(g, move(g, "Mountain 2"))
    assert legal(g) == {photo(t), SKIP}
    play(g, photo(t))  # the Jackalope tip first, then the mountain one: both forced
    assert g.state[E.TILE_OWNER + t] == 0 and g.state[E.QUAL + CRE["Jackalope"]] == 2


# ============================================================================ end of turn


@pytest.mark.parametrize("seat", [0, 2])
def test_discard_down_to_seven_SB_DIS_1(seat):
    # clause SB-DIS-1, for the first and the last seat
    g = new(THREE)
    pawns = ["Swamp 4"] * 3
    pawns[seat] = "Plains 1"
    arrange(g, pawns, hands={seat: list(range(7))}, board=[tiles_of(g, "Beach 3")[0]],
            cur=seat)
    deck_top(g, [10, 11])
    play(g, move(g, "New Orleans"), STOP)
    assert g.phase == "discard" and hand(g, seat).sum() == 9
    assert legal(g) == {code(E.A_DISCARD, u) for u in [*range(7), 10, 11]}
    play(g, code(E.A_DISCARD, 10))
    assert g.state[E.CUR] == seat
    play(g, code(E.A_DISCARD, 3))
    assert g.state[E.CUR] == (seat + 1) % 3 and hand(g, seat).sum() == 7
    assert g.state[E.DISC + 10] == 1 and g.state[E.DISC + 3] == 1


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_eight_rounds_first_player_stays_SB_RND_1(players):
    # clause SB-RND-1
    g = new(ShutterbugConfig(players=players), seed=3)
    seen = []
    while not g.is_over():
        seen.append((int(g.state[E.ROUND]), int(g.state[E.CUR])))
        g.apply(g.policy_action())
    order = list(dict.fromkeys(seen))
    assert order == [(r, p) for r in range(8) for p in range(players)]
    assert g.state[E.ROUND] == 8
    # every seat took eight turns: the results' "turns" column
    assert g.state[E.ST_TURNS:E.ST_TURNS + players].tolist() == [8] * players


# ============================================================================ scoring


def tiles_for(g, photos, used=()):
    """Tiles of these (creature name, quality) photographs, none of them in `used`."""
    comp, out = g.config.components, []
    for creature, quality in photos:
        out.append(next(t for t, tile in enumerate(comp.tiles)
                        if comp.creatures[tile.creature] == creature and tile.quality == quality
                        and t not in out and t not in used))
    return out


def end_with(g, portfolios, pawns=("Swamp 4", "Swamp 4", "Plains 1"), to="Plains 3"):
    """Play the last turn of the game from these portfolios; return the score sheet."""
    last_turn(g, list(pawns), board=[tiles_of(g, "Swamp 1")[0]], portfolios=portfolios)
    play(g, move(g, to), STOP)
    assert g.is_over()
    return g.scores()


def test_assignment_example_scores_8_SB_SCO_2():
    # clause SB-SCO-2: minimums 5 / 4 / 1, qualities 7 / 3 / 1 -> 7 + 0 + 1 = 8
    g = new(THREE)
    side, portfolio, total = g.config.components.example
    names = g.config.components.creatures
    a = int(g.state[E.ASSIGN])
    set_side(g, a, 0, [(names[c], m) for c, m in side])
    set_side(g, a, 1, [("Chupacabra", 9), ("Bigfoot", 9), ("Pegasus", 9)])
    sheet = end_with(g, {0: tiles_for(g, [(names[c], q) for c, q in portfolio])})
    assert sheet.assignment[0] == total == 8
    assert g.state[E.MET] == 2 and g.state[E.SIDE] == 0


def test_better_side_is_chosen_and_short_creatures_score_zero_SB_SCO_1():
    # clause SB-SCO-1: Bigfoot 4, Pegasus 5, Chupacabra 2 in the portfolio; the left side
    # would give 5 (Pegasus only), the right side gives 2 + 4 with Pegasus short
    g = new(THREE)
    a = int(g.state[E.ASSIGN])
    set_side(g, a, 0, [("Bigfoot", 5), ("Pegasus", 4), ("Jackalope", 1)])
    set_side(g, a, 1, [("Chupacabra", 2), ("Bigfoot", 1), ("Pegasus", 6)])
    sheet = end_with(g, {0: [9, 12, 17, 1, 7]})
    assert sheet.assignment[0] == 6 and g.state[E.SIDE] == 1 and g.state[E.MET] == 2
    assert sheet.side_jobs[0] == 3  # two quality-3 photos: Prize winners
    assert sheet.score[0] == 9


def test_side_jobs_shared_between_players_SB_SCO_3():
    # clause SB-SCO-3: P1 (two photos of each creature) and P2 both fulfil Cryptid census;
    # each scores its 4 points once
    g = new(THREE)
    sheet = end_with(g, {0: [12, 14, 0, 24, 2, 4, 6, 10], 1: [8, 1, 30, 18]})
    assert sheet.side_jobs.tolist() == [4, 4, 0]
    assert [int(g.state[E.JOBS_DONE + p]) for p in range(3)] == [0b0001, 0b0001, 0]


# Bigfoot x4 (mountain, forest, plains, swamp), Pegasus beach, Jackalope desert and two
# quality-3 Chupacabras: every creature, 6 terrains, 4 of one creature, 2 top-quality photos
EVERY_JOB = [12, 14, 20, 46, 24, 40, 11, 23]


def test_four_side_job_markers_mark_the_best_paid_jobs_SB_SCO_3():
    # clause SB-SCO-3 with the contents' "Side Job markers (4 each ...)": a board listing six
    # jobs, all six fulfilled; the player marks the four best paid ones
    base = load_components()
    six = replace(base, side_jobs=base.side_jobs + (SideJob("Big game", 4, 1, 5),
                                                    SideJob("Day trip", 3, 1, 1)))
    g = new(ShutterbugConfig(players=3, populate=1, components=six))
    last_turn(g, ["Swamp 4", "Swamp 4", "Plains 1"], board=[tiles_of(g, "Swamp 1")[0]],
              portfolios={0: EVERY_JOB, 1: [0, 2, 6, 9]})
    play(g, move(g, "Plains 3"), STOP)
    assert g.is_over()
    # 5 (Big game) + 4 (Cryptid census) + 4 (Coast to coast) + 3 (Obsession, before the
    # equal Prize winners on the board); Day trip (1) gets no marker
    assert g.scores().side_jobs.tolist() == [16, 5 + 4 + 1, 0]
    assert g.state[E.JOBS_DONE] == 0b010111
    assert g.state[E.JOBS_DONE + 1] == 0b110001  # three jobs, three markers


def test_four_photos_of_one_creature_fulfil_obsession_SB_SCO_3():
    # clause SB-SCO-3: Obsession (four photos of one creature, 3 points) for P1's four
    # Pegasus and P2's four Chupacabra photos; P3's three Jackalopes and a Bigfoot fall short
    g = new(THREE)
    sheet = end_with(g, {0: [0, 16, 24, 28], 1: [6, 10, 18, 42], 2: [4, 30, 34, 12]})
    assert sheet.side_jobs.tolist() == [3, 3, 0]
    assert [int(g.state[E.JOBS_DONE + p]) for p in range(3)] == [0b0100, 0b0100, 0]


def test_side_job_markers_knob_and_default_goal_SB_SCO_3():
    # clause SB-SCO-3: with two markers the same portfolio scores the two best jobs only
    g = new(ShutterbugConfig(players=3, populate=1, side_job_markers=2))
    last_turn(g, ["Swamp 4", "Swamp 4", "Plains 1"], board=[tiles_of(g, "Swamp 1")[0]],
              portfolios={0: EVERY_JOB})
    play(g, move(g, "Plains 3"), STOP)
    assert g.scores().side_jobs.tolist() == [8, 0, 0]
    assert ShutterbugConfig(players=1, side_job_markers=2).to_array()[E.C_GOAL_JOBS] == 2


def test_side_job_progress_of_a_photo_is_what_taking_it_gives_SB_SCO_3():
    # clause SB-SCO-3 as the policies weigh it: the progress a photograph would bring to each
    # side job (every kind, a same-terrain one added) equals the progress after it joins the
    # portfolio
    base = load_components()
    comp = replace(base, side_jobs=base.side_jobs + (SideJob("Home ground", 3, 2, 2),))
    for tile in [t for t in range(E.N_TILES) if t not in EVERY_JOB[:5]]:
        g = new(ShutterbugConfig(players=3, populate=1, components=comp))
        give_portfolio(g, 0, EVERY_JOB[:5])
        t = comp.tiles[tile]
        before = [E.job_progress(g.state, g._comp, 0, j, t.creature, t.terrain, t.quality)
                  for j in range(len(comp.side_jobs))]
        give_portfolio(g, 0, [tile])
        after = [E.job_progress(g.state, g._comp, 0, j, -1, -1, 0)
                 for j in range(len(comp.side_jobs))]
        assert before == after, tile


def test_city_bonus_two_points_SB_SCO_4():
    # clause SB-SCO-4: P3 ends the eighth round by moving into Denver, P1 never left Chicago,
    # P2 waits on the plains
    g = new(THREE)
    sheet = end_with(g, {}, pawns=("Chicago", "Plains 1", "Plains 2"), to="Denver")
    assert sheet.city.tolist() == [2, 0, 2]


def test_ties_broken_by_total_quality_then_shared_SB_TIE_1():
    # clause SB-TIE-1: P1 and P2 both score Cryptid census only (4 points)
    def game(second, first=(12, 0, 4, 6)):
        g = new(THREE)
        for p in range(3):  # nobody reaches an assignment minimum
            for side in (0, 1):
                set_side(g, int(g.state[E.ASSIGN + p]), side,
                         [("Bigfoot", 9), ("Pegasus", 9), ("Jackalope", 9)])
        return end_with(g, {0: list(first), 1: second})

    sheet = game([8, 1, 30, 18])  # quality 6 beats 4
    assert sheet.score.tolist() == [4, 4, 0] and sheet.quality.tolist() == [4, 6, 0]
    assert sheet.won.tolist() == [0, 1, 0]
    sheet = game([46, 16, 30, 18])  # quality 4 too: the victory is shared
    assert sheet.score.tolist() == [4, 4, 0] and sheet.quality.tolist() == [4, 4, 0]
    assert sheet.won.tolist() == [0.5, 0.5, 0]
    sheet = game([12, 0, 4, 6], first=[8, 1, 30, 18])  # the earlier seat has the quality
    assert sheet.score.tolist() == [4, 4, 0] and sheet.quality.tolist() == [6, 4, 0]
    assert sheet.won.tolist() == [1, 0, 0]


# ============================================================================ two players


def test_team_game_two_pawns_split_movement_SB_2P_1():
    # clause SB-2P-1 (separate starting cities: test_team_pawns_choose_two_separate_cities)
    g = new(ShutterbugConfig(players=2, populate=1))
    arrange(g, [["Denver", "Plains 1"], ["Seattle", "Beach 3"]],
            board=[tiles_of(g, "Swamp 4")[0]])
    moves = legal(g)
    assert move(g, "Plains 1", pawn=0) not in moves  # never onto the own other pawn
    assert move(g, "Denver", pawn=1) not in moves
    assert move(g, "Desert 1", pawn=0) in moves and move(g, "Plains 2", pawn=1) in moves
    play(g, move(g, "Desert 1", pawn=0), move(g, "Plains 3", pawn=1))
    assert move(g, "Plains 3", pawn=0) not in legal(g)
    play(g, move(g, "New Orleans", pawn=1))  # third step between both pawns: turn over
    assert g.state[E.CUR] == 1


def test_either_team_pawn_takes_photographs_SB_2P_1_SB_PHO_1():
    # clauses SB-2P-1, SB-PHO-1: the second pawn photographs the Jackalope on Mountain 2
    g = new(ShutterbugConfig(players=2, populate=1))
    t = tile_with(g, "Mountain 2", 2)
    arrange(g, [["Swamp 4", "Mountain 1"], ["Seattle", "Beach 3"]],
            hands={0: [tip("Jackalope", "beach"), tip("Bigfoot", "mountain")]}, board=[t])
    play(g, move(g, "Mountain 2", pawn=1))
    assert legal(g) == {photo(t), SKIP}
    play(g, photo(t))  # both tips are forced
    assert g.state[E.TILE_OWNER + t] == 0 and hand(g, 0).sum() == 0


def test_team_game_four_tips_and_one_point_per_pawn_SB_2P_2():
    # clause SB-2P-2
    g = new(ShutterbugConfig(players=2, populate=1))
    arrange(g, [["Plains 1", "Mountain 3"], ["Seattle", "Beach 3"]],
            board=[tiles_of(g, "Swamp 4")[0]])
    play(g, move(g, "New Orleans", pawn=0), move(g, "Denver", pawn=1), STOP)
    assert hand(g, 0).sum() == 4


def test_team_game_one_point_per_pawn_in_a_city_SB_2P_2():
    # clause SB-2P-2: "each Character pawn occupying a City space provides its owner 1 Bonus
    # point": P2 brings its second pawn into Denver on the last turn
    g = new(ShutterbugConfig(players=2, populate=1))
    last_turn(g, [["Chicago", "Plains 1"], ["Seattle", "Mountain 4"]],
              board=[tiles_of(g, "Swamp 4")[0]], portfolios={})
    play(g, move(g, "Denver", pawn=1), STOP)
    assert g.is_over() and g.scores().city.tolist() == [1, 2]


def team_five_tip_turn(config, opponent_tips=()):
    """Pawn 1 passes Chicago (1 tip) and ends on New Orleans (2), pawn 2 ends on Denver (2):
    five tips without the team game's limit."""
    g = new(config)
    arrange(g, [["Forest 3", "Mountain 4"], ["Chicago", "Beach 3"]],
            hands={0: [tip("Bigfoot", "beach")], 1: list(opponent_tips)},
            board=[tiles_of(g, "Swamp 4")[0]])
    deck = int(g.state[E.N_DECK])
    play(g, move(g, "Chicago", pawn=0))
    if opponent_tips:  # a trade exchanges a tip: the hand does not grow
        assert g.phase == "trade"
        play(g, code(E.A_TRADE, tip("Bigfoot", "beach")))
        assert hand(g, 0).sum() == 1
    play(g, move(g, "New Orleans", pawn=0), move(g, "Denver", pawn=1))
    return g, deck - int(g.state[E.N_DECK])


def test_team_game_gains_at_most_four_tips_a_turn_SB_2P_2():
    # clause SB-2P-2: "a maximum of four cards per turn in a two-player game"
    g, drawn = team_five_tip_turn(ShutterbugConfig(players=2, populate=1))
    assert drawn == 4 and hand(g, 0).sum() == 1 + 4
    assert g.state[E.ST_DRAWN] == 4 and g.state[E.CUR] == 1
    g, drawn = team_five_tip_turn(ShutterbugConfig(players=2, populate=1, turn_tips=0))
    assert drawn == 5 and hand(g, 0).sum() == 1 + 5  # the limit is the rule, not the map


@pytest.mark.parametrize("limit,target", [(None, "Mountain 2"), (0, "Denver")])
def test_policies_value_no_tips_past_the_limit_SB_2P_2(limit, target):
    # clause SB-2P-2 as a decision: one step left after passing Chicago into New Orleans
    # (1 tip drawn, 2 due). Denver would add 2 tips, only 1 of them under the limit (0.6);
    # the quality-2 Jackalope on Mountain 2 is worth (1 - 0.6) * 2 = 0.8. Without the limit
    # Denver's 1.2 wins.
    config = ShutterbugConfig(players=2, populate=1, turn_tips=limit)
    g = new(config, policies=["greedy:w_job=0"] * 2)
    arrange(g, [["Forest 3", "Mountain 4"], ["Seattle", "Beach 3"]],
            hands={0: [tip("Jackalope", "beach"), tip("Bigfoot", "mountain")]},
            board=[tile_with(g, "Mountain 2", 2)])
    a = int(g.state[E.ASSIGN])
    for side in (0, 1):
        set_side(g, a, side, [("Jackalope", 4), ("Pegasus", 3), ("Chupacabra", 3)])
    play(g, move(g, "Chicago", pawn=0), move(g, "New Orleans", pawn=0))
    assert g.policy_action().code == move(g, target, pawn=1)


def test_trades_do_not_count_toward_the_four_tips_SB_2P_2():
    # clause SB-2P-2: a trade is an exchange, not a gain; the four city tips still come
    g, drawn = team_five_tip_turn(ShutterbugConfig(players=2, populate=1),
                                  opponent_tips=[tip("Pegasus", "swamp")])
    assert drawn == 4 and hand(g, 0).sum() == 1 + 4
    assert hand(g, 0)[tip("Pegasus", "swamp")] == 1 and hand(g, 1)[tip("Bigfoot", "beach")] == 1


# ============================================================================ variants


def test_solo_variant_SB_VAR_SOLO():
    # clause SB-VAR-SOLO: keep 1 of 3 assignments, 2 pawns, 10 tiled spaces, 4 tips, one
    # swap per turn, all-or-nothing
    g = new(ShutterbugConfig(players=1))
    assert g.phase == "keep an assignment" and len(g.legal_actions()) == 3
    offered = int(g.state[E.OFFER + 2])
    g.apply(code(E.A_KEEP, 2))
    assert g.state[E.ASSIGN] == offered
    place_cities(g)
    assert occupied(g.state) == 10 and g.config.pawns == 2 and hand(g, 0).sum() == 4
    swaps = [a for a in g.legal_actions() if a.kind == "swap"]
    assert swaps
    g.apply(swaps[0])
    assert not any(a.kind == "swap" for a in g.legal_actions()) and hand(g, 0).sum() == 4
    g.play()
    won = g.scores().won.iloc[0]
    st = g.state
    assert won == (st[E.MET] == 3 and bin(int(st[E.JOBS_DONE])).count("1") == 4)


def test_solo_swap_needs_a_tip_left_to_draw_SB_VAR_SOLO():
    # clause SB-VAR-SOLO (ruling: a swap discards 1 tip and draws 1): with a hand limit of 48
    # every tip can be in the hand, and then nothing is left to draw and no swap is offered
    config = ShutterbugConfig(players=1, populate=1, hand_limit=48)
    every_tip = [c * E.N_TERRAINS + t for c, t in load_components().tips]
    g = new(config)
    arrange(g, [["Denver", "Seattle"]], hands={0: every_tip},
            board=[tiles_of(g, "Beach 3")[0]])
    assert g.state[E.N_DECK] == 0
    assert not any(a.kind == "swap" for a in g.legal_actions())
    # one tip in the discard pile instead: the swap draws from the reshuffled discards
    g = new(config)
    arrange(g, [["Denver", "Seattle"]], hands={0: every_tip[1:]},
            board=[tiles_of(g, "Beach 3")[0]])
    g.state[E.DISC + every_tip[0]] = 1
    g.state[E.N_DECK] = 0
    play(g, code(E.A_SWAP, every_tip[-1]))
    assert hand(g, 0).sum() == 47 and g.state[E.N_DECK] == 1
    assert not any(a.kind == "swap" for a in g.legal_actions())  # one swap a turn
    check_invariants(g)


def test_tip_swaps_knob_sets_the_swaps_a_turn_SB_VAR_SOLO():
    # clause SB-VAR-SOLO with tip_swaps=2: two swaps in a turn, each a discard and a draw,
    # then none; the next turn has two again
    g = new(ShutterbugConfig(players=1, populate=1, tip_swaps=2))
    a, b = tip("Bigfoot", "beach"), tip("Pegasus", "forest")
    arrange(g, [["Denver", "Seattle"]], hands={0: [a, b]}, board=[tiles_of(g, "Beach 3")[0]])
    deck_top(g, [tip("Jackalope", "swamp"), tip("Chupacabra", "desert")])
    play(g, code(E.A_SWAP, a))
    assert hand(g, 0)[tip("Jackalope", "swamp")] == 1 and code(E.A_SWAP, b) in legal(g)
    play(g, code(E.A_SWAP, b))
    assert hand(g, 0)[tip("Chupacabra", "desert")] == 1 and hand(g, 0).sum() == 2
    assert not any(x.kind == "swap" for x in g.legal_actions())
    assert g.state[E.ST_SWAPS] == 2 and g.state[E.DISC + a] == g.state[E.DISC + b] == 1
    play(g, move(g, "Plains 1"), STOP)
    assert g.state[E.ROUND] == 1 and sum(x.kind == "swap" for x in g.legal_actions()) == 2


def test_cooperative_variant_SB_VAR_COOP():
    # clause SB-VAR-COOP: one shared assignment and portfolio, all win or all lose
    g = new(ShutterbugConfig(players=3, cooperative=True, populate=1))
    assert len({int(g.state[E.ASSIGN + p]) for p in range(3)}) == 1
    t = tile_with(g, "Mountain 2", 2)
    arrange(g, ["Swamp 4", "Mountain 1", "Swamp 4"], cur=1, board=[t],
            hands={1: [tip("Jackalope", "beach"), tip("Jackalope", "desert")]})
    play(g, move(g, "Mountain 2"), photo(t), pay("Jackalope", "beach"))  # the other: forced
    assert g.state[E.QUAL + CRE["Jackalope"]] == 2  # the shared slot
    g.play()
    won = g.scores().won
    assert won.nunique() == 1 and g.scores().score.nunique() == 1


def test_cooperative_city_bonuses_add_up_SB_VAR_COOP():
    # clause SB-VAR-COOP (ruling: teammates' city bonuses add up for the shared score)
    g = new(ShutterbugConfig(players=3, cooperative=True, populate=1))
    sheet = end_with(g, {}, pawns=("Chicago", "Plains 1", "Plains 2"), to="Denver")
    assert sheet.city.tolist() == [4, 4, 4]

