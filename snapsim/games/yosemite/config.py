"""YosemiteConfig: the component set and every rule knob a designer sweeps (two players)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...sim.checks import flag, whole
from ...sim.config import RuleKnobs
from . import engine as E
from .components import Components, component_arrays, load_components

# With at most 12 tiles in each hand the deck and discards can always refill the park
# (45 tiles - 20 animals in a park holding all 5 landmarks - 12 - 13 = 0 < 1 is never reached).
MAX_HAND_LIMIT = 12


@dataclass(frozen=True)
class YosemiteConfig(RuleKnobs):
    """One Yosemite rule set. Defaults are the rulebook's."""

    GAME = "Yosemite"  # in messages (a plain class attribute, not a field)

    players: int = 2
    tiles_dealt: int = 3  # set-up step 2 (some printings: 5)
    photos_removed: int = 10  # set-up step 7
    judges: int = 2  # judges in play (set-up steps 9-10: 5 minus 3 removed)
    hand_limit: int = 10  # reset: discard down to this
    start_fish: int | tuple[int, int] = 2  # set-up step 12; (first, second player): a handicap
    photo_slots: int = 2  # face-up photos (set-up step 8)
    wilds: bool = True  # camera: two of a kind stand in for any animal
    max_turns: int = 400  # safety cap; a capped game is flagged `truncated`
    components: Components = field(default_factory=load_components, compare=True)

    def __post_init__(self):
        self._load_components(load_components)
        if self.players != 2:
            raise InputError(f"Yosemite is a two-player game; players must be 2, "
                             f"got {self.players!r}")
        whole(self.hand_limit, "hand_limit", 1, MAX_HAND_LIMIT)
        whole(self.tiles_dealt, "tiles_dealt", 0, self.hand_limit)
        whole(self.photo_slots, "photo_slots", 1, E.MAX_SLOTS)
        whole(self.photos_removed, "photos_removed", 0, E.N_PHOTOS - self.photo_slots)
        whole(self.judges, "judges", 0, E.N_ANIMALS)
        fish = self.start_fish
        if isinstance(fish, tuple | list):
            if len(fish) != 2:
                raise InputError(f"start_fish takes one number for both players or two (the "
                                 f"first player's, the second's), got {fish!r}")
            fish = tuple(whole(f, "each of start_fish", 0, self.components.max_fish)
                         for f in fish)
            object.__setattr__(self, "start_fish", fish)
        else:
            whole(fish, "start_fish", 0, self.components.max_fish)
        whole(self.max_turns, "max_turns", 1, 100_000)
        flag(self.wilds, "wilds")

    @classmethod
    def from_knobs(cls, **knobs):
        if knobs.get("players") is None:  # two players only: a missing count is the default
            knobs.pop("players", None)
        return super().from_knobs(**knobs)

    @property
    def fish_by_turn_order(self) -> tuple[int, int]:
        """Starting fish of the first and of the second player."""
        fish = self.start_fish
        return fish if isinstance(fish, tuple) else (fish, fish)

    def to_array(self) -> np.ndarray:
        cfg = np.zeros(E.CFG_SIZE, np.int64)
        cfg[E.C_DEALT] = self.tiles_dealt
        cfg[E.C_PHOTOS_REMOVED] = self.photos_removed
        cfg[E.C_JUDGES] = self.judges
        cfg[E.C_HAND_LIMIT] = self.hand_limit
        cfg[E.C_START_FISH], cfg[E.C_START_FISH_SECOND] = self.fish_by_turn_order
        cfg[E.C_SLOTS] = self.photo_slots
        cfg[E.C_MAX_TURNS] = self.max_turns
        cfg[E.C_WILDS] = self.wilds
        return cfg

    def comp_vector(self) -> np.ndarray:
        """The component set as the flat int64 vector the kernels read."""
        return E.component_vector(component_arrays(self.components))
