"""A report's budgets beyond its runs (the fixes' search, the ladder's search tables) follow
its --games: the committed reports' sizes spend exactly what their provenance records, a
small report spends less, never below the floors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from snapsim.report.studies import FIX_MIN, FULL_BUDGET, SEARCH_GAMES_MIN, budgets

REPORTS = Path(__file__).resolve().parents[1] / "reports"


@pytest.mark.parametrize("game", ["snapshot", "yosemite", "shutterbug"])
def test_a_committed_report_spends_what_its_provenance_records(game):
    record = json.loads((REPORTS / game / "provenance.json").read_text())
    spend = budgets(record["games"])
    ladder = record["ladder"]
    assert (spend["ladder_games"], spend["search_games"]) == (
        ladder["games_per_table"], ladder["search_games_per_table"])
    for fix in record.get("fixes", {}).values():
        assert fix["budget"]["candidates"] == spend["fix_candidates"]
        assert (fix["games"], fix["verify_games"]) == (spend["fix_games"],
                                                        spend["verify_games"])


def test_the_committed_sizes_keep_their_budgets():
    assert budgets(20_000) == {"fix_candidates": 40, "fix_games": 5_000, "verify_games": 10_000,
                               "ladder_games": 2_000, "search_games": 200}
    assert budgets(5_000)["search_games"] == 50 and budgets(3_000)["search_games"] == 30
    assert budgets(FULL_BUDGET)["fix_candidates"] == 40
    assert budgets(FULL_BUDGET - 100)["fix_candidates"] == 39


def test_a_small_report_spends_in_proportion_down_to_the_floors():
    assert budgets(2_000)["fix_candidates"] == 27  # 40 x 2,000 / 3,000
    assert budgets(2_000)["search_games"] == 16  # 24 x 2,000 / 3,000
    tiny = budgets(60)
    assert tiny["fix_candidates"] == FIX_MIN and tiny["search_games"] == SEARCH_GAMES_MIN
    sizes = range(10, 4_000, 37)
    for key in ("fix_candidates", "search_games", "ladder_games"):
        spent = [budgets(g)[key] for g in sizes]
        assert spent == sorted(spent)  # more games never spend less
    assert budgets(2_000, ladder_games=500)["ladder_games"] == 500
