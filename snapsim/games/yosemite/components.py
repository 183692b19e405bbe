"""Yosemite components: tiles, landmarks, photos, judges and the scoring charts, validated.

The rulebook fixes the counts but prints few card contents, so the bundled
``data/standard.toml`` is partly reconstructed (each entry says so in ``source``) and a designer
can load their own file instead. Every problem with a file is one :class:`ComponentError` line
naming the file, the entry and the problem, so a bad file never reaches the engine.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from snapsim.sim.config import load_cached
from snapsim.sim.toml_loader import TomlLoader

BUNDLED_PATH = Path(__file__).resolve().parent / "data" / "standard.toml"

# Rulebook, "Components" and "Animal Movement": fixed by the rules, not by the data.
ANIMALS = ("red fox", "bighorn sheep", "black bear", "rattlesnake", "cougar")
N_ANIMALS = 5
N_TILES = 45
N_LANDMARKS = 5
N_PHOTOS = 20
PHOTOS_PER_LANDMARK = 4
BONUSES = ("none", "fish", "tent", "camera")  # bonus code = index

_TOP = {"animals", "tiles", "landmarks", "photos", "judges", "scoring", "example"}
_TILE_KEYS = {"animal", "fish", "tent", "camera", "none", "source"}
_LANDMARK_KEYS = {"name", "source"}
_PHOTO_KEYS = {"name", "landmark", "animals", "points", "source"}
_JUDGE_KEYS = {"animal", "points", "source"}
_SCORING_KEYS = {"landmark_chart", "camping_track", "max_fish", "tent_tokens", "source"}
_EXAMPLE_KEYS = {"photos", "camping", "tents", "hand", "judges", "landmarks", "total", "source"}


@dataclass(frozen=True)
class Tile:
    animal: int  # index into ANIMALS
    bonus: int  # index into BONUSES


@dataclass(frozen=True)
class Photo:
    name: str
    landmark: int
    animals: tuple[int, ...]  # animal indices, repeats for two of a kind
    points: int
    source: str


@dataclass(frozen=True)
class Example:
    """The rulebook's scoring example, by names resolved to indices."""

    photos: tuple[int, ...]
    camping: int
    tents: int
    hand: tuple[int, ...]
    judges: tuple[int, ...]
    landmarks: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class Components:
    tiles: tuple[Tile, ...]  # 45 animal tiles; tile 45 + l is landmark l's tile
    landmarks: tuple[str, ...]
    photos: tuple[Photo, ...]
    judge_points: tuple[int, ...]  # judge of each animal, in ANIMALS order
    landmark_chart: tuple[int, ...]  # by matching photos 0, 1, ...
    camping_track: tuple[int, ...]  # points at spaces 1.. on your side
    max_fish: int
    tent_tokens: int
    path: str
    example: Example | None = field(default=None, compare=False)

    def photo_index(self, name: str) -> int:
        names = [p.name.casefold() for p in self.photos]
        return names.index(name.casefold())

    def describe_tile(self, t: int) -> str:
        if t >= N_TILES:
            return f"{self.landmarks[t - N_TILES]} (landmark)"
        tile = self.tiles[t]
        return f"{ANIMALS[tile.animal]} ({BONUSES[tile.bonus]})"


def load_components(path: str | os.PathLike[str] | None = None,
                    data: dict | None = None) -> Components:
    """Load and validate a components file (None: the bundled set), cached per file version;
    with `data`, the tables of a file already read (a variant built in memory) named `path`."""
    return load_cached(path, BUNDLED_PATH, _Loader, data)


class _Loader(TomlLoader):
    """Validates one file; each check raises a one-line ComponentError naming the entry."""

    def load(self) -> Components:
        data = self.read(_TOP)
        for key in sorted(_TOP - {"example"}):
            self.section(data, key, object)
        if data["animals"] != list(ANIMALS):
            raise self.fail("animals", f"must be {list(ANIMALS)} (the five movements of the "
                                       "rulebook, in this order)")
        tiles = self.tiles(self.entries(data, "tiles"))
        landmarks = self.landmarks(self.entries(data, "landmarks"))
        photos = self.photos(self.entries(data, "photos"), landmarks)
        judges = self.judges(self.entries(data, "judges"))
        scoring = data["scoring"]
        self.fields(scoring, "scoring", _SCORING_KEYS, _SCORING_KEYS - {"source"})
        chart = self.whole_list(scoring["landmark_chart"], "landmark_chart", "scoring")
        if chart[0] != 0 or any(b < a for a, b in zip(chart, chart[1:], strict=False)):
            raise self.fail("scoring", f"landmark_chart {list(chart)} must start at 0 and "
                                       "never decrease")
        track = self.whole_list(scoring["camping_track"], "camping_track", "scoring")
        if len(track) > 10:
            raise self.fail("scoring", "camping_track has more than 10 spaces per side")
        max_fish = self.whole(scoring["max_fish"], "max_fish", "scoring", 1, 20)
        tents = self.whole(scoring["tent_tokens"], "tent_tokens", "scoring", 0, 100)
        comp = Components(tiles, landmarks, photos, judges, chart, track, max_fish, tents,
                          str(self.path))
        if "example" in data:
            comp = Components(**{**comp.__dict__,
                                 "example": self.example(data["example"], comp)})
        return comp

    def animal(self, name: Any, entry: str) -> int:
        return self.lookup(name, ANIMALS, "animal", entry)

    def label(self, raw: dict, section: str, i: int, key: str = "name") -> str:
        name = raw.get(key)
        return f"{section} {name!r}" if isinstance(name, str) else f"{section}[{i}]"

    # -- sections
    def tiles(self, raws: list) -> tuple[Tile, ...]:
        out: list[Tile] = []
        seen = set()
        for i, raw in enumerate(raws):
            entry = self.label(raw, "tiles", i, "animal")
            self.fields(raw, entry, _TILE_KEYS, {"animal"})
            a = self.animal(raw["animal"], entry)
            if a in seen:
                raise self.fail(entry, "animal is listed twice")
            seen.add(a)
            for b, bonus in enumerate(BONUSES):
                n = self.whole(raw[bonus], bonus, entry, 0, N_TILES) if bonus in raw else 0
                out.extend([Tile(a, b)] * n)
        if len(out) != N_TILES:
            raise self.fail("tiles", f"{len(out)} animal tiles; the rulebook has {N_TILES}")
        missing = [ANIMALS[a] for a in range(N_ANIMALS) if a not in seen]
        if missing:
            raise self.fail("tiles", f"no tiles for {missing[0]}")
        return tuple(sorted(out, key=lambda t: (t.animal, t.bonus)))

    def landmarks(self, raws: list) -> tuple[str, ...]:
        if len(raws) != N_LANDMARKS:
            raise self.fail("landmarks", f"{len(raws)} entries; the rulebook has {N_LANDMARKS}")
        names: list[str] = []
        for i, raw in enumerate(raws):
            entry = self.label(raw, "landmark", i)
            self.fields(raw, entry, _LANDMARK_KEYS, {"name"})
            name = raw["name"]
            if not isinstance(name, str) or not name.strip() or name in names:
                raise self.fail(entry, "name must be a non-empty string used once")
            names.append(name)
        return tuple(names)

    def photos(self, raws: list, landmarks: tuple[str, ...]) -> tuple[Photo, ...]:
        if len(raws) != N_PHOTOS:
            raise self.fail("photos", f"{len(raws)} entries; the rulebook has {N_PHOTOS}")
        out: list[Photo] = []
        for i, raw in enumerate(raws):
            entry = self.label(raw, "photo", i)
            self.fields(raw, entry, _PHOTO_KEYS, _PHOTO_KEYS - {"source"})
            name = raw["name"]
            if not isinstance(name, str) or not name.strip() or \
                    any(p.name == name for p in out):
                raise self.fail(entry, "name must be a non-empty string used once")
            landmark = self.lookup(raw["landmark"], landmarks, "landmark", entry)
            animals = raw["animals"]
            if not isinstance(animals, list) or not 1 <= len(animals) <= 8:
                raise self.fail(entry, "animals must be a list of 1-8 animal names")
            idx = tuple(self.animal(a, entry) for a in animals)
            points = self.whole(raw["points"], "points", entry, 0, 100)
            out.append(Photo(name, landmark, idx, points,
                             str(raw.get("source", "custom"))))
        for lm, name in enumerate(landmarks):
            k = sum(p.landmark == lm for p in out)
            if k != PHOTOS_PER_LANDMARK:
                raise self.fail(f"landmark {name!r}", f"has {k} photos; the rulebook has "
                                                      f"{PHOTOS_PER_LANDMARK} per landmark")
        return tuple(out)

    def judges(self, raws: list) -> tuple[int, ...]:
        points = [-1] * N_ANIMALS
        for i, raw in enumerate(raws):
            entry = self.label(raw, "judge", i, "animal")
            self.fields(raw, entry, _JUDGE_KEYS, {"animal", "points"})
            a = self.animal(raw["animal"], entry)
            if points[a] >= 0:
                raise self.fail(entry, "animal has two judges")
            points[a] = self.whole(raw["points"], "points", entry, 0, 100)
        if -1 in points:
            raise self.fail("judges", f"no judge for {ANIMALS[points.index(-1)]}; the rulebook "
                                      "has one per animal")
        return tuple(points)

    def example(self, raw: Any, comp: Components) -> Example:
        self.fields(raw, "example", _EXAMPLE_KEYS, _EXAMPLE_KEYS - {"source"})

        def listed(key, known, what):
            if not isinstance(raw[key], list):
                raise self.fail("example", f"{key} must be a list of {what} names")
            return tuple(self.lookup(v, known, what, "example") for v in raw[key])

        return Example(listed("photos", [p.name for p in comp.photos], "photo"),
                       self.whole(raw["camping"], "camping", "example", 0,
                                  len(comp.camping_track)),
                       self.whole(raw["tents"], "tents", "example", 0, comp.tent_tokens),
                       listed("hand", ANIMALS, "animal"), listed("judges", ANIMALS, "animal"),
                       listed("landmarks", comp.landmarks, "landmark"),
                       self.whole(raw["total"], "total", "example", 0, 1000))


def component_arrays(comp: Components) -> dict[str, np.ndarray]:
    """The component set as int64 arrays (engine.component_vector packs them flat)."""
    need = np.zeros((N_PHOTOS, N_ANIMALS), np.int64)
    for i, p in enumerate(comp.photos):
        for a in p.animals:
            need[i, a] += 1
    return {
        "tile_animal": np.array([t.animal for t in comp.tiles], np.int64),
        "tile_bonus": np.array([t.bonus for t in comp.tiles], np.int64),
        "photo_need": need,
        "photo_points": np.array([p.points for p in comp.photos], np.int64),
        "photo_landmark": np.array([p.landmark for p in comp.photos], np.int64),
        "judge_points": np.array(comp.judge_points, np.int64),
        "landmark_chart": np.array(comp.landmark_chart, np.int64),
        "camping_track": np.array(comp.camping_track, np.int64),
        "max_fish": np.int64(comp.max_fish),
        "tent_tokens": np.int64(comp.tent_tokens),
    }
