"""The designer's loop: component files exported, checked and compared, paired on common
random numbers, with provenance on every output.

Statistical checks state their test: coverage of 95% CIs is tested with a two-sided binomial
test against 0.95 (scipy.stats.binomtest, p > 0.001), the self-comparison's family-wise
false-positive rate with a one-sided binomial test against Holm's 5% (p > 0.001).
"""

from __future__ import annotations

import hashlib
import json
import subprocess

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import snapsim
from snapsim.analysis.effects import Smallest
from snapsim.analysis.paired import Ratio, ratio_difference, spread_difference
from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.sim import component_files as C
from snapsim.sim import get_game

GAMES = ("snapshot", "yosemite", "shutterbug")


def _edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """For each game: a variant file with one component raised sharply, and the measure it
    must raise."""
    root = tmp_path_factory.mktemp("variants")
    out = {}
    s = C.export("snapshot", root / "sharp-mudskipper.toml")
    _edit(s, 'name = "mudskipper"\nhabitat = "Shoreline"\ndifficulty = 2\nprestige = 1',
          'name = "mudskipper"\nhabitat = "Shoreline"\ndifficulty = 2\nprestige = 12')
    out["snapshot"] = (s, "mudskipper: prestige 1 → 12", "score: prestige")
    y = C.export("yosemite", root / "rich-photos.toml")
    text = y.read_text()
    y.write_text(text.replace("points = 4", "points = 14"))
    out["yosemite"] = (y, "points 4 → 14", "score: photo_points")
    b = C.export("shutterbug", root / "rich-side-jobs.toml")
    _edit(b, 'kind = "each_creature", count = 1, points = 4',
          'kind = "each_creature", count = 1, points = 24')
    out["shutterbug"] = (b, "Cryptid census: points 4 → 24", "score: side_job_points")
    return out


# ---------------------------------------------------------------- component files


@pytest.mark.parametrize("game", GAMES)
def test_export_then_load_plays_identical_games(game, tmp_path):
    path = C.export(game, tmp_path / f"{game}.toml")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == \
        hashlib.sha256(C.bundled_file(game).read_bytes()).hexdigest()
    standard = snapsim.simulate(game, games=30, seed=5)
    mine = snapsim.simulate(game, games=30, seed=5, components=str(path))
    pd.testing.assert_frame_equal(standard, mine)
    assert C.check(path).changes == []
    assert mine.attrs["provenance"]["components"]["standard"] is True


@pytest.mark.parametrize("game", GAMES)
def test_check_names_each_change(game, planted):
    path, change, _ = planted[game]
    found = C.check(path)
    assert found.game == game
    assert any(change in line for line in found.changes), found.changes
    assert change in found.summary()


def test_provenance_sha_is_sha256sum_of_the_file(planted, tmp_path):
    path = planted["snapshot"][0]
    df = snapsim.simulate("snapshot", games=12, seed=1, components=str(path), players=3,
                          photo_target=8)
    prov = df.attrs["provenance"]
    shell = subprocess.run(["sha256sum", str(path)], capture_output=True, text=True, check=True)
    assert prov["components"]["sha256"] == shell.stdout.split()[0]
    assert prov["components"]["name"] == "sharp-mudskipper"
    assert prov["knobs"] == {"photo_target": 8} and prov["players"] == 3
    assert prov["seed"] == 1 and prov["games"] == 12 and prov["snapsim"] == snapsim.__version__
    assert [p["name"] for p in prov["policies"]] == ["greedy"] * 3
    # a dataset on disk keeps it, and load() hands it back
    snapsim.run("snapshot", tmp_path / "run", games=12, seed=1, components=str(path),
                chunk_size=5)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["provenance"]["components"]["sha256"] == prov["components"]["sha256"]


def test_python_api_accepts_a_path_a_loaded_set_or_standard(planted):
    path = planted["yosemite"][0]
    comps = get_game("yosemite").load_components(path)
    a = snapsim.simulate("yosemite", games=10, seed=2, components=str(path))
    b = snapsim.simulate("yosemite", games=10, seed=2, components=comps)
    pd.testing.assert_frame_equal(a, b)
    c = snapsim.compare("yosemite", baseline="standard", variants=[comps], games=40, seed=1,
                        restricted=False)
    assert c.variants[0].label == "rich-photos"


# ---------------------------------------------------------------- the statistics


def _independent_paired(base: pd.DataFrame, var: pd.DataFrame, column: str):
    """Mean per-game difference of a per-seat column averaged over seats, and its error."""
    d = (var.groupby("game")[column].mean() - base.groupby("game")[column].mean()).to_numpy()
    return d.mean(), d.std(ddof=1) / np.sqrt(len(d))


def test_paired_estimates_equal_an_independent_computation(planted):
    path = planted["snapshot"][0]
    c = snapsim.compare("snapshot", variants=[str(path)], games=120, seed=3, players=[3],
                        restricted=False)
    base = snapsim.simulate("snapshot", games=120, seed=3, players=3)
    var = snapsim.simulate("snapshot", games=120, seed=3, players=3, components=str(path))
    row = c.table.set_index("measure").loc["mean score"]
    diff, se = _independent_paired(base, var, "score")
    assert row["diff"] == pytest.approx(diff, abs=1e-12)
    assert row["se_paired"] == pytest.approx(se, rel=1e-9)
    # a ratio measure: win rate with one assignment = wins / appearances, delta method
    name = get_game("snapshot").load_components().assignments[0].name
    row = c.table.set_index("measure").loc[f"win rate with assignment {name}"]
    for side, value in ((base, "baseline"), (var, "variant_value")):
        mask = side.assignment == 0
        assert row[value] == pytest.approx(side.won[mask].sum() / mask.sum(), abs=1e-12)


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_ci_covers_a_known_difference():
    """400 synthetic paired data sets with a true difference of 0.3 in a ratio measure."""
    rng = np.random.default_rng(0)
    covered, covered_spread = 0, 0
    reps = 400
    for _ in range(reps):
        n = 200
        luck = rng.normal(0, 2, n)
        den = rng.integers(1, 3, n).astype(float)
        base = Ratio((1.0 + luck + rng.normal(0, 1, n)) * den, den)
        var = Ratio((1.3 + luck + rng.normal(0, 1, n)) * den, den)
        lo, hi = ratio_difference(base, var).ci
        covered += lo <= 0.3 <= hi
    assert stats.binomtest(covered, reps, 0.95).pvalue > 1e-3, covered
    # the spread: group rates 0.2/0.5 (spread 0.3) against 0.3/0.4 (spread 0.1)
    for k in range(100):
        n = 300
        u = rng.random((n, 2))
        base = ((u < [0.2, 0.5]).astype(float), np.ones((n, 2)))
        var = ((u < [0.3, 0.4]).astype(float), np.ones((n, 2)))
        lo, hi = spread_difference(base, var, seed=k, reps=300).ci
        covered_spread += lo <= -0.2 <= hi
    assert stats.binomtest(covered_spread, 100, 0.95).pvalue > 1e-3, covered_spread


def test_pairing_reduces_variance_when_luck_is_shared():
    rng = np.random.default_rng(1)
    luck = rng.normal(0, 3, 500)
    d = ratio_difference(Ratio.mean(luck + rng.normal(0, 1, 500)),
                         Ratio.mean(luck + 0.2 + rng.normal(0, 1, 500)))
    assert d.variance_reduction > 5
    assert d.se < d.se_unpaired


# ---------------------------------------------------------------- self-comparison and planted


@pytest.mark.parametrize("game", GAMES)
def test_the_same_file_twice_flags_nothing(game, tmp_path):
    path = C.export(game, tmp_path / "copy.toml")
    c = snapsim.compare(game, baseline=str(path), variants=[str(path)], games=60, seed=4,
                        restricted=False)
    assert not (c.table["class"] == "meaningful").any()
    assert (c.table["diff"] == 0).all()
    # exactly no difference, no error: negligible wherever the smallest effect is not zero
    assert set(c.table["class"][c.table.smallest > 0]) == {"negligible"}
    assert "no measure changed meaningfully" in c.summary()
    assert set(c.balance["class"]) == {"no change"}
    assert "NO CHANGE" in c.summary()


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_self_comparison_false_positives_at_the_nominal_rate():
    """Unpaired self-comparisons (independent streams) over 20 seeds, with no smallest
    effect (every claim a plain significance test): Holm across the comparison's claims
    keeps the chance of any flag in one comparison at 5%, so flagged comparisons follow at
    most Binom(20, 0.05)."""
    flagged = 0
    none = Smallest(0, 0, 0, 0, 0)
    for seed in range(20):
        c = snapsim.compare("yosemite", variant_set={"start_fish": 2}, games=150, seed=seed,
                            restricted=False, paired=False, smallest=none)
        flagged += bool((c.table["class"] == "meaningful").any()
                        or (c.table.variant_flag != c.table.baseline_flag).any()
                        or (c.balance["class"].isin(["better", "worse"])).any())
    assert stats.binomtest(flagged, 20, 0.05, alternative="greater").pvalue > 1e-3, flagged


@pytest.mark.parametrize("game", GAMES)
def test_a_planted_change_is_detected_named_and_signed(game, planted):
    path, change, measure = planted[game]
    c = snapsim.compare(game, variants=[str(path)], games=200, seed=1, restricted=False)
    row = c.table.set_index("measure").loc[measure]
    assert row["class"] == "meaningful" and row["diff"] > 0
    summary = c.summary()
    assert change in summary
    assert any(measure in v and "rose" in v for v in c.verdicts())


def test_the_balance_verdict_and_the_edit_s_own_value_set_apart(planted):
    path, _, _ = planted["snapshot"]
    c = snapsim.compare("snapshot", variants=[str(path)], games=200, seed=1, restricted=False,
                        players=[4])
    assert list(dict.fromkeys(c.balance.measure)) == ["seat_spread", "first_player",
                                                      "assignments", "cards"]
    assert (c.balance.measure == "assignments").sum() == 10  # one claim per assignment
    assert set(c.balance["class"]) <= {"better", "worse", "no change", "open"}
    for r in c.balance.itertuples():
        assert r.ci_low <= r.change <= r.ci_high
        assert r.change == pytest.approx(r.value - r.baseline)
    own = c.table.set_index("measure").loc["prestige per die: mudskipper"]
    assert own.mechanical and own["unit"] == "prestige per die"
    assert c.table.mechanical.sum() == 1
    summary = c.summary()
    assert "is sharp-mudskipper better balanced at 4 players?" in summary
    mentions = [v for v in c.verdicts() if "prestige per die: mudskipper" in v]
    assert mentions and all("changed by the edit itself" in v for v in mentions)
    assert any("not evidence of balance" in v and "rose from" in v for v in mentions)


def test_median_variance_reduction_leaves_out_undefined_and_infinite_ratios(tmp_path):
    path = C.export("yosemite", tmp_path / "copy.toml")
    c = snapsim.compare("yosemite", baseline=str(path), variants=[str(path)], games=40, seed=4,
                        restricted=False)
    # no paired error at all: infinite (or, with no error either way, undefined) ratios
    vr = c.table.variance_reduction
    assert (np.isinf(vr) | vr.isna()).all() and vr.isna().any()
    assert "median variance reduction" not in c.summary()
    c.table.loc[c.table.index[:3], "variance_reduction"] = [2.0, 4.0, np.inf]
    line = next(x for x in c.summary().splitlines() if "variance reduction" in x)
    assert "3.0x over the 2 of" in line


def test_restricted_play_is_compared():
    c = snapsim.compare("snapshot", variant_set={"reroll_cost": 3}, games=80, seed=2,
                        players=[3])
    rows = c.table[c.table.group == "restricted play"]
    assert set(rows.measure) == {f"win rate without {k}" for k in
                                 get_game("snapshot").measures.restrictions}
    assert (rows.games == 80).all()


# ---------------------------------------------------------------- outputs


def test_write_makes_a_self_contained_report_with_provenance(planted, tmp_path):
    path = planted["shutterbug"][0]
    c = snapsim.compare("shutterbug", variants=[str(path)], games=60, seed=1, players=[3],
                        restricted=False)
    index = c.write(tmp_path / "cmp")
    html = index.read_text()
    assert "data:image/png;base64," in html and "<img src=" not in html.replace(
        "<img alt", "")
    prov = json.loads((tmp_path / "cmp" / "provenance.json").read_text())
    assert prov["variants"][0]["components"]["sha256"] == \
        hashlib.sha256(path.read_bytes()).hexdigest()
    assert prov["games"] == 60 and prov["seed"] == 1
    assert "sha256" in (tmp_path / "cmp" / "report.md").read_text().splitlines()[-1]
    table = pd.read_csv(tmp_path / "cmp" / "comparison.csv")
    assert len(table) == len(c.table)
    # each value beside its own interval; the variant's label column stays bare
    md = (tmp_path / "cmp" / "report.md").read_text()
    head = next(x for x in md.splitlines() if x.startswith("| variant | players | group"))
    assert "| variant (variant_value) [95% CI] |" in head and "| baseline [95% CI] |" in head
    assert "| variant [95% CI] |" not in head
    row = next(x for x in md.splitlines() if x.startswith(f"| {c.variants[0].label} | 3 |"))
    assert row.split(" | ")[0] == f"| {c.variants[0].label}"
    assert "## How to read this report" in md and "**meaningful**" in md
    with pytest.raises(InputError, match="already holds"):
        c.write(tmp_path / "cmp")


def test_every_compare_sentence_prints_the_interval_its_class_was_decided_on(planted, tmp_path):
    """The report's and the summary's lines against the report number checks
    (tests/test_report_numbers.py): each class beside its Holm-adjusted interval and band,
    no "-0.0", games to settle beyond the games played; the comparison exercises a
    meaningful change, the edit's own value, a side flag that moves (an outlier card) and
    the strong line-up's labels."""
    from test_report_numbers import number_problems, problems, sentence_problems

    path = planted["snapshot"][0]
    c = snapsim.compare("snapshot", variants=[str(path)], games=200, seed=1, players=[4],
                        restricted=False, strong="tuned", strong_games=100)
    c.write(tmp_path / "cmp")
    assert problems(tmp_path / "cmp") == []
    lines = c.summary().splitlines()
    assert [(why, line) for line in lines
            for why in number_problems(line, 200) + sentence_problems(line)] == []
    said = [line for line in lines if "(Holm-adjusted" in line]
    assert any("rose from" in x and "meaningful (beyond" in x and "not evidence" not in x
               for x in said)
    assert any("not evidence of balance" in x for x in said)
    assert any("outlier high (+" in x and "from the median" in x for x in said)
    assert any("with tuned-4p, smallest effect ±" in x for x in said)
    # the balance verdict of its own under the strong line-up, beside greedy's
    strong = [x for x in lines if x.startswith("under strong play (tuned-4p): is ")]
    assert len(strong) == 1 and "better balanced at 4 players?" in strong[0]
    assert set(c.balance.line_up) == {"greedy", "tuned-4p"}
    # the change's class is decided at a level below 5%: its interval holds the 95% one
    table = pd.read_csv(tmp_path / "cmp" / "strong_play.csv")
    assert (table.change_ci_low_adjusted <= table.change_ci_low + 1e-12).all()
    assert (table.change_ci_high_adjusted >= table.change_ci_high - 1e-12).all()


def test_cli_designer_loop(tmp_path, capsys):
    out = tmp_path / "mine.toml"
    assert main(["components", "export", "snapshot", "--out", str(out)]) == 0
    _edit(out, 'name = "mudskipper"\nhabitat = "Shoreline"\ndifficulty = 2\nprestige = 1',
          'name = "mudskipper"\nhabitat = "Shoreline"\ndifficulty = 2\nprestige = 9')
    assert main(["components", "check", str(out)]) == 0
    assert "mudskipper: prestige 1 → 9" in capsys.readouterr().out
    assert main(["compare", "snapshot", "--variant", str(out), "--players", "3",
                 "--games", "80", "--no-restricted", "--quiet", "--out",
                 str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    assert "mine changes: mudskipper: prestige 1 → 9" in printed
    assert (tmp_path / "cmp" / "index.html").exists()


@pytest.mark.parametrize("argv, message", [
    (["compare", "snapshot", "--variant", "{yosemite}"], "looks like a yosemite"),
    (["compare", "snapshot", "--variant", "{broken}"], "not valid TOML"),
    (["compare", "snapshot", "--variant", "{incomplete}"], "habitats"),
    (["compare", "snapshot", "--variant-set", "bogus=1"], "unknown Snapshot rule knob"),
    (["compare", "yosemite", "--variant-set", "start_fish=3", "--players", "3"],
     "cannot be played with 3 players"),
    (["compare", "snapshot", "--variant", "{few}", "--players", "4"],
     "cannot be played with 4 players"),
    (["compare", "snapshot", "--variant-set", "photo_target=8", "--out", "{busy}"],
     "holds 'keep.txt', which snapsim did not write"),
    (["compare", "snapshot", "--variant-set", "photo_target=8", "--out", "{busy}", "--force"],
     "holds 'keep.txt', which snapsim did not write"),
    (["compare", "snapshot", "--games", "auto", "--variant-set", "photo_target=8"],
     "--detect"),
    (["compare", "snapshot", "--games", "many", "--variant-set", "photo_target=8"],
     "whole number or 'auto'"),
    (["components", "check", "{missing}"], "cannot open"),
    (["components", "export", "snapshot", "--out", "{busy}"], "is a folder"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    files = {"yosemite": C.export("yosemite", tmp_path / "y.toml"),
             "broken": tmp_path / "broken.toml", "incomplete": tmp_path / "incomplete.toml",
             "few": tmp_path / "few.toml", "busy": tmp_path / "busy",
             "missing": tmp_path / "nope.toml"}
    files["broken"].write_text("[[animals]\nname = 'x'\n")
    files["incomplete"].write_text('[[habitats]]\nname = "Shoreline"\nexplore = 2\n')
    few = C.export("snapshot", tmp_path / "few.toml")
    text = few.read_text()  # keep the first three assignments: too few for four players
    starts = [i for i in range(len(text)) if text.startswith("[[assignments]]", i)]
    few.write_text(text[:starts[3]] + text[text.index("\n[example]"):])
    files["busy"].mkdir()
    (files["busy"] / "keep.txt").write_text("mine")
    argv = [a.format(**files) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert (files["busy"] / "keep.txt").read_text() == "mine"


def test_compare_needs_a_variant():
    with pytest.raises(InputError, match="at least one"):
        snapsim.compare("snapshot", games=20)


def test_export_to_stdout_is_the_bundled_file(capsysbinary):
    assert main(["components", "export", "yosemite"]) == 0
    assert capsysbinary.readouterr().out == C.bundled_file("yosemite").read_bytes()


def test_games_auto_chooses_n_for_the_requested_power(monkeypatch):
    import snapsim.report.compare as cmp

    monkeypatch.setattr(cmp, "PILOT_GAMES", 100)
    c = snapsim.compare("yosemite", variant_set={"start_fish": 3}, games="auto", detect=6.0,
                        seed=1, restricted=False)
    n = c.provenance["games"]
    row = c.table.set_index("measure").loc["seat spread (points)"]
    assert n >= 100
    assert row["games"] == n
