"""ShutterbugConfig: player count, variant, component set and every rule knob a designer sweeps."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...sim.checks import flag, whole
from ...sim.config import RuleKnobs
from . import engine as E
from .components import Components, load_components

# Knobs whose None means "the rulebook's (or the variant's) value for this mode".
MAX_START_TIPS = 20
OPTIONAL = ("populate", "start_tips", "turn_tips", "city_bonus", "tip_swaps", "keep_of",
            "goal_side_jobs")


@dataclass(frozen=True)
class ShutterbugConfig(RuleKnobs):
    """One ShutterBug rule set. Defaults are the rulebook's game for the player count (the
    team game for 2 players). players=1 plays the solo variant and `cooperative` the
    cooperative variant: variants from other public sources, not rulebook rules. None means
    "the rulebook's (or the variant's) value for this mode"."""

    GAME = "ShutterBug"  # in messages (a plain class attribute, not a field)

    players: int = 4
    cooperative: bool = False
    team_game: bool = True  # 2 players: two pawns each (the rulebook's two-player rules)
    rounds: int = 8
    populate: int | None = None  # spaces holding tiles after Step 1 (7; solo 10)
    start_tips: int | tuple[int, ...] | None = None  # 3; solo 4; or one count per seat
    hand_limit: int = 7
    max_steps: int = 3
    pass_tips: int = 1
    end_tips: int = 2
    turn_tips: int | None = None  # most city tips gained in a turn: 4 with two pawns; 0: no limit
    city_bonus: int | None = None  # per pawn ending in a city: 2; 1 with two pawns each
    tip_swaps: int | None = None  # per turn: solo 1, else 0
    trading: bool = True
    random_cities: bool = False  # starting cities drawn at random, not chosen in turn order
    keep_of: int | None = None  # assignments offered, one kept: solo 3, else 1
    side_job_markers: int = 4  # per player (the rulebook's contents): side jobs one can score
    goal_side_jobs: int | None = None  # all-or-nothing: side jobs needed (None: all markable)
    components: Components = field(default_factory=load_components, compare=True)

    def __post_init__(self):
        self._load_components(load_components)
        if isinstance(self.start_tips, tuple | list):
            tips = self.start_tips
            if len(tips) != self.players:
                raise InputError(f"start_tips takes one number for every seat or one per seat "
                                 f"({self.players} for {self.players} players), got {tips!r}")
            object.__setattr__(self, "start_tips", tuple(whole(t, "each of start_tips", 0,
                                                               MAX_START_TIPS) for t in tips))
        for name, lo, hi in (("players", 1, E.MAX_PLAYERS), ("rounds", 1, 100),
                             ("populate", 1, len(self.components.spaces)),
                             ("start_tips", 0, MAX_START_TIPS), ("hand_limit", 0, 48),
                             ("max_steps", 1, 20),
                             ("pass_tips", 0, 10), ("end_tips", 0, 10), ("turn_tips", 0, 48),
                             ("city_bonus", 0, 20), ("tip_swaps", 0, 10), ("keep_of", 1, 3),
                             ("side_job_markers", 0, 8),
                             ("goal_side_jobs", 0, self.markable_jobs)):
            value = getattr(self, name)
            if (value is not None or name not in OPTIONAL) and not isinstance(value, tuple):
                whole(value, name, lo, hi)
        for name in ("cooperative", "team_game", "trading", "random_cities"):
            flag(getattr(self, name), name)
        if self.keep > 1 and not self.solo:
            raise InputError("keep_of (assignments offered, one kept) is a solo rule; "
                             "use it with players=1")
        if self.cooperative and self.players < 2:
            raise InputError("cooperative needs 2-6 players; one player is the solo variant")
        need = 1 if self.cooperative else self.players
        if len(self.components.assignments) < max(need, self.keep):
            raise InputError(f"this game needs {max(need, self.keep)} assignment cards; the "
                             f"component set has {len(self.components.assignments)}")

    # -- the rulebook's value of each mode-dependent knob
    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def pawns(self) -> int:
        return 2 if self.solo or (self.players == 2 and self.team_game) else 1

    @property
    def all_or_nothing(self) -> bool:
        return self.solo or self.cooperative

    @property
    def markable_jobs(self) -> int:
        """Side jobs one player can fulfil: one marker each."""
        return min(len(self.components.side_jobs), self.side_job_markers)

    @property
    def keep(self) -> int:
        return self.keep_of if self.keep_of is not None else (3 if self.solo else 1)

    @property
    def tips_by_seat(self) -> tuple[int, ...]:
        """Tips dealt to each seat at set-up (the rulebook's 3, solo 4, unless set)."""
        tips = self.start_tips
        if isinstance(tips, tuple):
            return tips
        return (4 if self.solo else 3 if tips is None else tips,) * self.players

    def to_array(self) -> np.ndarray:
        def pick(v, default):
            return default if v is None else v

        cfg = np.zeros(E.CFG_SIZE, np.int64)
        cfg[E.C_PLAYERS] = self.players
        cfg[E.C_PAWNS] = self.pawns
        cfg[E.C_POPULATE] = pick(self.populate, 10 if self.solo else 7)
        tips = self.tips_by_seat
        cfg[E.C_START_TIPS] = min(tips)
        cfg[E.C_SEAT_TIPS:E.C_SEAT_TIPS + self.players] = np.array(tips) - min(tips)
        cfg[E.C_HAND_LIMIT] = self.hand_limit
        cfg[E.C_ROUNDS] = self.rounds
        cfg[E.C_CITY_BONUS] = pick(self.city_bonus, 1 if self.pawns == 2 else 2)
        cfg[E.C_SWAPS] = pick(self.tip_swaps, 1 if self.solo else 0)
        cfg[E.C_TRADING] = self.trading
        cfg[E.C_COOP] = self.cooperative
        cfg[E.C_KEEP] = self.keep
        cfg[E.C_GOAL_JOBS] = pick(self.goal_side_jobs, self.markable_jobs)
        cfg[E.C_ALL_OR_NOTHING] = self.all_or_nothing
        cfg[E.C_MAX_STEPS] = self.max_steps
        cfg[E.C_PASS_TIPS] = self.pass_tips
        cfg[E.C_END_TIPS] = self.end_tips
        cfg[E.C_TURN_TIPS] = pick(self.turn_tips, 4 if self.pawns == 2 else 0)
        cfg[E.C_RANDOM_CITIES] = self.random_cities
        cfg[E.C_MARKERS] = self.side_job_markers
        return cfg

    def comp_vector(self) -> np.ndarray:
        """The component set as the flat int64 vector the kernels read."""
        return E.component_vector(self.components)
