"""Pig's components: the die (its face values and the value that busts), validated.

A designer's own die is a TOML file like data/standard.toml; every problem with a file is one
ComponentError line naming the file, the entry and the problem."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from snapsim.sim.config import load_cached
from snapsim.sim.toml_loader import TomlLoader

BUNDLED_PATH = Path(__file__).resolve().parent / "data" / "standard.toml"
MAX_FACES = 20  # the engine's component vector holds at most this many faces
MAX_FACE = 100  # a face's largest value

_DIE_KEYS = {"faces", "bust", "source"}


@dataclass(frozen=True)
class Components:
    """The die: each face's value and the value that loses the turn's total."""

    faces: tuple[int, ...]
    bust: int
    path: str


def load_components(path: str | os.PathLike[str] | None = None,
                    data: dict | None = None) -> Components:
    """Load and validate a component file (None: the bundled die), cached per file version;
    with `data`, the tables of a file already read (a variant built in memory)."""
    return load_cached(path, BUNDLED_PATH, _Loader, data)


class _Loader(TomlLoader):
    def load(self) -> Components:
        data = self.read({"die"})
        die = self.section(data, "die", dict)
        self.fields(die, "die", _DIE_KEYS, {"faces", "bust"})
        faces = self.whole_list(die["faces"], "faces", "die", 1, MAX_FACE)
        if not 2 <= len(faces) <= MAX_FACES:
            raise self.fail("die", f"faces must list 2 to {MAX_FACES} values, got {len(faces)}")
        bust = self.whole(die["bust"], "bust", "die", 1, MAX_FACE)
        if bust not in faces:
            raise self.fail("die", f"bust {bust} is no face's value {list(faces)}: the turn "
                                   "would never end by chance")
        if all(f == bust for f in faces):
            raise self.fail("die", "every face busts: no turn could bank a point")
        return Components(faces, bust, str(self.path))
