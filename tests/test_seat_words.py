"""Seats, turn order and the first player in each game's words (rulebooks: Snapshot and
ShutterBug play in seat order from seat 1; Yosemite set-up step 13 deals the starting player
at random each game, so there a seat is no place in turn order)."""

from snapsim.analysis.rebalance.edits import edit_space
from snapsim.analysis.verdict import dealt_first, seat_words
from snapsim.report.words import glossary
from snapsim.sim.component_files import file_tables
from snapsim.sim.variants import load_variant


def test_only_yosemite_deals_its_first_player():
    assert dealt_first("yosemite")
    assert not dealt_first("snapshot") and not dealt_first("shutterbug")


def test_yosemite_names_the_seat_spread_and_the_first_player_as_two_measures():
    yos, snap = seat_words("yosemite"), seat_words("snapshot")
    assert snap == {"seat_spread": "seat spread",
                    "first_player": "first player's distance from fair",
                    "first_vs": "first player vs fair"}
    assert yos["seat_spread"].startswith("seat spread (between seats, each dealt first")
    for key in ("first_player", "first_vs"):
        assert "the seat the deal made first, game by game" in yos[key]


def test_the_glossary_says_seat_1_plays_first_only_where_it_does(tmp_path):
    from snapsim.report.render import Report, write_report

    (term, meaning), = glossary("win rate, seat 1")
    assert term == "seats" and "in turn order (seat 1 plays first)" in meaning
    (term, meaning), = glossary("win rate, seat 1", dealt_first=True)
    assert term == "seats" and "plays first" not in meaning
    assert "deals its first player at random each game" in meaning
    for game in ("yosemite", "snapshot"):  # each report's glossary in its game's words
        out = tmp_path / game
        out.mkdir()
        write_report(out, Report(game, {}, verdict=("Balanced?", ["seat 1 wins"], ""),
                                 dealt_first=dealt_first(game)))
        md = (out / "report.md").read_text()
        assert ("seat 1 plays first" in md) == (game == "snapshot"), md


def _labels(game, edit, players):
    base = load_variant(game)
    space = edit_space(game, base, dict(file_tables(base.path)), [edit], players)
    return [v.label for v in space.vars.values()]


def test_rebalance_names_yosemite_fish_by_turn_order_and_snapshot_tokens_by_seat():
    assert _labels("yosemite", "start_fish", (2,)) == [
        "2 players: the first player's start_fish", "2 players: the second player's start_fish"]
    assert _labels("snapshot", "start_tokens", (3,)) == [
        f"3 players: seat {k}'s start_tokens" for k in (1, 2, 3)]
