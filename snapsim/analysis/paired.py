"""Paired differences between two runs played on common random numbers.

Game i of a baseline run and game i of a variant run start from the same random streams
(the runner keys every stream by the game index), so the luck both games share cancels in
the per-game difference and only the change remains. Every measure here is a ratio of sums
over games, R = sum(a_i) / sum(b_i) (a mean is the ratio with b_i = 1, a win rate per
assignment the ratio of wins to appearances); its paired standard error comes from the
per-game linearisation (delta method) z_i = (a_i - R b_i) / mean(b), and the same numbers
without pairing give the standard error an unpaired comparison would have had, so the
variance reduction pairing bought is reported next to every estimate. Measures that are not
smooth in the sums (a spread: the largest minus the smallest of several rates) use a paired
bootstrap over games instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .bootstrap import count_blocks
from .normal import norm_cdf, norm_isf, norm_ppf, norm_sf
from .stats import wilson_interval

ALPHA = 0.05
POWER = 0.80


@dataclass(frozen=True)
class Ratio:
    """Per-game numerator and denominator of one measure (denominator 1: a plain mean)."""

    num: np.ndarray
    den: np.ndarray

    @classmethod
    def mean(cls, values) -> Ratio:
        """A plain mean of one value per game (every denominator 1)."""
        values = np.asarray(values, dtype=float)
        return cls(values, np.ones_like(values))

    @property
    def value(self) -> float:
        """Sum of numerators over sum of denominators (NaN when the denominators are 0)."""
        total = self.den.sum()
        return float(self.num.sum() / total) if total > 0 else math.nan

    def influence(self) -> np.ndarray:
        """Per-game linearised contributions: their mean's error is the ratio's error."""
        value = self.value
        if not math.isfinite(value):
            return np.zeros_like(self.num)
        return (self.num - value * self.den) / self.den.mean()


def rate_interval(r: Ratio, z: float) -> tuple[float, float]:
    """A rate's (a proportion's) normal interval from the delta method on the logit scale,
    so it stays within [0, 1]; a rate of exactly 0 or 1 has no logit, and its interval is
    the Wilson one over the denominators' total."""
    value, n = r.value, len(r.num)
    if not math.isfinite(value):
        return math.nan, math.nan
    if not 0 < value < 1:
        level = 2 * norm_cdf(z) - 1
        lo, hi = wilson_interval(value * r.den.sum(), r.den.sum(), level)
        return (0.0, float(hi)) if value == 0 else (float(lo), 1.0)
    se = float(np.std(r.influence(), ddof=1) / math.sqrt(n)) / (value * (1 - value))
    mid = math.log(value / (1 - value))
    lo, hi = (float(1 / (1 + math.exp(-x))) for x in (mid - z * se, mid + z * se))
    return lo, hi


@dataclass(frozen=True)
class Difference:
    """Variant minus baseline, with its paired standard error and what pairing bought."""

    baseline: float
    variant: float
    diff: float
    se: float
    se_unpaired: float
    n: int

    @property
    def ci(self) -> tuple[float, float]:
        """95% normal interval of the difference, from the paired standard error."""
        z = norm_ppf(1 - ALPHA / 2)
        return self.diff - z * self.se, self.diff + z * self.se

    @property
    def p_value(self) -> float:
        """Two-sided p-value that the true difference is 0 (z-test on the paired error)."""
        if not math.isfinite(self.diff):
            return 1.0
        if self.se <= 0:
            return 1.0 if self.diff == 0 else 0.0
        return float(2 * norm_sf(abs(self.diff) / self.se))

    @property
    def variance_reduction(self) -> float:
        """Unpaired variance over paired variance: how many times fewer games pairing needs
        (inf when pairing leaves no error at all, NaN when neither has one: undefined)."""
        if self.se <= 0:
            return math.inf if self.se_unpaired > 0 else math.nan
        return float((self.se_unpaired / self.se) ** 2)

    @property
    def detectable(self) -> float:
        """Smallest true difference this n detects with 80% power (two-sided, alpha 0.05).
        Two identical sides have no paired error at all; their unpaired error bounds it."""
        se = self.se if self.se > 0 else self.se_unpaired
        return float((norm_ppf(1 - ALPHA / 2) + norm_ppf(POWER)) * se)


def ratio_difference(baseline: Ratio, variant: Ratio, paired: bool = True) -> Difference:
    """Difference of two ratio measures over the same n games (paired game by game)."""
    n = len(baseline.num)
    if len(variant.num) != n or n < 2:
        raise ValueError("paired measures need the same number (>= 2) of games on both sides")
    zb, zv = baseline.influence(), variant.influence()
    se_paired = float(np.std(zv - zb, ddof=1) / math.sqrt(n))
    se_unpaired = float(math.sqrt((np.var(zb, ddof=1) + np.var(zv, ddof=1)) / n))
    b, v = baseline.value, variant.value
    return Difference(b, v, v - b, se_paired if paired else se_unpaired, se_unpaired, n)


class _Stacked:
    """(games, groups) arrays side by side, stacked once for every block of resamples."""

    def __init__(self, *arrays: np.ndarray):
        self.values = np.hstack(arrays)
        self.cuts = np.cumsum([a.shape[1] for a in arrays])[:-1]

    def sums(self, counts: np.ndarray) -> list[np.ndarray]:
        """Sums over the resampled games of each array, one row per resample of `counts`
        (resamples, games): one matrix product for all of them."""
        return np.split(counts @ self.values, self.cuts, axis=1)


def _spread(sums: np.ndarray, dens: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = sums / dens
    return np.nanmax(rates, axis=-1) - np.nanmin(rates, axis=-1)


def spread_value(num, den) -> float:
    """Largest minus smallest group rate; num and den have shape (games, groups)."""
    return float(_spread(np.asarray(num, float).sum(axis=0), np.asarray(den, float).sum(axis=0)))


def spread_interval(num, den, seed: int = 0, reps: int = 1000) -> tuple[float, float]:
    """95% percentile bootstrap interval of a spread, resampling whole games."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    n, groups = num.shape
    both = _Stacked(num, den)
    values = [_spread(*both.sums(w))
              for _, (w,) in count_blocks(n, reps, seed, 4_000_000 // max(1, n * groups))]
    lo, hi = np.nanpercentile(np.concatenate(values), [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
    return float(lo), float(hi)


def spread_difference(baseline: tuple[np.ndarray, np.ndarray],
                      variant: tuple[np.ndarray, np.ndarray], seed: int = 0,
                      reps: int = 1000, paired: bool = True) -> Difference:
    """Difference in spread (largest minus smallest rate) across groups, e.g. seats.

    Each side is (num, den), arrays of shape (games, groups): group k's rate is
    num[:, k].sum() / den[:, k].sum(). The bootstrap resamples whole games, the same games on
    both sides (paired) and independently for the unpaired standard error; `seed` fixes it.
    """
    (nb, db), (nv, dv) = (tuple(np.asarray(x, dtype=float) for x in side)
                          for side in (baseline, variant))
    n = nb.shape[0]
    if nv.shape[0] != n or n < 2:
        raise ValueError("paired measures need the same number (>= 2) of games on both sides")
    diffs: list[np.ndarray] = []
    solo: list[np.ndarray] = []
    block = 4_000_000 // max(1, n * nb.shape[1])
    sides, variant_only = _Stacked(nb, db, nv, dv), _Stacked(nv, dv)
    for _, (w, other) in count_blocks(n, reps, seed, block, streams=2):
        sb_num, sb_den, sv_num, sv_den = sides.sums(w)
        sb = _spread(sb_num, sb_den)
        sv = _spread(sv_num, sv_den)
        su = _spread(*variant_only.sums(other))
        diffs.append(sv - sb)
        solo.append(su - sb)
    b = float(_spread(nb.sum(axis=0), db.sum(axis=0)))
    v = float(_spread(nv.sum(axis=0), dv.sum(axis=0)))
    se_paired = float(np.std(np.concatenate(diffs), ddof=1))
    se_unpaired = float(np.std(np.concatenate(solo), ddof=1))
    return Difference(b, v, v - b, se_paired if paired else se_unpaired, se_unpaired, n)


def games_to_detect(se: float, games: int, detect: float, alpha: float = ALPHA) -> int:
    """Games per side for 80% power to detect `detect` in a two-sided test at level `alpha`,
    given the paired standard error `se` measured on `games` games (the error shrinks as one
    over the square root of n)."""
    if detect <= 0 or not math.isfinite(detect):
        raise ValueError("the difference to detect must be a positive number")
    z = norm_isf(alpha / 2) + norm_ppf(POWER)
    sd = se * math.sqrt(games)
    return max(games, math.ceil((z * sd / detect) ** 2))
