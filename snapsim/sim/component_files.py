"""A designer's own component files: export the bundled set, check an edited one, say what
changed, and resolve "standard" / a path / a loaded set wherever components are accepted.

The bundled files are already commented TOML (what each field means, which values are
rulebook facts and which are reconstructed), so `export` writes their bytes unchanged: an
unedited export has the bundled SHA-256 and plays identical games.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import ComponentError, InputError
from .registry import get_game, known_games

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


def load_for(game: str, path):
    """Load a component file for `game`; a file of another game is named as such."""
    try:
        return get_game(game).load_components(path)
    except ComponentError:
        try:
            other = guess_game(path)
        except InputError:
            other = game
        if other != game:
            raise ComponentError(f"{Path(path).name} looks like a {other} component file, not "
                                 f"{game}; give a {game} file (snapsim components export "
                                 f"{game}) or use it with {other}") from None
        raise


def bundled_file(game: str) -> Path:
    """Path of the component file shipped with snapsim for `game`."""
    return Path(get_game(game).load_components(None).path)


def export(game: str, out=None, force: bool = False) -> bytes | Path:
    """The bundled component file: its bytes (out=None) or written to `out` (never over an
    existing file unless `force`)."""
    data = bundled_file(game).read_bytes()
    if out is None:
        return data
    out = Path(out)
    if out.is_dir():
        raise InputError(f"--out {str(out)!r} is a folder; give a file name, e.g. "
                         f"{out / (game + '-variant.toml')}")
    if out.exists() and not force:
        raise InputError(f"{out} already exists; choose another name or add --force to "
                         "replace it")
    if not out.parent.exists():
        raise InputError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist")
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise InputError(f"cannot write {out} ({exc.strerror or exc}); choose a writable "
                         "place with --out") from None
    return out


def _raw(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except OSError as exc:
        raise ComponentError(f"{path.name}: file: cannot open {str(path)!r} "
                             f"({exc.strerror or exc}); check the path") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ComponentError(f"{path.name}: file: not valid TOML ({exc}); fix the syntax at "
                             "that line") from None


def guess_game(path) -> str:
    """The game whose bundled file shares the most top-level sections with this file."""
    keys = set(_raw(Path(path)))
    scores = {g: len(keys & set(_raw(bundled_file(g)))) for g in known_games()}
    best = max(scores, key=scores.get)
    ties = [g for g, s in scores.items() if s == scores[best]]
    if scores[best] == 0 or len(ties) > 1:
        raise InputError(f"{Path(path).name}: cannot tell which game this component file is "
                         f"for; add --game ({', '.join(known_games())})")
    return best


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


def differences(game: str, baseline, variant) -> list[str]:
    """Card by card, what a variant file changes against a baseline ("snow leopard:
    prestige 9 → 15"); the scoring example and `source` notes are not rules."""
    a = _raw(Path(resolve(game, baseline).path))
    b = _raw(Path(resolve(game, variant).path))
    a.pop("example", None)
    b.pop("example", None)
    out: list[str] = []
    _diff(a, b, "", out)
    return out


@dataclass
class Check:
    """A validated component file: its game, the loaded set, counts and its differences."""

    game: str
    components: object
    counts: dict[str, int]
    changes: list[str]

    def summary(self) -> str:
        """What `snapsim components check` prints: validity, counts, each difference."""
        name = Path(self.components.path).name
        counts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        lines = [f"{name}: a valid {self.game} component set ({counts})"]
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
    comps = load_for(game, path)
    raw = _raw(path)
    counts = {k: len(v) for k, v in raw.items() if isinstance(v, list) and v
              and all(isinstance(x, dict) for x in v)}
    return Check(game, comps, counts, differences(game, None, comps))
