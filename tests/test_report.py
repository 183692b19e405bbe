"""The Snapshot balance report end to end (--quick), and that it flags a broken assignment."""

import json
import re

import pandas as pd
import pytest

from snapsim.analysis.labels import LABELS
from snapsim.cli import main
from snapsim.games.snapshot.components import BUNDLED_PATH, load_components
from snapsim.games.snapshot.report import STUDIES, build

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    assert main(["report", "snapshot", "--quick", "--out", str(out), "--quiet"]) == 0
    return out


def test_every_section_figure_and_table_is_written(quick_report):
    out = quick_report
    sections = [json.loads(p.read_text()) for p in sorted((out / "sections").glob("*.json"))]
    assert len(sections) == len(STUDIES) == 11
    html = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    n_figures = 0
    for s in sections:
        assert s["title"] in html and s["title"] in md
        assert s["findings"], s["key"]
        for name in s["figures"]:
            data = (out / f"{name}.png").read_bytes()
            assert data.startswith(PNG) and len(data) > 2000
            n_figures += 1
        for name in s["tables"]:
            assert len(pd.read_csv(out / f"{name}.csv")) > 0
    # self-contained: every figure embedded in the HTML, none linked
    assert html.count("data:image/png;base64,") == n_figures
    assert not re.search(r"src='[^d]", html)
    assert "Key findings" in md and "games per configuration: 300, seed: 1" in md
    # the strategy guide beside it, linked from both renderings
    assert "href='strategy.md'" in html and "](strategy.md)" in md
    guide = (out / "strategy.md").read_text()
    assert guide.index("## Rules of thumb") < guide.index("## 1. Where the next token")
    # every caption, under its figure in both renderings, says how the figure was made (the
    # skill ladder plays its own number of games; a fix is confirmed on half the report's)
    for s in sections:
        for name, cap in s["captions"].items():
            n = {"9-ladder": "games per configuration",
                 "10-fixes": "n = 150 games"}.get(s["key"], "n = 300 games")
            for needle in ("CI", "Policies: ", " players", n, "seed 1."):
                assert needle in cap, (name, needle)
            assert f"*{cap}*" in md
            assert f"<figcaption>{cap}</figcaption>".replace("'", "&#x27;") in html
    # tables show each estimate's interval next to it, columns in plain words
    assert "| win rate [95% CI] |" in md
    assert "win rate [95% CI]</th>" in html
    # key findings measured again with the tuned policies, labelled beside both numbers
    strong = pd.concat([pd.read_csv(out / f"{name}.csv") for s in sections
                        for name in s["tables"] if name.startswith("strong_")])
    assert len(strong) >= 10 and set(strong.label) <= set(LABELS)
    assert set(strong.strong_line_up) == {"tuned-2p", "tuned-3p", "tuned-4p", "tuned-5p"}
    assert ("| as measured (measured) [95% CI; Holm-adjusted CI] | measured games | under "
            "strong play") in md
    assert "## Skill ladder" in md and "tuned-4p" in pd.read_csv(
        out / "ladder_ratings.csv").policy.tolist()
    # opens with its glossary, the standard, the summary (luck and skill), key findings
    # each with its design meaning
    top = md.split("## 0", 1)[0] if "## 0" in md else md.split("## Luck and skill\n", 1)[0]
    assert top.index("## Is Snapshot balanced?") < top.index("## How to read this report") \
        < top.index("## Summary") < top.index("## Key findings")
    # the verdict: a line per player count under greedy play and under the strong line-up,
    # each claim in verdict.csv
    verdict = top.split("## Is Snapshot balanced?", 1)[1].split("\n## ", 1)[0]
    lines = [x for x in verdict.splitlines() if x.startswith("- ")]
    assert [x.split(":")[0] for x in lines] == [
        f"- {n} players, {who}" for n in (2, 3, 4, 5)
        for who in ("greedy play", f"strong line-up (tuned-{n}p)")]
    assert all(re.search(r": (BALANCED|NOT BALANCED|NOT SETTLED)", x) for x in lines)
    claims = pd.read_csv(out / "verdict.csv")
    assert set(claims.players) == {2, 3, 4, 5} and set(claims.side) == {"greedy", "strong"}
    assert "Is Snapshot balanced?" in html
    assert "Holm across all" in top and "smallest effects of interest" in top
    assert "Luck and skill, 4 players: tuned-4p wins" in top
    keys = [s for s in sections if s.get("keys")]
    assert len(keys) >= 8 and all(k[1] for s in keys for k in s["keys"])
    assert top.count("*Design meaning:*") == sum(len(s["keys"]) for s in keys)
    assert "Strongest policy: greedy" not in md and "Strongest heuristic (heuristics only)" in md


def test_tables_agree_with_the_raw_data(quick_report):
    out = quick_report
    seats = pd.read_csv(out / "seat_advantage.csv")
    for _, sub in seats.groupby("players"):
        assert sub.win_rate.sum() == pytest.approx(1.0)  # every game has one (shared) winner
        assert (sub.n == 300).all()
    m = pd.read_csv(out / "matchups.csv")
    for r in m.itertuples():
        back = m[(m.policy == r.opponent) & (m.opponent == r.policy)].win_rate.iloc[0]
        assert r.win_rate + back == pytest.approx(1.0)
    cards = pd.read_csv(out / "card_value.csv")
    assert (cards.photos <= cards.attempts).all() and (cards.dice >= cards.attempts).all()
    assert len(cards) == 37
    assign = pd.read_csv(out / "assignments.csv")
    assert assign.n.sum() == 4 * 300 and assign.wins.sum() == pytest.approx(300)
    sched = pd.read_csv(out / "start_token_schedules.csv")
    for r in sched.itertuples():
        rates = [getattr(r, f"seat{k + 1}") for k in range(r.players)]  # not their intervals
        assert sum(rates) == pytest.approx(1.0)


def test_every_flag_rests_on_the_one_standard(quick_report):
    # every class in every table and every label's claims were tested in one family: the
    # adjusted p-values are Holm's over all the claims the sections kept
    out = quick_report
    sections = [json.loads(p.read_text()) for p in sorted((out / "sections").glob("*.json"))]
    raw = {k: p for s in sections for k, p in s["claims"].items()}
    record = json.loads((out / "provenance.json").read_text())
    assert record["standard"] == {"method": "Holm", "claims": len(raw), "alpha": 0.05}
    assert len(raw) > 100
    for name in ("seat_advantage", "assignments", "restricted_play", "matchups"):
        table = pd.read_csv(out / f"{name}.csv")
        assert set(table["class"].dropna()) <= {"meaningful", "negligible", "unresolved"}
        assert "significant" not in table and (table.p_adjusted >= table.p_value - 1e-12).all()


def test_tables_are_never_cut_silently_and_numbers_read_plainly(quick_report):
    out = quick_report
    md, html = (out / "report.md").read_text(), (out / "index.html").read_text()
    pairwise = pd.read_csv(out / "ladder_pairwise.csv")
    assert len(pairwise) > 40
    assert f"{len(pairwise) - 40} more rows in `ladder_pairwise.csv`" in md
    block = html.split("<code>ladder_pairwise.csv</code>", 1)[1].split("</table>", 1)[0]
    assert block.count("<tr") == len(pairwise) + 1  # the header and every row
    assert not re.search(r"\d\.\d+e\+\d\d", md)  # no count as 1.041e+04
    assert not re.search(r"\| \d\.\d+e-\d\d \|", md)  # p-values below 1e-4: "< 0.0001"
    assert "< 0.0001" in md


def test_a_trivially_easy_assignment_is_flagged(tmp_path):
    text = BUNDLED_PATH.read_text()
    easy = "chart = [0, 40, 80, 120, 160, 200, 240, 280, 320]"
    text = text.replace("chart = [0, 1, 3, 6, 9, 12, 14, 16, 18]", easy, 1)  # The Long Lunch
    path = tmp_path / "unbalanced.toml"
    path.write_text(text)
    comps = load_components(path)
    build(tmp_path / "rep", games=400, seed=2, studies=["awards"], components=comps,
          progress=False)
    table = pd.read_csv(tmp_path / "rep" / "assignments.csv").set_index("assignment_name")
    assert table.loc["The Long Lunch", "flagged"]
    assert table.loc["The Long Lunch", "class"] == "meaningful"
    assert table.loc["The Long Lunch", "ci_low"] > 0.27
    findings = json.loads((tmp_path / "rep" / "sections" / "5-awards.json").read_text())
    assert any("The Long Lunch" in f for f in findings["findings"])


def test_bad_report_arguments_exit_2(capsys):
    assert main(["report", "monopoly"]) == 2
    assert main(["report", "snapshot", "--studies", "seats,bogus"]) == 2
    assert main(["report", "snapshot", "--games", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("snapsim: error:") for line in err)


def test_a_report_with_the_ladder_plays_every_study_on_the_ladders_kernels(tmp_path):
    # the studies' line-ups take the kernels of the ladder's field (one compile for all);
    # below AFFORDABLE games the ladder leaves the search out, and so do the kernels
    import numpy as np

    from snapsim.games.snapshot import policies as P
    from snapsim.games.snapshot.api import uses_exact, uses_search
    from snapsim.report.render import Section
    from snapsim.report.studies import AFFORDABLE, build_report

    seen = {}

    def probe(name):
        def study(ctx):
            seen[name] = (uses_search(np.array([P.GREEDY])), uses_exact(np.array([P.GREEDY])))
            return Section(f"1-{name}", 1, name)
        return study

    studies = {"seats": (probe("seats"), 1), "ladder": (probe("ladder"), 1)}
    for games, chosen, flags in ((AFFORDABLE, None, (True, True)),
                                 (AFFORDABLE - 1, None, (None, True)),
                                 (AFFORDABLE, ["seats"], (None, None))):
        seen.clear()
        build_report("snapshot", "probe", studies, tmp_path / f"{games}-{chosen}", games, 1,
                     chosen=chosen, progress=False, strong=None)
        assert seen == {n: flags for n in chosen or studies}
    assert uses_search(np.array([P.GREEDY])) is None  # and none once the report is done


def test_the_report_commands_help_says_from_how_many_games_the_ladder_seats_search(capsys):
    # the CLI names the threshold without importing the report layer: the two must agree
    from snapsim.report.studies import AFFORDABLE

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"search sits out below {AFFORDABLE:,} games per configuration" in text
