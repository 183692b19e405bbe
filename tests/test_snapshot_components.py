"""Snapshot component data: the bundled set keeps the rulebook's facts, the loader rejects bad
files with one clear line, and the arrays handed to the kernels agree with the dataclasses."""

import dataclasses
import json
import os
import re
import tomllib
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from snapsim.errors import ComponentError, InputError
from snapsim.games.snapshot.components import (
    BUNDLED_PATH,
    N_AWARD_CATEGORIES,
    Components,
    load_components,
)

HABITAT_NAMES = ["Shoreline", "Savannah", "Mountain", "Rainforest"]
CLASSES = {"mammal", "bird", "reptile", "amphibian", "fish"}
DIETS = {"carnivore", "herbivore", "omnivore"}
LIFESPANS = {"1-10 years", "11-20 years", "21-30 years", "31+ years"}
SOURCES = {"rulebook", "public", "reconstructed"}


@pytest.fixture(scope="module")
def comp() -> Components:
    return load_components()


def bundled_data() -> dict:
    return tomllib.loads(BUNDLED_PATH.read_text(encoding="utf-8"))


def dump_toml(data: dict) -> str:
    """Just enough TOML writing for the bundled layout: scalars, tables, arrays of tables."""

    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | str):
            return json.dumps(v)  # JSON strings are valid TOML basic strings
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"

    def is_table_array(v):
        return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)

    head, body = [], []
    for key, v in data.items():
        if is_table_array(v):
            for item in v:
                body += [f"\n[[{key}]]"] + [f"{k} = {value(x)}" for k, x in item.items()]
        elif isinstance(v, dict):
            body += [f"\n[{key}]"] + [f"{k} = {value(x)}" for k, x in v.items()]
        else:
            head.append(f"{key} = {value(v)}")  # top-level keys must precede any table
    return "\n".join(head + body) + "\n"


def write(tmp_path, data: dict, name: str = "custom.toml"):
    path = tmp_path / name
    path.write_text(dump_toml(data), encoding="utf-8")
    return path


def animal(data: dict, name: str) -> dict:
    return next(a for a in data["animals"] if a["name"] == name)


def by_name(comp: Components, name: str):
    return comp.cards[comp.card_index(name)]


# --- the bundled set -----------------------------------------------------------------------


def test_writer_round_trips_the_bundled_file(tmp_path):
    data = bundled_data()
    assert tomllib.loads(dump_toml(data)) == data
    copy = load_components(write(tmp_path, data))
    assert copy.path.endswith("custom.toml")
    assert dataclasses.replace(copy, path=str(BUNDLED_PATH)) == load_components()
    assert copy.example == load_components().example


def test_bundled_file_loads_and_is_cached(comp):
    assert load_components() is comp
    assert load_components(BUNDLED_PATH) is comp
    assert comp.path == str(BUNDLED_PATH)


def test_sn_set_1_habitats_in_order_with_explore_values(comp):  # clause SN-SET-1
    assert [h.name for h in comp.habitats] == HABITAT_NAMES
    assert [h.explore for h in comp.habitats] == [2, 3, 4, 5]


def test_36_animals_9_per_habitat_difficulties_2_to_10(comp):
    assert len(comp.animals) == 36
    assert len({a.name for a in comp.animals}) == 36
    for h in range(4):
        members = [a for a in comp.animals if a.habitat == h]
        assert len(members) == 9
        assert sorted(a.difficulty for a in members) == list(range(2, 11))


def test_sn_set_2_award_stacks_descending_15_tokens(comp):  # clause SN-SET-2
    stacks = [*comp.specialist, comp.generalist]
    assert len(stacks) == N_AWARD_CATEGORIES
    assert sum(len(s) for s in stacks) == 15
    for stack in stacks:
        assert len(stack) == 3
        assert all(a > b for a, b in zip(stack, stack[1:], strict=False))
    firsts = [s[0] for s in comp.specialist]
    assert firsts == sorted(firsts) and firsts[0] < firsts[-1]  # harder habitat, bigger 1st


def test_rulebook_and_public_animal_facts(comp):
    mountain, savannah = comp.habitat_index("Mountain"), comp.habitat_index("Savannah")
    facts = {
        "golden eagle": (mountain, 8),
        "golden pheasant": (mountain, 7),
        "meerkat": (savannah, 3),
        "white rhino": (savannah, 8),
    }
    for name, (habitat, difficulty) in facts.items():
        card = by_name(comp, name)
        assert (card.habitat, card.difficulty) == (habitat, difficulty), name
    guanaco = by_name(comp, "guanaco")
    assert guanaco.habitat == mountain and guanaco.difficulty < 7
    crocodile = by_name(comp, "nile crocodile")
    assert crocodile.habitat == savannah and "reptile" in crocodile.characteristics
    red_panda = by_name(comp, "red panda")
    assert comp.habitats[red_panda.habitat].name in {"Mountain", "Rainforest"}
    for name in [*facts, "guanaco", "nile crocodile"]:
        assert by_name(comp, name).source == "rulebook"


def test_raccoon(comp):
    raccoon = comp.raccoon
    assert (raccoon.name, raccoon.habitat, raccoon.difficulty) == ("raccoon", -1, 6)
    assert set(raccoon.characteristics) == {"mammal", "omnivore", "1-10 years"}
    assert comp.card_index("raccoon") == 36


def test_characteristics_one_per_family_and_sources_marked(comp):
    for card in comp.cards:
        chars = set(card.characteristics)
        assert len(card.characteristics) == 3, card.name
        assert [len(chars & f) for f in (CLASSES, DIETS, LIFESPANS)] == [1, 1, 1], card.name
        assert card.source in SOURCES
    assert all(a.source in SOURCES for a in comp.assignments)
    assert set(comp.symbols) == CLASSES | DIETS | LIFESPANS
    assert list(comp.symbols) == sorted(comp.symbols)
    assert "reconstructed" in {a.source for a in comp.animals}


def test_harder_animals_are_worth_more(comp):
    for h in range(4):
        members = [a for a in comp.animals if a.habitat == h]
        difficulty = [a.difficulty for a in members]
        prestige = [a.prestige for a in members]
        assert stats.kendalltau(difficulty, prestige).statistic > 0.5
        hard = np.mean([a.prestige for a in members if a.difficulty >= 8])
        easy = np.mean([a.prestige for a in members if a.difficulty <= 4])
        assert hard > easy
        assert all(0 <= p <= 5 for p in prestige)


def test_assignments_are_ten_distinct_cards(comp):
    assert len(comp.assignments) == 10
    assert len({a.name for a in comp.assignments}) == 10
    assert len({frozenset(a.symbols) for a in comp.assignments}) == 10
    covers = [name for a in comp.assignments for name in a.cover]
    assert len(set(covers)) == len(covers)
    for a in comp.assignments:
        assert 8 <= len(a.chart) <= 10 and a.chart[0] == 0
        assert list(a.chart) == sorted(a.chart)
        assert set(a.symbols) <= set(comp.symbols)


def test_sn_sco_6_scoring_example_totals_44(comp):  # clause SN-SCO-6
    example = comp.example
    cards = [by_name(comp, name) for name in example["portfolio"]]
    assignment = next(a for a in comp.assignments if a.name == example["assignment"])

    prestige = [c.prestige for c in cards]
    assert prestige == [2, 2, 5, 2, 3, 3] and sum(prestige) == 17

    per_habitat = Counter(comp.habitats[c.habitat].name for c in cards)
    assert per_habitat == {"Mountain": 3, "Shoreline": 1, "Savannah": 1, "Rainforest": 1}
    awards = sum(
        sum(stack[: per_habitat[h.name] // 3])
        for h, stack in zip(comp.habitats, comp.specialist, strict=True)
    )
    awards += sum(comp.generalist[: min(per_habitat[h.name] for h in comp.habitats)])
    assert awards == comp.generalist[0] + comp.specialist[2][0] == 13

    assert "nile crocodile" in assignment.cover
    assert "nile crocodile" in example["portfolio"]
    cover = 5 if set(assignment.cover) & set(example["portfolio"]) else 0

    matched = Counter(s for c in cards for s in c.characteristics if s in assignment.symbols)
    assert matched == {"21-30 years": 2, "omnivore": 2}
    count = sum(matched.values())
    article = assignment.chart[min(count, len(assignment.chart) - 1)]
    assert article == assignment.chart[4] == 9

    assert sum(prestige) + awards + cover + article == 17 + 13 + 5 + 9 == example["total"] == 44


# --- arrays for the kernels ----------------------------------------------------------------


def test_to_arrays_shapes_dtypes_and_round_trip(comp):
    arr = comp.to_arrays()
    n_assign = len(comp.assignments)
    chart_len = max(len(a.chart) for a in comp.assignments)
    shapes = {
        "explore": (4,),
        "card_habitat": (37,),
        "card_difficulty": (37,),
        "card_prestige": (37,),
        "card_symbols": (37,),
        "awards": (N_AWARD_CATEGORIES, 3),
        "award_counts": (N_AWARD_CATEGORIES,),
        "assign_cover": (n_assign, 2),
        "assign_symbols": (n_assign,),
        "assign_chart": (n_assign, chart_len),
    }
    for name, shape in shapes.items():
        value = getattr(arr, name)
        assert value.shape == shape and value.dtype == np.int64, name

    assert arr.explore.tolist() == [2, 3, 4, 5]
    for i, card in enumerate(comp.cards):
        assert arr.card_habitat[i] == card.habitat
        assert arr.card_difficulty[i] == card.difficulty
        assert arr.card_prestige[i] == card.prestige
        decoded = {s for b, s in enumerate(comp.symbols) if arr.card_symbols[i] >> b & 1}
        assert decoded == set(card.characteristics)
    assert arr.card_habitat[36] == -1
    assert arr.awards.tolist() == [list(s) for s in (*comp.specialist, comp.generalist)]
    assert arr.award_counts.tolist() == [3] * 5
    for j, a in enumerate(comp.assignments):
        assert [comp.cards[k].name for k in arr.assign_cover[j]] == list(a.cover)
        bits = [b for b in range(len(comp.symbols)) if arr.assign_symbols[j] >> b & 1]
        assert {comp.symbols[b] for b in bits} == set(a.symbols)
        row = arr.assign_chart[j].tolist()
        assert row[: len(a.chart)] == list(a.chart)
        assert set(row[len(a.chart) :]) <= {a.chart[-1]}


def test_to_arrays_pads_short_award_stacks_and_charts(tmp_path):
    data = bundled_data()
    data["awards"]["specialist"]["Shoreline"] = [4]
    data["awards"]["generalist"] = [8, 2]
    data["assignments"][0]["chart"] = [0, 5]
    arr = load_components(write(tmp_path, data)).to_arrays()
    assert arr.awards[0].tolist() == [4, 0, 0]
    assert arr.awards[4].tolist() == [8, 2, 0]
    assert arr.award_counts.tolist() == [1, 3, 3, 3, 2]
    assert arr.assign_chart[0].tolist() == [0] + [5] * (arr.assign_chart.shape[1] - 1)


def test_to_arrays_returns_fresh_arrays(comp):
    first = comp.to_arrays()
    first.card_prestige[:] = 99
    assert comp.to_arrays().card_prestige[0] == comp.animals[0].prestige


# --- lookups -------------------------------------------------------------------------------


def test_card_index(comp):
    assert comp.card_index("mudskipper") == 0
    assert comp.card_index("Nile Crocodile") == comp.card_index("nile crocodile")
    assert comp.cards[comp.card_index("golden eagle")].name == "golden eagle"
    with pytest.raises(
        InputError, match=r"unknown animal 'golden egle'; did you mean golden eagle"
    ):
        comp.card_index("golden egle")


@pytest.mark.parametrize(
    ("name", "index"),
    [("Savannah", 1), ("sav", 1), ("MOUNTAIN", 2), ("m", 2), ("r", 3), ("sh", 0), (" Rain ", 3)],
)
def test_habitat_index_prefix(comp, name, index):
    assert comp.habitat_index(name) == index


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("s", r"habitat 's' is ambiguous \(matches Shoreline, Savannah\)"),
        ("desert", r"unknown habitat 'desert'; choose one of Shoreline, Savannah, Mountain"),
        ("", r"unknown habitat ''"),
    ],
)
def test_habitat_index_errors(comp, name, message):
    with pytest.raises(InputError, match=message) as info:
        comp.habitat_index(name)
    assert "\n" not in str(info.value)


# --- validation ----------------------------------------------------------------------------


def _set(path, value):
    """Mutator doing data[k1][k2]... = value; a first key naming an animal selects that card."""

    def mutate(data):
        target = data
        for key in path[:-1]:
            target = animal(data, key) if target is data and key not in data else target[key]
        target[path[-1]] = value

    return mutate


def _drop_animal(name):
    def mutate(data):
        data["animals"].remove(animal(data, name))

    return mutate


BROKEN = {
    "duplicate animal name": (
        _set(["natterjack toad", "name"], "mudskipper"),
        r"animal 'mudskipper': name is used by another animal",
    ),
    "8 animals in a habitat": (
        _drop_animal("pika"),
        r"habitat 'Mountain': has 8 animals; the rulebook has 9",
    ),
    "duplicate difficulty": (
        _set(["alpine salamander", "difficulty"], 2),
        r"animal 'alpine salamander': difficulty 2 repeats 'pika' in Mountain",
    ),
    "difficulty too high": (
        _set(["meerkat", "difficulty"], 11),
        r"animal 'meerkat': difficulty must be a whole number from 2 to 10, got 11",
    ),
    "difficulty too low": (
        _set(["meerkat", "difficulty"], 1),
        r"animal 'meerkat': difficulty must be a whole number from 2 to 10, got 1",
    ),
    "difficulty not an integer": (
        _set(["meerkat", "difficulty"], "3"),
        r"animal 'meerkat': difficulty must be a whole number from 2 to 10, got '3'",
    ),
    "unknown habitat": (
        _set(["meerkat", "habitat"], "Desert"),
        r"animal 'meerkat': unknown habitat 'Desert'; expected Shoreline, Savannah",
    ),
    "negative prestige": (
        _set(["meerkat", "prestige"], -1),
        r"animal 'meerkat': prestige must be a whole number from 0 to 1000, got -1",
    ),
    "repeated characteristic": (
        _set(["meerkat", "characteristics"], ["mammal", "mammal"]),
        r"animal 'meerkat': characteristic 'mammal' is listed twice",
    ),
    "empty characteristics": (
        _set(["meerkat", "characteristics"], []),
        r"animal 'meerkat': characteristics must be a non-empty list",
    ),
    "misspelt field": (
        _set(["meerkat", "difficuly"], 3),
        r"animal 'meerkat': unknown field 'difficuly'",
    ),
    "missing field": (
        lambda d: animal(d, "meerkat").pop("prestige"),
        r"animal 'meerkat': missing field 'prestige'",
    ),
    "three habitats": (
        lambda d: d["habitats"].pop(),
        r"habitats: 3 entries; the rulebook has exactly 4",
    ),
    "explore out of range": (
        _set(["habitats", 3, "explore"], 7),
        r"habitat 'Rainforest': explore must be a whole number from 1 to 6, got 7",
    ),
    "duplicate habitat name": (
        _set(["habitats", 3, "name"], "savannah"),
        r"habitat 'savannah': name is used by another habitat",
    ),
    "raccoon difficulty": (
        _set(["raccoon", "difficulty"], 0),
        r"raccoon: difficulty must be a whole number from 1 to 10, got 0",
    ),
    "missing section": (
        lambda d: d.pop("raccoon"),
        r"file: missing section \[raccoon\]",
    ),
    "unknown top-level key": (
        _set(["tokens"], 45),
        r"file: unknown section 'tokens'; expected animals, assignments",
    ),
    "specialist stack not descending": (
        _set(["awards", "specialist", "Mountain"], [6, 6, 2]),
        r"awards\.specialist\.Mountain: stack \[6, 6, 2\] must be strictly descending",
    ),
    "generalist stack ascending": (
        _set(["awards", "generalist"], [3, 5, 7]),
        r"awards\.generalist: stack \[3, 5, 7\] must be strictly descending",
    ),
    "negative award": (
        _set(["awards", "generalist"], [7, 5, -1]),
        r"awards\.generalist: stack value must be a whole number from 0 to 1000, got -1",
    ),
    "empty award stack": (
        _set(["awards", "generalist"], []),
        r"awards\.generalist: stack must be a non-empty list",
    ),
    "specialist stack missing": (
        lambda d: d["awards"]["specialist"].pop("Rainforest"),
        r"awards\.specialist: missing a stack for Rainforest",
    ),
    "specialist stack for unknown habitat": (
        _set(["awards", "specialist", "Desert"], [3, 2, 1]),
        r"awards\.specialist\.Desert: unknown habitat",
    ),
    "chart decreasing": (
        _set(["assignments", 0, "chart"], [0, 1, 3, 2]),
        r"assignment 'The Long Lunch': chart \[0, 1, 3, 2\] must not decrease",
    ),
    "chart not starting at 0": (
        _set(["assignments", 0, "chart"], [1, 2]),
        r"assignment 'The Long Lunch': chart must start at 0",
    ),
    "cover animal unknown": (
        _set(["assignments", 0, "cover"], ["nile crocodile", "dodo"]),
        r"assignment 'The Long Lunch': cover animal 'dodo' is not an animal card",
    ),
    "cover raccoon": (
        _set(["assignments", 0, "cover"], ["nile crocodile", "raccoon"]),
        r"assignment 'The Long Lunch': cover animal 'raccoon' is the raccoon",
    ),
    "cover animal twice": (
        _set(["assignments", 0, "cover"], ["lion", "lion"]),
        r"assignment 'The Long Lunch': cover lists 'lion' twice",
    ),
    "symbol on no card": (
        _set(["assignments", 0, "symbols"], ["omnivore", "insect"]),
        r"assignment 'The Long Lunch': symbol 'insect' is on no card",
    ),
    "one symbol": (
        _set(["assignments", 0, "symbols"], ["omnivore"]),
        r"assignment 'The Long Lunch': symbols must be a list of two names",
    ),
    "duplicate assignment name": (
        _set(["assignments", 1, "name"], "The Long Lunch"),
        r"assignment 'The Long Lunch': name is used by another assignment",
    ),
    "no assignments": (
        _set(["assignments"], []),
        r"assignments: needs at least one",
    ),
    "example names an unknown animal": (
        _set(["example", "portfolio"], ["meerkat", "dodo"]),
        r"example: portfolio animal 'dodo' is not an animal card",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_file_is_rejected_with_one_line(tmp_path, case):
    mutate, problem = BROKEN[case]
    data = bundled_data()
    mutate(data)
    path = write(tmp_path, data)
    with pytest.raises(ComponentError, match=rf"^custom\.toml: {problem}") as info:
        load_components(path)
    assert "\n" not in str(info.value)


def test_not_toml(tmp_path):
    path = tmp_path / "notes.toml"
    path.write_text("[[animals]]\nname = = 'x'\n", encoding="utf-8")
    with pytest.raises(
        ComponentError, match=r"^notes\.toml: file: not valid TOML \(.*line 2.*\); fix the syntax"
    ) as info:
        load_components(path)
    assert "\n" not in str(info.value)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b"name = '\xe9'\n")
    with pytest.raises(ComponentError, match=r"^latin\.toml: file: is not UTF-8"):
        load_components(path)


def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(
        ComponentError, match=r"^nope\.toml: file: cannot open .*nope\.toml.*check the file"
    ) as info:
        load_components(path)
    assert "\n" not in str(info.value)


def test_directory_is_unreadable(tmp_path):
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    with pytest.raises(ComponentError, match=r"^dir\.toml: file: cannot read"):
        load_components(folder)


def test_errors_are_value_errors(tmp_path):
    with pytest.raises(ValueError):
        load_components(tmp_path / "nope.toml")


def test_custom_file_without_example_or_sources(tmp_path):
    data = bundled_data()
    del data["example"]
    for entry in [*data["animals"], *data["assignments"], *data["habitats"]]:
        entry.pop("source")
    comp = load_components(write(tmp_path, data))
    assert comp.example is None
    assert {a.source for a in comp.animals} == {"custom"}


def test_edited_file_is_reloaded(tmp_path):
    data = bundled_data()
    path = write(tmp_path, data)
    assert load_components(path).animals[0].prestige == 1
    animal(data, "mudskipper")["prestige"] = 3
    path.write_text(dump_toml(data), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert load_components(path).animals[0].prestige == 3


def test_components_are_hashable_and_example_read_only(comp):
    assert hash(comp) == hash(load_components())
    with pytest.raises(TypeError):
        comp.example["total"] = 0
    assert re.fullmatch(r".*standard\.toml", comp.path)
