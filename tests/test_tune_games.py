"""`snapsim tune` for every game: a tiny budget runs, is deterministic, stays inside the
searched ranges, refuses to save an insignificant result and writes only where told; a
saved file is a policy of its game by name or path."""

import tomllib

import pytest
from cli_helpers import cli, one_error_line

import snapsim
from snapsim.games import tuning as T
from snapsim.sim.agents import resolve_policy

TINY = dict(games=20, iterations=1, popsize=1, verify_games=40, seed=2)


@pytest.fixture(scope="module", params=["yosemite", "shutterbug"])
def tiny(request):
    return T.tune(request.param, threads=1, **TINY)


def test_a_tiny_tuning_is_deterministic_and_bounded(tiny):
    again = T.tune(tiny.game, threads=2, **TINY)
    assert again.params == tiny.params and again.win_rate == tiny.win_rate
    assert list(tiny.params) == list(T.SEARCHED[tiny.game])
    for key, (lo, hi) in T.SEARCHED[tiny.game].items():
        assert lo <= tiny.params[key] <= hi
    assert tiny.evaluations >= len(T.SEARCHED[tiny.game])
    assert tiny.provenance["game"] == tiny.game and tiny.verify_games == 40


def test_searched_ranges_lie_inside_each_parameters_valid_range():
    for game, ranges in T.SEARCHED.items():
        names = T.policies_module(game).PARAM_NAMES
        for key, (lo, hi) in ranges.items():
            param = names[names.index(key)]
            assert param.lo <= lo < hi <= param.hi, (game, key)


def test_saved_file_is_a_policy_of_its_game_only(tiny, tmp_path):
    path = T.save_tuned(tiny, tmp_path)
    assert path == tmp_path / f"tuned-{tiny.players}p.toml"
    data = tomllib.loads(path.read_text())
    assert data["game"] == tiny.game and set(data["params"]) == set(T.SEARCHED[tiny.game])
    pol = resolve_policy(tiny.game, f"{path}")
    assert T.tuned_policy(tiny.game, f"{path}") == pol
    assert T.tuned_policy(tiny.game, "greedy") is None
    names = T.policies_module(tiny.game).PARAM_NAMES
    for key, value in tiny.params.items():
        assert pol.params[names.index(key)] == pytest.approx(value, rel=1e-5)
    assert T.tuned_policies(tiny.game, tmp_path)["tuned-2p" if tiny.game == "yosemite"
                                                 else "tuned-4p"][0] == "greedy"
    other = "shutterbug" if tiny.game == "yosemite" else "yosemite"
    with pytest.raises(snapsim.errors.InputError, match=f"tuned for {tiny.game}"):
        T.read_tuned(other, path)
    df = snapsim.simulate(tiny.game, policies=[pol, "greedy"] if tiny.game == "yosemite"
                          else [pol] + ["greedy"] * 3, games=4, seed=1, threads=1)
    assert pol.name in set(df.policy.astype(str))


@pytest.mark.parametrize("game", ["yosemite", "shutterbug"])
def test_cli_refuses_to_save_an_insignificant_result_and_writes_nothing(game, tmp_path,
                                                                        capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bundled = sorted(p.name for p in T.data_folder(game).iterdir())
    # two verification games can never be significant: even 2 wins of 2 leave the interval
    # reaching below the fair share (Wilson: 34% to 100%), whatever the tuner found
    rc, out, _ = cli(capsys, "tune", game, "--games", 20, "--iterations", 1, "--popsize", 1,
                     "--verify-games", 2, "--seed", 2, "--threads", 1)
    assert rc == 0 and "NOT significant: not saved" in out
    assert list(tmp_path.iterdir()) == []
    assert sorted(p.name for p in T.data_folder(game).iterdir()) == bundled


def test_a_significant_result_is_saved_where_told(monkeypatch, tmp_path, capsys):
    # a tuning whose verification clearly beats the fair share is written to --out only
    real = T.tune

    def sure(*args, **kwargs):
        res = real(*args, **kwargs)
        res.win_rate, res.p_value = 0.9, 1e-9
        return res

    monkeypatch.setattr(T, "tune", sure)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "mine" / "y.toml"
    out.parent.mkdir()
    rc, text, _ = cli(capsys, "tune", "yosemite", "--games", 20, "--iterations", 1,
                      "--popsize", 1, "--verify-games", 40, "--threads", 1, "--out", out)
    assert rc == 0 and f"saved as {out}" in text
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["y.toml"]
    rc, _, err = cli(capsys, "tune", "yosemite", "--games", 20, "--out", out)
    assert rc == 2 and "already exists" in one_error_line(err)


@pytest.mark.parametrize("argv", [
    ["tune", "yosemite", "--policy", "random"],
    ["tune", "shutterbug", "--players", "1"],
    ["tune", "shutterbug", "--policy", "nosuch"],
    ["tune", "yosemite", "--players", "3"],
    ["tune", "chess"],
    ["tune", "shutterbug", "--iterations", "0"],
])
def test_bad_tune_input_is_one_line(argv, capsys):
    rc, _, err = cli(capsys, *argv)
    assert rc == 2
    one_error_line(err)


@pytest.mark.parametrize("game", ["yosemite", "shutterbug"])
def test_bundled_tuned_policy_plays_in_any_line_up(game):
    """`tuned-2p` names the bundled file's parameters wherever a line-up is taken, and
    `:key=value` overrides one of them."""
    kind, params = T.tuned_policies(game)["tuned-2p"]
    df = snapsim.simulate(game, players=2, policies=["tuned-2p", "greedy"], games=4, seed=3)
    assert set(df["policy"]) == {"tuned-2p", "greedy"}
    P = T.policies_module(game)
    pol = resolve_policy(game, "tuned-2p")
    assert pol.params == params and P.KIND_NAMES[pol.kind] == kind
    key = next(iter(T.SEARCHED[game]))
    changed = resolve_policy(game, f"tuned-2p:{key}=0.123").params
    assert changed[P.PARAM_NAMES.index(key)] == 0.123
