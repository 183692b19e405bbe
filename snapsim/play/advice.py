"""`snapsim.advise` and `snapsim advise --load`: advice for the decision a game stands at, in
any phase of any game, from what the seat to move sees: its legal moves ranked by estimated
win chance (snapsim.play.wins) with the points each is expected to score at once, one
recommendation (snapsim.play.hints.recommendation), and the game's own exact numbers of
`snapsim play --hints` where it has them (GameSpec.hints; Snapshot's: research odds, the
advisor's best preparations, P(explored) after each re-roll)."""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ..protocol import GameState
from ..sim.checks import whole
from . import Session, load
from .hints import chance_lines, exact, recommendation
from .wins import UNITS, Budget, check_seat, move_chances


@dataclass
class Advice:
    """The advice for one decision: `moves` (ranked, best first), the game's exact numbers
    (`exact`: as lines; `numbers`: as numbers, by the game's name in `to_dict`), and what
    made it."""

    game: str
    seat: int  # 0-based
    phase: str
    budget: Budget
    seed: int
    moves: pd.DataFrame
    exact: list[str] = field(default_factory=list)
    numbers: dict = field(default_factory=dict)
    recommended: list[str] = field(default_factory=list)  # `hints.recommendation`'s lines

    def summary(self) -> str:
        head = (f"{self.game}: P{self.seat + 1} to move ({self.phase}); advice from what "
                f"P{self.seat + 1} sees (seed {self.seed})")
        return "\n".join([head, *self.exact, *chance_lines(self.moves, self.budget),
                          *self.recommended])

    def to_dict(self) -> dict:
        """Plain numbers, each field's unit named in `units`."""
        rows = [{"rank": int(r.rank), "move": int(r.move), "action": int(r.action),
                 "text": r.text, "win_chance": float(r.win_chance),
                 "interval": [float(r.ci_low), float(r.ci_high)], "rollouts": int(r.rollouts),
                 "points": float(r.points), "points_exact": bool(r.points_exact),
                 "p_none": None if np.isnan(r.p_none) else float(r.p_none),
                 "same_as": int(r.same_as)}
                for r in self.moves.itertuples()]
        out = {"game": self.game, "seat": self.seat + 1, "phase": self.phase,
               "seed": self.seed, "budget": self.budget.describe(), "moves": rows,
               "units": {"seat": "seat number, 1 = P1", "rank": "1 = best", **UNITS}}
        if self.numbers:
            out[self.game] = self.numbers
        return out


def advise(state: GameState | Session | str | Path, seat: int | None = None,
           budget: Budget | None = None, seed: int = 0,
           *, seconds: float | None = None, rollouts: int | None = None) -> Advice:
    """Advice for the decision `state` stands at, for `seat` (1-based; default: the seat to
    move, the only one with moves to rank). `state`: a step game (snapsim.protocol.GameState),
    a loaded save (snapsim.play.load) or a save's path. The budget: `rollouts` per move
    (reproducible) or `seconds` on one core (default 2), or a `wins.Budget`. Reads the game,
    never changes it."""
    if isinstance(state, str | Path):
        state = load(state)
    game = state.game if isinstance(state, Session) else state
    if not isinstance(game, GameState):
        raise InputError("advise needs a game (snapsim.protocol.GameState), a loaded save or "
                         f"a save's path, got {type(state).__name__}")
    if seat is None:
        seat = game.current_player + 1 if not game.is_terminal else 1
    if isinstance(seat, bool) or not isinstance(seat, Integral):
        raise InputError(f"seat must be a seat number 1-{game.config.players}, got {seat!r}")
    me = check_seat(game, int(seat) - 1)
    if budget is not None and not isinstance(budget, Budget):
        raise InputError(f"budget must be a snapsim.play.wins.Budget (or give seconds= or "
                         f"rollouts=), got {budget!r}")
    budget = budget or Budget.of(seconds, rollouts)
    whole(seed, "seed", 0)
    lines, numbers = exact(game, "lines", me) or [], exact(game, "numbers", me) or {}
    moves = move_chances(game, me, budget, seed)
    return Advice(game.NAME, me, game.phase, budget, seed, moves, lines, numbers,
                  recommendation(game, me, moves))
