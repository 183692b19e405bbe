"""What every game's component-file parser shares: reading the TOML and checking sections,
fields, numbers and names, each problem one ComponentError line "FILE: ENTRY: PROBLEM" so a
bad file never reaches an engine. A game's parser subclasses TomlLoader and adds its rules."""

from __future__ import annotations

import tomllib
import unicodedata
from pathlib import Path
from typing import Any

from ..errors import ComponentError, InputError
from . import checks, sheets
from .files import read_toml

MAX_POINTS = 1000  # any printed value (prestige, points, chart steps): sums stay far from int64
KNOBS = "knobs"  # a variant file's rule knobs (snapsim.sim.variants), beside the components


def names(items) -> str:
    """Allowed names for a message: sorted when a set, else in their own order."""
    return ", ".join(sorted(items) if isinstance(items, set | frozenset) else items)


class TomlLoader:
    """Reads one component file and checks its parts; each check raises a one-line
    ComponentError naming the file, the entry and the problem."""

    def __init__(self, path: Path, data: dict | None = None) -> None:
        self.path = Path(path)
        self.data = data
        self.places: sheets.Places | None = None  # a spreadsheet's cells, for messages

    def load(self) -> Any:
        """The validated component set of the file (each game's loader reads its own)."""
        raise NotImplementedError

    @classmethod
    def parse(cls, path: Path):
        """The validated component set of one file (a subclass's `load`)."""
        return cls(path).load()

    @classmethod
    def parse_data(cls, data: dict, path) -> Any:
        """The validated component set of a file's tables already read (a variant built in
        memory); `path` names it in messages and is the set's `path`."""
        return cls(Path(path), data).load()

    def fail(self, entry: str, problem: str) -> ComponentError:
        place = self.places.locate(entry, problem) if self.places else ""
        where = f"{place}: " if place else ""
        return ComponentError(f"{self.path.name}: {where}{entry}: {problem}".replace("\n", " "))

    def read(self, top: set[str]) -> dict[str, Any]:
        """The file's tables, with only the sections in `top` (and a variant's [knobs], which
        snapsim.sim.variants reads)."""
        if self.data is not None:
            data = self.data
        else:
            data = self._load_file()
        unknown = sorted(set(data) - top - {KNOBS})
        if unknown:
            raise self.fail("file", f"unknown section {unknown[0]!r}; expected {names(top)}")
        self.printable(data)
        return data

    def printable(self, data: dict) -> None:
        """Every key and text in the file one line of printable characters: a name goes to
        the terminal, TOML keys and comments, figures and HTML, and a line break or control
        character in it could write a line of its own there (a live line in a patch file)."""
        todo = [("", data)]
        while todo:
            where, value = todo.pop()
            if isinstance(value, dict):
                for key, item in value.items():
                    place = f"{where}.{key}" if where else str(key)
                    self._one_line(key, where or "file", "key")
                    todo.append((place, item))
            elif isinstance(value, list):
                todo += [(f"{where} #{i + 1}", item) for i, item in enumerate(value)]
            elif isinstance(value, str):
                self._one_line(value, where, "text")

    def _one_line(self, text: str, entry: str, what: str) -> None:
        bad = next((c for c in text if not c.isprintable()), None)
        if bad is not None:
            name = unicodedata.name(bad, "a control character")
            raise self.fail(entry, f"the {what} {text!r} holds {bad!r} ({name}); a name or text is "
                                   "one line of printable characters")

    def _load_file(self) -> dict[str, Any]:
        try:
            if sheets.is_sheet(self.path):
                data, self.places = sheets.read_sheets(self.path)
                return data
            return read_toml(self.path)
        except OSError as exc:
            raise self.fail("file", f"cannot read {str(self.path)!r} ({exc.strerror or exc}); "
                                    "check the file's path") from None
        except UnicodeDecodeError:
            raise self.fail("file", "is not UTF-8 text; save it as UTF-8 TOML") from None
        except tomllib.TOMLDecodeError as exc:
            raise self.fail("file", f"not valid TOML ({exc}); fix the syntax or start from a "
                                    "copy of standard.toml") from None

    def section(self, data: dict, key: str, kind: type = list, shape: str = "") -> Any:
        """A required top-level section of the given kind (list or dict)."""
        if key not in data:
            raise self.fail("file", f"missing section [{key}]")
        value = data[key]
        if not isinstance(value, kind):
            shape = shape or ("a list" if kind is list else f"a [{key}] table")
            raise self.fail(key, f"must be {shape}")
        return value

    def entries(self, data: dict, key: str) -> list[dict]:
        """A required [[key]] section: a list of tables."""
        value = self.section(data, key, list, f"[[{key}]] entries")
        if not all(isinstance(v, dict) for v in value):
            raise self.fail(key, f"must be [[{key}]] entries")
        return value

    def fields(self, raw: Any, entry: str, allowed: set[str], required: set[str]) -> None:
        """A table whose fields are all in `allowed` and include every one in `required`."""
        if not isinstance(raw, dict):
            raise self.fail(entry, "must be a table of fields")
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise self.fail(entry, f"unknown field {unknown[0]!r}; expected {names(allowed)}")
        missing = sorted(required - set(raw))
        if missing:
            raise self.fail(entry, f"missing field {missing[0]!r}")

    def whole(self, value: Any, what: str, entry: str, lo: int | None = 0,
              hi: int | None = MAX_POINTS) -> int:
        """A whole number lo..hi (the one range check, snapsim.sim.checks.whole)."""
        try:
            return checks.whole(value, what, lo, hi)
        except InputError as exc:
            raise self.fail(entry, str(exc)) from None

    def whole_list(self, value: Any, what: str, entry: str, lo: int = 0,
                   hi: int = MAX_POINTS) -> tuple[int, ...]:
        """A non-empty list of whole numbers lo..hi."""
        if not isinstance(value, list) or not value:
            raise self.fail(entry, f"{what} must be a non-empty list of whole numbers")
        return tuple(self.whole(v, f"{what} value", entry, lo, hi) for v in value)

    def text(self, value: Any, what: str, entry: str) -> str:
        """A non-empty string, stripped."""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(entry, f"{what} {value!r} must be a non-empty string")
        return value.strip()

    def lookup(self, value: Any, known, what: str, entry: str) -> int:
        """The index of `value` among the `known` names."""
        known = list(known)
        if not isinstance(value, str) or value not in known:
            raise self.fail(entry, f"unknown {what} {value!r}; expected {names(known)}")
        return known.index(value)
