"""The Snapshot report's 5-player results say "base cards only": the rulebook plays five
players only with the Flora Expansion, whose cards snapsim does not have."""

from snapsim.games.snapshot.report import Ctx, study_seats
from snapsim.report import figures as F


def test_seat_section_labels_five_players_base_cards_only():
    ctx = Ctx("snapshot", games=30, seed=1, threads=1)
    s = study_seats(ctx)
    ctx.finish([s])
    five = [f for f in s.findings if f.startswith("5 players")]
    assert five and all(f.startswith("5 players (base cards only)") for f in five)
    others = [f for f in s.findings if f[0] in "234"]
    assert len(others) >= 3 and not any("base cards only" in f for f in others)
    caption = s.captions["seat_advantage"]
    assert "base cards only" in caption and "percentage points" in caption
    for needle in ("Policies: greedy in every seat", "2 players", "n = 30 games", "seed 1"):
        assert needle in caption
    assert "base cards only" in s.text
    seats = s.tables["seat_advantage"]
    assert set(seats[seats.players == 5].cards) == {"base cards only"}
    assert set(seats[seats.players < 5].cards) == {"rulebook"}
    # the difference from the fair share is in percentage points, with its interval
    assert (seats.vs_fair_pp - 100 * (seats.win_rate - seats.fair_share)).abs().max() < 1e-9
    assert (seats.vs_fair_pp_ci_low <= seats.vs_fair_pp).all()
    assert (seats.vs_fair_pp <= seats.vs_fair_pp_ci_high).all()


def test_seat_figure_is_in_pp_and_its_legend_marks_five_players(monkeypatch):
    monkeypatch.setattr(F, "_finish", lambda fig, note: fig)
    ax = study_seats(Ctx("snapshot", games=30, seed=1, threads=1)).figures[
        "seat_advantage"].axes[0]
    assert ax.get_ylabel() == "win rate - 1/players (pp)"
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == \
        "5 players (base cards only)"
    assert len([c for c in ax.containers if getattr(c, "errorbar", None) is not None]) == 4
