"""Your own Python agent at the table, beside the built-in numba policies.

An agent is any object with ``act(observation, legal_actions) -> action``, or a plain
callable with that signature. It sees only its seat's observation (the step class's
``observation(seat)`` dict) and the legal actions now; it answers with one of those actions
(or its integer code). Optional hooks:

- ``rng``: set before every call to a ``numpy.random.Generator`` of its own, seeded from
  (seed, game index, seat) alone, so a run's games do not depend on chunking, threads or
  resuming (set as an attribute when the object allows it);
- ``reset()``: called before each game the agent plays, to forget the last game;
- ``name``: what the result tables call it (default: the object's or function's name).

A line-up holding an agent plays through the game's step class, one game after another in
this process (Python agents hold the interpreter, so threads would not help and worker
processes would need to import them); a line-up of built-in policies keeps the batch path.

An agent is contained: whatever it prints goes to stderr (standard output stays the
command's, so --format json/csv stays valid), and an exception, a call to sys.exit, an
illegal answer or a move that takes longer than the move time limit (`move_timeout`, default
MOVE_TIMEOUT seconds; on the command line --move-timeout) ends the run with one AgentError
line naming the agent and what it did, the games finished before it kept. The limit is a
timer signal, so it holds in the main thread of a POSIX system, for agents running Python
code (a call stuck inside C code ends when that call returns).
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import importlib.util
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from .checks import MAX_MOVE_TIMEOUT, MOVE_TIMEOUT, number
from .kernel import Policy, result_table, seat_policies

_REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")
SHOWN_LEGAL = 6  # legal actions named in an illegal-move error
SHOWN_MESSAGE = 200  # characters of an agent's own error message repeated in ours
_LIMIT: contextvars.ContextVar[float] = contextvars.ContextVar("move_timeout",
                                                               default=MOVE_TIMEOUT)


class AgentError(InputError):
    """An agent failed (raised, exited, ran out of time, or chose an illegal action);
    `finished` holds the rows of the games completed before it (same schema as a run's
    table)."""

    finished: pd.DataFrame | None = None


@contextlib.contextmanager
def move_timeout(seconds: float | None) -> Iterator[None]:
    """Within the block, an agent may take at most `seconds` for one move (0: no limit;
    None: leave the limit as it is)."""
    if seconds is None:
        yield
        return
    token = _LIMIT.set(number(seconds, "move_timeout (seconds, 0: no limit)", 0,
                              MAX_MOVE_TIMEOUT))
    try:
        yield
    finally:
        _LIMIT.reset(token)


class _OutOfTime(BaseException):
    """Raised into an agent's call by the timer (a BaseException: `except Exception` in the
    agent's own code does not swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after `seconds` (main thread, POSIX; elsewhere no limit). A timer
    already running for an outer caller (e.g. a test's alarm) keeps its time."""
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    outer, interval = signal.getitimer(signal.ITIMER_REAL)
    if outer and outer <= seconds:  # the outer timer ends first: leave it in charge
        yield
        return
    armed = [True]

    def ring(signum, frame):
        if armed[0]:
            raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            left = outer - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), interval)


def _one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= SHOWN_MESSAGE else text[:SHOWN_MESSAGE - 3] + "..."


def contained(who: str, what: str, call, *args):
    """`call(*args)` of the user's code named `who`, doing `what` ("act", "reset", ...): its
    prints go to stderr, and an exception, sys.exit or running past the move time limit
    becomes one AgentError line."""
    limit = _LIMIT.get()
    try:
        with contextlib.redirect_stdout(sys.stderr), _time_limit(limit):
            return call(*args)
    except _OutOfTime:
        raise AgentError(f"{who} took more than {limit:g} s in {what} and was stopped; make "
                         "it faster or raise --move-timeout (move_timeout=)") from None
    except SystemExit as exc:
        raise AgentError(f"{who} called sys.exit({exc.code!r}) in {what}; an agent returns "
                         "a move instead of ending the program") from None
    except Exception as exc:  # noqa: BLE001 - any failure of the user's code ends the run
        raise AgentError(f"{who} raised {type(exc).__name__}: {_one_line(str(exc))} in "
                         f"{what}") from None


@dataclass(frozen=True)
class UserAgent:
    """A Python agent in a line-up: its table name, how it was given (``module:object`` or
    the object's qualified name), and the object itself (not part of a run's identity)."""

    name: str
    reference: str
    agent: Any = field(compare=False, repr=False)  # duck-typed: act or a callable, reset

    @property
    def who(self) -> str:
        return f"agent {self.name} ({self.reference})"

    def act(self, observation, legal_actions, rng, where: str = ""):
        """The agent's choice, its generator set first when the object takes attributes;
        contained (see `contained`), `where` naming the game and seat in messages."""
        with contextlib.suppress(AttributeError):  # a bound method, a builtin, __slots__
            self.agent.rng = rng
        act = getattr(self.agent, "act", self.agent)
        return contained(self.who, f"act{where}", act, observation, legal_actions)

    def reset(self, where: str = "") -> None:
        if callable(getattr(self.agent, "reset", None)):
            contained(self.who, f"reset{where}", self.agent.reset)


def is_agent(policy) -> bool:
    return isinstance(policy, UserAgent)


def from_object(obj, reference: str | None = None) -> UserAgent:
    """Wrap an object with ``act`` or a callable; a class is made with no arguments."""
    if isinstance(obj, type):
        obj = contained(f"agent {reference or obj.__name__}", "its constructor (called with "
                        "no arguments)", obj)
    act = getattr(obj, "act", obj)
    owner = obj if hasattr(obj, "__qualname__") else type(obj)  # a function, else its class
    ref = reference or f"{owner.__module__}:{owner.__qualname__}"
    if not callable(act):
        raise InputError(f"agent {ref} has no act(observation, legal_actions) method and is "
                         "not callable")
    name = getattr(obj, "name", None)
    if not isinstance(name, str) or not name.strip():
        name = getattr(obj, "__name__", None) or type(obj).__name__
    return UserAgent(name.strip(), ref, obj)


def load(reference: str) -> UserAgent:
    """The agent named ``module:object`` (dotted names allowed on both sides); the folder
    the command runs in is searched too, as `python -m` would."""
    module_name, _, attr = reference.partition(":")
    _search_here()
    try:
        module = contained(f"agent {reference}", f"importing {module_name}",
                           importlib.import_module, module_name)
    except AgentError as exc:
        cause = exc.__context__
        if isinstance(cause, ModuleNotFoundError) and cause.name:
            raise InputError(f"agent {reference}: no module named {cause.name!r}") from None
        raise
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InputError(f"agent {reference}: {module_name} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return from_object(obj, reference)


def _search_here() -> None:
    """Let agents' modules be found in the folder the command runs in."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def _module_exists(name: str) -> bool:
    """Whether `name` is an importable module; finding a dotted name imports its packages,
    the user's code, so a package that fails on import is one AgentError naming it."""
    _search_here()
    try:
        return contained(f"agent module {name}", "importing its package",
                         importlib.util.find_spec, name) is not None
    except AgentError as exc:
        if isinstance(exc.__context__, ImportError | ValueError):
            return False
        raise


def policy_or_agent(spec, entry):
    """A line-up entry as a built-in Policy or a UserAgent: a policy spec string, a
    ``module:object`` string, or an agent object."""
    if isinstance(entry, Policy | UserAgent):
        return entry
    if not isinstance(entry, str):
        return from_object(entry)
    text = entry.strip()
    if _REFERENCE.fullmatch(text) and _module_exists(text.partition(":")[0]):
        return load(text)
    try:
        return spec.make_policy(text)
    except InputError as exc:
        if _REFERENCE.fullmatch(text):
            raise InputError(f"{exc}; nor is {text!r} an importable module:object (no module "
                             f"named {text.partition(':')[0]!r})") from None
        raise


def resolve_policy(game: str, spec):
    """A line-up entry of `game` as the runner takes it: a Policy (built-in, bundled
    `tuned-<N>p` or tuned-policy file), or a Python agent given as an object or
    `module:object`."""
    from .registry import get_game

    return policy_or_agent(get_game(game), spec)


def agent_rng(seed: int, game: int, seat: int) -> np.random.Generator:
    """The generator of the agent at `seat` in game `game` of the run keyed by `seed`."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, seat)))


# ---------------------------------------------------------------- the step driver


def new_game(game: str, config, seed: int, index: int, policies, rotate_seats: bool):
    """Game `index` of the run, the agents' places held by the game's default policy (which
    never moves for them)."""
    from .registry import get_game

    spec = get_game(game)
    if spec.step is None:
        raise InputError(f"{game} has no step API (GameSpec.step), so an outside agent cannot "
                         "play it; give built-in policies")
    builtin = [spec.make_policy(spec.default_policy) if is_agent(p) else p for p in policies]
    return spec.step(config, seed=seed, game=index, policies=builtin, rotate_seats=rotate_seats)


def _code(choice) -> int | None:
    """An agent's answer as an action code: an action object, or an integer."""
    code = getattr(choice, "code", choice)
    if isinstance(code, bool) or not isinstance(code, int | np.integer):
        return None
    return int(code)


def agent_move(game, agent: UserAgent, seat: int, index: int, rng):
    """Ask `agent` at `seat` for its move in game `index`; an exception or an illegal answer
    is an AgentError naming the agent, the seat and the game."""
    legal = game.legal_actions()
    choice = agent.act(game.observation(seat), legal, rng, f" (game {index}, seat {seat + 1})")
    code = _code(choice)
    codes = [_code(a) for a in legal]
    if code not in codes:
        shown = ", ".join(f"{game.action_to_string(a)} ({_code(a)})"
                          for a in legal[:SHOWN_LEGAL])
        more = f" and {len(legal) - SHOWN_LEGAL} more" if len(legal) > SHOWN_LEGAL else ""
        raise AgentError(f"seat {seat + 1} (agent {agent.name}, {agent.reference}) chose "
                         f"{_one_line(repr(choice))} in game {index}, not a legal action; "
                         f"legal now: {shown}{more}")
    return legal[codes.index(code)]


def play(game: str, config, policies, seed: int, index: int, rotate_seats: bool):
    """Play game `index` of the run to the end, agents and built-in policies alike; return
    the finished step game and the line-up index at each seat."""
    from .registry import get_game

    g = new_game(game, config, seed, index, policies, rotate_seats)
    seats = seat_policies(get_game(game).players(config), len(policies), index, rotate_seats)
    rngs = {}
    for seat, k in enumerate(seats):
        if is_agent(policies[k]):
            rngs[seat] = agent_rng(seed, index, seat)
            policies[k].reset(f" (game {index}, seat {seat + 1})")
    while not g.is_over():
        seat = g.current_player
        agent = policies[seats[seat]]
        g.apply(agent_move(g, agent, seat, index, rngs[seat]) if is_agent(agent)
                else g.policy_action())
    return g, seats


def _record(record, game, out_i, out_f, row: int, seats) -> None:
    """A finished game's rows, written by the batch kernel's own recorder `record` (so the
    schema is the batch's); Yosemite's, always two seats, takes no config."""
    takes_config = getattr(record, "py_func", record).__code__.co_argcount == 6
    args = (game.state, game.config.to_array()) if takes_config else (game.state,)
    record(*args, out_i, out_f, row, seats)


def play_chunk(task) -> pd.DataFrame:
    """A backend task (see backends.Task) whose line-up holds agents, played game by game
    through the step class; rows as the batch path's. On an AgentError the games finished
    in this chunk travel with it (`finished`)."""
    from .registry import get_game

    spec = get_game(task.game)
    n = spec.players(task.config)
    policies = list(task.policies)
    out_i = np.zeros((task.count * n, len(spec.result_columns)), np.int64)
    out_f = np.zeros(task.count * n)
    for done in range(task.count):
        try:
            game, seats = play(spec.name, task.config, policies, task.seed, task.first + done,
                               task.rotate_seats)
        except AgentError as exc:
            exc.finished = result_table(spec.result_columns, out_i[:done * n], out_f[:done * n],
                                        policies, task.first, n)
            raise
        _record(spec.record, game, out_i, out_f, done * n, seats)
    return result_table(spec.result_columns, out_i, out_f, policies, task.first, n)


class StepBackend:
    """This process, game after game through the step class: the backend of line-ups that
    hold agents (see snapsim.sim.backends for the batch ones)."""

    def run(self, tasks):
        """(task, table) for each task, in order."""
        for task in tasks:
            yield task, play_chunk(task)

    def close(self) -> None:
        """Nothing to release: the games ran in this process."""
