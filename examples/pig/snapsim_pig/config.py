"""PigConfig: the die and every rule knob a designer sweeps."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from snapsim.errors import InputError
from snapsim.sim.checks import whole
from snapsim.sim.config import RuleKnobs

from . import engine as E
from .components import Components, load_components

MAX_GOAL = 1000


@dataclass(frozen=True)
class PigConfig(RuleKnobs):
    """One Pig rule set; the defaults are the classic game's."""

    GAME = "Pig"  # in messages (a plain class attribute, not a field)

    players: int = 2
    goal: int = 100  # the first to bank this many points wins
    start_points: int | tuple[int, ...] = 0  # one for every seat, or one per seat: a handicap
    max_turns: int = 2000  # safety cap on turns; a capped game is flagged `truncated`
    components: Components = field(default_factory=load_components, compare=True)

    def __post_init__(self):
        self._load_components(load_components)
        whole(self.players, "players", 2, E.MAX_PLAYERS)
        whole(self.goal, "goal", 1, MAX_GOAL)
        whole(self.max_turns, "max_turns", 1, 100_000)
        start = self.start_points
        if isinstance(start, tuple | list):
            if len(start) != self.players:
                raise InputError(f"start_points takes one number for every seat or one per "
                                 f"seat ({self.players}), got {start!r}")
            start = tuple(whole(s, "each of start_points", 0, self.goal - 1) for s in start)
            object.__setattr__(self, "start_points", start)
        else:
            whole(start, "start_points", 0, self.goal - 1)

    @classmethod
    def from_knobs(cls, **knobs):
        if knobs.get("players") is None:  # no count given: the default two players
            knobs.pop("players", None)
        return super().from_knobs(**knobs)

    @property
    def points_by_seat(self) -> tuple[int, ...]:
        """Each seat's starting points, in turn order."""
        start = self.start_points
        return tuple(start) if isinstance(start, tuple) else (start,) * self.players

    def to_array(self) -> np.ndarray:
        cfg = np.zeros(E.CFG_SIZE, np.int64)
        cfg[E.C_PLAYERS], cfg[E.C_GOAL], cfg[E.C_MAX_TURNS] = \
            self.players, self.goal, self.max_turns
        cfg[E.C_START:E.C_START + self.players] = self.points_by_seat
        return cfg

    def comp_vector(self) -> np.ndarray:
        """The die as the kernels read it: faces, the bust value, each face's value."""
        faces = self.components.faces
        return np.array([len(faces), self.components.bust, *faces], np.int64)
