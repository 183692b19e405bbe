"""Snapshot's tuned policies: the game-generic tuner (`snapsim.games.tuning`) bound to
Snapshot, with the names the rest of the package uses.

The searched parameters (`SEARCHED`) are research risk, placements per turn, the risk
divisor while a reserve slot is free, token value, and the reserving and offering
thresholds; the bundled tuned-<N>p.toml files are in `DATA`.
"""

from __future__ import annotations

from pathlib import Path

from ...sim.kernel import Policy
from .. import tuning as T
from ..tuning import TuneResult, save_tuned
from .spec import SEARCHED

__all__ = ["DATA", "SEARCHED", "TuneResult", "read_tuned", "save_tuned", "tune",
           "tuned_policies"]

DATA = Path(__file__).resolve().parent / "data"


def _policy(base: str, values, name: str = "candidate") -> Policy:
    return T.candidate("snapshot", base, values, name)


def tune(players: int = 4, base: str = "greedy", field: str = "greedy", games: int = 1000,
         seed: int = 0, iterations: int = 4, popsize: int = 5, verify_games: int = 20_000,
         threads: int | None = None, components=None, **knobs) -> TuneResult:
    """`snapsim.games.tuning.tune` for Snapshot (default: 4 players)."""
    return T.tune("snapshot", players, base, field, games, seed, iterations, popsize,
                  verify_games, threads, components, **knobs)


def read_tuned(path) -> tuple[str, tuple[float, ...]]:
    """(base kind, parameter vector) of a Snapshot tuned-policy file."""
    return T.read_tuned("snapshot", path)


def tuned_policies(folder: Path = DATA) -> dict[str, tuple[str, tuple[float, ...]]]:
    """Tuned policies by name (bundled in the data folder): (base kind, parameter vector)."""
    return T.tuned_policies("snapshot", folder)
