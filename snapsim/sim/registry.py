"""Registry of games. A game package exposes GAME (a GameSpec); nothing here knows its rules.

A game is either a package shipped in snapsim.games or one installed on its own that names
itself in the entry point group `snapsim.games` (`pig = "snapsim_pig"` in its
pyproject.toml's `[project.entry-points."snapsim.games"]`): the entry point's module
registers the game when imported, or the entry point is the GameSpec itself.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InputError

if TYPE_CHECKING:  # the names of the games are listed without pandas (`snapsim --help`)
    import pandas as pd

ENTRY_POINTS = "snapsim.games"  # the entry point group of games installed on their own


class ComponentSet(Protocol):
    """What shared code reads of any game's component set: the file it was read from."""

    @property
    def path(self) -> str: ...


class ComponentLoader(Protocol):
    """A game's `load_components`: a component file (None: the bundled set) or, with
    `data`, the tables of a file already read, named `path`; a validated component set."""

    def __call__(self, path: str | os.PathLike[str] | None = None,
                 data: dict | None = None) -> Any: ...


def _builtin_folders() -> list[str]:
    spec = importlib.util.find_spec("snapsim.games")
    return list(spec.submodule_search_locations or []) if spec else []


def _builtin_games() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(_builtin_folders()) if m.ispkg)


def advised_games() -> list[str]:
    """The shipped games with an exact advisor (GameSpec.advisor: the package holds an
    `advisor` module), found without importing them: `snapsim odds` and `snapsim advise`'s
    situations are theirs."""
    return [g for g in _builtin_games()
            if any(m.name == "advisor" for m in
                   pkgutil.iter_modules([f"{f}/{g}" for f in _builtin_folders()]))]


def advised_game() -> GameSpec:
    """The game of the exact odds and advisor commands (the first of `advised_games`)."""
    games = advised_games()
    if not games:
        raise InputError("no game with exact odds is installed")
    return get_game(games[0])


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    """Installed games by name (a shipped game's name is never taken over)."""
    return _entry_points_on(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _entry_points_on(path: tuple[str, ...]) -> dict[str, importlib.metadata.EntryPoint]:
    """The entry points found on one import path, read once: reading them scans every
    installed distribution's metadata (20-35 ms), and every game lookup asks."""
    return {ep.name.strip().lower(): ep
            for ep in importlib.metadata.entry_points(group=ENTRY_POINTS)}


def known_games() -> list[str]:
    """The games: packages shipped in snapsim.games and games installed under the entry point
    group `snapsim.games`, found without importing any of them."""
    return sorted({*_builtin_games(), *_entry_points()})


@dataclass(frozen=True)
class GameSpec:
    """What the runner needs from a game.

    make_config(players=..., components=..., **knobs) -> config object
    make_policy(spec) -> policy object (raises InputError for a bad spec)
    run_chunk(config, policies, first, count, seed, rotate_seats) -> DataFrame of (game, seat)
    players(config) -> number of seats
    load_components(path) -> a validated component set (for --components)
    report(out, games=, seed=, studies=, threads=, components=, progress=) -> index.html path
    measures: what a comparison of two component sets or rule variants measures
    step: the step class (a `snapsim.protocol.GameState`): one decision at a time, for
        Python agents, the human seat and the adapters
    result_columns, record: the batch kernel's integer result columns and its recorder of a
        finished game (`record(state[, config], out_i, out_f, row, seats)`), so a game played
        step by step gives the batch's rows
    policy_kinds: the built-in policy kinds by kind index ("random", "greedy", ...)
    tuned_names() -> names of the game's bundled tuned policies, e.g. ["tuned-2p", "tuned-4p"]
    title: the game's name for people ("ShutterBug")
    package: the module name of the game's package (where its policies and data live)
    rules: its rules of thumb (`games.rules.Rule`s), each one number of its greedy policy
    searched: the tuner's ranges of the parameters it searches (`games.tuning`)
    guide(out, games=, seed=, threads=) -> path of strategy.md, for a game whose guide is
        its own; None: the shared guide of its rules of thumb (`games.guide`)
    screen: the play screen's parts of the game (its package's `screen` module), each
        optional: REMINDERS (a move kind -> one line of the rulebook), unavailable(game,
        seat, kinds) (why a move the rules have is not offered), board(game, seat) (lines
        describing the board around the seat) and points_now(game, seat, moves) (each
        move's exact points at once, {points: chance}); None: the screen shows none
    player_notes: by number of players, how a table of that many plays where snapsim departs
        from the rulebook (printed under a simulation's table)
    advisor: the game's exact advisor (its package's `advisor` module), for `snapsim odds`
        and `snapsim advise` on a situation file; None: the game has none
    hints: the game's exact numbers for hints and advice (its package's `hints` module),
        each optional: lines(game, seat) (the hint's lines), numbers(game, seat) (the same
        as plain numbers), wholes(game, seat) (whole decisions: (step actions, words, exact
        value)), WHOLES (their heading) and exact_choice(game, seat, rated) (the step action
        the exact numbers favour); None: hints and advice rank the moves by win chance only
    """

    name: str
    make_config: Callable[..., Any]
    make_policy: Callable[[str], Any]
    run_chunk: Callable[..., pd.DataFrame]
    players: Callable[[Any], int]
    default_policy: str
    load_components: ComponentLoader
    report: Callable[..., Any] | None = None
    measures: Any = None  # analysis.measures.MeasureSpec: what `snapsim compare` measures
    step: type | None = None
    result_columns: tuple[str, ...] = ()
    record: Callable[..., None] | None = None
    policy_kinds: tuple[str, ...] = ()
    tuned_names: Callable[[], list[str]] = list
    title: str = ""
    package: str = ""
    rules: tuple = ()
    searched: dict[str, tuple[float, float]] = field(default_factory=dict)
    guide: Callable[..., Any] | None = None
    screen: Any = None
    player_notes: dict[int, str] = field(default_factory=dict)
    advisor: Any = None
    hints: Any = None


_GAMES: dict[str, GameSpec] = {}


class ByGame(Mapping):
    """One GameSpec field by game name, listing only the games that declare it (not empty):
    `ByGame("rules")["yosemite"]` is Yosemite's rules of thumb."""

    def __init__(self, field_name: str):
        self.field = field_name

    def __getitem__(self, game: str):
        if str(game).strip().lower() not in known_games():
            raise KeyError(game)
        value = getattr(get_game(game), self.field)
        if not value:
            raise KeyError(game)
        return value

    def __iter__(self):
        return (g for g in known_games() if g in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def register(spec: GameSpec) -> GameSpec:
    """Make a game known by its name; each game package calls this when imported."""
    _GAMES[spec.name] = spec
    return spec


def game_package(name: str) -> str:
    """The module name of a game's package, found without importing it (a game's own modules
    ask for it while the package is still being imported)."""
    key = str(name).strip().lower()
    if key in _GAMES:
        return _GAMES[key].package
    if key in _builtin_games():
        return f"snapsim.games.{key}"
    if key in _entry_points():
        return _entry_points()[key].module
    raise InputError(f"unknown game {name!r}; choose from {', '.join(known_games())}")


def game_folder(name: str) -> Path:
    """The folder of a game's package (its tuned tables and data lie there), found without
    importing it."""
    spec = importlib.util.find_spec(game_package(name))
    if spec is None or spec.origin is None:
        raise InputError(f"game {name!r}: its package {game_package(name)!r} is not installed")
    return Path(spec.origin).parent


def get_game(name: str) -> GameSpec:
    """The spec of a game by name (any case), importing its package on first use; an unknown
    name is an InputError listing the games."""
    key = str(name).strip().lower()
    if key not in _GAMES:
        if key not in known_games():
            raise InputError(f"unknown game {name!r}; choose from {', '.join(known_games())}")
        if key in _builtin_games():
            importlib.import_module(f"snapsim.games.{key}")
        else:
            loaded = _entry_points()[key].load()
            if isinstance(loaded, GameSpec) and loaded.name not in _GAMES:
                register(loaded)
    if key not in _GAMES:
        raise InputError(f"game {name!r} is not available in this version of snapsim")
    return _GAMES[key]
