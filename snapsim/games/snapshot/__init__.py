"""Snapshot: Wildlife Photographer — components, rules engine, policies, step API."""

from .. import register_game
from .api import SnapshotGame, make_policy, run_games
from .components import load_components
from .config import SnapshotConfig

GAME = register_game(__name__, SnapshotConfig.from_knobs, SnapshotGame)

__all__ = ["GAME", "SnapshotConfig", "SnapshotGame",
           "load_components", "make_policy", "run_games"]
