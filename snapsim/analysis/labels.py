"""Does a balance finding survive stronger play? Labels for a finding measured twice.

A report measures its findings with one line-up (the greedy heuristic); measured again with
a strong line-up (tuned or search policies), each finding gets one label:

- **holds**: significant in the same direction both times, and the two effect sizes do not
  differ significantly;
- **changes**: the effect size differs significantly between the line-ups (paired test when
  both were played on the same deals, Holm-corrected across the findings of one report),
  without a significant reversal;
- **reverses**: significant both times, in opposite directions;
- **inconclusive**: anything else at this n (an effect significant under one line-up only,
  or under neither, with no significant change); `settle_games` says how many games per
  side would detect the undecided effect with 80% power (`paired.games_to_detect`).

Every test is a two-sided z-test on the estimate and its standard error (normal theory, as
the intervals the reports print).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .balance import holm
from .paired import ALPHA, games_to_detect

LABELS = ("holds", "changes", "reverses", "inconclusive")


@dataclass(frozen=True)
class Estimate:
    """An effect measured on `games` games with its standard error."""

    effect: float
    se: float
    games: int

    @classmethod
    def from_ci(cls, effect: float, ci_low: float, ci_high: float, games: int,
                level: float = 0.95) -> Estimate:
        """From a symmetric normal interval at `level`."""
        z = stats.norm.ppf(0.5 + level / 2)
        return cls(float(effect), float(ci_high - ci_low) / (2 * z), int(games))

    @property
    def p_value(self) -> float:
        """Two-sided p-value that the true effect is 0."""
        return _p(self.effect, self.se)


@dataclass(frozen=True)
class Finding:
    """One finding under the greedy line-up and under the strong one. `paired_se` is the
    standard error of (strong - greedy) from per-game paired differences, when both were
    played on the same deals (e.g. `paired.ratio_difference(...).se`); without it the two
    are taken as independent."""

    name: str
    greedy: Estimate
    strong: Estimate
    paired_se: float | None = None

    @property
    def change(self) -> Estimate:
        """strong minus greedy, with its (paired when known) standard error."""
        se = self.paired_se if self.paired_se is not None else math.hypot(self.greedy.se,
                                                                          self.strong.se)
        return Estimate(self.strong.effect - self.greedy.effect, se,
                        min(self.greedy.games, self.strong.games))


def _p(effect: float, se: float) -> float:
    if se <= 0:
        return 1.0 if effect == 0 else 0.0
    return float(2 * stats.norm.sf(abs(effect) / se))


def _settle(est: Estimate) -> float:
    """Games per side that detect `est`'s observed effect with 80% power (inf for 0)."""
    if est.effect == 0 or est.se <= 0:
        return math.inf
    return float(games_to_detect(est.se, est.games, abs(est.effect)))


def label(finding: Finding, p_change: float, alpha: float = ALPHA) -> tuple[str, float]:
    """(label, games per side that would settle it: NaN unless inconclusive) for one finding
    whose change test has the (already corrected) p-value `p_change`."""
    g, s = finding.greedy, finding.strong
    sig_g, sig_s = g.p_value < alpha, s.p_value < alpha
    if sig_g and sig_s and np.sign(g.effect) != np.sign(s.effect):
        return "reverses", math.nan
    if p_change < alpha:
        return "changes", math.nan
    if sig_g and sig_s:
        return "holds", math.nan
    undecided = [e for e, sig in ((g, sig_g), (s, sig_s)) if not sig]
    return "inconclusive", max(_settle(e) for e in undecided)


def label_findings(findings: list[Finding], alpha: float = ALPHA) -> pd.DataFrame:
    """One row per finding: both effects with p-values, the change with its raw and
    Holm-adjusted p-value (across these findings), the label and, when inconclusive, the
    games per side that would settle it."""
    changes = [f.change for f in findings]
    p_raw = np.array([c.p_value for c in changes])
    p_holm = holm(p_raw) if len(findings) else p_raw
    rows = []
    for f, c, pr, ph in zip(findings, changes, p_raw, p_holm, strict=True):
        verdict, settle = label(f, float(ph), alpha)
        rows.append({"finding": f.name, "greedy": f.greedy.effect, "p_greedy": f.greedy.p_value,
                     "strong": f.strong.effect, "p_strong": f.strong.p_value,
                     "change": c.effect, "change_se": c.se, "paired": f.paired_se is not None,
                     "p_change": float(pr), "p_change_holm": float(ph), "label": verdict,
                     "settle_games": settle})
    return pd.DataFrame(rows)
