"""Pig (examples/pig), a game installed on its own: snapsim finds it through the entry point
group `snapsim.games`, plays it in batches and step by step, and its first player's simulated
win rate under "hold at 20" agrees with the exact value of a dynamic programme.

CI installs it (`pip install -e examples/pig`); where it is not installed, `pig` below writes
the same entry point into a dist-info folder on sys.path, so the registry finds it the way
it finds an installed game (importlib.metadata), never by importing it itself."""

from __future__ import annotations

import importlib.metadata
import math
import sys
from pathlib import Path

import pytest

import snapsim
from snapsim.errors import InputError
from snapsim.protocol import new_game
from snapsim.sim.registry import ENTRY_POINTS, get_game, known_games

PIG = Path(__file__).resolve().parents[1] / "examples" / "pig"
Z_999 = 3.2905  # two-sided 99.9% normal quantile


@pytest.fixture(scope="module")
def pig(tmp_path_factory):
    """The Pig game's spec, found through its entry point."""
    if "pig" not in {ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINTS)}:
        site = tmp_path_factory.mktemp("site")
        info = site / "snapsim_pig-0.1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: snapsim-pig\n"
                                       "Version: 0.1.0\n")
        (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\npig = snapsim_pig\n")
        sys.path[:0] = [str(site), str(PIG)]
    return get_game("pig")


def test_the_registry_finds_pig_by_its_entry_point_outside_snapsim(pig):
    assert "pig" in known_games()
    assert pig.name == "pig" and pig.title == "Pig" and pig.package == "snapsim_pig"
    assert pig.policy_kinds == ("random", "greedy") and pig.tuned_names() == ["tuned-2p"]
    assert not Path(sys.modules["snapsim_pig"].__file__).is_relative_to(
        Path(snapsim.__file__).parent)


def test_exact_values_of_small_games(pig):
    """Goal 2: the first roll is forced and any face but the 1 wins at once, so the first
    player wins P = 5/6 + 1/6 (1 - P), P = 6/7. Goal 1 with a die of 1s and 2s: the same
    with a half, P = 2/3."""
    from snapsim_pig.exact import first_player_wins

    config = pig.make_config(goal=2)
    assert first_player_wins(config, (20, 0), (20, 0)) == pytest.approx(6 / 7, abs=1e-12)
    die = pig.load_components(None).__class__((1, 2), 1, "two-faced")
    config = pig.make_config(goal=1, components=die)
    assert first_player_wins(config, (20, 0), (20, 0)) == pytest.approx(2 / 3, abs=1e-12)


@pytest.mark.parametrize("policies, params, knobs", [
    (["greedy", "greedy"], ((20, 0), (20, 0)), {}),
    (["greedy:hold_at=10:chase=3", "greedy"], ((10, 3), (20, 0)),
     {"goal": 50, "start_points": (0, 7)}),
])
def test_simulated_first_player_win_rate_matches_the_exact_programme(pig, policies, params,
                                                                     knobs):
    """The first seat's win rate in 100,000 games (seats not rotated) against the exact value:
    a two-sided z-test at the 0.1% level, |rate - exact| <= 3.29 sqrt(p (1 - p) / n); its
    power to find a 1 pp error is above 99%."""
    from snapsim_pig.exact import first_player_wins

    n = 100_000
    exact = first_player_wins(pig.make_config(**knobs), *params)
    df = snapsim.simulate("pig", policies=policies, games=n, seed=11, rotate_seats=False,
                          **knobs)
    rate = df[df.seat == 0].won.mean()
    assert abs(rate - exact) <= Z_999 * math.sqrt(exact * (1 - exact) / n), (rate, exact)


def test_a_game_played_step_by_step_is_the_batch_game(pig):
    lineup = ["random", "greedy:hold_at=15"]
    df = snapsim.simulate("pig", policies=lineup, games=20, seed=4)
    for i in range(20):
        g = new_game("pig", seed=4, game=i, policies=lineup)
        g.play()
        rows = df[df.game == i].sort_values("seat")
        assert g.scores()["score"].tolist() == rows.score.tolist()
        assert g.returns().tolist() == rows.won.tolist()
        holds = rows.turns.iloc[0] - rows.busts.sum()  # every other turn ends in a hold
        assert sum(": hold " in line for line in g.log) == holds


def test_every_decision_is_roll_or_hold_with_something_at_stake(pig):
    g = new_game("pig", seed=2)
    while not g.is_terminal:
        assert [a.kind for a in g.legal_actions()] == ["roll", "hold"]
        assert g.observation(g.current_player)["turn_total"] > 0
        g.apply(g.policy_action())
    assert sorted(g.returns().tolist()) == [0.0, 1.0]
    assert max(g.scores().score) >= 100


def test_rebalance_edit_space_and_seat_knob(pig):
    config = pig.make_config(start_points=(0, 5))
    assert pig.measures.levers.seat_values(config) == (0, 5)
    with pytest.raises(InputError, match="start_points"):
        pig.make_config(start_points=(0, 5, 1))
    with pytest.raises(InputError, match="goal"):
        pig.make_config(goal=0)


def test_a_die_file_is_validated_in_one_line(pig, tmp_path):
    bad = tmp_path / "die.toml"
    bad.write_text("[die]\nfaces = [2, 3, 4]\nbust = 1\n")
    with pytest.raises(InputError, match="die.toml: die: bust 1 is no face"):
        pig.load_components(bad)


@pytest.mark.skipif(importlib.util.find_spec("gymnasium") is None,
                    reason="gymnasium is not installed (pip install 'snapsim[rl]')")
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_and_pettingzoo_adapters_play_pig(pig):
    from gymnasium.utils.env_checker import check_env

    from snapsim.env import gym_env

    check_env(gym_env("pig", players=2), skip_render_check=True)
    if importlib.util.find_spec("pettingzoo") is not None:
        from pettingzoo.test import api_test

        from snapsim.env import pettingzoo_env

        api_test(pettingzoo_env("pig", players=2), num_cycles=30)


def test_simulate_compare_and_rebalance_commands_play_pig(pig, tmp_path, capsys):
    from snapsim.cli import main

    assert main(["simulate", "pig", "--games", "50", "--seed", "1", "--quiet"]) in (0, None)
    assert main(["compare", "pig", "--variant-set", "goal=80", "--games", "200", "--quiet",
                 "--out", str(tmp_path / "cmp")]) in (0, None)
    assert "variant changes: knob goal 100 → 80" in capsys.readouterr().out


def test_report_sets_the_first_players_rate_beside_its_exact_value(pig, tmp_path):
    import pandas as pd
    from snapsim_pig.exact import first_player_wins

    from snapsim.games.guide import guide_made, write_strategy

    out = tmp_path / "report"
    pig.report(out, games=200, seed=1, studies=["first"], progress=False)
    t = pd.read_csv(out / "first_player.csv").set_index("order")
    exact = first_player_wins(pig.make_config(), (20, 0), (20, 0))
    assert t.exact.to_dict() == pytest.approx({"first": exact, "second": 1 - exact})
    assert t.loc["first", "ci_low"] < t.loc["first", "win_rate"] < t.loc["first", "ci_high"]
    write_strategy("pig", out, games=200, seed=1)
    assert guide_made(out) == {"game": "pig", "games": 200, "seed": 1}
    assert "| 20 | 53.47% | 46.53% | 50.00% |" in (out / "strategy.md").read_text()
