"""`snapsim rebalance` at the command line: its output folder, resuming a killed search, one
writer at a time, and a clean one-line refusal for every bad flag."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import cli, one_error_line

SMALL = ["--games", "500", "--verify-games", "2000", "--lineups", "greedy"]
ROOT = Path(__file__).resolve().parent.parent


def command(out, *extra):
    return ["rebalance", "yosemite", "--target", "first_player=5", "--edit", "start_fish",
            "--out", str(out), *SMALL, *extra]


def test_a_run_writes_its_folder_and_refuses_to_overwrite_it(tmp_path, capsys):
    out = tmp_path / "fix"
    rc, text, err = cli(capsys, *command(out))
    assert rc == 0, err
    assert "rebalance yosemite (2 players): targets first_player=5" in text
    assert "written to" in text
    assert {"patch.toml", "report.md", "index.html", "pareto.csv", "provenance.json",
            "search.json", "evaluations.jsonl"} <= {p.name for p in out.iterdir()}
    assert json.loads((out / "search.json").read_text())["complete"] is True
    rc, _, err = cli(capsys, *command(out))
    assert rc == 2 and "a finished rebalance" in one_error_line(err)
    rc, _, err = cli(capsys, *command(out, "--seed", "5"))
    assert rc == 2 and "another rebalance (seed 1, not 5)" in one_error_line(err)
    rc, _, err = cli(capsys, *command(out, "--seed", "5", "--force"))
    assert rc == 0, err
    assert json.loads((out / "provenance.json").read_text())["seed"] == 5


def test_a_folder_of_other_files_is_refused(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    for force in ((), ("--force",)):  # nothing snapsim did not write is replaced, forced or not
        rc, _, err = cli(capsys, *command(out, *force))
        assert rc == 2 and one_error_line(err).endswith(
            "holds 'notes.txt', which snapsim did not write; choose an empty or new folder "
            "for --out")
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def run_cli(args, **kw):
    return subprocess.Popen([sys.executable, "-m", "snapsim", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, **kw)


LONG = ["rebalance", "snapshot", "--target", "seat_spread=6", "--edit", "start_tokens:±3",
        "--players", "4", "--games", "1500", "--verify-games", "2000", "--lineups", "greedy",
        "--candidates", "40", "--quiet"]


@pytest.mark.slow  # three searches; test_output_claims resumes an unfinished one in seconds
def test_a_search_killed_midway_resumes_to_the_uninterrupted_result(tmp_path):
    whole = tmp_path / "whole"
    done = run_cli([*LONG, "--out", str(whole)])
    assert done.wait(timeout=600) == 0, done.stderr.read()
    killed = tmp_path / "killed"
    proc = run_cli([*LONG, "--out", str(killed)])
    journal = killed / "evaluations.jsonl"
    deadline = time.time() + 300
    while time.time() < deadline:
        if journal.exists() and len(journal.read_text().splitlines()) >= 12:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    lines = len(journal.read_text().splitlines())
    assert 12 <= lines < 41
    again = run_cli([*LONG, "--out", str(killed)])
    assert again.wait(timeout=600) == 0, again.stderr.read()
    for name in ("patch.toml", "pareto.csv", "evaluations.csv", "targets.csv"):
        assert (killed / name).read_text() == (whole / name).read_text(), name
    a, b = (json.loads((d / "provenance.json").read_text()) for d in (whole, killed))
    for key in ("seconds",):
        a.pop(key), b.pop(key)
    assert a == b


def test_a_second_writer_of_the_same_folder_is_refused(tmp_path):
    out = tmp_path / "busy"
    first = run_cli([*LONG, "--out", str(out)])
    deadline = time.time() + 300
    while not (out / "search.json").exists() and time.time() < deadline:
        time.sleep(0.1)
    second = run_cli([*LONG, "--out", str(out)])
    assert second.wait(timeout=120) == 2
    err = second.stderr.read()
    assert "being written by another snapsim run" in err and "Traceback" not in err
    assert first.wait(timeout=600) == 0


BAD = [
    (["--target", "seat_spread"], "write NAME=TOL"),
    (["--target", "spread=2"], "unknown target"),
    (["--target", "seat_spread=-1"], "positive number"),
    (["--target", "assignments=3"], "deals no objective card"),
    (["--target", "first_player=2", "--target", "first_player=3"], "given twice"),
    (["--edit", "tiles.fish"], "each animal has 9 tiles"),
    (["--edit", "photos.colour"], "not a field rebalancing may change"),
    (["--edit", "photos[El Capitn].points"], "did you mean El Capitan"),
    (["--edit", "knob:nope"], "unknown Yosemite rule knob"),
    (["--edit", "start_fish:±x"], "write ±N"),
    (["--players", "3"], "rebalanced at 2 players, not 3"),
    (["--players", "abc"], "players"),
    (["--games", "5"], "--games"),
    (["--games", "600", "--budget", "2"], "not both"),
    (["--candidates", "30", "--budget", "2"], "not both"),
    (["--budget", "0"], "--budget must be a positive number"),
    (["--budget", "nan"], "--budget must be a positive number"),
    (["--verify-games", "3"], "--verify-games"),
    (["--candidates", "0"], "--candidates"),
    (["--candidates", "x"], "--candidates"),
    (["--max-cost", "0"], "--max-cost"),
    (["--seed", "-1"], "--seed"),
    (["--strong", "bogus"], "bogus"),
    (["--lineups", "greedy,bogus"], "--lineups: unknown Yosemite policy 'bogus'"),
    (["--lineups", "greedy,greedy"], "given twice"),
    (["--lineups", ""], "--lineups is empty"),
    (["--lineups", "greedy", "--strong", "tuned"], "not both"),
    (["--components", "/nonexistent.toml"], "cannot open"),
    (["--threads", "0"], "--threads"),
    (["--scheduler", "nowhere"], "tcp://HOST:PORT or local:N"),
]


@pytest.mark.parametrize("extra, words", BAD, ids=[" ".join(b[0]) for b in BAD])
def test_every_bad_flag_is_one_line_and_exit_2(tmp_path, capsys, extra, words):
    args = ["rebalance", "yosemite", "--out", str(tmp_path / "o")]
    if not any(e == "--target" for e in extra):
        args += ["--target", "first_player=8"]
    if not any(e == "--edit" for e in extra):
        args += ["--edit", "start_fish"]
    rc, _, err = cli(capsys, *args, *extra)
    assert rc == 2
    assert words in one_error_line(err)
    assert not (tmp_path / "o" / "search.json").exists()


def test_a_component_file_of_another_game_is_named_as_such(tmp_path, capsys):
    from snapsim.sim.component_files import export

    path = tmp_path / "snap.toml"
    export("snapshot", path)
    rc, _, err = cli(capsys, "rebalance", "yosemite", "--target", "first_player=8", "--edit",
                     "start_fish", "--out", str(tmp_path / "o"), "--components", str(path))
    assert rc == 2 and "looks like a snapshot component file" in one_error_line(err)


def test_out_must_be_a_folder(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    rc, _, err = cli(capsys, *command(f))
    assert rc == 2 and "is a file" in one_error_line(err)
