"""One step-by-step protocol for the three games: what an outside agent needs to play them.

`GameState` holds the shared logic; each game's step class (`SnapshotGame`, `YosemiteGame`,
`ShutterbugGame` in snapsim/games/<game>/api.py) supplies only what differs: its engine and
policies modules, its config class, how an action id reads, the logs, and what a seat sees.

Conventions (the ones OpenSpiel, PettingZoo and Gymnasium users expect):

- Actions are ids in ``range(num_distinct_actions)``: the engine's own encoding,
  ``kind * span + argument``. `legal_actions()` returns them as `Action` objects, which are
  ints that also carry their decoded kind and arguments.
- Chance is sampled: shuffles and dice are drawn inside `apply` from the game's seeded
  chance stream (OpenSpiel's sampled-stochastic mode); there are no chance nodes.
- `returns()` are the win shares (1 to the winner, split on a tie; 0 before the end);
  `rewards()` are what the last `apply` earned: zeros until the game ends, then the win shares.
- `observation(player)` / `observation_tensor(player)` hold only what that seat may see.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .errors import InputError
from .sim.kernel import game_rngs, policy_arrays, root_keys, seat_policies


class Action(int):
    """An action id that also carries its decoded kind and arguments (FIELDS, None if unused).

    It is an int, so it goes wherever an id goes: ``apply(action)``, a mask index, a set of ids.
    """

    FIELDS: tuple[str, ...] = ()
    kind: str

    if TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any: ...  # the FIELDS, set per game

    def __new__(cls, code: int, kind: str, **args):
        self = super().__new__(cls, code)
        self.kind = kind
        for name in cls.FIELDS:
            setattr(self, name, args.pop(name, None))
        if args:
            raise TypeError(f"unknown action fields {sorted(args)}")
        return self

    @property
    def code(self) -> int:
        return int(self)

    def describe(self, comp) -> str:
        """The action in words, its names read from the components `comp`: a game whose
        actions carry arguments says them."""
        return self.kind

    def __repr__(self) -> str:
        args = ", ".join(f"{f}={getattr(self, f)}" for f in self.FIELDS
                         if getattr(self, f) is not None)
        return f"{type(self).__name__}({int(self)}, {self.kind!r}{', ' if args else ''}{args})"


@dataclass(frozen=True)
class GameInfo:
    """What a game is, before any state: fixed for a config."""

    name: str
    players: int
    min_players: int
    max_players: int
    num_distinct_actions: int  # action ids are 0 .. num_distinct_actions - 1
    max_game_length: int  # decisions; a bound, from the engine's truncation cap
    observation_shape: tuple[int, ...]
    knobs: dict
    components: str
    chance: str = "sampled"  # shuffles and dice drawn inside apply from the seeded stream


class TensorLayout:
    """Named, fixed-size segments of an observation tensor, in order."""

    def __init__(self):
        self.parts: list[tuple[str, int]] = []
        self._values: list[np.ndarray] = []

    def add(self, name: str, values) -> None:
        v = np.asarray(values, np.float32).ravel()
        self.parts.append((name, v.size))
        self._values.append(v)

    def one_hot(self, name: str, index: int, size: int) -> None:
        """`size` zeros with a 1 at `index` (all zeros when index is -1: none)."""
        v = np.zeros(size, np.float32)
        if index >= 0:
            v[index] = 1
        self.add(name, v)

    def tensor(self) -> np.ndarray:
        return np.concatenate(self._values).astype(np.float32)


class GameState(ABC):
    """One game, one decision at a time.

    Game `game` of a batch run with the same config, seed, policies and seat rotation is
    this game when every decision comes from `policy_action()`.
    """

    NAME: str
    ENGINE: ModuleType  # the game's engine module
    POLICIES: ModuleType  # the game's policies module
    CONFIG: Any  # the game's config class (a RuleKnobs dataclass with from_knobs)
    ACTION: type[Action]
    # the game's decoder, (code, state) -> its Action: the state says what the code alone
    # does not (the animal a Yosemite payment pays with)
    DECODE: Callable[[int, np.ndarray], Action]
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    ACTION_SPAN: int  # action id = kind * ACTION_SPAN + argument
    PHASES: tuple[str, ...]  # by the engine's phase number
    DECISIONS_PER_UNIT: int  # bound on decisions per truncation unit (round or turn)

    def __init__(self, config=None, seed: int = 0, game: int = 0, policies=None,
                 rotate_seats: bool = True, components=None, log: bool = True):
        self.config = config or self.CONFIG()
        if components is not None:  # "standard", a component file path or a loaded set
            self.config = self.config.replace(components=components)
        E = self.ENGINE
        self._cfg = self.config.to_array()
        self._comp = self.config.comp_vector()
        key0, key1 = root_keys(seed)
        self._rng = game_rngs(np.uint64(key0), np.uint64(key1), game)
        self._buf = self._action_buffer()
        n = self.config.players
        self.policies = [self._make_policy(p) for p in (policies or ["greedy"] * n)]
        if len(self.policies) != n:
            raise InputError(f"{n} players need {n} policies, got {len(self.policies)}")
        self._kinds, self._params = policy_arrays(self.policies)
        self._seats = seat_policies(n, n, game, rotate_seats)
        self.state = E.new_game(self._cfg, self._comp, self._rng)
        self.log: list[str] | None = [] if log else None  # None: no log (faster searches)
        self._memory = self._new_memory()  # the policies' own memory (a plan): not the state
        # (state, action, policy's state, streams, memory) of the last ask
        self._asked: tuple | None = None
        self._rewards = np.zeros(n)
        E.settle(self.state, self._cfg, self._comp, self._rng, self._buf)

    # ------------------------------------------------------------ what each game supplies
    @staticmethod
    @abstractmethod
    def _make_policy(spec):
        """The game's `make_policy`."""

    @abstractmethod
    def _policy_code(self, st, rng, k: int, n: int, mem) -> int:
        """Policy `k`'s action among the n legal ones in self._buf, on copies of the state,
        the streams and the policies' memory."""

    def _new_memory(self) -> np.ndarray:
        """The policies' memory between decisions (e.g. a turn's plan); none by default."""
        return np.zeros(0, np.int64)

    # how much of that memory carries from one decision to the next (its head: the plan);
    # the rest is work space written before it is read, so a position leaves it out
    KEPT_MEMORY: int | None = None

    def _kept_memory(self) -> int:
        return self._memory.shape[0] if self.KEPT_MEMORY is None else self.KEPT_MEMORY

    def decode(self, code: int) -> Action:
        """The action `code` stands for in this state."""
        return type(self).DECODE(code, self.state)

    @abstractmethod
    def _log(self, who: int, action: Action, before: np.ndarray, forced: bool) -> None:
        """Add a line to self.log for `action`, played by `who` from state `before`."""

    @abstractmethod
    def observation(self, player: int) -> dict:
        """What `player` can see, readably."""

    @abstractmethod
    def _tensor(self, player: int, t: TensorLayout) -> None:
        """Add what `player` can see to `t`, in the fixed layout of `observation_tensor`."""

    @abstractmethod
    def scores(self) -> pd.DataFrame:
        """Score sheet by seat."""

    @abstractmethod
    def _truncation_cap(self) -> int:
        """The engine's safety cap on rounds or turns."""

    def _action_buffer(self) -> np.ndarray:
        return np.empty(self.ENGINE.MAX_LEGAL, np.int64)

    def action_to_string(self, action: int) -> str:
        """The action in words, as the log and the play screen say it."""
        return self.decode(action).describe(self.config.components)

    # ------------------------------------------------------------ a player's screen
    # about how long a first game's kernels take to compile (a line-up of built-in players)
    PREPARE_SECONDS = 30

    @abstractmethod
    def table_view(self, player: int) -> list[str]:
        """What `player` sees at the table, in plain words, one line each (read from their
        observation: nothing another seat hides)."""

    def mid_move(self) -> bool:
        """Whether the step API is inside one choice the rules make whole (several step
        actions for one move), so a player's screen offers the whole move at once."""
        return False

    def choice_to_string(self, chosen, played) -> str:
        """A whole move in words: the step actions `chosen`, which played `played` (those and
        the forced moves after each: a game may name the move by them, but never by what
        follows a chance event)."""
        return "; then ".join(self.action_to_string(c) for c in chosen)

    # ------------------------------------------------------------ metadata
    @property
    def info(self) -> GameInfo:
        players = self.config.players
        return GameInfo(
            name=self.NAME, players=players, min_players=self.MIN_PLAYERS,
            max_players=self.MAX_PLAYERS, num_distinct_actions=self.num_distinct_actions,
            max_game_length=self.max_game_length,
            observation_shape=self.observation_shape,
            knobs={k: v for k, v in vars(self.config).items() if k != "components"},
            components=str(getattr(self.config.components, "path", "standard") or "standard"))

    @property
    def num_distinct_actions(self) -> int:
        return self.ENGINE.N_KINDS * self.ACTION_SPAN

    @property
    def max_game_length(self) -> int:
        """A bound on the decisions in a game: the engine's cap on rounds (or turns) times a
        bound on the decisions one of them takes."""
        return self._truncation_cap() * self.DECISIONS_PER_UNIT * self.config.players

    @property
    def observation_shape(self) -> tuple[int]:
        return (sum(size for _, size in self.tensor_layout()),)

    def tensor_layout(self, player: int = 0) -> list[tuple[str, int]]:
        """(segment name, length) of `observation_tensor`, in order."""
        t = TensorLayout()
        self._tensor(player, t)
        return t.parts

    # ------------------------------------------------------------ state
    @property
    def current_player(self) -> int:
        """The player who decides now (-1 once the game is over)."""
        return -1 if self.is_terminal else int(self.ENGINE.decider(self.state))

    @property
    def phase(self) -> str:
        return self.PHASES[int(self.state[self.ENGINE.PHASE])]

    @property
    def is_terminal(self) -> bool:
        return int(self.state[self.ENGINE.PHASE]) == self.ENGINE.PH_OVER

    def is_over(self) -> bool:
        return self.is_terminal

    def legal_action_ids(self) -> np.ndarray:
        if self.is_terminal:
            return np.empty(0, np.int64)
        n = self.ENGINE.legal_actions(self.state, self._cfg, self._comp, self._buf)
        return self._buf[:n].copy()

    def legal_actions(self) -> list[Action]:
        return [self.decode(int(c)) for c in self.legal_action_ids()]

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_distinct_actions, bool)
        mask[self.legal_action_ids()] = True
        return mask

    def returns(self) -> np.ndarray:
        """Win shares by seat once the game is over (zeros before)."""
        if not self.is_terminal:
            return np.zeros(self.config.players)
        return np.asarray(self.scores()["won"], float)

    def rewards(self) -> np.ndarray:
        """What the last `apply` earned by seat: zeros, except the win shares on the move
        that ended the game."""
        return self._rewards.copy()

    def observation_tensor(self, player: int) -> np.ndarray:
        """`observation(player)` as a fixed-length float32 vector; `tensor_layout()` names its
        segments (counts as numbers, places and kinds one-hot, seats in seat order)."""
        self._check_player(player)
        t = TensorLayout()
        self._tensor(player, t)
        return t.tensor()

    def _check_player(self, player) -> None:
        n = self.config.players
        if isinstance(player, bool) or not isinstance(player, int | np.integer) \
                or not 0 <= player < n:
            raise InputError(f"player must be 0-{n - 1}, got {player!r}")

    # ------------------------------------------------------------ play
    def policy_action(self) -> Action:
        """The action the seat's policy would take now. Asking changes nothing: the policy
        works on copies of the state and the random streams; what it wrote there (its plan,
        the draws of a random policy) is taken over only when that action is applied, so a
        game played by its policies is the batch's game."""
        k = self._seats[self.current_player]
        n = self.ENGINE.legal_actions(self.state, self._cfg, self._comp, self._buf)
        st, rng, mem = self.state.copy(), self._rng.copy(), self._memory.copy()
        code = int(self._policy_code(st, rng, k, n, mem))
        self._asked = (self.state.copy(), code, st, rng, mem)
        return self.decode(code)

    def apply(self, action: int) -> None:
        """Play `action` (an id or an Action), then every forced move after it."""
        code = int(action)
        if code not in set(self.legal_action_ids().tolist()):
            what = self.action_to_string(code) if 0 <= code < self.num_distinct_actions \
                else str(code)
            raise InputError(f"action {what!r} is not legal now (phase {self.phase})")
        asked = self._asked
        if asked is not None and asked[1] == code and np.array_equal(asked[0], self.state):
            self.state[:] = asked[2]  # what the asking policy wrote: its draws, its plan
            self._rng[:] = asked[3]
            self._memory[:] = asked[4]
        self._asked = None
        self._advance(code)

    def _advance(self, code: int) -> None:
        """Play legal `code`, then every forced move after it (what engine.step does, one
        move at a time so that forced moves are logged too)."""
        E = self.ENGINE
        forced = False
        self.played = []  # this call's moves: `code`, then the forced ones after it
        while True:
            self.played.append(code)
            if self.log is None:
                E.apply_action(self.state, self._cfg, self._comp, self._rng, code)
            else:
                who, before, act = int(E.decider(self.state)), self.state.copy(), \
                    self.decode(code)
                E.apply_action(self.state, self._cfg, self._comp, self._rng, code)
                self._log(who, act, before, forced)
            if self.is_terminal or E.legal_actions(self.state, self._cfg, self._comp,
                                                   self._buf) != 1:
                break
            code, forced = int(self._buf[0]), True
        self._rewards = self.returns()

    def play(self, visit: Callable[[int], None] | None = None) -> None:
        """Play to the end with the seats' policies: the game `apply(policy_action())` plays
        move by move, without its checks and copies (a policy's move is legal, and what it
        writes in the state, streams and memory is kept as `apply` keeps it). `visit(n)` is
        called at each decision, before its policy is asked, with its number of legal
        actions (a self-play that records the positions it meets)."""
        E = self.ENGINE
        self._asked = None
        while not self.is_terminal:
            n = E.legal_actions(self.state, self._cfg, self._comp, self._buf)
            if visit is not None:
                visit(n)
            seat = self._seats[int(E.decider(self.state))]
            self._advance(int(self._policy_code(self.state, self._rng, seat, n, self._memory)))

    def clone(self) -> GameState:
        """An independent copy that plays on exactly as this game would."""
        twin = copy.copy(self)
        twin.state, twin._rng, twin._buf = self.state.copy(), self._rng.copy(), self._buf.copy()
        twin._memory = self._memory.copy()
        twin.log = None if self.log is None else list(self.log)
        twin._rewards = self._rewards.copy()
        twin._asked = None
        return twin

    def __deepcopy__(self, memo) -> GameState:
        return self.clone()

    def serialize(self) -> bytes:
        """The game's position: state array, random streams, the policies' memory, last
        rewards (JSON bytes), so a loaded game plays on exactly as this one would."""
        return json.dumps({"game": self.NAME, "state": self.state.tolist(),
                           "rng": [str(x) for x in self._rng],
                           "memory": self._memory[:self._kept_memory()].tolist(),
                           "rewards": self._rewards.tolist()}).encode()

    def deserialize(self, data: bytes | str) -> GameState:
        """Load a position written by `serialize` of a game with this config; returns self.
        (A position that saved more of the memory than its kept head, as earlier versions
        did, loads too: only the head is read.)"""
        try:
            d = json.loads(data)
            state = np.array(d["state"], np.int64)
            rng = np.array([int(x) for x in d["rng"]], np.uint64)
            rewards = np.array(d["rewards"], float)
            memory = np.array(d["memory"], self._memory.dtype)
        except (ValueError, KeyError, TypeError) as e:
            raise InputError(f"not a serialized {self.NAME} position: {e}") from None
        if d.get("game") != self.NAME or state.shape != self.state.shape \
                or rng.shape != self._rng.shape or rewards.shape != self._rewards.shape \
                or memory.ndim != 1 or memory.shape[0] < self._kept_memory():
            raise InputError(f"not a serialized {self.NAME} position for "
                             f"{self.config.players} players")
        kept = self._kept_memory()
        self._memory[:] = self._new_memory()
        self._memory[:kept] = memory[:kept]
        self.state[:], self._rng[:], self._rewards = state, rng, rewards
        self._asked = None
        return self


def game_class(name: str) -> type[GameState]:
    """The step class of game `name` ("snapshot", "yosemite" or "shutterbug"), as the game
    registered it (`snapsim.sim.registry`)."""
    from .sim.registry import get_game

    step = get_game(name).step
    if step is None:
        raise InputError(f"{name} has no step-by-step API")
    return step


def new_game(name: str, seed: int = 0, game: int = 0, policies=None, rotate_seats=True,
             **knobs) -> GameState:
    """Game `name` with rule knobs `knobs` (as `snapsim simulate` takes them)."""
    cls = game_class(name)
    config = cls.CONFIG.from_knobs(**knobs) if knobs else None
    return cls(config, seed=seed, game=game, policies=policies, rotate_seats=rotate_seats)
