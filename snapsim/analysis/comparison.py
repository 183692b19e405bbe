"""One paired comparison's table: every measure of a baseline run and a variant run played on
common random numbers, with both values and their CIs, the paired difference with its CI and
p-value, what pairing bought, and its claims: each difference classed against the smallest
effect of interest of its unit, fair-share and outlier flags, all under one standard (Holm
across the table, `effects`). `snapsim compare` (report.compare) and rebalancing's
verification (analysis.rebalance) build their tables here, so the two give the same numbers
for the same games.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .balance import ALPHA
from .effects import MEANINGFUL, Claim, Estimate, Smallest, Standard
from .measures import Measure, measures, restricted_measure
from .normal import norm_ppf, norm_sf
from .paired import rate_interval, ratio_difference, spread_difference, spread_interval


def value_interval(measure: Measure, value: float, z: float, seed: int = 0,
                   reps: int = 1000) -> tuple[float, float]:
    """A measure's own interval: normal from the delta method for a ratio (on the logit
    scale for a rate, so it stays within [0, 1]), a percentile bootstrap over games for a
    spread."""
    if measure.ratio is None:
        assert measure.spread is not None  # a measure is a ratio or a spread
        num, den = measure.spread
        return spread_interval(num, den, seed=seed, reps=reps)
    if measure.unit == "rate":
        return rate_interval(measure.ratio, z)
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
    p = float(2 * norm_sf(abs(value - fair) / se))
    return ("above fair" if value > fair else "below fair"), p


def measure_rows(base: list[Measure], var: list[Measure], players: int, label: str,
                 seed: int, paired: bool, reps: int) -> list[dict]:
    """One table row per measure the two sides share: both values with CIs, the paired
    difference, its CI and p-value, the standard errors and the fair-share tests."""
    z = norm_ppf(1 - ALPHA / 2)
    theirs = {m.name: m for m in var}
    rows = []
    for m in base:
        other = theirs.get(m.name)
        if other is None:
            continue
        if m.spread is not None:
            assert other.spread is not None  # the same measure on the other side
            d = spread_difference(m.spread, other.spread, seed=seed, reps=reps, paired=paired)
        else:
            assert m.ratio is not None and other.ratio is not None
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


def smallest_delta(row, smallest: Smallest) -> float:
    """The smallest effect of interest of one row's difference, in its unit (rates 0-1;
    counts and per-card values relative to the baseline value)."""
    return smallest.delta(row.unit, row.baseline)


class Flags:
    """The claims of a comparison table under a standard: each difference's class against
    the smallest effect of interest of its unit; each win rate's side flag ("above fair" or
    "below fair" when meaningfully off the fair share); within each outlier group (e.g. card
    values), a value more than 2.5 robust standard deviations (median absolute deviation)
    from the group's median and meaningfully far from it ("outlier high" or "outlier low").
    `register` adds them to a standard; once it is settled, `fill` writes the columns."""

    def __init__(self, table: pd.DataFrame, outlier_groups=(), smallest: Smallest | None = None):
        self.table = table.copy()
        self.groups = tuple(outlier_groups)
        self.smallest = smallest or Smallest()
        self.diffs: list[Claim] = []
        self.sides: dict[tuple[int, str], Claim] = {}
        self.outliers: dict[tuple[int, str], tuple[Claim, float]] = {}

    def register(self, standard: Standard) -> Flags:
        from scipy.stats import median_abs_deviation  # here: scipy.stats is slow to import

        t, z = self.table, norm_ppf(1 - ALPHA / 2)
        t["smallest"] = [smallest_delta(r, self.smallest) for r in t.itertuples()]
        for i, r in enumerate(t.itertuples()):
            name = f"{r.variant}, {r.players}p, {r.measure}"
            self.diffs.append(Claim.make(standard, name, Estimate(r.diff, r.se_paired, r.games),
                                         r.smallest))
            for side, value in (("baseline", "baseline"), ("variant", "variant_value")):
                if getattr(r, f"{side}_flag") and np.isfinite(getattr(r, value)):
                    fair = 1 / r.players
                    lo, hi = getattr(r, f"{side}_ci_low"), getattr(r, f"{side}_ci_high")
                    est = Estimate(getattr(r, value) - fair, (hi - lo) / (2 * z), r.games)
                    self.sides[(i, side)] = Claim.make(standard, f"{name}: {side} vs fair",
                                                       est, self.smallest.delta("rate"))
        for _, rows in t[t.group.isin(self.groups)].groupby(["variant", "players", "group"]):
            for side, value in (("baseline", "baseline"), ("variant", "variant_value")):
                x = rows[value].to_numpy(float)
                mad = median_abs_deviation(x, nan_policy="omit", scale="normal")
                if not mad > 0:
                    continue
                med = float(np.nanmedian(x))
                for i, r in zip(rows.index, rows.itertuples(), strict=True):
                    k = t.index.get_loc(i)
                    lo, hi = getattr(r, f"{side}_ci_low"), getattr(r, f"{side}_ci_high")
                    est = Estimate(getattr(r, value) - med, (hi - lo) / (2 * z), r.games)
                    robust = (getattr(r, value) - med) / mad
                    self.outliers[(k, side)] = (Claim.make(
                        standard, f"{r.variant}, {r.players}p, {r.measure}: {side} vs median",
                        est, self.smallest.delta(r.unit, med)), robust)
        return self

    def side(self, i: int, side: str) -> tuple[Claim, str, float] | None:
        """The claim row `i`'s flag on `side` ("baseline" or "variant") was decided on, what
        it is measured from ("from fair" or "from the median") and the robust z an outlier
        needs beyond 2.5 too (NaN for a win rate); None where no flag is tested."""
        if (i, side) in self.outliers:
            return self.outliers[(i, side)][0], "from the median", self.outliers[(i, side)][1]
        if (i, side) in self.sides:
            return self.sides[(i, side)], "from fair", math.nan
        return None

    def fill(self) -> pd.DataFrame:
        """The table with the Holm-adjusted interval of each difference (the one its class
        was decided on: `ci_low_adjusted`, `ci_high_adjusted`), `class`, `p_adjusted` (Holm
        across the standard's claims),
        `games_to_settle` and the side flags."""
        t = self.table
        t["ci_low_adjusted"] = [c.decision_ci[0] for c in self.diffs]
        t["ci_high_adjusted"] = [c.decision_ci[1] for c in self.diffs]
        t["class"] = [c.cls for c in self.diffs]
        t["p_adjusted"] = [c.p_adjusted for c in self.diffs]
        t["games_to_settle"] = [c.settle for c in self.diffs]
        for side in ("baseline", "variant"):
            flags = []
            for i in range(len(t)):
                flag = ""
                c = self.sides.get((i, side))
                if c is not None and c.cls == MEANINGFUL:
                    flag = "above fair" if c.estimate.effect > 0 else "below fair"
                out = self.outliers.get((i, side))
                if out is not None and out[0].cls == MEANINGFUL and abs(out[1]) > 2.5:
                    flag = "outlier high" if out[1] > 0 else "outlier low"
                flags.append(flag)
            t[f"{side}_flag"] = flags
        return t


def flag_table(table: pd.DataFrame, outlier_groups=(), smallest: Smallest | None = None,
               standard: Standard | None = None) -> pd.DataFrame:
    """The table's claims (`Flags`) under a standard of their own (or `standard`, settled
    here: no claim may join it afterwards), written into its columns."""
    standard = standard or Standard()
    flags = Flags(table, outlier_groups, smallest).register(standard)
    standard.settle()
    return flags.fill()


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
        from .extras import extra_measures

        found += [Measure(name, group, unit, ratio) for name, group, unit, ratio in
                  extra_measures(spec.name, config, lineup, runner.games,
                                 runner.seed if seed is None else seed, runner.threads)]
    return found
