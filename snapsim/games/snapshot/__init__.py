"""Snapshot: Wildlife Photographer — components, rules engine, policies, step API."""

from .. import register_game
from . import spec
from .api import SnapshotGame, make_policy, run_games
from .components import load_components
from .config import SnapshotConfig


def _guide(out, games: int, seed: int, threads: int | None = None):
    """Snapshot's own strategy guide: its exact tables beside the rules of thumb."""
    from .strategy import build_strategy

    return build_strategy(out, games=games, seed=seed, threads=threads)


GAME = register_game(__name__, SnapshotConfig.from_knobs, SnapshotGame, title=spec.TITLE,
                     rules=spec.RULES, searched=spec.SEARCHED, guide=_guide,
                     player_notes=spec.PLAYER_NOTES)

__all__ = ["GAME", "SnapshotConfig", "SnapshotGame",
           "load_components", "make_policy", "run_games"]
