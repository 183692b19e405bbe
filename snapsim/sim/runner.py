"""Run many seeded games in chunks with a progress bar; results are one DataFrame."""

from __future__ import annotations

import numba
import pandas as pd
from tqdm import tqdm

from ..errors import InputError
from .registry import get_game

DEFAULT_CHUNK = 5_000


def simulate(game: str, players: int | None = None, policies=None, games: int = 1000,
             seed: int = 0, rotate_seats: bool = True, threads: int | None = None,
             config=None, components=None, chunk_size: int = DEFAULT_CHUNK,
             progress: bool = False, **knobs) -> pd.DataFrame:
    """Play `games` games and return one row per (game, seat).

    Game i depends only on (config, policies, seed, i), so the result is the same for any
    thread count or chunk size. Knobs are the game's config fields (e.g. photo_target=8).
    """
    spec = get_game(game)
    if config is None:
        kw = dict(knobs)
        if players is not None:
            kw["players"] = players
        if components is not None:
            kw["components"] = components
        config = spec.make_config(**kw)
    elif knobs or components is not None:
        config = config.replace(**knobs, **({"components": components} if components else {}))
    n = spec.players(config)
    if policies is None:
        policies = [spec.default_policy] * n
    policies = [spec.make_policy(p) for p in policies]
    if len(policies) == 1:
        policies = policies * n
    if len(policies) != n:
        raise InputError(f"{n} players need {n} policies (or one for all), got {len(policies)}")
    for name, value in (("games", games), ("chunk_size", chunk_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {value!r}")
    if threads is not None and (not isinstance(threads, int) or threads < 1):
        raise InputError(f"threads must be a whole number >= 1, got {threads!r}")
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    parts = []
    try:
        with tqdm(total=games, unit="game", disable=not progress, desc=spec.name) as bar:
            for first in range(0, games, chunk_size):
                count = min(chunk_size, games - first)
                parts.append(spec.run_chunk(config, policies, first, count, seed, rotate_seats))
                bar.update(count)
    finally:
        numba.set_num_threads(old)
    return pd.concat(parts, ignore_index=True)
