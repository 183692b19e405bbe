"""Balance analyses over result tables (one row per game and seat), generic across games.

Every proportion comes with a Wilson interval and every comparison with a p-value and a
`significant` flag (two-sided, alpha 0.05 after Holm's correction within the table), so a
report never shows a bare number.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .normal import norm_ppf, norm_sf
from .stats import wilson_interval

ALPHA = 0.05


def holm(pvalues) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control, no independence needed)."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    m = len(p)
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj


def rate_vs(wins, n, p0) -> np.ndarray:
    """Two-sided p-value that a win rate differs from p0 (score test; wins may be fractional)."""
    wins, n = np.asarray(wins, float), np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (wins / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    return 2 * norm_sf(np.abs(z))


def two_rates(w1, n1, w2, n2) -> np.ndarray:
    """Two-sided p-value that two win rates differ (pooled two-proportion z-test)."""
    w1, n1, w2, n2 = (np.asarray(x, float) for x in (w1, n1, w2, n2))
    pool = (w1 + w2) / (n1 + n2)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (w1 / n1 - w2 / n2) / np.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
    p = 2 * norm_sf(np.abs(z))
    return np.where(np.isfinite(p), p, 1.0)


def with_flags(df: pd.DataFrame, pcol: str = "p_value") -> pd.DataFrame:
    """A copy with `p_adjusted` (Holm over all rows, so a table of many tests keeps its
    family-wise error at 5%) and `significant` (p_adjusted < 0.05); a missing p-value is 1."""
    df = df.copy()
    df[pcol] = df[pcol].fillna(1.0)
    df["p_adjusted"] = holm(df[pcol].to_numpy()) if len(df) else []
    df["significant"] = df["p_adjusted"] < ALPHA
    return df


def flag_columns(df: pd.DataFrame, columns) -> pd.DataFrame:
    """A `<col>_significant` flag for each p-value column (Holm over all of them together)."""
    df = df.copy()
    cols = list(columns)
    flat = df[cols].fillna(1.0).to_numpy().ravel()
    adj = holm(flat).reshape(len(df), len(cols)) if flat.size else flat
    for k, col in enumerate(cols):
        df[f"{col}_significant"] = adj[:, k] < ALPHA if flat.size else []
    return df


def rates(df: pd.DataFrame, by, fair: float | None = None) -> pd.DataFrame:
    """Win rate with Wilson CI per group; with `fair`, a test against that fair share."""
    g = df.groupby(by, observed=True)
    out = pd.DataFrame({"n": g.size(), "wins": g["won"].sum()}).reset_index()
    out["win_rate"] = out.wins / out.n
    out["ci_low"], out["ci_high"] = wilson_interval(out.wins, out.n)
    if fair is not None:
        out["fair_share"] = fair
        out["p_value"] = rate_vs(out.wins, out.n, fair)
        out = with_flags(out)
    return out


def seat_advantage(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate by seat for each player count, tested against the fair share 1/players.

    Use seat-rotated runs (or one policy for all) so seats are not confounded with policies.
    """
    parts = []
    for players, sub in df.groupby("players"):
        parts.append(rates(sub, ["players", "seat"], fair=1.0 / players))
    return with_flags(pd.concat(parts, ignore_index=True)) if parts else pd.DataFrame()


def matchup_matrix(df: pd.DataFrame) -> pd.DataFrame:
    """P(row policy beats column policy) from two-player games (shared wins count half)."""
    games = df.pivot(index="game", columns="seat", values=["policy", "won"])
    a, b = games[("policy", 0)].astype(str), games[("policy", 1)].astype(str)
    wa = games[("won", 0)]
    both = pd.concat([pd.DataFrame({"row": a, "col": b, "won": wa}),
                      pd.DataFrame({"row": b, "col": a, "won": 1 - wa})], ignore_index=True)
    both = both[both.row != both.col]
    return both.pivot_table(index="row", columns="col", values="won", aggfunc="mean")


def matchup_table(df: pd.DataFrame) -> pd.DataFrame:
    """Each ordered pair of a two-player run: games, win rate with CI, test against 1/2."""
    games = df.pivot(index="game", columns="seat", values=["policy", "won"])
    rows = pd.DataFrame({"policy": games[("policy", 0)].astype(str),
                         "opponent": games[("policy", 1)].astype(str),
                         "won": games[("won", 0)].astype(float)})
    rows = pd.concat([rows, pd.DataFrame({"policy": rows.opponent, "opponent": rows.policy,
                                          "won": 1 - rows.won})], ignore_index=True)
    return rates(rows[rows.policy != rows.opponent], ["policy", "opponent"], fair=0.5)


def restricted_play(restricted: pd.DataFrame, policy: str, players: int) -> dict:
    """Restricted play (a policy forbidden an action against unrestricted copies of itself):
    its win rate against the fair share 1/players measures what the action is worth."""
    mine = restricted[restricted.policy.astype(str) == policy]
    wins, n = float(mine.won.sum()), len(mine)
    lo, hi = wilson_interval(wins, n)
    p = float(rate_vs(wins, n, 1.0 / players))
    return {"policy": policy, "n": n, "win_rate": wins / n, "ci_low": float(lo),
            "ci_high": float(hi), "fair_share": 1.0 / players, "p_value": p,
            "mean_score": float(mine.score.mean())}


def compare_runs(a: pd.DataFrame, b: pd.DataFrame, metric: str) -> dict:
    """Difference of a per-seat metric's mean between two runs, with Welch's t-test."""
    from scipy.stats import ttest_ind  # here: scipy.stats takes a second to import

    x, y = a[metric].astype(float), b[metric].astype(float)
    t = ttest_ind(x, y, equal_var=False)
    return {"metric": metric, "mean_a": x.mean(), "mean_b": y.mean(), "diff": y.mean() - x.mean(),
            "p_value": float(t.pvalue) if np.isfinite(t.pvalue) else 1.0}


def score_breakdown(df: pd.DataFrame, components, by="policy") -> pd.DataFrame:
    """Mean of each score component and its share of the total score, per group."""
    g = df.groupby(by, observed=True)[list(components)].mean()
    share = g.div(g.sum(axis=1), axis=0).add_suffix("_share")
    return pd.concat([g, share], axis=1).reset_index()


def game_length(df: pd.DataFrame, col: str = "rounds") -> pd.DataFrame:
    """Distribution of game length (one value per game)."""
    per_game = df.groupby("game")[col].first()
    dist = per_game.value_counts(normalize=True).sort_index()
    return pd.DataFrame({col: dist.index, "share": dist.to_numpy(),
                         "games": int(per_game.size)})


def sample_size(half_width: float, p: float = 0.5, level: float = 0.95) -> int:
    """Seats (observations) needed for a win-rate CI of +/- half_width around p."""
    if not 0 < half_width < 1 or not 0 <= p <= 1:
        raise ValueError("half_width must be in (0, 1) and p in [0, 1]")
    z = norm_ppf(0.5 + level / 2)
    return math.ceil(z**2 * max(p * (1 - p), 1e-12) / half_width**2)
