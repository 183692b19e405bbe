"""Registry of games. A game package exposes GAME (a GameSpec); nothing here knows its rules."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..errors import InputError

KNOWN_GAMES = ("snapshot",)


@dataclass(frozen=True)
class GameSpec:
    """What the runner needs from a game.

    make_config(players=..., components=..., **knobs) -> config object
    make_policy(spec) -> policy object (raises InputError for a bad spec)
    run_chunk(config, policies, first, count, seed, rotate_seats) -> DataFrame of (game, seat)
    players(config) -> number of seats
    """

    name: str
    make_config: Callable[..., object]
    make_policy: Callable[[str], object]
    run_chunk: Callable[..., pd.DataFrame]
    players: Callable[[object], int]
    default_policy: str


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    _GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    key = str(name).strip().lower()
    if key not in _GAMES:
        if key not in KNOWN_GAMES:
            raise InputError(f"unknown game {name!r}; choose from {', '.join(KNOWN_GAMES)}")
        importlib.import_module(f"snapsim.games.{key}")
    return _GAMES[key]
