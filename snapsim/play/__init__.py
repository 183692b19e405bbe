"""`snapsim play`: one seat at the terminal against the built-in players.

Each turn of yours shows what your seat may see (its observation only), the numbered legal
moves in words, and with hints the numbers snapsim can compute for that seat now
(snapsim.play.hints). The other seats' moves are shown in words as the game log writes them.
Type a move's number, or: auto (the built-in greedy policy plays your seat to the end),
hints, quit, help. Ctrl-C or quit offers to save; a saved game loads and continues exactly as
it would have (the position and the random streams are saved).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..protocol import GameState, game_class
from ..sim.agents import UserAgent, policy_or_agent
from ..sim.registry import get_game

SAVE_FORMAT = 1
# a ShutterBug trade's tip, seen by the two traders only
PRIVATE = re.compile(r" -> got .*?(?=(?: \(forced\))?$)")
HELP = ("type the number of a move, or: auto (greedy plays your seat to the end), hints (the "
        "numbers for this moment), quit (offers to save), help")


@dataclass
class Session:
    """A game at the terminal: the settings that rebuild it, and the game itself."""

    game_name: str
    players: int
    seat: int  # 0-based; shown as P{seat + 1}
    opponents: list[str]
    seed: int
    hints: bool
    game: GameState = field(repr=False)
    shown: int = 0  # log lines already printed
    auto: bool = False
    bots: dict = field(default_factory=dict, repr=False)  # seat -> Python agent


def _bot(spec, entry: str):
    """An opponent that is not a built-in policy: a Python agent (module:object); None for a
    built-in policy."""
    found = policy_or_agent(spec, entry)
    return found if isinstance(found, UserAgent) else None


def new_session(game: str, players: int | None = None, seat: int = 1, opponents: str = "greedy",
                seed: int = 0, hints: bool = False) -> Session:
    """A fresh game: you at `seat` (1-based), `opponents` (one policy spec for all, or one per
    other seat, comma-separated) elsewhere."""
    spec = get_game(game)
    config = spec.make_config(**({"players": players} if players is not None else {}))
    n = spec.players(config)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= n:
        raise InputError(f"--seat must be 1-{n} for {n} players, got {seat!r}")
    specs = [s.strip() for s in str(opponents).split(",") if s.strip()] or ["greedy"]
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise InputError(f"--opponents: give one policy for all or {n - 1} (one per other "
                         f"seat), got {len(specs)}")
    others = [k for k in range(n) if k != seat - 1]
    bots = {k: b for k, s in zip(others, specs, strict=True)
            if (b := _bot(spec, s)) is not None}
    lineup = [spec.default_policy] * n  # your seat's policy plays it on `auto`
    for k, s in zip(others, specs, strict=True):
        if k not in bots:
            lineup[k] = s
    g = game_class(spec.name)(config, seed=seed, game=0, policies=lineup, rotate_seats=False)
    return Session(spec.name, n, seat - 1, specs, seed, hints, g, bots=bots)


# ---------------------------------------------------------------- saving


def save(session: Session, path) -> None:
    """Write the settings and the position (state and random streams) as JSON."""
    g = session.game
    body = {"snapsim_play": SAVE_FORMAT, "game": session.game_name,
            "players": session.players, "seat": session.seat + 1,
            "opponents": session.opponents, "seed": session.seed, "hints": session.hints,
            "position": g.serialize().decode(), "log": g.log, "shown": session.shown}
    Path(path).write_text(json.dumps(body, indent=1))


def load(path, game: str | None = None) -> Session:
    """A saved game, ready to continue exactly where it stopped (of `game`, if given)."""
    try:
        body = json.loads(Path(path).read_text())
        if body.get("snapsim_play") != SAVE_FORMAT:
            raise ValueError("not a snapsim play file")
        session = new_session(body["game"], body["players"], body["seat"],
                              ",".join(body["opponents"]), body["seed"], body["hints"])
        session.game.deserialize(body["position"])
        session.game.log[:] = body["log"]
        session.shown = int(body["shown"])
    except OSError as exc:
        raise InputError(f"--load {path}: cannot read it ({exc.strerror})") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(f"--load {path}: not a saved snapsim game ({exc})") from None
    if game is not None and session.game_name != get_game(game).name:
        raise InputError(f"--load {path} holds a {session.game_name} game, not {game}")
    return session


# ---------------------------------------------------------------- showing


def _value(value, players: int) -> str:
    """An observation value on one line: per-seat lists as P1..Pn, tables as key: value."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v, players)}" for k, v in value.items()) or "-"
    if isinstance(value, list | tuple):
        if len(value) == players and all(isinstance(v, list | dict) for v in value):
            return " | ".join(f"P{i + 1}: {_value(v, players)}" for i, v in enumerate(value))
        return ", ".join(_value(v, players) for v in value) or "-"
    return "-" if value is None else str(value)


def view(session: Session) -> str:
    """What your seat sees now (its observation, nothing else), one line per item."""
    obs = session.game.observation(session.seat)
    lines = [f"--- you are P{session.seat + 1} ---"]
    for key, value in obs.items():
        if key == "player":
            continue
        if key == "current_player":
            value = f"P{value + 1}"
        if key == "park":  # Yosemite's 5x5 board: one line per row
            lines.append("  park:")
            lines += [f"    {'abcde'[r]}  " + " | ".join(t or "." for t in row)
                      for r, row in enumerate(value)]
            continue
        lines.append(f"  {key.replace('_', ' ')}: {_value(value, session.players)}")
    return "\n".join(lines)


def menu(session: Session, legal) -> str:
    return "\n".join(f"  {i + 1:>2}. {session.game.action_to_string(a)}"
                     for i, a in enumerate(legal))


# ---------------------------------------------------------------- playing


def _ask(prompt: str, read) -> str | None:
    """A line from the player; None at the end of input."""
    try:
        return read(prompt).strip()
    except EOFError:
        return None


def offer_save(session: Session, default, read, write) -> None:
    """Ask where to save (Enter: `default`, or do not save when there is none)."""
    hint = f"Enter: {default}" if default else "Enter: do not save"
    answer = _ask(f"save the game to ({hint}): ", read)
    path = answer or default
    if not path:
        write("not saved")
        return
    try:
        save(session, path)
    except OSError as exc:
        write(f"cannot save to {path} ({exc.strerror}); not saved")
        return
    write(f"saved to {path}; continue with: snapsim play {session.game_name} --load {path}")


def _opponent_move(session: Session, seat: int):
    g, bot = session.game, session.bots.get(seat)
    if bot is None:
        return g.policy_action()
    # a Python agent's generator: from the seed, seat and moves so far
    rng = np.random.default_rng(np.random.SeedSequence(session.seed, spawn_key=(seat, len(g.log))))
    return bot.act(g.observation(seat), g.legal_actions(), rng)


def _show_log(session: Session, write) -> None:
    """The moves since the last look; what another seat got in a trade stays hidden."""
    mine = f"P{session.seat + 1}:"
    for line in session.game.log[session.shown:]:
        write(f"  {line if mine in line else PRIVATE.sub('', line)}")
    session.shown = len(session.game.log)


def play(session: Session, read=input, write=print, save_to=None) -> int:
    """Play to the end, or until quit or Ctrl-C (both offer to save); the exit code."""
    try:
        return _play(session, read, write, save_to)
    except KeyboardInterrupt:
        write("")
        offer_save(session, save_to, read, write)
        return 130


def _play(session: Session, read, write, save_to) -> int:
    from .hints import hints

    g = session.game
    while not g.is_terminal:
        _show_log(session, write)
        seat = g.current_player
        if seat != session.seat or session.auto:
            g.apply(_opponent_move(session, seat) if seat != session.seat
                    else g.policy_action())
            continue
        legal = g.legal_actions()
        write(view(session))
        if session.hints:
            write(hints(g, seat))
        write(menu(session, legal))
        while True:
            answer = _ask(f"P{seat + 1} move [1-{len(legal)}, auto, hints, quit]: ", read)
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                offer_save(session, save_to, read, write)
                return 0
            if answer.lower() in ("a", "auto"):
                session.auto = True
                write(f"{g.policies[seat].name} plays P{seat + 1} from here")
                break
            if answer.lower() in ("h", "hints"):
                write(hints(g, seat))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                g.apply(legal[int(answer) - 1])
                break
            if answer.lower() not in ("?", "help"):
                write(f"{answer!r} is not a move here: {HELP}")
            else:
                write(HELP)
    _show_log(session, write)
    write("game over")
    write(g.scores().to_string(index=False))
    write(f"you were P{session.seat + 1}")
    return 0
