"""How numbers and names read to a designer: p-values, counts and table cells, plain words for
column names, and the glossary every report opens with (docs/reading-reports.md has the long
form)."""

from __future__ import annotations

import math
import re

DOCS_PAGE = "docs/reading-reports.md"
P_FLOOR = 1e-4  # smaller p-values print as "< 0.0001"


def fmt_p(p: float) -> str:
    """A p-value for people: "< 0.0001" below 1e-4, else 2 significant digits."""
    if p is None or not math.isfinite(p):
        return "n/a"
    if p < P_FLOOR:
        return "< 0.0001"
    return f"{p:.2g}" if p < 0.01 else f"{p:.2f}"


def p_text(p: float) -> str:
    """"p = 0.03" or "p < 0.0001"."""
    s = fmt_p(p)
    return f"p {s}" if s.startswith("<") else f"p = {s}"


def is_p_column(name: str) -> bool:
    """p_value, p_adjusted, p_rounds ...: a column of p-values."""
    return bool(re.match(r"^p(_|$)", str(name)))


def number(v: float) -> str:
    """A number in a table: whole numbers whole (10406, never 1.041e+04), others to 4
    significant digits without an exponent between 1e-4 and 1e15."""
    if not math.isfinite(v):
        return "" if math.isnan(v) else str(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    if abs(v) >= 1000:
        return f"{v:.1f}"
    if abs(v) < 1e-4:
        return f"{v:.2e}"
    return f"{v:.4g}"


def cell(v, column: str = "") -> str:
    """One table cell: a p-value as `fmt_p`, a number as `number`, a missing value blank."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int | float) and not isinstance(v, bool):
        v = float(v)
        if math.isnan(v):
            return ""
        return fmt_p(v) if is_p_column(column) else number(v)
    return str(v)


# ---------------------------------------------------------------- plain words for columns

COLUMNS = {
    "n": "number of results", "win_rate": "win rate", "fair_share": "fair share",
    "p_value": "p-value, uncorrected", "p_adjusted": "p-value, Holm across the report",
    "class": "class (against the smallest effect)", "games_to_settle": "games to settle",
    "vs_fair_pp": "win rate minus fair share (pp)", "smallest": "smallest effect of interest",
    "label": "label", "measured": "as measured", "strong": "under strong play",
    "measured_line_up": "line-up as measured", "strong_line_up": "strong line-up",
    "class_measured": "class as measured", "class_strong": "class under strong play",
    "class_change": "class of the change", "diff": "variant minus baseline",
    "variant_value": "variant", "baseline": "baseline", "se_paired": "paired std. error",
    "se_unpaired": "unpaired std. error", "variance_reduction": "variance reduction by pairing",
    "detectable": "smallest detectable change (80% power)", "max_abs_deviation":
    "largest seat deviation from fair", "seat_spread": "seat spread (best minus worst seat)",
    "robust_z": "robust z (MAD)", "mean_points": "mean points", "rating":
    "rating (Bradley-Terry)", "skill_share": "skill share",
    "deal_share": "deal share", "rest_share": "share of the rest (chance in play)",
    "mechanical": "changed by the edit itself",
    "p_change": "p-value of the change, Holm across the report",
}


# words for a column that means something else in each table: keyed "table.column"
TABLE_COLUMNS = {
    "ladder_pairwise.share": "share finishing ahead",
    "game_length.share": "share of games",
    "balance.smallest": "tolerance",
    "balance.class": "class (against the tolerance)",
}


def column_words(name: str, extra: dict | None = None, table: str = "") -> str:
    """A column's name in plain words, the raw name in brackets when the words differ from
    it beyond its underscores; a column whose meaning depends on its table (`table`, the
    CSV's stem) takes that table's words, and has none elsewhere."""
    words = TABLE_COLUMNS.get(f"{table}.{name}") or {**COLUMNS, **(extra or {})}.get(name)
    plain = str(name).replace("_", " ")
    return plain if words is None or words == plain else f"{words} ({name})"


def in_words(name: str, words: dict) -> str:
    """A name (a rule knob, a measure) in the plain words `words` gives it, the name in
    brackets; the name alone when `words` has none."""
    return f"{words[name]} ({name})" if name in words else name


# ---------------------------------------------------------------- glossary

GLOSSARY = (
    ("95% CI", r"\[|CI\b", "95% confidence interval: the values the data are consistent "
     "with, in brackets after a number: 25.3% [24.1%, 26.5%]."),
    ("pp", r"\bpp\b", "percentage points: the difference between two percentages (25% to 27% "
     "is +2 pp)."),
    ("fair share", r"fair", "the win rate every seat, card or policy would have in a balanced "
     "game: 1/players."),
    ("smallest effect of interest", r"smallest effect|meaningful|negligible",
     "the smallest difference a designer would act on (defaults: 2 pp of a win rate, 0.5 "
     "points, 0.25 rounds or 0.5 turns, 10% of a per-card value or count; "
     "--smallest-effect changes them)."),
    ("Holm-adjusted CI", r"Holm-adjusted|Holm \[", "the interval a class is decided on: "
     "wider than the 95% CI, at the level Holm's correction gives the claim among all the "
     "report's claims (shown after the 95% CI: \"+2.9 pp [+2.4, +3.5] (Holm-adjusted [+1.9, "
     "+4.0])\"; in tables after \"; Holm\")."),
    ("meaningful", r"meaningful", "the Holm-adjusted CI lies wholly beyond the smallest effect "
     "of interest: a difference worth acting on."),
    ("negligible", r"negligible", "the Holm-adjusted CI lies wholly within the smallest effect "
     "of interest (an equivalence test): too small to matter."),
    ("unresolved", r"unresolved", "neither meaningful nor negligible at this number of games; "
     "the games per side that would settle it at the claim's Holm-adjusted level (80% power "
     "if the effect is the one observed) are given, always more than the games played."),
    ("Holm", r"Holm|standard", "the one multiplicity standard of the report: every claim is "
     "tested together with all the others (Holm's correction), so the chance that any claim "
     "in the report is false stays at 5%."),
    ("not distinguishable", r"not distinguishable", "items whose differences do not pass the "
     "standard: no order between them is claimed at this n; on the skill ladder, not "
     "meaningfully ahead: a policy is the strongest alone only when it finishes ahead of every "
     "other beyond the smallest effect."),
    ("strong line-up", r"strong", "the tuned (or search) policy in every seat: each key "
     "finding is measured again with it on the same deals."),
    ("labels", r"HOLDS|WEAKENS|STRENGTHENS|REVERSES|APPEARS|VANISHES|UNRESOLVED|NOT COMPARABLE|"
     r"\bholds\b|weakens|strengthens|reverses|appears|vanishes|not comparable",
     "how a finding fares under strong play: holds (the same class both times), weakens or "
     "strengthens (the change itself is meaningful), reverses (opposite signs, meaningful "
     "under both or a meaningful move across zero), vanishes or appears (meaningful under one "
     "line-up, negligible under the other), unresolved, not comparable (the strong line-up "
     "never does what is measured)."),
    ("skill, deal and rest shares", r"skill share|deal share|skill decides",
     "how much of a seat's result the policy decides (skill), what the deal gives the seat "
     "whoever plays it (deal), and the chance of play (rest), from the same deals played in "
     "every seat rotation."),
    ("Bradley-Terry rating", r"Bradley-Terry|rating", "a policy's log-strength: A finishes "
     "ahead of B with chance 1 / (1 + exp(rating B - rating A))."),
    ("paired", r"paired", "two settings played on the same deals (common random numbers), so "
     "luck both share cancels in their difference."),
    ("robust z (MAD)", r"MAD|robust", "distance from the group's median in robust standard "
     "deviations (median absolute deviation x 1.4826)."),
    ("p < 0.0001", r"< 0\.0001", "a p-value below 0.0001 (not shown in full)."),
    ("seats", r"[Ss]eat \d", "seats are numbered from 1, in turn order (seat 1 plays first); "
     "only the raw result tables' `seat` column counts from 0."),
)
# the seats of a game that deals its first player each game (analysis.verdict.dealt_first)
DEALT_SEATS = ("seats are numbered from 1; the game deals its first player at random each "
               "game, so a seat is a place at the table and the first player is whichever seat "
               "the deal made first; only the raw result tables' `seat` column counts from 0.")


def glossary(text: str, dealt_first: bool = False) -> list[tuple[str, str]]:
    """The glossary entries whose terms the text uses, in glossary order; `dealt_first`:
    the game deals its first player each game, so its seats are no turn order."""
    return [(term, DEALT_SEATS if dealt_first and term == "seats" else meaning)
            for term, pattern, meaning in GLOSSARY if re.search(pattern, text)]
