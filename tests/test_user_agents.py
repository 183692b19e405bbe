"""Python agents in a line-up: seeded like the built-in policies (same seed, same table, for
any chunk size), an agent that plays the built-in greedy's moves gives the batch path's
table, and a failing or unknown agent is one line that keeps the finished games."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import cli, one_error_line

import snapsim
from snapsim.sim import agents
from snapsim.sim.agents import AgentError

ROOT = Path(__file__).resolve().parent.parent
EQ = dict(check_dtype=False, check_categorical=False, check_exact=True)
GAMES = ("yosemite", "shutterbug", "snapshot")


class RandomAgent:
    """A random legal move from the runner's generator; counts the games it was reset for."""

    name = "rand"

    def __init__(self):
        self.games = 0

    def reset(self):
        self.games += 1

    def act(self, observation, legal_actions):
        return legal_actions[self.rng.integers(len(legal_actions))]


class BadAfter(RandomAgent):
    """Plays randomly for `good` games, then answers `answer` (or raises it)."""

    name = "bad"

    def __init__(self, good, answer):
        super().__init__()
        self.good, self.answer = good, answer

    def act(self, observation, legal_actions):
        if self.games <= self.good:
            return super().act(observation, legal_actions)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def lineup(agent, game):
    return [agent, "greedy"] if game != "snapshot" else [agent, "greedy", "cautious"]


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_table_for_any_chunk_size_another_seed_another(game):
    players = 3 if game == "snapshot" else 2
    runs = [snapsim.simulate(game, players=players, policies=lineup(RandomAgent(), game),
                             games=5, seed=seed, chunk_size=chunk)
            for seed, chunk in ((3, 5), (3, 1), (3, 2), (4, 5))]
    for df in runs[1:3]:
        pd.testing.assert_frame_equal(df, runs[0], **EQ)
    assert not runs[3].drop(columns="policy").equals(runs[0].drop(columns="policy"))
    assert list(runs[0].policy.cat.categories) == ["rand", "greedy", "cautious"][:players]
    # seats rotate as for built-ins: the agent sits at seat g % players in game g
    agent_rows = runs[0][runs[0].policy == "rand"]
    assert agent_rows.seat.tolist() == [(-g) % players for g in range(5)]


@pytest.mark.parametrize("game", GAMES)
def test_an_agent_playing_greedy_moves_gives_the_batch_table(game, monkeypatch):
    """The agent asks the step class's greedy policy at its seat (the runner's game, caught
    here): the table equals the all-greedy batch run's, row for row."""
    games = []
    real_new_game = agents.new_game

    def caught(*args, **kwargs):
        games.append(real_new_game(*args, **kwargs))
        return games[-1]

    monkeypatch.setattr(agents, "new_game", caught)

    def mirror(observation, legal_actions):
        move = games[-1].policy_action()
        assert move in legal_actions and observation["player"] == games[-1].current_player
        return move

    players = 3 if game == "snapshot" else 2
    got = snapsim.simulate(game, players=players, policies=[mirror] + ["greedy"] * (players - 1),
                           games=6, seed=11, chunk_size=4)
    want = snapsim.simulate(game, players=players, policies=["greedy"] * players, games=6,
                            seed=11)
    assert len(games) == 6
    names = ["greedy"] if players == 2 else [f"greedy#{i}" for i in range(2, players + 1)]
    assert list(got.policy.cat.categories) == ["mirror", *names]
    pd.testing.assert_frame_equal(got.drop(columns="policy"), want.drop(columns="policy"), **EQ)
    assert (got.policy.cat.codes == want.policy.cat.codes).all()
    assert list(got.columns) == list(want.columns)


def test_an_agent_may_answer_with_the_action_code_and_a_callable_needs_no_class():
    def first_code(observation, legal_actions):
        return int(legal_actions[0])

    df = snapsim.simulate("yosemite", policies=[first_code, "greedy"], games=2, seed=0)
    assert list(df.policy.cat.categories) == ["first_code", "greedy"]
    assert len(df) == 4


def test_illegal_action_names_seat_action_and_legal_ones_and_keeps_finished_games():
    with pytest.raises(AgentError) as err:
        snapsim.simulate("yosemite", policies=[BadAfter(3, "fly"), "greedy"], games=6, seed=2,
                         chunk_size=2)
    text = str(err.value)
    assert "\n" not in text
    # seats as people number them: the agent sat at the 0-based seat 1
    assert "seat 2 (agent bad, test_user_agents:" in text
    assert ") chose 'fly' in game 3, not a legal action; legal now: " in text
    assert "3 games finished before it" in text
    finished = err.value.finished
    assert sorted(set(finished.game)) == [0, 1, 2]
    full = snapsim.simulate("yosemite", policies=[BadAfter(99, "fly"), "greedy"], games=3,
                            seed=2)
    pd.testing.assert_frame_equal(finished, full, **EQ)


def test_an_agent_that_raises_is_named_with_its_exception():
    with pytest.raises(AgentError, match=r"^agent bad \(test_user_agents:BadAfter\) raised "
                                         r"KeyError: 'no map' in act \(game 0, seat \d\); 0 games "
                                         "finished"):
        snapsim.simulate("shutterbug", players=2, games=2, seed=0,
                         policies=[BadAfter(0, KeyError("no map")), "greedy"])


def agent_module(tmp_path, monkeypatch, name, body):
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return name


RANDOM_MODULE = """
    class Rand:
        def act(self, observation, legal_actions):
            return legal_actions[self.rng.integers(len(legal_actions))]

    rand = Rand()
    number = 7

    def illegal(observation, legal_actions):
        return -1
"""


def test_cli_runs_a_module_object_agent_like_python(tmp_path, monkeypatch, capsys):
    mod = agent_module(tmp_path, monkeypatch, "cli_rand_agent", RANDOM_MODULE)
    rc, out, err = cli(capsys, "simulate", "yosemite", "--policies", f"{mod}:rand,greedy",
                       "--games", 4, "--seed", 5, "--quiet", "--format", "json")
    assert rc == 0, err
    got = {r["policy"]: r["win_rate"] for r in json.loads(out)["policies"]}
    df = snapsim.simulate("yosemite", policies=[f"{mod}:rand", "greedy"], games=4, seed=5)
    assert got == {"Rand": df[df.policy == "Rand"].won.mean(),
                   "greedy": df[df.policy == "greedy"].won.mean()}


@pytest.mark.parametrize("policies, message", [
    ("no_such_agent_module:agent,greedy", r"nor is 'no_such_agent_module:agent' an importable "
                                          r"module:object \(no module named"),
    ("{mod}:missing,greedy", r"agent {mod}:missing: {mod} has no attribute 'missing'"),
    ("{mod}:number,greedy", r"agent {mod}:number has no act\(observation, legal_actions\) "
                            "method and is not callable"),
    ("{mod}:rand,greedy --workers 2", r"a line-up with a Python agent plays in this process"),
])
def test_cli_bad_agent_is_one_line_exit_2(tmp_path, monkeypatch, capsys, policies, message):
    mod = agent_module(tmp_path, monkeypatch, "cli_bad_agent", RANDOM_MODULE)
    argv = policies.format(mod=mod).split()
    rc, _, err = cli(capsys, "simulate", "yosemite", "--policies", *argv, "--games", 2,
                     "--quiet")
    assert rc == 2
    assert re.search(message.format(mod=mod), one_error_line(err))


def test_cli_out_run_keeps_finished_chunks_when_the_agent_fails(tmp_path, monkeypatch, capsys):
    mod = agent_module(tmp_path, monkeypatch, "cli_illegal_agent", RANDOM_MODULE)
    out = tmp_path / "run"
    rc, _, err = cli(capsys, "simulate", "yosemite", "--policies", f"greedy,{mod}:illegal",
                     "--games", 4, "--chunk-size", 2, "--out", out, "--quiet")
    assert rc == 2
    line = one_error_line(err)
    assert "(agent illegal, " in line and ") chose -1 in game 0" in line
    assert f"the 0 finished chunks stay in {out}" in line
    assert not list(out.glob("chunk-*"))


def test_out_run_with_a_failing_agent_keeps_earlier_chunks_and_resumes(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(AgentError, match="the 1 finished chunks stay in"):
        snapsim.run("yosemite", out, policies=[BadAfter(3, "fly"), "greedy"], games=6, seed=2,
                    chunk_size=2)
    assert sorted(p.name for p in out.iterdir()) == ["chunk-000000.parquet", "manifest.json"]
    res = snapsim.run("yosemite", out, policies=[BadAfter(99, "fly"), "greedy"], games=6,
                      seed=2, chunk_size=2, resume=True)
    assert (res.chunks_done, res.computed) == (3, 2)
    want = snapsim.simulate("yosemite", policies=[BadAfter(99, "fly"), "greedy"], games=6,
                            seed=2)
    pd.testing.assert_frame_equal(snapsim.load(out), want, **EQ)


def test_the_example_agent_runs():
    # this checkout's snapsim (the one installed), so its kernels compiled by the tests above
    # are loaded from its cache instead of compiled again for the installed copy
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "examples/my_agent.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "photo-first" in done.stdout and "greedy" in done.stdout


def test_an_agent_in_a_game_without_a_step_api_is_refused_in_one_line(monkeypatch):
    """A game registered without a step class cannot seat an outside agent: it is told so,
    not a TypeError from calling None."""
    import dataclasses

    from snapsim.errors import InputError
    from snapsim.sim import registry

    spec = dataclasses.replace(registry.get_game("snapshot"), step=None)
    monkeypatch.setattr(registry, "get_game", lambda name: spec)
    with pytest.raises(InputError, match="snapshot has no step API"):
        agents.new_game("snapshot", None, 0, 0, ["greedy"], True)
