"""Does a balance finding survive stronger play? Labels for a finding measured twice.

A report measures its findings with one line-up (usually the greedy heuristic); measured again
with a strong line-up (tuned or search policies) on the same deals, each finding's two
estimates and their difference are classed against the finding's smallest effect of interest
(`effects`: meaningful, negligible or unresolved, under the report's one standard), and the
finding gets one label:

- **not comparable**: the strong line-up cannot express the measure, seen in its games (the
  action measured is never taken, or the two settings compared play identical games);
- **reverses**: opposite signs, and either meaningful under both or the difference between
  the line-ups meaningful (a meaningful move across zero: neither weaker nor stronger);
- **vanishes** / **appears**: meaningful under the first line-up and negligible under the
  strong one / the other way round;
- **weakens** / **strengthens**: the difference between the line-ups is itself meaningful,
  the effect smaller / larger under strong play;
- **holds**: meaningful under both with the same sign, or negligible under both;
- **unresolved**: anything else at this n; `settle_games` says how many games per line-up
  would settle the unresolved estimate (80% power if the true effect is the one observed).

Every test is a z-test on the estimate and its standard error (normal theory, as the
intervals the reports print).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import pandas as pd

from .effects import MEANINGFUL, NEGLIGIBLE, UNRESOLVED, Claim, EffectClass, Estimate, Standard

# a finding under the strong line-up against the one it was measured with
Label = Literal["holds", "weakens", "strengthens", "reverses", "appears", "vanishes",
                "unresolved", "not comparable"]
LABELS: tuple[Label, ...] = get_args(Label)

__all__ = ["LABELS", "Estimate", "Finding", "Label", "Labels", "label", "label_findings"]


@dataclass(frozen=True)
class Finding:
    """One finding under the line-up it was measured with and under the strong one.

    `paired_se` is the standard error of (strong - measured) from per-game paired
    differences, when both were played on the same deals; without it the two are taken as
    independent. `delta` is the smallest effect of interest in the estimates' unit; `silent`
    says why a line-up cannot express the measure (None: both can)."""

    name: str
    measured: Estimate
    strong: Estimate
    paired_se: float | None = None
    delta: float = 0.0
    silent: str | None = None

    @property
    def change(self) -> Estimate:
        """strong minus measured, with its (paired when known) standard error."""
        se = self.paired_se if self.paired_se is not None else math.hypot(self.measured.se,
                                                                          self.strong.se)
        return Estimate(self.strong.effect - self.measured.effect, se,
                        min(self.measured.games, self.strong.games))


def label(measured: EffectClass, strong: EffectClass, change: EffectClass, effect: float,
          strong_effect: float, silent: str | None = None) -> Label:
    """The label from the classes of the two estimates and of their difference."""
    if silent:
        return "not comparable"
    if measured == strong == MEANINGFUL and np.sign(effect) != np.sign(strong_effect):
        return "reverses"
    if (measured, strong) == (MEANINGFUL, NEGLIGIBLE):
        return "vanishes"
    if (measured, strong) == (NEGLIGIBLE, MEANINGFUL):
        return "appears"
    if change == MEANINGFUL:
        if np.sign(effect) * np.sign(strong_effect) < 0:
            return "reverses"
        return "weakens" if abs(strong_effect) < abs(effect) else "strengthens"
    if measured == strong == MEANINGFUL or measured == strong == NEGLIGIBLE:
        return "holds"
    return "unresolved"


class Labels:
    """The labels of a list of findings: `register` adds three claims per finding (each
    estimate and their difference) to a standard; once it is settled, `table()` labels."""

    def __init__(self, findings: list[Finding]):
        self.findings = list(findings)
        self.claims: list[tuple[Claim, Claim, Claim]] = []

    def register(self, standard: Standard) -> Labels:
        for f in self.findings:
            measured, strong, change = (Claim.make(standard, f"{f.name}: {what}", est, f.delta)
                                        for what, est in (("measured", f.measured),
                                                          ("strong", f.strong),
                                                          ("change", f.change)))
            self.claims.append((measured, strong, change))
        return self

    def table(self) -> pd.DataFrame:
        """One row per finding: both effects and their change with classes and adjusted
        p-values, the label, and for an unresolved one the games per line-up that would
        settle it."""
        rows = []
        for f, (m, s, c) in zip(self.findings, self.claims, strict=True):
            verdict = label(m.cls, s.cls, c.cls, f.measured.effect, f.strong.effect, f.silent)
            settle = math.nan
            if verdict == "unresolved":
                settle = max((x.settle for x in (m, s) if x.cls == UNRESOLVED),
                             default=math.inf)
            rows.append({"finding": f.name, "measured": f.measured.effect,
                         "class_measured": m.cls, "p_measured": m.p_adjusted,
                         "strong": f.strong.effect, "class_strong": s.cls,
                         "p_strong": s.p_adjusted, "change": c.estimate.effect,
                         "change_se": c.estimate.se, "class_change": c.cls,
                         "p_change": c.p_adjusted, "paired": f.paired_se is not None,
                         "smallest": f.delta, "label": verdict, "settle_games": settle,
                         "why": f.silent or ""})
        return pd.DataFrame(rows)


def label_findings(findings: list[Finding], standard: Standard | None = None) -> pd.DataFrame:
    """Label findings under `standard` (default: a family of their own), settling it."""
    standard = standard or Standard()
    labels = Labels(findings).register(standard)
    standard.settle()
    return labels.table()
