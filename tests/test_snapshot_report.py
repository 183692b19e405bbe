"""The Snapshot report's 5-player results say "base cards only": the rulebook plays five
players only with the Flora Expansion, whose cards snapsim does not have."""

from snapsim.games.snapshot.report import Ctx, study_seats


def test_seat_section_labels_five_players_base_cards_only():
    s = study_seats(Ctx("snapshot", games=30, seed=1, threads=1))
    five = [f for f in s.findings if f.startswith("5 players")]
    assert five and all(f.startswith("5 players (base cards only):") for f in five)
    others = [f for f in s.findings if f[0] in "234"]
    assert len(others) >= 3 and not any("base cards only" in f for f in others)
    assert "base cards only" in s.captions["seat_advantage"]
    assert "base cards only" in s.text
    seats = s.tables["seat_advantage"]
    assert set(seats[seats.players == 5].cards) == {"base cards only"}
    assert set(seats[seats.players < 5].cards) == {"rulebook"}
