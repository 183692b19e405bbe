"""Game-agnostic batch running: games register themselves; the runner only sees their spec."""

from .registry import GameSpec, get_game, register
from .runner import simulate

__all__ = ["GameSpec", "get_game", "register", "simulate"]
