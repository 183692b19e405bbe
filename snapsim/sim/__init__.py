"""Game-agnostic batch running: games register themselves; the runner only sees their spec.

The names below are imported on first use, so `snapsim.sim.checks` and the other small
modules load without pandas, pyarrow or the kernels."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {"GameSpec": "registry", "get_game": "registry", "register": "registry",
         "RunResult": "runner", "run": "runner", "simulate": "runner",
         "load": "sweep", "read_sweep": "sweep", "run_sweep": "sweep"}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
