"""Key findings measured again under the strong line-up and labelled (holds, weakens,
strengthens, reverses, appears, vanishes, unresolved, not comparable) next to the finding; the
skill-ladder section; `compare --strong`."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from snapsim.analysis.labels import LABELS
from snapsim.analysis.ladder import default_field
from snapsim.analysis.paired import Ratio, ratio_difference
from snapsim.cli import main
from snapsim.report import Section
from snapsim.report.studies import (
    Effect,
    Runs,
    knob_effect,
    paired_change_se,
    seat_gap,
    strong_policy,
    win_rate,
)


def run(winning_seat, players: int = 4, games: int = 400, share: float = 0.7,
        seed: int = 0) -> pd.DataFrame:
    """A constructed run: `winning_seat(policy)` wins `share` of the games, the other seats
    share the rest in turn."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        winner = None
        if rng.random() < share:
            winner = winning_seat
        else:
            winner = (winning_seat + 1 + g % (players - 1)) % players
        rows += [{"game": g, "seat": k, "won": float(k == winner), "score": float(k == winner)}
                 for k in range(players)]
    return pd.DataFrame(rows)


class Constructed(Runs):
    """A report whose runs are constructed tables: greedy's last seat wins most games; the
    strong policy's last seat wins as often (`strong_seat` 3), or the first does (0)."""

    strong_seat = 0
    strong_share = 0.7

    def sim(self, policies, games=None, **knobs):
        strong = str(policies[0]) != "greedy"
        seat = self.strong_seat if strong else 3
        return run(seat, games=games or self.games,
                   share=self.strong_share if strong else 0.7, seed=1 if strong else 2)


def settle(ctx: Runs, sections) -> None:
    """What build_report does once the studies ran: label, settle the standard, write."""
    ctx.finish(sections)


def labelled_section(strong_seat: int, strong_share: float = 0.7) -> Section:
    ctx = Constructed("snapshot", games=400, seed=1, strong="tuned")
    ctx.strong_seat, ctx.strong_share = strong_seat, strong_share
    s = Section("1-seats", 1, "1. Seat advantage")
    ctx.label(s, "4 players: last seat's win rate minus the first seat's", seat_gap(4), 4)
    settle(ctx, [s])
    return s


def test_a_finding_the_strong_line_up_reverses_is_labelled_reverses():
    s = labelled_section(strong_seat=0)
    table = s.tables["strong_seats"]
    row = table.iloc[0]
    assert row.label == "reverses" and row.strong_line_up == "tuned-4p"
    # last seat minus first seat: greedy's last seat wins 70% + 10% of the rest, its first
    # seat 10% of the rest; under the strong policy the other way round
    assert row.measured > 40 and row.strong < -40 and row.measured_line_up == "greedy"
    assert row.measured_ci_low < row.measured < row.measured_ci_high
    assert row.strong_ci_low < row.strong < row.strong_ci_high
    assert row.measured_games == row.strong_games == 400
    assert (row.class_measured, row.class_strong) == ("meaningful", "meaningful")
    sentence = s.findings[-1]
    assert "REVERSES" in sentence and "tuned-4p" in sentence and "with greedy play and" in sentence
    assert (f"{row.measured:+.1f} pp [{row.measured_ci_low:+.1f}, {row.measured_ci_high:+.1f}]"
            in sentence)


@pytest.mark.parametrize("seat,share,label", [(3, 0.7, "holds"), (3, 0.45, "weakens")])
def test_a_finding_that_holds_or_weakens_is_labelled_so(seat, share, label):
    row = labelled_section(seat, share).tables["strong_seats"].iloc[0]
    assert row.label == label
    assert np.sign(row.measured) == np.sign(row.strong) == 1


def test_an_effect_too_small_for_this_n_is_unresolved_with_the_games_to_settle_it():
    ctx = Constructed("snapshot", games=400, seed=1, strong="tuned")
    ctx.strong_seat = 3
    s = Section("1-seats", 1, "1. Seat advantage")
    # seat 2 minus seat 1: both lose to the last seat, in turn, under either line-up
    ctx.label(s, "seat 2 minus seat 1", lambda side: Effect((
        (1.0, win_rate(df := side.sim(4), df.seat == 1)), (-1.0, win_rate(df, df.seat == 0)))),
        4)
    settle(ctx, [s])
    row = s.tables["strong_seats"].iloc[0]
    assert row.label == "unresolved"
    assert row.games_to_settle > 400 and "games per line-up would settle it" in s.findings[-1]


class Trading(Runs):
    """Constructed runs of a rule knob: the measured line-up trades (and scores one point
    more a game with trading), the strong one never trades, so its two settings play the
    same games."""

    def sim(self, policies, games=None, **knobs):
        strong = str(policies[0]) != "trader"
        df = run(3, games=games or self.games, seed=5)
        df["trades"] = 0 if strong else 2
        df["score"] = df.score + (1.0 if knobs.get("trading") and not strong else 0.0)
        return df


@pytest.mark.parametrize("action,why", [("trades", "never makes the action measured: 0 "
                                                   "trades in 1,600 player-games"),
                                        (None, "plays identical games under both settings")])
def test_a_strong_line_up_that_never_takes_the_action_is_not_comparable(action, why):
    # detected from its games: no trade recorded, or the same games with the rule on or off
    ctx = Trading("shutterbug", games=400, seed=1, strong="tuned")
    s = Section("4-trading", 4, "4. Value of trading")
    ctx.label(s, "trading allowed: change in mean score",
              knob_effect("score", 4, {"trading": True}, {"trading": False}, action=action),
              4, unit="points", base="trader")
    settle(ctx, [s])
    row = s.tables["strong_trading"].iloc[0]
    assert row.label == "not comparable" and why in row.why
    assert row.measured == pytest.approx(1.0) and row.strong == 0.0
    assert row.measured_line_up == "trader" and "NOT COMPARABLE" in s.findings[-1]


def test_paired_change_error_is_the_paired_difference_error_on_the_same_deals():
    rng = np.random.default_rng(3)
    luck = rng.normal(size=500)
    a, b = luck + rng.normal(size=500), luck + 0.3 + rng.normal(size=500)
    ea, eb = Ratio.mean(a), Ratio.mean(b)
    assert paired_change_se(ea.influence(), eb.influence()) == pytest.approx(
        ratio_difference(ea, eb).se, rel=1e-12)
    # fewer strong games: only the shared deals pair, so the error lies between the paired
    # error of the shared games and the independent one
    short = Ratio.mean(b[:200])
    se = paired_change_se(ea.influence(), short.influence())
    independent = np.hypot(np.std(a, ddof=1) / np.sqrt(500), np.std(b[:200], ddof=1) / np.sqrt(200))
    assert ratio_difference(Ratio.mean(a[:200]), short).se < se < independent


def read(out, name: str) -> str:
    return (out / name).read_text()


@pytest.mark.parametrize("game,study,strong,key", [
    ("snapshot", "raccoon", "tuned", "raccoon"),
    ("yosemite", "first", "random", "first_player"),
    ("shutterbug", "team", "tuned", "team"),
])
def test_a_small_report_shows_the_labelled_table_with_both_numbers_and_cis(tmp_path, game,
                                                                          study, strong, key):
    from snapsim.sim import get_game

    out = tmp_path / game
    get_game(game).report(out, games=40, seed=2, studies=[study], progress=False,
                          strong=strong)
    table = pd.read_csv(out / f"strong_{key}.csv")
    assert len(table) >= 1 and set(table.label) <= set(LABELS)
    for side in ("measured", "strong"):
        assert (table[f"{side}_ci_low"] <= table[side]).all()
        assert (table[side] <= table[f"{side}_ci_high"]).all()
    md, html = read(out, "report.md"), read(out, "index.html")
    assert "| as measured (measured) [95% CI; Holm-adjusted CI] |" in md and "| label |" in md
    assert "| under strong play (strong) [95% CI; Holm-adjusted CI] |" in md
    assert "as measured (measured) [95% CI; Holm-adjusted CI]</th>" in html
    for r in table.itertuples():
        assert r.label in md and r.finding in md
        assert "Under strong play (" in md and f"{r.label.upper()}" in html
    players = {"snapshot": 4, "yosemite": 2, "shutterbug": 2}[game]
    line_up = strong_policy(game, players, strong)[0]  # ShutterBug: tuned if bundled
    assert line_up == {"snapshot": "tuned-4p", "yosemite": "random"}.get(game, line_up)
    assert set(table.strong_line_up) == {line_up}
    record = json.loads(read(out, "provenance.json"))
    assert record["strong"] == strong
    assert set(record["strong_play"]["line_up"].values()) == {line_up}
    assert any(p["name"] == line_up for c in record["configurations"] for p in c["policies"])


def test_strong_labels_are_reproducible_by_seed(tmp_path):
    from snapsim.games.shutterbug.report import build

    for k in (1, 2):
        build(tmp_path / str(k), games=30, seed=4, studies=["team"], progress=False)
    assert read(tmp_path / "1", "strong_team.csv") == read(tmp_path / "2", "strong_team.csv")


def test_a_report_without_a_tuned_policy_for_the_count_says_so(tmp_path, monkeypatch):
    from snapsim.games import tuning
    from snapsim.games.yosemite.report import build

    monkeypatch.setattr(tuning, "tuned_names", lambda game: [])  # no tuned Yosemite policy
    build(tmp_path, games=30, seed=1, studies=["first"], progress=False)
    meta = json.loads((tmp_path / "sections" / "1-first-player.json").read_text())
    assert any(f.startswith("Not measured again under strong play: no policy tuned for 2 "
                            "players is bundled")
               for f in meta["findings"])
    assert not (tmp_path / "strong_first_player.csv").exists()


def test_the_skill_ladder_section_renders(tmp_path):
    from snapsim.games.shutterbug.report import build
    from snapsim.report.studies import AFFORDABLE

    build(tmp_path, games=30, seed=1, studies=["ladder"], progress=False, ladder_games=24)
    meta = json.loads((tmp_path / "sections" / "9-ladder.json").read_text())
    assert meta["title"] == "Skill ladder" and len(meta["findings"]) >= 2
    ratings = pd.read_csv(tmp_path / "ladder_ratings.csv")
    # below AFFORDABLE games per configuration the search policy sits out, and the text says so
    assert set(ratings.policy) == set(default_field("shutterbug", 4)) - {"search"} >= {
        "random", "greedy", "trader", "lookahead"}
    assert f"Left out: search (a search policy, played from {AFFORDABLE:,} games" in meta["text"]
    k = len(ratings)
    bounded = ratings[ratings.ci_low.notna()]  # the reference, greedy (0), has no interval
    assert set(ratings.policy) - set(bounded.policy) <= {"greedy"}
    assert (bounded.ci_low <= bounded.rating).all() and (bounded.rating <= bounded.ci_high).all()
    assert ratings.rating.is_monotonic_decreasing
    pairwise = pd.read_csv(tmp_path / "ladder_pairwise.csv")
    assert len(pairwise) == k * (k - 1)
    assert np.allclose(pairwise.ahead + pairwise.set_index(["opponent", "policy"]).loc[
        list(zip(pairwise.policy, pairwise.opponent, strict=True))].ahead.to_numpy(),
        pairwise.meetings)
    for name in meta["figures"]:
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    md = read(tmp_path, "report.md")
    assert "## Skill ladder" in md and "| rating (Bradley-Terry) (rating) [95% CI] |" in md
    assert "| share finishing ahead (share) [95% CI] |" in md
    assert f"Strongest: {ratings.policy[0]}" in md or "Strongest, not distinguishable" in md
    assert json.loads(read(tmp_path, "provenance.json"))["ladder"]["games_per_table"] == 24


def test_compare_strong_labels_every_compared_measure(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", "snapshot", "--variant-set", "photo_target=9", "--players", "3",
                 "--games", "40", "--no-restricted", "--strong", "--quiet",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "under strong play (tuned-3p, restricted play left out):" in text
    table = pd.read_csv(out / "strong_play.csv")
    base = pd.read_csv(out / "comparison.csv")
    assert len(table) == len(base) and set(table.label) <= set(LABELS)
    assert (table.strong_games == 40).all() and set(table.strong_line_up) == {"tuned-3p"}
    merged = table.merge(base, on=["variant", "players", "measure"])
    assert np.allclose(merged.measured, merged["diff"], equal_nan=True)
    record = json.loads(read(out, "provenance.json"))
    assert record["strong"] == {"3": {"policy": "tuned-3p", "games": 40,
                                      "why": "the bundled policy tuned for 3 players"}}
    assert "under strong play (strong) [95% CI; Holm-adjusted CI]" in read(out, "report.md")


@pytest.mark.parametrize("argv,needle", [
    (["report", "snapshot", "--quick", "--strong", "bogus"], "bogus"),
    (["report", "snapshot", "--quick", "--strong-games", "3"], "--strong-games"),
    (["compare", "snapshot", "--variant-set", "photo_target=9", "--strong-games", "50"],
     "--strong-games belongs with --strong"),
    (["compare", "snapshot", "--variant-set", "photo_target=9", "--strong", "bogus"], "bogus"),
])
def test_bad_strong_arguments_are_one_line_and_exit_2(tmp_path, capsys, argv, needle):
    assert main([*argv, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_the_ladder_section_says_its_tables_round_up_to_whole_rounds(tmp_path):
    # 24 games asked of a 4-player table of 4 policies play its 24 seat assignments: 24; a
    # 10-game table plays them once too, so the text must not promise 10
    from snapsim.games.shutterbug.report import build

    build(tmp_path, games=30, seed=1, studies=["ladder"], progress=False, ladder_games=10)
    meta = json.loads((tmp_path / "sections" / "9-ladder.json").read_text())
    record = json.loads(read(tmp_path, "provenance.json"))["ladder"]
    assert "10 games per table" in meta["text"]
    assert "each rounded up to whole rounds of the table's seat assignments" in meta["text"]
    assert record["games"] == 24 * record["tables"]  # every table played 24, not 10
