"""Planted imbalances: the acceptance suite of rebalancing.

Each plant makes one known change to a game's standard components or rules (a seat's
starting resource skewed, a card's prestige raised, an assignment's chart made steeper, a
knob moved), with targets the standard game meets and an edit space that can undo the
change. Rebalancing passes a plant when its verified patch meets every target under greedy
play and changes no more values than the plant did, plus one. `benchmarks/rebalance.py`
runs them all at full size and prints the pass rate per game; the tests run a few small.

The tolerances are the standard game's values (measured on 40,000 games, seed 11) with a
margin, so the standard meets them and each plant misses at least one clearly:
Snapshot 4 players: seat spread 8.1 pp, first player 4.1 pp from fair, assignments 7.2 pp,
card values 0.95 points, 4.29 rounds; 3 players: seat spread 6.6 pp. Yosemite: first player
6.4 pp, 37.5 turns. ShutterBug: seat spread 2.7 pp (4 players), 1.9 (3), 2.0 (5).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...sim.variants import Knobs, file_tables, load_variant, parse_knobs, variant_text
from .edits import candidate, edit_space


@dataclass(frozen=True)
class Plant:
    """One planted imbalance: `changes` (variable key -> value) over the edit space
    `plant_edits`, the `targets` the standard game meets and the `edits` rebalancing may use
    to undo it, at `players`."""

    game: str
    name: str
    players: tuple[int, ...]
    plant_edits: tuple[str, ...]
    changes: tuple[tuple[str, object], ...]
    targets: tuple[str, ...]
    edits: tuple[str, ...]

    @property
    def size(self) -> int:
        """Printed values the plant changed."""
        return len(self.changes)

    def write(self, folder) -> Path:
        """The planted game as a variant file in `folder` (named after the plant)."""
        base = load_variant(self.game)
        space = edit_space(self.game, base, dict(file_tables(base.path)), self.plant_edits,
                           self.players)
        cand = candidate(dict(self.changes))
        changes = [(space.vars[k].path, v, f"planted: was {space.vars[k].base}")
                   for k, v in cand if not space.vars[k].knob]
        knobs = parse_knobs(self.game, space.tables_of(cand).get("knobs"), "plant")
        path = Path(folder) / f"{self.game}-{_slug(self.name)}.toml"
        path.write_text(variant_text(base.path, changes, knobs or Knobs(),
                                     [f"planted imbalance: {self.name}"]))
        return path

    def passed(self, result) -> bool:
        """The verified patch meets every target with at most size + 1 changed values."""
        return (result.recommended is not None and result.met
                and len(result.verified[result.recommended].cand) <= self.size + 1)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def _seat(knob: str, players: int, seat: int, value: int) -> tuple[str, int]:
    return (f"{knob} ({players} players) seat {seat}", value)


PLANTS = (
    # Snapshot
    Plant("snapshot", "the last seat starts with 3 more tokens", (4,), ("start_tokens:+3",),
          (_seat("start_tokens", 4, 4, 8),), ("seat_spread=10",), ("start_tokens:±3",)),
    Plant("snapshot", "the first seat starts with no tokens", (4,), ("start_tokens:-2",),
          (_seat("start_tokens", 4, 1, 0),), ("first_player=5.5",), ("start_tokens",)),
    Plant("snapshot", "a photo target of 9", (4,), ("knob:photo_target=9",),
          (("knob photo_target", 9),), ("length=3.9-4.7",), ("knob:photo_target=6-10",)),
    Plant("snapshot", "five dice", (4,), ("knob:dice=5",), (("knob dice", 5),),
          ("length=3.9-4.7",), ("knob:dice=4-6",)),
    Plant("snapshot", "the golden eagle is worth 6 more prestige", (4,),
          ("cards[golden eagle].prestige:+6",), (("animals[golden eagle].prestige", 10),),
          ("cards=1.2",), ("cards.prestige:±6",)),
    Plant("snapshot", "Leaf Eaters' chart 3 steeper from 4 symbols", (4,),
          ("assignments[Leaf Eaters].chart:+3",),
          tuple((f"assignments[Leaf Eaters].chart[{i}]", v)
                for i, v in zip(range(4, 9), (11, 14, 16, 18, 20), strict=True)),
          ("assignments=9",), ("assignments.chart:±3",)),
    Plant("snapshot", "the last of three seats starts with 3 more tokens", (3,),
          ("start_tokens:+3",), (_seat("start_tokens", 3, 3, 7),), ("seat_spread=8.5",),
          ("start_tokens:±3",)),
    # Yosemite
    Plant("yosemite", "the second player starts with no fish", (2,), ("start_fish:-2",),
          (_seat("start_fish", 2, 2, 0),), ("first_player=8.5",), ("start_fish:±2",)),
    Plant("yosemite", "the first player starts with 4 fish", (2,), ("start_fish:+2",),
          (_seat("start_fish", 2, 1, 4),), ("first_player=8.5",), ("start_fish:±2",)),
    Plant("yosemite", "one fish moved from the second player to the first", (2,),
          ("start_fish",), (_seat("start_fish", 2, 1, 3), _seat("start_fish", 2, 2, 1)),
          ("first_player=8.5",), ("start_fish:±2",)),
    Plant("yosemite", "14 photos removed", (2,), ("knob:photos_removed=14",),
          (("knob photos_removed", 14),), ("length=33-42", "first_player=8.5"),
          ("knob:photos_removed=6-14",)),
    Plant("yosemite", "6 tiles dealt", (2,), ("knob:tiles_dealt=6",),
          (("knob tiles_dealt", 6),), ("length=33-42",), ("knob:tiles_dealt=1-6",)),
    Plant("yosemite", "3 face-up photos", (2,), ("knob:photo_slots=3",),
          (("knob photo_slots", 3),), ("length=33-42",), ("knob:photo_slots=1-3",)),
    Plant("yosemite", "6 photos removed", (2,), ("knob:photos_removed=6",),
          (("knob photos_removed", 6),), ("length=33-42",), ("knob:photos_removed=6-14",)),
    # ShutterBug
    Plant("shutterbug", "seat 1 dealt 2 more tips", (4,), ("start_tips:+2",),
          (_seat("start_tips", 4, 1, 5),), ("seat_spread=5",), ("start_tips:±3",)),
    Plant("shutterbug", "seat 4 dealt no tips", (4,), ("start_tips:-3",),
          (_seat("start_tips", 4, 4, 0),), ("seat_spread=5",), ("start_tips:±3",)),
    Plant("shutterbug", "seat 2 of three dealt 3 more tips", (3,), ("start_tips:+3",),
          (_seat("start_tips", 3, 2, 6),), ("seat_spread=5",), ("start_tips:±3",)),
    Plant("shutterbug", "seat 2 of two dealt 3 more tips", (2,), ("start_tips:+3",),
          (_seat("start_tips", 2, 2, 6),), ("seat_spread=5",), ("start_tips:±3",)),
    Plant("shutterbug", "seat 3 of five dealt no tips", (5,), ("start_tips:-3",),
          (_seat("start_tips", 5, 3, 0),), ("seat_spread=5",), ("start_tips:±3",)),
    Plant("shutterbug", "Assignment 01 asks for one photo of each creature", (4,),
          ("assignments[Assignment 01].left:-4", "assignments[Assignment 01].right:-4"),
          (("assignments[Assignment 01].left[Pegasus]", 1),
           ("assignments[Assignment 01].left[Jackalope]", 1),
           ("assignments[Assignment 01].right[Bigfoot]", 1),
           ("assignments[Assignment 01].right[Jackalope]", 1),
           ("assignments[Assignment 01].right[Chupacabra]", 1)),
          ("assignments=7.5",),
          ("assignments[Assignment 01].left:±4", "assignments[Assignment 01].right:±4")),
)


def plants(game: str | None = None) -> list[Plant]:
    """The planted suite, or one game's plants."""
    return [p for p in PLANTS if game is None or p.game == game]
