"""Exact probability kernels for Snapshot: dice sums, explore re-rolls, habitat allocations,
research (spook) risk by card counting, and token value. No sampling anywhere.

The dice sums (`photo_success`, `sum_pmf`) are plain numpy; the rest load their kernels (and
numba) on first use, so a photo table is answered without them."""

from __future__ import annotations

from typing import Any

from ..lazy import attribute as _attribute
from ..lazy import names as _names
from .sums import photo_success as photo_success
from .sums import sum_pmf as sum_pmf

_LAZY = dict.fromkeys(("ExploreOdds", "HabitatValue", "ResearchOdds", "explore_odds",
                       "explore_success", "habitat_value", "photo_table", "research_odds",
                       "spook_risk", "spook_table", "token_table", "token_value",
                       "unseen_counts"), ".api")

__all__ = sorted(("photo_success", "sum_pmf", *_LAZY))


def __getattr__(name: str) -> Any:
    return _attribute(__name__, _LAZY, name)


def __dir__() -> list[str]:
    return _names(__name__, _LAZY)
