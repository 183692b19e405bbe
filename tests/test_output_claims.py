"""What --force may replace: the files snapsim wrote into an output folder, never anything
else (sim/store's one check, shared by every writer of a folder); a rebalance's damaged
search files are one line; a one-file output's provenance is compared without the commit."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest
from cli_helpers import cli, one_error_line

from snapsim.errors import InputError
from snapsim.sim.store import (
    WRITTEN,
    check_out_free,
    claim_file,
    clear_own,
    foreign_file,
    save_table,
    staged,
)

REBALANCE = ["rebalance", "yosemite", "--target", "first_player=5", "--edit", "start_fish",
             "--games", "500", "--verify-games", "2000", "--lineups", "greedy", "--quiet"]


def _written(out, files):
    with staged(out) as stage:
        for name, text in files.items():
            (stage.path / name).parent.mkdir(parents=True, exist_ok=True)
            (stage.path / name).write_text(text)


def test_a_forced_replacement_removes_only_the_files_snapsim_wrote(tmp_path):
    out = tmp_path / "out"
    _written(out, {"report.md": "r", "sections/0-a.json": "{}", "provenance.json": "{}"})
    assert sorted(json.loads((out / WRITTEN).read_text())) == [
        "provenance.json", "report.md", "sections/0-a.json"]
    assert foreign_file(out) is None
    with pytest.raises(InputError, match="already holds another run's output; choose a new "
                                         "folder or add --force"):
        check_out_free(out)
    check_out_free(out, force=True)
    clear_own(out)
    assert [p.name for p in out.iterdir()] == []  # sections/ went with its only file


@pytest.mark.parametrize("mine", ["notes.txt", "sub/data.csv", "sections/mine.json",
                                  "src/main.py", ".env"])
def test_a_file_snapsim_did_not_write_is_refused_forced_or_not(tmp_path, mine):
    out = tmp_path / "out"
    _written(out, {"report.md": "r", "sections/0-a.json": "{}"})
    (out / mine).parent.mkdir(parents=True, exist_ok=True)
    (out / mine).write_text("mine")
    assert foreign_file(out) == mine
    for force in (False, True):
        with pytest.raises(InputError, match=f"holds '{mine}', which snapsim did not write; "
                                             "choose an empty or new folder for --out"):
            check_out_free(out, force=force)
    assert (out / mine).read_text() == "mine"


def test_a_damaged_list_never_names_a_file_outside_the_folder(tmp_path):
    out = tmp_path / "out"
    _written(out, {"report.md": "r"})
    (tmp_path / "outside.txt").write_text("mine")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.csv").write_text("mine")
    os.symlink(tmp_path / "elsewhere", out / "link")
    (out / WRITTEN).write_text(json.dumps(["report.md", "../outside.txt",
                                           str(tmp_path / "outside.txt"), "link", "link/x.csv",
                                           ".snapsim.lock", 5, ""]))
    assert foreign_file(out) is None
    clear_own(out)
    assert [p.name for p in out.iterdir()] == []  # the link itself, not what it points to
    assert (tmp_path / "outside.txt").read_text() == "mine"
    assert (tmp_path / "elsewhere" / "x.csv").read_text() == "mine"


def test_an_empty_folder_or_a_link_of_the_users_is_theirs(tmp_path):
    out = tmp_path / "out"
    _written(out, {"report.md": "r"})
    (out / "empty").mkdir()
    assert foreign_file(out) == "empty/"
    (out / "empty").rmdir()
    os.symlink(tmp_path, out / "link")
    assert foreign_file(out) == "link"


def test_a_folder_from_before_the_list_is_read_by_its_provenance(tmp_path):
    out = tmp_path / "old"
    (out / "sections").mkdir(parents=True)
    (out / "provenance.json").write_text(json.dumps({"snapsim": "0.1.0"}))
    (out / "sections" / "1-seats.json").write_text(json.dumps(
        {"key": "1-seats", "figures": ["seat_advantage"], "tables": ["seat_advantage"]}))
    for name in ("seat_advantage.png", "seat_advantage.csv", "report.md", "strategy.md",
                 "strategy_rules.csv", "fix-seat-spread.toml"):
        (out / name).write_text("x")
    assert foreign_file(out) is None
    (out / "data.csv").write_text("mine")  # named by no section: the user's
    assert foreign_file(out) == "data.csv"
    (out / "data.csv").unlink()
    clear_own(out)
    assert [p.name for p in out.iterdir()] == []
    (out / "report.md").write_text("a report.md with no provenance is the user's")
    assert foreign_file(out) == "report.md"


def test_the_strategy_guide_alone_claims_its_folder(tmp_path, capsys):
    out = tmp_path / "guide"
    guide = ["report", "yosemite", "--strategy-only", "--games", "20", "--quiet", "--out", out]
    assert cli(capsys, *guide)[0] == 0
    assert cli(capsys, *guide)[0] == 0  # the same guide again
    rc, _, err = cli(capsys, *guide[:4], "21", *guide[5:])
    assert rc == 2 and one_error_line(err).endswith(
        "holds the strategy.md of another run (games 20, not 21); choose another --out or add "
        "--force to replace it")
    assert cli(capsys, *guide[:4], "21", *guide[5:], "--force")[0] == 0
    assert "(games = 21, seed = 1)" in (out / "strategy.md").read_text()


def test_the_strategy_guide_is_not_written_into_a_comparison(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert cli(capsys, "compare", "yosemite", "--games", "10", "--variant-set",
               "start_fish=4", "--no-restricted", "--quiet", "--out", out)[0] == 0
    before = sorted(p.name for p in out.iterdir())
    rc, _, err = cli(capsys, "report", "yosemite", "--strategy-only", "--games", "20",
                     "--out", out)
    assert rc == 2 and "holds another snapsim output that is not a report; choose another " \
                       "--out or add --force" in one_error_line(err)
    assert sorted(p.name for p in out.iterdir()) == before


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished small rebalance's folder."""
    out = tmp_path_factory.mktemp("rb") / "fix"
    from snapsim.cli import main

    assert main([*map(str, REBALANCE), "--out", str(out)]) == 0
    return out


def _unfinished(finished, tmp_path):
    """A copy of the finished search marked unfinished (as if killed before its report)."""
    out = tmp_path / "fix"
    out.mkdir()
    for name in ("search.json", "evaluations.jsonl", WRITTEN):
        (out / name).write_bytes((finished / name).read_bytes())
    settings = json.loads((out / "search.json").read_text())
    settings.pop("complete")
    (out / "search.json").write_text(json.dumps(settings))
    return out, settings


@pytest.mark.parametrize("damage", ["no games", "games as text", "no plan"])
def test_a_damaged_search_file_is_one_line(finished, tmp_path, capsys, damage):
    out, settings = _unfinished(finished, tmp_path)
    if damage == "no plan":
        settings.pop("plan")
    elif damage == "no games":
        settings["plan"].pop("games")
    else:
        settings["plan"]["games"] = "many"
    (out / "search.json").write_text(json.dumps(settings))
    rc, _, err = cli(capsys, *REBALANCE, "--out", out)
    assert rc == 2 and one_error_line(err).endswith(
        f"{out / 'search.json'} is damaged (its plan is incomplete); remove the folder or "
        "choose another --out")


def test_a_journal_that_is_no_file_is_one_line(finished, tmp_path, capsys):
    out, _ = _unfinished(finished, tmp_path)
    (out / "evaluations.jsonl").unlink()
    os.symlink("/dev/zero", out / "evaluations.jsonl")
    rc, _, err = cli(capsys, *REBALANCE, "--out", out)
    assert rc == 2 and one_error_line(err).endswith(
        "evaluations.jsonl is not the search's journal (a device, not a regular file); "
        "remove it or "
        "choose another --out")
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["search.json", "evaluations.jsonl", WRITTEN])


def test_an_unfinished_search_resumes_and_a_finished_one_is_replaced_only_forced(
        finished, tmp_path, capsys):
    out, _ = _unfinished(finished, tmp_path)
    assert cli(capsys, *REBALANCE, "--out", out)[0] == 0  # resumed from its journal
    assert (out / "patch.toml").read_text() == (finished / "patch.toml").read_text()
    rc, _, err = cli(capsys, *REBALANCE, "--out", out)
    assert rc == 2 and "a finished rebalance of these settings; choose a new --out, or add " \
                       "--force" in one_error_line(err)
    assert cli(capsys, *REBALANCE, "--out", out, "--force")[0] == 0
    assert json.loads((out / "provenance.json").read_text())["commit"] == \
        json.loads((finished / "provenance.json").read_text())["commit"]


def test_a_one_file_output_from_another_commit_is_the_same_run(tmp_path):
    path = tmp_path / "x.parquet"
    df = pd.DataFrame({"game": [0]})
    df.attrs["provenance"] = {"snapsim": "0.2.0", "commit": "a" * 40, "game": "yosemite",
                              "seed": 1, "games": 1}
    save_table(df, path)
    claim_file(path, {**df.attrs["provenance"], "commit": "b" * 40})  # no refusal
    with pytest.raises(InputError, match=r"holds another run's rows \(yosemite, seed 1, 1 "
                                         r"games; snapsim \"0.2.0\", not \"0.3.0\"\); choose "
                                         r"another --out or add --force"):
        claim_file(path, {**df.attrs["provenance"], "snapsim": "0.3.0"})
    claim_file(path, {**df.attrs["provenance"], "snapsim": "0.3.0"}, force=True)  # replaced
    path.write_bytes(b"a file some other program wrote\n")
    with pytest.raises(InputError, match="never replaces it, even with --force"):
        claim_file(path, df.attrs["provenance"], force=True)


def test_export_force_replaces_only_an_unedited_export(tmp_path, capsys):
    out = tmp_path / "variant.toml"
    assert cli(capsys, "components", "export", "yosemite", "--out", out)[0] == 0
    rc, _, err = cli(capsys, "components", "export", "yosemite", "--out", out)
    assert rc == 2 and "add --force" in one_error_line(err)
    assert cli(capsys, "components", "export", "yosemite", "--out", out, "--force")[0] == 0
    edited = out.read_text().replace("\n", "\n# my note\n", 1)
    out.write_text(edited)  # the designer's work from here on
    rc, _, err = cli(capsys, "components", "export", "yosemite", "--out", out, "--force")
    assert rc == 2 and "never replaces it, even with --force" in one_error_line(err)
    assert out.read_text() == edited


def test_tuned_file_force_replaces_a_tuned_file_only(tmp_path):
    from snapsim.games.tuning import TUNED_HEADER
    from snapsim.sim.files import claim_output, starts_with

    ours = starts_with(TUNED_HEADER.encode())
    mine, theirs = tmp_path / "tuned-2p.toml", tmp_path / "notes.toml"
    mine.write_text(f"{TUNED_HEADER} yosemite --players 2`\n")
    theirs.write_text("# my own notes\n")
    assert claim_output(tmp_path / "new.toml", False, ours) is False
    assert claim_output(mine, True, ours) is True
    with pytest.raises(InputError, match="add --force"):
        claim_output(mine, False, ours)
    for force in (False, True):
        with pytest.raises(InputError, match="not a result snapsim wrote"):
            claim_output(theirs, force, ours)
