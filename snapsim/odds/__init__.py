"""Exact probability kernels for Snapshot: dice sums, explore re-rolls, habitat allocations,
research (spook) risk by card counting, and token value. No sampling anywhere.

The dice sums (`photo_success`, `sum_pmf`) are plain numpy; the rest load their kernels (and
numba) on first use, so a photo table is answered without them."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .sums import photo_success as photo_success
from .sums import sum_pmf as sum_pmf

_KERNELS = ("ExploreOdds", "HabitatValue", "ResearchOdds", "explore_odds", "explore_success",
            "habitat_value", "photo_table", "research_odds", "spook_risk", "spook_table",
            "token_table", "token_value", "unseen_counts")

__all__ = sorted(("photo_success", "sum_pmf", *_KERNELS))


def __getattr__(name: str) -> Any:
    if name in _KERNELS:
        value = getattr(import_module(f"{__name__}.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_KERNELS})
