"""Rules of thumb (snapsim.games.rules): the `rules` policy plays legal games of each game, the
fit finds the same numbers for a seed, each number is the best of its grid on the data (the
others held), and the measured tables have their structure (a rule that equals greedy's number
is worth exactly nothing). That `rules` decides from the seat's view alone is checked with the
other kinds in test_snapshot_policies.py, test_yosemite_hidden.py and test_shutterbug_hidden.py.
"""

import numpy as np
import pandas as pd
import pytest

from snapsim.cli import main
from snapsim.games import rules as R
from snapsim.games.tuning import policies_module
from snapsim.protocol import new_game
from snapsim.sim import get_game
from snapsim.sim.runner import simulate

GAMES = ("snapshot", "yosemite", "shutterbug")

# the fit on a fixed small dataset: 2 games of tuned-2p at 2 players from seed 5
SMALL_FIT = {
    "snapshot": {"research cards": 3.0, "research risk": 0.2, "free reserve slot": 2.0,
                 "token worth": 0.75, "keep for later": 10.0, "offer": 6.0, "accept": 7.0},
    "yosemite": {"fish": 0.5, "photos": 1.5, "judges": 1.25, "landmarks": 0.0,
                 "next square": 0.25, "tents": 3.0},
    "shutterbug": {"assignment": 2.5, "off assignment": 0.5, "side jobs": 1.5, "tips": 1.25,
                   "cities": 0.0, "look ahead": 0.25},
}


@pytest.fixture(scope="module", params=GAMES)
def small(request):
    game = request.param
    return game, [R.record(game, 2, 2, 5)]


@pytest.mark.parametrize("game", GAMES)
def test_rules_is_greedy_with_the_bundled_numbers_and_plays_legal_games(game):
    P = policies_module(game)
    pol = get_game(game).make_policy("rules")
    assert pol.kind == P.KIND_NAMES.index("greedy") and pol.name == "rules"
    values = R.bundled_values(game)
    for rule in R.RULES[game]:
        assert values[rule.key] in rule.grid  # a round number from its grid
        assert pol.params[P.PARAM_NAMES.index(rule.param)] == values[rule.key]
    g = new_game(game, seed=2, policies=["rules", "greedy"], players=2)
    moves = 0
    while not g.is_terminal:
        action = g.policy_action()
        assert int(action) in set(g.legal_action_ids().tolist())
        g.apply(action)
        moves += 1
    assert moves > 10 and len(g.scores()) == 2
    df = simulate(game, players=2, policies=["rules", "greedy"], games=6, seed=1)
    assert sorted(df.policy.astype(str).unique()) == ["greedy", "rules"]


@pytest.mark.parametrize("game", GAMES)
def test_rules_override_and_ablated_spec(game):
    rule = R.RULES[game][0]
    P = policies_module(game)
    pol = get_game(game).make_policy(R.ablated_spec(game, rule))
    assert pol.params[P.PARAM_NAMES.index(rule.param)] == R.greedy_values(game)[rule.key]


def test_fit_is_deterministic_and_finds_the_stated_numbers(small):
    game, data = small
    first = R.fit(game, data=data)
    assert first.values == SMALL_FIT[game]
    again = R.fit(game, data=[R.record(game, 2, 2, 5)])
    assert again.values == first.values and again.agreement == first.agreement


def test_each_fitted_number_is_the_best_of_its_grid(small):
    """Coordinate-wise optimum: no other value of a rule's grid, the other rules held, plays
    the tuned move at more positions; and the rules agree with tuned at least as often as
    greedy."""
    game, data = small
    result = R.fit(game, data=data)
    pos = data[0]
    target = R.decisions(game, pos, "tuned-2p")

    def hits(values):
        return int((R.decisions(game, pos, R.rules_policy(game, values)) == target).sum())

    best = hits(result.values)
    assert best == round(result.agreement * len(pos))
    for rule in R.RULES[game]:
        for v in rule.grid:
            assert hits({**result.values, rule.key: v}) <= best, (rule.key, v)
    assert result.agreement >= result.greedy_agreement
    v, a = result.runner_up[R.RULES[game][0].key]
    assert v != result.values[R.RULES[game][0].key] and a <= result.agreement


def test_measured_tables_have_their_structure():
    rates, drops = R.measure("snapshot", games=30, seed=4, players=[2, 3])
    assert list(rates.columns) == ["players", "against", "games", "win_rate", "ci_low",
                                   "ci_high", "fair_share"]
    assert rates[["players", "against"]].values.tolist() == [
        [2, "greedy"], [2, "tuned-2p"], [3, "greedy"], [3, "tuned-3p"]]
    assert (rates.games == 30).all()
    assert ((rates.ci_low <= rates.win_rate) & (rates.win_rate <= rates.ci_high)).all()
    assert len(drops) == 2 * len(R.RULES["snapshot"])
    # the research risk rule plays greedy's own number (0.25): dropping it changes nothing
    same = drops[drops.rule == "research risk"]
    assert R.bundled_values("snapshot")["research risk"] == R.greedy_values("snapshot")[
        "research risk"]
    assert (same.win_rate_lost == 0).all() and (same.ci_low == 0).all()
    assert np.allclose(drops.rules.groupby(drops.players).nunique(), 1)  # one base per count


def test_strategy_only_writes_the_guide(tmp_path, capsys):
    out = tmp_path / "guide"
    assert main(["report", "yosemite", "--strategy-only", "--games", "20", "--out", str(out),
                 "--quiet"]) == 0
    text = (out / "strategy.md").read_text()
    heads = [line for line in text.splitlines() if line.startswith("## ")]
    assert heads == ["## Rules of thumb", "## The closest calls",
                     "## What the tuned policy does differently from greedy"]
    for rule in R.RULES["yosemite"]:
        assert rule.say(R.bundled_values("yosemite")[rule.key]) in text
    for name in ("strategy_rules.csv", "strategy_rules_win_rates.csv",
                 "strategy_rules_ablation.csv", "strategy_differences.csv"):
        assert (out / name).is_file()


def test_each_rules_worth_is_classed_against_the_smallest_effect_under_one_standard():
    from snapsim.games.rules import ablation_classes, verdict_sentence

    drops = pd.DataFrame({
        "rule": ["a", "a", "b", "c", "d"], "players": [2, 3, 2, 2, 2],
        "win_rate_lost": [0.10, -0.10, 0.001, 0.02, 0.0],
        "ci_low": [0.08, -0.12, -0.005, -0.05, 0.0],
        "ci_high": [0.12, -0.08, 0.007, 0.09, 0.0]})
    classes = ablation_classes(drops)
    assert classes == {("a", 2): "worth keeping", ("a", 3): "costs win rate",
                       ("b", 2): "too small to matter", ("c", 2): "not settled"}
    assert verdict_sentence(drops[drops.rule == "a"], classes) == \
        "Worth keeping at 2p; costs win rate at 3p."
    assert verdict_sentence(drops[drops.rule == "d"], classes) == ""
    # Holm across the family: alone, a claim with p = 0.03 passes; among many it does not
    one = pd.DataFrame({"rule": ["e"], "players": [2], "win_rate_lost": [0.0],
                        "ci_low": [-0.0182], "ci_high": [0.0182]})
    assert ablation_classes(one)[("e", 2)] == "too small to matter"
    many = pd.concat([one] + [one.assign(rule=f"e{i}") for i in range(9)])
    assert set(ablation_classes(many).values()) == {"not settled"}
