"""Yosemite component data: the bundled set keeps the rulebook's facts and the loader rejects
bad files with one clear line naming the file, the entry and the problem."""

import tomllib
from collections import Counter

import pytest

from snapsim.errors import ComponentError
from snapsim.games.yosemite import YosemiteConfig, load_components
from snapsim.games.yosemite.components import ANIMALS, BUNDLED_PATH, N_TILES

TEXT = BUNDLED_PATH.read_text(encoding="utf-8")


def test_bundled_set_keeps_the_rulebook_counts():
    comp = load_components()
    assert len(comp.tiles) == N_TILES == 45
    assert Counter(t.animal for t in comp.tiles) == {a: 9 for a in range(5)}
    assert len(comp.landmarks) == 5 and len(comp.photos) == 20
    assert Counter(p.landmark for p in comp.photos) == {lm: 4 for lm in range(5)}
    assert comp.landmark_chart == (0, 2, 5, 9, 14) and comp.max_fish == 5
    assert comp.judge_points == (4,) * 5 and comp.tent_tokens == 10
    el_cap = comp.photos[comp.photo_index("El Capitan")]
    assert Counter(ANIMALS[a] for a in el_cap.animals) == {"rattlesnake": 2, "black bear": 1,
                                                           "red fox": 1}
    assert el_cap.points == 4
    data = tomllib.loads(TEXT)
    assert {p.get("source") for p in data["photos"]} <= {"public", "reconstructed"}


@pytest.mark.parametrize("old,new,needle", [
    ("camera = 3\nsource", "camera = 4\nsource", "46 animal tiles"),
    ('points = 4\nsource = "public"', 'points = "four"\nsource = "public"', "El Capitan"),
    ('landmark = "Hetch Hetchy"\nanimals = ["rattlesnake", "cougar"]',
     'landmark = "Half Dome"\nanimals = ["rattlesnake", "cougar"]', "Half Dome"),
    ('animals = ["black bear", "cougar"]', 'animals = ["black bear", "wolf"]', "wolf"),
    ("landmark_chart = [0, 2, 5, 9, 14]", "landmark_chart = [0, 5, 2]", "landmark_chart"),
    ("max_fish = 5", "max_fish = 0", "max_fish"),
    ('[[judges]]\nanimal = "cougar"', '[[judges]]\nanimal = "red fox"', "two judges"),
    ("[scoring]", "[scorin]", "scorin"),
    ("tent_tokens = 10", "tent_tokens = 10\ncolour = 1", "colour"),
    ('name = "Hetch Hetchy"', 'name = "Mariposa Grove"', "Mariposa Grove"),
    ("total = 34", "total = [", "not valid TOML"),
])
def test_bad_files_fail_with_one_line(tmp_path, old, new, needle):
    assert old in TEXT
    path = tmp_path / "mine.toml"
    path.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_components(path)
    msg = str(info.value)
    assert msg.startswith("mine.toml: ") and "\n" not in msg and needle in msg


def test_missing_file_names_the_path():
    with pytest.raises(ComponentError, match="nope.toml"):
        load_components("/no/where/nope.toml")


def test_custom_file_drives_the_game(tmp_path):
    path = tmp_path / "cheap.toml"
    path.write_text(TEXT.replace("points = 4", "points = 9"), encoding="utf-8")
    config = YosemiteConfig(components=load_components(path))
    assert config.comp_vector().tolist() != YosemiteConfig().comp_vector().tolist()
    assert config != YosemiteConfig()
