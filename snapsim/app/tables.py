"""The pages' tables as a report shows them: columns in its words with their units, each
estimate with its interval beside it at the report's rounding (`report.render.shown_table`);
the files a run writes keep the raw columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ..analysis.verdict import _level, seat_words
from ..report.render import shown_table
from ..sim.registry import get_game

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

CI = " [95% CI]"  # the heading shown_table gives an estimate with its interval


def whole(rows: int) -> int:
    """The height in pixels that shows a table of `rows` rows whole, none behind a scroll bar
    (Streamlit's 35 px a row, the heading's row and the border)."""
    return 35 * (rows + 1) + 3


def shown(df: pd.DataFrame, name: str = "", interval: str = "95% CI") -> pd.DataFrame:
    """`df` as the report's table `name` reads; its intervals said to be `interval` (a
    verdict's are wider than 95%, Bonferroni over the claims of a line)."""
    table = shown_table(df, None, {}, name)
    return table.rename(columns={c: c.replace(CI, f" [{interval}]") for c in table.columns})


def measure_words(game: str, measure: str) -> tuple[str, str]:
    """A verdict measure's value in words and its unit, as the verdict's lines say them."""
    return {"seat_spread": ("seat spread", "pp"),
            "first_player": (seat_words(game)["first_vs"], "pp"),
            "assignments": ("win rate minus fair share", "pp"),
            "cards": ("typical distance from the habitat's median", "%"),
            "length": ("mean game length", get_game(game).measures.length or "rounds")
            }.get(measure, (measure.replace("_", " "), ""))


def verdict_table(game: str, rows: pd.DataFrame) -> pd.DataFrame:
    """One measure's rows of `Verdict.table()` as the page shows them: the value with its
    interval (at its line's level, a column of its own) and the tolerance in the measure's
    unit, the class against it, the games played and the games that would settle it."""
    words, unit = measure_words(game, rows.measure.iloc[0])
    raw = pd.DataFrame({
        "players": rows.players, "line-up": rows.line_up, "item": rows["item"],
        f"{words} ({unit})": rows.value, "ci_low": rows.ci_low, "ci_high": rows.ci_high,
        "interval level": [_level(x) for x in rows.level],
        f"tolerance ({unit})": [f"{lo:g} to {hi:g}" for lo, hi in
                                zip(rows.tol_low, rows.tol_high, strict=True)],
        "class": rows["class"], "games": rows.games, "games_to_settle": rows.games_to_settle})
    if not raw["item"].astype(bool).any():
        raw = raw.drop(columns=["item"])
    return shown(raw, "balance", "interval")


def seat_table(seats: pd.DataFrame) -> pd.DataFrame:
    """`analysis.stats.win_table` rows as the page shows them: each seat's win rate in percent
    with its 95% interval, and its means."""
    pct = seats.assign(**{c: 100 * seats[c] for c in ("win_rate", "ci_low", "ci_high")})
    out = pct.rename(columns={"n": "games", "win_rate": "win rate (%)"})
    return shown(out[["players", "seat", "games", "win rate (%)", "ci_low", "ci_high",
                      *[c for c in out.columns if c.startswith("mean_")]]])


ODDS_WORDS = {"target": "explore value", "tokens": "tracking tokens",
              "draws_before_spook": "successful draws before the spook",
              "gain_card_token": "gain from a card token",
              "gain_per_reroll_token": "gain per re-roll token"}


def odds_table(df: pd.DataFrame) -> Styler:
    """An exact odds table (`snapsim.odds`) in words, its probabilities to 4 decimals:
    `p_photo` reads "P(photo)"."""
    names = {c: ODDS_WORDS.get(c) or (f"P({c[2:].replace('_', ' ')})" if c.startswith("p_")
                                      else c.replace("_", " ")) for c in df.columns}
    return df.rename(columns=names).style.format(
        {names[c]: "{:.4f}" for c in df.columns if df[c].dtype.kind == "f"})
