"""The games for outside agents: PettingZoo, Gymnasium and OpenSpiel environments.

Each is a thin adapter over `snapsim.protocol`; the libraries are optional extras
(``pip install 'snapsim[rl]'`` for PettingZoo and Gymnasium, ``'snapsim[openspiel]'``).
Importing this package registers the Gymnasium ids ``snapsim/Snapshot-v0``,
``snapsim/Yosemite-v0`` and ``snapsim/ShutterBug-v0`` when Gymnasium is installed;
importing `snapsim.env.openspiel` registers the OpenSpiel games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .state import fresh_seed, new_state

if TYPE_CHECKING:
    from .gymnasium_env import SnapsimGymEnv
    from .pettingzoo_aec import SnapsimAEC

GYM_IDS = {"snapsim/Snapshot-v0": "snapshot", "snapsim/Yosemite-v0": "yosemite",
           "snapsim/ShutterBug-v0": "shutterbug"}


def pettingzoo_env(game: str, **config: Any) -> SnapsimAEC:
    """A PettingZoo AEC environment of `game` with rule knobs `config` (needs snapsim[rl])."""
    from .pettingzoo_aec import SnapsimAEC
    return SnapsimAEC(game, **config)


def gym_env(game: str, seat: int = 0, opponents: str | list[str] = "greedy",
            **config: Any) -> SnapsimGymEnv:
    """A Gymnasium environment: the agent plays `seat`, built-in `opponents` the others
    (one policy spec, or one per seat), rule knobs `config` (needs snapsim[rl])."""
    from .gymnasium_env import SnapsimGymEnv
    return SnapsimGymEnv(game, seat=seat, opponents=opponents, **config)


def _register_gym() -> None:
    try:
        import gymnasium
    except ImportError:
        return
    for env_id, game in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="snapsim.env.gymnasium_env:SnapsimGymEnv",
                               kwargs={"game": game})


_register_gym()

__all__ = ["GYM_IDS", "InputError", "fresh_seed", "gym_env", "new_state", "pettingzoo_env"]
