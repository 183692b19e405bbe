"""The `snapsim` command. Every user mistake ends as one line on stderr and exit code 2."""

from __future__ import annotations

import argparse

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
from .common import Parser, guarded

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


def main(argv: list[str] | None = None) -> int:
    return guarded(lambda: _run(build_parser().parse_args(argv)))
