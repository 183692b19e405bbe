"""SnapshotConfig: player count, component set and every rule knob a designer sweeps."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...odds.dice import photo_table_kernel
from ...sim.checks import flag, whole
from ...sim.config import RuleKnobs
from ...sim.toml_loader import MAX_POINTS
from . import engine as E
from .components import Components, load_components
from .plans import MAX_T, PHOTO_DICE, PHOTO_DIFFICULTY

# Phase 4 Step C: photos that trigger the end, by player count (5 players: the rulebook's 7).
RULEBOOK_TARGET = {2: 9, 3: 8, 4: 7, 5: 7}
# The rulebook plays five only with the Flora Expansion, whose cards snapsim does not have:
# every 5-player result is labelled with this.
FIVE_PLAYER_NOTE = "base cards only"
# Upper bounds of the token knobs and the round cap: far beyond any game, and small enough
# that no token count or score can overflow and no game can run for hours.
MAX_TOKENS = 100
MAX_ROUNDS = 10_000


def players_label(players: int) -> str:
    """"4 players"; five are labelled "5 players (base cards only)"."""
    return f"{players} players" + (f" ({FIVE_PLAYER_NOTE})" if players == 5 else "")
SIMPLER_VARIANTS = {
    1: {"assignments": False, "raccoon": False},
    2: {"tracking_tokens": False},
    3: {"reserving": False},
}


@dataclass(frozen=True)
class SnapshotConfig(RuleKnobs):
    """One Snapshot rule set. Defaults are the rulebook's full game with the raccoon."""

    GAME = "Snapshot"  # in messages (a plain class attribute, not a field)

    players: int = 4
    photo_target: int | None = None  # None: the rulebook's target for the player count
    dice: int = 6
    reroll_cost: int = 2
    experience_tokens: int = 3
    reserve_limit: int = 2
    start_tokens: tuple[int, ...] | None = None  # None: 2, 3, 4, ... by seat
    setup_cards: int = 3
    offers: bool = True
    raccoon: bool = True
    assignments: bool = True
    tracking_tokens: bool = True
    reserving: bool = True
    place_tokens: int = 1
    offer_price: int = 1
    cover_points: int = 5
    max_rounds: int = 60  # safety cap; a capped game is flagged `truncated`
    components: Components = field(default_factory=load_components, compare=True)

    def __post_init__(self):
        self._load_components(load_components)
        for name, lo, hi in (("players", 2, E.MAX_PLAYERS), ("dice", 1, 6),
                             ("reroll_cost", 1, MAX_TOKENS), ("experience_tokens", 0, MAX_TOKENS),
                             ("reserve_limit", 0, 8), ("setup_cards", 0, 12),
                             ("place_tokens", 0, MAX_TOKENS), ("offer_price", 0, MAX_TOKENS),
                             ("cover_points", 0, MAX_POINTS), ("max_rounds", 1, MAX_ROUNDS)):
            whole(getattr(self, name), name, lo, hi)
        if self.photo_target is not None:
            whole(self.photo_target, "photo_target", 1, 36)
        for name in ("offers", "raccoon", "assignments", "tracking_tokens", "reserving"):
            flag(getattr(self, name), name)
        if self.start_tokens is not None:
            st = self.start_tokens
            if not isinstance(st, tuple | list) or len(st) != self.players:
                raise InputError(f"start_tokens needs {self.players} whole numbers (one per "
                                 f"seat, as many as players), got {st!r}")
            st = tuple(whole(t, "each of start_tokens", 0, MAX_TOKENS) for t in st)
            object.__setattr__(self, "start_tokens", st)
        if len(self.components.assignments) < self.players:
            raise InputError(f"{self.players} players need {self.players} assignments; the "
                             f"component set has {len(self.components.assignments)}")

    @property
    def target(self) -> int:
        return self.photo_target or RULEBOOK_TARGET[self.players]

    @property
    def seat_tokens(self) -> tuple[int, ...]:
        """Starting tokens by seat: the rulebook's 2, 3, 4, ... unless overridden."""
        if self.start_tokens is not None:
            return self.start_tokens[: self.players]
        return tuple(2 + i for i in range(self.players))

    @classmethod
    def simpler(cls, *variants: int, **kw) -> SnapshotConfig:
        """The rulebook's Simpler Variants 1-3 (any combination) on top of other knobs."""
        changes = {}
        for v in variants:
            if v not in SIMPLER_VARIANTS:
                raise InputError(f"simpler variant {v!r} does not exist; choose 1, 2 or 3")
            changes.update(SIMPLER_VARIANTS[v])
        return cls.from_knobs(**{**kw, **changes})

    def to_array(self) -> np.ndarray:
        cfg = np.zeros(E.CFG_SIZE, np.int64)
        cfg[E.C_PLAYERS] = self.players
        cfg[E.C_TARGET] = self.target
        cfg[E.C_DICE] = self.dice
        cfg[E.C_REROLL_COST] = self.reroll_cost
        cfg[E.C_EXPERIENCE] = self.experience_tokens
        cfg[E.C_RESERVE_LIMIT] = self.reserve_limit
        cfg[E.C_SETUP_CARDS] = self.setup_cards
        cfg[E.C_OFFERS] = self.offers
        cfg[E.C_RACCOON] = self.raccoon
        cfg[E.C_ASSIGNMENTS] = self.assignments
        cfg[E.C_TOKENS] = self.tracking_tokens
        cfg[E.C_RESERVING] = self.reserving
        cfg[E.C_PLACE_TOKENS] = self.place_tokens
        cfg[E.C_OFFER_PRICE] = self.offer_price
        cfg[E.C_COVER_POINTS] = self.cover_points
        cfg[E.C_MAX_ROUNDS] = self.max_rounds
        cfg[E.C_START_TOKENS:E.C_START_TOKENS + self.players] = self.seat_tokens
        return cfg

    def comp_vector(self) -> np.ndarray:
        """The component set as the flat int64 vector the kernels read."""
        return E.component_vector(self.components.to_arrays())


def photo_table() -> np.ndarray:
    """The exact photograph table the policies read (`plans.photo_p`): [difficulty-1,
    tokens, dice-1], so that what a plan reads for one animal (its dice counts, each with
    the first few token counts) lies together."""
    return np.ascontiguousarray(
        photo_table_kernel(PHOTO_DICE, MAX_T, PHOTO_DIFFICULTY).transpose(2, 1, 0))
