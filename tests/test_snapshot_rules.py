"""Snapshot rules, one clause at a time, on constructed situations.

Each test names the CLAUSES.md clause(s) it checks (SN-*). Situations are built by poking the
state of a `SnapshotGame` (tests/snapshot_helpers.py) and played with scripted actions
through the step API; dice outcomes are predicted from a copy of the game's chance stream,
so every test is deterministic. Remember that the step API plays forced moves (a decision
with one legal action) by itself.
"""

import dataclasses
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from snapshot_helpers import (
    ACCEPT,
    DICE_DONE,
    DRAW,
    GIVE_UP,
    MOUNT,
    OFFER,
    PASS,
    RAIN,
    REROLL_SUPPLY,
    RESERVE,
    RESERVED_DONE,
    SAV,
    SHORE,
    STOP,
    TOKENS_DONE,
    arrange,
    check_invariants,
    cid,
    code,
    die_hab,
    die_on,
    done_tokens,
    finish_turn,
    kinds,
    legal,
    loc,
    new,
    on_table,
    peek_rolls,
    place,
    place_reserved,
    play,
    reroll_from,
    resolve,
    spook,
    tok,
    token_on,
    with_rolls,
)

from snapsim.errors import InputError
from snapsim.games.snapshot import SnapshotConfig, SnapshotGame, load_components
from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot.config import RULEBOOK_TARGET

FULL = SnapshotConfig()  # the rulebook's full game, 4 players, raccoon in
QUIET = SnapshotConfig(offers=False)  # no one else is asked: the drawer's choices alone


@pytest.fixture(scope="module")
def comp():
    return load_components()


# ============================================================================ set-up


def test_habitat_explore_values_SN_SET_1(comp):
    # clause SN-SET-1: the values, and the engine exploring with them (one die, every face)
    assert [(h.name, h.explore) for h in comp.habitats] == [
        ("Shoreline", 2), ("Savannah", 3), ("Mountain", 4), ("Rainforest", 5)]
    easy = ["mudskipper", "helmeted guineafowl", "pika", "poison dart frog"]  # difficulty 2
    for h, name in enumerate(easy):
        for face in range(1, 7):
            g = arrange(new(QUIET), table=[name], tokens=[0, 0, 0, 0])
            play(g, STOP, die_hab(h), die_on(cid(g, name)))
            with_rolls(g, lambda r, f=face: r[0] == f and r[1] >= 2, 2)
            play(g, DICE_DONE)  # no tokens: explore (and give up on failure) by itself
            explored = face >= comp.habitats[h].explore
            assert int(g.state[E.ST_EXPLORE_FAILS + 0]) == (not explored), (h, face)
            assert loc(g, name) == (E.L_PORTFOLIO if explored else E.L_DISCARD)


def test_award_stacks_highest_on_top_SN_SET_2(comp):
    # clause SN-SET-2: one Specialist stack per habitat and a Generalist stack, highest on top
    assert len(comp.specialist) == 4
    for stack in (*comp.specialist, comp.generalist):
        assert len(stack) == 3
        assert list(stack) == sorted(stack, reverse=True)
    g = new(FULL)
    assert [int(g.state[E.AWARD_NEXT + k]) for k in range(E.N_CAT)] == [0] * 5
    assert g.observation(0)["awards_left"] == [3] * 5
    # the first award taken from a stack is its top (highest) token
    arrange(g, portfolios={0: ["pika", "red panda", "guanaco"]})
    E.collect_awards(g.state, g._comp, 0)
    assert g.state[E.S_AWARDS + 0] == comp.specialist[MOUNT][0] == max(comp.specialist[MOUNT])


def test_setup_three_cards_in_their_habitats_without_spooking_SN_SET_3(comp):
    # clause SN-SET-3: three cards, each in its natural habitat, none spooked (a lower card
    # under a higher one stays); a dealt raccoon waits for the starting player's decision
    shared_habitat = raccoons = 0
    for i in range(300):
        g = new(FULL, seed=11, game=i)
        st_ = g.state
        animals = [c for c in range(E.RACCOON) if st_[E.LOC + c] == E.L_TABLE]
        assert st_[E.N_DECK] == 37 - 3
        for c in animals:
            assert st_[E.ON_HAB + c] == comp.cards[c].habitat, "set-up card out of its habitat"
        habs = [int(st_[E.ON_HAB + c]) for c in animals]
        shared_habitat += len(set(habs)) < len(habs)  # both stay: no spooking at set-up
        if loc(g, "raccoon") == E.L_DRAWN:
            raccoons += 1
            assert len(animals) == 2
            assert g.phase == "set-up" and g.current_player == 0
        else:
            assert len(animals) == 3 and g.phase == "research"
        check_invariants(g)
    assert shared_habitat > 20 and raccoons > 5
    g = new(SnapshotConfig(setup_cards=5, raccoon=False), seed=1)
    assert sum(g.state[E.LOC + c] == E.L_TABLE for c in range(E.N_CARDS)) == 5


def _setup_with_raccoon(table):
    """A game at its set-up decision: the raccoon dealt with the animals `table`."""
    g = arrange(new(FULL), table=table, tokens=[2, 3, 4, 5])
    g.state[E.LOC + E.RACCOON] = E.L_DRAWN
    g.state[E.DRAWN] = E.RACCOON
    g.state[E.PHASE] = E.PH_SETUP
    g.state[E.N_DECK] -= 1
    E.index_cards(g.state, g._comp)
    deck = [c for c in g.state[E.DECK:E.DECK + g.state[E.N_DECK] + 1] if c != E.RACCOON]
    g.state[E.DECK:E.DECK + len(deck)] = deck
    return g


def setup_raccoon(h):
    return code(E.A_SETUP_RACCOON, h)


def test_setup_raccoon_habitat_is_the_starting_players_decision_SN_SET_3_SN_RAC_1():
    # clauses SN-SET-3, SN-RAC-1 (ruling docs/rulings.md "Set-Up 4"): the set-up cards go out
    # in ascending difficulty, so the raccoon (6) may go under the golden eagle (8, out after
    # it) but not beside the sea otter (6, out before it); the starting player chooses
    g = _setup_with_raccoon(["sea otter", "golden eagle"])
    check_invariants(g)
    assert g.phase == "set-up" and g.current_player == 0
    assert legal(g) == {setup_raccoon(SAV), setup_raccoon(MOUNT), setup_raccoon(RAIN)}
    play(g, setup_raccoon(MOUNT))
    assert g.state[E.ON_HAB + E.RACCOON] == MOUNT and loc(g, "raccoon") == E.L_TABLE
    assert on_table(g, MOUNT) == {"golden eagle", "raccoon"}
    assert g.phase == "research" and g.current_player == 0
    assert [tok(g, p) for p in range(4)] == [2, 3, 4, 5]  # set-up placing earns nothing
    check_invariants(g)
    # every habitat closed by a 6: no spooking at set-up, so any habitat will do
    g = _setup_with_raccoon(["sea otter", "giraffe", "mountain goat", "jaguar"])
    assert legal(g) == {setup_raccoon(RAIN)}  # the jaguar (8) goes out after it: forced
    g = _setup_with_raccoon(["sea otter", "giraffe", "mountain goat", "capuchin monkey"])
    assert legal(g) == {setup_raccoon(h) for h in range(4)}
    play(g, setup_raccoon(SAV))
    assert on_table(g, SAV) == {"giraffe", "raccoon"}


def test_setup_raccoon_decision_through_play_SN_SET_3():
    # clause SN-SET-3: dealt games stop at the decision; each policy answers it legally and
    # the game then starts with the raccoon where that answer put it
    dealt = [i for i in range(120) if loc(new(FULL, seed=11, game=i), "raccoon") == E.L_DRAWN]
    assert dealt
    for i in dealt[:4]:
        for policy in ("random", "greedy"):
            g = SnapshotGame(FULL, seed=11, game=i, policies=[policy] * 4)
            options = legal(g)
            a = g.policy_action()
            assert a.code in options and a.kind == "raccoon at set-up"
            g.apply(a)
            assert g.state[E.ON_HAB + E.RACCOON] == a.habitat and g.phase == "research"


def test_random_distinct_secret_assignments_SN_SET_4(comp):
    # clause SN-SET-4: distinct per game, uniform over the 10 assignments for each seat
    # (chi-square goodness of fit, alarm at p < 1e-4: a false alarm 1 time in 10,000 seeds;
    # the seed is fixed, so the outcome is deterministic)
    by_seat = [Counter() for _ in range(4)]
    n_games = 600
    for i in range(n_games):
        g = new(FULL, seed=5, game=i)
        a = [int(g.state[E.ASSIGN + p]) for p in range(4)]
        assert len(set(a)) == 4
        for p in range(4):
            by_seat[p][a[p]] += 1
    for p in range(4):
        counts = [by_seat[p][k] for k in range(len(comp.assignments))]
        assert stats.chisquare(counts).pvalue > 1e-4
    g = new(FULL, seed=5, game=0)
    obs = g.observation(2)
    assert obs["assignment"]["name"] == comp.assignments[int(g.state[E.ASSIGN + 2])].name


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starting_tokens_by_seat_SN_SET_5(players):
    # clause SN-SET-5: starting player 2, each next player one more
    g = new(SnapshotConfig(players=players), seed=players)
    assert [tok(g, p) for p in range(players)] == list(range(2, 2 + players))
    assert g.observation(0)["tokens"] == list(range(2, 2 + players))
    g = new(SnapshotConfig(players=3, start_tokens=(7, 0, 1)))
    assert [tok(g, p) for p in range(3)] == [7, 0, 1]


def test_raccoon_in_or_out_of_the_deck_SN_SET_6():
    # clause SN-SET-6
    seen_on_table = 0
    for i in range(200):
        g = new(FULL, seed=2, game=i)
        locs = [int(g.state[E.LOC + c]) for c in range(E.N_CARDS)]
        assert locs[E.RACCOON] in (E.L_DECK, E.L_DRAWN)  # dealt: awaiting its habitat
        assert E.L_BOX not in locs
        seen_on_table += locs[E.RACCOON] == E.L_DRAWN
        g = new(SnapshotConfig(raccoon=False), seed=2, game=i)
        locs = [int(g.state[E.LOC + c]) for c in range(E.N_CARDS)]
        assert locs[E.RACCOON] == E.L_BOX
        assert sum(x != E.L_BOX for x in locs) == 36
        assert g.state[E.N_DECK] == 33
    assert seen_on_table > 0  # shuffled in: sometimes dealt at set-up (about 3 in 37)


# ============================================================================ research


def test_draw_one_card_at_a_time_SN_RES_1():
    # clause SN-RES-1
    g = arrange(new(QUIET), table=["pika"], deck=["golden eagle", "meerkat", "walrus"],
                tokens=[2, 3, 4, 5])
    assert legal(g) == {DRAW, STOP}  # drawing is optional: stop with no draw
    n0 = int(g.state[E.N_DECK])
    play(g, DRAW)
    assert int(g.state[E.DRAWN]) == cid(g, "golden eagle")
    assert loc(g, "golden eagle") == E.L_DRAWN
    assert loc(g, "meerkat") == E.L_DECK
    assert g.state[E.N_DECK] == n0 - 1
    assert g.phase == "decide" and DRAW not in legal(g)  # decide on this card first
    play(g, place(MOUNT))
    assert g.phase == "research" and legal(g) == {DRAW, STOP}
    play(g, DRAW)
    assert int(g.state[E.DRAWN]) == cid(g, "meerkat")
    assert g.observation(1)["drawn"] == "meerkat"


def test_rulebook_example_golden_eagle_over_golden_pheasant_SN_RES_2():
    # clause SN-RES-2: the eagle (8) may go above the pheasant (7); +1 token
    g = arrange(new(QUIET), table=["golden pheasant"], deck=["golden eagle"],
                tokens=[2, 3, 4, 5])
    play(g, DRAW)
    assert legal(g) == {place(MOUNT), RESERVE}  # only its natural habitat; no spook
    play(g, place(MOUNT))
    assert on_table(g, MOUNT) == {"golden pheasant", "golden eagle"}
    assert tok(g, 0) == 3
    assert g.state[E.SIDEWAYS + cid(g, "golden eagle")] == 0
    assert [tok(g, p) for p in (1, 2, 3)] == [3, 4, 5]


def test_place_into_empty_habitat_SN_RES_2():
    # clause SN-RES-2: an empty habitat takes any of its animals
    g = arrange(new(QUIET), deck=["mudskipper"], tokens=[0, 0, 0, 0])
    play(g, DRAW)
    assert place(SHORE) in legal(g)
    assert not legal(g) & {place(SAV), place(MOUNT), place(RAIN)}
    play(g, place(SHORE))
    assert tok(g, 0) == 1


@settings(max_examples=80, deadline=None)
@given(habitat=st.integers(0, 3),
       table_diffs=st.sets(st.integers(2, 10), max_size=4),
       drawn=st.integers(2, 10))
def test_place_only_above_every_animal_property_SN_RES_2(habitat, table_diffs, drawn):
    # clause SN-RES-2 (and the strict-inequality ruling of docs/rulings.md, Phase 1 A/B)
    comp = QUIET.components
    table_diffs.discard(drawn)
    names = {(a.habitat, a.difficulty): a.name for a in comp.animals}
    g = arrange(new(QUIET), table=[names[(habitat, d)] for d in table_diffs],
                deck=[names[(habitat, drawn)]], tokens=[1, 0, 0, 0])
    play(g, DRAW)
    fits = drawn > max(table_diffs, default=0)
    assert (place(habitat) in legal(g)) == fits
    assert (spook(habitat) in legal(g)) == (not fits)
    assert {int(E.act_kind(a.code)) for a in g.legal_actions()} <= {E.A_PLACE, E.A_RESERVE,
                                                                    E.A_SPOOK}


def test_spook_discards_the_habitat_and_ends_the_turn_SN_RES_3():
    # clause SN-RES-3: discard the drawn card and all animals of its habitat, no token, the
    # turn skips to Review (+3 experience, clause SN-REV-1)
    g = arrange(new(QUIET), table=["pika", "golden pheasant", "meerkat"],
                deck=["walrus", "guanaco"], tokens=[2, 3, 4, 5])
    play(g, DRAW, place(SHORE))  # +1
    play(g, DRAW)
    assert legal(g) == {RESERVE, spook(MOUNT)}
    play(g, spook(MOUNT))
    for name in ("guanaco", "pika", "golden pheasant"):
        assert loc(g, name) == E.L_DISCARD
    assert on_table(g) == {"meerkat", "walrus"}  # other habitats untouched
    assert tok(g, 0) == 2 + 1 + 3  # the placing token, no token for the spook, experience
    assert int(g.state[E.ST_SPOOKS + 0]) == 1
    assert int(g.state[E.ST_ATTEMPTS + 0]) == 0  # no preparation or photography
    assert g.phase == "research" and int(g.state[E.CUR]) == 1  # next player's turn
    check_invariants(g)


def test_spook_is_forced_when_nothing_else_is_possible_SN_RES_3():
    # clause SN-RES-3 / SN-RES-5: reserve full, no offers: the draw spooks at once
    g = arrange(new(QUIET), table=["golden eagle"], deck=["pika"],
                reserves={0: ["lion", "jaguar"]}, tokens=[0, 0, 0, 0])
    play(g, DRAW)
    assert loc(g, "pika") == E.L_DISCARD and loc(g, "golden eagle") == E.L_DISCARD
    assert int(g.state[E.CUR]) == 1 and tok(g, 0) == 3


def test_rulebook_example_guanaco_reserved_prevents_the_spook_SN_RES_3_SN_RES_4():
    # clauses SN-RES-3, SN-RES-4: the guanaco below the pheasant spooks Mountain unless
    # reserved; reserving keeps the habitat and the turn goes on
    g = arrange(new(QUIET), table=["golden pheasant", "golden eagle"], deck=["guanaco"],
                tokens=[2, 3, 4, 5])
    play(g, DRAW, RESERVE)
    assert loc(g, "guanaco") == E.L_RESERVE
    assert int(g.state[E.OWNER + cid(g, "guanaco")]) == 0
    assert on_table(g, MOUNT) == {"golden pheasant", "golden eagle"}
    assert g.phase == "research" and int(g.state[E.CUR]) == 0
    assert tok(g, 0) == 2  # reserving earns nothing


def test_reserve_any_drawn_card_not_a_photograph_SN_RES_4():
    # clause SN-RES-4: even a placeable card may be reserved; reserved cards are not photos
    g = arrange(new(QUIET), table=["golden pheasant"], deck=["golden eagle"],
                tokens=[2, 3, 4, 5])
    play(g, DRAW)
    assert RESERVE in legal(g)
    play(g, RESERVE)
    assert loc(g, "golden eagle") == E.L_RESERVE
    assert int(g.state[E.N_RESERVED + 0]) == 1
    assert int(g.state[E.PHOTOS + 0]) == 0
    assert g.observation(1)["reserves"][0] == ["golden eagle"]
    assert g.observation(1)["portfolios"][0] == []


def test_reserve_limit_two_SN_RES_5():
    # clause SN-RES-5
    g = arrange(new(QUIET), table=["golden pheasant"], deck=["golden eagle", "guanaco"],
                reserves={0: ["lion", "jaguar"]}, tokens=[2, 3, 4, 5])
    play(g, DRAW)
    # only one legal action (place): forced, so the draw placed the eagle by itself
    assert loc(g, "golden eagle") == E.L_TABLE
    assert g.phase == "research"
    g = arrange(new(QUIET), table=["golden pheasant"], deck=["golden eagle"],
                reserves={0: ["lion"]}, tokens=[2, 3, 4, 5])
    play(g, DRAW)
    assert RESERVE in legal(g)
    play(g, RESERVE)
    assert int(g.state[E.N_RESERVED + 0]) == 2
    # the limit is a knob
    g = arrange(new(SnapshotConfig(offers=False, reserve_limit=3)), table=["golden pheasant"],
                deck=["golden eagle"], reserves={0: ["lion", "jaguar"]}, tokens=[2, 3, 4, 5])
    play(g, DRAW)
    assert RESERVE in legal(g)


def test_offer_accepted_moves_card_and_one_token_SN_RES_6():
    # clause SN-RES-6
    g = arrange(new(FULL), table=["golden pheasant"], deck=["guanaco"], tokens=[2, 3, 4, 5])
    play(g, DRAW)
    assert g.phase == "offer" and g.current_player == 1
    assert legal(g) == {OFFER, PASS}
    play(g, OFFER)
    assert g.phase == "decide" and g.current_player == 0
    assert legal(g) == {ACCEPT, RESERVE}  # not placeable; refusing must reserve (SN-RES-10)
    play(g, ACCEPT)
    c = cid(g, "guanaco")
    assert g.state[E.LOC + c] == E.L_RESERVE and g.state[E.OWNER + c] == 1
    assert int(g.state[E.N_RESERVED + 1]) == 1 and int(g.state[E.N_RESERVED + 0]) == 0
    assert [tok(g, p) for p in range(4)] == [3, 2, 4, 5]
    assert on_table(g, MOUNT) == {"golden pheasant"}  # no spook
    assert g.phase == "research" and int(g.state[E.CUR]) == 0


def test_offer_needs_a_free_slot_and_a_token_SN_RES_7():
    # clause SN-RES-7: P2 has no token, P3 no free slot: only P4 is asked
    g = arrange(new(FULL), deck=["guanaco"], tokens=[2, 0, 4, 5],
                reserves={2: ["lion", "jaguar"]})
    play(g, DRAW)
    assert g.phase == "offer" and g.current_player == 3
    play(g, PASS)
    assert g.phase == "decide" and g.current_player == 0
    # nobody able: straight to the drawer's decision
    g = arrange(new(FULL), deck=["guanaco"], tokens=[2, 0, 0, 0])
    play(g, DRAW)
    assert g.phase == "decide" and ACCEPT not in legal(g)
    # the price is the token needed (knob offer_price)
    g = arrange(new(SnapshotConfig(offer_price=2)), deck=["guanaco"], tokens=[2, 1, 2, 0])
    play(g, DRAW)
    assert g.current_player == 2


def _asked_sequence(g, answers):
    """Answer the offer round with `answers` (OFFER/PASS per asked player); return who was
    asked, in order."""
    asked = []
    for a in answers:
        if g.phase != "offer":
            break
        asked.append(g.current_player)
        play(g, a)
    return asked


def test_offer_priority_in_turn_order_SN_RES_8():
    # clause SN-RES-8, the rulebook example: player 1 draws, players 2 and 3 offer -> only
    # player 2's offer can be accepted. Here the asking stops at the first offer in priority
    # order (ruling, docs/rulings.md "Phase 1, Option D"): player 3 is never asked once
    # player 2 offers, and is asked when player 2 passes.
    g = arrange(new(SnapshotConfig(players=3)), deck=["guanaco"], tokens=[2, 3, 4])
    play(g, DRAW)
    assert _asked_sequence(g, [OFFER, OFFER]) == [1]
    assert g.phase == "decide" and g.current_player == 0
    play(g, ACCEPT)
    assert int(g.state[E.OWNER + cid(g, "guanaco")]) == 1
    assert [tok(g, p) for p in range(3)] == [3, 2, 4]

    g = arrange(new(SnapshotConfig(players=3)), deck=["guanaco"], tokens=[2, 3, 4])
    play(g, DRAW)
    assert _asked_sequence(g, [PASS, OFFER]) == [1, 2]
    play(g, ACCEPT)
    assert int(g.state[E.OWNER + cid(g, "guanaco")]) == 2
    assert [tok(g, p) for p in range(3)] == [3, 3, 3]


def test_offer_priority_starts_after_the_current_player_SN_RES_8():
    # clause SN-RES-8: with player 3 of 4 drawing, the order is 4, 1, 2
    g = arrange(new(FULL), deck=["guanaco"], tokens=[2, 3, 4, 5], cur=2)
    play(g, DRAW)
    assert _asked_sequence(g, [PASS, PASS, PASS]) == [3, 0, 1]
    assert g.phase == "decide" and g.current_player == 2


def test_offers_come_before_the_drawer_acts_and_never_for_placed_cards_SN_RES_9():
    # clause SN-RES-9
    g = arrange(new(FULL), table=["golden pheasant"], deck=["golden eagle", "pika"],
                tokens=[2, 3, 4, 5])
    play(g, DRAW)
    # while the others are asked, the drawer cannot place, reserve or spook
    assert g.phase == "offer" and g.current_player != 0
    assert kinds(g) == {E.A_OFFER, E.A_PASS}
    play(g, PASS, PASS, PASS, place(MOUNT))
    # the eagle is placed: nobody can reserve it any more; the next draw asks about the new
    # card only, and accepting it moves only that card
    play(g, DRAW)
    assert g.phase == "offer"
    play(g, OFFER, ACCEPT)
    assert loc(g, "golden eagle") == E.L_TABLE
    assert loc(g, "pika") == E.L_RESERVE
    assert kinds(g) == {E.A_DRAW, E.A_STOP}


def test_refused_offer_card_is_placed_sideways_and_must_be_attempted_SN_RES_10():
    # clause SN-RES-10 (ruling docs/rulings.md "Phase 1, Refusing Offers": +1 token)
    g = arrange(new(FULL), table=["golden pheasant", "mudskipper"], deck=["golden eagle"],
                tokens=[2, 3, 4, 5])
    play(g, DRAW, OFFER)
    assert legal(g) == {place(MOUNT), RESERVE, ACCEPT}  # no spook option with an offer
    play(g, place(MOUNT))
    eagle = cid(g, "golden eagle")
    assert g.state[E.SIDEWAYS + eagle] == 1
    assert tok(g, 0) == 3 and tok(g, 1) == 3  # +1 for placing, the offerer pays nothing
    play(g, STOP)
    assert g.phase == "prepare: dice"
    assert DICE_DONE not in legal(g)
    play(g, die_hab(SHORE), die_on(cid(g, "mudskipper")))
    assert DICE_DONE not in legal(g)
    play(g, die_hab(MOUNT))
    assert DICE_DONE not in legal(g)  # the habitat die alone is not enough
    play(g, die_on(eagle))
    assert DICE_DONE in legal(g)
    play(g, DICE_DONE)
    finish_turn(g)
    assert loc(g, "golden eagle") in (E.L_PORTFOLIO, E.L_DISCARD)  # it was attempted
    assert int(g.state[E.CUR]) == 1


def test_refused_offer_from_the_starting_seat_is_placed_sideways_SN_RES_8_SN_RES_10():
    # clauses SN-RES-8, SN-RES-10: the last seat draws, priority wraps round to the starting
    # seat, and refusing that seat's offer still puts the placed card sideways, to be attempted
    g = arrange(new(FULL), table=["golden pheasant"], deck=["golden eagle"],
                tokens=[2, 3, 4, 5], cur=3)
    play(g, DRAW)
    assert g.phase == "offer" and g.current_player == 0
    play(g, OFFER)
    assert g.current_player == 3 and legal(g) == {place(MOUNT), RESERVE, ACCEPT}
    play(g, place(MOUNT))
    eagle = cid(g, "golden eagle")
    assert g.state[E.SIDEWAYS + eagle] == 1
    assert [tok(g, p) for p in range(4)] == [2, 3, 4, 6]  # +1 for placing, no payment
    play(g, STOP, die_hab(MOUNT))
    assert DICE_DONE not in legal(g)  # the sideways eagle still needs its own die
    play(g, die_on(eagle))
    assert DICE_DONE in legal(g)


def test_refusing_by_reserving_SN_RES_10():
    # clause SN-RES-10: refuse by reserving it yourself (offerer pays nothing)
    g = arrange(new(FULL), deck=["guanaco"], table=["golden eagle"], tokens=[2, 3, 4, 5])
    play(g, DRAW, OFFER, RESERVE)
    assert int(g.state[E.OWNER + cid(g, "guanaco")]) == 0
    assert [tok(g, p) for p in range(4)] == [2, 3, 4, 5]
    # no reserve slot and not placeable: accepting is the only way left (forced)
    g = arrange(new(FULL), deck=["guanaco"], table=["golden eagle"], tokens=[2, 3, 4, 5],
                reserves={0: ["lion", "jaguar"]})
    play(g, DRAW, OFFER)
    assert int(g.state[E.OWNER + cid(g, "guanaco")]) == 1
    assert [tok(g, p) for p in range(4)] == [3, 2, 4, 5]


def test_sideways_card_cannot_be_placed_without_dice_for_it_SN_RES_10():
    # clause SN-RES-10 / SN-PRE-6: with a single die a sideways card (needing a die on it and
    # on its habitat) cannot be committed to, so refusing means reserving
    g = arrange(new(SnapshotConfig(dice=1)), deck=["golden eagle"], tokens=[2, 3, 4, 5])
    play(g, DRAW, OFFER)
    assert legal(g) == {RESERVE, ACCEPT}


def test_empty_deck_is_refilled_from_the_discards_SN_RES_11():
    # clause SN-RES-11
    discards = ["pika", "meerkat", "walrus", "jaguar", "lion"]
    drawn = set()
    for i in range(40):
        g = new(QUIET, seed=4, game=i)
        arrange(g, deck=[], discard=discards, rest="box", tokens=[0, 0, 0, 0])
        play(g, DRAW)
        c = int(g.state[E.DRAWN])
        drawn.add(g.config.components.cards[c].name)
        assert g.state[E.N_DECK] == len(discards) - 1
        others = [n for n in discards if cid(g, n) != c]
        assert all(loc(g, n) == E.L_DECK for n in others)
    assert drawn == set(discards)  # shuffled: any discard may come up
    # nothing to draw at all: drawing is not an option
    g = arrange(new(QUIET), table=["pika"], deck=[], rest="box", tokens=[0, 0, 0, 0])
    assert legal(g) == {STOP}


# ============================================================================ preparation


def test_reserved_card_placed_below_the_top_without_token_SN_PRE_1():
    # clause SN-PRE-1
    g = arrange(new(QUIET), table=["golden eagle"], reserves={0: ["guanaco", "lion"]},
                tokens=[2, 3, 4, 5])
    play(g, STOP)
    assert g.phase == "prepare: reserved"
    guanaco, lion = cid(g, "guanaco"), cid(g, "lion")
    assert legal(g) == {place_reserved(guanaco), place_reserved(lion), RESERVED_DONE}
    play(g, place_reserved(guanaco))
    assert g.state[E.LOC + guanaco] == E.L_TABLE
    assert g.state[E.ON_HAB + guanaco] == MOUNT  # below the eagle (8): allowed
    assert int(g.state[E.N_RESERVED + 0]) == 1  # the slot is free again
    assert tok(g, 0) == 2  # no token for placing a reserved card
    play(g, RESERVED_DONE)
    assert g.phase == "prepare: dice"
    assert loc(g, "lion") == E.L_RESERVE  # kept in reserve: the only way out is placing


def test_reserved_raccoon_placed_in_any_habitat_SN_PRE_1_SN_RAC_1():
    # clauses SN-PRE-1, SN-RAC-1: from the reserve the raccoon goes to the habitat the player
    # chooses, even above a 6 or more
    g = arrange(new(QUIET), table=["golden eagle", "lion", "jaguar", "walrus"],
                reserves={0: ["raccoon"]}, tokens=[2, 3, 4, 5])
    play(g, STOP)
    opts = {a.code for a in g.legal_actions() if a.kind == "place reserved"}
    assert opts == {code(E.A_PLACE_RESERVED, E.RACCOON_ARG + h) for h in range(4)}
    assert all(a.card == E.RACCOON for a in g.legal_actions() if a.kind == "place reserved")
    play(g, code(E.A_PLACE_RESERVED, E.RACCOON_ARG + MOUNT))
    assert g.state[E.ON_HAB + E.RACCOON] == MOUNT and g.state[E.SIDEWAYS + E.RACCOON] == 1
    assert tok(g, 0) == 2 and g.phase == "prepare: dice"


def test_reserved_card_placed_is_sideways_and_must_be_attempted_SN_PRE_2_SN_PRE_6():
    # clauses SN-PRE-2, SN-PRE-6
    g = arrange(new(QUIET), table=["golden eagle", "mudskipper", "walrus"],
                reserves={0: ["guanaco"]}, tokens=[0, 3, 4, 5])
    play(g, STOP, place_reserved(cid(g, "guanaco")))
    guanaco = cid(g, "guanaco")
    assert g.state[E.SIDEWAYS + guanaco] == 1
    assert g.phase == "prepare: dice" and DICE_DONE not in legal(g)
    # spend 4 of 6 dice elsewhere: the last 2 are kept for the sideways card and its habitat
    mud = cid(g, "mudskipper")
    play(g, die_hab(SHORE), die_on(mud), die_on(cid(g, "walrus")))
    assert die_on(mud) in legal(g) and die_hab(MOUNT) in legal(g)
    play(g, die_on(mud))
    # the two dice left had only one place each: they went there by themselves
    assert g.state[E.HAB_DICE + MOUNT] == 1 and g.state[E.DICE_ON + guanaco] == 1
    assert g.state[E.DICE_ON + cid(g, "golden eagle")] == 0
    assert g.state[E.DICE_LEFT] == 0 and g.phase == "photograph"


def test_six_dice_on_any_habitats_and_any_animals_SN_PRE_3():
    # clause SN-PRE-3: any number of habitats; any animal of a chosen habitat, even one under
    # the top card
    g = arrange(new(QUIET), table=["mudskipper", "walrus", "meerkat", "pika", "jaguar"],
                tokens=[3, 3, 4, 5])
    play(g, STOP)
    assert g.state[E.DICE_LEFT] == 6
    for h in (SHORE, SAV, MOUNT, RAIN):
        assert die_hab(h) in legal(g)
        play(g, die_hab(h))
    play(g, die_on(cid(g, "mudskipper")))  # under the walrus
    assert g.state[E.DICE_LEFT] == 1
    play(g, die_on(cid(g, "meerkat")))
    # all six dice used: nothing more to place, the dice step ended by itself
    assert g.state[E.DICE_LEFT] == 0
    assert g.phase == "prepare: tokens"
    total = sum(int(g.state[E.HAB_DICE + h]) for h in range(4)) + sum(
        int(g.state[E.DICE_ON + c]) for c in range(E.N_CARDS))
    assert total == 6
    g = arrange(new(SnapshotConfig(offers=False, dice=3)), table=["pika"], tokens=[0] * 4)
    play(g, STOP)
    assert g.state[E.DICE_LEFT] == 3


def test_die_on_animal_needs_die_on_its_habitat_SN_PRE_4():
    # clause SN-PRE-4
    g = arrange(new(QUIET), table=["pika", "meerkat"], tokens=[0, 3, 4, 5])
    play(g, STOP)
    pika, meerkat = cid(g, "pika"), cid(g, "meerkat")
    assert die_on(pika) not in legal(g) and die_on(meerkat) not in legal(g)
    play(g, die_hab(MOUNT))
    assert die_on(pika) in legal(g) and die_on(meerkat) not in legal(g)


def test_animals_without_dice_are_not_attempted_and_stay_SN_PRE_5_SN_PHO_11():
    # clauses SN-PRE-5, SN-PHO-11: in an explored habitat, in a failed one, and in one with
    # no dice, animals without dice stay on the table for later turns
    for wanted in (lambda r: r[0] >= 4, lambda r: r[0] < 4):
        g = arrange(new(QUIET), table=["pika", "golden eagle", "meerkat"],
                    tokens=[0, 0, 0, 0])
        play(g, STOP, die_hab(MOUNT), die_on(cid(g, "pika")))
        r = with_rolls(g, wanted, 2)
        play(g, DICE_DONE)
        assert loc(g, "pika") == (E.L_PORTFOLIO if r[0] >= 4 and r[1] >= 2 else E.L_DISCARD)
        assert loc(g, "pika") in (E.L_PORTFOLIO, E.L_DISCARD)
        assert loc(g, "golden eagle") == E.L_TABLE and loc(g, "meerkat") == E.L_TABLE
        assert int(g.state[E.CUR]) == 1  # the turn is over; they stay for later turns
        assert g.state[E.DICE_ON + cid(g, "golden eagle")] == 0


def test_fewer_dice_than_needed_may_be_placed_SN_PRE_7():
    # clause SN-PRE-7: one die on a difficulty-10 animal is allowed (and always fails)
    for i in range(20):
        g = arrange(new(QUIET, game=i), table=["harpy eagle"], tokens=[0, 0, 0, 0])
        play(g, STOP, die_hab(RAIN), die_on(cid(g, "harpy eagle")))
        assert DICE_DONE in legal(g)
        play(g, DICE_DONE)
        assert loc(g, "harpy eagle") == E.L_DISCARD
    # no dice at all is allowed too: the turn ends with nothing attempted
    g = arrange(new(QUIET), table=["harpy eagle"], tokens=[0, 0, 0, 0])
    play(g, STOP)
    assert DICE_DONE in legal(g)
    play(g, DICE_DONE)
    assert loc(g, "harpy eagle") == E.L_TABLE and int(g.state[E.CUR]) == 1


def test_tokens_only_on_animals_with_dice_SN_PRE_8():
    # clause SN-PRE-8: token actions exist only for animals with dice (none for habitats)
    g = arrange(new(QUIET), table=["pika", "golden eagle", "meerkat"], tokens=[4, 0, 0, 0])
    pika = cid(g, "pika")
    play(g, STOP, die_hab(MOUNT), die_hab(SAV), die_on(pika), DICE_DONE)
    assert g.phase == "prepare: tokens"
    assert legal(g) == {token_on(pika), TOKENS_DONE}
    play(g, token_on(pika), token_on(pika))
    assert g.state[E.TOK_ON + pika] == 2 and tok(g, 0) == 2


@pytest.mark.parametrize("tokens_on,min_face", [(9, 1), (8, 2), (5, 5)])
def test_each_token_adds_one_to_the_total_SN_PRE_8(tokens_on, min_face):
    # clause SN-PRE-8 / SN-PHO-8: harpy eagle (10), one die, t tokens: success iff die+t >= 10
    for face in range(1, 7):
        g = arrange(new(QUIET), table=["harpy eagle"], tokens=[tokens_on, 0, 0, 0])
        eagle = cid(g, "harpy eagle")
        play(g, STOP, die_hab(RAIN), die_on(eagle))
        with_rolls(g, lambda r, f=face: r[0] >= 5 and r[1] == f, 2)
        play(g, DICE_DONE, *[token_on(eagle)] * tokens_on)
        done_tokens(g)
        got = loc(g, "harpy eagle")
        assert got == (E.L_PORTFOLIO if face >= min_face else E.L_DISCARD), face


# ============================================================================ photography


def test_habitats_resolved_one_at_a_time_in_any_order_SN_PHO_1():
    # clause SN-PHO-1: the player picks the order; a habitat is finished (explore and every
    # photograph) before the next one starts
    g = arrange(new(QUIET), table=["mudskipper", "meerkat", "pika"], tokens=[2, 0, 0, 0])
    play(g, STOP, die_hab(SHORE), die_hab(SAV), die_hab(MOUNT), die_on(cid(g, "mudskipper")),
         die_on(cid(g, "meerkat")), die_on(cid(g, "pika")), TOKENS_DONE)  # 6 dice: done
    assert g.phase == "photograph"
    assert legal(g) == {resolve(SHORE), resolve(SAV), resolve(MOUNT)}
    rolls = peek_rolls(g, 2)
    play(g, resolve(SAV))
    if g.phase == "re-roll":
        play(g, GIVE_UP)
    assert g.phase == "photograph"
    assert legal(g) == {resolve(SHORE), resolve(MOUNT)}
    # the savannah is completely resolved, the others untouched
    assert loc(g, "meerkat") in (E.L_PORTFOLIO, E.L_DISCARD)
    assert g.state[E.DICE_ON + cid(g, "mudskipper")] == 1
    assert g.state[E.DICE_ON + cid(g, "pika")] == 1
    if rolls[0] >= 3:  # explored: the meerkat's die is the very next roll
        assert loc(g, "meerkat") == (E.L_PORTFOLIO if rolls[1] >= 3 else E.L_DISCARD)


def test_explore_needs_one_die_at_the_value_never_a_sum_SN_PHO_2():
    # clause SN-PHO-2: rainforest (5) with two dice; the jaguar has 8 tokens and one die, so
    # it is photographed exactly when the habitat is explored
    def run(pred):
        g = arrange(new(QUIET), table=["jaguar"], tokens=[8, 0, 0, 0])
        jag = cid(g, "jaguar")
        play(g, STOP, die_hab(RAIN), die_hab(RAIN), die_on(jag))
        rolls = with_rolls(g, pred, 2)
        play(g, DICE_DONE, *[token_on(jag)] * 8)
        done_tokens(g)
        if g.phase == "re-roll":
            play(g, GIVE_UP)
        return rolls, loc(g, "jaguar") == E.L_PORTFOLIO

    rolls, ok = run(lambda r: max(r[:2]) < 5 and sum(r[:2]) >= 5)  # e.g. 2 + 3
    assert not ok, rolls
    rolls, ok = run(lambda r: r[0] < 5 <= r[1])  # one die fails, the other succeeds
    assert ok, rolls
    rolls, ok = run(lambda r: min(r[:2]) >= 5)
    assert ok, rolls


def test_explore_outcome_matches_the_dice_over_many_games_SN_PHO_2():
    # clause SN-PHO-2 against a naive reference over 150 scripted games (exact dice)
    for i in range(150):
        g = arrange(new(QUIET, seed=9, game=i), table=["jaguar"], tokens=[8, 0, 0, 0])
        jag = cid(g, "jaguar")
        play(g, STOP, die_hab(RAIN), die_hab(RAIN), die_hab(RAIN), die_on(jag))
        r = peek_rolls(g, 3)
        play(g, DICE_DONE, *[token_on(jag)] * 8)
        done_tokens(g)
        if g.phase == "re-roll":
            play(g, GIVE_UP)
        assert (loc(g, "jaguar") == E.L_PORTFOLIO) == (max(r) >= 5), r


def _jaguar_explore(tokens_supply, pred, n_rolls, tokens_on=0):
    """Rainforest, one die on it and one on the jaguar; dice chosen by pred."""
    g = arrange(new(QUIET), table=["jaguar"], tokens=[tokens_supply, 0, 0, 0])
    jag = cid(g, "jaguar")
    play(g, STOP, die_hab(RAIN), die_on(jag))
    rolls = with_rolls(g, pred, n_rolls)
    play(g, DICE_DONE, *[token_on(jag)] * tokens_on)
    return g, rolls


def test_rerolls_cost_two_tokens_each_and_repeat_SN_PHO_3_SN_PHO_6():
    # clauses SN-PHO-3, SN-PHO-6: three re-rolls, the third succeeds: 6 tokens to the bank
    g, rolls = _jaguar_explore(10, lambda r: max(r[:3]) < 5 <= r[3], 5)
    done_tokens(g)
    assert g.phase == "re-roll" and legal(g) == {REROLL_SUPPLY, GIVE_UP}
    play(g, REROLL_SUPPLY)
    assert g.phase == "re-roll" and tok(g, 0) == 8 and g.state[E.POT] == 2
    play(g, REROLL_SUPPLY)
    assert g.phase == "re-roll" and tok(g, 0) == 6 and g.state[E.POT] == 4
    play(g, REROLL_SUPPLY)  # succeeds: explored, the pot goes to the bank
    assert int(g.state[E.ST_REROLLS + 0]) == 3
    assert int(g.state[E.ST_TOK_REROLL + 0]) == 6
    # the jaguar (8) on one die always fails; no photo: experience +3
    assert loc(g, "jaguar") == E.L_DISCARD
    assert tok(g, 0) == 10 - 6 + 3


def test_rerolls_last_while_tokens_last_SN_PHO_3():
    # clause SN-PHO-3: 3 tokens buy one re-roll; then giving up is forced
    g, rolls = _jaguar_explore(3, lambda r: max(r[:2]) < 5, 3)
    done_tokens(g)
    assert legal(g) == {REROLL_SUPPLY, GIVE_UP}
    play(g, REROLL_SUPPLY)
    assert g.is_over() or int(g.state[E.CUR]) == 1  # gave up by itself
    assert int(g.state[E.ST_EXPLORE_FAILS + 0]) == 1
    assert tok(g, 0) == 3 + 3  # the re-roll tokens came back, then experience


def test_each_reroll_may_take_tokens_from_the_same_card_again_SN_PHO_3_SN_PHO_4():
    # clauses SN-PHO-3, SN-PHO-4: the mudskipper's 4 tokens pay two re-rolls of the
    # Shoreline die, one after the other; the second explores, and the photograph succeeds
    g = arrange(new(QUIET), table=["mudskipper"], tokens=[4, 0, 0, 0])
    mud = cid(g, "mudskipper")
    play(g, STOP, die_hab(SHORE), die_on(mud))
    with_rolls(g, lambda r: r[0] == 1 and r[1] == 1 and r[2] >= 2 and r[3] >= 2, 4)
    play(g, DICE_DONE, *[token_on(mud)] * 4)  # the last token ends the step; explore: 1
    assert g.phase == "re-roll" and legal(g) == {reroll_from(mud), GIVE_UP}
    play(g, reroll_from(mud))  # its second token is forced; re-rolled: 1 again
    assert g.phase == "re-roll" and legal(g) == {reroll_from(mud), GIVE_UP}
    play(g, reroll_from(mud))  # explored; the die alone photographs it
    assert loc(g, "mudskipper") == E.L_PORTFOLIO
    assert int(g.state[E.ST_REROLLS + 0]) == 2 and int(g.state[E.ST_TOK_REROLL + 0]) == 4
    assert tok(g, 0) == 0


def test_reroll_paid_from_a_cards_tokens_SN_PHO_4():
    # clause SN-PHO-4 (ruling docs/rulings.md, Phase 3 Re-Rolls): tokens already on an
    # animal card may pay, alone or together with the supply
    g, _ = _jaguar_explore(2, lambda r: r[0] < 5 and r[1] >= 5, 3, tokens_on=2)
    jag = cid(g, "jaguar")
    done_tokens(g)
    assert tok(g, 0) == 0
    assert legal(g) == {reroll_from(jag), GIVE_UP}  # the supply alone cannot pay
    play(g, reroll_from(jag))
    assert int(g.state[E.ST_TOK_REROLL + 0]) == 2
    assert int(g.state[E.ST_TOK_PHOTO + 0]) == 0
    assert loc(g, "jaguar") == E.L_DISCARD  # 1 die, no tokens left: fails
    assert tok(g, 0) == 3  # experience only

    g, _ = _jaguar_explore(2, lambda r: r[0] < 5 and r[1] < 5, 2, tokens_on=1)
    done_tokens(g)
    assert legal(g) == {reroll_from(jag), GIVE_UP}  # 1 on the card + 1 in the supply
    play(g, reroll_from(jag))  # fails; nothing left to pay with: giving up is forced
    assert loc(g, "jaguar") == E.L_DISCARD
    assert tok(g, 0) == 2 + 3  # both re-roll tokens came back to the supply, + experience


def test_reroll_paid_from_a_card_in_another_habitat_SN_PHO_4():
    # ruling (docs/rulings.md, Phase 3 Re-Rolls): tokens on ANY animal card may pay
    g = arrange(new(QUIET), table=["jaguar", "mudskipper"], tokens=[2, 0, 0, 0])
    mud, jag = cid(g, "mudskipper"), cid(g, "jaguar")
    play(g, STOP, die_hab(RAIN), die_hab(SHORE), die_on(jag), die_on(mud))
    # rainforest explore fails, the re-roll fails; shoreline explored, mudskipper (2) taken
    with_rolls(g, lambda r: r[0] < 5 and r[1] < 5 and r[2] >= 2 and r[3] >= 2, 4)
    play(g, DICE_DONE, token_on(mud), token_on(mud))
    done_tokens(g)
    play(g, resolve(RAIN))
    assert g.phase == "re-roll"
    assert legal(g) == {reroll_from(mud), GIVE_UP}
    play(g, reroll_from(mud))
    assert int(g.state[E.ST_REROLLS + 0]) == 1
    # the two tokens left the mudskipper for the pot and came back to the supply on failure;
    # the mudskipper was then photographed without tokens
    assert loc(g, "jaguar") == E.L_DISCARD and loc(g, "mudskipper") == E.L_PORTFOLIO
    assert int(g.state[E.ST_TOK_PHOTO + 0]) == 0
    assert tok(g, 0) == 2


def test_two_cards_one_token_each_share_a_reroll_SN_PHO_4():
    # clause SN-PHO-4: no supply, one token on each of two cards in different habitats: the
    # re-roll is paid with both (ruling docs/rulings.md, Phase 3 Re-Rolls: any combination)
    g = arrange(new(QUIET), table=["poison dart frog", "mudskipper"], tokens=[2, 0, 0, 0])
    frog, mud = cid(g, "poison dart frog"), cid(g, "mudskipper")
    play(g, STOP, die_hab(RAIN), die_on(frog), die_hab(SHORE), die_on(mud), DICE_DONE,
         token_on(frog), token_on(mud))
    assert tok(g, 0) == 0 and g.phase == "photograph"
    # Rainforest: explore fails, the re-roll explores; the frog (2) then rolls a 1, and
    # fails because its token paid for the re-roll; Shoreline: explored, mudskipper taken
    with_rolls(g, lambda r: r[0] < 5 <= r[1] and r[2] == 1 and r[3] >= 2 and r[4] >= 2, 5)
    play(g, resolve(RAIN))
    first, second = sorted((frog, mud))
    assert legal(g) == {reroll_from(first), GIVE_UP}  # card order: the other card follows
    play(g, reroll_from(first))  # the second token can only come from the other card
    assert int(g.state[E.ST_REROLLS + 0]) == 1
    assert int(g.state[E.ST_TOK_REROLL + 0]) == 2  # explored: both tokens to the bank
    assert loc(g, "poison dart frog") == E.L_DISCARD  # 1 + no token < 2
    assert loc(g, "mudskipper") == E.L_PORTFOLIO
    assert int(g.state[E.ST_TOK_PHOTO + 0]) == 0  # the mudskipper's token was gone
    assert tok(g, 0) == 0  # a photograph: no experience


def test_card_and_supply_share_a_reroll_by_choice_SN_PHO_4():
    # clause SN-PHO-4: with 2 tokens on the jaguar and 1 in the supply, the second token of
    # the re-roll is the player's choice; paying it from the supply keeps one on the jaguar
    def start():
        g = arrange(new(QUIET), table=["jaguar"], tokens=[3, 0, 0, 0])
        jag = cid(g, "jaguar")
        play(g, STOP, die_hab(RAIN), die_on(jag), die_on(jag), DICE_DONE, token_on(jag),
             token_on(jag))
        return g, jag

    # explore 1 fails, re-roll explores, jaguar (8) rolls 3 + 4 = 7
    g, jag = start()
    with_rolls(g, lambda r: r[0] < 5 <= r[1] and r[2] + r[3] == 7, 4)
    play(g, TOKENS_DONE)
    assert legal(g) == {reroll_from(jag), GIVE_UP}  # the supply alone cannot pay
    play(g, reroll_from(jag))
    assert g.phase == "re-roll" and legal(g) == {reroll_from(jag), REROLL_SUPPLY}
    assert GIVE_UP not in legal(g)  # a re-roll once begun is paid in full
    assert g.state[E.TOK_ON + jag] == 1 and g.state[E.POT] == 1
    play(g, REROLL_SUPPLY)
    assert loc(g, "jaguar") == E.L_PORTFOLIO  # 7 + the token it kept = 8
    assert int(g.state[E.ST_TOK_REROLL + 0]) == 2 and int(g.state[E.ST_TOK_PHOTO + 0]) == 1
    assert tok(g, 0) == 0
    # the same dice, both tokens taken off the jaguar: 7 < 8, the photograph fails
    g, jag = start()
    with_rolls(g, lambda r: r[0] < 5 <= r[1] and r[2] + r[3] == 7, 4)
    play(g, TOKENS_DONE, reroll_from(jag), reroll_from(jag))
    assert loc(g, "jaguar") == E.L_DISCARD
    assert tok(g, 0) == 1 + 3  # the supply token kept, plus experience


def test_a_reroll_combination_is_offered_once_SN_PHO_4():
    # clause SN-PHO-4: tokens are named in card order with the supply last, so each way of
    # paying is one sequence of actions
    g = arrange(new(QUIET), table=["jaguar", "mudskipper"], tokens=[6, 0, 0, 0])
    jag, mud = cid(g, "jaguar"), cid(g, "mudskipper")
    play(g, STOP, die_hab(RAIN), die_on(jag), die_hab(SHORE), die_on(mud), DICE_DONE,
         token_on(jag), token_on(jag), token_on(mud), token_on(mud))
    with_rolls(g, lambda r: r[0] < 5 and r[1] < 5 and r[2] >= 2, 3)
    play(g, TOKENS_DONE, resolve(RAIN))
    lo, hi = sorted((jag, mud))
    assert hi == jag  # Shoreline cards come first
    assert legal(g) == {reroll_from(lo), reroll_from(hi), REROLL_SUPPLY, GIVE_UP}
    play(g, reroll_from(hi))
    assert legal(g) == {reroll_from(hi), REROLL_SUPPLY}
    play(g, reroll_from(hi))  # paid (from one card): the die fails, a new choice
    assert g.phase == "re-roll" and g.state[E.TOK_ON + hi] == 0 and g.state[E.POT] == 2
    assert legal(g) == {reroll_from(lo), REROLL_SUPPLY, GIVE_UP}
    # giving up returns the re-roll tokens taken off the jaguar to the supply, not to the
    # card; then the Shoreline is explored and the mudskipper taken with its 2 tokens
    play(g, GIVE_UP)
    assert loc(g, "jaguar") == E.L_DISCARD and loc(g, "mudskipper") == E.L_PORTFOLIO
    assert tok(g, 0) == 2 + 2 and int(g.state[E.ST_TOK_PHOTO + 0]) == 2


def test_no_rerolls_for_animal_dice_SN_PHO_5():
    # clause SN-PHO-5: explored, the photograph fails: no re-roll is offered even with tokens
    g, rolls = _jaguar_explore(10, lambda r: r[0] >= 5, 2)
    done_tokens(g)
    assert loc(g, "jaguar") == E.L_DISCARD  # 1 die cannot make 8
    assert int(g.state[E.ST_REROLLS + 0]) == 0
    assert int(g.state[E.CUR]) == 1 and g.phase == "research"
    assert tok(g, 0) == 13


def test_failed_explore_discards_animals_with_dice_and_refunds_SN_PHO_7():
    # clause SN-PHO-7: tokens on the animals and re-roll tokens come back; animals without
    # dice stay
    g = arrange(new(QUIET), table=["pika", "guanaco", "golden eagle"], tokens=[10, 0, 0, 0])
    pika, guan = cid(g, "pika"), cid(g, "guanaco")
    play(g, STOP, die_hab(MOUNT), die_on(pika), die_on(guan))
    with_rolls(g, lambda r: max(r[:2]) < 4, 2)
    play(g, DICE_DONE, token_on(pika), token_on(pika), token_on(guan), TOKENS_DONE)
    assert tok(g, 0) == 7
    play(g, REROLL_SUPPLY)
    assert tok(g, 0) == 5 and g.phase == "re-roll"
    play(g, GIVE_UP)
    assert loc(g, "pika") == E.L_DISCARD and loc(g, "guanaco") == E.L_DISCARD
    assert loc(g, "golden eagle") == E.L_TABLE
    assert tok(g, 0) == 10 + 3  # everything back, plus experience
    assert int(g.state[E.ST_EXPLORE_FAILS + 0]) == 1
    assert int(g.state[E.ST_TOK_REROLL + 0]) == 0


def test_photograph_total_dice_plus_tokens_over_many_games_SN_PHO_8():
    # clause SN-PHO-8 against a naive reference with the exact dice: white rhino (8), two
    # dice and one token, one explore die on the Savannah (3); no re-roll is affordable
    seen = Counter()
    for i in range(200):
        g = arrange(new(QUIET, seed=8, game=i), table=["white rhino"], tokens=[1, 0, 0, 0])
        rhino = cid(g, "white rhino")
        play(g, STOP, die_hab(SAV), die_on(rhino), die_on(rhino))
        r = peek_rolls(g, 3)
        play(g, DICE_DONE, token_on(rhino))
        done_tokens(g)
        expect = r[0] >= 3 and r[1] + r[2] + 1 >= 8
        assert (loc(g, "white rhino") == E.L_PORTFOLIO) == expect, r
        seen[expect] += 1
    assert seen[True] > 20 and seen[False] > 20


def test_successful_photograph_to_portfolio_tokens_to_bank_SN_PHO_9():
    # clause SN-PHO-9: the card goes to the portfolio; its tokens are spent even if unneeded
    g = arrange(new(QUIET), table=["white rhino"], tokens=[3, 0, 0, 0])
    rhino = cid(g, "white rhino")
    play(g, STOP, die_hab(SAV), die_on(rhino), die_on(rhino))
    with_rolls(g, lambda r: r[0] >= 3 and r[1] + r[2] >= 8, 3)  # tokens not even needed
    play(g, DICE_DONE, token_on(rhino), token_on(rhino), TOKENS_DONE)
    assert loc(g, "white rhino") == E.L_PORTFOLIO
    assert int(g.state[E.OWNER + rhino]) == 0
    assert int(g.state[E.PHOTOS + 0]) == 1
    assert tok(g, 0) == 1  # 3 - 2 spent; no experience (a photo was taken)
    assert int(g.state[E.ST_TOK_PHOTO + 0]) == 2
    assert g.observation(2)["portfolios"][0] == ["white rhino"]


def test_failed_photograph_discards_the_card_and_returns_tokens_SN_PHO_10():
    # clause SN-PHO-10
    g = arrange(new(QUIET), table=["white rhino"], tokens=[3, 0, 0, 0])
    rhino = cid(g, "white rhino")
    play(g, STOP, die_hab(SAV), die_on(rhino), die_on(rhino))
    with_rolls(g, lambda r: r[0] >= 3 and r[1] + r[2] + 2 < 8, 3)
    play(g, DICE_DONE, token_on(rhino), token_on(rhino), TOKENS_DONE)
    assert loc(g, "white rhino") == E.L_DISCARD
    assert tok(g, 0) == 3 + 3  # tokens back, plus experience (no photograph)
    assert int(g.state[E.ST_TOK_PHOTO + 0]) == 0


def test_photograph_leaves_the_other_animals_where_they_are_SN_PHO_9_SN_PHO_11():
    # clauses SN-PHO-9, SN-PHO-11: the pika photographed from under the alpine salamander goes
    # to the portfolio; every other animal stays in its habitat, that one and the others
    table = ["pika", "alpine salamander", "golden eagle", "mudskipper", "meerkat",
             "poison dart frog"]
    g = arrange(new(QUIET), table=table, tokens=[0, 0, 0, 0])
    play(g, STOP, die_hab(MOUNT), die_on(cid(g, "pika")))
    with_rolls(g, lambda r: r[0] >= 4 and r[1] >= 2, 2)
    play(g, DICE_DONE)  # no tokens: explore and photograph by themselves
    assert loc(g, "pika") == E.L_PORTFOLIO and int(g.state[E.CUR]) == 1
    assert on_table(g, MOUNT) == {"alpine salamander", "golden eagle"}
    assert on_table(g, SHORE) == {"mudskipper"}
    assert on_table(g, SAV) == {"meerkat"}
    assert on_table(g, RAIN) == {"poison dart frog"}


# ============================================================================ review


def test_experience_on_turns_without_a_photograph_SN_REV_1():
    # clause SN-REV-1 (ruling docs/rulings.md "Phase 4, Step A": spooked turns included)
    g = arrange(new(QUIET), table=["pika"], tokens=[2, 3, 4, 5])
    play(g, STOP, DICE_DONE)  # an empty turn
    assert tok(g, 0) == 5 and int(g.state[E.ST_TOK_EXPERIENCE + 0]) == 3
    g = arrange(new(QUIET), table=["golden eagle"], deck=["pika"], tokens=[2, 3, 4, 5])
    play(g, DRAW, spook(MOUNT))
    assert tok(g, 0) == 5
    g = arrange(new(SnapshotConfig(offers=False, experience_tokens=5)), table=["pika"],
                tokens=[2, 3, 4, 5])
    play(g, STOP, DICE_DONE)
    assert tok(g, 0) == 7
    # a turn with a photograph earns no experience: see the SN-PHO-9 test (tokens 3 -> 1)


def test_experience_is_judged_afresh_each_turn_SN_REV_1():
    # clause SN-REV-1: seat 0's empty turn earns experience, then seat 1, on the next turn,
    # photographs the pika and earns none; seat 2's empty turn earns it again
    g = arrange(new(QUIET), table=["pika"], tokens=[0, 0, 0, 0])
    play(g, STOP, DICE_DONE)
    pika = cid(g, "pika")
    play(g, STOP, die_hab(MOUNT), die_on(pika))
    with_rolls(g, lambda r: r[0] >= 4 and r[1] >= 2, 2)
    play(g, DICE_DONE)  # no tokens: explore and photograph by themselves
    assert loc(g, "pika") == E.L_PORTFOLIO and int(g.state[E.OWNER + pika]) == 1
    play(g, STOP)  # an empty table: the turn ends by itself
    assert [tok(g, p) for p in range(4)] == [3, 0, 3, 0]
    assert int(g.state[E.CUR]) == 3


def _award_state(config=QUIET):
    g = arrange(new(config), tokens=[0] * config.players)
    return g, g.state, g._cfg, g._comp


def _photo(g, p, name):
    c = cid(g, name)
    g.state[E.LOC + c] = E.L_PORTFOLIO
    g.state[E.OWNER + c] = p
    E.index_cards(g.state, g._comp)
    E.add_photo(g.state, g._cfg, g._comp, p, c)


def test_specialist_award_kth_at_3k_SN_REV_2(comp):
    # clause SN-REV-2 (ruling docs/rulings.md "Phase 4, Step B")
    g, s, cfg, cmp = _award_state()
    stack = comp.specialist[MOUNT]
    mountain = ["pika", "alpine salamander", "red panda", "guanaco", "mountain goat",
                "golden pheasant", "golden eagle"]
    got = []
    for name in mountain:
        _photo(g, 0, name)
        E.collect_awards(s, cmp, 0)
        got.append(int(s[E.S_AWARDS + 0]))
    assert got == [0, 0, stack[0], stack[0], stack[0], stack[0] + stack[1],
                   stack[0] + stack[1]]
    assert int(s[E.AWARDS_WON + 0 * E.N_CAT + MOUNT]) == 2


def test_generalist_award_k_of_each_habitat_SN_REV_3(comp):
    # clause SN-REV-3
    g, s, cfg, cmp = _award_state()
    for name in ("mudskipper", "meerkat", "pika"):
        _photo(g, 0, name)
    _photo(g, 0, "raccoon")  # the raccoon is no Rainforest animal (SN-REV-6)
    E.collect_awards(s, cmp, 0)
    assert s[E.S_AWARDS + 0] == 0
    _photo(g, 0, "poison dart frog")
    E.collect_awards(s, cmp, 0)
    assert s[E.S_AWARDS + 0] == comp.generalist[0]
    for name in ("natterjack toad", "helmeted guineafowl", "alpine salamander"):
        _photo(g, 0, name)
        E.collect_awards(s, cmp, 0)
    assert s[E.S_AWARDS + 0] == comp.generalist[0]  # the second needs 2 of each
    _photo(g, 0, "green iguana")
    E.collect_awards(s, cmp, 0)
    assert s[E.S_AWARDS + 0] == comp.generalist[0] + comp.generalist[1]


def test_several_awards_at_once_and_top_of_stack_SN_REV_4(comp):
    # clause SN-REV-4: one photo set wins Mountain Specialist and Generalist together; later
    # winners take the next token; an empty stack gives nothing more
    g, s, cfg, cmp = _award_state(SnapshotConfig(players=5, offers=False))
    sets = [
        ["pika", "alpine salamander", "red panda", "mudskipper", "meerkat", "poison dart frog"],
        ["guanaco", "mountain goat", "golden pheasant", "natterjack toad", "ostrich",
         "green iguana"],
        ["golden eagle", "brown bear", "snow leopard", "atlantic puffin", "giraffe",
         "toco toucan"],
    ]
    for p, names in enumerate(sets):
        for name in names:
            _photo(g, p, name)
        E.collect_awards(s, cmp, p)  # all in one review
        assert s[E.S_AWARDS + p] == comp.specialist[MOUNT][p] + comp.generalist[p]
    assert s[E.S_AWARDS + 0] == 13  # the rulebook example's Generalist + Mountain pair
    # stacks now empty: a 4th generalist set wins nothing
    for name in ("harbour seal", "plains zebra", "three-toed sloth", "raccoon"):
        _photo(g, 3, name)
    E.collect_awards(s, cmp, 3)
    assert s[E.S_AWARDS + 3] == 0
    assert g.observation(0)["awards_left"] == [3, 3, 0, 3, 0]


def test_generalist_stack_runs_out_after_three_awards_SN_REV_3_SN_REV_4(comp):
    # clauses SN-REV-3, SN-REV-4 (ruling docs/rulings.md "Phase 4, Step B": an empty stack
    # gives nothing more): the frog completes four animals of each habitat, worth a fourth
    # Generalist award, but the stack holds three; each habitat's first Specialist comes too
    portfolio = ["mudskipper", "natterjack toad", "atlantic puffin", "harbour seal",
                 "helmeted guineafowl", "meerkat", "ostrich", "plains zebra",
                 "pika", "alpine salamander", "red panda", "guanaco",
                 "green iguana", "toco toucan", "three-toed sloth"]
    g = arrange(new(QUIET), table=["poison dart frog"], tokens=[0, 0, 0, 0],
                portfolios={0: portfolio})
    _photo_turn(g, 0, "poison dart frog")
    assert int(g.state[E.AWARDS_WON + 0 * E.N_CAT + E.GENERALIST]) == 3
    assert g.state[E.S_AWARDS + 0] == sum(comp.generalist) + sum(
        stack[0] for stack in comp.specialist)
    assert g.observation(1)["awards_left"] == [2, 2, 2, 2, 0]



def test_an_emptied_specialist_stack_gives_nothing_more_SN_REV_4():
    # clause SN-REV-4 (ruling docs/rulings.md "Phase 4, Step B": an empty stack gives nothing
    # more): with a designer's one-token Savannah stack, seat 0's third savannah animal takes
    # the token and seat 1's, on the next turn, wins nothing
    base = load_components()
    one = dataclasses.replace(base, specialist=(
        base.specialist[SHORE], base.specialist[SAV][:1], *base.specialist[MOUNT:]))
    g = arrange(new(SnapshotConfig(offers=False, components=one)),
                table=["ostrich", "giraffe"], tokens=[0] * 4,
                portfolios={0: ["helmeted guineafowl", "meerkat"],
                            1: ["plains zebra", "nile crocodile"]})
    _photo_turn(g, 0, "ostrich")
    _photo_turn(g, 1, "giraffe")
    assert [int(g.state[E.S_AWARDS + p]) for p in range(2)] == [base.specialist[SAV][0], 0]
    assert int(g.state[E.AWARDS_WON + 1 * E.N_CAT + SAV]) == 0
    assert g.observation(0)["awards_left"] == [3, 0, 3, 3, 3]

@settings(max_examples=60, deadline=None)
@given(events=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 4)), max_size=40))
def test_awards_match_a_naive_reference_SN_REV_2_SN_REV_3_SN_REV_4_SN_REV_6(events):
    # clauses SN-REV-2..4, SN-REV-6: a random order of photographs (player, habitat; 4 is
    # the raccoon) with a review after each, against a direct reading of the rules
    comp = QUIET.components
    g, s, cfg, cmp = _award_state(SnapshotConfig(players=3, offers=False))
    pool = {h: [a.name for a in comp.animals if a.habitat == h] for h in range(4)}
    stacks = [list(x) for x in (*comp.specialist, comp.generalist)]
    counts = [[0] * 4 for _ in range(3)]
    won = [[0] * 5 for _ in range(3)]
    points = [0, 0, 0]
    raccoon_used = False
    for p, h in events:
        if h == 4:
            if raccoon_used:
                continue
            raccoon_used = True
            _photo(g, p, "raccoon")
        else:
            if not pool[h]:
                continue
            _photo(g, p, pool[h].pop())
            counts[p][h] += 1
        E.collect_awards(s, cmp, p)
        for k in range(4):
            while won[p][k] < counts[p][k] // 3 and stacks[k]:
                points[p] += stacks[k].pop(0)
                won[p][k] += 1
        while won[p][4] < min(counts[p]) and stacks[4]:
            points[p] += stacks[4].pop(0)
            won[p][4] += 1
        for q in range(3):
            assert s[E.S_AWARDS + q] == points[q]


def test_awards_collected_in_review_after_the_turns_photographs_SN_REV_4():
    # clause SN-REV-4 through play: a turn that photographs the 3rd Mountain animal and the
    # first Rainforest animal wins both awards in its Review
    g = arrange(new(QUIET), table=["red panda", "poison dart frog"], tokens=[4, 0, 0, 0],
                portfolios={0: ["pika", "alpine salamander", "mudskipper", "meerkat"]})
    panda, frog = cid(g, "red panda"), cid(g, "poison dart frog")
    play(g, STOP, die_hab(MOUNT), die_hab(RAIN), die_on(panda), die_on(frog))
    with_rolls(g, lambda r: r[0] >= 4 and r[2] >= 5, 4)  # both explored on the first roll
    play(g, DICE_DONE, token_on(panda), token_on(panda), token_on(panda), token_on(frog))
    done_tokens(g)
    assert g.state[E.S_AWARDS + 0] == 0
    play(g, resolve(MOUNT))  # then the rainforest, the only one left, by itself
    assert loc(g, "red panda") == E.L_PORTFOLIO and loc(g, "poison dart frog") == E.L_PORTFOLIO
    assert g.state[E.S_AWARDS + 0] == 13
    assert int(g.state[E.CUR]) == 1


PHOTO_POOL = ["pika", "meerkat", "walrus", "jaguar", "lion", "ostrich", "guanaco", "giraffe",
              "sea otter", "red panda"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_end_targets_by_player_count_SN_REV_5(players):
    # clause SN-REV-5: the last seat photographs its way to the rulebook's target (2p 9,
    # 3p 8, 4p 7, 5p 7) and the game ends; one photograph short, play goes on
    target = {2: 9, 3: 8, 4: 7, 5: 7}[players]
    cfg = SnapshotConfig(players=players, offers=False)
    assert cfg.target == target == RULEBOOK_TARGET[players]
    for have, ends in ((target - 1, True), (target - 2, False)):
        g = arrange(new(cfg), table=["mudskipper"], tokens=[0] * players, cur=players - 1,
                    portfolios={players - 1: PHOTO_POOL[:have]})
        _photo_turn(g, players - 1, "mudskipper")
        assert g.is_over() == ends, (players, have)
        assert int(g.state[E.PHOTOS + players - 1]) == have + 1
    assert SnapshotConfig(players=players, photo_target=3).target == 3


def _photo_turn(g, p, name):
    """Player p (to move) photographs `name` from the table for sure."""
    c = cid(g, name)
    h = int(g.state[E.ON_HAB + c])
    need = g.config.components.cards[c].difficulty
    g.state[E.TOKENS + p] = need
    play(g, STOP, die_hab(h), die_on(c))
    with_rolls(g, lambda r: r[0] >= g.config.components.habitats[h].explore, 2)
    play(g, DICE_DONE, *[token_on(c)] * need)
    done_tokens(g)
    assert loc(g, name) == E.L_PORTFOLIO


def test_end_trigger_finishes_the_round_SN_REV_5():
    # clause SN-REV-5: player 2 of 3 reaches 8 photos: player 3 still plays, then the game
    # ends with everybody on the same number of turns
    cfg = SnapshotConfig(players=3, offers=False)
    g = arrange(new(cfg), table=["mudskipper"], tokens=[0, 0, 0],
                portfolios={1: ["pika", "meerkat", "walrus", "jaguar", "lion", "ostrich",
                                "guanaco"]})
    play(g, STOP, DICE_DONE)  # player 1: nothing
    assert int(g.state[E.CUR]) == 1
    _photo_turn(g, 1, "mudskipper")
    assert int(g.state[E.PHOTOS + 1]) == 8
    assert g.state[E.END_TRIGGERED] == 1 and not g.is_over()
    assert int(g.state[E.CUR]) == 2
    play(g, STOP)  # empty table: no dice to place, the turn ends by itself
    assert g.is_over()
    assert [int(g.state[E.ST_TURNS + p]) for p in range(3)] == [1, 1, 1]
    assert g.state[E.TRUNCATED] == 0
    # one below the target does not trigger
    g = arrange(new(cfg), table=["mudskipper"], tokens=[0, 0, 0],
                portfolios={1: ["pika", "meerkat", "walrus", "jaguar", "lion", "ostrich"]})
    play(g, STOP, DICE_DONE)
    _photo_turn(g, 1, "mudskipper")
    play(g, STOP)
    assert not g.is_over() and g.state[E.END_TRIGGERED] == 0 and int(g.state[E.CUR]) == 0


def test_end_trigger_by_the_last_seat_ends_at_once_SN_REV_5():
    # clause SN-REV-5: the last player (right of the starting player) triggers: game over
    cfg = SnapshotConfig(players=2, offers=False)
    g = arrange(new(cfg), table=["mudskipper"], tokens=[0, 0], cur=1,
                portfolios={1: ["pika", "meerkat", "walrus", "jaguar", "lion", "ostrich",
                                "guanaco", "giraffe"]})
    _photo_turn(g, 1, "mudskipper")
    assert g.is_over()
    assert legal(g) == set()
    with pytest.raises(InputError):
        g.apply(STOP)


def test_round_cap_ends_a_game_flagged_truncated():
    # max_rounds is a safety cap, not a rulebook rule: a game still going when the capped
    # round ends stops there, every seat on the same number of turns, flagged truncated
    g = arrange(new(SnapshotConfig(offers=False, max_rounds=2)), tokens=[0, 0, 0, 0])
    for _ in range(7):
        play(g, STOP)  # empty table: no dice to place, the turn ends by itself
    assert not g.is_over() and int(g.state[E.CUR]) == 3
    play(g, STOP)
    assert g.is_over()
    assert g.state[E.TRUNCATED] == 1 and g.state[E.END_TRIGGERED] == 0
    assert [int(g.state[E.ST_TURNS + p]) for p in range(4)] == [2, 2, 2, 2]


def test_raccoon_never_counts_toward_awards_SN_REV_6_SN_RAC_1():
    # clauses SN-REV-6, SN-RAC-1: the raccoon may enter any habitat below 6 (the drawer's
    # choice), is photographed there, and still counts for no habitat
    g = arrange(new(QUIET), table=["golden eagle"], deck=["raccoon"],
                tokens=[6, 0, 0, 0], portfolios={0: ["red panda", "guanaco"]})
    play(g, DRAW)
    assert legal(g) == {place(SHORE), place(SAV), place(RAIN), RESERVE}  # Mountain has 8
    g = arrange(new(QUIET), table=["pika"], deck=["raccoon"],
                tokens=[6, 0, 0, 0], portfolios={0: ["red panda", "guanaco"]})
    play(g, DRAW)
    assert legal(g) == {place(h) for h in range(4)} | {RESERVE}
    play(g, place(MOUNT))
    rac = E.RACCOON
    assert g.state[E.ON_HAB + rac] == MOUNT and tok(g, 0) == 7
    _photo_turn(g, 0, "raccoon")
    assert int(g.state[E.PHOTOS + 0]) == 3
    assert [int(g.state[E.HAB_COUNT + h]) for h in range(4)] == [0, 0, 2, 0]
    assert g.state[E.S_AWARDS + 0] == 0  # 2 Mountain animals + raccoon: no Specialist


def test_raccoon_cannot_enter_a_habitat_at_6_or_more_SN_RAC_1():
    # clause SN-RAC-1 and the strict ruling (docs/rulings.md, Phase 1 A/B and Raccoon):
    # difficulty 6 is not above a 6; with every habitat at 6+ it spooks where the drawer picks
    g = arrange(new(QUIET), table=["sea otter", "giraffe", "mountain goat", "jaguar"],
                deck=["raccoon"], tokens=[0, 0, 0, 0])
    play(g, DRAW)
    assert legal(g) == {RESERVE, spook(SHORE), spook(SAV), spook(MOUNT), spook(RAIN)}
    play(g, spook(SAV))
    assert on_table(g) == {"sea otter", "mountain goat", "jaguar"}
    assert loc(g, "raccoon") == E.L_DISCARD and loc(g, "giraffe") == E.L_DISCARD


# ============================================================================ scoring


def test_rulebook_scoring_example_totals_44_SN_SCO_6_SN_SCO_1_to_4():
    # clauses SN-SCO-1 (17), SN-SCO-2 (13), SN-SCO-3 (5), SN-SCO-4 (9), SN-SCO-6 (44): the
    # [example] portfolio and assignment of the bundled components
    comp = FULL.components
    ex = comp.example
    g = arrange(new(FULL), tokens=[0, 0, 0, 0], reserves={0: ["lion"]})  # not scored
    s = g.state
    a = [x.name for x in comp.assignments].index(ex["assignment"])
    s[E.ASSIGN + 0] = a
    s[E.ASSIGN + 1] = (a + 1) % len(comp.assignments)
    for name in ex["portfolio"]:
        _photo(g, 0, name)
    E.collect_awards(s, g._comp, 0)
    E.end_game(s, g._cfg, g._comp)
    sheet = g.scores().iloc[0]
    assert (sheet.animals, sheet.awards, sheet.cover, sheet.article) == (17, 13, 5, 9)
    assert sheet.score == 44 == ex["total"]
    assert int(s[E.SYM_COUNT + 0]) == 4
    assert g.is_over()


def test_cover_photo_counts_once_SN_SCO_3():
    # clause SN-SCO-3: both cover animals still give 5
    g = arrange(new(FULL), tokens=[0] * 4)
    comp = g.config.components
    a = [x.name for x in comp.assignments].index("The Long Lunch")
    g.state[E.ASSIGN + 0] = a
    for name in ("nile crocodile", "brown bear"):
        _photo(g, 0, name)
    E.end_game(g.state, g._cfg, g._comp)
    assert g.state[E.S_COVER + 0] == 5
    g2 = arrange(new(FULL), tokens=[0] * 4)
    g2.state[E.ASSIGN + 0] = a
    _photo(g2, 0, "meerkat")
    E.end_game(g2.state, g2._cfg, g2._comp)
    assert g2.state[E.S_COVER + 0] == 0


def test_feature_article_counts_both_symbols_of_a_card_SN_SCO_4():
    # clause SN-SCO-4: brown bear is omnivore AND 21-30 years: 2 matches; past the end of
    # the chart the last value counts
    comp = FULL.components
    a = [x.name for x in comp.assignments].index("The Long Lunch")
    chart = comp.assignments[a].chart
    g = arrange(new(FULL), tokens=[0] * 4)
    g.state[E.ASSIGN + 0] = a
    _photo(g, 0, "brown bear")
    assert g.state[E.SYM_COUNT + 0] == 2
    E.end_game(g.state, g._cfg, g._comp)
    assert g.state[E.S_ARTICLE + 0] == chart[2]
    g = arrange(new(FULL), tokens=[0] * 4)
    g.state[E.ASSIGN + 0] = a
    matching = [c.name for c in comp.animals
                if set(c.characteristics) & {"omnivore", "21-30 years"}]
    for name in matching:
        _photo(g, 0, name)
    expected = sum(len(set(comp.cards[cid(g, n)].characteristics)
                       & {"omnivore", "21-30 years"}) for n in matching)
    assert g.state[E.SYM_COUNT + 0] == expected > len(chart)
    E.end_game(g.state, g._cfg, g._comp)
    assert g.state[E.S_ARTICLE + 0] == chart[-1]


def _win_shares(scores, tokens_):
    g = arrange(new(SnapshotConfig(players=len(scores))), tokens=list(tokens_))
    for p, sc in enumerate(scores):
        g.state[E.S_PRESTIGE + p] = sc
    return list(E.win_shares(g.state, g._cfg))


def test_tie_break_by_tokens_then_shared_SN_SCO_5():
    # clause SN-SCO-5 (ruling docs/rulings.md "Scoring")
    assert _win_shares([30, 31, 29], [9, 0, 9]) == [0, 1, 0]
    assert _win_shares([30, 30, 29], [4, 5, 9]) == [0, 1, 0]
    assert _win_shares([30, 30, 29], [5, 5, 9]) == [0.5, 0.5, 0]
    assert _win_shares([7, 7, 7, 7], [1, 1, 1, 0]) == pytest.approx([1 / 3] * 3 + [0])


@settings(max_examples=80, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=2,
                     max_size=5))
def test_win_shares_match_a_naive_reference_SN_SCO_5(data):
    # clause SN-SCO-5
    scores = [d[0] for d in data]
    toks = [d[1] for d in data]
    best = max(zip(scores, toks, strict=True))
    winners = [p for p in range(len(data)) if (scores[p], toks[p]) == best]
    expect = [1 / len(winners) if p in winners else 0 for p in range(len(data))]
    got = _win_shares(scores, toks)
    assert got == pytest.approx(expect)
    assert sum(got) == pytest.approx(1)


def _reference_sheet(comp, portfolio, assignment):
    """The rulebook's four scoring categories read directly off the components (first
    claims of each award stack)."""
    cards = [next(a for a in comp.cards if a.name == n) for n in portfolio]
    counts = [sum(a.habitat == h for a in cards) for h in range(4)]
    awards = sum(sum(comp.specialist[h][:counts[h] // 3]) for h in range(4))
    awards += sum(comp.generalist[:min(counts)])
    a = next(x for x in comp.assignments if x.name == assignment)
    cover = 5 if set(a.cover) & set(portfolio) else 0
    matches = sum(len(set(c.characteristics) & set(a.symbols)) for c in cards)
    article = a.chart[min(matches, len(a.chart) - 1)]
    return sum(a.prestige for a in cards), awards, cover, article


def test_final_score_sheet_through_play_SN_SCO_1_to_4():
    # clauses SN-SCO-1..4: the last seat of a 2-player game takes its 9th photograph (the
    # golden eagle), the game ends, and both score sheets equal a direct reading of the
    # rulebook's four categories; reserved cards score nothing
    comp = FULL.components
    names = [a.name for a in comp.assignments]
    g = new(SnapshotConfig(players=2, offers=False))
    g.state[E.ASSIGN + 0] = names.index("The Long Lunch")
    g.state[E.ASSIGN + 1] = next(i for i, a in enumerate(comp.assignments)
                                 if a.name != "The Long Lunch")
    mine = ["pika", "red panda", "guanaco", "brown bear", "meerkat", "mudskipper", "walrus",
            "poison dart frog"]
    theirs = ["sea otter", "lion", "nile crocodile"]
    arrange(g, table=["golden eagle"], tokens=[0, 0], cur=1,
            portfolios={1: mine, 0: theirs}, reserves={1: ["jaguar"], 0: ["giraffe"]})
    eagle = cid(g, "golden eagle")
    g.state[E.TOKENS + 1] = 8
    play(g, STOP, RESERVED_DONE, die_hab(MOUNT), die_on(eagle))
    with_rolls(g, lambda r: r[0] >= 4, 2)
    play(g, DICE_DONE, *[token_on(eagle)] * 8)
    assert g.is_over() and loc(g, "golden eagle") == E.L_PORTFOLIO
    sheet = g.scores()
    for p, portfolio in ((1, [*mine, "golden eagle"]), (0, theirs)):
        want = _reference_sheet(comp, portfolio, names[int(g.state[E.ASSIGN + p])])
        row = sheet.iloc[p]
        if p == 0:  # player 0 had no Review since these photographs: no award claimed yet
            want = (want[0], 0, want[2], want[3])
        assert (row.animals, row.awards, row.cover, row.article) == want, p
        assert row.score == sum(want)
    assert sheet.iloc[1].awards > 0 and sheet.iloc[0].cover == 5


# ============================================================================ variants


def test_simpler_1_no_assignments_no_raccoon_SN_VAR_1():
    # clause SN-VAR-1
    cfg = SnapshotConfig.simpler(1)
    assert not cfg.raccoon and not cfg.assignments
    g = new(cfg)
    assert loc(g, "raccoon") == E.L_BOX
    arrange(g, tokens=[0] * 4)
    comp = g.config.components
    a = [x.name for x in comp.assignments].index("The Long Lunch")
    g.state[E.ASSIGN + 0] = a
    for name in ("nile crocodile", "brown bear", "guanaco"):
        _photo(g, 0, name)
    E.end_game(g.state, g._cfg, g._comp)
    sheet = g.scores().iloc[0]
    assert sheet.cover == 0 and sheet.article == 0 and sheet.animals == 3 + 4 + 2


def test_simpler_2_no_tracking_tokens_SN_VAR_2():
    # clause SN-VAR-2: no tokens from set-up, placing or experience; no token step, no offers,
    # no re-rolls
    cfg = SnapshotConfig.simpler(2)
    assert not cfg.tracking_tokens
    g = new(cfg)
    assert [tok(g, p) for p in range(4)] == [0, 0, 0, 0]
    arrange(g, deck=["pika", "jaguar"], table=["guanaco"])
    play(g, DRAW)
    assert g.phase == "decide"  # nobody is asked for an offer
    play(g, spook(MOUNT))
    assert tok(g, 0) == 0
    play(g, DRAW)
    assert legal(g) == {place(RAIN), RESERVE}
    play(g, place(RAIN), STOP, die_hab(RAIN), die_on(cid(g, "jaguar")))
    with_rolls(g, lambda r: r[0] < 5, 2)
    play(g, DICE_DONE)  # no token step, no re-roll: the explore fails at once
    assert loc(g, "jaguar") == E.L_DISCARD
    assert [tok(g, p) for p in range(4)] == [0, 0, 0, 0]
    assert int(g.state[E.CUR]) == 2


def test_simpler_3_no_reserving_SN_VAR_3():
    # clause SN-VAR-3: no reserve, no offers: a card that cannot be placed spooks at once
    cfg = SnapshotConfig.simpler(3)
    assert not cfg.reserving
    g = arrange(new(cfg), table=["golden eagle"], deck=["golden pheasant", "jaguar"],
                tokens=[2, 3, 4, 5])
    play(g, DRAW)
    assert loc(g, "golden pheasant") == E.L_DISCARD and int(g.state[E.CUR]) == 1
    play(g, DRAW)
    assert loc(g, "jaguar") == E.L_TABLE  # placing is forced too


def test_simpler_variants_combine_and_reject_unknown():
    cfg = SnapshotConfig.simpler(1, 2, 3, players=3)
    assert (cfg.raccoon, cfg.assignments, cfg.tracking_tokens, cfg.reserving) == (
        False, False, False, False)
    assert cfg.players == 3
    with pytest.raises(InputError):
        SnapshotConfig.simpler(4)


def test_award_claims_record_their_round():
    # the claim round of each award token (the reports' award timing): seat 3 takes the top
    # Mountain token in round 1, seat 0 the next one in round 2
    g = arrange(new(QUIET), table=["red panda", "golden pheasant"], tokens=[0] * 4, cur=3,
                portfolios={0: ["pika", "alpine salamander"],
                            3: ["guanaco", "mountain goat"]})
    _photo_turn(g, 3, "golden pheasant")
    _photo_turn(g, 0, "red panda")
    assert int(g.state[E.ROUND]) == 1
    claimed = [int(r) for r in g.state[E.AWARD_ROUND:E.AWARD_ROUND + E.N_CAT * E.MAX_STACK]]
    expected = [0] * (E.N_CAT * E.MAX_STACK)
    expected[MOUNT * E.MAX_STACK:MOUNT * E.MAX_STACK + 2] = [1, 2]
    assert claimed == expected


def _per_seat(g, field):
    return [int(g.state[field + p]) for p in range(g.config.players)]


def test_statistics_count_for_the_seat_and_the_card_that_played():
    # the counters behind the reports' seat and card studies, kept by seat 2 (not seat 0,
    # so a counter filed under the wrong seat shows): one card placed, one photograph
    g = arrange(new(QUIET), table=["pika"], deck=["meerkat"], tokens=[0, 0, 0, 0], cur=2)
    play(g, DRAW, place(SAV))
    assert int(g.state[E.PLACED_TURN]) == 1 and _per_seat(g, E.ST_PLACED) == [0, 0, 1, 0]
    pika = cid(g, "pika")
    play(g, STOP, die_hab(MOUNT), die_on(pika))
    with_rolls(g, lambda r: r[0] >= 4 and r[1] >= 2, 2)
    play(g, DICE_DONE, TOKENS_DONE)  # the placing token stays in the supply
    assert loc(g, "pika") == E.L_PORTFOLIO and int(g.state[E.CUR]) == 3
    for field in (E.CS_ATTEMPTS, E.CS_PHOTOS, E.CS_DICE):
        assert [int(v) for v in g.state[field:field + E.N_CARDS]] == [
            int(c == pika) for c in range(E.N_CARDS)]
    assert _per_seat(g, E.ST_ATTEMPTS) == [0, 0, 1, 0]
    # a spook by seat 2
    g = arrange(new(QUIET), table=["golden pheasant"], deck=["guanaco"], tokens=[0] * 4,
                cur=2)
    play(g, DRAW, spook(MOUNT))
    assert _per_seat(g, E.ST_SPOOKS) == [0, 0, 1, 0]
    # seat 3's offer to seat 2, accepted
    g = arrange(new(FULL), table=["golden pheasant"], deck=["guanaco"], tokens=[2, 3, 4, 5],
                cur=2)
    play(g, DRAW, OFFER, ACCEPT)
    assert _per_seat(g, E.ST_OFFERS_MADE) == [0, 0, 0, 1]
    assert _per_seat(g, E.ST_OFFERS_TAKEN) == [0, 0, 0, 1]
    assert _per_seat(g, E.ST_TOK_OFFERS_IN) == [0, 0, 1, 0]
    assert _per_seat(g, E.ST_TOK_OFFERS_OUT) == [0, 0, 0, 1]


def test_arranged_states_keep_every_card_in_one_place():
    # the helper itself: a sanity check of the constructions used above
    g = arrange(new(FULL), table=["pika"], deck=["lion"], discard=["jaguar"],
                reserves={1: ["walrus"]}, portfolios={2: ["meerkat"]}, tokens=[1, 2, 3, 4])
    check_invariants(g)
    assert np.count_nonzero(g.state[E.LOC:E.LOC + E.N_CARDS] == E.L_DECK) == 37 - 4
