"""What a finding may claim: each estimate classed against the smallest effect a designer would
act on, one multiplicity standard for every claim of a report, and rankings only where the
intervals separate.

**Smallest effect of interest** (`Smallest`): each kind of measure has a band of +/- delta
around "no effect" (2 percentage points of a win rate, half a point of score, a quarter of a
round; 10% of the reference value for a per-card value or a per-player count).
docs/reading-reports.md gives the defaults' reasons; every command that labels takes
``--smallest-effect KIND=VALUE``.

**Classes**: an estimate e with standard error se is

- *meaningful* when its 95% interval lies outside the band (|e| - delta > 1.96 se): larger
  than anything a designer would ignore;
- *negligible* when its 95% interval lies inside the band (delta - |e| > 1.96 se): two
  one-sided tests (TOST, Schuirmann 1987) at 2.5% each, so the effect is shown to be smaller
  than delta;
- *unresolved* otherwise, with the games per side that would decide it (80% power if the
  true effect is the one observed).

With delta = 0 "meaningful" is the ordinary two-sided significance test. The two tests make
one claim with one p-value, p = 2 P(Z > ||e| - delta| / se): at most one of them can pass
(their p-values add up to 2), and under either truth (|effect| above or below delta) the
chance of a false claim is at most 5%, so each estimate adds one p-value to its family.

**The standard** (`Standard`): Holm's step-down correction (Holm 1979) over every claim of one
report or comparison (classes, the tests behind labels, rankings). It keeps the chance of
even one false claim in the whole report at 5% whatever the dependence between claims, which
share games and deals; Benjamini-Hochberg's false discovery rate is valid only under positive
dependence and lets a share of the listed findings be false, while a designer acts on each
key finding alone. Simulated games are cheap: the power Holm costs is bought back with n.

**Rankings** (`rank`): "most", "best", "above" only where the leader's difference from every
other item passes the standard; otherwise the items it is not separated from are reported
with it as a tied group.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Final, Literal

import numpy as np

from ..errors import InputError
from .balance import holm
from .normal import norm_isf, norm_ppf, norm_sf
from .paired import ALPHA, games_to_detect

EffectClass = Literal["meaningful", "negligible", "unresolved"]  # against the smallest effect
MEANINGFUL: Final = "meaningful"
NEGLIGIBLE: Final = "negligible"
UNRESOLVED: Final = "unresolved"
CLASSES: tuple[EffectClass, ...] = (MEANINGFUL, NEGLIGIBLE, UNRESOLVED)
Z = float(norm_ppf(1 - ALPHA / 2))


@dataclass(frozen=True)
class Estimate:
    """An effect measured on `games` games (per side) with its standard error."""

    effect: float
    se: float
    games: int

    @classmethod
    def from_ci(cls, effect: float, ci_low: float, ci_high: float, games: int,
                level: float = 0.95) -> Estimate:
        """From a (roughly symmetric) interval at `level`: se = its width / (2 z)."""
        z = norm_ppf(0.5 + level / 2)
        return cls(float(effect), float(ci_high - ci_low) / (2 * z), int(games))

    @property
    def p_value(self) -> float:
        """Two-sided p-value that the true effect is 0."""
        return claim(self.effect, self.se, 0.0)[1]

    @property
    def ci(self) -> tuple[float, float]:
        """95% normal interval."""
        return self.effect - Z * self.se, self.effect + Z * self.se


# ---------------------------------------------------------------- smallest effect of interest


@dataclass(frozen=True)
class Smallest:
    """The smallest effect of interest of each kind of measure.

    `rate`: percentage points of a win rate, a share or a spread of win rates; `points`:
    points of score per player; `rounds` and `turns`: game length; `relative`: percent of the
    reference value, for measures without a natural unit (a card's prestige per die rolled at
    it, tokens or tips per player)."""

    rate: float = 2.0
    points: float = 0.5
    rounds: float = 0.25
    turns: float = 0.5
    relative: float = 10.0

    def delta(self, unit: str, reference: float = math.nan) -> float:
        """The band's half-width in the estimate's own unit: "rate" and "pp" estimates are
        proportions (0-1); a unit with no kind of its own is relative to `reference` (NaN
        without one)."""
        if unit in ("rate", "pp"):
            return self.rate / 100
        if unit in ("points", "rounds", "turns"):
            return float(getattr(self, unit))
        return self.relative / 100 * abs(reference) if math.isfinite(reference) else math.nan

    def text(self) -> str:
        """The defaults in words, for a report's header."""
        return (f"win rates and shares {_num(self.rate)} pp, scores {_num(self.points)} points, "
                f"game length {_num(self.rounds)} rounds or {_num(self.turns)} turns, per-card "
                f"values and per-player counts {_num(self.relative)}% of the reference")

    def record(self) -> dict:
        """For provenance."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def parse(cls, specs) -> Smallest:
        """From ``--smallest-effect KIND=VALUE`` flags (each kind at most once)."""
        kinds = [f.name for f in fields(cls)]
        values: dict[str, float] = {}
        for text in [specs] if isinstance(specs, str) else list(specs or ()):
            m = re.fullmatch(r"\s*([a-z]+)\s*=\s*(\S+)\s*", str(text))
            try:
                value = float(m.group(2)) if m else math.nan
            except ValueError:
                value = math.nan
            if m is None or m.group(1) not in kinds:
                raise InputError(f"--smallest-effect {text!r}: write KIND=VALUE with KIND one "
                                 f"of {', '.join(kinds)} (e.g. rate=1)")
            if not (math.isfinite(value) and value >= 0):
                raise InputError(f"--smallest-effect {text!r}: the value must be a number >= 0 "
                                 f"(e.g. {m.group(1)}=1)")
            if m.group(1) in values:
                raise InputError(f"--smallest-effect {m.group(1)} is given twice; give each "
                                 "kind once")
            values[m.group(1)] = value
        return cls(**values)


def _num(x: float) -> str:
    return f"{x:g}"


# ---------------------------------------------------------------- classes


def claim(effect: float, se: float, delta: float) -> tuple[EffectClass, float]:
    """(the class the estimate points to, the p-value of that claim): meaningful when |effect|
    exceeds delta, else negligible; p = 2 P(Z > ||effect| - delta| / se), at most 1."""
    if not (math.isfinite(effect) and math.isfinite(se) and math.isfinite(delta)):
        return UNRESOLVED, 1.0
    gap = abs(effect) - delta
    kind: EffectClass = MEANINGFUL if gap > 0 else NEGLIGIBLE
    if gap == 0:
        return kind, 1.0
    if se <= 0:
        return kind, 0.0
    return kind, float(min(1.0, 2 * norm_sf(abs(gap) / se)))


def classify(effect: float, se: float, delta: float, alpha: float = ALPHA) -> EffectClass:
    """The class of one estimate on its own (no multiplicity correction)."""
    kind, p = claim(effect, se, delta)
    return kind if p < alpha else UNRESOLVED


def games_to_settle(est: Estimate, delta: float, alpha: float = ALPHA) -> float:
    """Games per side at which the estimate's claim would pass a two-sided test at level
    `alpha` (a claim's decision level under the standard) with 80% power if the true effect
    were the one observed (inf when it sits on the band's edge)."""
    gap = abs(est.effect) - delta
    if not (math.isfinite(gap) and gap != 0 and est.se > 0 and est.games > 0):
        return math.inf
    return float(games_to_detect(est.se, est.games, abs(gap), alpha))


class Standard:
    """Holm's correction over every claim of one report or comparison: claims are added while
    it is built, then the family is settled once (no claim may join afterwards) and each
    claim passes when its adjusted p-value is below `alpha`."""

    method = "Holm"

    def __init__(self, alpha: float = ALPHA):
        self.alpha = alpha
        self._p: dict[str, float] = {}
        self._adjusted: dict[str, float] | None = None

    def add(self, key: str, p: float) -> str:
        """Add a claim with its raw p-value; returns its key (made unique)."""
        if self._adjusted is not None:
            raise RuntimeError("the standard is settled: no claim may join it now")
        name, k = key, 2
        while name in self._p:
            name, k = f"{key} ({k})", k + 1
        self._p[name] = float(p) if math.isfinite(p) else 1.0
        return name

    def settle(self) -> None:
        if self._adjusted is None:
            keys = list(self._p)
            p = np.array([self._p[k] for k in keys])
            adj = holm(p) if keys else np.array([])
            self._adjusted = dict(zip(keys, map(float, adj), strict=True))
            order = np.argsort(p, kind="stable")
            self._step = {keys[i]: len(keys) - r for r, i in enumerate(order)}

    def level(self, key: str) -> float:
        """The claim's decision level: its raw p-value passes below it exactly when its
        adjusted one passes below `alpha`. Holm's step for the claim is alpha / (m - rank + 1);
        alpha p / p_adjusted takes in the steps before it (the running maximum), and the
        smaller of the two keeps the equivalence while staying near the step."""
        p, adj = self._p[key], self.adjusted(key)
        step = self.alpha / self._step[key]
        return min(step, self.alpha * p / adj) if adj > 0 else step

    def adjusted(self, key: str) -> float:
        """The claim's Holm-adjusted p-value (settles the family on first use)."""
        self.settle()
        assert self._adjusted is not None
        return self._adjusted[key]

    def passes(self, key: str) -> bool:
        return self.adjusted(key) < self.alpha

    def raw(self) -> dict[str, float]:
        """Every claim's raw p-value."""
        return dict(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def text(self) -> str:
        return (f"{self.method} across all {len(self):,} claims (at most {self.alpha:.0%} chance "
                "of any false claim)")


@dataclass
class Claim:
    """One estimate's class, against `delta`, under a standard."""

    key: str
    estimate: Estimate
    delta: float
    standard: Standard

    @classmethod
    def make(cls, standard: Standard, key: str, estimate: Estimate, delta: float) -> Claim:
        kind, p = claim(estimate.effect, estimate.se, delta)
        return cls(standard.add(key, p), estimate, delta, standard)

    @property
    def kind(self) -> EffectClass:
        return claim(self.estimate.effect, self.estimate.se, self.delta)[0]

    @property
    def p_adjusted(self) -> float:
        return self.standard.adjusted(self.key)

    @property
    def cls(self) -> EffectClass:
        return self.kind if self.standard.passes(self.key) else UNRESOLVED

    @property
    def level(self) -> float:
        """The two-sided error level the class was decided at (`Standard.level`)."""
        return self.standard.level(self.key)

    @property
    def decision_ci(self) -> tuple[float, float]:
        """The interval the class was decided on, at confidence 1 - `level`: it lies wholly
        beyond the band of +/- delta exactly when the class is meaningful and wholly within
        it exactly when negligible (the Holm-adjusted interval)."""
        half = float(norm_isf(self.level / 2)) * self.estimate.se
        return self.estimate.effect - half, self.estimate.effect + half

    def reversed(self) -> Claim:
        """The same claim read from the other side (A ahead of B as B behind A): the estimate
        negated, the same test in the standard."""
        e = self.estimate
        return Claim(self.key, Estimate(-e.effect, e.se, e.games), self.delta, self.standard)

    @property
    def settle(self) -> float:
        """Games per side that would settle it at its decision level (NaN once settled);
        always more than the games played."""
        return games_to_settle(self.estimate, self.delta, self.level) \
            if self.cls == UNRESOLVED else math.nan


# ---------------------------------------------------------------- claims in words


def unsigned_zero(text: str, signed: bool = False) -> str:
    """A number printed as "-0.0" (a tiny negative rounded away) without its minus: "0.0",
    or "+0.0" where numbers carry their sign."""
    if text.startswith("-") and not text.strip("-0.%"):
        return ("+" if signed else "") + text[1:]
    return text


def pct(x: float) -> str:
    return unsigned_zero(f"{100 * x:.1f}%")


def show(value: float, unit: str, signed: bool = True, named: bool = True) -> str:
    """A value in its unit for a sentence: "pp" values are proportions shown in percentage
    points, "rate" a proportion shown in percent; a value that rounds to zero has no sign
    ("+0.0", never "-0.0")."""
    if not math.isfinite(value):
        return "n/a"
    if unit == "pp":
        text = f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}"
    elif unit == "rate":
        return pct(value)
    else:
        digits = 2 if abs(value) < 100 else 0
        text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    text = unsigned_zero(text, signed)
    return f"{text} {unit}" if named else text


def bracket(lo: float, hi: float, unit: str) -> str:
    """"[+3.5, +4.7]"."""
    return f"[{show(lo, unit, named=False)}, {show(hi, unit, named=False)}]"


def interval(est: Estimate, unit: str) -> str:
    """"+4.1 pp [+3.5, +4.7]": the 95% interval."""
    return f"{show(est.effect, unit)} {bracket(*est.ci, unit)}"


def settle_text(need: float, games: int, per: str = "per side") -> str:
    """"about 31,000 games per side would settle it", or "more than 20,000 games ..." when
    the estimate at hand would not reach beyond the games played."""
    if not math.isfinite(need):
        return ""
    if need <= games:
        return f"more than {games:,} games {per} would settle it"
    return f"about {need:,.0f} games {per} would settle it"


def verdict(c: Claim, unit: str) -> str:
    """The class in words, with the band it was decided against: "meaningful (beyond
    ±2.0 pp)", "negligible (within ±2.0 pp)", "unresolved (neither beyond nor within ±2.0 pp;
    about 12,000 games per side would settle it)"."""
    band = f"±{show(c.delta, unit, signed=False)}"
    cls = c.cls
    if cls == NEGLIGIBLE:
        return f"negligible (within {band})"
    if cls == UNRESOLVED:
        tail = settle_text(c.settle, c.estimate.games)
        return f"unresolved (neither beyond nor within {band}" + (f"; {tail})" if tail else ")")
    return f"meaningful (beyond {band})"


def decided(c: Claim, unit: str) -> str:
    """"+4.1 pp [+3.5, +4.7] (Holm-adjusted [+3.1, +5.1])": the estimate with its 95%
    interval and, when the standard tests more than this claim, the interval its class was
    decided on."""
    text = interval(c.estimate, unit)
    if len(c.standard) > 1:
        text += f" (Holm-adjusted {bracket(*c.decision_ci, unit)})"
    return text


def classed(c: Claim, unit: str, what: str = "") -> str:
    """"-3.9 pp from fair (Holm-adjusted [-4.7, -3.1]), meaningful": the estimate (`what` it
    is measured from), the interval its class was decided on and the class, for a list whose
    band is stated once."""
    return (f"{show(c.estimate.effect, unit)}{' ' + what if what else ''} (Holm-adjusted "
            f"{bracket(*c.decision_ci, unit)}), {c.cls}")


def said(c: Claim, unit: str) -> str:
    """"+4.1 pp [+3.5, +4.7] (Holm-adjusted [+3.1, +5.1]), meaningful (beyond ±2.0 pp)"."""
    return f"{decided(c, unit)}, {verdict(c, unit)}"


# ---------------------------------------------------------------- rankings


def names_text(names) -> str:
    """"A", "A and B", "A, B and C"."""
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass
class Ranking:
    """The item at one end of a list and the items its difference from them does not
    separate after the standard: `group()` (the leader first)."""

    names: list[str]
    values: np.ndarray
    leader: int
    keys: dict[int, str]  # other item -> key of its test against the leader
    standard: Standard

    def group(self) -> list[int]:
        """The leader and every item not separated from it, leader first, then by value."""
        tied = [j for j, key in self.keys.items() if not self.standard.passes(key)]
        return [self.leader] + sorted(tied, key=lambda j: abs(self.values[j]
                                                               - self.values[self.leader]))

    @property
    def alone(self) -> bool:
        """The leader is separated from every other item."""
        return len(self.group()) == 1

    def text(self, show: Callable[[int], str] = lambda i: "", many: int = 4) -> str:
        """"A (value)" when the leader stands alone; else the tied group: "A (v) and B (v),
        not distinguishable at this n", or past `many` items "A (v), not distinguishable from
        N others at this n"."""
        group = self.group()
        shown = [f"{self.names[i]}{show(i)}" for i in group]
        if len(group) == 1:
            return shown[0]
        if len(group) > many:
            return f"{shown[0]}, not distinguishable from {len(group) - 1} others at this n"
        return f"{names_text(shown)}, not distinguishable at this n"


def rank(standard: Standard, key: str, names, estimates: list[Estimate], highest: bool = True,
         diff_se: Callable[[int, int], float] | None = None) -> Ranking:
    """The highest (or lowest) of `estimates` and one test of its difference from each other
    item, added to `standard`; `diff_se(i, j)` gives the standard error of a difference when
    the two are not independent (e.g. paired by game), else the two errors add in quadrature."""
    values = np.array([e.effect for e in estimates], float)
    finite = np.where(np.isfinite(values))[0]
    if not len(finite):
        raise ValueError("nothing to rank: no finite value")
    lead = int(finite[np.argmax(values[finite])] if highest else finite[np.argmin(values[finite])])
    keys = {}
    for j in finite:
        if j == lead:
            continue
        se = diff_se(lead, j) if diff_se else math.hypot(estimates[lead].se, estimates[j].se)
        p = claim(values[lead] - values[j], se, 0.0)[1]
        keys[int(j)] = standard.add(f"{key}: {names[lead]} vs {names[j]}", p)
    return Ranking([str(n) for n in names], values, lead, keys, standard)
