"""ShutterBug components: the bundled set matches the known facts; bad files fail on one line."""

import re
from pathlib import Path

import pytest

from snapsim.errors import ComponentError
from snapsim.games.shutterbug import ShutterbugConfig, run_games
from snapsim.games.shutterbug.components import BUNDLED_PATH, load_components


def test_bundled_set_matches_known_facts():
    c = load_components()
    assert len(c.creatures) == 4 and "Pegasus" in c.creatures
    assert len(c.terrains) == 6 and {"beach", "mountain", "forest"} <= set(c.terrains)
    assert len(c.cities) == 6
    assert c.space_index("New Orleans") in c.spaces[c.space_index("Chicago")].adjacent
    assert len(c.tiles) == 48 and {t.quality for t in c.tiles} == {1, 2, 3}
    assert len(c.tips) == 48 and len(c.assignments) == 72
    for a in c.assignments:
        for side in a.sides:
            assert 8 <= sum(m for _, m in side) <= 12  # "about 10 points over 3 creatures"
    assert len(c.side_jobs) == 4
    assert any(j.kind == 0 and j.count == 1 for j in c.side_jobs)  # one of each creature
    # every creature-terrain pair has its wilderness space, so every tip can be used
    pairs = {(s.creature, s.terrain) for s in c.spaces if not s.city}
    assert len(pairs) == 24


def test_text_marks_reconstruction():
    assert "RECONSTRUCTED" in BUNDLED_PATH.read_text()


def edit(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = BUNDLED_PATH.read_text()
    assert old in text
    path = tmp_path / "custom.toml"
    path.write_text(text.replace(old, new, count))
    return path


@pytest.mark.parametrize("old,new,match", [
    ('quality = 1 }', 'quality = 4 }',
     r"tiles\[0\]: quality must be a whole number from 1 to 3, got 4"),
    ('space = "Mountain 1", creature = "Pegasus"', 'space = "Mountain 1", creature = "Bigfoot"',
     "does not match space 'Mountain 1'"),
    ('space = "Mountain 1",', 'space = "Atlantis",', "unknown space 'Atlantis'"),
    ('adjacent = ["Mountain 1", "Beach 1"]', 'adjacent = ["Beach 1"]',
     "is next to 'Seattle' but not the other way round"),
    ('{ name = "Seattle", city = true', '{ name = "Seattle", city = false',
     "city has no terrain"),
    ('kind = "each_creature"', 'kind = "selfie"', "unknown kind 'selfie'"),
    ('["Bigfoot", 5], ["Pegasus", 4], ["Jackalope", 1]]\nportfolio',
     '["Bigfoot", 5], ["Bigfoot", 4], ["Jackalope", 1]]\nportfolio', "creature twice"),
    ('creatures = ["Bigfoot",', 'creatures = ["Yeti", "Bigfoot",', "exactly 4"),
    ('spaces = [', 'spaces = 3\nx = [', "unknown section 'x'; expected assignments, creatures"),
])
def test_bad_file_is_one_line_component_error(tmp_path, old, new, match):
    path = edit(tmp_path, old, new)
    with pytest.raises(ComponentError, match=match) as err:
        load_components(path)
    assert "\n" not in str(err.value) and str(err.value).startswith("custom.toml: ")


def test_disconnected_map_and_missing_file(tmp_path):
    # make Swamp 2 and Swamp 4 an island (adjacency kept symmetric)
    island = {"Swamp 2", "Swamp 4"}
    lines = []
    for line in BUNDLED_PATH.read_text().splitlines():
        m = re.match(r'  \{ name = "([^"]+)".*adjacent = \[(.*)\] \},', line)
        if m:
            adj = [a.strip('" ') for a in m.group(2).split(",")]
            keep = [a for a in adj if (a in island) == (m.group(1) in island)]
            line = line.replace(m.group(2), ", ".join(f'"{a}"' for a in keep))
        lines.append(line)
    path = tmp_path / "cut.toml"
    path.write_text("\n".join(lines))
    with pytest.raises(ComponentError, match="not connected"):
        load_components(path)
    with pytest.raises(ComponentError, match="cannot open"):
        load_components(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("creatures = [")
    with pytest.raises(ComponentError, match="not valid TOML"):
        load_components(tmp_path / "bad.toml")


def test_tile_count_and_custom_set_plays(tmp_path):
    text = BUNDLED_PATH.read_text()
    first = next(line for line in text.splitlines() if line.startswith("  { space = "))
    path = tmp_path / "short.toml"
    path.write_text(text.replace(first + "\n", "", 1))
    with pytest.raises(ComponentError, match="47 tiles"):
        load_components(path)
    # a designer's variant: side jobs worth more; the game runs on it
    path = edit(tmp_path, "count = 1, points = 4", "count = 1, points = 9")
    comp = load_components(path)
    df = run_games(ShutterbugConfig(players=3, components=comp), ["greedy"] * 3, 0, 50, 1)
    assert df.side_job_points.max() >= 9


def test_component_vector_map_tables():
    """The vector's tables the kernels read instead of scanning: each space's printed tiles
    (in tile order) and the spaces 1-3 steps away, as walked on the map."""
    from snapsim.games.shutterbug import engine as E

    c = load_components()
    comp = E.component_vector(c)
    for s in range(len(c.spaces)):
        listed = [int(E.space_tile(comp, i))
                  for i in range(comp[E.K_SPACE_AT + s], comp[E.K_SPACE_AT + s + 1])]
        assert listed == [t for t, tile in enumerate(c.tiles) if tile.space == s]
        reach = {s}
        for d in range(1, E.NEAR_STEPS + 1):
            reach |= {a for x in reach for a in c.spaces[x].adjacent}
            assert int(E.near(comp, s, d)) == sum(1 << x for x in reach)
    chicago, new_orleans = c.space_index("Chicago"), c.space_index("New Orleans")
    assert (E.near(comp, chicago, 1) >> new_orleans) & 1
    assert E.near(comp, chicago, 0) == 1 << chicago
