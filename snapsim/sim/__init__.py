"""Game-agnostic batch running: games register themselves; the runner only sees their spec.

The names below are imported on first use, so `snapsim.sim.checks` and the other small
modules load without pandas, pyarrow or the kernels."""

from __future__ import annotations

from typing import Any

from ..lazy import attribute as _attribute
from ..lazy import names as _names

_LAZY = {"GameSpec": ".registry", "get_game": ".registry", "register": ".registry",
         "RunResult": ".runner", "run": ".runner", "simulate": ".runner",
         "load": ".sweep", "read_sweep": ".sweep", "run_sweep": ".sweep"}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    return _attribute(__name__, _LAZY, name)


def __dir__() -> list[str]:
    return _names(__name__, _LAZY)
