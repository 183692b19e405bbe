"""Rules of thumb (snapsim.games.rules): the `rules` policy plays legal games of each game, the
fit finds the same numbers for a seed, each number is the best of its grid on the data (the
others held), and the measured tables have their structure (a rule that equals greedy's number
is worth exactly nothing). That `rules` decides from the seat's view alone is checked with the
other kinds in test_snapshot_policies.py, test_yosemite_hidden.py and test_shutterbug_hidden.py.
"""

import re

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


def _drops(rows):
    """An ablation table: (rule, players, gain, 95% interval half-width), 2,000 games."""
    return pd.DataFrame([{"players": n, "rule": rule, "games": 2000, "win_rate_lost": gain,
                          "ci_low": gain - half, "ci_high": gain + half}
                         for rule, n, gain, half in rows])


def test_advice_classes_each_rules_worth_under_one_standard():
    """Gains and losses beyond 2 pp are meaningful, a small gain with a narrow interval is
    negligible, a wide one unresolved; greedy's own number is the same play; Holm across the
    family: alone, a claim with p = 0.03 passes, among many it does not."""
    table = R.rules_table("snapshot")
    drops = _drops([("accept", 2, 0.10, 0.02), ("accept", 3, -0.10, 0.02),
                    ("offer", 2, 0.001, 0.006), ("keep for later", 2, 0.02, 0.07),
                    ("research risk", 2, 0.0, 0.0)])
    adv = R.advice("snapshot", table, drops).set_index(["rule", "players"])
    assert adv.status.to_dict() == {
        ("accept", 2): R.HELPS, ("accept", 3): R.COSTS, ("offer", 2): R.NO_COST,
        ("keep for later", 2): R.NOT_SHOWN, ("research risk", 2): R.SAME}
    assert adv.loc[("accept", 3), "play"] == R.greedy_values("snapshot")["accept"]
    assert adv.loc[("accept", 2), "play"] == R.bundled_values("snapshot")["accept"]
    one = _drops([("offer", 2, 0.0, 0.0182)])
    assert R.advice("snapshot", table, one).status.tolist() == [R.NO_COST]
    many = _drops([("offer", n, 0.0, 0.0182) for n in (2, 3, 4, 5)]
                  + [(r.key, 2, 0.0, 0.0182) for r in R.RULES["snapshot"] if r.key != "offer"])
    status = R.advice("snapshot", table, many).set_index("rule").status
    assert status.pop("research risk") == R.SAME  # the bundled number is greedy's 0.25
    assert set(status) == {R.NOT_SHOWN}


# every number in the rules-of-thumb lines carries a unit: a number is followed by one of
# these (an interval in brackets right after a number with its unit shares that unit)
UNITS = r"(?:pp|%|prestige|points|cards|times|players|games|positions)\b"
NUMBER = r"[+-]?\d[\d,]*(?:\.\d+)?"


def unitless_numbers(line: str) -> list[str]:
    """The numbers of a line that carry no unit (code spans and list numbers left out)."""
    line = re.sub(r"`[^`]*`", "", line)
    line = re.sub(r"^\s*(?:\d+\.|-|\|)\s*", "", line)
    united = rf"({UNITS})\s*(?:\(Holm-adjusted\s*)?\[{NUMBER}, {NUMBER}\]\)?"
    while re.search(united, line):  # "+1.0 pp [-0.5, +2.5] (Holm-adjusted [...])": both
        line = re.sub(united, r"\1", line)
    # "2, 3 and 4 players": a list of numbers shares the unit after its last
    line = re.sub(rf"{NUMBER}(?:(?:, | and ){NUMBER})+(?=\s*{UNITS})", "1", line)
    return [m.group(0) for m in re.finditer(rf"(?<![\w.])({NUMBER})(?![\w%]|\.\d)(?!\s*{UNITS})",
                                            line)]


def rules_section(text: str) -> list[str]:
    """The lines that give advice: the table of values to play and the rule lines."""
    part = text.split("## Rules of thumb", 1)[1].split("\nWin rate of `rules`", 1)[0]
    return [ln for ln in part.splitlines()
            if re.match(r"^(\d+\. \*\*|- |\| [a-z])", ln) and not ln.startswith("|---")]


def test_the_unit_check_finds_a_bare_number():
    assert unitless_numbers("1. **Count a fish as 0.5 points.** greedy plays 0.6 points; "
                            "2 players +1.0 pp [-0.5, +2.5] (Holm-adjusted [-1.0, +3.0])") == []
    assert unitless_numbers("Weigh the city bonus at 0.5.") == ["0.5"]
    assert unitless_numbers("helps at 2, 3 and 5 players; 7 against 8") == ["7", "8"]
    assert unitless_numbers("2 players +1.0 [-0.5, +2.5]") == ["+1.0", "-0.5", "+2.5"]


def test_a_rule_whose_ablation_loses_is_not_recommended():
    """Planted: the token worth costs 4 pp at 4 and 5 players (meaningful), helps at 2 and is
    unresolved at 3; offer costs everywhere. The guide plays greedy's number where the fitted
    one loses, says so under what not to do, never lists a rule that loses everywhere among
    the rules to play, and gives one value with its unit per rule and player count."""
    game = "snapshot"
    table = R.rules_table(game)
    rows = [("token worth", 2, 0.06, 0.01), ("token worth", 3, 0.02, 0.06),
            ("token worth", 4, -0.04, 0.008), ("token worth", 5, -0.041, 0.008)]
    rows += [("offer", n, -0.05, 0.01) for n in (2, 3, 4, 5)]
    rows += [(r.key, n, 0.0, 0.005) for r in R.RULES[game]
             if r.key not in ("token worth", "offer") for n in (2, 3, 4, 5)]
    adv = R.advice(game, table, _drops(rows))
    token = adv[adv.rule == "token worth"].set_index("players")
    assert token.status.to_dict() == {2: R.HELPS, 3: R.NOT_SHOWN, 4: R.COSTS, 5: R.COSTS}
    assert token.play.to_dict() == {2: 0.75, 3: 0.75, 4: 0.4, 5: 0.4}
    lines = R.advice_lines(game, adv)
    text = "\n".join(lines)
    play = text.split("### The rules to play", 1)[1].split("###", 1)[0]
    dont = text.split("### What not to do", 1)[1]
    worth, offer = R.RULES[game][3], R.RULES[game][5]
    assert offer.say(7) not in play and offer.say(7) in dont
    assert "At 2, 3, 4 and 5 players, do not play" in dont
    assert f"At 4 and 5 players, do not play *{worth.say(0.75)}* Play greedy's 0.4 prestige" \
        in dont
    token_line = next(ln for ln in play.splitlines() if worth.say(0.75) in ln)
    assert "Recommended at 2 players: helps at 2 players; not shown to help at 3 players; " \
        "costs win rate at 4 and 5 players, where greedy's 0.4 prestige is played instead" \
        in token_line
    # every recommended line's rule is recommended somewhere, and no value that loses is in
    # the table of values to play
    for rule in R.RULES[game]:
        a = adv[adv.rule == rule.key]
        listed = any(ln.split("**")[1] == rule.say(a.value.iloc[0])
                     for ln in play.splitlines() if "**" in ln)
        assert listed == a.status.isin(R.RECOMMENDED).any(), rule.key
    grid = next(ln for ln in text.splitlines() if ln.startswith("| token worth"))
    cells = [c.strip() for c in grid.strip("|").split("|")][1:]
    assert cells == ["0.75 prestige", "0.75 prestige (not shown to help)",
                     "0.4 prestige (greedy's number: 0.75 prestige costs win rate)",
                     "0.4 prestige (greedy's number: 0.75 prestige costs win rate)"]
    for ln in text.splitlines():
        if re.match(r"^(\d+\. \*\*|- |\| [a-z])", ln):
            assert unitless_numbers(ln) == [], ln


def test_differences_list_only_meaningful_ones_with_their_games():
    diff = pd.DataFrame({
        "players": [2, 2, 2, 3], "kind": ["draw", "stop", "pass", "draw"],
        "games": [40, 40, 40, 40], "positions": [4000] * 3 + [5000],
        "disagree": [600] * 3 + [700], "tuned_all": [900, 500, 100, 800],
        "greedy_all": [700, 520, 100, 790], "difference": [0.05, -0.005, 0.0, 0.002],
        "se": [0.005, 0.01, 0.0, 0.01]})
    lines = R.difference_sentences(R.difference_claims(diff))
    assert lines[0].startswith("- 2 players (40 games, 4,000 positions; they pick different "
                               "moves at 600, 15.0%): the tuned policy picks *draw* more often")
    assert "*stop*" not in lines[0] and "2 other kinds of move" in lines[0]
    assert lines[1].startswith("- 3 players (40 games") and "no kind of move differs" in lines[1]
    few = diff.assign(se=np.nan)
    assert "too few games" in R.difference_sentences(R.difference_claims(few))[0]


def test_a_generated_guide_recommends_no_losing_rule_and_says_every_unit(tmp_path):
    """A guide built at small n: every advice line's numbers carry units, one value per rule
    and player count, and no rule is recommended where its ablation loses meaningfully."""
    from snapsim.games.guide import write_strategy

    text = write_strategy("yosemite", tmp_path, games=20, seed=2).read_text()
    adv = pd.read_csv(tmp_path / "strategy_rules_advice.csv")
    assert len(adv) == len(adv[["rule", "players"]].drop_duplicates()) == len(R.RULES["yosemite"])
    for ln in rules_section(text):
        assert unitless_numbers(ln) == [], ln
    losing = adv[(adv["class"] == "meaningful") & (adv.gain < 0)]
    assert (losing.status == R.COSTS).all() and (losing.play == losing.greedy).all()
    assert adv[adv.status == R.COSTS].gain.lt(0).all()
    assert "## What the tuned policy does differently from greedy" in text
    assert f"({R.MIN_DIFFERENCE_GAMES} games per player count, seed 2)" in text
