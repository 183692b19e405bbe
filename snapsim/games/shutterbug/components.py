"""ShutterBug components: map, photo tiles, tips, secret assignments and side jobs, validated.

The rulebook prints none of these lists, so the bundled ``data/standard.toml`` is a
reconstruction from the public facts (see its header) and a designer can load their own file
with ``--components``. Every problem is one :class:`ComponentError` line naming the file, the
entry and the problem, so a bad file never reaches the engine.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from snapsim.errors import ComponentError
from snapsim.sim.config import load_cached
from snapsim.sim.toml_loader import TomlLoader

BUNDLED_PATH = Path(__file__).resolve().parent / "data" / "standard.toml"

# Rulebook "Contents" and the known facts: 4 creatures, 6 terrains, 48 tiles, 48 tips,
# qualities 1-3, 6 cities; three creatures per tabloid side.
N_CREATURES = 4
N_TERRAINS = 6
N_TILES = 48
N_TIPS = 48
N_CITIES = 6
QUALITIES = (1, 2, 3)
SIDE_CREATURES = 3
MAX_SPACES = 63  # visited spaces are an int64 bitmask
MAX_DEGREE = 6  # hex map
MAX_JOBS = 8
JOB_KINDS = ("each_creature", "same_creature", "distinct_terrains", "same_terrain",
             "top_quality")

_TOP_KEYS = {"creatures", "terrains", "source", "spaces", "tiles", "tips", "side_jobs",
             "assignments", "example"}


@dataclass(frozen=True)
class Space:
    name: str
    city: bool
    terrain: int  # -1 for a city
    creature: int  # silhouette; -1 for a city
    adjacent: tuple[int, ...]


@dataclass(frozen=True)
class Tile:
    space: int
    creature: int
    terrain: int
    quality: int


@dataclass(frozen=True)
class SideJob:
    name: str
    kind: int  # index into JOB_KINDS
    count: int
    points: int


@dataclass(frozen=True)
class Assignment:
    """Two tabloid sides, each ((creature, minimum), ...) for three creatures."""

    name: str
    sides: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


@dataclass(frozen=True)
class Components:
    creatures: tuple[str, ...]
    terrains: tuple[str, ...]
    spaces: tuple[Space, ...]
    tiles: tuple[Tile, ...]
    tips: tuple[tuple[int, int], ...]  # (creature, terrain)
    side_jobs: tuple[SideJob, ...]
    assignments: tuple[Assignment, ...]
    path: str
    example: tuple | None = None  # (side, portfolio [(creature, quality)], total)

    @property
    def cities(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.spaces) if s.city)

    def space_index(self, name: str) -> int:
        for i, s in enumerate(self.spaces):
            if s.name.casefold() == str(name).strip().casefold():
                return i
        raise ComponentError(f"{Path(self.path).name}: spaces: unknown space {name!r}")


def load_components(path: str | os.PathLike[str] | None = None,
                    data: dict | None = None) -> Components:
    """Load and validate a components file (None: the bundled set), cached per file version;
    with `data`, the tables of a file already read (a variant built in memory) named `path`."""
    return load_cached(path, BUNDLED_PATH, _Loader, data)


class _Loader(TomlLoader):
    """Validates one file; each check raises a one-line ComponentError naming the entry."""

    def tables(self, raws, section: str, keys: set[str]):
        """(entry, table) for each [[section]] entry, whose fields must be exactly `keys`."""
        for i, raw in enumerate(raws):
            entry = f"{section}[{i}]"
            self.fields(raw, entry, keys, keys)
            yield entry, raw

    def names(self, data, key, count):
        items = self.section(data, key)
        if len(items) != count or not all(isinstance(x, str) and x.strip() for x in items):
            raise self.fail(key, f"must list exactly {count} distinct names")
        if len(set(items)) != count:
            raise self.fail(key, "lists a name twice")
        return tuple(items)

    def load(self) -> Components:
        data = self.read(_TOP_KEYS)
        creatures = self.names(data, "creatures", N_CREATURES)
        terrains = self.names(data, "terrains", N_TERRAINS)
        spaces = self.spaces(self.section(data, "spaces"), creatures, terrains)
        tiles = self.tiles(self.section(data, "tiles"), spaces, creatures, terrains)
        tips = self.tips(self.section(data, "tips"), creatures, terrains)
        jobs = self.side_jobs(self.section(data, "side_jobs"))
        assignments = self.assignments(self.section(data, "assignments"), creatures)
        example = self.example(data["example"], creatures) if "example" in data else None
        return Components(creatures, terrains, spaces, tiles, tips, jobs, assignments,
                          str(self.path), example)

    def spaces(self, raws, creatures, terrains) -> tuple[Space, ...]:
        if not 2 <= len(raws) <= MAX_SPACES:
            raise self.fail("spaces", f"{len(raws)} spaces; 2-{MAX_SPACES} fit")
        names = []
        for i, raw in enumerate(raws):
            self.fields(raw, f"spaces[{i}]", {"name", "adjacent", "city", "terrain", "creature"},
                        {"name", "adjacent"})
            if not isinstance(raw["name"], str) or raw["name"] in names:
                raise self.fail(f"spaces[{i}]", "needs a unique name")
            names.append(raw["name"])
        out = []
        for raw in raws:
            entry = f"space {raw['name']!r}"
            city = raw.get("city", False)
            if not isinstance(city, bool):
                raise self.fail(entry, "city must be true or false")
            if city == ("terrain" in raw or "creature" in raw):
                raise self.fail(entry, "a city has no terrain or creature; a wilderness space "
                                "needs both")
            adj = raw["adjacent"]
            if not isinstance(adj, list) or not adj or len(adj) > MAX_DEGREE:
                raise self.fail(entry, f"adjacent must list 1-{MAX_DEGREE} spaces")
            idx = tuple(self.lookup(a, names, "adjacent space", entry) for a in adj)
            if len(set(idx)) != len(idx) or names.index(raw["name"]) in idx:
                raise self.fail(entry, "adjacent repeats a space or names itself")
            ter = -1 if city else self.lookup(raw["terrain"], terrains, "terrain", entry)
            cre = -1 if city else self.lookup(raw["creature"], creatures, "creature", entry)
            out.append(Space(raw["name"], city, ter, cre, idx))
        for i, s in enumerate(out):
            for j in s.adjacent:
                if i not in out[j].adjacent:
                    raise self.fail(f"space {s.name!r}", f"is next to {out[j].name!r} but not "
                                    "the other way round")
        seen, todo = {0}, [0]
        while todo:
            for j in out[todo.pop()].adjacent:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(seen) != len(out):
            lost = next(s.name for i, s in enumerate(out) if i not in seen)
            raise self.fail("spaces", f"the map is not connected ({lost!r} is unreachable)")
        if sum(s.city for s in out) != N_CITIES:
            raise self.fail("spaces", f"{sum(s.city for s in out)} cities; the board has "
                            f"{N_CITIES}")
        return tuple(out)

    def tiles(self, raws, spaces, creatures, terrains) -> tuple[Tile, ...]:
        if len(raws) != N_TILES:
            raise self.fail("tiles", f"{len(raws)} tiles; the game has {N_TILES}")
        names = [s.name for s in spaces]
        out = []
        for entry, raw in self.tables(raws, "tiles", {"space", "creature", "terrain", "quality"}):
            sp = self.lookup(raw["space"], names, "space", entry)
            cre = self.lookup(raw["creature"], creatures, "creature", entry)
            ter = self.lookup(raw["terrain"], terrains, "terrain", entry)
            q = self.whole(raw["quality"], "quality", entry, QUALITIES[0], QUALITIES[-1])
            if spaces[sp].city or (spaces[sp].creature, spaces[sp].terrain) != (cre, ter):
                raise self.fail(entry, f"{raw['creature']} in {raw['terrain']} does not match "
                                f"space {raw['space']!r}")
            out.append(Tile(sp, cre, ter, q))
        return tuple(out)

    def tips(self, raws, creatures, terrains) -> tuple[tuple[int, int], ...]:
        if len(raws) != N_TIPS:
            raise self.fail("tips", f"{len(raws)} tips; the game has {N_TIPS}")
        out = []
        for i, raw in enumerate(raws):
            if not isinstance(raw, list) or len(raw) != 2:
                raise self.fail(f"tips[{i}]", "must be [creature, terrain]")
            out.append((self.lookup(raw[0], creatures, "creature", f"tips[{i}]"),
                        self.lookup(raw[1], terrains, "terrain", f"tips[{i}]")))
        return tuple(out)

    def side_jobs(self, raws) -> tuple[SideJob, ...]:
        if not 1 <= len(raws) <= MAX_JOBS:
            raise self.fail("side_jobs", f"{len(raws)} side jobs; 1-{MAX_JOBS} fit")
        out = []
        for entry, raw in self.tables(raws, "side_jobs", {"name", "kind", "count", "points"}):
            kind = self.lookup(raw["kind"], JOB_KINDS, "kind", entry)
            out.append(SideJob(self.text(raw["name"], "name", entry), kind,
                               self.whole(raw["count"], "count", entry, 1, 48),
                               self.whole(raw["points"], "points", entry)))
        return tuple(out)

    def side(self, raw, creatures, entry):
        if not isinstance(raw, list) or len(raw) != SIDE_CREATURES:
            raise self.fail(entry, f"a side lists {SIDE_CREATURES} [creature, minimum] pairs")
        out = []
        for pair in raw:
            if not isinstance(pair, list) or len(pair) != 2:
                raise self.fail(entry, "a side lists [creature, minimum] pairs")
            c = self.lookup(pair[0], creatures, "creature", entry)
            out.append((c, self.whole(pair[1], "minimum", entry, 1, 30)))
        if len({c for c, _ in out}) != SIDE_CREATURES:
            raise self.fail(entry, "a side names a creature twice")
        return tuple(out)

    def assignments(self, raws, creatures) -> tuple[Assignment, ...]:
        if not raws:
            raise self.fail("assignments", "needs at least one card")
        out = []
        for entry, raw in self.tables(raws, "assignments", {"name", "left", "right"}):
            sides = (self.side(raw["left"], creatures, entry),
                     self.side(raw["right"], creatures, entry))
            out.append(Assignment(self.text(raw["name"], "name", entry), sides))
        return tuple(out)

    def example(self, raw, creatures):
        keys = {"side", "portfolio", "total"}
        self.fields(raw, "example", keys, keys)
        side = self.side(raw["side"], creatures, "example")
        photos = []
        if not isinstance(raw["portfolio"], list):
            raise self.fail("example", "portfolio lists [creature, quality 1-3] pairs")
        for pair in raw["portfolio"]:
            if not isinstance(pair, list) or len(pair) != 2 or pair[1] not in QUALITIES:
                raise self.fail("example", "portfolio lists [creature, quality 1-3] pairs")
            photos.append((self.lookup(pair[0], creatures, "creature", "example"), pair[1]))
        return side, tuple(photos), self.whole(raw["total"], "total", "example", 0, None)
