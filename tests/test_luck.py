"""Luck and skill: the variance decomposition of duplicate play on games whose answer is
known, and the luck section of a report."""

import numpy as np
import pandas as pd
import pytest

from snapsim.analysis.luck import (
    decompose,
    duplicate_results,
    rotations,
    win_rate_over_deals,
)
from snapsim.sim import simulate


def synthetic(deals: int, skill: float, deal: float, rest: float, seed: int = 0):
    """Two policies A (+skill/2) and B (-skill/2) in both rotations of every deal; each
    seat's deal effect has variance `deal`, the rest of the result variance `rest`."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(deals):
        beta = rng.normal(0, np.sqrt(deal), 2)
        for lineup in rotations(["A", "B"]):
            for s, p in enumerate(lineup):
                y = (skill / 2 if p == "A" else -skill / 2) + beta[s] + rng.normal(0, np.sqrt(rest))
                rows.append((d, s, p, y))
    return pd.DataFrame(rows, columns=["deal", "seat", "policy", "won"])


@pytest.mark.parametrize("skill,deal,rest", [(1.0, 1.0, 1.0), (0.0, 2.0, 1.0), (2.0, 0.0, 1.0)])
def test_the_shares_recover_known_variance_components(skill, deal, rest):
    # the policy effect +-skill/2 has variance skill^2/4 over the results
    total = skill ** 2 / 4 + deal + rest
    dec = decompose(synthetic(4000, skill, deal, rest), reps=200)
    for part, var in (("skill", skill ** 2 / 4), ("deal", deal), ("rest", rest)):
        lo, hi = dec.ci[part]
        assert lo - 0.01 <= var / total <= hi + 0.01, (part, dec.share[part], var / total)


def test_rotations_are_distinct_and_start_with_the_line_up():
    assert rotations(["t", "g", "g"]) == [["t", "g", "g"], ["g", "g", "t"], ["g", "t", "g"]]
    assert rotations(["g", "g"]) == [["g", "g"]]


def duplicate(game, lineup, games, players, seed=3):
    return [simulate(game, policies=rot, games=games, seed=seed, rotate_seats=False,
                     players=players, threads=1) for rot in rotations(lineup)]


def test_policies_that_play_alike_have_no_skill_share():
    # the same policy under two names, A and B, in both seat orders of every deal: which of
    # them sits where cannot matter, so skill explains nothing and the deal everything
    run = simulate("yosemite", policies=["random", "random"], games=300, seed=3,
                   rotate_seats=False, threads=1)
    res = duplicate_results([run, run.copy()])
    rotation = np.repeat([0, 1], len(run))
    res["policy"] = np.where((res.seat.to_numpy() + rotation) % 2 == 0, "A", "B")
    dec = decompose(res, reps=300)
    lo, hi = dec.ci["skill"]
    assert lo <= 0.0 <= hi and abs(dec.share["skill"]) < 1e-9
    assert dec.share["deal"] == pytest.approx(1.0)


def test_greedy_against_random_gives_a_large_skill_share_with_its_interval():
    res = duplicate_results(duplicate("yosemite", ["greedy", "random"], 200, 2))
    dec = decompose(res, reps=300)
    lo, hi = dec.ci["skill"]
    assert 0.5 < lo <= dec.share["skill"] <= hi <= 1.0 + 1e-9
    rate, rlo, rhi = win_rate_over_deals(res, "greedy")
    assert rlo <= rate <= rhi and rate > 0.9


def test_a_report_opens_with_luck_and_skill(tmp_path):
    from snapsim.games.yosemite.report import build

    build(tmp_path, games=60, seed=1, studies=["luck"], progress=False)
    table = pd.read_csv(tmp_path / "luck_and_skill.csv")
    assert set(table.opponents) == {"greedy", "random"} and set(table.policy) == {"tuned-2p"}
    for part in ("skill", "deal", "rest"):
        assert (table[f"{part}_share_ci_low"] <= table[f"{part}_share"] + 1e-12).all()
    md = (tmp_path / "report.md").read_text()
    summary = md.split("## Summary", 1)[1].split("## Key findings", 1)[0]
    assert "Luck and skill, 2 players: tuned-2p wins" in summary
    assert "skill decides" in summary and "the deal" in summary
