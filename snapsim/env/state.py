"""What the adapters share: a game started for an outside agent, a seed for one started
without, and the bounds of the observation tensor."""

from __future__ import annotations

import numpy as np

from ..protocol import GameState, game_class

# tensor entries are counts, indices and flags: well inside these bounds
OBS_LOW, OBS_HIGH = -1e6, 1e6


def new_state(game: str, seed: int, policies: list | None = None,
              **config: object) -> GameState:
    """Game `game` with rule knobs `config` and seed `seed` (game 0 of that seed); seat i
    played by policies[i] when asked (`policy_action`)."""
    cls = game_class(game)
    return cls(cls.CONFIG.from_knobs(**config), seed=int(seed), policies=policies,
               rotate_seats=False)


def fresh_seed(rng: np.random.Generator | None = None) -> int:
    """A seed for a game started without one."""
    return int((rng or np.random.default_rng()).integers(2 ** 31))
