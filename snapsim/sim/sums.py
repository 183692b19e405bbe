"""Per-group sums of a result table, added chunk by chunk: how a run streamed to disk is
summarised (seats played, wins, points, photos per policy and per seat) without holding
every row; `snapsim.analysis.stats` turns them into win rates with intervals."""

from __future__ import annotations

import pandas as pd

SUMMED = ("won", "score", "photos")


def group_sums(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per group: row count and sums of won/score/photos (add these across chunks)."""
    cols = [c for c in SUMMED if c in df]
    out = df.groupby(by, observed=True)[cols].sum()
    out.insert(0, "n", df.groupby(by, observed=True).size())
    return out


def add_sums(a: pd.DataFrame | None, b: pd.DataFrame) -> pd.DataFrame:
    """Running total of `group_sums` tables (None: nothing yet), so a run streamed chunk by
    chunk is summarised without holding every row."""
    return b if a is None else a.add(b, fill_value=0)
