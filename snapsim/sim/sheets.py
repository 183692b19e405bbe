"""Component files as spreadsheets: the same tables as a TOML component file, laid out as
sheets a designer edits in a spreadsheet program, read back exactly.

Each list of entries (``[[animals]]``, ``assignments = [{...}]``) is one sheet: a header row of
field names, one row per entry, a blank cell for a field the entry leaves out. Everything else
(single tables such as ``[raccoon]``, lists of names, rule ``[knobs]``) is one row each on the
sheet ``values``: its TOML key (``raccoon.prestige``, ``knobs.players.4.start_tokens``) and its
value. A cell holds a number, true/false, plain text, or a TOML value for what a cell cannot
hold otherwise: a list (``[0, 1, 3, 6]``) or text that would read as something else (``"12"``).
An .xlsx workbook holds the sheets by name; a .csv file holds them one after another, each
after a line ``[NAME]``.

Reading names the sheet, row and column of what is wrong, both for a cell that cannot be read
and for a problem the game's validator finds later (`Places.locate`).
"""

from __future__ import annotations

import ast
import csv
import hashlib
import io
import json
import re
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ComponentError, InputError
from .files import parse_toml, read_bytes

SHEET_SUFFIXES = (".csv", ".xlsx")
FORMATS = ("toml", "csv", "xlsx")
VALUES = "values"  # the sheet of single values: key, value
VALUE_HEADER = ("key", "value")
# An exported workbook unpacks to well under a megabyte and its longest sheet has a few hundred
# rows: far past either is no component file (a zip bomb would unpack to gigabytes).
XLSX_UNPACKED = 64 * 2**20
MAX_ROWS = 100_000
XLSX_HINT = "pip install 'snapsim[xlsx]' (openpyxl) to read and write .xlsx files"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_MARKER = re.compile(r"\[([^\[\]]+)\]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_sheet(path) -> bool:
    """Whether a component file is a spreadsheet (by its suffix)."""
    return Path(path).suffix.lower() in SHEET_SUFFIXES


def column_letter(i: int) -> str:
    """A 0-based column index as a spreadsheet names it: 0 -> A, 26 -> AA."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


# ---------------------------------------------------------------- cells


def _toml_value(text: str):
    return parse_toml(f"v = {text}")["v"]  # bounded nesting, as every TOML snapsim reads


def cell_value(cell):
    """What a cell holds: numbers and true/false as they are, text read as a TOML value where
    it is one (``3``, ``[1, 2]``, ``"12"``), a list of plain names without quotes
    (``[pika, meerkat]``), else as the text itself. A cell that starts like a list, a table or
    quoted text but is none of these is a ValueError."""
    if not isinstance(cell, str):
        return cell
    try:
        return _toml_value(cell)
    except tomllib.TOMLDecodeError:
        flat = re.fullmatch(r"\s*\[([^\[\]{}\"']*)\]\s*", cell)
        if flat:  # [Snow Leopard, bird]: a list of plain names, as people type it
            return [cell_value(item.strip()) for item in flat[1].split(",") if item.strip()]
        if cell.lstrip()[:1] in ("[", "{", '"', "'"):
            raise ValueError(f"{cell!r} starts like a TOML list, table or quoted text but "
                             "is not one; write e.g. [0, 1, 3] or \"text\"") from None
        return cell


def _toml(value) -> str:
    """A value in TOML inline syntax (a table inline, keys quoted where TOML needs it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(value), repr(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key_text((str(k),))} = {_toml(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return value.isoformat()  # a TOML date or time


def cell_text(value) -> str | int | float | bool:
    """A value as a cell holds it so that `cell_value` reads it back unchanged."""
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        try:
            same = cell_value(value) == value
        except ValueError:
            same = False
        return value if same and value else _toml(value)
    return _toml(value)


def _key_text(path: tuple) -> str:
    return ".".join(p if _BARE_KEY.fullmatch(p) else json.dumps(p) for p in path)


# ---------------------------------------------------------------- tables -> sheets


def _entries(value) -> bool:
    """A list of tables: one sheet, one row per entry."""
    return isinstance(value, list) and bool(value) and all(isinstance(x, dict) for x in value)


def _leaves(value, path: tuple, out: list) -> None:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _leaves(item, (*path, str(key)), out)
    else:
        out.append((path, value))


def to_sheets(tables: dict) -> dict[str, list[list]]:
    """A component file's tables as sheets of rows (header first), cells as `cell_text`."""
    sheets: dict[str, list[list]] = {}
    leaves: list = []
    for key, value in tables.items():
        if _entries(value):
            if key == VALUES:
                raise InputError(f"a list of entries named {VALUES!r} cannot be a sheet: the "
                                 "sheet of single values has that name")
            header = list(dict.fromkeys(k for entry in value for k in entry))
            sheets[key] = [header] + [[cell_text(e[h]) if h in e else "" for h in header]
                                      for e in value]
        else:
            _leaves(value, (key,), leaves)
    if leaves:
        sheets[VALUES] = [list(VALUE_HEADER)] + [[_key_text(p), cell_text(v)] for p, v in leaves]
    return sheets


def csv_bytes(tables: dict) -> bytes:
    """The tables as one CSV file: each sheet after a line [NAME], a blank line between."""
    return sheets_csv(to_sheets(tables))


def sheets_csv(sheets: dict[str, list[list]]) -> bytes:
    """Sheets of rows (as `to_sheets` gives, or edited) as one CSV file."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for i, (name, rows) in enumerate(sheets.items()):
        if i:
            writer.writerow([])
        writer.writerow([f"[{name}]"])
        writer.writerows([_csv_cell(c) for c in row] for row in rows)
    return buf.getvalue().encode("utf-8")


def _csv_cell(cell) -> str:
    return str(cell).lower() if isinstance(cell, bool) else str(cell)


def _openpyxl():
    try:
        import openpyxl
    except ImportError:
        raise InputError(XLSX_HINT) from None
    return openpyxl


def xlsx_bytes(tables: dict) -> bytes:
    """The tables as an .xlsx workbook, one worksheet per sheet, the header row bold."""
    return sheets_xlsx(to_sheets(tables))


def sheets_xlsx(sheets: dict[str, list[list]]) -> bytes:
    """Sheets of rows (as `to_sheets` gives, or edited) as an .xlsx workbook."""
    openpyxl = _openpyxl()
    book = openpyxl.Workbook()
    book.remove(book.active)
    bold = openpyxl.styles.Font(bold=True)
    for name, rows in sheets.items():
        ws = book.create_sheet(name)
        for row in rows:
            ws.append(row)
        for cell in ws[1]:
            cell.font = bold
        ws.freeze_panes = "A2"
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def toml_bytes(tables: dict, header=()) -> bytes:
    """The tables as a TOML component file, `header` as comment lines on top."""
    import tomlkit

    text = "".join(f"# {line}\n" for line in header) + ("\n" if header else "")
    return (text + tomlkit.dumps(tables)).encode("utf-8")


def file_bytes(tables: dict, fmt: str, header=()) -> bytes:
    """The tables as a component file in `fmt` (toml, csv or xlsx)."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; choose {', '.join(FORMATS)}")
    if fmt == "toml":
        return toml_bytes(tables, header)
    return csv_bytes(tables) if fmt == "csv" else xlsx_bytes(tables)


def content_sha256(tables: dict) -> str:
    """SHA-256 of a component file's content, whatever its format: the same tables give the
    same digest as TOML, CSV or XLSX (comments and layout are not content)."""
    text = json.dumps(tables, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- sheets -> tables


@dataclass
class Sheet:
    """One sheet as read: its rows (each with its row number in the file) and header."""

    name: str
    rows: list[tuple[int, list]] = field(default_factory=list)


@dataclass
class Places:
    """Where each part of the tables came from, to name the cell of a validator's message."""

    file: str
    entries: dict[str, list[tuple[int, dict, dict]]] = field(default_factory=dict)
    values: list[tuple[tuple, int]] = field(default_factory=list)

    def locate(self, entry: str, problem: str) -> str:
        """"sheet animals, row 5, column D (prestige)" for a validator's ENTRY: PROBLEM, as
        near as the entry's label and the field named in the problem tell; "" when they name
        no cell."""
        found = self._entry(entry)
        if found is not None:
            sheet, (row, raw, columns) = found
            hit = _first_named(problem, columns)
            col = f", column {column_letter(columns[hit])} ({hit})" if hit else ""
            return f"sheet {sheet}, row {row}{col}"
        prefix = tuple(entry.split("."))
        rows = [(p, r) for p, r in self.values if p[:len(prefix)] == prefix]
        if rows:
            named = {p[-1]: r for p, r in rows}
            hit = _first_named(problem, named)
            if hit or len(rows) == 1:
                row = named[hit] if hit else rows[0][1]
                return f"sheet {VALUES}, row {row}, column B (value)"
            return f"sheet {VALUES}, rows {rows[0][1]}-{rows[-1][1]}"
        if entry in self.entries:
            return f"sheet {entry}"
        return ""

    def _entry(self, label: str):
        m = re.fullmatch(r"([\w.]+)\[(\d+)\]", label)
        if m:
            for sheet in (m[1], m[1] + "s"):
                rows = self.entries.get(sheet, [])
                if int(m[2]) < len(rows):
                    return sheet, rows[int(m[2])]
            return None
        m = re.fullmatch(r"(\w+) ('.*'|\".*\")", label)
        if not m:
            return None
        try:
            name = ast.literal_eval(m[2])
        except (ValueError, SyntaxError):
            return None
        for sheet in (m[1], m[1] + "s"):
            for place in self.entries.get(sheet, []):
                if name in (place[1].get(k) for k in ("name", "animal", "space")):
                    return sheet, place
        return None


def _first_named(problem: str, names) -> str | None:
    """The first of `names` the problem text names as a word."""
    for word in _WORD.findall(problem):
        if word in names:
            return word
    return None


def _csv_sheets(data: bytes, name: str) -> list[Sheet]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ComponentError(f"{name}: file: is not UTF-8 text; save the CSV as UTF-8"
                             ) from None
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    sheets: list[Sheet] = []
    for number, row in enumerate(csv.reader(io.StringIO(text), dialect), start=1):
        cells = [c for c in row]
        filled = [c for c in cells if c.strip()]
        marker = _MARKER.fullmatch(cells[0].strip()) if len(filled) == 1 else None
        if marker is not None and cells[0].strip():
            sheets.append(Sheet(marker[1].strip()))
        elif filled:
            if not sheets:
                raise ComponentError(f"{name}: row {number}: a component CSV starts with a "
                                     "line naming its first sheet, e.g. [animals]; start from "
                                     "snapsim components export GAME --format csv")
            sheets[-1].rows.append((number, cells))
    return sheets


def _unpacked(data: bytes) -> int:
    """What a workbook's parts unpack to, by their headers (zipfile reads no part past its
    stated size, so the sum bounds what openpyxl will read); 0 when it is no zip at all."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            return sum(part.file_size for part in book.infolist())
    except (zipfile.BadZipFile, ValueError, OSError):
        return 0  # openpyxl then names what it is not


def _xlsx_sheets(data: bytes, name: str) -> list[Sheet]:
    openpyxl = _openpyxl()
    if _unpacked(data) > XLSX_UNPACKED:
        raise ComponentError(f"{name}: file: unpacks to more than {XLSX_UNPACKED // 2**20} MB, "
                             "far more than any component workbook; save the component sheets "
                             "alone")
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # a damaged or foreign file: openpyxl raises many kinds
        raise ComponentError(f"{name}: file: not an .xlsx workbook ({type(exc).__name__}); "
                             "save it from a spreadsheet program as .xlsx") from None
    sheets = []
    for ws in book.worksheets:
        sheet = Sheet(ws.title)
        for number, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if number > MAX_ROWS:
                raise ComponentError(f"{name}: sheet {ws.title}: more than {MAX_ROWS:,} rows, "
                                     "far more than any component list; save the component "
                                     "sheets alone")
            cells = ["" if c is None else c for c in row]
            if any(c != "" and not (isinstance(c, str) and not c.strip()) for c in cells):
                sheet.rows.append((number, cells))
        sheets.append(sheet)
    book.close()
    return sheets


def read_sheets(path) -> tuple[dict, Places]:
    """A spreadsheet component file's tables, and where each part came from. A cell that
    cannot be read is a ComponentError naming the sheet, row and column."""
    path = Path(path)
    data = read_bytes(path)
    read = _xlsx_sheets if path.suffix.lower() == ".xlsx" else _csv_sheets
    tables: dict = {}
    places = Places(path.name)
    for sheet in read(data, path.name):
        if sheet.name in tables or (sheet.name in places.entries):
            raise ComponentError(f"{path.name}: sheet {sheet.name}: appears twice; give each "
                                 "sheet once")
        if sheet.name == VALUES:
            _read_values(sheet, tables, places)
        elif sheet.rows:
            tables[sheet.name] = _read_entries(sheet, places)
    return tables, places


def _where(file: str, sheet: str, row: int, col: int | None = None, header=None) -> str:
    text = f"{file}: sheet {sheet}, row {row}"
    if col is not None:
        text += f", column {column_letter(col)}" + (f" ({header})" if header else "")
    return text


def _header(sheet: Sheet, file: str) -> list[str]:
    number, cells = sheet.rows[0]
    header = [str(c).strip() for c in cells]
    while header and not header[-1]:
        header.pop()
    for i, h in enumerate(header):
        if not h:
            raise ComponentError(f"{_where(file, sheet.name, number, i)}: the header row "
                                 "needs a field name in every column")
        if header.index(h) != i:
            raise ComponentError(f"{_where(file, sheet.name, number, i)}: field {h!r} "
                                 "appears twice in the header row")
    return header


def _read(cell, file, sheet, row, col, header=None):
    try:
        return cell_value(cell)
    except ValueError as exc:
        raise ComponentError(f"{_where(file, sheet, row, col, header)}: {exc}") from None


def _beyond(cells: list, width: int, file: str, sheet: Sheet, number: int) -> None:
    extra = next((i for i in range(width, len(cells)) if str(cells[i]).strip()), None)
    if extra is not None:
        raise ComponentError(f"{_where(file, sheet.name, number, extra)}: a value beyond the "
                             "header's last field; give the column a name in the header row")


def _read_entries(sheet: Sheet, places: Places) -> list[dict]:
    file = places.file
    header = _header(sheet, file)
    columns = {h: i for i, h in enumerate(header)}
    out, where = [], []
    for number, cells in sheet.rows[1:]:
        _beyond(cells, len(header), file, sheet, number)
        entry = {h: _read(cells[i], file, sheet.name, number, i, h)
                 for i, h in enumerate(header) if i < len(cells) and cells[i] != ""}
        out.append(entry)
        where.append((number, entry, columns))
    places.entries[sheet.name] = where
    return out


def _read_values(sheet: Sheet, tables: dict, places: Places) -> None:
    file = places.file
    header = _header(sheet, file)
    if tuple(h.casefold() for h in header) != VALUE_HEADER:
        raise ComponentError(f"{_where(file, sheet.name, sheet.rows[0][0])}: the header row "
                             f"of sheet {VALUES} is {', '.join(VALUE_HEADER)}")
    seen: dict[tuple, int] = {}
    for number, cells in sheet.rows[1:]:
        _beyond(cells, 2, file, sheet, number)
        key = str(cells[0]).strip()
        try:
            path = _key_path(key)
        except ValueError:
            raise ComponentError(f"{_where(file, sheet.name, number, 0, 'key')}: {key!r} is "
                                 "not a key; write e.g. raccoon.prestige") from None
        clash = next((r for p, r in seen.items()
                      if p[:len(path)] == path or path[:len(p)] == p), None)
        if clash is not None:
            raise ComponentError(f"{_where(file, sheet.name, number, 0, 'key')}: {key} "
                                 f"repeats or overlaps the key on row {clash}; give each once")
        seen[path] = number
        if len(cells) < 2 or cells[1] == "":
            raise ComponentError(f"{_where(file, sheet.name, number, 1, 'value')}: {key} has "
                                 "no value")
        value = _read(cells[1], file, sheet.name, number, 1, "value")
        node = tables
        for part in path[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ComponentError(f"{_where(file, sheet.name, number, 0, 'key')}: {key} "
                                     f"puts a value inside {part}, which is not a table")
        node[path[-1]] = value
        places.values.append((path, number))


def _key_path(key: str) -> tuple[str, ...]:
    """A TOML key's parts: raccoon.prestige -> ("raccoon", "prestige")."""
    if not key:
        raise ValueError(key)
    try:
        data = tomllib.loads(f"{key} = 0")
    except tomllib.TOMLDecodeError:
        raise ValueError(key) from None
    path = []
    while isinstance(data, dict) and len(data) == 1:
        (k, data), = data.items()
        path.append(k)
    return tuple(path)


def read_tables(path) -> dict:
    """A component file's tables, TOML or spreadsheet by its suffix (a TOML file's errors are
    tomllib's; a spreadsheet's are ComponentErrors naming the cell)."""
    if is_sheet(path):
        return read_sheets(path)[0]
    from .files import read_toml

    return read_toml(path)
