"""One paired comparison's table: every measure of a baseline run and a variant run played on
common random numbers, with both values and their CIs, the paired difference with its CI and
p-value, what pairing bought, fair-share and outlier flags, and one Holm correction across the
table. `snapsim compare` (report.compare) and rebalancing's verification
(analysis.rebalance) build their tables here, so the two give the same numbers for the same
games.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from .balance import ALPHA, holm
from .measures import Measure, measures, restricted_measure
from .paired import ratio_difference, spread_difference, spread_interval


def value_interval(measure: Measure, value: float, z: float, seed: int = 0,
                   reps: int = 1000) -> tuple[float, float]:
    """A measure's own interval: normal from the delta method for a ratio, a percentile
    bootstrap over games for a spread."""
    if measure.ratio is None:
        return spread_interval(*measure.spread, seed=seed, reps=reps)
    se = float(np.std(measure.ratio.influence(), ddof=1) / math.sqrt(len(measure.ratio.num)))
    return value - z * se, value + z * se


def fair_flag(measure: Measure, value: float, fair: float) -> tuple[str, float]:
    """Whether a win rate differs from the fair share (and the p-value of that test)."""
    if (not measure.name.startswith("win rate") or measure.ratio is None
            or measure.group == "seats"):
        return "", 1.0
    inf = measure.ratio.influence()
    se = float(np.std(inf, ddof=1) / math.sqrt(len(inf)))
    if not math.isfinite(value) or se <= 0:
        return "", 1.0
    p = float(2 * stats.norm.sf(abs(value - fair) / se))
    return ("above fair" if value > fair else "below fair"), p


def measure_rows(base: list[Measure], var: list[Measure], players: int, label: str,
                 seed: int, paired: bool, reps: int) -> list[dict]:
    """One table row per measure the two sides share: both values with CIs, the paired
    difference, its CI and p-value, the standard errors and the fair-share tests."""
    z = stats.norm.ppf(1 - ALPHA / 2)
    theirs = {m.name: m for m in var}
    rows = []
    for m in base:
        other = theirs.get(m.name)
        if other is None:
            continue
        if m.spread is not None:
            d = spread_difference(m.spread, other.spread, seed=seed, reps=reps, paired=paired)
        else:
            d = ratio_difference(m.ratio, other.ratio, paired=paired)
        lo, hi = d.ci
        b_lo, b_hi = value_interval(m, d.baseline, z, seed, reps)
        v_lo, v_hi = value_interval(other, d.variant, z, seed, reps)
        bf, bp = fair_flag(m, d.baseline, 1 / players)
        vf, vp = fair_flag(other, d.variant, 1 / players)
        rows.append({"variant": label, "players": players, "group": m.group,
                     "measure": m.name, "unit": m.unit, "baseline": d.baseline,
                     "baseline_ci_low": b_lo, "baseline_ci_high": b_hi,
                     "variant_value": d.variant, "variant_ci_low": v_lo,
                     "variant_ci_high": v_hi, "diff": d.diff, "ci_low": lo, "ci_high": hi,
                     "p_value": d.p_value, "se_paired": d.se, "se_unpaired": d.se_unpaired,
                     "variance_reduction": d.variance_reduction, "detectable": d.detectable,
                     "games": d.n, "baseline_flag": bf, "p_baseline_fair": bp,
                     "variant_flag": vf, "p_variant_fair": vp})
    return rows


def outliers(table: pd.DataFrame, groups) -> pd.DataFrame:
    """Within each outlier group (e.g. card values), flag a value more than 2.5 robust
    standard deviations (median absolute deviation) from the group's median, per side."""
    for side, value in (("baseline", "baseline"), ("variant", "variant_value")):
        for _, rows in table[table.group.isin(groups)].groupby(["variant", "players", "group"]):
            x = rows[value].to_numpy(float)
            mad = stats.median_abs_deviation(x, nan_policy="omit", scale="normal")
            if not mad > 0:
                continue
            z = (x - np.nanmedian(x)) / mad
            table.loc[rows.index, f"{side}_flag"] = np.where(
                np.abs(z) > 2.5, np.where(z > 0, "outlier high", "outlier low"), "")
    return table


def flag_table(table: pd.DataFrame, outlier_groups=()) -> pd.DataFrame:
    """Holm across everything in the comparison; fair-share flags Holm-corrected per side."""
    table = table.copy()
    table["p_adjusted"] = holm(table.p_value.fillna(1.0).to_numpy()) if len(table) else []
    table["significant"] = table.p_adjusted < ALPHA
    for side in ("baseline", "variant"):
        p = table[f"p_{side}_fair"].to_numpy()
        keep = holm(p) < ALPHA if len(p) else np.array([], bool)
        table[f"{side}_flag"] = np.where(keep, table[f"{side}_flag"], "")
    return outliers(table, outlier_groups)


def side_measures(runner, config, lineup, mspec, restrictions, spec, n_seats, seed):
    """Every measure of one side: its run's, restricted play's (one seat forbidden an action,
    the others the game's default policy) and the game's extra ones; `runner.run(config,
    line-up, seed)` plays a run (seed None: the runner's)."""
    df = runner.run(config, lineup, seed)
    found = measures(df, mspec, config)
    for label, policy in restrictions.items():
        line = [policy] + [spec.default_policy] * (n_seats - 1)
        found.append(restricted_measure(runner.run(config, line, seed), policy, label))
    if mspec.extra is not None:
        found += [Measure(name, group, unit, ratio) for name, group, unit, ratio in
                  mspec.extra(config, lineup, runner.games,
                              runner.seed if seed is None else seed, runner.threads)]
    return found
