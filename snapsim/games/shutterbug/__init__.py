"""ShutterBug (Calliope, 2017): components, rules engine, policies, step API."""

from .. import register_game
from . import spec
from .api import ShutterbugGame, make_policy, run_games
from .components import load_components
from .config import ShutterbugConfig

GAME = register_game(__name__, ShutterbugConfig.from_knobs, ShutterbugGame, title=spec.TITLE,
                     rules=spec.RULES, searched=spec.SEARCHED)

__all__ = ["GAME", "ShutterbugConfig", "ShutterbugGame",
           "load_components", "make_policy", "run_games"]
