"""Yosemite search player: the base's ranked plans are its candidates, one candidate is the
base itself, and it leaves the base's move only for a lead over the margin."""

import os

import numpy as np
import pytest
from kernel_checks import allocations, flag_types
from test_yosemite_hidden import decide, positions

from snapsim.games.yosemite import YosemiteConfig, YosemiteGame, make_policy, run_games
from snapsim.games.yosemite import engine as E
from snapsim.games.yosemite import policies as P
from snapsim.games.yosemite.api import uses_search

COLUMNS = ["game", "seat", "score", "photo_points", "camping", "judges", "landmarks", "turns",
           "won"]


def test_search_defaults_to_the_bundled_tuned_weights():
    tuned, search = make_policy("tuned-2p"), make_policy("search")
    assert search.params[:P.P_ROLLOUTS] == tuned.params[:P.P_ROLLOUTS]
    assert search.params[P.P_ROLLOUTS:] == (4.0, 2.0, 0.15)


def test_one_candidate_plays_the_games_of_its_base():
    """With nothing to compare the search is its base: the tuned policy's games, row for row."""
    a = run_games(YosemiteConfig(), ["search:candidates=1", "greedy"], 0, 40, 3)
    b = run_games(YosemiteConfig(), ["tuned-2p", "greedy"], 0, 40, 3)
    assert a[COLUMNS].equals(b[COLUMNS])


def test_plans_are_ranked_with_the_greedy_plan_first():
    par = np.array(make_policy("greedy").params)
    seen = 0
    for g, st in positions(4, keep=lambda s: s[E.PHASE] in (E.PH_FISH, E.PH_EXPLORE)):
        buf = E.action_buffer()
        n = E.legal_actions(st, g._cfg, g._comp, buf)
        fish = st[E.FISH + st[E.CUR]] if st[E.PHASE] == E.PH_FISH else 0
        best = P.plan(st, g._cfg, g._comp, par, fish, buf)
        out = np.zeros(4 * 4, np.int64)  # rows of 4: squares, explore choices, keys, values
        k = P.plans(st, g._cfg, g._comp, par, fish, buf, out, 0, 4, 4)
        tq, ta, tkey, tval = out[:4], out[4:8], out[8:12], out[12:].view(np.float64)
        assert 1 <= k <= 4 and (tq[0], ta[0]) == best
        assert all(tval[i] > tval[i + 1] or (tval[i] == tval[i + 1] and tkey[i] < tkey[i + 1])
                   for i in range(k - 1))
        if st[E.PHASE] == E.PH_EXPLORE:  # one square: every plan is a legal explore choice
            assert set(tq[:k]) == {st[E.POS + st[E.CUR]]}
            assert set(ta[:k]) <= set(buf[:n])
        seen += k > 1
    assert seen > 20


def test_search_leaves_the_base_move_only_by_more_than_the_margin():
    """Where a candidate's playouts beat the base's at margin 0, the search plays it; at
    margin 100 (more than any playout can add) the base's move stands."""
    base, bold, careful = ("search:rollouts=3:candidates=3:margin=" + m for m in
                           ("0:candidates=1", "0", "100"))
    left = 0
    for i, (g, st) in enumerate(positions(6, limit=40)):
        rng = np.array([5, 7 + i], np.uint64)
        kept = decide(g, base, st, rng)
        moved = decide(g, bold, st, rng)
        buf = E.action_buffer()
        assert moved in buf[:E.legal_actions(st, g._cfg, g._comp, buf)].tolist()
        if moved != kept:
            left += 1
            assert decide(g, careful, st, rng) == kept
    assert left > 0


def test_search_games_are_legal_and_the_same_for_a_seed():
    for seed in (1, 2):
        g = YosemiteGame(seed=seed, policies=["search:rollouts=1:margin=0", "greedy"])
        while not g.is_over():
            act = g.policy_action()
            assert act.code in {a.code for a in g.legal_actions()}
            g.apply(act)
        again = YosemiteGame(seed=seed, policies=["search:rollouts=1:margin=0", "greedy"])
        again.play()
        assert again.scores().equals(g.scores())


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_a_searched_game_allocates_only_what_a_greedy_game_does():
    # the search's and the rollout player's work space is laid out once with the policies'
    # memory, and the game in the caller's state: a game of searching seats allocates what a
    # greedy one does (only what passing the call's arguments takes), not per decision or
    # playout
    counts = allocations("yosemite", 2, ["greedy", "search:rollouts=2", "rollout:rollouts=1"],
                         "api.play_game(st, order, buf, mem, cfg, comp, kinds, params, "
                         "rngs(g), np.arange(2), api.uses_search(kinds))",
                         per_policy="st = np.empty(api.E.STATE_SIZE, np.int64); "
                                    "order = np.empty(api.E.N_TILES, np.int64); "
                                    "buf = api.E.action_buffer(); mem = P.new_memory()")
    assert counts["search:rollouts=2"] == counts["rollout:rollouts=1"] == counts["greedy"] \
        < 20 * 3


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_line_ups_without_a_searching_policy_leave_the_searches_out_of_the_kernel():
    # numba drops the rollout and search branches when `search` is None: a fresh
    # interpreter's greedy run compiles (or loads) the batch kernel for None only, a run
    # seating either kind adds a bool
    assert flag_types("yosemite", 2, ["rollout:rollouts=1", "greedy"], -1) == \
        [["none"], ["bool", "none"]]
    assert uses_search(np.array([P.GREEDY, P.RANDOM])) is None
    assert uses_search(np.array([P.GREEDY, P.ROLLOUT])) is True
    assert uses_search(np.array([P.SEARCH, P.GREEDY])) is True


def test_a_searching_seat_without_the_search_flag_is_refused():
    g = YosemiteGame(YosemiteConfig(), seed=1, policies=["search", "greedy"])
    st, buf = g.state.copy(), E.action_buffer()
    n = E.legal_actions(st, g._cfg, g._comp, buf)
    with pytest.raises(ValueError, match="search=True"):
        P.policy_action(st, g._cfg, g._comp, g._rng.copy(), P.SEARCH, g._params[0], buf, n,
                        P.new_memory(), None)


def test_a_greedy_seat_asked_where_play_plays_greedy_itself_is_refused():
    # the batch's play() plays greedy seats by greedy_play and passes greedy=None, so the
    # kernel leaves greedy_action out; asking policy_action so for a greedy seat is an error
    g = YosemiteGame(YosemiteConfig(), seed=1, policies=["greedy", "greedy"])
    st, buf = g.state.copy(), E.action_buffer()
    n = E.legal_actions(st, g._cfg, g._comp, buf)
    mem = P.new_memory()
    with pytest.raises(ValueError, match="greedy_play"):
        P.policy_action(st, g._cfg, g._comp, g._rng.copy(), P.GREEDY, g._params[0], buf, n,
                        mem, None, None)
    action = P.policy_action(st, g._cfg, g._comp, g._rng.copy(), P.GREEDY, g._params[0], buf,
                             n, mem, None)
    assert action in buf[:n].tolist()
