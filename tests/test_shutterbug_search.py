"""The ShutterBug search policy: it samples only what its seat cannot see, starts from its base
policy's choice (the bundled tuned one for the player count, by default), leaves it only on a
clear lead, and where it does not leave it plays exactly the base's games."""

import os

import numpy as np
import pandas as pd
import pytest
from kernel_checks import allocations, flag_types
from shutterbug_helpers import check_invariants, move
from test_shutterbug_hidden import hide_differently, mid_game, move_start, twin

import snapsim
from snapsim.errors import InputError
from snapsim.games.shutterbug import ShutterbugConfig, ShutterbugGame, api, make_policy, run_games
from snapsim.games.shutterbug import engine as E
from snapsim.games.shutterbug import policies as P
from snapsim.sim.kernel import mix_seed, policy_arrays

TINY = "search:rollouts=2:candidates=3:depth=0:z=0"


def sampled(g, seed):
    """A copy of g's game with the hidden information redealt for the current seat."""
    h = twin(g)
    rng = np.array([seed, 0], np.uint64)
    _, js, _ = P.new_scratch(h._cfg, h._comp)
    P.determinize(h.state, h._cfg, h._comp, g.current_player, rng, js)
    return h


def test_determinize_redeals_hidden_information_and_keeps_what_the_seat_sees():
    g = mid_game("greedy")
    me = g.current_player
    others = [q for q in range(4) if q != me]
    worlds = [sampled(g, seed) for seed in range(5)]
    for h in worlds:
        check_invariants(h)  # every tip and tile still somewhere, once
        assert h.observation(me) == g.observation(me)
        assert (h.state[E.N_HAND:E.N_HAND + 4] == g.state[E.N_HAND:E.N_HAND + 4]).all()
        assert h.state[E.N_DECK] == g.state[E.N_DECK] and h.state[E.N_BAG] == g.state[E.N_BAG]
        mine = g.state[E.ASSIGN + me]
        theirs = [int(h.state[E.ASSIGN + q]) for q in others]
        assert mine not in theirs and len(set(theirs)) == 3  # dealt from the cards unseen
    # the other hands, their assignments and the deck order do change between samples
    hands = {tuple(h.state[E.HAND + others[0] * E.N_TYPES:E.HAND + (others[0] + 1) * E.N_TYPES])
             for h in worlds}
    assert len(hands) > 1
    assert len({int(h.state[E.ASSIGN + others[0]]) for h in worlds}) > 1


def test_determinize_depends_only_on_what_the_seat_sees():
    g = mid_game("greedy")
    for seed in range(3):
        h = twin(g)
        hide_differently(h, seed)
        assert h.state.tobytes() != g.state.tobytes()
        assert sampled(h, 7).state.tobytes() == sampled(g, 7).state.tobytes()


def test_candidates_start_with_the_greedy_choice_then_the_best_other_steps():
    g = move_start("greedy")
    st, cfg, comp = g.state.copy(), g._cfg, g._comp
    n = E.legal_actions(st, cfg, comp, g._buf)
    buf = g._buf[:n].copy()
    par = np.array(P.DEFAULT_PARAMS["search"])
    fs, js, _ = P.new_scratch(cfg, comp)
    greedy = P.heuristic_action(st, cfg, comp, par, buf, n, fs, js)
    assert greedy == move(g, "Mountain 2")  # the quality-3 tile next door
    m = P.search_candidates(st, cfg, comp, par, buf, n, greedy, fs, js)
    cands = js[P.I_CANDS:P.I_CANDS + m]
    assert cands.tolist()[0] == greedy and len(cands) == 3 and len(set(cands.tolist())) == 3
    assert set(cands.tolist()) <= set(buf.tolist())
    assert (st == g.state).all()


@pytest.mark.parametrize("search,base", [("search:candidates=1:base=0", "greedy"),
                                          ("search:candidates=1", "tuned-3p"),
                                          ("search:margin=100", "tuned-3p")])
def test_where_the_search_does_not_leave_its_base_it_plays_the_base_games(search, base):
    # base=1 (the default) plays on the bundled tuned weights for the player count, base=0 on
    # the weights given (greedy's); one candidate, or a lead no playout reaches, never leaves
    # the base's move: the games are the base policy's, in the batch and through the step API
    config = ShutterbugConfig(players=3)
    cols = ["score", "won", "photos", "tips_paid", "steps"]
    got = run_games(config, [search, "greedy", "greedy"], 0, 30, 3)
    want = run_games(config, [base, "greedy", "greedy"], 0, 30, 3)
    pd.testing.assert_frame_equal(got[cols], want[cols])
    g = ShutterbugGame(config, seed=3, game=1, policies=[search, "greedy", "greedy"])
    g.play()
    assert g.scores().score.tolist() == want[want.game == 1].score.tolist()


def test_a_playout_stream_is_seeded_as_the_shared_seed_mixer_seeds_it():
    rng = np.array([7, 9], np.uint64)
    for key, index in ((0, 0), (12345, 1), (2**64 - 1, 3 * 999 + 2)):
        P.seed_stream(rng, 1, np.uint64(key), index)
        assert rng[1] == mix_seed(np.uint64(key), index) and rng[0] == 7


def chosen(vals, margin, z):
    """The search's choice from playout values (rows, one per sample) of the candidates
    (columns; 0 the base's move), summed playout by playout as the search does."""
    lead, lead_sq = np.zeros(vals.shape[1]), np.zeros(vals.shape[1])
    for row in vals:
        P.add_leads(np.ascontiguousarray(row), lead, lead_sq, vals.shape[1])
    return P.chosen(lead, lead_sq, vals.shape[1], len(vals), margin, z)


def test_a_search_leaves_its_base_only_on_a_clear_lead():
    # playout values (rows) of the base's move (column 0) and two others, paired by sample
    vals = np.array([[0.0, 0.3, 0.9], [1.0, 1.3, 0.1], [0.5, 0.8, 1.4], [0.2, 0.5, 0.4]])
    # column 1 leads by 0.3 in every playout (no spread); column 2 by 0.05 on average
    assert chosen(vals, 0.0, 0.0) == 1
    assert chosen(vals, 0.0, 10.0) == 1  # an exact lead has no standard error
    assert chosen(vals, 0.25, 0.0) == 1 and chosen(vals, 0.35, 0.0) == 0  # over the margin
    noisy = vals[:, [0, 2]]  # leads 0.9, -0.9, 0.9, 0.2: mean 0.275, standard error 0.425
    assert chosen(noisy, 0.0, 0.0) == 1
    assert chosen(noisy, 0.0, 0.64) == 1 and chosen(noisy, 0.0, 0.65) == 0
    assert chosen(vals[:, [0]], 0.0, 0.0) == 0  # nothing to compare


def test_on_base_gives_the_search_the_tuned_weights_for_the_player_count():
    pols = [make_policy(s) for s in ("search", "search:base=0", "greedy")]
    kinds, params = policy_arrays(pols)
    P.on_base(kinds, params, 2)
    tuned = make_policy("tuned-2p").params
    assert params[0, :P.P_ROLLOUTS].tolist() == list(tuned[:P.P_ROLLOUTS])
    assert params[0, P.P_ROLLOUTS:].tolist() == list(pols[0].params[P.P_ROLLOUTS:])
    assert params[1].tolist() == list(pols[1].params)  # base=0: as given
    assert params[2].tolist() == list(pols[2].params)  # other kinds untouched
    kinds, params = policy_arrays(pols)
    P.on_base(kinds, params, 1)  # solo: no tuned policy bundled
    assert params[0].tolist() == list(pols[0].params)


def test_own_weights_on_the_tuned_base_are_refused_in_one_line():
    with pytest.raises(InputError, match="base=1 .* w_assign, look would be ignored; add "
                                         "base=0"):
        make_policy("search:w_assign=3:rollouts=4:look=1")
    assert make_policy("search:w_assign=3:base=0").params[P.P_W_ASSIGN] == 3
    assert make_policy("search:rollouts=4:z=1").params[P.P_BASE] == 1  # budget only: fine


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_a_searched_game_allocates_only_what_a_greedy_game_does():
    # the search's work space is laid out once with the policies' scratch, and the game in
    # the caller's state: a game of searching seats allocates what a greedy one does (only
    # what passing the call's arguments takes), not per decision or playout
    counts = allocations("shutterbug", 4, ["greedy", "search:rollouts=3:z=0"],
                         "api.play_game(st, work, fss, jss, rs, buf, cfg, comp, kinds, params, "
                         "rngs(g), np.arange(4), api.uses_search(kinds))",
                         per_policy="P.on_base(kinds, params, 4); "
                                    "st = np.empty(api.E.STATE_SIZE, np.int64); "
                                    "work = np.empty(api.E.work_size(comp), np.int64); "
                                    "fss, jss, rs = P.seat_scratches(cfg, comp, 4, True); "
                                    "buf = np.empty(api.E.MAX_LEGAL, np.int64)")
    assert counts["search:rollouts=3:z=0"] == counts["greedy"] < 20 * 3


def test_search_is_reproducible_across_threads_and_chunks():
    kw = dict(players=2, policies=[TINY, "greedy"], games=12, seed=5)
    a = snapsim.simulate("shutterbug", threads=1, chunk_size=5, **kw)
    b = snapsim.simulate("shutterbug", threads=2, chunk_size=12, **kw)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="counts compiled code")
def test_line_ups_without_a_search_policy_leave_the_search_out_of_the_kernel():
    # numba drops the search branch when `search` is None: a fresh interpreter's greedy run
    # compiles (or loads) the batch kernel for None only, a run seating search adds a bool
    assert flag_types("shutterbug", 2, ["search:rollouts=1", "greedy"], -1) == \
        [["none"], ["bool", "none"]]
    assert api.uses_search(np.array([P.GREEDY, P.LOOKAHEAD])) is None
    assert api.uses_search(np.array([P.GREEDY, P.SEARCH])) is True


def test_a_search_seat_without_the_search_flag_is_refused():
    g = ShutterbugGame(ShutterbugConfig(players=2), seed=1, policies=["search", "greedy"])
    st, buf = g.state.copy(), np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(st, g._cfg, g._comp, buf)
    with pytest.raises(ValueError, match="search=True"):
        P.policy_action(st, g._cfg, g._comp, g._rng.copy(), P.SEARCH, g._params[0], buf, n,
                        None)
