"""Yosemite (two players) — components, rules engine, policies, step API."""

from .. import register_game
from . import spec
from .api import YosemiteGame, make_policy, run_games
from .components import load_components
from .config import YosemiteConfig

GAME = register_game(__name__, YosemiteConfig.from_knobs, YosemiteGame, title=spec.TITLE,
                     rules=spec.RULES, searched=spec.SEARCHED)

__all__ = ["GAME", "YosemiteConfig", "YosemiteGame",
           "load_components", "make_policy", "run_games"]
