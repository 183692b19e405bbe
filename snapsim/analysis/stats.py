"""Win rates with confidence intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def wilson_interval(wins, n, level: float = 0.95):
    """Wilson score interval for a proportion; `wins` may be fractional (shared wins)."""
    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    z = stats.norm.ppf(0.5 + level / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = wins / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def win_table(df: pd.DataFrame, by: str, level: float = 0.95) -> pd.DataFrame:
    """Per group: seats played, win rate with its Wilson interval, mean score and photos."""
    g = df.groupby(by, observed=True)
    out = pd.DataFrame({"n": g.size(), "wins": g["won"].sum(), "mean_score": g["score"].mean()})
    if "photos" in df:
        out["mean_photos"] = g["photos"].mean()
    out["win_rate"] = out.wins / out.n
    out["ci_low"], out["ci_high"] = wilson_interval(out.wins, out.n, level)
    cols = ["n", "win_rate", "ci_low", "ci_high", "mean_score"]
    return out[cols + (["mean_photos"] if "mean_photos" in out else [])].reset_index()
