"""The `snapsim` command. Every user mistake ends as one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import errno
import os
import sys

from ..errors import SnapsimError
from ..version import __version__
from . import (
    advise,
    compare,
    components,
    ladder,
    odds,
    play,
    rebalance,
    report,
    simulate,
    tune,
)
from .common import Parser

# The command groups in `snapsim --help` order. Each module adds its commands to the
# subparsers with `add(sub)`, every command's parser naming the function that runs it
# (`set_defaults(run=...)`); a new command is a module with its own `add`, listed here.
COMMANDS = (odds, simulate, report, advise, tune, ladder, components, compare, rebalance,
            play)


def version_text() -> str:
    """`snapsim 0.1.0`, and from a git checkout its commit: `snapsim 0.1.0 (git 1a2b3c4)`."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        try:
            commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                                    capture_output=True, text=True, timeout=5).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
        if commit:
            return f"snapsim {__version__} (git {commit})"
    return f"snapsim {__version__}"


class _Version(argparse.Action):
    """--version, looking up the commit only when asked."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help="show the version (and git commit) and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="snapsim", description=__doc__)
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add(sub)
    return parser


def _run(args) -> int | None:
    """The command, under its --move-timeout when it has one (a line-up with agents)."""
    if getattr(args, "move_timeout", None) is None:
        return args.run(args)
    from ..sim.agents import move_timeout

    with move_timeout(args.move_timeout):
        return args.run(args)


# what to do about an operating-system error, by its errno
OS_HINTS = {errno.ENOSPC: "free some space or write elsewhere",
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


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code = _run(args)
        _flush_stdout()  # a full disk behind stdout shows here, not at exit
        if code:
            return code
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
    return 0

