"""What Snapshot policies may see, and what asking them does.

A seat sees the table, the discards, every portfolio, reserve and token count (reserved cards
lie face up in front of their owner), the card just drawn and its own assignment. Hidden from
it: the deck order and the other players' assignments. Every policy kind must decide the same
from two positions that differ only there, and asking a policy for a move must leave the game
(state and random streams) exactly as it was.
"""


import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from kernel_checks import flag_types, ladder_flag_types
from snapshot_helpers import (
    DICE_DONE,
    DRAW,
    GIVE_UP,
    RAIN,
    SAV,
    SHORE,
    STOP,
    TOKENS_DONE,
    arrange,
    cid,
    code,
    die_hab,
    die_on,
    legal,
    new,
    play,
    reroll_from,
    resolve,
    token_on,
    with_rolls,
)

from snapsim.games.snapshot import SnapshotConfig, SnapshotGame
from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot import policies as P
from snapsim.games.snapshot.api import make_policy, uses_exact, uses_search
from snapsim.games.snapshot.config import photo_table
from snapsim.games.snapshot.preparation import item_worths as item_worths_kernel
from snapsim.games.snapshot.search import recount_assignment
from snapsim.games.snapshot.tuning import tuned_policies
from snapsim.odds import photo_success
from snapsim.sim.kernel import seating

FULL = SnapshotConfig()
KINDS = ["random", "greedy", "cautious", "aggressive", "collector", "exact",
         "search:rollouts=3:candidates=2:margin=0", *sorted(tuned_policies()), "rules"]


def _game(policy):
    return SnapshotGame(FULL, seed=3, game=1, policies=[policy] * 4, rotate_seats=False)


def research(g):
    return arrange(g, table=["pika", "meerkat", "sea otter"],
                   deck=["golden eagle", "walrus", "lion"], tokens=[3, 3, 4, 5],
                   reserves={2: ["jaguar"]}, portfolios={1: ["green iguana"]})


def offer(g):
    arrange(g, table=["golden eagle", "meerkat"], deck=["guanaco", "walrus"],
            tokens=[3, 4, 4, 5], portfolios={0: ["pika", "red panda"]})
    play(g, DRAW)
    assert g.phase == "offer" and g.current_player == 1
    return g


def decide(g):
    arrange(g, table=["golden pheasant", "mudskipper"], deck=["golden eagle", "lion"],
            tokens=[2, 0, 0, 0], portfolios={0: ["pika", "red panda"]})
    play(g, DRAW)
    assert g.phase == "decide"
    return g


def prep_reserved(g):
    arrange(g, table=["golden eagle", "meerkat", "jaguar"], reserves={0: ["guanaco", "lion"]},
            deck=["walrus"], tokens=[5, 3, 4, 5])
    play(g, STOP)
    assert g.phase == "prepare: reserved"
    return g


def prep_dice(g):
    arrange(g, table=["sea otter", "walrus", "meerkat", "jaguar", "pika"],
            deck=["lion", "mudskipper"], tokens=[4, 3, 4, 5],
            portfolios={0: ["green iguana"], 3: ["ostrich"]})
    play(g, STOP)
    assert g.phase == "prepare: dice"
    return g


def reroll(g):
    arrange(g, table=["poison dart frog", "mudskipper", "white rhino"], deck=["lion"],
            tokens=[4, 3, 4, 5])
    frog, mud, rhino = cid(g, "poison dart frog"), cid(g, "mudskipper"), cid(g, "white rhino")
    play(g, STOP, die_hab(RAIN), die_on(frog), die_hab(SHORE), die_on(mud), die_hab(SAV),
         die_on(rhino), token_on(frog), token_on(mud), token_on(rhino), TOKENS_DONE)
    with_rolls(g, lambda r: r[0] < 5, 1)
    play(g, resolve(RAIN))
    assert g.phase == "re-roll" and reroll_from(min(frog, mud)) in legal(g)
    return g


def setup(g):
    arrange(g, table=["sea otter", "golden eagle"], tokens=[2, 3, 4, 5])
    st = g.state
    n = int(st[E.N_DECK])
    deck = [c for c in st[E.DECK:E.DECK + n] if c != E.RACCOON]
    st[E.DECK:E.DECK + n - 1] = deck
    st[E.N_DECK] = n - 1
    st[E.LOC + E.RACCOON] = E.L_DRAWN
    st[E.DRAWN] = E.RACCOON
    E.index_cards(st, g._comp)
    st[E.PHASE] = E.PH_SETUP
    return g


POSITIONS = [research, offer, decide, prep_reserved, prep_dice, reroll, setup]


def hide_differently(g, seed):
    """Change only what the seat to move cannot see: the deck order and the other players'
    assignments (with what follows from them)."""
    st, cfg, comp = g.state, g._cfg, g._comp
    me = g.current_player
    rng = np.random.default_rng(seed)
    n = int(st[E.N_DECK])
    st[E.DECK:E.DECK + n] = rng.permutation(st[E.DECK:E.DECK + n])
    others = [a for a in range(len(g.config.components.assignments)) if a != st[E.ASSIGN + me]]
    picks = rng.choice(others, size=g.config.players - 1, replace=False)
    for p, a in zip([q for q in range(g.config.players) if q != me], picks, strict=True):
        st[E.ASSIGN + p] = a
        recount_assignment(st, cfg, comp, p)


def decision(g):
    return g.policy_action().code


@pytest.mark.parametrize("position", POSITIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("policy", KINDS)
def test_decisions_ignore_hidden_information(position, policy):
    base = position(_game(policy))
    want = decision(base)
    assert want in legal(base)
    for seed in range(3):
        g = position(_game(policy))
        hide_differently(g, seed)
        assert not np.array_equal(g.state, base.state)  # the hidden part did change
        assert decision(g) == want, (position.__name__, seed)


@pytest.mark.parametrize("position", POSITIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("policy", KINDS)
def test_asking_for_a_move_changes_nothing(position, policy):
    g = position(_game(policy))
    st, rng, mem = g.state.copy(), g._rng.copy(), g._memory.copy()
    first = decision(g)
    assert np.array_equal(g.state, st) and np.array_equal(g._rng, rng)
    assert np.array_equal(g._memory, mem)  # nor the policies' memory (their plan)
    assert decision(g) == first  # asked again: the same answer


def test_policies_pay_rerolls_with_card_tokens():
    """With no supply and one token on each of two Rainforest animals, greedy and exact buy
    the re-roll of a failed exploration, paying with both cards (Phase 3, Re-Rolls)."""
    for policy in ("greedy", "exact"):
        g = arrange(_game(policy), table=["poison dart frog", "jaguar"], tokens=[2, 0, 0, 0])
        frog, jag = cid(g, "poison dart frog"), cid(g, "jaguar")
        g._memory[P.M_CAP] = 3  # the exact policy's plan allows re-rolls
        play(g, STOP, die_hab(RAIN), die_on(frog), die_on(jag), die_on(jag), DICE_DONE,
             token_on(frog))
        with_rolls(g, lambda r: r[0] < 5, 1)
        play(g, token_on(jag))  # the last token: photography starts, the explore fails
        assert g.phase == "re-roll" and int(g.state[E.TOKENS]) == 0
        first = g.policy_action()
        assert first.code == reroll_from(min(frog, jag)), policy
        g.apply(first)  # the second token can only come from the other card
        assert int(g.state[E.ST_REROLLS]) == 1


def test_greedy_gives_up_when_nothing_is_at_stake():
    # a difficulty-10 animal on one die can never be photographed: no re-roll is worth it
    g = arrange(_game("greedy"), table=["harpy eagle", "pika"], tokens=[6, 0, 0, 0])
    eagle = cid(g, "harpy eagle")
    play(g, STOP, die_hab(RAIN), die_on(eagle), DICE_DONE)
    with_rolls(g, lambda r: r[0] < 5, 1)
    play(g, TOKENS_DONE)
    assert g.phase == "re-roll" and legal(g) == {code(E.A_REROLL, E.SUPPLY), GIVE_UP}
    assert g.policy_action().code == GIVE_UP


# ---------------------------------------------------------------- the preparation plan


def test_token_bundle_is_the_best_gain_per_token_within_the_tokens_left():
    """Two dice on a difficulty-10 animal worth 10, a token costing 0.1: P(photo) with k
    tokens is P(2d6 >= 10 - k) = 6, 10, 15, 21, 26 in 36. Per token, 3 tokens gain most
    (21/36 x 9.7 - 6/36 x 10 over 3) and are taken, before the 2 and 4 that gain less; with
    only 2 tokens left the best is 2. A worthless animal takes none."""
    ptab = photo_table()
    base = 6 / 36 * 10
    rate, k, gain = P.best_bundle(ptab, 1.0, 2, 0, 10, 10.0, 0.1, 8)
    assert k == 3 and gain == pytest.approx(21 / 36 * 9.7 - base)
    assert rate == pytest.approx(gain / 3)
    rate, k, gain = P.best_bundle(ptab, 1.0, 2, 0, 10, 10.0, 0.1, 2)
    assert k == 2 and gain == pytest.approx(15 / 36 * 9.8 - base)
    # a habitat explored half the time halves every gain: the same bundle
    assert P.best_bundle(ptab, 0.5, 2, 0, 10, 10.0, 0.1, 8)[1:] == (
        3, pytest.approx((21 / 36 * 9.7 - base) / 2))
    assert P.best_bundle(ptab, 1.0, 2, 0, 10, 0.0, 0.1, 8)[1] == 0


def test_reserved_step_places_what_the_turns_plan_gives_dice_and_keeps_that_plan():
    """Greedy plans its turn at the reserved-cards step: it places (`preparation.prepare`, in
    one go) the reserved cards the plan gives dice, and that plan is the one the dice step
    follows: as good as the best plan the dice step could make afresh for that table."""
    g = prep_reserved(_game("greedy"))
    st, rng = g.state.copy(), g._rng.copy()
    buf = np.empty(E.MAX_LEGAL, np.int64)
    mem = P.new_memory()
    reserved = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_RESERVE and
                st[E.OWNER + c] == 0]
    joint = P.plan(st, g._cfg, g._comp, g._ptab, g._params[0], P.new_memory(), True, False)
    P.prepare(st, g._cfg, g._comp, g._ptab, rng, g._params[0], buf, mem)
    assert st[E.PHASE] == E.PH_PREP_DICE and mem[P.M_TURN] == P.turns_played(st)
    placed = [c for c in reserved if st[E.LOC + c] == E.L_TABLE]
    assert placed and all(mem[P.M_DICE + c] > 0 for c in placed)
    assert all(mem[P.M_DICE + c] == 0 for c in reserved if c not in placed)
    assert mem[P.M_TABLE] == st[E.AT + E.L_TABLE]  # the table it was made for: kept
    kept = mem[P.M_HAB:P.M_TOK + E.N_CARDS].copy()
    P.make_plan(st, g._cfg, g._comp, g._ptab, g._params[0], None, mem)
    assert np.array_equal(mem[P.M_HAB:P.M_TOK + E.N_CARDS], kept)
    fresh = P.plan_value(st, g._cfg, g._comp, g._ptab, g._params[0], P.new_memory(), False)
    assert joint == pytest.approx(fresh, abs=1e-9)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_line_ups_without_the_exact_kind_leave_its_search_out_of_the_kernel():
    # numba drops the exact kind's branches when `exact` is None: a fresh interpreter's
    # greedy run compiles (or loads) the batch kernel for None only, a run seating exact
    # adds a bool
    assert flag_types("snapshot", 2, ["exact", "greedy"], -1) == [["none"], ["bool", "none"]]
    assert uses_exact(np.array([P.GREEDY, P.RANDOM])) is None
    assert uses_exact(np.array([P.GREEDY, P.EXACT])) is True


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_a_ladder_compiles_its_kernels_once_for_every_kind_of_its_field():
    # its tables seat exact and search apart and together: each would compile its own
    # kernel; within `seating` every table takes the kernel with both
    assert ladder_flag_types("snapshot", 2, ["exact", "search:rollouts=1:candidates=0",
                                             "greedy"], [-2, -1]) == [["bool"], ["bool"]]
    with seating([make_policy("exact")]):
        assert uses_exact(np.array([P.GREEDY])) is True
        assert uses_search(np.array([P.GREEDY])) is None
    assert uses_exact(np.array([P.GREEDY])) is None


def test_an_exact_seat_without_the_exact_flag_is_refused():
    g = SnapshotGame(SnapshotConfig(players=2), seed=1, policies=["exact", "greedy"])
    st, buf = g.state.copy(), np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(st, g._cfg, g._comp, buf)
    with pytest.raises(ValueError, match="exact=True"):
        P.policy_action(st, g._cfg, g._comp, g._ptab, g._rng.copy(), P.EXACT,
                        g._params[0], buf, n, P.new_memory(), None, None)


def naive_next_risk(g: SnapshotGame) -> float:
    """The research risk counted from the rulebook's words: of the unseen cards (the deck, or
    the discards once it is empty), the share that could go in no habitat, i.e. not above
    the animals already there (the raccoon: above them in some habitat)."""
    st, comp = g.state, g._comp
    on_table = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_TABLE]
    top = [max([int(E.card_difficulty(st, comp, c)) for c in on_table
                if st[E.ON_HAB + c] == h], default=0) for h in range(E.N_HAB)]
    where = E.L_DECK if st[E.N_DECK] > 0 else E.L_DISCARD
    unseen = [c for c in range(E.N_CARDS) if st[E.LOC + c] == where]
    racc = int(st[E.RACCOON_DIFF])
    bad = sum(all(t >= racc for t in top) if c == E.RACCOON
              else comp[E.K_DIFF + c] <= top[comp[E.K_HAB + c]] for c in unseen)
    return bad / len(unseen) if unseen else 1.0


@pytest.mark.kernel
def test_next_risk_counts_the_unseen_cards_that_would_spook():
    # every research decision of random 2- and 5-player games, an emptied deck among them
    rng = np.random.default_rng(5)
    seen = 0
    for players, game in ((2, 0), (5, 1), (3, 2)):
        g = SnapshotGame(SnapshotConfig(players=players), seed=11, game=game,
                         policies=["random"] * players)
        if game == 2:  # every unseen card in the discards: the deck is empty
            arrange(g, table=("Golden Pheasant",), rest="discard")
        while not g.is_over() and seen < 400:
            if g.state[E.PHASE] == E.PH_RESEARCH:
                assert P.next_risk(g.state, g._comp) == naive_next_risk(g)
                seen += 1
            ids = g.legal_action_ids()
            g.apply(int(ids[rng.integers(len(ids))]))
    assert seen >= 100


@pytest.mark.kernel
def test_next_risk_of_an_arranged_table_is_the_exact_fraction():
    # Mountain holds the golden pheasant (7): of the four unseen cards the two Mountain
    # animals below it would spook, the golden eagle (8) and the meerkat (Savannah) not
    g = new(SnapshotConfig(players=2, raccoon=False))
    cards = g.config.components.cards
    mountain_low = [a.name for a in cards if a.habitat == 2 and a.difficulty <= 6][:2]
    arrange(g, table=("Golden Pheasant",), deck=("Golden Eagle", "Meerkat", *mountain_low),
            rest="box")
    assert P.next_risk(g.state, g._comp) == pytest.approx(2 / 4, abs=0)


def item_worths(v, d, dice, tcap, lam):
    """`preparation.item_worths` of one item (value v, difficulty d): a = 0 .. dice - 1."""
    mem = P.new_memory()
    work = mem[P.W_FLOATS:].view(np.float64)
    mem[P.W_DIFF] = d
    work[P.F_VAL] = v
    item_worths_kernel(photo_table(), mem, work, np.int64(0), np.int64(dice), np.int64(tcap),
                       lam)
    return work[P.F_WORTH:P.F_WORTH + dice].copy()


@pytest.mark.kernel
@settings(max_examples=120, deadline=None)
@given(v=hs.sampled_from([0.0, 0.7, 3.0, 6.5, -1.0, 12.25]), d=hs.integers(1, 12),
       lam=hs.sampled_from([0.0, 0.4, 2.5, -0.3]), dice=hs.integers(1, 6),
       tcap=hs.integers(0, 20))
def test_an_items_worth_is_its_value_at_the_best_number_of_tokens(v, d, lam, dice, tcap):
    # a dice: the best over every token count up to the cap of P(photograph) x (value -
    # tokens x token_value), and nothing below 0 (no dice: 0); the search stops early, which
    # must never miss the best count
    got = item_worths(v, d, dice, tcap, lam)
    assert got[0] == 0.0
    for a in range(1, dice):
        want = max(0.0, *(photo_success(a, t, d) * (v - lam * t) for t in range(tcap + 1)))
        assert got[a] == pytest.approx(want, abs=1e-12), (a, got, want)
