"""Every output says what made it: components and their SHA-256, knobs, policies, seed, n."""

from __future__ import annotations

import hashlib
import json

import snapsim
import snapsim.cli
from snapsim.sim import component_files as C


def test_report_folder_records_provenance(tmp_path):
    variant = C.export("yosemite", tmp_path / "park.toml")
    variant.write_text(variant.read_text().replace("points = 4", "points = 5", 1))
    out = tmp_path / "report"
    assert snapsim.cli.main(["report", "yosemite", "--quick", "--quiet", "--studies", "first",
                             "--components", str(variant), "--out", str(out)]) == 0
    record = json.loads((out / "provenance.json").read_text())
    sha = hashlib.sha256(variant.read_bytes()).hexdigest()
    assert record["components"] == {"name": "park", "file": str(variant.resolve()),
                                    "sha256": sha, "standard": False}
    assert record["seed"] == 1 and record["games"] == 300 and record["studies"] == ["first"]
    assert record["snapsim"] == snapsim.__version__
    assert {c["players"] for c in record["configurations"]} == {2}
    assert all(c["games"] == 300 for c in record["configurations"])
    for name in ("report.md", "index.html"):
        text = (out / name).read_text()
        assert f"components park (sha256 {sha[:12]}" in text
    # re-running one more study alone keeps what the first recorded
    assert snapsim.cli.main(["report", "yosemite", "--quick", "--quiet", "--studies",
                             "length", "--components", str(variant), "--out", str(out)]) == 0
    again = json.loads((out / "provenance.json").read_text())
    assert again["studies"] == ["first", "length"]


def test_simulate_table_carries_provenance_through_parquet(tmp_path):
    df = snapsim.simulate("shutterbug", players=3, games=8, seed=9, policies=["random"])
    path = tmp_path / "rows.parquet"
    df.to_parquet(path)
    back = snapsim.load(path)
    assert back.attrs["provenance"] == df.attrs["provenance"]
    assert back.attrs["provenance"]["policies"][0]["name"] == "random"
    assert back.attrs["provenance"]["games"] == 8


def test_load_hands_back_the_record_of_a_run_and_of_a_sweep(tmp_path):
    snapsim.run("yosemite", tmp_path / "run", games=6, seed=3, chunk_size=4, start_fish=3)
    df = snapsim.load(tmp_path / "run")
    assert df.attrs["provenance"]["knobs"] == {"start_fish": 3}
    assert df.attrs["provenance"]["games"] == 6 and df.attrs["provenance"]["seed"] == 3
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('game = "yosemite"\ngames = 4\nseed = 2\n[grid]\nstart_fish = [2, 4]\n')
    assert snapsim.cli.main(["sweep", str(sweep), "--out", str(tmp_path / "sw"),
                             "--quiet"]) == 0
    both = snapsim.load(tmp_path / "sw")
    prov = both.attrs["provenance"]
    assert prov["sweep"]["seed"] == 2
    assert {p["knobs"].get("start_fish", 2) for p in prov["points"].values()} == {2, 4}


def test_step_classes_and_configs_take_components(tmp_path):
    from snapsim.games.shutterbug import ShutterbugConfig, ShutterbugGame
    from snapsim.games.snapshot import SnapshotGame
    from snapsim.games.yosemite import YosemiteGame

    path = C.export("shutterbug", tmp_path / "board.toml")
    path.write_text(path.read_text().replace('count = 5, points = 4', 'count = 5, points = 9'))
    game = ShutterbugGame(seed=1, components=str(path))
    assert game.config.components.side_jobs[1].points == 9
    assert ShutterbugConfig(components=str(path)).components == game.config.components
    assert SnapshotGame(seed=1, components="standard").config.components.path.endswith(
        "standard.toml")
    assert YosemiteGame(seed=1).config.components.camping_track == (1, 2, 3, 4, 5)
