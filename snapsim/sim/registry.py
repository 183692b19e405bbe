"""Registry of games. A game package exposes GAME (a GameSpec); nothing here knows its rules."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..errors import InputError


def known_games() -> list[str]:
    """Game packages shipped in snapsim.games (each registers itself when imported)."""
    from .. import games

    return sorted(m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg)


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
    """

    name: str
    make_config: Callable[..., object]
    make_policy: Callable[[str], object]
    run_chunk: Callable[..., pd.DataFrame]
    players: Callable[[object], int]
    default_policy: str
    load_components: Callable[[str], object]
    report: Callable[..., object] | None = None
    measures: object = None  # analysis.measures.MeasureSpec: what `snapsim compare` measures


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Make a game known by its name; each game package calls this when imported."""
    _GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    """The spec of a game by name (any case), importing its package on first use; an unknown
    name is an InputError listing the games."""
    key = str(name).strip().lower()
    if key not in _GAMES:
        if key not in known_games():
            raise InputError(f"unknown game {name!r}; choose from {', '.join(known_games())}")
        importlib.import_module(f"snapsim.games.{key}")
    if key not in _GAMES:
        raise InputError(f"game {name!r} is not available in this version of snapsim")
    return _GAMES[key]
