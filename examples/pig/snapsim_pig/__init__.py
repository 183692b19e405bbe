"""Pig, the one-die push-your-luck game, as a snapsim game in a package of its own: rules
engine, players, step API, measures, report and strategy guide. Installed, it names itself
in the entry point group `snapsim.games`, and snapsim registers it on first use."""

from snapsim.games import register_game

from . import spec
from .api import PigGame, make_policy, run_games
from .components import load_components
from .config import PigConfig


def _guide(out, games: int, seed: int, threads: int | None = None):
    """Pig's strategy guide: exact win chances of threshold players (guide.py)."""
    from .guide import build_guide

    return build_guide(out, games=games, seed=seed, threads=threads)


GAME = register_game(__name__, PigConfig.from_knobs, PigGame, name="pig", title=spec.TITLE,
                     searched=spec.SEARCHED, guide=_guide)

__all__ = ["GAME", "PigConfig", "PigGame", "load_components", "make_policy", "run_games"]
