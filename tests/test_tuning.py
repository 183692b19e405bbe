"""Policy tuning: deterministic, inside its bounds, saved as data the CLI accepts by name,
and the bundled tuned policies beat the default greedy policy on fresh seeds."""

import tomllib

import pytest

import snapsim
from snapsim.analysis.balance import rate_vs
from snapsim.games.snapshot.api import make_policy
from snapsim.games.snapshot.tuning import SEARCHED, save_tuned, tune, tuned_policies


@pytest.fixture(scope="module")
def tiny():
    return tune(players=2, games=40, iterations=1, popsize=1, verify_games=200, seed=3,
                threads=1)


def test_tuning_is_deterministic_and_bounded(tiny):
    again = tune(players=2, games=40, iterations=1, popsize=1, verify_games=200, seed=3,
                 threads=2)
    assert again.params == tiny.params and again.win_rate == tiny.win_rate
    for key, (lo, hi) in SEARCHED.items():
        assert lo <= tiny.params[key] <= hi
    assert tiny.evaluations >= len(SEARCHED)


def test_saved_tuned_policy_loads_by_name(tiny, tmp_path):
    path = save_tuned(tiny, tmp_path / "tuned-2p.toml")
    data = tomllib.loads(path.read_text())
    assert data["players"] == 2 and set(data["params"]) == set(SEARCHED)
    kind, params = tuned_policies(tmp_path)["tuned-2p"]
    assert kind == "greedy"
    from snapsim.games.snapshot.policies import PARAM_NAMES

    for key, value in tiny.params.items():
        assert params[PARAM_NAMES.index(key)] == pytest.approx(value, rel=1e-5)


BUNDLED = sorted(tuned_policies())


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_tuned_policy_beats_greedy_on_fresh_seeds(name):
    players = int(name.split("-")[1].rstrip("p"))
    pol = make_policy(name)
    assert pol.name == name
    df = snapsim.simulate("snapshot", players=players,
                          policies=[name] + ["greedy"] * (players - 1), games=4000, seed=77)
    mine = df[df.policy.astype(str) == name]
    rate = mine.won.sum() / len(mine)
    assert rate > 1 / players
    assert rate_vs(mine.won.sum(), len(mine), 1 / players) < 0.05


def test_bad_tune_arguments(capsys):
    from snapsim.cli import main

    assert main(["tune", "snapshot", "--policy", "random"]) == 2
    assert main(["tune", "yosemite", "--policy", "rollout:x=1"]) == 2
    assert main(["tune", "snapshot", "--games", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("snapsim: error:") for line in err)


def test_a_tuned_policy_only_makes_legal_moves(tiny):
    from snapsim.games.snapshot import SnapshotConfig, SnapshotGame
    from snapsim.games.snapshot.tuning import _policy

    pol = _policy("greedy", list(tiny.params.values()), name="tuned")
    for i in range(3):
        g = SnapshotGame(SnapshotConfig(players=2), seed=5, game=i, policies=[pol, "greedy"])
        while not g.is_over():
            a = g.policy_action()
            assert a.code in {b.code for b in g.legal_actions()}
            g.apply(a)


@pytest.mark.parametrize("players", [2, 4, 5])
def test_tune_output_labels_five_players_base_cards_only(capsys, monkeypatch, players):
    from snapsim.cli import main
    from snapsim.games import tuning
    from snapsim.games.tuning import TuneResult

    def fake_tune(game, players, *args, **knobs):
        return TuneResult(players, "greedy", "greedy", {k: lo for k, (lo, _) in SEARCHED.items()},
                          0.1, 0.05, 0.15, 0.9, 100, 1, 3, game=game)

    monkeypatch.setattr(tuning, "tune", fake_tune)
    assert main(["tune", "snapshot", "--players", str(players), "--games", "10"]) in (0, None)
    out = capsys.readouterr().out
    assert f"for {players} players" in out
    assert ("base cards only" in out) == (players == 5)


def test_strategy_guide_labels_the_five_player_tuned_policy():
    from snapsim.games.snapshot.strategy import tuned_table

    table, files = tuned_table()
    assert "tuned-5p.toml" in files
    labelled = [c for c in table.columns if "base cards only" in c]
    assert labelled == ["tuned-5p (5p, base greedy, base cards only)"]


def test_tune_with_components_records_them_and_writes_only_where_told(tmp_path, monkeypatch):
    import hashlib

    from snapsim.sim import component_files as C

    variant = C.export("snapshot", tmp_path / "cards.toml")
    variant.write_text(variant.read_text().replace("prestige = 1\n", "prestige = 2\n", 1))
    res = tune(players=2, games=30, iterations=1, popsize=1, verify_games=100, seed=4,
               threads=1, components=str(variant), photo_target=8)
    assert res.provenance["components"]["sha256"] == \
        hashlib.sha256(variant.read_bytes()).hexdigest()
    assert res.provenance["knobs"] == {"photo_target": 8}
    monkeypatch.chdir(tmp_path)
    bundled = sorted(p.name for p in (snapsim.games.snapshot.tuning.DATA).iterdir())
    path = save_tuned(res)
    assert path == tmp_path / "tuned-2p.toml"
    assert sorted(p.name for p in snapsim.games.snapshot.tuning.DATA.iterdir()) == bundled
    data = tomllib.loads(path.read_text())
    assert data["provenance"]["components"] == "cards"
    assert data["provenance"]["components_sha256"] == res.provenance["components"]["sha256"]
    with pytest.raises(snapsim.errors.InputError, match="already exists"):
        save_tuned(res)
    # the file is a policy by its path
    pol = make_policy(str(path))
    assert pol.name == "tuned-2p"
    df = snapsim.simulate("snapshot", players=2, policies=[str(path), "greedy"], games=10,
                          seed=1)
    assert set(df.policy.astype(str)) == {"tuned-2p", "greedy"}
