"""Rebalancing's pieces: targets, edit spaces, the surrogate and its programme, the Pareto
front, the journal, the bootstrap; then whole searches on planted imbalances at small n."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest

import snapsim
from snapsim.analysis.rebalance import edit_space, parse_targets
from snapsim.analysis.rebalance.edits import candidate
from snapsim.analysis.rebalance.evaluate import Evaluation, Journal
from snapsim.analysis.rebalance.plants import PLANTS, plants
from snapsim.analysis.rebalance.search import Surrogate, pareto, propose, screening_design
from snapsim.analysis.rebalance.targets import Items, Target, bootstrap, parse_target
from snapsim.analysis.rebalance.verify import CONFIRM
from snapsim.errors import InputError
from snapsim.report.rebalance import rebalance
from snapsim.sim.variants import file_tables, load_variant

# ---------------------------------------------------------------- targets


@pytest.mark.parametrize("text, kind, high, low", [
    ("seat_spread=2", "seat_spread", 2.0, None),
    (" first_player = 1.5 ", "first_player", 1.5, None),
    ("assignments=3", "assignments", 3.0, None),
    ("cards=0.8", "cards", 0.8, None),
    ("length=4-5", "length", 5.0, 4.0),
])
def test_a_target_is_read_from_name_and_tolerance(text, kind, high, low):
    t = parse_target("snapshot", text)
    assert (t.kind, t.high, t.low) == (kind, high, low)


@pytest.mark.parametrize("game, text, words", [
    ("snapshot", "seat_spread", "write NAME=TOL"),
    ("snapshot", "seat_spread=0", "positive number"),
    ("snapshot", "seat_spread=-1", "positive number"),
    ("snapshot", "seat_spread=nan", "positive number"),
    ("snapshot", "seat_spread=100", "below 100"),
    ("snapshot", "spread=2", "unknown target 'spread'"),
    ("snapshot", "length=5-4", "length=A-B"),
    ("snapshot", "length=4", "length=A-B"),
    ("yosemite", "assignments=3", "deals no objective card"),
    ("yosemite", "cards=1", "no per-card value"),
    ("shutterbug", "length=3-4", "always lasts the same length"),
])
def test_a_bad_target_is_one_line_naming_what_the_game_measures(game, text, words):
    with pytest.raises(InputError, match=words) as err:
        parse_target(game, text)
    assert "\n" not in str(err.value)


def test_each_target_given_once():
    with pytest.raises(InputError, match="given twice"):
        parse_targets("snapshot", ["seat_spread=2", "seat_spread=3"])
    with pytest.raises(InputError, match="at least one"):
        parse_targets("snapshot", [])


def test_values_and_ratios_of_hand_made_items():
    spread = Target("seat_spread", 2.0)
    assert spread.value(np.array([0.20, 0.25, 0.26, 0.29]), 4) == pytest.approx(9.0)
    assert spread.ratio(np.array([0.20, 0.25, 0.26, 0.29]), 4) == pytest.approx(4.5)
    band = Target("assignments", 3.0)  # fair 1/4, within ±3 pp
    assert band.value(np.array([0.25, 0.27, 0.23, 0.31]), 4) == pytest.approx(6.0)
    assert band.ratio(np.array([0.25, 0.27, 0.23, 0.31]), 4) == pytest.approx(2.0)
    assert band.ratio(np.array([0.24, 0.26, np.nan]), 4) == pytest.approx(1 / 3)
    length = Target("length", 5.0, 4.0)  # centre 4.5, half-width 0.5
    assert length.value(np.array([4.8]), 4) == pytest.approx(4.8)
    assert length.ratio(np.array([4.8]), 4) == pytest.approx(0.6)
    assert length.ratio(np.array([5.5]), 4) == pytest.approx(2.0)
    cards = Target("cards", 0.5)
    assert cards.ratio(np.array([1.0, 1.2, 1.5]), 4) == pytest.approx(1.0)


# ---------------------------------------------------------------- edit spaces


def space_of(game, specs, players=(4,), components=None):
    base = load_variant(game, components)
    return edit_space(game, base, dict(file_tables(base.path)), specs, players)


def test_seat_spaces_give_one_variable_per_seat_and_count():
    sp = space_of("snapshot", ["start_tokens:±1"], players=(3, 4))
    assert len(sp.vars) == 7
    var = sp.vars["start_tokens (4 players) seat 4"]
    assert (var.base, var.values) == (5, (4, 6))
    tables = sp.tables_of(candidate({var.key: 3}))
    assert tables["knobs"] == {"players": {"4": {"start_tokens": [2, 3, 4, 3]}}}
    assert sp.variant(candidate({var.key: 3})).config(4).start_tokens == (2, 3, 4, 3)
    assert sp.variant(candidate({var.key: 3})).config(3).start_tokens is None


@pytest.mark.parametrize("spec, count, first", [
    ("cards.prestige:±1", 36, "animals[mudskipper].prestige"),
    ("cards[golden eagle].points:+2", 1, "animals[golden eagle].prestige"),
    ("assignments[live fast].chart", 8, "assignments[Live Fast].chart[1]"),
    ("awards.generalist", 3, "awards.generalist[0]"),
    ("habitats.explore:-1", 4, "habitats[Shoreline].explore"),
    ("knob:photo_target=7-9", 1, "knob photo_target"),
    ("knob:raccoon", 1, "knob raccoon"),
])
def test_field_and_knob_spaces_by_pattern(spec, count, first):
    sp = space_of("snapshot", [spec])
    assert len(sp.vars) == count
    assert next(iter(sp.vars)) == first


def test_a_change_whose_every_value_is_invalid_is_dropped():
    # chart step 0 must stay 0 (a chart starts at 0): it is no variable at all
    sp = space_of("snapshot", ["assignments[Live Fast].chart:±1"])
    assert "assignments[Live Fast].chart[0]" not in sp.vars
    assert sp.vars["assignments[Live Fast].chart[1]"].values == (0, 2)


def test_knob_values_move_with_the_player_count_where_its_default_does():
    sp = space_of("snapshot", ["knob:photo_target"], players=(2, 4))
    assert {k: (v.base, v.values) for k, v in sp.vars.items()} == {
        "knob photo_target (2 players)": (9, (8, 10)),
        "knob photo_target (4 players)": (7, (6, 8))}


@pytest.mark.parametrize("game, spec, words", [
    ("snapshot", "cards.difficulty", "no change of animals.difficulty gives a valid file"),
    ("snapshot", "cards.colour", "not a field rebalancing may change"),
    ("snapshot", "cards[golden egle].prestige", "did you mean golden eagle"),
    ("snapshot", "cards.prestige:±x", "write ±N"),
    ("snapshot", "cards.prestige:±0", "N must be 1-100"),
    ("snapshot", "knob:photo_targe", "unknown Snapshot rule knob"),
    ("snapshot", "knob:max_rounds", "not one rebalancing may change"),
    ("snapshot", "knob:photo_target=9-7", "A <= B"),
    ("snapshot", "knob:raccoon=maybe", "true or false"),
    ("snapshot", "prestige", "write SECTION.FIELD"),
    ("snapshot", "", "needs a space"),
    ("yosemite", "tiles.fish", "each animal has 9 tiles"),
    ("snapshot", "knob:setup_cards=13-14", "every change it allows makes an invalid game"),
])
def test_a_bad_edit_space_is_one_line(game, spec, words):
    with pytest.raises(InputError, match=words) as err:
        space_of(game, [spec], players=(2,) if game == "yosemite" else (4,))
    assert "\n" not in str(err.value)


def test_cost_counts_values_or_their_size():
    sp = space_of("snapshot", ["start_tokens", "knob:raccoon"])
    cand = candidate({"start_tokens (4 players) seat 4": 3, "knob raccoon": False})
    assert sp.cost(cand) == 2
    assert sp.cost(cand, size=True) == 3  # 2 tokens + one switch
    assert sp.changes(cand) == ["4 players: seat 4's start_tokens 5 → 3", "raccoon true → false"]


def test_screening_runs_are_valid_and_the_same_for_the_same_seed():
    sp = space_of("snapshot", ["assignments.chart:±2"])
    first = screening_design(sp, 12, seed=3)
    assert first == screening_design(sp, 12, seed=3) != screening_design(sp, 12, seed=4)
    assert len(first) == 12 and all(sp.valid(c) is None for c in first)
    assert np.mean([len(c) for c in first]) > len(sp.vars) / 4  # many changes per run


# ---------------------------------------------------------------- surrogate and programme


def synthetic(sp, effects: dict, base_items: np.ndarray, noise: float = 0.0, runs=60,
              seed=0):
    """Evaluations of a made-up game whose seat win rates move linearly with the changes."""
    rng = np.random.default_rng(seed)
    key = ("greedy", 4, "seat_spread")

    def ev(cand):
        values = base_items.copy()
        for k, v in cand:
            values = values + effects[k] * (v - sp.vars[k].base)
        values = values + rng.normal(0, noise, len(values))
        e = Evaluation(cand, 1000, {key: values}, {key: np.zeros(4)})
        e.ratios[key] = Target("seat_spread", 2.0).ratio(values, 4)
        return e

    base = ev(())
    evs = [base] + [ev(c) for c in screening_design(sp, runs, seed)]
    return base, evs, ev


def test_the_surrogate_recovers_a_linear_game_and_shrinks_noise_to_zero():
    sp = space_of("snapshot", ["start_tokens"])
    effects = {f"start_tokens (4 players) seat {s}": np.eye(4)[s - 1] * 0.02 - 0.005
               for s in range(1, 5)}
    base_items = np.array([0.21, 0.24, 0.26, 0.29])
    base, evs, _ = synthetic(sp, effects, base_items)
    model = Surrogate(sp, [("greedy", 4, "seat_spread")])
    model.fit(evs, base)
    for k, row in effects.items():
        assert model.J[model.index[k]] == pytest.approx(row, abs=1e-9)
    # no effect at all, only noise: every coefficient shrunk to (nearly) nothing
    flat = {k: np.zeros(4) for k in effects}
    base, evs, _ = synthetic(sp, flat, base_items, noise=0.01, runs=80)
    model.fit(evs, base)
    assert np.abs(model.J).max() < 0.004


def test_the_programme_finds_the_surrogates_best_fix_as_brute_force_does():
    sp = space_of("snapshot", ["start_tokens:±2"])
    rng = np.random.default_rng(5)
    effects = {k: rng.normal(0, 0.01, 4) for k in sp.vars}
    base_items = np.array([0.21, 0.24, 0.26, 0.29])
    base, evs, _ = synthetic(sp, effects, base_items)
    key = ("greedy", 4, "seat_spread")
    model = Surrogate(sp, [key])
    model.fit(evs, base)
    target = [Target("seat_spread", 2.0)]
    for limit in (1, 2, 3):
        cand, predicted = propose(model, base, target, limit, False, set())
        best = math.inf
        for k in range(limit + 1):
            for keys in itertools.combinations(sp.vars, k):
                for values in itertools.product(*(sp.vars[x].values for x in keys)):
                    c = candidate(dict(zip(keys, values, strict=True)))
                    v = base.values[key] + model.predict_change(c)
                    best = min(best, target[0].ratio(v, 4))
        got = base.values[key] + model.predict_change(cand)
        assert len(cand) <= limit
        assert target[0].ratio(got, 4) == pytest.approx(best, abs=1e-6)
        assert predicted == pytest.approx(best, abs=1e-6)


def test_the_front_keeps_the_best_balance_for_each_cost_up_to_the_first_met():
    sp = space_of("snapshot", ["start_tokens"])
    keys = list(sp.vars)

    def ev(changes, ratio):
        cand = candidate({keys[i]: sp.vars[keys[i]].values[0] for i in changes})
        e = Evaluation(cand, 100)
        e.ratios[("greedy", 4, "seat_spread")] = ratio
        return e

    evs = [ev([], 3.0), ev([0], 2.5), ev([1], 2.0), ev([0, 1], 2.2), ev([0, 2], 1.5),
           ev([0, 1, 2], 0.9), ev([1, 2, 3], 0.5), ev([0, 1, 2, 3], 0.2)]
    front = pareto(evs, sp)
    assert [(len(e.cand), e.ratio) for e in front] == [(0, 3.0), (1, 2.0), (2, 1.5), (3, 0.5)]


# ---------------------------------------------------------------- journal and bootstrap


def test_the_journal_reads_back_what_it_wrote_and_stops_at_a_torn_line(tmp_path):
    t = [Target("seat_spread", 2.0)]
    key = ("strong", 4, "seat_spread")
    e = Evaluation((("a", 1), ("b", True)), 500, {key: np.array([0.1, 0.2, np.nan, 0.4])},
                   {key: np.array([0.01, 0.02, 0.0, 0.03])})
    bad = Evaluation((("c", 2),), 500, invalid="x.toml: chart must not decrease")
    j = Journal(tmp_path)
    j.append([e, bad])
    with (tmp_path / "evaluations.jsonl").open("a") as fh:
        fh.write('{"cand": [["d", 1]], "ga')  # a kill mid-line
    back = j.read(t)
    assert len(back) == 2
    assert back[0].cand == e.cand and back[0].games == 500
    np.testing.assert_array_equal(back[0].values[key], e.values[key])
    assert back[0].ratios[key] == t[0].ratio(e.values[key], 4)
    assert back[1].invalid == bad.invalid and back[1].ratio == math.inf
    deep = Journal(tmp_path / "deep")
    deep.path.parent.mkdir()
    deep.append([e])
    with deep.path.open("a") as fh:  # a hostile line nested past any parser's stack
        fh.write("[" * 5000 + "]" * 5000 + "\n")
    assert len(deep.read(t)) == 1


def naive_bootstrap(fn, arrays, reps, seed):
    n = arrays[0].num.shape[0]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(reps):
        idx = rng.integers(0, n, n)
        out.append(fn(*(a.num[idx].sum(0) / a.den[idx].sum(0) for a in arrays)))
    return np.array(out)


def test_a_targets_rows_are_its_value_of_each_resample():
    rng = np.random.default_rng(3)
    rows = rng.random((40, 5))
    rows[3] = np.nan
    rows[7, :2] = np.nan
    for t in (Target("seat_spread", 2.0), Target("assignments", 3.0), Target("cards", 0.5),
              Target("length", 5.0, 4.0)):
        expected = [t.value(r, 4) for r in rows]
        np.testing.assert_array_equal(t.rows(rows, 4), expected)


def test_the_bootstrap_equals_resampling_by_index():
    rng = np.random.default_rng(2)
    a = Items(("x", "y", "z"), rng.random((300, 3)), np.ones((300, 3)))
    b = Items(("x", "y", "z"), rng.random((300, 3)), rng.integers(1, 3, (300, 3)) * 1.0)
    def fn(u, v):
        return float(np.max(v) - np.min(u))

    fast = bootstrap(fn, [a, b], reps=50, seed=9)
    rng = np.random.default_rng(9)
    slow = []
    for _ in range(50):
        idx = rng.integers(0, 300, 300)
        slow.append(fn(*(it.num[idx].sum(0) / it.den[idx].sum(0) for it in (a, b))))
    np.testing.assert_allclose(fast, slow, rtol=1e-12)


# ---------------------------------------------------------------- whole searches, small

SMALL = dict(games=600, verify_games=3000, candidates=60, lineups=["greedy"], seed=1)


# Snapshot's and ShutterBug's plants in the slow set (10-20 s each): Yosemite's runs by default
@pytest.mark.parametrize("plant", [
    pytest.param(plants("snapshot")[0], marks=pytest.mark.slow), plants("yosemite")[3],
    pytest.param(plants("shutterbug")[1], marks=pytest.mark.slow)], ids=lambda p: p.game)
def test_a_planted_imbalance_is_undone_by_its_own_change(tmp_path, plant):
    path = plant.write(tmp_path)
    r = rebalance(plant.game, list(plant.targets), list(plant.edits), components=path,
                  players=list(plant.players), **SMALL)
    assert plant.passed(r), r.summary()
    (k, v), = r.verified[r.recommended].cand
    assert (k, v) != plant.changes[0]
    assert r.verified[r.recommended].checks.met.all()
    assert r.checks_table().met.all()


def test_the_planted_suite_has_six_plants_per_game_at_least():
    games = pd.Series([p.game for p in PLANTS]).value_counts()
    assert (games >= 6).all() and set(games.index) == {"snapshot", "yosemite", "shutterbug"}


def test_the_patchs_numbers_are_its_confirmation_the_paired_comparison_on_other_deals(
        tmp_path):
    """The patch's printed numbers come from its confirmation: a second set of fresh deals
    (its own seed, neither the search's nor the verification's that chose it), and they are
    the paired comparison `snapsim compare` gives for the patch file on those deals."""
    plant = plants("snapshot")[0]
    path = plant.write(tmp_path)
    r = rebalance("snapshot", list(plant.targets), list(plant.edits), components=path,
                  players=[4], out=tmp_path / "out", **SMALL)
    prov = r.provenance
    assert r.confirmed.seed == prov["confirm_seed"] == SMALL["seed"] + CONFIRM
    assert len({prov["seed"], prov["verify_seed"], prov["confirm_seed"]}) == 3
    assert r.verified[r.chosen].seed == prov["verify_seed"]
    assert r.confirmed.games == r.verified[r.chosen].games == SMALL["verify_games"]
    after = next(line for line in r.summary().splitlines() if "after, greedy" in line)
    row = r.confirmed.checks.iloc[0]
    assert f"{row.value:.2f} pp [{row.ci_low:.2f}, {row.ci_high:.2f}]" in after
    chosen_row = r.verified[r.chosen].checks.iloc[0]
    assert (chosen_row.value, chosen_row.ci_low) != (row.value, row.ci_low)
    patch = tmp_path / "out" / "patch.toml"
    c = snapsim.compare("snapshot", baseline=path, variants=[patch], players=4,
                        games=SMALL["verify_games"], seed=prov["confirm_seed"],
                        restricted=False)
    ours = r.confirmed.table.set_index("measure")
    theirs = c.table.set_index("measure")
    cols = ["baseline", "baseline_ci_low", "baseline_ci_high", "variant_value",
            "variant_ci_low", "variant_ci_high", "diff", "ci_low", "ci_high", "p_value"]
    pd.testing.assert_frame_equal(ours.loc[theirs.index, cols], theirs[cols],
                                  check_exact=False, rtol=1e-9)
    seat = r.confirmed.checks.set_index("target").loc["seat_spread"]
    row = theirs.loc["seat spread (win rate)"]
    assert seat.value == pytest.approx(100 * row.variant_value)
    assert (seat.ci_low, seat.ci_high) == pytest.approx((100 * row.variant_ci_low,
                                                         100 * row.variant_ci_high))
    assert (seat.change_ci_low, seat.change_ci_high) == pytest.approx((100 * row.ci_low,
                                                                       100 * row.ci_high))


def test_the_patch_file_is_a_variant_every_command_reads(tmp_path):
    plant = plants("snapshot")[2]  # photo target 9: a knob, written as [knobs]
    path = plant.write(tmp_path)
    r = rebalance("snapshot", list(plant.targets), list(plant.edits), components=path,
                  players=[4], out=tmp_path / "out", **SMALL)
    patch = (tmp_path / "out" / "patch.toml").read_text()
    assert patch == r.patch
    assert "photo_target = 7" in patch and patch.startswith("# rebalance:")
    check = snapsim.sim.component_files.check(tmp_path / "out" / "patch.toml", "snapshot")
    assert check.changes == ["knob photo_target: default → 7"]
    df = snapsim.simulate("snapshot", players=4, games=20,
                          components=tmp_path / "out" / "patch.toml")
    assert df.attrs["provenance"]["knobs"] == {"photo_target": 7}


def test_the_ablation_takes_each_change_out_and_the_output_says_what_made_it(tmp_path):
    # 3 face-up photos shorten Yosemite to about 30 turns, 6 tiles dealt to 32, both to 25:
    # a length of 24-26.5 turns takes the two changes
    r = rebalance("yosemite", ["length=24-26.5"], ["knob:photo_slots=2-3",
                                                    "knob:tiles_dealt=3-6"],
                  out=tmp_path / "out", **SMALL)
    patch = r.verified[r.recommended].cand
    assert r.met and len(patch) >= 2 and len(r.ablation) == len(patch)
    for label, v in r.ablation.items():
        assert len(v.cand) == len(patch) - 1 and set(v.cand) < set(patch), label
        assert not v.met  # each change is needed
    path = load_variant("yosemite").path
    prov = json.loads((tmp_path / "out" / "provenance.json").read_text())
    for key in ("components", "targets", "edits", "players", "seed", "games",
                "evaluations", "verify_seed", "confirm_seed", "verify_games", "snapsim",
                "optimizer", "budget", "lineups"):
        assert key in prov
    assert prov["components"]["sha256"] == snapsim.sim.provenance.file_sha256(path)
    for name in ("patch.toml", "pareto.csv", "pareto.png", "report.md", "index.html",
                 "ablation.csv", "targets.csv", "evaluations.csv", "comparison.csv"):
        assert (tmp_path / "out" / name).exists(), name
    html = (tmp_path / "out" / "index.html").read_text()
    assert "data:image/png;base64" in html and "Pareto" in html


def test_a_game_already_within_its_targets_needs_no_patch():
    r = rebalance("yosemite", ["first_player=20"], ["start_fish"], **SMALL)
    assert r.recommended is None and r.patch is None
    assert "already meets every target" in r.summary()


def test_when_no_patch_meets_the_targets_it_says_which_is_missed_by_how_much():
    r = rebalance("yosemite", ["first_player=0.1"], ["knob:wilds"], **SMALL)
    assert not r.met and r.recommended is None and r.status == "compromise"
    text = r.summary()
    assert "no patch found meets every target under greedy; the best compromise" in text
    left = r.confirmed.checks.iloc[0]
    assert f"left: first_player (2p) under greedy by {left.value - 0.1:.2f} pp" in text
    assert "its effect: first_player (2p) " in text and "without it" not in text


@pytest.mark.slow  # two searches under two line-ups; test_a_budget_in_minutes_... replays one
def test_the_same_seed_gives_the_same_patch_and_the_same_checks():
    """Reproducible: the budget is a count, so two runs of the same seed and settings play
    the same candidates and print bit-identical tables, under two line-ups."""
    kw = dict(players=[4], games=400, verify_games=1000, candidates=25,
              lineups=["greedy", "strong"], seed=7)
    a = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], **kw)
    b = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], **kw)
    assert [e.cand for e in a.outcome.evaluations] == [e.cand for e in b.outcome.evaluations]
    assert a.chosen == b.chosen and a.patch == b.patch
    pd.testing.assert_frame_equal(a.pareto, b.pareto, check_exact=True)
    pd.testing.assert_frame_equal(a.checks_table(), b.checks_table(), check_exact=True)
    assert a.summary() == b.summary()
    assert set(a.checks_table().policy) == {"greedy", "tuned-4p"}


def test_a_budget_in_minutes_is_recorded_as_a_count_that_replays_it():
    """--budget MINUTES is converted once to candidates and games; those, given back,
    replay the run exactly."""
    kw = dict(players=[4], verify_games=1000, lineups=["greedy"], seed=5)
    timed = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], budget=0.2, **kw)
    budget = timed.provenance["budget"]
    assert budget["minutes"] == 0.2 and budget["seconds_per_game"] > 0
    again = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"],
                      candidates=budget["candidates"], games=budget["games"], **kw)
    assert again.provenance["budget"]["minutes"] is None
    assert [e.cand for e in again.outcome.evaluations] == \
        [e.cand for e in timed.outcome.evaluations]
    pd.testing.assert_frame_equal(again.checks_table(), timed.checks_table(), check_exact=True)
    assert f"--candidates {budget['candidates']} --games {budget['games']}" in timed.summary()


@pytest.mark.parametrize("optimizer", ["nsga2", "tpe"])
def test_the_optuna_samplers_search_the_same_space(optimizer):
    pytest.importorskip("optuna")
    plant = plants("snapshot")[0]
    r = rebalance("snapshot", list(plant.targets), ["start_tokens:±3"], players=[4],
                  optimizer=optimizer, games=400, verify_games=1000, candidates=30,
                  lineups=["greedy"], seed=2)
    assert r.plan.optimizer == optimizer and len(r.outcome.evaluations) <= 31


def test_a_change_the_patch_does_not_need_is_taken_out(tmp_path, monkeypatch):
    """A search whose best patch carries a change that does nothing for the target: the
    ablation shows every target still met without it, and the patch is kept without it."""
    import snapsim.report.rebalance as R
    from snapsim.analysis.rebalance import Outcome

    plant = plants("yosemite")[0]  # the second player starts with no fish
    path = plant.write(tmp_path)
    seat2 = "start_fish (2 players) seat 2"
    padded = candidate({seat2: 2, "knob wilds": False})

    def fake(evaluator, plan, seed):
        base = evaluator.base()
        (ev,) = evaluator.evaluate([padded])
        return Outcome([base, ev], [base, ev])

    monkeypatch.setattr(R, "optimise", fake)
    r = rebalance("yosemite", list(plant.targets), ["start_fish:±2", "knob:wilds"],
                  components=path, **SMALL)
    assert r.met
    assert r.verified[r.recommended].cand == candidate({seat2: 2})
    assert "the ablation took 1 change(s) out" in r.summary()


@pytest.mark.parametrize("backend", [
    {"workers": 2},
    # a local Dask cluster's start-up; test_runner checks Dask's tables equal in seconds
    pytest.param({"scheduler": "local:2"}, marks=pytest.mark.slow)], ids=["processes", "dask"])
def test_a_search_spread_over_workers_finds_what_threads_find(backend):
    kw = dict(players=[4], games=400, verify_games=800, candidates=12, lineups=["greedy"],
              seed=3)
    here = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], **kw)
    there = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], **kw, **backend)
    assert [e.cand for e in here.outcome.evaluations] == \
        [e.cand for e in there.outcome.evaluations]
    for a, b in zip(here.outcome.evaluations, there.outcome.evaluations, strict=True):
        for key in a.values:
            np.testing.assert_array_equal(a.values[key], b.values[key])
    pd.testing.assert_frame_equal(here.pareto, there.pareto)
