"""A variant: a component set and the rule knobs it is played with, in one TOML file.

A component file may carry an optional ``[knobs]`` table beside its components: rule knobs
for every player count, and ``[knobs.players.N]`` tables for N-player games only (a
start-token schedule has one number per seat)::

    [knobs]
    photo_target = 8

    [knobs.players.4]
    start_tokens = [3, 3, 3, 3]

So one file is one variant, and every command that takes a component file (simulate, compare,
report, sweep, tune, ladder, components check) plays its knobs too; a knob given on the command
line (``--set``) overrides the file's. The component parsers skip the table (the shared
`TomlLoader`); this module reads and checks it.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ComponentError, InputError, SnapsimError
from .files import local_path
from .registry import ComponentSet, get_game
from .sheets import is_sheet, read_tables, toml_bytes
from .toml_loader import KNOBS

PER_PLAYERS = "players"  # [knobs.players.N]: knobs of N-player games only
STANDARD = "standard"


def _plain(value):
    """A knob value as the config takes it: TOML arrays become tuples."""
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class Knobs:
    """Rule knobs of a variant: `common` for every player count, `by_players[N]` for N."""

    common: dict = field(default_factory=dict)
    by_players: dict = field(default_factory=dict)

    def for_players(self, players: int) -> dict:
        """The knobs an N-player game plays: the common ones, then N's own over them."""
        return {**self.common, **self.by_players.get(int(players), {})}

    def __bool__(self) -> bool:
        return bool(self.common) or any(self.by_players.values())

    def lines(self) -> list[str]:
        """One line per knob for a summary: "photo_target = 8 (4 players)"."""
        out = [f"{k} = {_show(v)}" for k, v in self.common.items()]
        for n, knobs in sorted(self.by_players.items()):
            out += [f"{k} = {_show(v)} ({n} players)" for k, v in knobs.items()]
        return out

    def to_toml(self) -> dict:
        """The [knobs] table as TOML data (tuples as arrays, player counts as keys)."""
        table = {k: list(v) if isinstance(v, tuple) else v for k, v in self.common.items()}
        per = {str(n): {k: list(v) if isinstance(v, tuple) else v for k, v in knobs.items()}
               for n, knobs in sorted(self.by_players.items()) if knobs}
        if per:
            table[PER_PLAYERS] = per
        return table


def _show(value) -> str:
    if isinstance(value, tuple | list):
        return "-".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _knob_names(game: str) -> tuple[str, set[str]]:
    """The game's name as its config says it, and its rule knobs."""
    config = type(get_game(game).make_config())
    return config.GAME, {f.name for f in dataclasses.fields(config)} - {"components",
                                                                          "players"}


def parse_knobs(game: str, table, where: str) -> Knobs:
    """Check a [knobs] table's shape and names (values are checked when a config is made, by
    the config's own range checks); `where` names the file in messages."""
    if table is None:
        return Knobs()
    if not isinstance(table, dict):
        raise ComponentError(f"{where}: knobs: must be a [knobs] table of NAME = value")
    title, known = _knob_names(game)

    def check(items: dict, entry: str) -> dict:
        out = {}
        for name, value in items.items():
            if name == PER_PLAYERS and entry == "knobs":
                continue
            if name == "players":
                raise ComponentError(f"{where}: {entry}: the player count is chosen by the "
                                     "command (--players); put one count's knobs under "
                                     "[knobs.players.N]")
            if name not in known:
                raise ComponentError(f"{where}: {entry}: unknown {title} rule knob {name!r}; "
                                     f"knobs are {', '.join(sorted(known))}")
            if isinstance(value, dict) or (isinstance(value, list)
                                           and not all(isinstance(v, int) for v in value)):
                raise ComponentError(f"{where}: {entry}: {name} must be a number, true/false "
                                     "or a list of whole numbers")
            out[name] = _plain(value)
        return out

    common = check(table, "knobs")
    per = table.get(PER_PLAYERS, {})
    if not isinstance(per, dict):
        raise ComponentError(f"{where}: knobs.players: must be tables [knobs.players.N]")
    by_players = {}
    for key, items in per.items():
        if not str(key).isdigit() or not isinstance(items, dict):
            raise ComponentError(f"{where}: knobs.players.{key}: write [knobs.players.N] with "
                                 "N a player count, holding NAME = value lines")
        by_players[int(key)] = check(items, f"knobs.players.{key}")
    return Knobs(common, by_players)


@functools.lru_cache(maxsize=32)
def _file_tables(path: str, mtime_ns: int, size: int) -> dict:
    return read_tables(path)


def file_tables(path) -> dict:
    """A component file's TOML tables as read (cached per file version); a file that cannot
    be read is a one-line ComponentError."""
    p = Path(path).expanduser()
    try:
        stat = local_path(p).resolve().stat()
        return _file_tables(str(p.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError as exc:
        raise ComponentError(f"{p.name}: file: cannot open {str(p)!r} "
                             f"({exc.strerror or exc}); check the path") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ComponentError(f"{p.name}: file: not valid TOML ({exc}); fix the syntax at that "
                             "line") from None


def bundled_file(game: str) -> Path:
    """Path of the component file shipped with snapsim for `game`."""
    return Path(get_game(game).load_components(None).path)


def guess_game(path) -> str:
    """The game whose bundled file shares the most top-level sections with this file."""
    from .registry import known_games

    keys = set(file_tables(path)) - {KNOBS}
    scores = {g: len(keys & set(file_tables(bundled_file(g)))) for g in known_games()}
    best = max(scores, key=lambda g: scores[g])
    ties = [g for g, s in scores.items() if s == scores[best]]
    if scores[best] == 0 or len(ties) > 1:
        raise InputError(f"{Path(path).name}: cannot tell which game this component file is "
                         f"for; add --game ({', '.join(known_games())})")
    return best


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


@dataclass(frozen=True)
class Variant:
    """A component set and its rule knobs: what one variant file holds.

    Attributes
    ----------
    game : str
        The game it is for.
    components : component set
        The loaded, validated component set.
    knobs : Knobs
        Its rule knobs (empty for a plain component file).
    """

    game: str
    components: ComponentSet
    knobs: Knobs = field(default_factory=Knobs)

    @property
    def path(self) -> str:
        return self.components.path

    @property
    def label(self) -> str:
        """Its name in tables: the file's stem."""
        return Path(self.components.path).stem

    def config(self, players: int | None = None, **overrides):
        """The game config of this variant at `players` (default: the game's usual count),
        with `overrides` (e.g. --set knobs) over the file's knobs. A knob value the game
        refuses is a one-line error naming the file."""
        spec = get_game(self.game)
        if players is None:
            players = spec.players(spec.make_config(**({"components": self.components})))
        knobs = {**self.knobs.for_players(players), **overrides}
        try:
            return spec.make_config(players=players, components=self.components, **knobs)
        except SnapsimError as exc:
            if not self.knobs or not set(self.knobs.for_players(players)) - set(overrides):
                raise
            raise InputError(f"{Path(self.path).name}: knobs ({players} players): {exc}"
                             ) from None


def load_variant(game: str, source=None, name: str = "components") -> Variant:
    """A Variant from "standard"/None (the bundled set, no knobs), a file path, a loaded
    component set (no knobs) or a Variant; `name` is the parameter a refusal names."""
    spec = get_game(game)
    if isinstance(source, Variant):
        return source
    if source is None or (isinstance(source, str) and source == STANDARD):
        return Variant(spec.name, spec.load_components(None))
    if isinstance(source, str | os.PathLike):
        comps = load_for(spec.name, source)
        tables = file_tables(source)
        return Variant(spec.name, comps, parse_knobs(spec.name, tables.get(KNOBS),
                                                     Path(source).name))
    bundled = type(spec.load_components(None))
    if not isinstance(source, bundled):
        raise InputError(f"{name} for {game} must be 'standard', a component file path or a "
                         f"loaded {game} component set, not {type(source).__name__}")
    return Variant(spec.name, source)


def from_tables(game: str, tables: dict, path) -> Variant:
    """A Variant from a file's tables built in memory (rebalancing's candidates); `path`
    names it in messages. Invalid tables are a ComponentError, as a file's would be."""
    spec = get_game(game)
    name = Path(path).name
    comps = spec.load_components(str(path), data=tables)
    return Variant(spec.name, comps, parse_knobs(spec.name, tables.get(KNOBS), name))


def variant_text(base_path, changes, knobs: Knobs, header=()) -> str:
    """A variant file's text: the base file (its comments and layout kept) with each
    (path, value, note) change written in, the note as a comment on the changed line where
    TOML allows one, `knobs` as its [knobs] table and `header` as comment lines on top."""
    import tomlkit
    import tomlkit.items as ti

    if is_sheet(base_path):  # a spreadsheet's patch is written as TOML of its tables
        doc = tomlkit.parse(toml_bytes(file_tables(base_path)).decode("utf-8"))
    else:
        doc = tomlkit.parse(Path(base_path).read_text())
    for path, value, note in changes:
        node, inline = doc, False
        for step in path[:-1]:
            node = node[step]
            inline = inline or isinstance(node, ti.InlineTable | ti.Array)
        node[path[-1]] = value
        if note and not inline:
            node[path[-1]].comment(note)
        elif note and isinstance(path[-1], int) and len(path) > 1:
            owner = doc
            for step in path[:-2]:
                owner = owner[step]
            holder = owner[path[-2]]
            if isinstance(holder, ti.Array) and not isinstance(owner, ti.InlineTable | ti.Array):
                holder.comment(note)
    if KNOBS in doc:
        del doc[KNOBS]
    table = knobs.to_toml()
    if table:
        out = tomlkit.table()
        for name, value in table.items():
            if name != PER_PLAYERS:
                out.add(name, value)
        if PER_PLAYERS in table:
            per = tomlkit.table(is_super_table=True)
            for n, items in table[PER_PLAYERS].items():
                t = tomlkit.table()
                for name, value in items.items():
                    t.add(name, value)
                per.add(n, t)
            out.add(PER_PLAYERS, per)
        doc.add(KNOBS, out)
    return "".join(f"# {line}\n" for line in header) + ("\n" if header else "") + \
        tomlkit.dumps(doc)
