"""Registry of games. A game package exposes GAME (a GameSpec); nothing here knows its rules."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..errors import InputError


def known_games() -> list[str]:
    """Game packages shipped in snapsim.games (each registers itself when imported), found
    without importing any of them."""
    folders = importlib.util.find_spec("snapsim.games").submodule_search_locations
    return sorted(m.name for m in pkgutil.iter_modules(folders) if m.ispkg)


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
    step: type | None = None
    result_columns: tuple[str, ...] = ()
    record: Callable[..., None] | None = None
    policy_kinds: tuple[str, ...] = ()
    tuned_names: Callable[[], list[str]] = list


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
