"""Component files as spreadsheets: exported as CSV or XLSX, read back to the same tables, played
by every command as the TOML file is, and every problem named by sheet, row and column."""

from __future__ import annotations

import dataclasses
import string
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import snapsim
from snapsim.errors import ComponentError, InputError
from snapsim.sim import component_files as C
from snapsim.sim import sheets
from snapsim.sim.registry import get_game
from snapsim.sim.variants import bundled_file, file_tables, load_variant, variant_text
from tests.cli_helpers import cli, one_error_line

GAMES = ("snapshot", "yosemite", "shutterbug")


def _formats():
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        return ["csv"]
    return ["csv", "xlsx"]


FORMATS = _formats()


def exported(tmp_path, game: str, fmt: str):
    return C.export(game, tmp_path / f"{game}.{fmt}")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_an_export_reads_back_to_the_bundled_tables_and_components(tmp_path, game, fmt):
    path = exported(tmp_path, game, fmt)
    bundled = file_tables(bundled_file(game))
    assert file_tables(path) == bundled
    assert sheets.content_sha256(file_tables(path)) == sheets.content_sha256(bundled)
    loaded = get_game(game).load_components(path)
    standard = get_game(game).load_components(None)
    assert dataclasses.replace(loaded, path=standard.path) == standard
    assert C.check(path).changes == []


def test_a_spreadsheet_plays_the_games_of_its_toml(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    a = snapsim.simulate("snapshot", players=3, games=30, seed=4, components=path)
    b = snapsim.simulate("snapshot", players=3, games=30, seed=4)
    cols = [c for c in a.columns if c in b.columns]
    assert a[cols].equals(b[cols])


def _edit_csv(path, first_cell: str, column: int, value: str) -> int:
    """Set one cell of the CSV row that starts with `first_cell`; its line number."""
    import csv

    rows = list(csv.reader(path.read_text().splitlines()))
    line = next(i for i, r in enumerate(rows) if r and r[0] == first_cell)
    rows[line][column] = value
    with path.open("w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)
    return line + 1


def test_an_edited_cell_is_a_difference_and_changes_the_card(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    _edit_csv(path, "atlantic puffin", 3, "5")
    assert C.check(path).changes == ["atlantic puffin: prestige 2 → 5"]
    comps = get_game("snapshot").load_components(path)
    assert comps.animals[comps.card_index("atlantic puffin")].prestige == 5


def test_a_bad_value_names_the_sheet_row_and_column(tmp_path, capsys):
    path = exported(tmp_path, "snapshot", "csv")
    row = _edit_csv(path, "atlantic puffin", 3, "-1")
    rc, _, err = cli(capsys, "components", "check", path)
    assert rc == 2
    assert one_error_line(err) == (
        f"snapsim: error: snapshot.csv: sheet animals, row {row}, column D (prestige): "
        "animal 'atlantic puffin': prestige must be a whole number from 0 to 1000, got -1")


def test_a_bad_single_value_names_its_row_on_the_values_sheet(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    row = _edit_csv(path, "awards.generalist", 1, "[1, 5, 3]")
    with pytest.raises(ComponentError) as exc:
        get_game("snapshot").load_components(path)
    assert str(exc.value) == (
        f"snapshot.csv: sheet values, row {row}, column B (value): awards.generalist: stack "
        "[1, 5, 3] must be strictly descending (1st place first)")


def test_a_cell_that_is_no_list_is_named_before_any_check(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    row = _edit_csv(path, "Live Fast", 3, "[0, 1, 3")
    with pytest.raises(ComponentError, match=rf"^snapshot.csv: sheet assignments, row {row}, "
                                             r"column D \(chart\): '\[0, 1, 3' starts like"):
        get_game("snapshot").load_components(path)


def test_a_list_of_plain_names_needs_no_quotes(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    _edit_csv(path, "Live Fast", 1, "[meerkat, pika]")
    assert C.check(path).changes == ["Live Fast: cover ['pika', 'meerkat'] → "
                                     "['meerkat', 'pika']"]


@pytest.mark.skipif("xlsx" not in FORMATS, reason="openpyxl is not installed")
def test_an_xlsx_problem_names_the_worksheet_row_and_column(tmp_path):
    import openpyxl

    path = exported(tmp_path, "yosemite", "xlsx")
    book = openpyxl.load_workbook(path)
    ws = book["photos"]
    header = [c.value for c in ws[1]]
    ws.cell(row=4, column=header.index("points") + 1, value="many")
    book.save(path)
    name = ws.cell(row=4, column=header.index("name") + 1).value
    col = sheets.column_letter(header.index("points"))
    with pytest.raises(ComponentError) as exc:
        get_game("yosemite").load_components(path)
    assert str(exc.value).startswith(f"yosemite.xlsx: sheet photos, row 4, column {col} "
                                     f"(points): photo {name!r}: points")


def test_a_workbook_that_unpacks_past_any_component_file_is_refused_unread(tmp_path,
                                                                          monkeypatch):
    """A zip bomb is refused by its parts' stated sizes (what zipfile will read at most), a
    sheet of endless rows by its count, each before the workbook is read whole."""
    import openpyxl

    path = exported(tmp_path, "yosemite", "xlsx")
    monkeypatch.setattr(sheets, "XLSX_UNPACKED", sheets._unpacked(path.read_bytes()) - 1)
    with pytest.raises(ComponentError, match="unpacks to more than"):
        get_game("yosemite").load_components(path)
    monkeypatch.undo()
    book = openpyxl.load_workbook(path)
    rows = book["photos"].max_row
    monkeypatch.setattr(sheets, "MAX_ROWS", rows - 1)
    with pytest.raises(ComponentError, match=f"sheet photos: more than {rows - 1:,} rows"):
        get_game("yosemite").load_components(path)


def test_a_csv_without_a_sheet_line_says_how_it_starts(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    path.write_text("name,habitat\nfox,Mountain\n")
    rc, _, err = cli(capsys, "components", "check", path, "--game", "snapshot")
    assert rc == 2 and "mine.csv: row 1: a component CSV starts with a line naming its " \
        "first sheet" in one_error_line(err)


def test_a_repeated_key_on_the_values_sheet_names_both_rows(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    text = path.read_text().replace("raccoon.prestige,2\n", "raccoon.prestige,2\n"
                                                            "raccoon.prestige,3\n")
    path.write_text(text)
    line = text.splitlines().index("raccoon.prestige,3") + 1
    with pytest.raises(ComponentError, match=rf"sheet values, row {line}, column A \(key\): "
                                             rf"raccoon.prestige repeats or overlaps the key on "
                                             rf"row {line - 1}"):
        file_tables(path)


@pytest.mark.parametrize("fmt, out, words", [
    ("csv", "mine.toml", "--out mine.toml does not end in .csv"),
    ("toml", "mine.xlsx", "--out mine.xlsx does not end in .toml"),
    ("xlsx", None, "add --out FILE.xlsx"),
])
def test_export_refuses_a_format_its_file_name_would_not_read_as(tmp_path, capsys, fmt, out,
                                                                 words):
    argv = ["components", "export", "snapshot", "--format", fmt]
    argv += ["--out", tmp_path / out] if out else []
    rc, _, err = cli(capsys, *argv)
    assert rc == 2 and words in one_error_line(err)


def test_export_format_defaults_to_the_files_suffix(tmp_path, capsys):
    rc, out, _ = cli(capsys, "components", "export", "yosemite", "--out", tmp_path / "y.csv")
    assert rc == 0 and (tmp_path / "y.csv").read_bytes() == sheets.csv_bytes(
        file_tables(bundled_file("yosemite")))
    rc, out, _ = cli(capsys, "components", "export", "yosemite", "--format", "csv")
    assert out.splitlines()[0] == "[tiles]"


def test_a_spreadsheets_knobs_are_played(tmp_path):
    tables = {**file_tables(bundled_file("snapshot")),
              "knobs": {"photo_target": 8, "players": {"4": {"start_tokens": [3, 3, 3, 3]}}}}
    path = tmp_path / "knobs.csv"
    path.write_bytes(sheets.csv_bytes(tables))
    variant = load_variant("snapshot", path)
    assert variant.knobs.common == {"photo_target": 8}
    assert variant.knobs.by_players == {4: {"start_tokens": (3, 3, 3, 3)}}


def test_a_patch_of_a_spreadsheet_is_toml_of_its_tables(tmp_path):
    path = exported(tmp_path, "snapshot", "csv")
    text = variant_text(path, [(("raccoon", "prestige"), 4, "was 2")], load_variant(
        "snapshot", path).knobs)
    patched = tomllib.loads(text)
    assert patched == {**file_tables(path),
                       "raccoon": {**file_tables(path)["raccoon"], "prestige": 4}}


_TEXT = st.text(alphabet=string.printable.strip() + " éü", max_size=12)
_SCALAR = st.one_of(st.integers(-10**6, 10**6), st.booleans(), _TEXT,
                    st.floats(allow_nan=False, width=32))
_VALUE = st.one_of(_SCALAR, st.lists(_SCALAR, max_size=4),
                   st.lists(st.lists(st.one_of(_TEXT, st.integers(0, 9)), max_size=3),
                            max_size=3))


@given(_VALUE)
def test_every_value_a_cell_holds_reads_back_unchanged(value):
    assert sheets.cell_value(sheets.cell_text(value)) == value
    assert sheets.cell_value(str(sheets.cell_text(value)).lower()
                             if isinstance(value, bool) else str(sheets.cell_text(value))) \
        == value


def test_tables_round_trip_through_csv_text_whatever_their_names(tmp_path):
    tables = {"things": [{"name": "12", "note": "true"}, {"name": "a, \"b\"", "list": [1, "x"]}],
              "top": {"odd key": {"x.y": ""}}, "scalar": "[not a list"}
    path = tmp_path / "t.csv"
    path.write_bytes(sheets.csv_bytes(tables))
    assert sheets.read_tables(path) == tables
    assert path.read_text().splitlines()[:2] == ["[things]", "name,note,list"]


def test_an_unknown_format_is_refused():
    with pytest.raises(InputError, match="unknown format 'ods'; choose toml, csv, xlsx"):
        sheets.file_bytes({}, "ods")
