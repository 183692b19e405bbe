"""Game-agnostic batch running: games register themselves; the runner only sees their spec."""

from .registry import GameSpec, get_game, register
from .runner import RunResult, run, simulate
from .sweep import load, read_sweep, run_sweep

__all__ = ["GameSpec", "RunResult", "get_game", "load", "read_sweep", "register", "run",
           "run_sweep", "simulate"]
