"""Classes against the smallest effect of interest, labels under strong play, the ranking rule
and the one multiplicity standard, on hand-made estimates whose answer is known."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from snapsim.analysis.effects import (
    Claim,
    Estimate,
    Smallest,
    Standard,
    claim,
    classify,
    games_to_settle,
    rank,
)
from snapsim.analysis.labels import LABELS, Finding, label, label_findings
from snapsim.analysis.paired import Ratio, ratio_difference
from snapsim.errors import InputError

Z = stats.norm.ppf(0.975)


def est(effect, se, games=1000):
    return Estimate(effect, se, games)


# ---------------------------------------------------------------- classes


@pytest.mark.parametrize("effect,se,cls", [
    (0.05, 0.01, "meaningful"),    # 95% CI [3.0, 7.0] pp lies beyond ±2 pp
    (0.004, 0.005, "negligible"),  # [-0.6, 1.4] pp lies within ±2 pp
    (0.025, 0.01, "unresolved"),   # [0.5, 4.5] pp straddles the band's edge
    (-0.05, 0.01, "meaningful"),   # either sign
])
def test_an_estimate_is_classed_by_where_its_interval_lies(effect, se, cls):
    assert classify(effect, se, 0.02) == cls
    lo, hi = effect - Z * se, effect + Z * se
    if cls == "meaningful":
        assert lo > 0.02 or hi < -0.02
    if cls == "negligible":
        assert lo > -0.02 and hi < 0.02


def test_the_equivalence_test_is_two_one_sided_tests():
    # TOST at 2.5% a side: negligible exactly when both one-sided tests reject
    effect, se, delta = 0.006, 0.006, 0.02
    p_low = stats.norm.sf((effect + delta) / se)  # H0: effect <= -delta
    p_high = stats.norm.cdf((effect - delta) / se)  # H0: effect >= +delta
    kind, p = claim(effect, se, delta)
    assert kind == "negligible" and p == pytest.approx(2 * max(p_low, p_high))
    assert (p < 0.05) == (max(p_low, p_high) < 0.025)


def test_with_no_band_meaningful_is_the_ordinary_two_sided_test():
    e = est(0.03, 0.012)
    kind, p = claim(0.03, 0.012, 0.0)
    assert kind == "meaningful" and p == pytest.approx(e.p_value)
    assert e.p_value == pytest.approx(2 * stats.norm.sf(2.5))


def test_games_to_settle_give_80_percent_power_by_simulation():
    e = est(0.035, 0.01, 1000)  # 3.5 pp: 1.5 pp past the band, unresolved at this n
    n = games_to_settle(e, 0.02)
    se_n = 0.01 * math.sqrt(1000 / n)
    draws = np.random.default_rng(0).normal(0.035, se_n, 20_000)
    passed = np.mean([classify(d, se_n, 0.02) == "meaningful" for d in draws[:4000]])
    assert passed == pytest.approx(0.80, abs=0.03)


def test_smallest_effects_have_their_units_and_parse_from_the_command_line():
    s = Smallest()
    assert s.delta("rate") == s.delta("pp") == 0.02 and s.delta("points") == 0.5
    assert s.delta("rounds") == 0.25 and s.delta("turns") == 0.5
    assert s.delta("prestige per die", 1.5) == pytest.approx(0.15)
    assert math.isnan(s.delta("count"))
    assert Smallest.parse(["rate=1", "relative=5"]) == Smallest(rate=1.0, relative=5.0)
    for bad in ("rate", "speed=2", "rate=-1", "rate=x"):
        with pytest.raises(InputError, match="--smallest-effect"):
            Smallest.parse([bad])
    with pytest.raises(InputError, match="twice"):
        Smallest.parse(["rate=1", "rate=2"])


# ---------------------------------------------------------------- labels, one test each

SILENT = "tuned-4p never makes the action measured: 0 trades in 1,200 player-games"


def one(measured, strong, paired_se=None, silent=None):
    return label_findings([Finding("f", measured, strong, paired_se, 0.02, silent)]).iloc[0]


def test_holds_when_meaningful_under_both_with_the_same_sign():
    row = one(est(0.06, 0.005), est(0.058, 0.005))
    assert (row.class_measured, row.class_strong, row.label) == ("meaningful", "meaningful",
                                                                 "holds")


def test_holds_when_negligible_under_both():
    row = one(est(0.002, 0.004), est(-0.003, 0.004))
    assert (row.class_measured, row.class_strong, row.label) == ("negligible", "negligible",
                                                                 "holds")


def test_weakens_when_the_difference_between_line_ups_is_itself_meaningful():
    row = one(est(0.20, 0.005), est(0.10, 0.005))
    assert row.class_change == "meaningful" and row.label == "weakens"


def test_strengthens():
    row = one(est(0.08, 0.005), est(0.15, 0.005))
    assert row.class_change == "meaningful" and row.label == "strengthens"


def test_reverses():
    row = one(est(0.06, 0.005), est(-0.06, 0.005))
    assert row.label == "reverses"
    # neither estimate settled, but the change between the line-ups is, across zero: not
    # "strengthens" although the strong effect is the larger
    row = one(est(-0.03, 0.008), est(0.058, 0.02))
    assert (row.class_measured, row.class_strong, row.class_change) == \
        ("unresolved", "unresolved", "meaningful") and row.label == "reverses"


def test_vanishes_and_appears():
    assert one(est(0.06, 0.005), est(0.001, 0.004)).label == "vanishes"
    assert one(est(0.001, 0.004), est(0.06, 0.005)).label == "appears"


def test_unresolved_with_the_games_per_line_up_that_would_settle_it():
    row = one(est(0.06, 0.005), est(0.03, 0.01))
    assert row.class_strong == "unresolved" and row.label == "unresolved"
    # at the claim's Holm-adjusted level, more games than a lone test would need
    assert row.settle_games > games_to_settle(est(0.03, 0.01), 0.02) > 1000


def test_not_comparable_overrides_the_numbers():
    row = one(est(0.06, 0.005), est(0.0, 0.0), silent=SILENT)
    assert row.label == "not comparable" and row.why == SILENT


def test_a_change_of_size_alone_is_no_longer_a_label():
    # both meaningful, same sign, sizes close: the old "changes" had it; now it holds
    row = one(est(0.209, 0.004), est(0.200, 0.004), paired_se=0.003)
    assert row.label == "holds" and row.class_change != "meaningful"
    assert set(LABELS) == {"holds", "weakens", "strengthens", "reverses", "appears",
                           "vanishes", "unresolved", "not comparable"}


def test_label_is_a_function_of_the_classes():
    assert label("meaningful", "meaningful", "unresolved", 1, -1) == "reverses"
    assert label("unresolved", "meaningful", "unresolved", 0.01, 0.05) == "unresolved"
    assert label("meaningful", "unresolved", "meaningful", 0.05, 0.01) == "weakens"


def test_pairing_decides_a_change_independent_samples_miss():
    # the same deals under both line-ups: the shared luck cancels in the paired difference
    rng = np.random.default_rng(1)
    luck = rng.normal(0, 1, 4000)
    greedy = luck + rng.normal(0, 0.1, luck.size)
    strong = luck + 0.06 + rng.normal(0, 0.1, luck.size)
    g, s = Ratio.mean(greedy), Ratio.mean(strong)
    d = ratio_difference(g, s)
    se_g = greedy.std(ddof=1) / math.sqrt(luck.size)
    se_s = strong.std(ddof=1) / math.sqrt(luck.size)
    unpaired = Finding("x", est(greedy.mean(), se_g, luck.size), est(strong.mean(), se_s,
                                                                      luck.size), delta=0.03)
    paired = Finding("x", unpaired.measured, unpaired.strong, paired_se=d.se, delta=0.03)
    assert label_findings([unpaired]).class_change[0] == "unresolved"
    row = label_findings([paired]).iloc[0]
    assert row.paired and row.class_change == "meaningful"


# ---------------------------------------------------------------- rankings


def test_overlapping_intervals_make_a_tied_group():
    # Hetch Hetchy 3.55 [3.47, 3.62] against Glacier Point 3.46 [3.39, 3.53] (the report's
    # numbers before): their difference is 1.7 standard errors, so no order is claimed
    standard = Standard()
    names = ["Hetch Hetchy", "Glacier Point", "El Capitan"]
    values = [Estimate.from_ci(3.55, 3.47, 3.62, 5000), Estimate.from_ci(3.46, 3.39, 3.53, 5000),
              Estimate.from_ci(2.90, 2.83, 2.97, 5000)]
    r = rank(standard, "most", names, values)
    assert [names[i] for i in r.group()] == ["Hetch Hetchy", "Glacier Point"]
    assert r.text() == "Hetch Hetchy and Glacier Point, not distinguishable at this n"


def test_separated_intervals_name_the_leader_alone():
    standard = Standard()
    values = [est(5.0, 0.1), est(4.0, 0.1), est(3.0, 0.1)]
    r = rank(standard, "most", ["a", "b", "c"], values)
    low = rank(standard, "least", ["a", "b", "c"], values, highest=False)
    assert r.group() == [0] and r.alone and r.text(lambda i: " (5.0)") == "a (5.0)"
    assert low.group() == [2]


def test_a_ranking_passes_the_standard_not_a_raw_test():
    # the leader's lead is z = 2.1 over each of 20 others: raw p 0.036 each, not after Holm
    standard = Standard()
    values = [est(0.021 * math.sqrt(2), 0.01)] + [est(0.0, 0.01)] * 20
    r = rank(standard, "most", [f"x{i}" for i in range(21)], values)
    assert all(standard.raw()[k] < 0.05 for k in r.keys.values())
    assert len(r.group()) == 21
    assert r.text().endswith("not distinguishable from 20 others at this n")


# ---------------------------------------------------------------- one standard


def test_the_standard_is_holm_across_every_claim_and_is_settled_once():
    standard = Standard()
    claims = [Claim.make(standard, f"c{i}", est(0.0, 0.01), 0.0) for i in range(19)]
    planted = Claim.make(standard, "planted", est(1.97 * 0.01, 0.01), 0.0)
    assert planted.estimate.p_value == pytest.approx(0.0488, abs=1e-3)
    assert planted.cls == "unresolved"
    assert planted.p_adjusted == pytest.approx(20 * planted.estimate.p_value)
    assert all(c.cls == "unresolved" for c in claims)
    with pytest.raises(RuntimeError, match="settled"):
        standard.add("late", 0.001)
    alone = Standard()
    assert Claim.make(alone, "planted", planted.estimate, 0.0).cls == "meaningful"


def test_holm_adjusted_p_values_match_statsmodels_definition():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    standard = Standard()
    keys = [standard.add(f"k{i}", x) for i, x in enumerate(p)]
    # Holm: sorted p_(i) * (m - i + 1), running maximum, capped at 1
    order = np.argsort(p)
    expected = np.maximum.accumulate(p[order] * (4 - np.arange(4)))
    got = pd.Series([standard.adjusted(k) for k in keys]).to_numpy()[order]
    assert got == pytest.approx(np.minimum(expected, 1))


def test_a_share_that_rounds_to_zero_prints_without_a_sign():
    from snapsim.analysis.effects import pct

    assert (pct(-0.00001), pct(-0.001), pct(0.4567)) == ("0.0%", "-0.1%", "45.7%")
