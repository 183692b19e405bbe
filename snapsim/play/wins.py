"""A seat's win chance with each legal move, estimated by determinized rollouts: the shared
part for the three games (each game's policies module supplies `rollout_wins`, its kernel
of one batch of rollouts; snapsim/games/<game>/policies.py).

A rollout deals afresh what the seat cannot see, consistently with what it sees (the other
hands, the deck order, the unseen photos or assignments, by the game's search kind's own
`determinize`), then plays every legal move in that same world with the same chance draws
(common random numbers) and every seat on the game's built-in search base to the end. A
move's win chance is the seat's mean win share over the rollouts (a shared win counts its
share), with a 95% Wilson interval: the rollouts are independent draws of the hidden cards
and the dice, so the interval covers what more rollouts of the same players would give. It
is the chance under those players, not under perfect play.

All the randomness comes from a digest of the seat's observation and a seed (`view_key`):
the hidden cards and every chance event after the move (dice, draws) are sampled from it,
never read from the game's state or its own random streams, so the same view and seed give
the same numbers whatever the hidden cards and the dice to come are. A move's points now
are its expected points (its score after the move and the forced moves after it, minus its
score before): exact where the game's screen gives them (`points_now`: every chance outcome
counted, from the seat's view), else averaged over the same rollouts; the game is only read.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.stats import wilson_interval
from ..errors import InputError
from ..protocol import GameState
from ..sim.checks import number, whole
from ..sim.registry import get_game

Move = int | list[int] | tuple[int, ...]  # a step action, or the step actions of one move
Choice = tuple[list[int], list[int]]  # a screen's move: the actions it plays, what they played

DEFAULT_SECONDS = 2.0  # a hint's time on one core
MAX_ROLLOUTS = 1_000_000  # the most a fixed count may ask for
FIRST_BATCH = 8  # rollouts timed before the rest of a time budget is sized
FINISH = 0.1  # seconds of a time budget kept for the table and lines after the rollouts (and
# the last batch running past its estimate)
SLICE = 0.1  # seconds of rollouts between two looks at the clock
UNITS = {"move": "the move's number in the list of legal moves (1 = first)",
         "action": "the move's action id (snapsim's step API)",
         "text": "the move in words",
         "win_chance": "fraction 0-1: the seat's estimated chance to win after this move "
                       "(shared wins count their share)",
         "interval": "fraction 0-1, [low, high]: 95% Wilson interval of win_chance",
         "rollouts": "count: rollouts (games played to the end) behind win_chance",
         "points": "points: the seat's expected score after the move (and the forced moves "
                   "after it) minus its score now: exact where points_exact, else the mean "
                   "over the same rollouts",
         "points_exact": "true: points counts every chance outcome exactly (the game's dice "
                         "odds, from the seat's view); false: points is the rollouts' mean",
         "p_none": "fraction 0-1: the exact chance the move scores no points at once (null "
                   "where points is the rollouts' mean)",
         "same_as": "the number of a better-ranked move that reaches the same position in "
                    "every rollout (0: none)"}


@dataclass(frozen=True)
class Budget:
    """How much rollout a hint gets: a fixed number of rollouts per move (reproducible), or
    seconds on one core (rollouts are added in batches until the time is up, so how many
    depends on the machine)."""

    seconds: float | None = DEFAULT_SECONDS
    rollouts: int | None = None

    @classmethod
    def of(cls, seconds: float | None = None, rollouts: int | None = None) -> Budget:
        """A checked budget: `rollouts` when given, else `seconds` (default 2)."""
        if rollouts is not None:
            return cls(None, whole(rollouts, "rollouts", 1, MAX_ROLLOUTS))
        if seconds is None:
            return cls()
        return cls(number(seconds, "hint budget (seconds)", 0.01, 3600), None)

    def after(self, spent: float) -> Budget:
        """What is left of a time budget once `spent` seconds went to the hint's other
        numbers (at least a quarter of it); a fixed count of rollouts stays as it is."""
        if self.rollouts is not None:
            return self
        assert self.seconds is not None  # a budget holds seconds or rollouts
        return Budget(max(self.seconds - spent, self.seconds / 4), None)

    def describe(self) -> str:
        return (f"{self.rollouts} rollouts" if self.rollouts is not None
                else f"{self.seconds:g} s")


def screen_part(game: GameState, name: str) -> Any:
    """The game's own part `name` of the play screen (GameSpec.screen: its reminders, board,
    reasons a move is not offered, exact points now), or None where the game has none; each
    part has the game's own type."""
    return getattr(get_game(game.NAME).screen, name, None)


def view_key(game: GameState, seat: int, seed: int = 0) -> int:
    """A 64-bit digest of what `seat` sees (its observation tensor), the game and `seed`:
    the only source of a hint's randomness."""
    h = hashlib.blake2b(digest_size=8)
    h.update(f"{game.NAME}|{seat}|{int(seed)}|".encode())
    h.update(np.ascontiguousarray(game.observation_tensor(seat)).tobytes())
    return int.from_bytes(h.digest(), "little")


def check_seat(game: GameState, seat: object) -> int:
    """`seat` (0-based) when it is the one to decide now; else a one-line InputError."""
    if game.is_terminal:
        raise InputError("the game is over: there is no move to advise")
    n = game.config.players
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
        shown = int(seat) + 1 if isinstance(seat, int | np.integer) else repr(seat)
        raise InputError(f"seat must be 1-{n} for {n} players, got {shown}")
    if int(seat) != game.current_player:
        raise InputError(f"it is P{game.current_player + 1}'s decision now, not "
                         f"P{int(seat) + 1}'s: only the seat to move has moves to rank")
    return int(seat)


def _rollouts(game: GameState, moves: np.ndarray, key: int,
              budget: Budget) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(win shares, points, position digests, each summed per move; rollouts) within the
    budget; `moves`: one row of step actions per move (`sequences`)."""
    run = game.POLICIES.rollout_wins
    if budget.rollouts is not None:
        return *run(game, moves, key, 0, budget.rollouts), budget.rollouts
    seconds = budget.seconds
    assert seconds is not None  # a budget holds seconds or rollouts
    start = time.perf_counter()
    run(game, moves, key, 0, 0)  # loads the compiled kernel, or compiles it the first time
    if time.perf_counter() - start > seconds / 2:  # a compile: not the hint's time
        start = time.perf_counter()
    deadline = start + seconds - min(FINISH, seconds / 4)
    sums = run(game, moves, key, 0, FIRST_BATCH)
    done = FIRST_BATCH
    while (now := time.perf_counter()) < deadline:
        per = (now - start) / done  # seconds a rollout of every move takes
        batch = max(1, int(min(SLICE, deadline - now) / per))
        sums = tuple(a + b for a, b in zip(sums, run(game, moves, key, done, batch),
                                           strict=True))
        done += batch
    return *sums, done


def sequences(moves: Sequence[Move]) -> np.ndarray:
    """Moves of one or more step actions as the rollout kernels read them: one row each,
    padded with -1."""
    rows = [list(m) if isinstance(m, list | tuple) else [int(m)] for m in moves]
    out = np.full((len(rows), max(map(len, rows), default=1)), -1, np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def move_chances(game: GameState, seat: int, budget: Budget | None = None,
                 seed: int = 0, choices: list[Choice] | None = None) -> pd.DataFrame:
    """The legal moves of `seat` (the seat to move, 0-based) ranked by estimated win chance,
    best first: move (its number in the legal list, 1-based), action, text, win_chance
    (0-1) with its 95% Wilson interval (ci_low, ci_high), rollouts, points (expected points
    scored at once; points_exact: counted exactly, with p_none, the chance of none),
    same_as (a better-ranked move reaching the same position in every rollout, 0 for none:
    for Snapshot's preparation, once the seat's plan is completed from the move). With
    `choices` (a play screen's moves: each the step actions it plays and what they played),
    those are ranked instead, numbered as on the screen; a move of several step actions is
    rated after all of them.

    Every number comes from the seat's view: the rollouts' worlds are dealt from its view
    key (the hidden cards and every chance event after the move sampled afresh), exact
    points from its public view; never from the game's hidden cards or random streams. The
    game is unchanged."""
    seat = check_seat(game, seat)
    return rate(game, seat, *screen_moves(game, choices), budget, seed)


def screen_moves(game: GameState,
                 choices: list[Choice] | None = None) -> tuple[list[Move], list[str]]:
    """(moves, their words): the legal step actions, or a play screen's `choices` (each the
    step actions it plays)."""
    if choices is None:
        actions = game.legal_action_ids().tolist()
        return actions, [game.action_to_string(a) for a in actions]
    return ([chosen for chosen, _ in choices],
            [game.choice_to_string(chosen, done) for chosen, done in choices])


def rate(game: GameState, seat: int, moves: Sequence[Move], texts: Sequence[str],
         budget: Budget | None = None,
         seed: int = 0) -> pd.DataFrame:
    """`move_chances`' table of any moves of the seat to move (each a step action or a list
    of them, named by `texts`), numbered in their order: the same view key gives the same
    worlds and chance, so tables of other moves of this decision share their luck."""
    start = time.perf_counter()
    key = view_key(game, seat, seed)
    rows = sequences(moves)
    actions = rows[:, 0].astype(int)
    exact = exact_points(game, seat, rows)  # first: a time budget covers the whole table
    budget = (budget or Budget()).after(time.perf_counter() - start)
    wins, points, reach, n = _rollouts(game, rows, key, budget)
    lo, hi = wilson_interval(wins, n)
    points, none = exact if exact is not None else (points / n, np.full(len(wins), np.nan))
    table = pd.DataFrame({
        "move": np.arange(1, len(texts) + 1), "action": actions, "text": list(texts),
        "win_chance": wins / n, "ci_low": lo, "ci_high": hi,
        "rollouts": np.full(len(texts), n), "points": points,
        "points_exact": np.full(len(texts), not np.isnan(none).all()), "p_none": none,
        "reach": reach})
    table = table.sort_values(["win_chance", "move"], ascending=[False, True], kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    first = table.groupby("reach", sort=False).move.transform("first")
    table["same_as"] = np.where(first != table.move, first, 0)
    return table.drop(columns="reach").reset_index(drop=True)


def exact_points(game: GameState, seat: int,
                 moves: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(points now, the chance of none) of each move (a row of `sequences`), exact, where the
    game's screen counts them (`points_now`); else None (the rollouts' mean stands in)."""
    count = screen_part(game, "points_now")
    if count is None:
        return None
    odds = count(game, seat, [[int(a) for a in row if a >= 0] for row in moves])
    return (np.array([float(sum(k * p for k, p in d.items())) for d in odds]),
            np.array([float(d.get(0, 0)) for d in odds]))
