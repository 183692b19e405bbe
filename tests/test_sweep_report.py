"""Sweeps over component files (folders named by the file's stem, every file's SHA-256 in
sweep.json) and `snapsim report sweep DIR`: balance measures against each knob with CIs, the
setting that minimises an objective, the settings indistinguishable from it, and one-line
refusals for folders that are not finished sweeps."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import cli, one_error_line
from scipy import stats

import snapsim
from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.report.sweep import sweep_report
from snapsim.sim import get_game

GAME = "snapshot"
BUNDLED = Path(snapsim.__file__).parent / "games" / "snapshot" / "data" / "standard.toml"
LEOPARD = 'name = "snow leopard"\nhabitat = "Mountain"\ndifficulty = 10\nprestige = 5\n'
EQ = dict(check_dtype=False, check_categorical=False, check_exact=True)



def variant(path: Path, prestige: int = 1) -> Path:
    """The bundled Snapshot file with the snow leopard's prestige changed."""
    text = BUNDLED.read_text()
    assert text.count(LEOPARD) == 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(LEOPARD, LEOPARD.replace("prestige = 5",
                                                          f"prestige = {prestige}")))
    return path


def sweep_file(path: Path, body: str, games: int = 120, seed: int = 5) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"games = {games}\nseed = {seed}\nplayers = 3\nchunk_size = 60\n{body}")
    return path


def run_sweep(capsys, f: Path, root: Path, *extra) -> None:
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", root, *extra)
    assert rc == 0, err


def without(df: pd.DataFrame, *cols) -> pd.DataFrame:
    return df.drop(columns=list(cols)).reset_index(drop=True)


# ---------------------------------------------------------------- the components axis


def test_sweep_over_component_files_by_stem_with_hashes(tmp_path, monkeypatch, capsys):
    design = tmp_path / "design"
    cheap = variant(design / "variants" / "cheap-leopard.toml")
    f = sweep_file(design / "grid.toml", '[grid]\ncomponents = ["standard", '
                                         '"variants/cheap-leopard.toml"]\n', games=150)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # paths in the file are relative to the file, not the cwd
    root = tmp_path / "runs"
    run_sweep(capsys, f, root)
    assert sorted(p.name for p in root.iterdir() if p.is_dir()) == \
        ["components=cheap-leopard", "components=standard"]

    meta = json.loads((root / "sweep.json").read_text())
    runs = {r["labels"]["components"]: r for r in meta["runs"]}
    assert runs["cheap-leopard"]["components"]["sha256"] == \
        hashlib.sha256(cheap.read_bytes()).hexdigest()
    assert runs["cheap-leopard"]["components"]["file"] == str(cheap.resolve())
    assert runs["standard"]["components"]["sha256"] == \
        hashlib.sha256(BUNDLED.read_bytes()).hexdigest()
    assert (runs["standard"]["components"]["standard"],
            runs["cheap-leopard"]["components"]["standard"]) == (True, False)

    load = get_game(GAME).load_components
    got = snapsim.load(root, components="cheap-leopard")
    assert set(got.components) == {"cheap-leopard"}
    want = snapsim.simulate(GAME, players=3, games=150, seed=5, components=load(cheap))
    pd.testing.assert_frame_equal(without(got, "components"), want, **EQ)
    standard = snapsim.load(root, components="standard")
    pd.testing.assert_frame_equal(without(standard, "components"),
                                  snapsim.simulate(GAME, players=3, games=150, seed=5), **EQ)
    assert (got.prestige.to_numpy() != standard.prestige.to_numpy()).any()

    # editing a swept file changes the point's identity: resuming is refused, and sweep.json
    # keeps the record of what the finished points played
    variant(cheap, prestige=2)
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", root, "--resume")
    assert rc == 2 and "cannot resume" in one_error_line(err)
    assert json.loads((root / "sweep.json").read_text()) == meta


def test_fixed_component_file_is_recorded_for_every_point(tmp_path, capsys):
    cheap = variant(tmp_path / "cheap.toml")
    f = sweep_file(tmp_path / "fixed.toml", 'components = "cheap.toml"\n[grid]\n'
                                            'photo_target = [7]\n', games=60)
    root = tmp_path / "runs"
    run_sweep(capsys, f, root)
    (run,) = json.loads((root / "sweep.json").read_text())["runs"]
    assert run["folder"] == "photo_target=7"
    assert run["components"]["sha256"] == hashlib.sha256(cheap.read_bytes()).hexdigest()
    want = snapsim.simulate(GAME, players=3, games=60, seed=5, photo_target=7,
                            components=get_game(GAME).load_components(cheap))
    pd.testing.assert_frame_equal(without(snapsim.load(root), "photo_target"), want, **EQ)


BAD_COMPONENTS = {
    "missing": ('["standard", "variants/nowhere.toml"]', ["point components=nowhere",
                                                         "nowhere.toml"]),
    "invalid": ('["variants/broken.toml"]', ["point components=broken", "broken.toml",
                                             "not valid TOML"]),
    "same_stem": ('["a/twin.toml", "b/twin.toml"]', ["'twin'"]),
    "unsafe_stem": ('["variants/my variant.toml"]', ["my variant.toml", "rename"]),
    "not_text": ('[3]', ["grid.components"]),
}


@pytest.mark.parametrize("case", sorted(BAD_COMPONENTS))
def test_bad_component_file_in_the_grid_is_one_line(tmp_path, capsys, case):
    values, words = BAD_COMPONENTS[case]
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "broken.toml").write_text("animals = [\n")
    f = sweep_file(tmp_path / "bad.toml", f"[grid]\ncomponents = {values}\n")
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", tmp_path / "out")
    line = one_error_line(err)
    assert rc == 2 and "bad.toml" in line
    for word in words:
        assert word in line
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- the sweep report


@pytest.fixture(scope="module")
def one_knob(tmp_path_factory):
    """photo_target 6, 8, 10: a higher target makes the game longer."""
    tmp = tmp_path_factory.mktemp("one")
    f = sweep_file(tmp / "targets.toml", "[grid]\nphoto_target = [6, 8, 10]\n")
    sweep = snapsim.sim.read_sweep(f)
    snapsim.sim.run_sweep(sweep, out=tmp / "runs")
    return tmp / "runs"


@pytest.fixture(scope="module")
def two_knobs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two")
    variant(tmp / "variants" / "cheap.toml")
    f = sweep_file(tmp / "grid.toml", '[grid]\nphoto_target = [6, 8]\n'
                                      'components = ["standard", "variants/cheap.toml"]\n',
                   games=100)
    snapsim.sim.run_sweep(snapsim.sim.read_sweep(f), out=tmp / "runs")
    return tmp / "runs"


def read_table(out: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(out / f"{name}.csv")


def test_report_on_one_knob_sweep_picks_the_shortest_game(one_knob, tmp_path):
    out = tmp_path / "length"
    index = sweep_report(one_knob, out=out, objective="game length (rounds)")
    assert index == out / "index.html"
    for name in ("index.html", "report.md", "provenance.json", "best.csv",
                 "knob_photo_target.csv", "knob_photo_target.png", "sweep_measures.csv"):
        assert (out / name).is_file(), name
    assert not (out / "heatmap_objective.png").exists()  # one knob: no heatmap

    table = read_table(out, "sweep_measures")
    length = table[table.measure == "game length (rounds)"].set_index("photo_target").value
    assert length[6] < length[8] < length[10]
    best = read_table(out, "best").set_index("photo_target")
    assert best.best.tolist() == [True, False, False]
    assert best.loc[6, "diff"] == 0 and best.loc[10, "diff"] == pytest.approx(
        length[10] - length[6])
    assert not best.loc[10, "indistinguishable"] and best.loc[10, "p_adjusted"] < 0.05

    # values and intervals are the measures of each point's own games
    df = snapsim.load(one_knob, photo_target=8)
    per_game = df.groupby("game").score.mean().to_numpy()
    row = table[(table.photo_target == 8) & (table.measure == "mean score")].iloc[0]
    half = stats.norm.ppf(0.975) * np.std(per_game, ddof=1) / math.sqrt(len(per_game))
    assert row.value == pytest.approx(per_game.mean())
    assert (row.ci_low, row.ci_high) == pytest.approx((per_game.mean() - half,
                                                       per_game.mean() + half))
    seats = df.groupby("seat").won.mean()
    spread = table[(table.photo_target == 8) & (table.measure == "seat spread (win rate)")]
    assert spread.value.iloc[0] == pytest.approx(seats.max() - seats.min())
    assert spread.ci_low.iloc[0] <= spread.value.iloc[0] <= spread.ci_high.iloc[0]
    assert set(table.games) == {120}

    md = (out / "report.md").read_text()
    assert (f"The lowest game length (rounds) is {length[6]:.2f} rounds" in md
            and "at photo_target=6" in md and "Every other setting is significantly worse" in md)
    assert "Made by snapsim" in (out / "index.html").read_text()
    prov = json.loads((out / "provenance.json").read_text())
    assert (prov["objective"], prov["games"], prov["seed"]) == ("game length (rounds)", 120, 5)
    assert [p["labels"] for p in prov["points"]] == [{"photo_target": t} for t in (6, 8, 10)]
    assert prov["points"][0]["components"]["sha256"] == \
        hashlib.sha256(BUNDLED.read_bytes()).hexdigest()


def test_default_objective_is_the_seat_spread_in_win_rate(one_knob, tmp_path):
    out = tmp_path / "spread"
    sweep_report(one_knob, out=out)
    table = read_table(out, "sweep_measures")
    spread = table[table.measure == "seat spread (win rate)"].set_index("photo_target").value
    best = read_table(out, "best")
    assert best[best.best].photo_target.tolist() == [spread.idxmin()]
    assert json.loads((out / "provenance.json").read_text())["objective"] == \
        "seat spread (win rate)"


def test_report_on_two_knob_grid_has_a_heatmap(two_knobs):
    sweep_report(two_knobs)
    out = two_knobs / "report"
    for name in ("index.html", "report.md", "provenance.json", "best.csv",
                 "heatmap_objective.png", "knob_photo_target.png", "knob_components.png",
                 "knob_photo_target.csv", "knob_components.csv"):
        assert (out / name).is_file(), name
    page = (out / "index.html").read_text()
    assert page.count("data:image/png;base64") == 3
    best = read_table(out, "best")
    assert len(best) == 4 and best.best.sum() == 1
    assert best[best.best].value.iloc[0] == best.value.min()
    prov = json.loads((out / "provenance.json").read_text())
    assert {p["components"]["name"] for p in prov["points"]} == {"standard", "cheap"}
    # the report beside the data does not disturb loading the sweep
    assert len(snapsim.load(two_knobs)) == 4 * 100 * 3


def test_report_refuses_a_folder_holding_another_report(one_knob, tmp_path):
    out = tmp_path / "taken"
    sweep_report(one_knob, out=out, objective="mean score")
    sweep_report(one_knob, out=out, objective="mean score")  # the same report again
    with pytest.raises(InputError, match="already holds another report.*--force"):
        sweep_report(one_knob, out=out, objective="seat spread (points)")
    sweep_report(one_knob, out=out, objective="seat spread (points)", force=True)
    assert json.loads((out / "provenance.json").read_text())["objective"] == \
        "seat spread (points)"
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    for force in (False, True):  # nothing snapsim did not write is replaced, forced or not
        with pytest.raises(InputError, match="holds 'notes.txt', which snapsim did not "
                                             "write; choose an empty or new folder"):
            sweep_report(one_knob, out=other, force=force)
    assert [p.name for p in other.iterdir()] == ["notes.txt"]


def test_unknown_objective_lists_the_measures(one_knob, tmp_path):
    with pytest.raises(InputError, match=r"unknown objective 'fun'; measures are .*seat "
                                         r"spread \(win rate\).*game length \(rounds\)"):
        sweep_report(one_knob, out=tmp_path / "x", objective="fun")
    assert not (tmp_path / "x").exists()


def test_report_refuses_an_incomplete_sweep_until_resumed(tmp_path, capsys):
    f = sweep_file(tmp_path / "small.toml", "[grid]\nphoto_target = [7, 9]\n")
    root = tmp_path / "runs"
    run_sweep(capsys, f, root)
    path = root / "photo_target=9" / "manifest.json"
    m = json.loads(path.read_text())
    m["chunks"] = m["chunks"][:1]
    path.write_text(json.dumps(m))
    with pytest.raises(InputError, match=r"point photo_target=9 .* incomplete \(1 of 2 chunks "
                                         r"missing\).*--resume"):
        sweep_report(root)
    assert not (root / "report").exists()
    run_sweep(capsys, f, root, "--resume")
    assert sweep_report(root).is_file()


def test_report_refuses_a_folder_that_is_not_a_sweep(tmp_path):
    run = tmp_path / "run"
    snapsim.run(GAME, run, players=3, games=60)
    for folder in (run, tmp_path / "nowhere"):
        with pytest.raises(InputError, match="not a sweep folder \\(no sweep.json\\)"):
            sweep_report(folder)


def test_cli_report_sweep(one_knob, tmp_path, capsys):
    out = tmp_path / "cli"
    rc, stdout, err = cli(capsys, "report", "sweep", one_knob, "--out", out, "--quiet",
                          "--objective", "game length (rounds)")
    assert rc == 0, err
    assert str(out / "index.html") in stdout
    best = read_table(out, "best")
    assert best[best.best].photo_target.tolist() == [6]
    for argv, words in (
            (["report", "sweep", tmp_path / "nowhere"], "not a sweep folder"),
            (["report", "sweep"], "give the sweep's folder"),
            (["report", "sweep", one_knob, "--out", out, "--objective", "fun"],
             "unknown objective"),
            (["report", "sweep", one_knob, "--quick"], "--quick does not apply"),
            (["report", GAME, one_knob], "belong to `snapsim report sweep DIR`")):
        rc, _, err = cli(capsys, *argv)
        assert rc == 2 and words in one_error_line(err)
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: seat spread (win rate))" in text and "(default: refuse)" in text
