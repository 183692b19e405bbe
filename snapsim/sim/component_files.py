"""A designer's own component files: export the bundled set, check an edited one, say what
changed, and resolve "standard" / a path / a loaded set wherever components are accepted.

The bundled files are already commented TOML (what each field means, which values are
rulebook facts and which are reconstructed), so `export` writes their bytes unchanged: an
unedited export has the bundled SHA-256 and plays identical games. It also writes them as a
CSV or XLSX spreadsheet (snapsim.sim.sheets), which every command reads as it reads TOML.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload

from ..errors import InputError
from . import sheets
from .checks import out_file
from .files import claim_output, read_bytes, write_bytes
from .registry import ComponentSet, get_game
from .toml_loader import KNOBS
from .variants import bundled_file, file_tables, guess_game, load_for, load_variant

STANDARD = "standard"
ENTRY_KEYS = ("name", "animal", "space")  # how an entry of a list names itself


def resolve(game: str, components):
    """A loaded component set from "standard", None, a path or an already-loaded set."""
    spec = get_game(game)
    if components is None or (isinstance(components, str) and components == STANDARD):
        return spec.load_components(None)
    if isinstance(components, str | os.PathLike):
        return load_for(game, components)
    bundled = type(spec.load_components(None))
    if not isinstance(components, bundled):
        raise InputError(f"components for {game} must be 'standard', a TOML file path or a "
                         f"loaded {game} component set, not {type(components).__name__}")
    return components


def _unedited_export(game: str):
    """A test of whether a file is the bundled component file as exported, unedited: the
    only file `export --force` replaces (an edited export is the designer's work)."""
    def test(path: Path) -> bool:
        try:
            if sheets.is_sheet(path):  # a workbook's bytes carry the time it was written
                return sheets.read_tables(path) == file_tables(bundled_file(game))
            return read_bytes(path) == bundled_file(game).read_bytes()
        except (OSError, InputError):
            return False
    return test


def export_format(out: str | os.PathLike[str] | None, fmt: str | None) -> str:
    """The format to write: `fmt`, else --out's suffix (.csv, .xlsx), else toml; a spreadsheet
    is read by its suffix, so --out must carry the format's."""
    suffix = Path(out).suffix.lower().lstrip(".") if out is not None else ""
    if fmt is None:
        return suffix if suffix in ("csv", "xlsx") else "toml"
    if fmt not in sheets.FORMATS:
        raise InputError(f"unknown format {fmt!r}; choose {', '.join(sheets.FORMATS)}")
    spreadsheet = suffix in ("csv", "xlsx")
    if out is not None and (suffix != fmt if fmt != "toml" else spreadsheet):
        raise InputError(f"--out {Path(out).name} does not end in .{fmt}; snapsim reads a "
                         "component file's format by its suffix, so name it "
                         f"{Path(out).stem}.{fmt}")
    return fmt


def export_bytes(game: str, fmt: str = "toml") -> bytes:
    """The bundled component file in `fmt`: TOML as shipped (its comments kept, so an unedited
    export has the bundled SHA-256), or its tables as a CSV or XLSX spreadsheet."""
    if fmt == "toml":
        return bundled_file(game).read_bytes()
    return sheets.file_bytes(file_tables(bundled_file(game)), fmt)


@overload
def export(game: str, out: None = None, force: bool = False, fmt: str | None = None) -> bytes:
    ...


@overload
def export(game: str, out: str | os.PathLike[str], force: bool = False,
           fmt: str | None = None) -> Path:
    ...


def export(game: str, out: str | os.PathLike[str] | None = None, force: bool = False,
           fmt: str | None = None) -> bytes | Path:
    """The bundled component file (format `fmt`, default from `out`'s suffix, else TOML): its
    bytes (out=None) or written to `out` (over an existing file only with `force`, and only
    over an unedited export)."""
    fmt = export_format(out, fmt)
    if out is None:
        if fmt == "xlsx":
            raise InputError("an .xlsx workbook is written to a file: add --out FILE.xlsx")
        return export_bytes(game, fmt)
    out = Path(out).expanduser()
    if out.is_dir():
        raise InputError(f"--out {str(out)!r} is a folder; give a file name, e.g. "
                         f"{out / (game + '-variant.' + fmt)}")
    data = export_bytes(game, fmt)
    replace = claim_output(out, force, _unedited_export(game))
    out_file(out)
    try:  # whole or not at all: a full disk leaves no empty file behind
        write_bytes(out, data, replace=replace)
    except FileExistsError:
        raise InputError(f"{out} already exists; choose another name or add --force to "
                         "replace it") from None
    except OSError as exc:
        raise InputError(f"cannot write {out} ({exc.strerror or exc}); choose a writable "
                         "place with --out") from None
    return out


def _label(entry: dict, i: int) -> str:
    for key in ENTRY_KEYS:
        if isinstance(entry.get(key), str):
            return entry[key]
    return f"#{i + 1}"


def _short(value) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _nested(value) -> bool:
    """A table or a list of tables: compared entry by entry, not as one value."""
    return isinstance(value, dict) or (isinstance(value, list) and bool(value)
                                       and all(isinstance(x, dict) for x in value))


def _diff(base, new, where: str, out: list[str]) -> None:
    if base == new:
        return
    if (isinstance(base, list) and isinstance(new, list)
            and all(isinstance(x, dict) for x in base + new) and (base or new)):
        old = {_label(e, i): e for i, e in enumerate(base)}
        cur = {_label(e, i): e for i, e in enumerate(new)}
        if len(old) == len(base) and len(cur) == len(new):
            for name in old:
                if name in cur:
                    _diff(old[name], cur[name], f"{name}", out)
                else:
                    out.append(f"{where}: {name} removed")
            out.extend(f"{where}: {name} added" for name in cur if name not in old)
            return
    if isinstance(base, dict) and isinstance(new, dict):
        for key in list(base) + [k for k in new if k not in base]:
            if key == "source":
                continue
            if key not in new:
                out.append(f"{where}: {key} removed")
            elif key not in base:
                out.append(f"{where}: {key} = {_short(new[key])} added")
            elif _nested(base[key]) or _nested(new[key]):
                _diff(base[key], new[key], f"{where}: {key}" if where else key, out)
            elif base[key] != new[key]:
                out.append(f"{where + ': ' if where else ''}{key} {_short(base[key])} → "
                           f"{_short(new[key])}")
        return
    out.append(f"{where}: {_short(base)} → {_short(new)}")


def _knob_differences(base, new) -> list[str]:
    """"knob photo_target: default → 8", "knob start_tokens (4 players): default → 3-3-3-3"."""
    out = []
    counts = sorted({None, *base.by_players, *new.by_players}, key=lambda n: n or 0)
    for n in counts:
        a = base.common if n is None else base.by_players.get(n, {})
        b = new.common if n is None else new.by_players.get(n, {})
        where = "" if n is None else f" ({n} players)"
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key) != b.get(key):
                out.append(f"knob {key}{where}: {_knob_value(a, key)} → {_knob_value(b, key)}")
    return out


def _knob_value(knobs: dict, key: str) -> str:
    if key not in knobs:
        return "default"
    value = knobs[key]
    if isinstance(value, tuple | list):
        return "-".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def differences(game: str, baseline, variant) -> list[str]:
    """Card by card, what a variant file changes against a baseline ("snow leopard:
    prestige 9 → 15"), then each rule knob it sets ("knob photo_target: default → 8"); the
    scoring example and `source` notes are not rules."""
    sides = [load_variant(game, side) for side in (baseline, variant)]
    a, b = ({k: v for k, v in file_tables(side.path).items() if k not in ("example", KNOBS)}
            for side in sides)
    out: list[str] = []
    _diff(a, b, "", out)
    return out + _knob_differences(sides[0].knobs, sides[1].knobs)


@dataclass
class Check:
    """A validated component file: its game, the loaded set, counts and its differences."""

    game: str
    components: ComponentSet
    counts: dict[str, int]
    changes: list[str]
    knobs: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """What `snapsim components check` prints: validity, counts, each difference."""
        name = Path(self.components.path).name
        counts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        what = "variant (components and rule knobs)" if self.knobs else "component set"
        lines = [f"{name}: a valid {self.game} {what}" + (f" ({counts})" if counts else "")]
        if self.changes:
            lines.append(f"{len(self.changes)} difference(s) from the standard set:")
            lines += [f"  {c}" for c in self.changes]
        else:
            lines.append("identical to the standard set")
        return "\n".join(lines)


def check(path, game: str | None = None) -> Check:
    """Validate a component file (errors name file, entry, field and the fix) and compare it
    with the bundled set."""
    path = Path(path)
    game = get_game(game).name if game else guess_game(path)
    variant = load_variant(game, path)
    counts_played = {n for n in variant.knobs.by_players} or {None}
    for n in sorted(counts_played, key=lambda n: n or 0):
        variant.config(n)  # every knob checked at every player count the file names
    raw = file_tables(path)
    counts = {k: len(v) for k, v in raw.items() if isinstance(v, list) and v
              and all(isinstance(x, dict) for x in v)}
    return Check(game, variant.components, counts, differences(game, None, path),
                 variant.knobs.lines())
