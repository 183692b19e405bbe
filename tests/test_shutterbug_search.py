"""The ShutterBug search policy: it samples only what its seat cannot see, starts from the
greedy interpreter's choice, and with nothing to compare plays exactly the greedy games."""

import numpy as np
import pandas as pd
from shutterbug_helpers import check_invariants, move
from test_shutterbug_hidden import hide_differently, mid_game, move_start, twin

import snapsim
from snapsim.games.shutterbug import ShutterbugConfig, run_games
from snapsim.games.shutterbug import engine as E
from snapsim.games.shutterbug import policies as P

TINY = "search:rollouts=2:candidates=3:depth=0"


def sampled(g, seed):
    """A copy of g's game with the hidden information redealt for the current seat."""
    h = twin(g)
    rng = np.array([seed, 0], np.uint64)
    P.determinize(h.state, h._cfg, h._comp, g.current_player, rng)
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
    fs, js = P.new_scratch(cfg, comp)
    greedy = P.heuristic_action(st, cfg, comp, par, buf, n, fs, js)
    assert greedy == move(g, "Mountain 2")  # the quality-3 tile next door
    cands = P.search_candidates(st, cfg, comp, par, buf, n, greedy, fs, js)
    assert cands.tolist()[0] == greedy and len(cands) == 3 and len(set(cands.tolist())) == 3
    assert set(cands.tolist()) <= set(buf.tolist())
    assert (st == g.state).all()


def test_a_search_with_one_candidate_plays_the_greedy_games():
    config = ShutterbugConfig(players=3)
    search = run_games(config, ["search:candidates=1", "greedy", "greedy"], 0, 30, 3)
    greedy = run_games(config, ["greedy"] * 3, 0, 30, 3)
    cols = ["score", "won", "photos", "tips_paid", "steps"]
    pd.testing.assert_frame_equal(search[cols], greedy[cols])


def test_search_is_reproducible_across_threads_and_chunks():
    kw = dict(players=2, policies=[TINY, "greedy"], games=12, seed=5)
    a = snapsim.simulate("shutterbug", threads=1, chunk_size=5, **kw)
    b = snapsim.simulate("shutterbug", threads=2, chunk_size=12, **kw)
    pd.testing.assert_frame_equal(a, b)

