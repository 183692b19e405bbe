"""One rule of thumb: a number of a game's greedy policy, said in words, with its grid of
round values. Each game declares its rules in its own package (its GameSpec's `rules`);
games/rules.py fits and measures them. Kept apart from rules.py so that a game declares its
rules without importing what fitting them needs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Rule:
    """One rule of thumb: the greedy parameter it sets, its grid of round values, what it
    decides, how it is said (`text` formats the value with its unit as `amount`) and the
    value's unit ("%" shows a share as a percentage)."""

    key: str
    param: str
    grid: tuple[float, ...]
    decision: str
    text: str
    unit: str

    def amount(self, v: float) -> str:
        """The value with its unit, as a person says it: "5 cards", "25%", "0.75 prestige"."""
        return f"{round(100 * v)}%" if self.unit == "%" else f"{v:g} {self.unit}"

    def say(self, v: float) -> str:
        return self.text.format(amount=self.amount(v))


def grid(lo: float, hi: float, step: float) -> tuple[float, ...]:
    """lo, lo + step, ..., hi, rounded: a rule's values."""
    return tuple(float(x) for x in np.round(np.arange(lo, hi + step / 2, step), 6))
