"""The tuner contains an outside agent in its field as the runner does: an agent that raises,
exits or hangs ends `snapsim tune` with the one AgentError line naming it (exit 2), and one
that prints leaves standard output to the command; the optimiser's search hands a
candidate's failure back as itself under any worker pool."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import pytest

from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.games.tuning import search
from snapsim.sim.agents import AgentError

AGENTS = (
    "import sys\n"
    "def raises(obs, legal):\n    raise KeyError('no map')\n"
    "def exits(obs, legal):\n    sys.exit(3)\n"
    "def forever(obs, legal):\n    while True:\n        pass\n"
    "def prints(obs, legal):\n    print('thinking...')\n    return legal[0]\n")
TUNE = ["tune", "yosemite", "--games", "2", "--iterations", "1", "--popsize", "1",
        "--verify-games", "10", "--field"]


@pytest.fixture
def agents(tmp_path, monkeypatch):
    (tmp_path / "field_agents.py").write_text(AGENTS)
    monkeypatch.chdir(tmp_path)  # agents' modules are found in the folder a command runs in
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(("agent", "tail", "message"), [
    ("raises", [], "agent raises (field_agents:raises) raised KeyError: 'no map' in act "
                   "(game 0, seat 2)"),
    ("exits", [], "agent exits (field_agents:exits) called sys.exit(3) in act (game 0, seat 2)"),
    ("forever", ["--move-timeout", "0.5"],
     "agent forever (field_agents:forever) took more than 0.5 s in act (game 0, seat 2)"),
])
def test_a_failing_agent_in_the_field_is_one_line_exit_2(agents, capsys, agent, tail,
                                                         message):
    rc = main([*TUNE, f"field_agents:{agent}", *tail, "--out", str(agents / "tuned.toml")])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.startswith(f"snapsim: error: {message}") and err.count("\n") == 1, err
    assert not (agents / "tuned.toml").exists()


def test_an_agents_prints_in_the_field_go_to_stderr(agents, capsys):
    assert main([*TUNE, "field_agents:prints"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Tuned greedy for 2 players against field_agents:prints")
    assert "thinking" not in out and err.count("thinking...\n") == err.count("\n") > 0


def refuses(x):
    """An objective that fails as an agent does (module level: a process pool sends it)."""
    raise AgentError(f"agent at {len(x)} parameters raised KeyError")


def _process_map(func, items):
    with multiprocessing.get_context("fork").Pool(2) as pool:
        return pool.map(func, items)


def _thread_map(func, items):
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(func, items))


@pytest.mark.parametrize("workers", [1, _thread_map, _process_map],
                         ids=["serial", "threads", "processes"])
def test_a_failure_leaves_the_search_as_itself_under_any_pool(workers):
    with pytest.raises(AgentError, match=r"^agent at 2 parameters raised KeyError$") as caught:
        search(refuses, [(0.0, 1.0), (0.0, 1.0)], maxiter=1, popsize=1, seed=0,
               polish=False, workers=workers, updating="deferred")
    assert isinstance(caught.value, InputError)  # the CLI's one line, exit 2


def test_the_search_still_minimises():
    res = search(lambda x: float((x[0] - 0.25) ** 2), [(0.0, 1.0)], maxiter=30, popsize=10,
                 seed=0, polish=False, tol=0)
    assert abs(res.x[0] - 0.25) < 0.01
