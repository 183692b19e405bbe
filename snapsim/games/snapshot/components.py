"""Snapshot components: the card, award and assignment data, validated, and as numpy arrays.

The rulebook fixes counts and ranges but not the printed values, so the bundled
``data/standard.toml`` is partly reconstructed (each entry says so in ``source``) and a designer
can load their own file instead. Every problem with a file is reported as one
:class:`ComponentError` line naming the file, the entry and the problem, so a bad file never
reaches the engine.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from snapsim.errors import InputError
from snapsim.sim.config import load_cached
from snapsim.sim.toml_loader import TomlLoader, names

BUNDLED_PATH = Path(__file__).resolve().parent / "data" / "standard.toml"

N_HABITATS = 4
N_AWARD_CATEGORIES = 5  # 0..3: Specialist per habitat (habitat order), 4: Generalist
GENERALIST = 4
RACCOON_HABITAT = -1
# Rulebook, "Animal Card": 36 unique cards, 9 per habitat, difficulties 2-10 once each.
ANIMALS_PER_HABITAT = 9
MIN_DIFFICULTY = 2
MAX_DIFFICULTY = 10
EXPLORE_RANGE = (1, 6)  # a single die must reach the explore value
MAX_SYMBOLS = 63  # card symbols are an int64 bitmask

_TOP_KEYS = {"habitats", "animals", "raccoon", "awards", "assignments", "example"}
_HABITAT_KEYS = {"name", "explore", "source"}
_ANIMAL_KEYS = {"name", "habitat", "difficulty", "prestige", "characteristics", "source"}
_RACCOON_KEYS = _ANIMAL_KEYS - {"habitat"}
_AWARD_KEYS = {"specialist", "generalist", "source"}
_ASSIGNMENT_KEYS = {"name", "cover", "symbols", "chart", "source"}
_EXAMPLE_KEYS = {"portfolio", "assignment", "total", "source"}
_DEFAULT_SOURCE = "custom"


class FrozenMapping(Mapping):
    """A read-only mapping that, unlike MappingProxyType, pickles (configs go to workers)."""

    def __init__(self, data):
        self._data = dict(data)

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def __repr__(self):
        return f"FrozenMapping({self._data!r})"


@dataclass(frozen=True)
class Habitat:
    name: str
    explore: int


@dataclass(frozen=True)
class Animal:
    name: str
    habitat: int  # index into Components.habitats; -1 for the raccoon
    difficulty: int
    prestige: int
    characteristics: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class Assignment:
    name: str
    cover: tuple[str, str]
    symbols: tuple[str, str]
    chart: tuple[int, ...]  # prestige by matching-symbol count; longer counts score the last
    source: str


@dataclass(frozen=True, eq=False)
class ComponentArrays:
    """Plain int64 arrays for the numba kernels; cards 0..35 are the animals, 36 the raccoon."""

    explore: np.ndarray  # [H]
    card_habitat: np.ndarray  # [37], raccoon -1
    card_difficulty: np.ndarray  # [37]
    card_prestige: np.ndarray  # [37]
    card_symbols: np.ndarray  # [37] bitmask over Components.symbols
    awards: np.ndarray  # [5, K], K = max(3, longest stack), padded with 0
    award_counts: np.ndarray  # [5] stack sizes
    assign_cover: np.ndarray  # [A, 2] card indices
    assign_symbols: np.ndarray  # [A] bitmask of the two symbols
    assign_chart: np.ndarray  # [A, C] padded by repeating the last value


@dataclass(frozen=True)
class Components:
    habitats: tuple[Habitat, ...]
    animals: tuple[Animal, ...]
    raccoon: Animal
    specialist: tuple[tuple[int, ...], ...]  # per habitat, 1st place first
    generalist: tuple[int, ...]
    assignments: tuple[Assignment, ...]
    symbols: tuple[str, ...]  # sorted vocabulary; index = bit in the masks
    path: str
    # The rulebook scoring example (read-only); left out of equality and hashing.
    example: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def cards(self) -> tuple[Animal, ...]:
        """All cards in card-index order: the animals, then the raccoon."""
        return (*self.animals, self.raccoon)

    def card_index(self, name: str) -> int:
        """Index of a card by name (case-insensitive): 0..35 animals, 36 the raccoon."""
        names = [card.name for card in self.cards]
        wanted = str(name).strip().casefold()
        for i, card_name in enumerate(names):
            if card_name.casefold() == wanted:
                return i
        close = difflib.get_close_matches(wanted, [n.casefold() for n in names], n=3)
        hint = (
            f"did you mean {', '.join(close)}?" if close else "see the names in the components file"
        )
        raise InputError(f"unknown animal {name!r}; {hint}")

    def habitat_index(self, name: str) -> int:
        """Index of a habitat by name, case-insensitive; a unique prefix ("sav") is enough."""
        wanted = str(name).strip().casefold()
        names = [h.name for h in self.habitats]
        choices = ", ".join(names)
        exact = [i for i, n in enumerate(names) if n.casefold() == wanted]
        if exact:
            return exact[0]
        matches = [i for i, n in enumerate(names) if wanted and n.casefold().startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            found = ", ".join(names[i] for i in matches)
            raise InputError(f"habitat {name!r} is ambiguous (matches {found}); type more letters")
        raise InputError(f"unknown habitat {name!r}; choose one of {choices}")

    def to_arrays(self) -> ComponentArrays:
        """Flatten to int64 arrays; built fresh each call so kernels may not share mutations."""
        cards = self.cards
        bit = {symbol: 1 << i for i, symbol in enumerate(self.symbols)}
        stacks = (*self.specialist, self.generalist)
        width = max(3, *(len(s) for s in stacks))
        awards = np.zeros((N_AWARD_CATEGORIES, width), dtype=np.int64)
        for row, stack in enumerate(stacks):
            awards[row, : len(stack)] = stack
        chart_len = max(len(a.chart) for a in self.assignments)
        charts = np.array(
            [a.chart + (a.chart[-1],) * (chart_len - len(a.chart)) for a in self.assignments],
            dtype=np.int64,
        )
        return ComponentArrays(
            explore=np.array([h.explore for h in self.habitats], dtype=np.int64),
            card_habitat=np.array([c.habitat for c in cards], dtype=np.int64),
            card_difficulty=np.array([c.difficulty for c in cards], dtype=np.int64),
            card_prestige=np.array([c.prestige for c in cards], dtype=np.int64),
            card_symbols=np.array(
                [sum(bit[s] for s in c.characteristics) for c in cards], dtype=np.int64
            ),
            awards=awards,
            award_counts=np.array([len(s) for s in stacks], dtype=np.int64),
            assign_cover=np.array(
                [[self.card_index(n) for n in a.cover] for a in self.assignments], dtype=np.int64
            ),
            assign_symbols=np.array(
                [bit[a.symbols[0]] | bit[a.symbols[1]] for a in self.assignments], dtype=np.int64
            ),
            assign_chart=charts,
        )


def load_components(path: str | os.PathLike[str] | None = None,
                    data: dict | None = None) -> Components:
    """Load and validate a components file (None: the bundled set), cached per file version;
    with `data`, the tables of a file already read (a variant built in memory) named `path`."""
    return load_cached(path, BUNDLED_PATH, _Loader, data)


class _Loader(TomlLoader):
    """Validates one file; each check raises a one-line ComponentError naming the entry."""

    def load(self) -> Components:
        data = self.read(_TOP_KEYS)
        habitats = self.habitats(self.section(data, "habitats", list, "[[habitats]] entries"))
        animals = self.animals(self.section(data, "animals", list, "[[animals]] entries"),
                               habitats)
        raccoon = self.raccoon(self.section(data, "raccoon", dict))
        symbols = tuple(sorted({s for a in (*animals, raccoon) for s in a.characteristics}))
        if len(symbols) > MAX_SYMBOLS:
            raise self.fail(
                "animals", f"{len(symbols)} distinct characteristics; at most {MAX_SYMBOLS} fit"
            )
        specialist, generalist = self.awards(self.section(data, "awards", dict), habitats)
        assignments = self.assignments(
            self.section(data, "assignments", list, "[[assignments]] entries"), animals,
            raccoon, symbols
        )
        example = None
        if "example" in data:
            example = self.example(self.section(data, "example", dict), animals, assignments)
        return Components(
            habitats=habitats,
            animals=animals,
            raccoon=raccoon,
            specialist=specialist,
            generalist=generalist,
            assignments=assignments,
            symbols=symbols,
            path=str(self.path),
            example=example,
        )

    def source(self, raw: dict, entry: str) -> str:
        return self.text(raw.get("source", _DEFAULT_SOURCE), "source", entry)

    def name_of(self, raw: Any, section: str, i: int) -> str:
        """Entry label for messages: the name when there is a usable one, else the position."""
        singular = section.removesuffix("s")
        if isinstance(raw, dict) and isinstance(raw.get("name"), str) and raw["name"].strip():
            return f"{singular} {raw['name'].strip()!r}"
        return f"{section}[{i}]"

    def habitats(self, raws: list) -> tuple[Habitat, ...]:
        if len(raws) != N_HABITATS:
            raise self.fail(
                "habitats", f"{len(raws)} entries; the rulebook has exactly {N_HABITATS}"
            )
        out: list[Habitat] = []
        for i, raw in enumerate(raws):
            entry = self.name_of(raw, "habitats", i)
            self.fields(raw, entry, _HABITAT_KEYS, {"name", "explore"})
            name = self.text(raw["name"], "name", entry)
            explore = self.whole(raw["explore"], "explore", entry, *EXPLORE_RANGE)
            if any(h.name.casefold() == name.casefold() for h in out):
                raise self.fail(entry, "name is used by another habitat")
            self.source(raw, entry)
            out.append(Habitat(name, explore))
        return tuple(out)

    def card(self, raw: dict, entry: str, habitat: int, lowest: int) -> Animal:
        """A card's fields; its difficulty is lowest..MAX_DIFFICULTY."""
        name = self.text(raw["name"], "name", entry)
        difficulty = self.whole(raw["difficulty"], "difficulty", entry, lowest, MAX_DIFFICULTY)
        prestige = self.whole(raw["prestige"], "prestige", entry)
        chars = raw["characteristics"]
        if not isinstance(chars, list) or not chars:
            raise self.fail(entry, "characteristics must be a non-empty list of symbols")
        symbols = tuple(self.text(c, "characteristic", entry) for c in chars)
        duplicated = sorted({s for s in symbols if symbols.count(s) > 1})
        if duplicated:
            raise self.fail(entry, f"characteristic {duplicated[0]!r} is listed twice")
        return Animal(name, habitat, difficulty, prestige, symbols, self.source(raw, entry))

    def animals(self, raws: list, habitats: tuple[Habitat, ...]) -> tuple[Animal, ...]:
        by_name = {h.name: i for i, h in enumerate(habitats)}
        out: list[Animal] = []
        seen: dict[str, Animal] = {}
        for i, raw in enumerate(raws):
            entry = self.name_of(raw, "animals", i)
            self.fields(raw, entry, _ANIMAL_KEYS, _ANIMAL_KEYS - {"source"})
            habitat_name = self.text(raw["habitat"], "habitat", entry)
            if habitat_name not in by_name:
                raise self.fail(
                    entry, f"unknown habitat {habitat_name!r}; expected {names(by_name)}"
                )
            animal = self.card(raw, entry, by_name[habitat_name], MIN_DIFFICULTY)
            key = animal.name.casefold()
            if key in seen:
                raise self.fail(entry, "name is used by another animal; names must be unique")
            seen[key] = animal
            out.append(animal)
        for h, habitat in enumerate(habitats):
            members = [a for a in out if a.habitat == h]
            by_difficulty: dict[int, Animal] = {}
            for animal in members:
                other = by_difficulty.setdefault(animal.difficulty, animal)
                if other is not animal:
                    raise self.fail(
                        f"animal {animal.name!r}",
                        f"difficulty {animal.difficulty} repeats {other.name!r} in "
                        f"{habitat.name}; each habitat has difficulties "
                        f"{MIN_DIFFICULTY}-{MAX_DIFFICULTY} once each",
                    )
            if len(members) != ANIMALS_PER_HABITAT:
                raise self.fail(
                    f"habitat {habitat.name!r}",
                    f"has {len(members)} animals; the rulebook has {ANIMALS_PER_HABITAT} "
                    f"(difficulties {MIN_DIFFICULTY}-{MAX_DIFFICULTY} once each)",
                )
        return tuple(out)

    def raccoon(self, raw: dict) -> Animal:
        self.fields(raw, "raccoon", _RACCOON_KEYS, _RACCOON_KEYS - {"source"})
        return self.card(raw, "raccoon", RACCOON_HABITAT, 1)

    def stack(self, value: Any, entry: str) -> tuple[int, ...]:
        stack = self.whole_list(value, "stack", entry)
        for a, b in zip(stack, stack[1:], strict=False):
            if b >= a:
                raise self.fail(
                    entry, f"stack {list(stack)} must be strictly descending (1st place first)"
                )
        return stack

    def awards(
        self, raw: dict, habitats: tuple[Habitat, ...]
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        self.fields(raw, "awards", _AWARD_KEYS, {"specialist", "generalist"})
        self.source(raw, "awards")
        specialist = raw["specialist"]
        if not isinstance(specialist, dict):
            raise self.fail("awards.specialist", "must be a table of habitat = [1st, 2nd, 3rd]")
        order = [h.name for h in habitats]
        unknown = sorted(set(specialist) - set(order))
        if unknown:
            raise self.fail(
                f"awards.specialist.{unknown[0]}", f"unknown habitat; expected {names(order)}"
            )
        missing = [n for n in order if n not in specialist]
        if missing:
            raise self.fail("awards.specialist", f"missing a stack for {missing[0]}")
        stacks = tuple(self.stack(specialist[n], f"awards.specialist.{n}") for n in order)
        return stacks, self.stack(raw["generalist"], "awards.generalist")

    def assignments(
        self,
        raws: list,
        animals: tuple[Animal, ...],
        raccoon: Animal,
        symbols: tuple[str, ...],
    ) -> tuple[Assignment, ...]:
        if not raws:
            raise self.fail("assignments", "needs at least one [[assignments]] entry")
        animal_names = {a.name for a in animals}
        out: list[Assignment] = []
        for i, raw in enumerate(raws):
            entry = self.name_of(raw, "assignments", i)
            self.fields(raw, entry, _ASSIGNMENT_KEYS, _ASSIGNMENT_KEYS - {"source"})
            name = self.text(raw["name"], "name", entry)
            if any(a.name.casefold() == name.casefold() for a in out):
                raise self.fail(entry, "name is used by another assignment")
            cover = self.pair(raw["cover"], "cover", entry)
            for animal in cover:
                if animal.casefold() == raccoon.name.casefold():
                    raise self.fail(entry, f"cover animal {animal!r} is the raccoon; not allowed")
                if animal not in animal_names:
                    raise self.fail(entry, f"cover animal {animal!r} is not an animal card")
            pair = self.pair(raw["symbols"], "symbols", entry)
            for symbol in pair:
                if symbol not in symbols:
                    raise self.fail(entry, f"symbol {symbol!r} is on no card")
            chart = self.whole_list(raw["chart"], "chart", entry)
            if chart[0] != 0:
                raise self.fail(entry, f"chart must start at 0 (0 matches), not {chart[0]}")
            if any(b < a for a, b in zip(chart, chart[1:], strict=False)):
                raise self.fail(entry, f"chart {list(chart)} must not decrease")
            out.append(Assignment(name, cover, pair, chart, self.source(raw, entry)))
        return tuple(out)

    def pair(self, value: Any, what: str, entry: str) -> tuple[str, str]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(entry, f"{what} must be a list of two names")
        first, second = (self.text(v, what, entry) for v in value)
        if first == second:
            raise self.fail(entry, f"{what} lists {first!r} twice; give two different ones")
        return first, second

    def example(
        self, raw: dict, animals: tuple[Animal, ...], assignments: tuple[Assignment, ...]
    ) -> Mapping[str, Any]:
        self.fields(raw, "example", _EXAMPLE_KEYS, {"portfolio", "assignment", "total"})
        portfolio = raw["portfolio"]
        if not isinstance(portfolio, list) or not portfolio:
            raise self.fail("example", "portfolio must be a non-empty list of animal names")
        cards = {a.name for a in animals}
        for name in portfolio:
            if not isinstance(name, str) or name not in cards:
                raise self.fail("example", f"portfolio animal {name!r} is not an animal card")
        if len(set(portfolio)) != len(portfolio):
            raise self.fail("example", "portfolio lists an animal twice")
        assignment = self.text(raw["assignment"], "assignment", "example")
        if assignment not in {a.name for a in assignments}:
            raise self.fail("example", f"assignment {assignment!r} is not an assignment")
        return FrozenMapping(
            {
                "portfolio": tuple(portfolio),
                "assignment": assignment,
                "total": self.whole(raw["total"], "total", "example", 0, None),
                "source": self.source(raw, "example"),
            }
        )

