"""The PettingZoo, Gymnasium and OpenSpiel adapters, judged by those libraries' own checkers,
and the examples that use them."""

import importlib.util
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

GAMES = ("snapshot", "yosemite", "shutterbug")
GYM_IDS = {"snapshot": "snapsim/Snapshot-v0", "yosemite": "snapsim/Yosemite-v0",
           "shutterbug": "snapsim/ShutterBug-v0"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def needs(module: str, extra: str):
    return pytest.mark.skipif(importlib.util.find_spec(module) is None,
                              reason=f"{module} is not installed (pip install 'snapsim[{extra}]')")


rl = needs("pettingzoo", "rl")
gym = needs("gymnasium", "rl")
openspiel = needs("pyspiel", "openspiel")


def run_example(name: str, *args):
    """Run examples/<name>.py's main(*args) as a script would; its return value."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        return runpy.run_path(str(EXAMPLES / f"{name}.py"))["main"](*args)
    finally:
        sys.path.remove(str(EXAMPLES))


@rl
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(game):
    from pettingzoo.test import api_test, seed_test

    from snapsim.env import pettingzoo_env

    api_test(pettingzoo_env(game, players=2), num_cycles=30)
    seed_test(lambda: pettingzoo_env(game, players=2), num_cycles=30)


@gym
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes(game):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import snapsim.env  # noqa: F401

    env = gymnasium.make(GYM_IDS[game], players=2)
    check_env(env.unwrapped, skip_render_check=True)


@openspiel  # Snapshot's run in the slow set (10-15 s): the other games' run by default
@pytest.mark.parametrize("game", [pytest.param(GAMES[0], marks=pytest.mark.slow), *GAMES[1:]])
def test_openspiel_random_sim_test_passes(game):
    import pyspiel

    import snapsim.env.openspiel  # noqa: F401

    pyspiel.random_sim_test(pyspiel.load_game(f"python_snapsim_{game}", {"players": 2}),
                            num_sims=2, serialize=False, verbose=False)


@gym
def test_gym_episode_ends_with_the_seats_win_share_and_masks_legal_actions():
    import gymnasium

    import snapsim.env  # noqa: F401

    env = gymnasium.make("snapsim/Yosemite-v0", seat=1, opponents="greedy").unwrapped
    obs, info = env.reset(seed=3)
    assert env.state.current_player == 1
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert np.array_equal(legal, np.flatnonzero(env.action_masks()))
        assert sorted(env.state.legal_action_ids()) == list(legal)
        obs, reward, done, _, info = env.step(int(legal[0]))
        total += reward
    assert total == env.state.returns()[1]
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, illegal)


@gym
def test_gym_refuses_a_bad_seat_or_lineup_in_one_line():
    from snapsim.env import gym_env
    from snapsim.errors import InputError

    with pytest.raises(InputError, match="seat must be 0-1"):
        gym_env("yosemite", seat=2)
    with pytest.raises(InputError, match="one policy or 3"):
        gym_env("shutterbug", opponents=["greedy"] * 2, players=3)


@openspiel
def test_openspiel_mcts_bot_plays_a_full_game():
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import snapsim.env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_snapsim_shutterbug", {"players": 2})
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sum(state.returns()) > 0 and state.returns() == list(state.game_state.returns())


@rl
def test_pettingzoo_example_runs():
    totals = run_example("pettingzoo_random")
    assert sum(totals.values()) == pytest.approx(1.0)


@gym
def test_gym_example_runs():
    assert len(run_example("gym_loop", 2)) == 2


@openspiel
def test_openspiel_example_runs():
    assert 0.0 <= run_example("openspiel_mcts", 2, 2) <= 1.0
