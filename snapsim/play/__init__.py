"""`snapsim play`: one seat at the terminal against the built-in players.

Each turn of yours shows what your seat may see (its observation only), the numbered legal
moves in words, and with hints the numbers snapsim can compute for that seat now
(snapsim.play.hints). The other seats' moves are shown in words as the game log writes them.
Type a move's number, or: auto (the built-in greedy policy plays your seat to the end),
hints, save (write the game to a file and play on), quit, help. Ctrl-C or quit offers to
save; a saved game loads and continues exactly as it would have, and `snapsim advise --load`
ranks the moves of its current decision.

A saved game is its settings and the moves played, not the engine's state: loading plays the
moves again from the seed (asking the built-in players again for theirs, which must agree),
so a damaged or edited file is refused in one line instead of reaching the engine, and the
position is exactly the one the rules lead to. A saved game's Python opponents
(``module:object``) are code: loading never imports them unless the person loading names
them again with --opponents.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError
from ..protocol import GameState, game_class
from ..sim.agents import _REFERENCE, UserAgent, agent_move, policy_or_agent
from ..sim.checks import path_arg, whole
from ..sim.files import read_json, write_text
from ..sim.kernel import compile_notice
from ..sim.registry import GameSpec, get_game
from .wins import Budget, Choice, screen_part

File = str | os.PathLike[str]  # a file the player names
Read = Callable[[str], str]  # the prompt's input (input)
Write = Callable[[str], object]  # the screen's output (print)

SAVE_FORMAT = 2
MAX_MOVES = 100_000  # moves in a saved game (a whole game has a few hundred)
MAX_ANSWER = 6  # characters of a move number typed at the prompt
# a ShutterBug trade's tip, seen by the two traders only
PRIVATE = re.compile(r" -> got .*?(?=(?: \(forced\))?$)")
HELP = ("type the number of a move, or: auto (greedy plays your seat to the end), hints (the "
        "numbers for this moment), undo (take back your last move, against built-in players), "
        "save (write the game to a file and play on), quit (offers to save), help")
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
    bots: dict[int, UserAgent] = field(default_factory=dict, repr=False)  # seat -> agent
    moves: list[list[int]] = field(default_factory=list)  # [action id, 1 if a policy chose it]
    budget: Budget = field(default_factory=Budget)  # a hint's rollouts (not saved)

    def apply(self, action: int, by_policy: bool) -> None:
        """Play one move and remember it (a saved game is its moves)."""
        self.game.apply(action)
        self.moves.append([int(action), int(by_policy)])

    @property
    def log(self) -> list[str]:
        """The game's log (a session's game always keeps one)."""
        return self.game.log or []


def _bot(spec: GameSpec, entry: str) -> UserAgent | None:
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
    specs = _opponent_list(opponents, n)
    others = [k for k in range(n) if k != seat - 1]
    bots = {k: b for k, s in zip(others, specs, strict=True)
            if (b := _bot(spec, s)) is not None}
    lineup = [spec.default_policy] * n  # your seat's policy plays it on `auto`
    for k, s in zip(others, specs, strict=True):
        if k not in bots:
            lineup[k] = s
    g = game_class(spec.name)(config, seed=seed, game=0, policies=lineup, rotate_seats=False)
    return Session(spec.name, n, seat - 1, specs, seed, hints, g, bots=bots)


def _opponent_list(opponents: str, n: int) -> list[str]:
    """The other seats' specs, one per seat, from one spec for all or one per seat."""
    specs = [s.strip() for s in str(opponents).split(",") if s.strip()] or ["greedy"]
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise InputError(f"--opponents: give one policy for all or {n - 1} (one per other "
                         f"seat), got {len(specs)}")
    return specs


# ---------------------------------------------------------------- saving


def save(session: Session, path: File) -> None:
    """Write the settings and the moves played as JSON, whole or not at all; never over a
    file that is not a saved game."""
    check_save_file(path)
    body = {"snapsim_play": SAVE_FORMAT, "game": session.game_name,
            "players": session.players, "seat": session.seat + 1,
            "opponents": session.opponents, "seed": session.seed, "hints": session.hints,
            "moves": session.moves, "shown": session.shown}
    write_text(path, json.dumps(body, indent=1))


def _saved_body(path: File) -> dict[str, Any]:
    """The JSON of a saved game (InputError when it is none)."""
    path_arg(path, "--load")
    try:
        body = read_json(path)
    except OSError as exc:
        raise InputError(f"--load {path}: cannot read it ({exc.strerror or exc})") from None
    except ValueError as exc:  # not JSON, not UTF-8
        raise InputError(f"--load {path}: not a saved snapsim game ({exc})") from None
    if not isinstance(body, dict) or "snapsim_play" not in body:
        raise InputError(f"--load {path}: not a saved snapsim game (no snapsim_play entry)")
    if body["snapsim_play"] != SAVE_FORMAT:
        raise InputError(f"--load {path}: saved in format {body['snapsim_play']!r}, not "
                         f"{SAVE_FORMAT}; start a new game")
    return body


def check_save_file(path: File) -> None:
    """A save goes to a new file or over a saved game, never over any other file."""
    p = path_arg(path, "--save")
    if p.is_dir():
        raise InputError(f"--save {path}: is a folder; give a file name")
    if p.exists():
        try:
            _saved_body(p)
        except InputError:
            raise InputError(f"--save {path}: the file exists and is not a saved snapsim game; "
                             "give another file name") from None


def _runs_code(spec: GameSpec, entry: str) -> bool:
    """Whether a saved opponent is a Python agent (code), decided without importing it."""
    try:
        spec.make_policy(entry)
        return False
    except InputError:
        return bool(_REFERENCE.fullmatch(entry))


def load(path: File, game: str | None = None, opponents: str | None = None) -> Session:
    """A saved game, ready to continue exactly where it stopped (of `game`, if given). Its
    moves are played again from the seed, so a damaged file is refused in one line. Python
    opponents it names are imported only when `opponents` names them again."""
    body = _saved_body(path)
    try:
        name, players, seat = body["game"], body["players"], body["seat"]
        saved, seed, hints = body["opponents"], body["seed"], body["hints"]
        moves, shown = body["moves"], body["shown"]
        if not isinstance(name, str) or not isinstance(hints, bool) or \
                not isinstance(saved, list) or not all(isinstance(s, str) for s in saved):
            raise ValueError("a setting has the wrong kind")
        whole(players, "players", 1, 100)
        whole(seed, "seed", 0)
        whole(shown, "shown", 0)
        if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(
                isinstance(m, list) and len(m) == 2 and all(
                    isinstance(x, int) and not isinstance(x, bool) for x in m) for m in moves):
            raise ValueError("moves must be a list of [action, 0 or 1] pairs")
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"--load {path}: not a saved snapsim game ({exc})") from None
    spec = get_game(name)
    if game is not None and spec.name != get_game(game).name:
        raise InputError(f"--load {path} holds a {spec.name} game, not {game}")
    if opponents is None:
        code = [s for s in saved if _runs_code(spec, s)]
        if code:
            raise InputError(f"--load {path}: its opponents include the Python agent "
                             f"{code[0]}, which runs code; to continue, name the opponents "
                             f"yourself: --opponents {','.join(saved)}")
    elif _opponent_list(opponents, len(saved) + 1) != saved:
        raise InputError(f"--load {path}: --opponents must be the saved game's own, "
                         f"{','.join(saved)}")
    session = new_session(spec.name, players, seat, ",".join(saved), seed, hints)
    _replay(session, moves, path)
    session.shown = min(shown, len(session.log))
    return session


def _replay(session: Session, moves: list[list[int]], path: File) -> None:
    """Play the saved moves again; one that is not legal, or a built-in player's move it
    would not make, means the file was damaged or edited."""
    g = session.game
    for k, (code, by_policy) in enumerate(moves):
        if g.is_terminal or code not in set(g.legal_action_ids().tolist()) or (
                by_policy and int(g.policy_action()) != code):
            raise InputError(f"--load {path}: move {k + 1} of {len(moves)} cannot be played "
                             "there (the file is damaged or was edited); start a new game")
        session.apply(code, bool(by_policy))


# ---------------------------------------------------------------- showing


def view(session: Session) -> str:
    """What your seat sees now, in plain words (the game's table view, which reads only your
    seat's observation), the running scores and the game's own board lines (a map)."""
    g = session.game
    lines = [f"--- you are P{session.seat + 1} ---"]
    lines += [f"  {line}" for line in g.table_view(session.seat)]
    lines.append(f"  {running_scores(session)}")
    board = screen_part(g, "board")
    if board is not None:
        lines += [f"  {line}" for line in board(g, session.seat)]
    return "\n".join(lines)


def running_scores(session: Session) -> str:
    """The score sheet so far, your parts in full: what play has scored (photographs taken,
    awards won), all of it public; what the game's end scores (assignments, judges) is not
    in it yet."""
    sheet = session.game.scores()
    parts = [c for c in sheet.columns if c not in ("seat", "score", "won", "tokens", "quality")]
    mine = sheet.iloc[session.seat]
    seats = ", ".join(f"{'you' if p == session.seat else f'P{p + 1}'} {int(sheet.score[p])}"
                      for p in range(len(sheet)))
    yours = ", ".join(f"{c.replace('_', ' ')} {int(mine[c])}" for c in parts)
    return f"score so far: {seats} (yours: {yours}; end-of-game scoring comes on top)"


def choices(game: GameState) -> list[tuple[list[int], list[int]]]:
    """The moves on screen, each (the step actions to play, those and the forced ones they
    bring: what the move does): one action, or where the rules make one choice of several
    step decisions (`GameState.mid_move`, e.g. a re-roll's tokens), every complete sequence
    of them once. The step API keeps its own granularity."""
    out: list[tuple[list[int], list[int]]] = []

    def extend(twin: GameState, chosen: list[int], done: list[int]) -> None:
        if twin.is_terminal or twin.current_player != game.current_player or \
                not twin.mid_move():
            out.append((chosen, done))
            return
        for code in twin.legal_action_ids().tolist():
            nxt = twin.clone()
            nxt.apply(code)
            extend(nxt, chosen + [code], done + nxt.played)

    for code in game.legal_action_ids().tolist():
        twin = game.clone()
        twin.log = None
        twin.apply(code)
        extend(twin, [code], list(twin.played))
    return out


def menu(session: Session, moves: list[Choice]) -> str:
    """The numbered moves, each kind's one-line rule under its first move, and why a move
    the player may expect is not among them."""
    g = session.game
    rules = screen_part(g, "REMINDERS") or {}
    lines, told = [], set()
    for i, (chosen, done) in enumerate(moves):
        lines.append(f"  {i + 1:>2}. {g.choice_to_string(chosen, done)}")
        kind = g.decode(chosen[0]).kind
        if kind in rules and kind not in told:
            told.add(kind)
            lines.append(f"      ({rules[kind]})")
    lines += [f"  not available: {why}" for why in unavailable(session, moves)]
    return "\n".join(lines)


def unavailable(session: Session, moves: list[Choice]) -> list[str]:
    """Why a move the rules have is not offered now, in the game's own words (its screen's
    `unavailable`; none where the game gives none)."""
    g, why = session.game, screen_part(session.game, "unavailable")
    if why is None:
        return []
    return why(g, session.seat, {g.decode(chosen[0]).kind for chosen, _ in moves})


def _restart(session: Session) -> Session:
    """The session's game from its start: the same game, seats, opponents, seed and hints."""
    return new_session(session.game_name, session.players, session.seat + 1,
                       ",".join(session.opponents), session.seed, session.hints)


def undo(session: Session) -> str:
    """Take back your last move (a whole choice: every step action of it) and the other
    seats' moves after it, by playing the game again from the seed without them: in a game
    against built-in players only, whose moves replay as they were."""
    if session.bots:
        return "undo is for games against built-in players only (a Python agent's moves " \
               "may not replay)"
    fresh = _restart(session)
    g, mine, continues = fresh.game, [], []
    for code, by_policy in session.moves:
        mine.append(g.current_player == session.seat and not by_policy)
        continues.append(g.mid_move())
        fresh.apply(code, bool(by_policy))
    if not any(mine):
        return "nothing to undo: you have not moved yet"
    k = max(i for i, m in enumerate(mine) if m)
    while k > 0 and continues[k] and mine[k - 1]:
        k -= 1
    again = _restart(session)
    for code, by_policy in session.moves[:k]:
        again.apply(code, bool(by_policy))
    taken = len(session.moves) - k
    session.game, session.moves = again.game, again.moves
    session.shown = len(again.log)
    return f"undone: {taken} step move(s) taken back, your last and the others' after it"


@contextmanager
def preparing(game: str, say: Write) -> Iterator[None]:
    """Within the block, a first game's compile of the game engine is announced once, with
    how long it takes (`sim.kernel.compile_notice`); later games load it from the cache."""
    seconds = game_class(get_game(game).name).PREPARE_SECONDS
    with compile_notice(f"preparing the game engine, about {seconds} s on an idle machine "
                        "(longer while it is busy), once (later games start at once)", say):
        yield


# ---------------------------------------------------------------- playing


def _ask(prompt: str, read: Read) -> str | None:
    """A line from the player; None at the end of input."""
    try:
        return read(prompt).strip()
    except EOFError:
        return None


def offer_save(session: Session, default: File | None, read: Read, write: Write) -> None:
    """Ask where to save (Enter: `default`, or do not save when there is none)."""
    hint = f"Enter: {default}" if default else "Enter: do not save"
    answer = _ask(f"save the game to ({hint}): ", read)
    path = answer or default
    if not path:
        write("not saved")
        return
    try:
        save(session, path)
    except InputError as exc:
        write(f"not saved: {exc}")
        return
    except OSError as exc:
        write(f"cannot save to {path} ({exc.strerror or exc}); not saved")
        return
    write(f"saved to {path}; continue with: snapsim play {session.game_name} --load {path}")


def _opponent_move(session: Session, seat: int) -> None:
    """Another seat's move: its built-in policy's, or its Python agent's (contained, and
    checked to be legal)."""
    g, bot = session.game, session.bots.get(seat)
    if bot is None:
        session.apply(g.policy_action(), by_policy=True)
        return
    # a Python agent's generator: from the seed, seat and moves so far
    rng = np.random.default_rng(np.random.SeedSequence(session.seed,
                                                       spawn_key=(seat, len(session.log))))
    session.apply(agent_move(g, bot, seat, 0, rng), by_policy=False)


def _show_log(session: Session, write: Write) -> None:
    """The moves since the last look; what another seat got in a trade stays hidden."""
    mine = f"P{session.seat + 1}:"
    for line in session.log[session.shown:]:
        write(f"  {line if mine in line else PRIVATE.sub('', line)}")
    session.shown = len(session.log)


def play(session: Session, read: Read = input, write: Write = print,
         save_to: File | None = None) -> int:
    """Play to the end, or until quit or Ctrl-C (both offer to save); the exit code."""
    try:
        return _play(session, read, write, save_to)
    except KeyboardInterrupt:
        write("")
        offer_save(session, save_to, read, write)
        return 130


def _play(session: Session, read: Read, write: Write, save_to: File | None) -> int:
    from .hints import hints

    g = session.game
    while not g.is_terminal:
        _show_log(session, write)
        seat = g.current_player
        if seat != session.seat:
            _opponent_move(session, seat)
            continue
        if session.auto:
            session.apply(g.policy_action(), by_policy=True)
            continue
        legal = choices(g)
        write(view(session))
        if session.hints:
            write(hints(g, seat, session.budget, session.seed, legal))
        write(menu(session, legal))
        while True:
            answer = _ask(f"P{seat + 1} move [1-{len(legal)}, auto, hints, undo, save, quit, "
                          "help]: ", read)
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                offer_save(session, save_to, read, write)
                return 0
            if answer.lower() in ("a", "auto"):
                session.auto = True
                write(f"{g.policies[seat].name} plays P{seat + 1} from here")
                break
            if answer.lower() in ("h", "hints"):
                write(hints(g, seat, session.budget, session.seed, legal))
                continue
            if answer.lower() in ("s", "save"):
                offer_save(session, save_to, read, write)
                continue
            if answer.lower() in ("u", "undo"):
                said = undo(session)
                write(said)
                if said.startswith("undone"):
                    g = session.game
                    break
                continue
            # ASCII digits only: int() reads some other digits ('١') and fails on others ('²')
            if answer.isascii() and answer.isdigit() and len(answer) <= MAX_ANSWER and \
                    1 <= int(answer) <= len(legal):
                for code in legal[int(answer) - 1][0]:
                    session.apply(code, by_policy=False)
                break
            if answer.lower() not in ("?", "help"):
                shown = answer if len(answer) <= 20 else answer[:17] + "..."
                write(f"{shown!r} is not a move here: {HELP}")
            else:
                write(HELP)
    _show_log(session, write)
    write("game over")
    write(g.scores().to_string(index=False))
    write(f"you were P{session.seat + 1}")
    return 0
