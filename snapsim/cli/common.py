"""What the commands share: the error boundary, the one-line-error parser, number and policy
lists, rule knobs, output tables and backend sizes."""

from __future__ import annotations

import argparse
import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import InputError, SnapsimError
from ..sim.checks import MAX_WORKERS, MOVE_TIMEOUT, whole

if TYPE_CHECKING:  # pandas is imported by the commands that make tables, when they run
    import pandas as pd

# what to do about an operating-system error, by its errno
OS_HINTS: dict[int | None, str] = {errno.ENOSPC: "free some space or write elsewhere",
            errno.EDQUOT: "free some space or write elsewhere",
            errno.EFBIG: "the system allows no larger file there; write elsewhere",
            errno.EROFS: "the place is read-only; write elsewhere",
            errno.EACCES: "choose a place you may write to",
            errno.EPERM: "choose a place you may write to",
            errno.EMFILE: "too many open files; raise the limit (ulimit -n)",
            errno.EIO: "the device failed; check it or write elsewhere"}


def os_error_line(exc: OSError) -> str:
    """An operating-system error as one line: what failed, where, and what to do."""
    what = exc.strerror or str(exc) or type(exc).__name__
    where = f" ({exc.filename})" if exc.filename else ""
    hint = OS_HINTS.get(exc.errno, "check the path and try again")
    return f"{what}{where}; {hint}"


def _silence_stdout() -> None:
    """Standard output cannot take more (closed pipe, full disk): send what is still
    buffered nowhere, so the interpreter's flush at exit does not fail a second time."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        exc.filename = exc.filename or "standard output"
        raise


def guarded(call: Callable[[], int | None]) -> int:
    """Run a command (`call()` returns its exit code or None) at the boundary every snapsim
    command shares: a user's mistake or an operating-system error is one line on stderr and
    exit code 2, Ctrl-C exit code 130, a closed output pipe no error at all."""
    try:
        code = call()
        _flush_stdout()  # a full disk behind stdout shows here, not at exit
        return code or 0
    except SnapsimError as exc:
        print(f"snapsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("snapsim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        _silence_stdout()
        return 0
    except OSError as exc:  # a full disk, a read-only place, a device error: one line
        try:
            sys.stdout.flush()
        except OSError:
            _silence_stdout()
        print(f"snapsim: error: {os_error_line(exc)}", file=sys.stderr)
        return 2


class Help(argparse.ArgumentDefaultsHelpFormatter):
    """Every flag's help ends with its default, unless the text already names it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if ("default" in text.lower() or action.default in (None, argparse.SUPPRESS)
                or action.default is False or action.default == []):
            return text
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line (no usage dump) with exit code 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see `{self.prog} --help`)")

    def parse_known_args(  # type: ignore[override]  # typeshed's three overloads by namespace
            self, args: Iterable[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse, refusing a blank value given to any flag or argument (`--out ''`) and a NUL
        character in any (no path or name the system takes holds one)."""
        ns, rest = super().parse_known_args(args, namespace)
        for action in self._actions:
            value = getattr(ns, action.dest, None)
            if value is action.default:
                continue
            texts = [v for v in (value if isinstance(value, list) else [value])
                     if isinstance(v, str)]
            name = action.option_strings[-1] if action.option_strings else action.dest
            if any(not v.strip() for v in texts):
                self.error(f"{name} is empty: give a value or leave it out")
            if any("\0" in v for v in texts):
                self.error(f"{name} holds a NUL character (\\0), which no path or name may "
                           "hold")
        return ns, rest


COMPONENT_FORMATS = ".toml, .csv or .xlsx"  # every reader of a component file takes them
COMPONENTS_HELP = f"component file: {COMPONENT_FORMATS} (default: the bundled one)"


@functools.cache
def game_help() -> str:
    """The game argument's help: the games the registry lists, found without importing any
    (the parser stays light), so a game added or installed is listed with no edit here."""
    from ..sim.registry import known_games

    *most, last = known_games()
    return f"game name: {', '.join(most)} or {last}" if most else f"game name: {last}"


MAX_LIST = 1000  # numbers in one list (a table of more rows is never what was meant)


def policy_list(text: str | None) -> list[str] | None:
    """--policies as a list of specs (None when the flag is not given)."""
    if text is None:
        return None
    specs = [p for p in (s.strip() for s in text.split(",")) if p]
    if not specs:
        raise InputError("--policies is empty: give policy specs, e.g. greedy,random, or leave "
                         "--policies out")
    return specs


def int_list(text: str) -> list[int]:
    """Parse "2", "1-3" or "0,2,4-6" into a list of at most MAX_LIST integers."""
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            if sep and lo:
                a, b = int(lo), int(hi)
                if b < a:
                    raise ValueError
                out.extend(range(a, min(b, a + MAX_LIST) + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise InputError(f"{text!r} is not a number list; write e.g. 2 or 1-3 or 0,2,4-6") \
                from None
    if len(out) > MAX_LIST:
        raise InputError(f"{text!r} lists more than {MAX_LIST} numbers; at most {MAX_LIST} "
                         "fit in one list")
    return out


def emit(df: pd.DataFrame, fmt: str, title: str = "",
         extra: dict[str, object] | None = None) -> None:
    if fmt == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif fmt == "json":
        payload = {"rows": json.loads(df.to_json(orient="records", double_precision=15))}
        if extra:
            payload = {**extra, **payload}
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        if title:
            print(title)
        for k, v in (extra or {}).items():
            print(f"  {k}: {v:.6g}" if isinstance(v, float) else f"  {k}: {v}")
        print(df.to_string(index=False, float_format=lambda x: f"{x:.4f}"))


def parse_knob(text: str) -> tuple[str, object]:
    """`--set name=value`: value read as bool, int, float or a comma list of ints."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key or not raw:
        raise InputError(f"--set {text!r}: write NAME=VALUE, e.g. --set photo_target=8")
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return key, True
    if low in ("false", "no", "off"):
        return key, False
    if "," in raw:
        return key, tuple(int_list(raw))
    for cast in (int, float):
        try:
            return key, cast(raw)
        except ValueError:
            pass
    raise InputError(f"--set {text!r}: {raw!r} is not a number, true/false or number list")


def read_knobs(args: argparse.Namespace) -> dict[str, object]:
    from ..sim import get_game

    knobs = dict(parse_knob(t) for t in args.set)
    if "players" in knobs:
        raise InputError("--set players=...: the player count is --players, not a rule knob")
    if getattr(args, "components", None):  # a variant file: its [knobs] are played too
        get_game(args.game)  # an unknown game is named before the file
        knobs["components"] = args.components
    return knobs


def add_move_timeout(p: argparse.ArgumentParser) -> None:
    """--move-timeout, for every command whose line-up may hold a Python agent."""
    p.add_argument("--move-timeout", type=float, default=MOVE_TIMEOUT, metavar="SECONDS",
                   help="seconds a Python agent (module:object) may take for one move before "
                        f"the run stops, naming it; 0: no limit (default: {MOVE_TIMEOUT:g})")


def check_backend_sizes(args: argparse.Namespace) -> None:
    """Threads and worker processes: at least one, and not more than any machine runs."""
    for name in ("threads", "workers"):
        if getattr(args, name, None) is not None:
            whole(getattr(args, name), f"--{name}", 1, MAX_WORKERS)


def add_no_cache(p: argparse.ArgumentParser) -> None:
    """--no-cache, for every command that reuses finished runs (sim/cache.py)."""
    p.add_argument("--no-cache", action="store_true",
                   help="play every run, neither reading nor filling the cache of finished "
                        "runs (default: reuse a run played before with the same game, "
                        "components, knobs, policies, seed, games and snapsim source, and a "
                        "whole report or guide made before with the same settings)")


def add_tolerance(p: argparse.ArgumentParser) -> None:
    """The --tolerance flag of every command that gives the verdict "is the game balanced?"."""
    p.add_argument("--tolerance", action="append", default=[], metavar="NAME=VALUE",
                   help="the verdict's tolerance of one balance measure (repeatable; "
                        "seat_spread: best minus worst seat's win rate, pp; first_player and "
                        "assignments: distance of a win rate from the fair share, pp; cards: "
                        "typical distance of the card values from their habitat's median "
                        "(root mean square beyond sampling noise), %%; "
                        "length=A-B: the designer's range of game length, only when given; "
                        "default: seat_spread=2, first_player=2, assignments=2, cards=10)")


def add_smallest(p: argparse.ArgumentParser) -> None:
    """The --smallest-effect flag of every command that classes or labels findings."""
    p.add_argument("--smallest-effect", action="append", default=[], metavar="KIND=VALUE",
                   help="smallest effect of interest a finding is classed against (repeatable; "
                        "KIND: rate (pp of a win rate), points, rounds, turns, relative (%% of "
                        "the reference, for per-card values and counts); default: rate=2, "
                        "points=0.5, rounds=0.25, turns=0.5, relative=10)")
