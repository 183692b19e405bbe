"""Snapshot's `search` policy kind: legal, deterministic, blind to hidden information, side
effect free, and its base heuristic wherever it does not search."""

import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from kernel_checks import flag_types
from snapshot_helpers import legal
from test_snapshot_policies import (
    _game,
    decide,
    hide_differently,
    offer,
    prep_dice,
    prep_reserved,
    reroll,
    research,
)

import snapsim
from snapsim.errors import InputError
from snapsim.games.snapshot import SnapshotConfig, SnapshotGame, make_policy
from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot import policies as P
from snapsim.games.snapshot.api import uses_search
from snapsim.games.snapshot.search import (
    candidate_plans,
    decision_key,
    determinize,
    pick,
    rollout,
    sample,
    totals_of,
)

TINY = "search:rollouts=3:candidates=2:margin=0:lead=0"  # a rollout's value: its win share


def _par(spec):
    return np.array(make_policy(spec).params, np.float64)


def plan_row(mem, i):
    """Candidate plan i of the work space (search.plan_row): habitat dice, card dice, card
    tokens."""
    at = P.S_PLANS + i * P.PLAN_ROW
    return (mem[at:at + E.N_HAB], mem[at + E.N_HAB:at + E.N_HAB + E.N_CARDS],
            mem[at + E.N_HAB + E.N_CARDS:at + P.PLAN_ROW])


def plans_of(g, par, top, mem):
    """The candidate plans at g's position, as (habitat dice, card dice, card tokens) lists."""
    m = candidate_plans(g.state, g._cfg, g._comp, g._ptab, par, top, mem)
    return [tuple(r.copy() for r in plan_row(mem, i)) for i in range(m)]


def totals(mem, count):
    """The search's totals in its work space (floats)."""
    return mem[P.S_TOTALS:P.S_TOTALS + count].view(np.float64).copy()


def plan_totals(g, par, mem, count):
    totals_of(g.state, g._cfg, g._comp, g._ptab, par, mem, count, True)
    return totals(mem, count)


def move_totals(g, par, moves):
    """Rollout totals of `moves` at g's position, laid out in a fresh work space."""
    mem = P.new_memory()
    mem[P.S_MOVES:P.S_MOVES + len(moves)] = moves
    totals_of(g.state, g._cfg, g._comp, g._ptab, par, mem, len(moves), False)
    return totals(mem, len(moves))


def test_search_is_a_policy_kind_with_its_budget_as_parameters():
    pol = make_policy("search:rollouts=5:candidates=0:margin=0.25:lead=0.1")
    assert P.KIND_NAMES[pol.kind] == "search" and P.KIND_NAMES.index("exact") == 5
    assert pol.params[P.P_ROLLOUTS] == 5 and pol.params[P.P_CANDIDATES] == 0
    assert pol.params[P.P_MARGIN] == 0.25 and pol.params[P.P_LEAD] == 0.1
    # its base weights: the bundled tuned-2p policy's unless given
    assert pol.params[:P.N_PARAMS] == make_policy("tuned-2p").params[:P.N_PARAMS]
    assert make_policy("search:max_risk=0.3").params[P.P_MAX_RISK] == 0.3
    for bad in ("search:rollouts=0", "search:candidates=17", "search:margin=2",
                "search:rollouts=2.5", "search:lead=0.6"):
        with pytest.raises(InputError, match="search"):
            make_policy(bad)


@pytest.mark.kernel
def test_pick_needs_the_margin_to_leave_the_base_move():
    """Totals over 4 rollouts, margin 0.25 a rollout: a move must beat the base by 1.0."""
    assert pick(np.array([2.0, 2.5, 2.9]), 3, 1.0) == 0
    assert pick(np.array([2.0, 2.5, 3.0]), 3, 1.0) == 2
    assert pick(np.array([2.0, 3.5, 3.5]), 3, 1.0) == 1  # ties go to the earlier move
    assert pick(np.array([2.0]), 1, 0.0) == 0
    assert pick(np.array([2.0, -np.inf, 3.0]), 3, 1.0) == 2  # -inf: dropped


def _weights(policy):
    """A search spec part setting the heuristic weights of `policy`."""
    par = make_policy(policy).params[:P.N_PARAMS]
    return ":".join(f"{k}={v!r}" for k, v in zip(P.PARAM_NAMES, par, strict=False))


@pytest.mark.parametrize("position", [research, offer, decide])
def test_search_plays_its_base_where_it_does_not_search(position):
    """Drawing, offers and the decide step are its base's: the tuned-2p policy's move by
    default, greedy's with greedy's weights."""
    for spec, base in ((TINY, "tuned-2p"), (f"{TINY}:{_weights('greedy')}", "greedy")):
        g = position(_game(spec))
        want = position(_game(base)).policy_action().code
        assert g.policy_action().code == want


@pytest.mark.kernel
def test_base_plan_comes_first_and_every_candidate_is_new():
    g = prep_dice(_game("greedy"))
    st, cfg, comp, ptab = g.state, g._cfg, g._comp, g._ptab
    par = _par("search:candidates=4")
    plans = plans_of(g, par, 4, P.new_memory())
    mem = P.new_memory()
    P.plan_value(st, cfg, comp, ptab, par, mem, True)
    assert np.array_equal(plans[0][0], mem[P.M_HAB:P.M_HAB + E.N_HAB])
    assert np.array_equal(plans[0][1], mem[P.M_DICE:P.M_DICE + E.N_CARDS])
    assert np.array_equal(plans[0][2], mem[P.M_TOK:P.M_TOK + E.N_CARDS])
    assert 2 <= len(plans) <= 5
    assert len({tuple(map(tuple, plan)) for plan in plans}) == len(plans)
    for h, d, _ in plans:  # within the dice
        assert h.sum() + d.sum() <= cfg[E.C_DICE]
    assert candidate_plans(st, cfg, comp, ptab, par, 0, P.new_memory()) == 1
    # the largest budget fits the work space: rows of every candidate the advisor keeps
    most = plans_of(g, _par("search:candidates=16"), 16, P.new_memory())
    assert len(plans) < len(most) <= 17
    assert all(np.array_equal(a, b) for a, b in zip(plans[0], most[0], strict=True))


def test_the_searched_preparation_is_played_as_planned():
    """Asked before its first die, the search picks the plan with the best rollout total
    (margin 0) and then plays that whole plan, die by die and token by token."""
    g = prep_dice(_game(TINY))
    par = _par(TINY)
    mem = P.new_memory()
    plans = plans_of(g, par, 2, mem)
    assert len(plans) > 1
    j = pick(plan_totals(g, par, mem, len(plans)), len(plans), 0.0)
    hab, dice, tok = np.zeros(E.N_HAB, int), np.zeros(E.N_CARDS, int), np.zeros(E.N_CARDS, int)
    me = g.current_player
    while g.phase in ("prepare: dice", "prepare: tokens") and g.current_player == me:
        a = g.policy_action().code
        kind, arg = int(E.act_kind(a)), int(E.act_arg(a))
        for k, where in ((E.A_DIE_HABITAT, hab), (E.A_DIE_ANIMAL, dice), (E.A_TOKEN, tok)):
            if kind == k:
                where[arg] += 1
        g.apply(a)
    assert (hab.tolist(), dice.tolist(), tok.tolist()) == tuple(r.tolist() for r in plans[j])


@pytest.mark.parametrize("position", [prep_reserved, reroll])
def test_searched_moves_are_compared_on_rollouts(position):
    """At a reserved card's placement and a re-roll the search plays the legal move with
    the best rollout total (margin 0), the base's move on a tie."""
    g = position(_game(TINY))
    buf = np.array(sorted(legal(g)), np.int64)
    totals = move_totals(g, _par(TINY), buf)
    # -1: dropped once it could no longer be picked
    assert totals.shape == (len(buf),) and \
        ((totals == -np.inf) | (totals >= 0) & (totals <= 3)).all()
    best = set(buf[np.isclose(totals, totals.max())].tolist())
    assert g.policy_action().code in best


@pytest.mark.parametrize("position", [prep_reserved, reroll])
def test_choices_that_can_no_longer_be_picked_are_dropped_and_the_pick_is_kept(position):
    """Every rollout of every move played to the end, the totals pick the same move as the
    search's, which drops a move once the rollouts left cannot make it the pick (-inf) and
    stops once the pick is certain; and it does drop some."""
    g = position(_game(TINY))
    st, cfg, comp, ptab = g.state, g._cfg, g._comp, g._ptab
    moves = np.array(sorted(legal(g)), np.int64)
    dropped = 0
    for rollouts, margin, lead in itertools.product((3, 8), (0.0, 0.1, 0.5), (0.0, 0.3)):
        par = _par(f"search:rollouts={rollouts}:margin={margin}:lead={lead}")
        got = move_totals(g, par, moves)
        mem = P.new_memory()
        key = np.uint64(decision_key(st, cfg, mem))  # a digest: 64 bits, unsigned
        full = np.zeros(len(moves))
        for r in range(rollouts):
            sample(st, cfg, comp, g.current_player, key, r, mem)
            for i, a in enumerate(moves):
                full[i] += rollout(cfg, comp, ptab, par, g.current_player, mem, a, -1)
        margin_total = margin * rollouts
        assert pick(got, len(moves), margin_total) == pick(full, len(moves), margin_total)
        kept = got > -np.inf
        assert kept[0]
        if lead == 0:  # values of 0-1: a total cut short is at most the full one
            assert np.array_equal(got[kept] <= full[kept], np.ones(kept.sum(), bool))
        dropped += (~kept).sum()
    assert dropped > 0


@pytest.mark.parametrize("position", [prep_reserved, reroll])
def test_move_totals_ignore_hidden_information(position):
    base = position(_game(TINY))
    buf = np.array(sorted(legal(base)), np.int64)
    want = move_totals(base, _par(TINY), buf)
    for seed in range(2):
        g = position(_game(TINY))
        hide_differently(g, seed)
        assert not np.array_equal(g.state, base.state)
        got = move_totals(g, _par(TINY), buf)
        assert np.array_equal(got, want)


def test_plan_totals_ignore_hidden_information():
    base = prep_dice(_game(TINY))
    par = _par(TINY)
    mem = P.new_memory()
    count = candidate_plans(base.state, base._cfg, base._comp, base._ptab, par, 2, mem)
    want = plan_totals(base, par, mem, count)
    for seed in range(2):
        g = prep_dice(_game(TINY))
        hide_differently(g, seed)
        assert np.array_equal(plan_totals(g, par, mem, count), want)


def test_search_games_are_legal_and_asking_changes_nothing():
    """Whole games through the step API: every move asked of the search is legal, and asking
    leaves the state, the random streams and the policies' memory as they were."""
    config = SnapshotConfig(players=3)
    asked = 0
    for i in range(3):
        g = SnapshotGame(config, seed=5, game=i, policies=[TINY, "greedy", "tuned-3p"])
        while not g.is_over():
            st, rng, mem = g.state.copy(), g._rng.copy(), g._memory.copy()
            a = g.policy_action()
            assert a.code in legal(g)
            assert np.array_equal(g.state, st) and np.array_equal(g._rng, rng)
            assert np.array_equal(g._memory, mem)
            asked += 1
            g.apply(a)
    assert asked > 100


@pytest.mark.parametrize("players", [2, 4])
def test_same_seed_same_table_regardless_of_threads_and_chunks(players):
    kw = dict(players=players, policies=[TINY] + ["greedy"] * (players - 1), games=24, seed=9)
    a = snapsim.simulate("snapshot", threads=1, chunk_size=5, **kw)
    b = snapsim.simulate("snapshot", threads=2, chunk_size=24, **kw)
    assert a.equals(b)
    assert a.truncated.sum() == 0 and a.groupby("game").won.sum().round(9).eq(1).all()


def test_rollout_plays_a_copy_of_the_sampled_world_to_the_end():
    """A rollout leaves the game, the sampled world and its streams as they were, so every
    move of a rollout starts from the same world; its playout reached the end."""
    g = prep_reserved(_game(TINY))
    st, mem = g.state.copy(), P.new_memory()
    sample(st, g._cfg, g._comp, 0, np.uint64(11), 0, mem)
    world = mem[P.S_DET:P.S_PLAY].copy()
    streams = mem[P.S_RNG:P.S_RNG + 3].copy()
    moves = sorted(legal(g))
    shares = [rollout(g._cfg, g._comp, g._ptab, _par(TINY), 0, mem, a, -1) for a in moves]
    assert all(0.0 <= s <= 1.0 for s in shares)
    assert mem[P.S_PLAY + E.PHASE] == E.PH_OVER
    assert np.array_equal(st, g.state)
    assert np.array_equal(mem[P.S_DET:P.S_PLAY], world)
    assert np.array_equal(mem[P.S_RNG:P.S_RNG + 3], streams)
    assert rollout(g._cfg, g._comp, g._ptab, _par(TINY), 0, mem, moves[0], -1) == shares[0]


@pytest.mark.kernel
def test_determinize_keeps_public_information():
    game = SnapshotGame(SnapshotConfig(players=2), seed=4)
    st = game.state.copy()
    det = st.copy()
    determinize(det, game._cfg, game._comp, 0, np.array([9], np.uint64), np.empty(16, np.int64))
    n = st[E.N_DECK]
    assert det[E.N_DECK] == n
    assert sorted(det[E.DECK:E.DECK + n]) == sorted(st[E.DECK:E.DECK + n])
    assert det[E.ASSIGN] == st[E.ASSIGN]
    assert det[E.ASSIGN + 1] != det[E.ASSIGN]
    assert np.array_equal(det[E.LOC:E.LOC + E.N_CARDS], st[E.LOC:E.LOC + E.N_CARDS])


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_line_ups_without_a_search_policy_leave_the_search_out_of_the_kernel():
    # numba drops the search branch when `search` is None: a fresh interpreter's greedy run
    # compiles (or loads) the batch kernel for None only, a run seating search adds a bool
    assert flag_types("snapshot", 2, ["search:rollouts=1", "greedy"], -2) == \
        [["none"], ["bool", "none"]]
    assert uses_search(np.array([P.GREEDY, P.RANDOM])) is None
    assert uses_search(np.array([P.GREEDY, P.SEARCH])) is True


def test_a_search_seat_without_the_search_flag_is_refused():
    g = SnapshotGame(SnapshotConfig(players=2), seed=1, policies=["search", "greedy"])
    st, buf = g.state.copy(), np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(st, g._cfg, g._comp, buf)
    with pytest.raises(ValueError, match="search=True"):
        P.policy_action(st, g._cfg, g._comp, g._ptab, g._rng.copy(), P.SEARCH,
                        g._params[0], buf, n, P.new_memory(), None, None)


ALLOCATIONS = """
import json, numpy as np
from numba.core.runtime import rtsys
from snapsim.games.snapshot import SnapshotConfig, SnapshotGame, engine as E, policies as P
from snapsim.games.snapshot.search import dice_placed
g = SnapshotGame(SnapshotConfig(players=2), seed=3, policies=[{spec!r}, "greedy"],
                 rotate_seats=False)
out = {{"plan": [], "base": []}}
while not g.is_over():
    st, buf = g.state, np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(st, g._cfg, g._comp, buf)
    what = "plan" if st[E.PHASE] == E.PH_PREP_DICE and dice_placed(st) == 0 else "base"
    if g.current_player == 0 and (what == "plan" or st[E.PHASE] == E.PH_PREP_DICE):
        args = (st.copy(), g._cfg, g._comp, g._ptab, g._rng.copy(), P.SEARCH, g._params[0],
                buf, n, g._memory.copy(), True, None)
        before = rtsys.get_allocation_stats().alloc
        P.policy_action(*args)
        out[what].append(rtsys.get_allocation_stats().alloc - before)
    g.apply(g.policy_action())
print(json.dumps(out))
"""


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_a_searched_plan_allocates_only_what_a_base_decision_does():
    """The search's set-up (the public view and its digest, the base's plan as the first
    candidate, the plan written) works in the policies' memory: asked for the Preparation
    plan it allocates what a base decision in Preparation does (the call's arguments)."""
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c",
         ALLOCATIONS.format(spec="search:rollouts=3:candidates=0")],
        env=dict(os.environ, NUMBA_NRT_STATS="1"), capture_output=True, text=True, check=True)
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(counts["plan"]) > 3 and len(counts["base"]) > 3
    assert set(counts["plan"]) == set(counts["base"]) == {8}
