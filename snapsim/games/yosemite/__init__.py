"""Yosemite (two players) — components, rules engine, policies, step API."""

from .. import register_game
from .api import YosemiteGame, make_policy, run_games
from .components import load_components
from .config import YosemiteConfig

GAME = register_game(__name__, YosemiteConfig.from_knobs, YosemiteGame)

__all__ = ["GAME", "YosemiteConfig", "YosemiteGame",
           "load_components", "make_policy", "run_games"]
