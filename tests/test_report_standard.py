"""One multiplicity standard across a whole report: a claim that would pass alone (p just
under 0.05) is not flagged among the report's many claims, in its table, its finding or its
key finding, and a study re-run alone is still corrected with the others' saved claims."""

import json

import pandas as pd
import pytest
from scipy import stats

from snapsim.analysis.effects import Estimate
from snapsim.report.render import Section
from snapsim.report.studies import build_report

SE = 0.01
PLANTED = Estimate(stats.norm.ppf(1 - 0.049 / 2) * SE, SE, 1000)  # two-sided p = 0.049


def many(ctx) -> Section:
    """Forty claims of nothing at all: p = 1 each."""
    s = Section("1-many", 1, "Many")
    table = pd.DataFrame({"item": [f"item {k}" for k in range(40)], "effect": 0.0})
    ctx.classes(s, "many", table, table.item, [Estimate(0.0, SE, 1000)] * 40, "pp")
    s.key_findings()
    return s


def planted(ctx) -> Section:
    """One claim whose p-value is 0.049: significant alone, not among forty more."""
    s = Section("2-planted", 2, "Planted")
    table = pd.DataFrame({"item": ["planted"], "effect": [PLANTED.effect]})
    (c,) = ctx.classes(s, "planted", table, table.item, [PLANTED], "pp")
    line = lambda: f"The planted effect is {c.cls}."  # noqa: E731
    s.later(line)
    s.key_findings(lambda: [(line(), f"class {c.cls}")])
    return s


STUDIES = {"many": (many, 0), "planted": (planted, 0)}


def build(out, studies, games=1000):
    from snapsim.analysis.effects import Smallest

    return build_report("yosemite", "standard", STUDIES, out, games, 1, chosen=studies,
                        progress=False, strong=None, smallest=Smallest(rate=0.0))


def test_a_planted_p_just_under_005_alone_is_meaningful(tmp_path):
    assert PLANTED.p_value == pytest.approx(0.049)
    build(tmp_path, ["planted"])
    assert pd.read_csv(tmp_path / "planted.csv")["class"][0] == "meaningful"


def test_among_the_report_s_claims_the_planted_p_is_not_flagged(tmp_path):
    build(tmp_path, None)
    row = pd.read_csv(tmp_path / "planted.csv").iloc[0]
    assert row["class"] == "unresolved"
    assert row.p_adjusted == pytest.approx(min(1.0, 41 * 0.049))  # Holm over 41 claims
    md = (tmp_path / "report.md").read_text()
    keys = md.split("## Key findings", 1)[1].split("## Many", 1)[0]
    assert "The planted effect is unresolved." in keys and "meaningful" not in keys
    assert "Holm across all 41 claims" in md


def test_a_study_re_run_alone_is_corrected_with_the_others_saved_claims(tmp_path):
    build(tmp_path, None)
    build(tmp_path, ["planted"])  # the many claims come from sections/1-many.json
    assert pd.read_csv(tmp_path / "planted.csv")["class"][0] == "unresolved"
    record = json.loads((tmp_path / "provenance.json").read_text())
    assert record["standard"]["claims"] == 41
    assert "The planted effect is unresolved." in (tmp_path / "report.md").read_text()
