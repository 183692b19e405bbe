"""The workbench's pages, each driven headless (streamlit.testing.v1.AppTest) at a tiny n:
they skip when the optional extra snapsim[app] is not installed."""

from __future__ import annotations

import io
import time

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
pytest.importorskip("openpyxl")

from streamlit.testing.v1 import AppTest  # noqa: E402

from snapsim.app import MAIN  # noqa: E402
from snapsim.app.common import OUT_ENV  # noqa: E402
from snapsim.odds import explore_success, photo_success  # noqa: E402

TIMEOUT = 240  # seconds for one script run: a first run compiles the kernels


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app on a page, writing its runs under tmp_path."""
    monkeypatch.setenv(OUT_ENV, str(tmp_path / "out"))

    def open_page(page: str) -> AppTest:
        at = AppTest.from_file(str(MAIN), default_timeout=TIMEOUT)
        at.run()
        at.sidebar.radio(key="page").set_value(page).run()
        assert not at.exception, at.exception
        return at
    return open_page


def test_odds_gives_the_exact_photo_and_explore_odds(app):
    at = app("Odds")
    at.slider(key="od-dice").set_value(2).run()
    at.slider(key="od-tokens").set_value(2).run()
    table = at.dataframe[0].value
    row = table[table.difficulty == 8].iloc[0]
    assert row["P(success)"] == pytest.approx(photo_success(2, 2, 8), abs=0)
    at.slider(key="od-rerolls").set_value(3).run()
    explore = at.dataframe[1].value
    assert list(explore["P(success)"]) == [explore_success(1, 5, r) for r in range(4)]


def test_odds_gives_the_spook_table_of_snapshot_odds_spook(app, capsys):
    from snapsim.cli import main

    at = app("Odds")
    assert [at.selectbox(key=f"od-top-{h}").value for h in range(4)] == [4, 0, 7, 0]
    at.selectbox(key="od-top-0").set_value(5).run()
    at.slider(key="od-slots").set_value(2).run()
    shown = next(d.value for d in at.dataframe
                 if "successful draws before the spook" in d.value)
    main(["odds", "spook", "--top", "shoreline=5", "--top", "mountain=7", "--raccoon",
          "--reserve-slots", "2", "--format", "csv"])
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert printed.columns.tolist() == ["draws_before_spook", "p_no_reserve",
                                        "p_2_reserve_slots"]
    assert shown.columns.tolist() == ["successful draws before the spook", "P(no reserve)",
                                      "P(2 reserve slots)"]
    assert np.allclose(shown.to_numpy(float), printed.to_numpy(float), rtol=0, atol=1e-12)


def test_balance_gives_the_verdict_of_each_player_count(app):
    at = app("Balance")
    at.multiselect(key="bal-counts").set_value([3]).run()
    at.number_input(key="bal-games").set_value(40).run()
    at.button(key="bal-run").click().run()
    assert not at.exception, at.exception
    lines = [e.value for e in (*at.error, *at.success, *at.warning)]
    assert any(line.startswith("3 players, greedy play: ") and "40 games" in line
               for line in lines), lines
    assert at.subheader[0].value == "Is Snapshot balanced?"


def test_balance_shows_its_tables_in_the_reports_words_and_rounding(app):
    """Headings in words with units, each value with its interval at the report's rounding
    (the interval's half-width to two significant digits: whole points at 40 games)."""
    from snapsim.app import jobs

    at = app("Balance")
    at.multiselect(key="bal-counts").set_value([3]).run()
    at.number_input(key="bal-games").set_value(40).run()
    at.button(key="bal-run").click().run()
    assert not at.exception, at.exception
    spread, *_, seats = (d.value for d in at.dataframe)
    assert spread.columns.tolist() == [
        "players", "line-up", "seat spread (pp) [interval]", "interval level",
        "tolerance (pp)", "class (against the tolerance) (class)", "games", "games to settle"]
    verdict, raw = next(j.result for j in jobs._JOBS.values()
                        if j.label == "balance" and j.result is not None
                        and j.result[0].rows.games.iloc[0] == 40)
    claim = verdict.table().iloc[0]
    row = spread.iloc[0]
    assert (row["interval level"], row["tolerance (pp)"], row["games"]) == ("99.62%", "0 to 2",
                                                                            "40")
    assert row["seat spread (pp) [interval]"] == (
        f"{claim.value:.0f} [{claim.ci_low:.0f}, {claim.ci_high:.0f}]")
    assert seats.columns.tolist() == ["players", "seat", "games", "win rate (%) [95% CI]",
                                      "mean score", "mean photos"]
    for shown, r in zip(seats["win rate (%) [95% CI]"], raw[3].itertuples(), strict=True):
        assert shown == f"{100 * r.win_rate:.0f} [{100 * r.ci_low:.0f}, {100 * r.ci_high:.0f}]"


def test_balance_asks_for_an_upload_before_it_runs(app):
    at = app("Balance")
    at.radio(key="bal-src").set_value("upload").run()
    assert not at.exception
    assert at.info[0].value.startswith("Upload a component file")
    assert [b.key for b in at.button] == []  # nothing runs without a file


@pytest.mark.parametrize("name, data, words", [
    ("notes.csv", b"hello,world\n", "notes.csv: row 1: a component CSV starts with a line"),
    ("cards.xlsx", b"not a workbook", "cards.xlsx: file: not an .xlsx workbook"),
    ("cards.toml", b"[[animals]]\nname = 1\n", "cards.toml: "),
])
def test_an_upload_that_is_no_component_file_gets_the_validators_message(app, name, data,
                                                                         words):
    from snapsim.app.common import check_upload

    path, said = check_upload(name, data, "snapshot")
    assert path is None and said.startswith(words) and "\n" not in said


def test_an_uploaded_export_is_kept_and_checked(tmp_path, monkeypatch):
    from snapsim.app.common import check_upload

    monkeypatch.setenv(OUT_ENV, str(tmp_path))
    from snapsim.sim.component_files import export_bytes

    path, said = check_upload("mine.csv", export_bytes("snapshot", "csv"), "snapshot")
    assert path.name == "mine.csv"
    assert said.splitlines()[-1] == "identical to the standard set"



def _grid_key(sheet: str) -> str:
    from snapsim.app.common import sha_of

    return f"ed-snapshot-{sha_of(None, 'snapshot')}-{sheet}"


def _edit(at: AppTest, sheet: str, row: int, column: str, text: str) -> AppTest:
    """Type `text` into one cell of a grid (the data editor's own record of edits)."""
    at.session_state[_grid_key(sheet)] = {"edited_rows": {row: {column: text}},
                                          "added_rows": [], "deleted_rows": []}
    return at.run()


def test_edit_names_a_bad_cell_and_runs_nothing(app):
    at = _edit(app("Edit and compare"), "animals", 2, "prestige", "-1")
    assert not at.exception, at.exception
    assert at.error[0].value.startswith(
        "Not a valid snapshot file, nothing runs until it is fixed: variant.xlsx: sheet "
        "animals, row 4, column D (prestige): animal ")
    assert "ed-compare" not in [b.key for b in at.button]


def test_edit_compares_a_changed_value_with_the_standard_game(app, tmp_path):
    at = _edit(app("Edit and compare"), "animals", 2, "prestige", "9")
    assert not at.exception, at.exception
    assert at.code[0].value.endswith("prestige 2 → 9")
    at.number_input(key="ed-games").set_value(40).run()
    at.button(key="ed-compare").click().run()
    assert not at.exception, at.exception
    summary = at.code[1].value
    assert summary.startswith("snapshot: 1 variant(s) against standard, 40 paired games per "
                              "side and player count, seed 1")
    assert "variant changes: atlantic puffin: prestige 2 → 9" in summary
    assert "is variant better balanced at 4 players? " in summary
    assert "is being written with what `snapsim compare snapshot" in at.caption[-1].value \
        or "holds what" in at.caption[-1].value
    # the folder is written after the verdict is shown, by a process at the lowest CPU
    # priority (app/writer.py), so it waits while every core is busy with other work
    for _ in range(1200):
        out = next((tmp_path / "out").glob("compare-snapshot-*/provenance.json"), None)
        if out is not None:
            break
        time.sleep(0.5)
    assert {"index.html", "report.md"} <= {p.name for p in out.parent.iterdir()}


def test_play_rates_each_move_saves_the_position_and_plays_a_move(app, tmp_path):
    from snapsim import play as P
    from snapsim.app.play import HINT_ROLLOUTS

    at = app("Play")
    assert not at.exception, at.exception
    moves = [b for b in at.button if (b.key or "").startswith("pl-move-")]
    rated = next(d.value for d in at.dataframe if "win chance" in d.value)
    assert list(rated.columns) == ["move no.", "move", "win chance", "95% interval",
                                   "rollouts"]
    assert sorted(rated["move no."]) == list(range(1, len(moves) + 1))
    assert rated["win chance"].between(0, 1).all() and (rated.rollouts == HINT_ROLLOUTS).all()
    habitats = next(d.value for d in at.dataframe if "Shoreline" in d.value)
    assert list(habitats.columns) == ["Shoreline", "Savannah", "Mountain", "Rainforest"]
    session = at.session_state["pl-session"]
    before = len(session.moves)
    moves[0].click().run()
    assert not at.exception, at.exception
    assert len(session.moves) > before
    saved = P.load(next((tmp_path / "out" / "play").glob("snapshot-*.json")))
    assert saved.moves == session.moves  # the file `snapsim play --load` continues


def test_a_park_is_drawn_as_a_grid_and_per_seat_lists_are_not():
    from snapsim import play as P
    from snapsim.app.play import table_frames

    session = P.new_session("yosemite", 2, 1, "greedy", 3)
    seen = session.game.observation(0)
    frames = table_frames(seen, 2)
    assert list(frames) == ["park"]
    assert frames["park"].shape == (5, 5) and list(frames["park"].index) == list("abcde")
    assert frames["park"].loc["a", "1"] == seen["park"][0][0]
    assert table_frames({"portfolios": [["a", "b"], ["c", "d"]]}, 2) == {}


@pytest.mark.slow
def test_a_rebalanced_patch_opened_in_edit_compares_as_the_command_line_does(app, tmp_path,
                                                                             capsys):
    """The designer's round trip: rebalance at a tiny budget, open the patch in Edit,
    compare; `snapsim compare --variant patch.toml` on the downloaded patch says the same."""
    from snapsim.cli import main

    at = app("Rebalance")
    at.selectbox(key="rb-players").set_value(3).run()  # a budget that finds a patch
    at.number_input(key="rb-cands").set_value(4).run()
    at.number_input(key="rb-games").set_value(200).run()
    at.checkbox(key="rb-strong").uncheck().run()
    at.button(key="rb-run").click().run()
    assert not at.exception, at.exception
    assert at.code[0].value.startswith("rebalance snapshot (3 players): targets seat_spread=2")
    patch = next((tmp_path / "out").glob("rebalance-snapshot-*")) / "patch.toml"
    at.button(key="rb-open").click().run()
    assert not at.exception, at.exception
    assert at.session_state["page"] == "Edit and compare"
    opened = at.session_state["ed-start"]["snapshot"]
    assert opened.read_bytes() == patch.read_bytes()  # the file the download button gives
    at.selectbox(key="ed-players").set_value(3).run()
    at.number_input(key="ed-games").set_value(40).run()
    at.button(key="ed-compare").click().run()
    assert not at.exception, at.exception
    def verdicts(text: str) -> list[str]:  # the side's label is the file's name: not compared
        return [line.split(" better balanced ", 1)[1] for line in text.splitlines()
                if " better balanced " in line]

    in_app = verdicts(at.code[-1].value)
    capsys.readouterr()
    assert main(["compare", "snapshot", "--variant", str(patch), "--players", "3",
                 "--games", "40", "--seed", "1", "--out", str(tmp_path / "cli")]) == 0
    printed = verdicts(capsys.readouterr().out)
    assert in_app and in_app == printed


@pytest.mark.parametrize("game, players", [("snapshot", 4), ("yosemite", 2), ("shutterbug", 3)])
def test_the_edit_page_loads_each_games_kernels_before_the_first_compare(game, players):
    from snapsim.app.edit import warm
    from snapsim.app.jobs import Job

    assert warm(game, players)(Job("warm", "loading the kernels")) is True
