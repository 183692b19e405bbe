"""Win rates with confidence intervals, from whole tables or from streamed chunk sums
(`snapsim.sim.sums`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..sim.sums import group_sums
from .normal import norm_ppf, t_ppf


def wilson_interval(wins, n, level: float = 0.95):
    """Wilson score interval for a proportion; `wins` may be fractional (shared wins)."""
    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    z = norm_ppf(0.5 + level / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = wins / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def win_table_from_sums(sums: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """`win_table` from `group_sums` totals: seats played `n`, `win_rate` (0-1, shared wins
    fractional) with its Wilson interval at `level`, `mean_score` in points and
    `mean_photos`."""
    out = pd.DataFrame({"n": sums["n"].astype(int), "win_rate": sums["won"] / sums["n"]})
    out["ci_low"], out["ci_high"] = wilson_interval(sums["won"], sums["n"], level)
    out["mean_score"] = sums["score"] / sums["n"]
    if "photos" in sums:
        out["mean_photos"] = sums["photos"] / sums["n"]
    return out.reset_index()


def win_table(df: pd.DataFrame, by: str, level: float = 0.95) -> pd.DataFrame:
    """Per group: seats played, win rate with its Wilson interval, mean score and photos."""
    return win_table_from_sums(group_sums(df, by), level)


def mean_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """Mean with its Student-t interval at `level` (scipy); NaNs are dropped, and fewer
    than two values leave the interval NaN."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    mean = float(x.mean()) if len(x) else np.nan
    if len(x) < 2:
        return mean, np.nan, np.nan
    sem = float(np.std(x, ddof=1) / np.sqrt(len(x)))  # scipy.stats.sem
    if sem == 0:
        return mean, mean, mean
    # scipy.stats.t.interval's arithmetic, term for term
    lo = t_ppf((1.0 - level) / 2, len(x) - 1) * sem + mean
    hi = t_ppf((1.0 + level) / 2, len(x) - 1) * sem + mean
    return mean, float(lo), float(hi)


def slope_intervals(y, x, level: float = 0.95) -> pd.DataFrame:
    """Least-squares slopes of `y` on the columns of `x` (with an intercept) and their
    Student-t intervals from the usual covariance sigma^2 (X'X)^-1."""
    x = np.asarray(x, dtype=float)
    design = np.column_stack([np.ones(len(x)), x])
    coef, _, rank, _ = np.linalg.lstsq(design, np.asarray(y, float), rcond=None)
    dof = max(len(design) - rank, 1)
    resid = np.asarray(y, float) - design @ coef
    cov = resid @ resid / dof * np.linalg.pinv(design.T @ design)
    half = t_ppf(0.5 + level / 2, dof) * np.sqrt(np.diag(cov))
    return pd.DataFrame({"slope": coef[1:], "ci_low": (coef - half)[1:],
                         "ci_high": (coef + half)[1:]})
