"""`snapsim play`: a seat at the terminal driven by scripted input, end to end for every game
(hints, a bad entry, save, load, auto, final scores); a saved game continues exactly as the
uninterrupted one; Ctrl-C offers to save; bad settings are one line and exit code 2."""

from __future__ import annotations

import io
import json

import pytest
from cli_helpers import cli, one_error_line

from snapsim.play import load, new_session, play, view

GAMES = ("yosemite", "shutterbug", "snapshot")


def script(*lines):
    """A `read` that answers the prompts with `lines`, then ends the input."""
    answers = iter(lines)

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return read


def played(session, *lines):
    out = []
    rc = play(session, read=script(*lines), write=out.append)
    return rc, "\n".join(out)


@pytest.mark.parametrize("game", GAMES)
def test_cli_game_with_hints_bad_entry_save_then_load_to_the_end(game, tmp_path, capsys,
                                                                 monkeypatch):
    saved = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("fly\n0\nhints\n1\nquit\n\n"))
    rc, out, err = cli(capsys, "play", game, "--players", 2, "--hints", "--seed", 3, "--save",
                       saved)
    assert rc == 0, err
    assert "--- you are P1 ---" in out and "hints:" in out
    assert "'fly' is not a move here: type the number of a move" in out
    assert "'0' is not a move here" in out
    assert f"saved to {saved}; continue with: snapsim play {game} --load {saved}" in out
    assert json.loads(saved.read_text())["game"] == game

    monkeypatch.setattr("sys.stdin", io.StringIO("1\nauto\n"))
    rc, out, err = cli(capsys, "play", game, "--load", saved)
    assert rc == 0, err
    assert "greedy plays P1 from here" in out
    assert "game over" in out and "you were P1" in out
    header, *rows, last = out.rstrip().splitlines()[-4:]
    assert header.split()[0] == "seat" and header.split()[-1] == "won"
    assert [r.split()[0] for r in rows] == ["0", "1"]
    assert sum(float(r.split()[-1]) for r in rows) == 1.0  # the win shares


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_game_continues_exactly_as_the_uninterrupted_one(game, tmp_path):
    moves = ["1", "2", "1", "1"]
    whole = new_session(game, 2, seat=2, seed=8)
    rc, _ = played(whole, *moves, "auto")
    assert rc == 0 and whole.game.is_terminal

    first = new_session(game, 2, seat=2, seed=8)
    rc, out = played(first, *moves[:2], "quit", str(tmp_path / "g.json"))
    assert rc == 0 and not first.game.is_terminal
    resumed = load(tmp_path / "g.json")
    assert resumed.game.serialize() == first.game.serialize()
    rc, _ = played(resumed, *moves[2:], "auto")
    assert resumed.game.log == whole.game.log
    assert resumed.game.scores().equals(whole.game.scores())


def test_ctrl_c_offers_to_save_and_saves(tmp_path):
    session = new_session("yosemite", seed=1)

    def read(prompt):
        if prompt.startswith("save"):
            return str(tmp_path / "interrupted.json")
        raise KeyboardInterrupt

    out = []
    assert play(session, read=read, write=out.append) == 130
    assert out[-1].startswith(f"saved to {tmp_path / 'interrupted.json'}")
    assert load(tmp_path / "interrupted.json").game.serialize() == session.game.serialize()


def test_end_of_input_without_save_file_quits_unsaved():
    rc, out = played(new_session("shutterbug", 2, seed=2))
    assert rc == 0 and out.endswith("not saved")


def test_the_view_is_the_seats_observation():
    session = new_session("yosemite", seat=2, seed=4)
    text = view(session)
    obs = session.game.observation(1)
    assert text.splitlines()[0] == "--- you are P2 ---"
    hand = "; ".join(f"{k}: {v}" for k, v in obs["hand"].items())
    assert f"  hand: {hand}" in text.splitlines()
    assert f"  opponent hand size: {obs['opponent_hand_size']}" in text.splitlines()


@pytest.mark.parametrize("argv, message", [
    (["yosemite", "--seat", "3"], "--seat must be 1-2 for 2 players, got 3"),
    (["shutterbug", "--players", "3", "--opponents", "greedy,greedy,greedy"],
     "--opponents: give one policy for all or 2 (one per other seat), got 3"),
    (["yosemite", "--opponents", "search"], "the search opponent plays Snapshot only"),
    (["yosemite", "--opponents", "sleepy"], "unknown Yosemite policy 'sleepy'"),
    (["yosemite", "--load", "missing.json"], "--load missing.json: cannot read it"),
    (["yosemite", "--save", "a.json", "--load", "b.json"], "not allowed with argument"),
])
def test_bad_settings_are_one_line_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    rc, _, err = cli(capsys, "play", *argv)
    assert rc == 2
    assert message in one_error_line(err)


def test_a_file_that_is_not_a_saved_game_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"snapsim_play": 1, "game": "yosemite"}')
    rc, _, err = cli(capsys, "play", "yosemite", "--load", bad)
    assert rc == 2
    assert f"--load {bad}: not a saved snapsim game" in one_error_line(err)
