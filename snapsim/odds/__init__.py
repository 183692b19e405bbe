"""Exact probability kernels for Snapshot: dice sums, explore re-rolls, habitat allocations,
research (spook) risk by card counting, and token value. No sampling anywhere."""

from .api import (
    ExploreOdds,
    HabitatValue,
    ResearchOdds,
    explore_odds,
    explore_success,
    habitat_value,
    photo_success,
    photo_table,
    research_odds,
    spook_risk,
    spook_table,
    sum_pmf,
    token_table,
    token_value,
    unseen_counts,
)

__all__ = [
    "ExploreOdds",
    "HabitatValue",
    "ResearchOdds",
    "explore_odds",
    "explore_success",
    "habitat_value",
    "photo_success",
    "photo_table",
    "research_odds",
    "spook_risk",
    "spook_table",
    "sum_pmf",
    "token_table",
    "token_value",
    "unseen_counts",
]
