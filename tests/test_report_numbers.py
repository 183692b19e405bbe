"""Every number of a report agrees with its words, checked as properties of the text.

`problems(report folder)` reads report.md line by line and the tables it shows:

- a class (meaningful, negligible, unresolved) stands after the interval it was decided on,
  labelled "Holm-adjusted", with the band it was decided against ("±2.0 pp") in its line:
  meaningful means that interval lies wholly beyond the band, negligible wholly within it,
  unresolved neither; in a table, each class column has its adjusted interval columns and
  its smallest effect, and the same holds;
- a class said as an adverb ("meaningfully more than fair") in a line that prints intervals
  prints the one it was decided on too (Holm-adjusted, or a verdict line's own intervals
  labelled with their Bonferroni level);
- an interval holds its estimate (low <= value <= high);
- a percentage (but a distance in percent of a median), and a rate or share in a table,
  lies within [0%, 100%];
- no number prints as "-0.0";
- "N games would settle it" says more than the report's games, or than the games its line
  says the estimate was measured on ("of 50 meetings").

The committed reports are checked too, strictly: each was written by the code that writes
reports now.
"""

import re
from pathlib import Path

import pandas as pd
import pytest

NUM = r"[+-]?\d[\d,]*(?:\.\d+)?"
BRACKET = re.compile(rf"\[({NUM})(%?), ({NUM})(%?)\]")
INTERVAL = re.compile(rf"(?<![\w.])({NUM})(%?)(?: [a-z][a-z ]*?)? \[({NUM})(%?), ({NUM})(%?)\]")
CLASS = re.compile(r"\b(meaningful|negligible|unresolved)\b")
ADVERB = re.compile(r"\b(meaningfully|negligibly)\b")
BAND = re.compile(rf"±({NUM})")
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(?:\.0+)?(?![\d.])")
PERCENT = re.compile(rf"({NUM})%")
OF_MEDIAN = "distance from their habitat's median"
SETTLE = re.compile(r"\b(about|more than) ([\d,]+) games[^.;|]*?would settle")
GAMES = re.compile(r"games per (?:configuration|side): ([\d,]+)")
PLAYED = re.compile(r"\b(?:of|over) ([\d,]+) (?:games|meetings)\b")
RATE_HEADER = re.compile(r"\b(win rate|share|rate)\b")
NOT_A_RATE = re.compile(r"minus|change|difference|spread|\bpp\b|per |points|\bvs\b|\bd_")
HOLM = "Holm-adjusted "
BONFERRONI = "intervals, Bonferroni over"  # a verdict line's own decision intervals, labelled

REPORTS = Path(__file__).resolve().parents[1] / "reports"


def number(text: str) -> float:
    return float(text.replace(",", ""))


def tolerance(*texts: str) -> float:
    """Half a unit of the last printed digit: a bound printed "+2.0" may be 1.95 to 2.05."""
    places = max(len(t.split(".")[1]) if "." in t else 0 for t in texts)
    return 0.5 * 10 ** -places


def class_problem(cls: str, lo: float, hi: float, delta: float, tol: float = 1e-12) -> str:
    """Why an interval disagrees with its class against the band ±delta ("" when it
    agrees), allowing `tol` for the printed rounding."""
    beyond = lo >= delta - tol or hi <= -delta + tol
    within = lo >= -delta - tol and hi <= delta + tol
    surely_beyond = lo > delta + tol or hi < -delta - tol
    surely_within = lo > -delta + tol and hi < delta - tol
    if cls == "meaningful" and not beyond:
        return f"meaningful, but [{lo}, {hi}] is not wholly beyond ±{delta}"
    if cls == "negligible" and not within:
        return f"negligible, but [{lo}, {hi}] is not wholly within ±{delta}"
    if cls == "unresolved" and (surely_beyond or surely_within):
        return f"unresolved, but [{lo}, {hi}] decides against ±{delta}"
    return ""


def sentence_problems(line: str) -> list[str]:
    """The class claims of one line of text, each against the interval just before it."""
    out = []
    start = 0
    for m in CLASS.finditer(line):
        before = line[start:m.start()]
        start = m.end()
        brackets = list(BRACKET.finditer(before))
        if not brackets:
            out.append(f"{m.group(1)} without an interval before it")
            continue
        last = brackets[-1]
        if not before[:last.start()].endswith(HOLM):
            out.append(f"{m.group(1)} beside an interval not labelled {HOLM.strip()}: "
                       f"{last.group(0)}")
            continue
        after = BAND.search(line, m.end())
        bands = list(BAND.finditer(line[:m.start()]))
        band = after or (bands[-1] if bands else None)
        if band is None:
            out.append(f"{m.group(1)} without its band (±delta) in the line")
            continue
        lo, hi = last.group(1), last.group(3)
        why = class_problem(m.group(1), number(lo), number(hi), number(band.group(1)),
                            tolerance(lo, hi, band.group(1)))
        if why:
            out.append(why)
    adverb = ADVERB.search(line)
    if adverb and BRACKET.search(line) and HOLM not in line and BONFERRONI not in line:
        out.append(f"{adverb.group(1)} beside intervals none of which is the one it was "
                   "decided on")
    return out


def number_problems(line: str, games: int) -> list[str]:
    """Intervals that do not hold their value, percentages outside [0, 100], "-0.0", and
    games to settle not beyond the games played."""
    out = []
    for m in INTERVAL.finditer(line):
        v, lo, hi = number(m.group(1)), number(m.group(3)), number(m.group(5))
        if not lo <= v <= hi:
            out.append(f"{m.group(0)}: the value lies outside its interval")
    for part in line.split(";"):
        if OF_MEDIAN in part:  # a distance in percent of a median may pass 100%
            continue
        for m in PERCENT.finditer(part):
            if not 0 <= number(m.group(1)) <= 100:
                out.append(f"{m.group(0)} lies outside [0%, 100%]")
    if NEGATIVE_ZERO.search(line):
        out.append(f"a negative zero: {NEGATIVE_ZERO.search(line).group(0)}")
    played = min([games] + [number(x) for x in PLAYED.findall(line)])
    for m in SETTLE.finditer(line):
        n = number(m.group(2))
        if n < played or (m.group(1) == "about" and n <= played):
            out.append(f"{m.group(0)}: not more than the {played:,} games played")
    return out


def table_problems(header: list[str], row: list[str]) -> list[str]:
    """A shown table row: a rate or share column's cells (value and interval) within [0, 1]."""
    out = []
    for name, text in zip(header, row, strict=True):
        if RATE_HEADER.search(name) and not NOT_A_RATE.search(name):
            for x in re.findall(NUM, text):
                if not 0 <= number(x) <= 1:
                    out.append(f"{name}: {text} lies outside [0, 1]")
                    break
    return out


def csv_class_problems(table: pd.DataFrame, name: str) -> list[str]:
    """Each class column of a table against the interval it was decided on: `estimate<s>`'s
    `_ci_low_adjusted`/`_ci_high_adjusted` with `smallest<s>`, in a strong-play table
    `measured`, `strong`, `change` with `smallest`, in a comparison's table the paired
    difference's `ci_low_adjusted`/`ci_high_adjusted` with `smallest`. A compare's balance
    verdict (better, worse, no change, open) is decided on its own printed interval against
    its tolerance, not under the standard."""
    out = []
    for col in [c for c in table.columns if c == "class" or c.startswith("class_")]:
        suffix = col.removeprefix("class")
        side = suffix.removeprefix("_")
        if not set(table[col].dropna()) - {"", "better", "worse", "no change", "open"}:
            continue
        if f"estimate{suffix}_ci_low_adjusted" in table:
            stem, band = f"estimate{suffix}_", f"smallest{suffix}"
        elif side in ("measured", "strong", "change") and f"{side}_ci_low_adjusted" in table:
            stem, band = f"{side}_", "smallest"
        elif col == "class" and "ci_low_adjusted" in table:
            stem, band = "", "smallest"
        else:
            out.append(f"{name}.csv: {col} without the interval it was decided on")
            continue
        for i, r in table.iterrows():
            if not isinstance(r[col], str) or not r[col]:
                continue
            why = class_problem(r[col], r[f"{stem}ci_low_adjusted"],
                                r[f"{stem}ci_high_adjusted"], abs(r[band]), 1e-9)
            if why:
                out.append(f"{name}.csv row {i}, {col}: {why}")
    return out


def problems(folder: Path) -> list[str]:
    """Every disagreement between a report's numbers and its words (see the module)."""
    text = (folder / "report.md").read_text()
    games = number(GAMES.search(text).group(1))
    out = []
    body = text.split("\n## Summary", 1)[-1] if "\n## Summary" in text else \
        text.split("\n## Key findings", 1)[-1]
    header: list[str] | None = None
    for line in body.splitlines():
        found = number_problems(line, games)
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                header = cells
            elif set("".join(cells)) > {"-"}:
                found += table_problems(header, cells)
        else:
            header = None
            found += sentence_problems(line)
        out += [f"{why} in: {line[:160]}" for why in found]
    for name in re.findall(r"Table `([\w-]+)\.csv`", text):
        out += csv_class_problems(pd.read_csv(folder / f"{name}.csv"), name)
    return out


# ---------------------------------------------------------------- the checker catches each defect

BAD_LINES = [
    # the raw interval beside a class decided on the adjusted one
    "- seat 5: +2.9 pp [+2.4, +3.5], unresolved (neither beyond nor within ±2.0 pp).",
    # an adjusted interval beyond the band, yet unresolved
    "- change: -3.0 pp [-3.6, -2.4] (Holm-adjusted [-3.9, -2.1]), unresolved (neither beyond "
    "nor within ±2.0 pp).",
    # meaningful on an interval that reaches into the band
    "- seat 1: -2.5 pp [-3.1, -1.9] (Holm-adjusted [-3.3, -1.7]), meaningful (beyond ±2.0 pp).",
    # negligible on an interval that leaves the band
    "- offers: +1.0 pp [-0.4, +2.3] (Holm-adjusted [-0.8, +2.6]), negligible (within ±2.0 pp).",
    # a class with no band to read it against
    "- seat 1: -2.5 pp [-3.1, -1.9] (Holm-adjusted [-3.3, -1.7]), meaningful.",
    # a rate past 100%
    "- tuned-4p wins 99.9% [99.9%, 100.1%] against random.",
    # a negative zero
    "- the deal -0.0% [-0.0%, 0.0%] of a seat's result.",
    "- a change of -0.00 rounds [-0.03, +0.02].",
    # games to settle not beyond the games played
    "- +2.9 pp, about 20,000 games would settle it.",
    # an interval that misses its value
    "- a change of +5.0 pp [+5.1, +6.0].",
    # a class said as an adverb beside the raw interval of another quantity
    "- Unbalanced assignments (meaningfully more than 2 pp from the fair 25%): Live Fast wins "
    "31.5% [30.5%, 32.6%].",
]


@pytest.mark.parametrize("line", BAD_LINES)
def test_the_checker_fails_each_known_bad_line(line):
    assert number_problems(line, 20_000) + sentence_problems(line)


GOOD_LINES = [
    "- seat 5: +2.9 pp [+2.4, +3.5] (Holm-adjusted [+1.9, +4.0]), unresolved (neither beyond "
    "nor within ±2.0 pp; about 31,000 games per side would settle it).",
    "- change: -3.0 pp [-3.6, -2.4] (Holm-adjusted [-3.9, -2.1]), meaningful (beyond ±2.0 pp).",
    "- offers: +0.2 pp [-0.4, +0.8] (Holm-adjusted [-0.7, +1.1]), negligible (within ±2.0 pp).",
    "- the deal 0.0% [0.0%, 0.0%]; a change of +0.0 rounds [-0.03, +0.02].",
    "- 4 players (fair share 25.0%, smallest effect ±2.0 pp): seat 1 21.1% [20.5%, 21.6%]: "
    "-3.9 pp from fair (Holm-adjusted [-4.7, -3.1]), meaningful; seat 2 23.4% [22.9%, 24.0%]: "
    "-1.6 pp from fair (Holm-adjusted [-2.4, -0.8]), unresolved.",
    "- more than 20,000 games per side would settle it.",
    "- before: 4 players, greedy play: NOT BALANCED: 1 of 10 assignments meaningfully off fair "
    "(±2 pp): Live Fast +6.0 pp [+2.8, +9.4] (99.62% intervals, Bonferroni over the 13 claims "
    "of this line, 4,000 games)",
    "- Unbalanced assignments (beyond ±2.0 pp of the fair 25%): Live Fast wins 31.5% [30.5%, "
    "32.6%]: +6.5 pp from fair (Holm-adjusted [+5.2, +7.8]), meaningful.",
    "- The seat spread falls meaningfully with 3-3-3-3 (-7.2 pp [-8.0, -6.4] (Holm-adjusted "
    "[-8.4, -6.0]), meaningful (beyond ±2.0 pp)).",
    "- search finishes ahead of greedy in 75.0% [55.1%, 88.0%] of 24 meetings: +25.0 pp [+8.5, "
    "+41.5] (Holm-adjusted [-3.3, +53.3]), unresolved (neither beyond nor within ±2.0 pp; "
    "about 57 games per side would settle it).",
]


@pytest.mark.parametrize("line", GOOD_LINES)
def test_the_checker_passes_lines_that_agree(line):
    assert number_problems(line, 20_000) + sentence_problems(line) == []


def test_a_rate_column_past_one_is_caught():
    header = ["players", "win rate [95% CI]", "win rate minus fair share (pp) [95% CI]"]
    assert table_problems(header, ["3", "0.999950 [0.999852, 1.000048]", "-2.1 [-2.8, -1.4]"])
    assert not table_problems(header, ["3", "0.99995 [0.99972, 1.00000]", "-2.1 [-2.8, -1.4]"])


def test_a_class_column_without_its_decision_interval_is_caught():
    raw = pd.DataFrame({"diff": [0.0295], "ci_low": [0.0237], "ci_high": [0.0354],
                        "class": ["unresolved"]})
    assert csv_class_problems(raw, "t")
    held = pd.DataFrame({"estimate": [0.0295], "estimate_ci_low_adjusted": [0.0237],
                         "estimate_ci_high_adjusted": [0.0354], "smallest": [0.02],
                         "class": ["unresolved"]})
    assert csv_class_problems(held, "t")  # wholly beyond the band, yet unresolved
    assert not csv_class_problems(held.assign(**{"class": ["meaningful"]}), "t")


# ---------------------------------------------------------------- reports


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    """A Yosemite report at small n, with the studies that finish quickly and the strong
    line-up's labels."""
    from snapsim.games.yosemite.report import build

    out = tmp_path_factory.mktemp("numbers")
    build(out, games=200, seed=3, studies=["luck", "first", "landmarks", "length", "knobs"],
          progress=False)
    return out


def test_a_small_report_s_numbers_agree_with_its_words(small_report):
    assert problems(small_report) == []


@pytest.mark.parametrize("game, games, studies", [
    # enough games that some findings are meaningful and some sentences take that branch
    ("snapshot", 1_000, ["seats", "restricted", "awards", "raccoon"]),
    ("shutterbug", 500, ["seats", "assignments", "trading", "team"]),
])
def test_small_snapshot_and_shutterbug_reports_agree_with_their_words(tmp_path, game, games,
                                                                      studies):
    """The sentences each game writes itself (key findings and their design meaning, the
    strong line-up's labels) against the same properties."""
    from importlib import import_module

    import_module(f"snapsim.games.{game}.report").build(tmp_path, games=games, seed=3,
                                                       studies=studies, progress=False)
    assert problems(tmp_path) == []


@pytest.mark.parametrize("game", ["snapshot", "yosemite", "shutterbug"])
def test_the_committed_report_s_numbers_agree_with_its_words(game):
    assert problems(REPORTS / game) == []
