"""Holds / changes / reverses / inconclusive on constructed pairs of measurements."""

import math

import numpy as np
import pytest
from scipy import stats

from snapsim.analysis.labels import Estimate, Finding, label_findings
from snapsim.analysis.paired import Ratio, ratio_difference


def est(effect, se, games=1000):
    return Estimate(effect, se, games)


def test_one_finding_of_each_label():
    findings = [
        Finding("first seat wins more", est(0.05, 0.01), est(0.048, 0.01)),  # same effect
        Finding("tokens worth more", est(0.05, 0.01), est(0.15, 0.01)),  # triples
        Finding("cautious beats greedy", est(0.05, 0.01), est(-0.06, 0.01)),  # flips
        Finding("raccoon helps", est(0.05, 0.01), est(0.02, 0.015)),  # strong one unclear
    ]
    out = label_findings(findings).set_index("finding")
    assert list(out.label) == ["holds", "changes", "reverses", "inconclusive"]
    assert math.isnan(out.settle_games.iloc[0]) and out.settle_games.iloc[3] > 1000
    # the reversal has the smallest change p-value, the tripled effect the next: x 3
    assert out.p_change_holm.iloc[1] == pytest.approx(3 * out.p_change.iloc[1])


def test_estimate_from_a_95_percent_interval():
    e = Estimate.from_ci(0.1, 0.1 - 1.959964 * 0.02, 0.1 + 1.959964 * 0.02, 500)
    assert e.se == pytest.approx(0.02, rel=1e-6)
    assert e.p_value == pytest.approx(2 * stats.norm.sf(5), rel=1e-6)


def test_holm_correction_turns_a_borderline_change_into_holds():
    # the change has z = 2.2 (p 0.028): alone it is a change, among 3 findings it is not
    borderline = Finding("borderline", est(0.10, 0.01), est(0.10 + 2.2 * math.hypot(0.01, 0.01),
                                                            0.01))
    alone = label_findings([borderline])
    assert alone.label[0] == "changes" and alone.p_change[0] == pytest.approx(0.0278, abs=1e-3)
    same = Finding("steady", est(0.2, 0.01), est(0.2, 0.01))
    family = label_findings([borderline, same, same])
    assert family.label[0] == "holds"
    assert family.p_change_holm[0] == pytest.approx(3 * family.p_change[0])


def test_pairing_decides_a_change_independent_samples_miss():
    # the same deals under both line-ups: the shared luck cancels in the paired difference
    rng = np.random.default_rng(1)
    luck = rng.normal(0, 1, 4000)
    greedy = luck + rng.normal(0, 0.1, luck.size)
    strong = luck + 0.03 + rng.normal(0, 0.1, luck.size)
    g, s = Ratio.mean(greedy), Ratio.mean(strong)
    d = ratio_difference(g, s)
    se_g = greedy.std(ddof=1) / math.sqrt(luck.size)
    se_s = strong.std(ddof=1) / math.sqrt(luck.size)
    unpaired = Finding("x", est(greedy.mean(), se_g, luck.size), est(strong.mean(), se_s,
                                                                      luck.size))
    paired = Finding("x", unpaired.greedy, unpaired.strong, paired_se=d.se)
    assert label_findings([unpaired]).p_change[0] > 0.05
    row = label_findings([paired]).iloc[0]
    assert row.paired and row.p_change < 1e-6


def test_settle_games_give_80_percent_power_by_simulation():
    # strong effect 0.02 with se 0.015 on 1000 games: not significant; at settle_games its
    # se shrinks as 1/sqrt(n) and the effect is found 80% of the time
    f = Finding("f", est(0.05, 0.01), est(0.02, 0.015))
    n = label_findings([f]).settle_games[0]
    assert n == math.ceil((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) ** 2
                          * (0.015 ** 2 * 1000) / 0.02 ** 2)
    se_n = 0.015 * math.sqrt(1000 / n)
    draws = np.random.default_rng(0).normal(0.02, se_n, 20_000)
    power = np.mean(np.abs(draws / se_n) > stats.norm.ppf(0.975))
    assert power == pytest.approx(0.80, abs=0.015)


def test_neither_significant_is_inconclusive_not_holds():
    out = label_findings([Finding("none", est(0.005, 0.01), est(0.004, 0.01))])
    assert out.label[0] == "inconclusive" and out.settle_games[0] > 1000
