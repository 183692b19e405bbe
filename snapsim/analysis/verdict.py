"""Is the variant better balanced? A comparison's balance verdict, from the balance measures
rebalancing targets (analysis.rebalance.targets): the seat spread (best minus worst seat's
win rate), the first player's distance from the fair share, the largest distance of a dealt
objective's (assignment's) win rate from fair, and the spread of the card values. Each is
measured on the baseline and the variant played on the same deals, with its paired change
and 95% interval (the numbers `snapsim rebalance` verifies with); the change is classed
against the smallest effect of interest, and a balance measure that falls meaningfully is
"better", one that rises meaningfully "worse".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
from scipy import stats

from ..sim.registry import get_game
from .effects import MEANINGFUL, NEGLIGIBLE, Claim, Estimate, Smallest, Standard
from .paired import ALPHA
from .rebalance.targets import KINDS, Target, available
from .rebalance.verify import _check

BALANCE = ("seat_spread", "first_player", "assignments", "cards")
WORDS = {"seat_spread": "seat spread (best minus worst seat's win rate)",
         "first_player": "first player's distance from the fair share",
         "assignments": "largest distance of an {objective}'s win rate from the fair share",
         "cards": "spread of the card values (best minus worst prestige per die)"}


@dataclass
class Side:
    """One side's main run at one player count: its (game, seat) table, its config and its
    card values ([(card, Ratio)], for the spread of card values)."""

    df: pd.DataFrame
    config: object
    cards: list | None = None


def balance_rows(game: str, players: int, variant: str, base: Side, mine: Side, seed: int,
                 reps: int = 1000) -> list[dict]:
    """One row per balance measure the game has: both values with 95% intervals and the
    paired change with its interval, in the unit people read (pp, or the card value's)."""
    spec = get_game(game)
    rows = []
    for kind in (k for k in BALANCE if k in available(game)):
        if kind == "cards" and (base.cards is None or mine.cards is None):
            continue
        check = _check(Target(kind, 1.0), game, players, base, mine, seed, reps, spec.measures)
        words = WORDS[kind].format(objective=spec.measures.levers.objective_label)
        rows.append({"variant": variant, "players": players, "measure": kind,
                     "meaning": words, "unit": KINDS[kind].unit,
                     **{k: check[k] for k in ("baseline", "baseline_ci_low", "baseline_ci_high",
                                              "value", "ci_low", "ci_high", "change",
                                              "change_ci_low", "change_ci_high")}})
    return rows


class Balance:
    """The balance verdict of a comparison: `register` adds one claim per balance measure's
    change to a standard; once settled, `table()` says better, worse, no meaningful change
    or unresolved for each."""

    def __init__(self, rows: list[dict], smallest: Smallest | None = None, games: int = 0):
        self.rows = pd.DataFrame(rows)
        self.smallest = smallest or Smallest()
        self.games = games
        self.claims: list[Claim] = []

    def delta(self, r) -> float:
        return self.smallest.delta("pp") * 100 if r.unit == "pp" else \
            self.smallest.delta("relative", r.baseline)

    def register(self, standard: Standard) -> Balance:
        z = stats.norm.ppf(1 - ALPHA / 2)
        for r in self.rows.itertuples():
            est = Estimate(r.change, (r.change_ci_high - r.change_ci_low) / (2 * z), self.games)
            self.claims.append(Claim.make(standard, f"balance: {r.variant}, {r.players}p, "
                                                    f"{r.measure}", est, self.delta(r)))
        return self

    def table(self) -> pd.DataFrame:
        t = self.rows.copy()
        if t.empty:
            return t
        t["smallest"] = [self.delta(r) for r in t.itertuples()]
        t["class"] = [c.cls for c in self.claims]
        t["verdict"] = [verdict(c) for c in self.claims]
        t["p_adjusted"] = [c.p_adjusted for c in self.claims]
        t["games_to_settle"] = [c.settle for c in self.claims]
        return t


def verdict(c: Claim) -> str:
    """better (the imbalance falls meaningfully), worse, no meaningful change, unresolved."""
    if c.cls == MEANINGFUL:
        return "better" if c.estimate.effect < 0 else "worse"
    return "no meaningful change" if c.cls == NEGLIGIBLE else "unresolved"


def sentence(r) -> str:
    """One balance measure's verdict in words."""
    def v(x: float) -> str:
        return "n/a" if not math.isfinite(x) else (f"{x:.1f} pp" if r.unit == "pp" else
                                                   f"{x:.2f}")
    settle = (f", about {r.games_to_settle:,.0f} games per side would settle it"
              if r.verdict == "unresolved" and math.isfinite(r.games_to_settle) else "")
    return (f"{r.meaning}, {r.players} players: {v(r.baseline)} → {v(r.value)} "
            f"({r.change:+.2f} [{r.change_ci_low:+.2f}, {r.change_ci_high:+.2f}]"
            f"{' pp' if r.unit == 'pp' else ''}): {r.verdict.upper()}{settle}")
