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
