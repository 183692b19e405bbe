"""A variant file: components and rule knobs in one TOML file, read by every command."""

from __future__ import annotations

import pandas as pd
import pytest

import snapsim
from snapsim.errors import ComponentError, InputError
from snapsim.sim import component_files as C
from snapsim.sim.variants import Knobs, from_tables, load_variant, parse_knobs

GAMES = 40


def variant_file(tmp_path, game: str, knobs: str, name: str = "mine.toml"):
    """The bundled file with `knobs` added: tables at its end, a top-level key at its start."""
    path = tmp_path / name
    bundled = C.export(game)
    text = (knobs.encode() + bundled if not knobs.startswith("[")
            else bundled + b"\n" + knobs.encode())
    path.write_bytes(text)
    return path


def same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    cols = [c for c in a.columns if c in b.columns]
    return a[cols].reset_index(drop=True).equals(b[cols].reset_index(drop=True))


def test_file_knobs_play_the_games_of_the_same_knobs_set_by_hand(tmp_path):
    path = variant_file(tmp_path, "snapshot", "[knobs]\nphoto_target = 8\n")
    by_file = snapsim.simulate("snapshot", players=4, games=GAMES, seed=3, components=path)
    by_hand = snapsim.simulate("snapshot", players=4, games=GAMES, seed=3, photo_target=8)
    plain = snapsim.simulate("snapshot", players=4, games=GAMES, seed=3)
    assert same(by_file, by_hand)
    assert not same(by_file, plain)
    assert by_file.attrs["provenance"]["knobs"] == {"photo_target": 8}


def test_per_player_count_knobs_apply_at_their_count_only(tmp_path):
    path = variant_file(tmp_path, "snapshot",
                        "[knobs.players.4]\nstart_tokens = [3, 3, 3, 3]\n")
    four = snapsim.simulate("snapshot", players=4, games=GAMES, seed=2, components=path)
    assert same(four, snapsim.simulate("snapshot", players=4, games=GAMES, seed=2,
                                       start_tokens=(3, 3, 3, 3)))
    three = snapsim.simulate("snapshot", players=3, games=GAMES, seed=2, components=path)
    assert same(three, snapsim.simulate("snapshot", players=3, games=GAMES, seed=2))


def test_a_knob_given_by_hand_overrides_the_files(tmp_path):
    path = variant_file(tmp_path, "yosemite", "[knobs]\nstart_fish = 4\n")
    over = snapsim.simulate("yosemite", games=GAMES, seed=5, components=path, start_fish=1)
    assert same(over, snapsim.simulate("yosemite", games=GAMES, seed=5, start_fish=1))


@pytest.mark.parametrize("knobs, words", [
    ("[knobs]\nphoto_targe = 8\n", "unknown Snapshot rule knob 'photo_targe'"),
    ("[knobs]\nplayers = 3\n", "[knobs.players.N]"),
    ("[knobs]\nphoto_target = { a = 1 }\n", "must be a number"),
    ("[knobs.players.four]\nphoto_target = 8\n", "N a player count"),
    ("knobs = 3\n", "must be a [knobs] table"),
])
def test_a_bad_knobs_table_is_one_line_naming_the_file(tmp_path, knobs, words):
    path = variant_file(tmp_path, "snapshot", knobs)
    with pytest.raises(ComponentError) as err:
        load_variant("snapshot", path)
    assert words in str(err.value) and "mine.toml" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_knob_value_the_game_refuses_names_the_file_and_count(tmp_path):
    path = variant_file(tmp_path, "snapshot", "[knobs.players.4]\nstart_tokens = [3, 3]\n")
    with pytest.raises(InputError, match=r"mine\.toml: knobs \(4 players\): start_tokens"):
        C.check(path)
    with pytest.raises(InputError, match="start_tokens"):
        snapsim.simulate("snapshot", players=4, games=5, components=path)


def test_components_check_lists_the_knobs_as_differences(tmp_path):
    path = variant_file(tmp_path, "snapshot", "[knobs]\nphoto_target = 8\n\n"
                                              "[knobs.players.4]\nstart_tokens = [3, 3, 3, 3]\n")
    text = C.check(path).summary()
    assert "a valid snapshot variant (components and rule knobs)" in text
    assert "knob photo_target: default → 8" in text
    assert "knob start_tokens (4 players): default → 3-3-3-3" in text
    assert "identical" not in text


def test_compare_plays_a_knob_variant_file_as_the_same_knob_set_by_hand(tmp_path):
    path = variant_file(tmp_path, "snapshot", "[knobs]\nphoto_target = 8\n")
    by_file = snapsim.compare("snapshot", variants=[path], players=4, games=60, seed=1,
                              restricted=False)
    by_hand = snapsim.compare("snapshot", variant_set={"photo_target": 8}, players=4, games=60,
                              seed=1, restricted=False)
    cols = ["measure", "baseline", "variant_value", "diff", "ci_low", "ci_high"]
    assert by_file.table[cols].equals(by_hand.table[cols])
    assert "knob photo_target: default → 8" in by_file.variants[0].changes


def test_a_sweep_plays_its_component_files_knobs(tmp_path):
    from snapsim.sim.sweep import read_sweep

    variant_file(tmp_path, "snapshot", "[knobs]\nphoto_target = 8\n", "eight.toml")
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('game = "snapshot"\ngames = 20\ncomponents = "eight.toml"\n'
                     '[grid]\nplayers = [3, 4]\n')
    points = read_sweep(sweep).points
    assert [knobs["components"].knobs.for_players(3) for _, knobs, _ in points] == \
        [{"photo_target": 8}] * 2


def test_knobs_round_trip_through_their_toml_table():
    knobs = parse_knobs("snapshot", {"photo_target": 8, "players": {"4": {
        "start_tokens": [3, 3, 3, 3]}}}, "x.toml")
    assert knobs == Knobs({"photo_target": 8}, {4: {"start_tokens": (3, 3, 3, 3)}})
    assert parse_knobs("snapshot", knobs.to_toml(), "x.toml") == knobs
    assert knobs.for_players(4) == {"photo_target": 8, "start_tokens": (3, 3, 3, 3)}
    assert knobs.for_players(3) == {"photo_target": 8}


def test_a_variant_built_in_memory_is_validated_as_a_file_is():
    import tomllib

    tables = tomllib.loads(C.export("snapshot").decode())
    tables["animals"][0]["prestige"] = 7
    variant = from_tables("snapshot", tables, "candidate.toml")
    assert variant.components.animals[0].prestige == 7
    tables["animals"][0]["difficulty"] = 3  # repeats the next card's difficulty
    with pytest.raises(ComponentError, match="candidate.toml: animal .*difficulty 3 repeats"):
        from_tables("snapshot", tables, "candidate.toml")
