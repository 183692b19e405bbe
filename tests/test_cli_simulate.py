"""`snapsim simulate`: summaries, Parquet / JSON / CSV output, and one-line errors (exit 2)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pandas as pd
import pytest

import snapsim
from snapsim.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


BASE = ("simulate", "snapshot", "--games", "40", "--seed", "1", "--quiet")


def test_default_run_summarises_every_policy(capsys):
    rc, out, err = run(capsys, "simulate", "snapshot", "--games", "200", "--seed", "3",
                       "--quiet")
    assert rc == 0, err
    assert err == ""
    assert "200 games" in out and "seed 3" in out
    assert "greedy" in out  # the default line-up: greedy in every seat
    assert "by policy" in out and "by seat" in out


def test_line_up_summary_mentions_every_policy(capsys):
    policies = ["random", "greedy", "cautious", "collector"]
    rc, out, err = run(capsys, "simulate", "snapshot", "--games", "200", "--seed", "3",
                       "--quiet", "--policies", ",".join(policies))
    assert rc == 0, err
    policy_table = out.split("by policy:")[1].split("by seat:")[0]
    for name in policies:
        assert name in policy_table
    rc, out, err = run(capsys, "simulate", "snapshot", "--players", "3", "--games", "60",
                       "--quiet", "--policies", "aggressive,random,cautious:max_risk=0.2")
    assert rc == 0, err
    for name in ("aggressive", "random", "cautious:max_risk=0.2"):
        assert name in out


def test_out_writes_one_row_per_game_and_seat(capsys, tmp_path):
    path = tmp_path / "x.parquet"
    rc, out, err = run(capsys, "simulate", "snapshot", "--games", "200", "--seed", "3",
                       "--quiet", "--players", "3", "--policies", "random,greedy,collector",
                       "--out", str(path))
    assert rc == 0, err
    assert str(path) in out
    df = pd.read_parquet(path)
    assert len(df) == 600
    assert not df.duplicated(["game", "seat"]).any()
    assert sorted(df.game.unique()) == list(range(200))
    assert set(df.seat) == {0, 1, 2}
    assert df.groupby("game").won.sum().round(9).eq(1).all()
    assert {"policy", "score", "tokens", "photos", "won"} <= set(df.columns)
    # the same rows as the library call
    lib = snapsim.simulate("snapshot", players=3, policies=["random", "greedy", "collector"],
                           games=200, seed=3)
    assert df.score.tolist() == lib.score.tolist()
    assert df.policy.astype(str).tolist() == lib.policy.astype(str).tolist()


def test_json_format_parses(capsys):
    rc, out, err = run(capsys, *BASE, "--format", "json", "--players", "2",
                       "--policies", "greedy,random")
    assert rc == 0, err
    data = json.loads(out)
    assert data["games"] == 40 and data["seed"] == 1
    assert {row["policy"] for row in data["policies"]} == {"greedy", "random"}
    assert [row["seat"] for row in data["seats"]] == [1, 2]  # seats as people number them
    assert sum(row["n"] for row in data["policies"]) == 40 * 2
    assert sum(row["win_rate"] * row["n"] for row in data["seats"]) == pytest.approx(40)
    for row in data["policies"]:
        assert 0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1


def test_csv_format_parses(capsys):
    rc, out, err = run(capsys, *BASE, "--format", "csv")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert set(df.table) == {"policy", "seat"}
    assert df[df.table == "seat"].n.sum() == 160


def test_knobs_reach_the_engine(capsys, tmp_path):
    path = tmp_path / "k.parquet"
    rc, _, err = run(capsys, *BASE, "--set", "photo_target=3", "--set", "raccoon=false",
                     "--set", "start_tokens=0,0,0,0", "--out", str(path))
    assert rc == 0, err
    df = pd.read_parquet(path)
    assert (df.groupby("game").photos.max() >= 3).all()
    assert (df.groupby("game").photos.max() <= 3 + 6).all()  # one turn of 6 dice past 2
    flow = (df.tokens_from_placing + df.tokens_from_experience + df.tokens_from_offers
            - df.tokens_paid_offers - df.tokens_spent_photos - df.tokens_spent_rerolls)
    assert (df.tokens == flow).all()  # started with 0 tokens each


BAD = [
    ("unknown knob", [*BASE, "--set", "photo_targt=8"], "photo_targt"),
    ("bad policy", [*BASE, "--policies", "greedy,bogus,random,random"], "bogus"),
    ("bad policy param", [*BASE, "--policies", "greedy:nope=1"], "nope"),
    ("policy count", [*BASE, "--policies", "greedy,random"], "4 players need 4"),
    ("six players", [*BASE, "--players", "6"], "players"),
    ("zero games", ["simulate", "snapshot", "--games", "0", "--quiet"], "games"),
    ("games not a number", ["simulate", "snapshot", "--games", "ten", "--quiet"], "ten"),
    ("negative seed", [*BASE, "--seed", "-1"], "seed"),
    ("unknown game", ["simulate", "chess", "--games", "5", "--quiet"], "chess"),
    ("components path", [*BASE, "--components", "/no/such/dir/cards.toml"], "cards.toml"),
    ("set without =", [*BASE, "--set", "photo_target"], "NAME=VALUE"),
    ("set bad value", [*BASE, "--set", "photo_target=lots"], "lots"),
    ("knob out of range", [*BASE, "--set", "dice=9"], "dice"),
]


@pytest.mark.parametrize("argv,needle", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("snapsim: error:")
    assert needle in lines[0]
    assert "Traceback" not in err


def test_out_file_in_missing_folders_makes_them(capsys, tmp_path):
    # as the README writes it: --out runs/3p.parquet where runs/ does not exist yet
    target = tmp_path / "runs" / "deeper" / "x.parquet"
    rc, out, err = run(capsys, *BASE, "--out", str(target))
    assert rc == 0, err
    assert len(snapsim.load(target)) == 40 * 4
    assert sorted(p.name for p in target.parent.iterdir()) == ["x.parquet"]  # no temporary


def test_a_failed_out_file_leaves_no_folder_it_made(capsys, tmp_path):
    target = tmp_path / "runs" / "x.parquet"
    rc, out, err = run(capsys, *BASE, "--out", str(target), "--policies", "nope")
    assert rc == 2 and "nope" in err
    assert not (tmp_path / "runs").exists()


def test_process_exit_code_and_stderr():
    # the real command line: exit status 2, one stderr line, no traceback
    proc = subprocess.run([sys.executable, "-m", "snapsim", "simulate", "snapshot", "--games",
                           "5", "--set", "photo_targt=8"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("snapsim: error:")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_five_player_summary_says_base_cards_only(capsys, players):
    # the rulebook plays five only with the Flora Expansion, whose cards snapsim lacks
    rc, out, err = run(capsys, *BASE, "--players", str(players))
    assert rc == 0, err
    assert ("base cards only" in out) == (players == 5)
