"""The determinized Monte Carlo agent: legal, deterministic, side-effect free."""

import numpy as np
import pytest

from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot.api import SnapshotGame
from snapsim.games.snapshot.config import SnapshotConfig
from snapsim.games.snapshot.search import SearchAgent, determinize, play_match, rollout


@pytest.fixture(scope="module")
def config():
    return SnapshotConfig(players=2)


def _play(agent, config, seed, game_index, seat):
    game = SnapshotGame(config, seed=seed, game=game_index, rotate_seats=False)
    actions = []
    while not game.is_over():
        if game.current_player == seat:
            legal = {a.code for a in game.legal_actions()}
            st, rng = game.state.copy(), game._rng.copy()
            code = agent.choose(game)
            assert code in legal
            # the agent neither touches the real state nor the real random streams
            assert np.array_equal(st, game.state)
            assert np.array_equal(rng, game._rng)
            actions.append(code)
            game.apply(code)
        else:
            game.apply(game.policy_action())
    return actions, game.scores()


def test_agent_legal_and_side_effect_free(config):
    agent = SearchAgent(candidates=2, rollouts=4, seed=0)
    for g in range(3):
        actions, _ = _play(agent, config, seed=11, game_index=g, seat=g % 2)
        assert actions
    assert agent.searches > 0


def test_agent_deterministic(config):
    a1, s1 = _play(SearchAgent(candidates=2, rollouts=4, seed=5), config, 7, 0, 0)
    a2, s2 = _play(SearchAgent(candidates=2, rollouts=4, seed=5), config, 7, 0, 0)
    assert a1 == a2
    assert s1.equals(s2)


def test_agent_on_a_tuned_base_plays_it_where_it_does_not_search(config):
    """Off its searched preparations the agent plays its base policy's move: with zero
    candidates (only the base's own plan is ever played) it makes the base policy's game."""
    base = "tuned-2p"
    agent = SearchAgent(candidates=0, rollouts=2, seed=3, base=base)
    actions, scores = _play(agent, config, 9, 0, 0)
    game = SnapshotGame(config, seed=9, game=0, policies=[base, "greedy"], rotate_seats=False)
    game.play()
    assert scores.equals(game.scores())
    a1, _ = _play(SearchAgent(candidates=2, rollouts=3, seed=4, base=base), config, 9, 1, 1)
    a2, _ = _play(SearchAgent(candidates=2, rollouts=3, seed=4, base=base), config, 9, 1, 1)
    assert a1 == a2
    with pytest.raises(ValueError, match="base must be a heuristic policy"):
        SearchAgent(base="random")


def test_play_match_rows(config):
    df = play_match(SearchAgent(candidates=2, rollouts=4, seed=1), config, "greedy", 2, 3)
    assert list(df.seat) == [0, 1]
    assert df.won.between(0, 1).all()
    assert (df.decisions > 0).all()


def test_rollout_shares_sum_to_one(config):
    game = SnapshotGame(config, seed=2)
    for r in range(5):
        rng = np.array([r + 1, r + 100], np.uint64)
        st = game.state.copy()
        shares = rollout(st, game._cfg, game._comp, game._ptab, game._kinds, game._params,
                         game._seats, rng, game._memory)
        assert shares.shape == (2,)
        assert shares.sum() == pytest.approx(1.0)
        assert np.array_equal(st, game.state)  # rollout plays a copy


def test_determinize_keeps_public_information(config):
    game = SnapshotGame(config, seed=4)
    st = game.state.copy()
    det = st.copy()
    determinize(det, game._cfg, game._comp, 0, np.array([9], np.uint64))
    n = st[E.N_DECK]
    assert det[E.N_DECK] == n
    assert sorted(det[E.DECK:E.DECK + n]) == sorted(st[E.DECK:E.DECK + n])
    assert det[E.ASSIGN] == st[E.ASSIGN]
    assert det[E.ASSIGN + 1] != det[E.ASSIGN]
    assert np.array_equal(det[E.LOC:E.LOC + E.N_CARDS], st[E.LOC:E.LOC + E.N_CARDS])
