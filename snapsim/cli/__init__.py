"""The `snapsim` command. Every user mistake ends as one line on stderr and exit code 2.

`snapsim --version` answers before any command's module is imported, so it is instant."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from ..version import __version__, commit

# The command groups in `snapsim --help` order. Each module adds its commands to the
# subparsers with `add(sub)`, every command's parser naming the function that runs it
# (`set_defaults(run=...)`); a new command is a module with its own `add`, listed here.
COMMANDS = ("odds", "simulate", "report", "advise", "tune", "ladder", "components", "compare",
            "rebalance", "play", "app", "cache")


def version_text() -> str:
    """`snapsim 0.2.0`, and from a checkout of its source the commit: `snapsim 0.2.0 (git
    1a2b3c4d5e6f)`."""
    head = commit()
    return f"snapsim {__version__} (git {head[:12]})" if head else f"snapsim {__version__}"


def build_parser() -> argparse.ArgumentParser:
    from .common import Parser

    parser = Parser(prog="snapsim", description=__doc__.partition("\n")[0])
    parser.add_argument("--version", action="version", version=version_text(),
                        help="show the version (and git commit) and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        import_module(f"snapsim.cli.{command}").add(sub)
    return parser


def _run(args) -> int | None:
    """The command, under its --move-timeout when it has one (a line-up with agents), and
    with the cache of finished runs off under --no-cache."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        if getattr(args, "move_timeout", None) is not None:
            from ..sim.agents import move_timeout

            stack.enter_context(move_timeout(args.move_timeout))
        if getattr(args, "no_cache", False):
            from ..sim.cache import off

            stack.enter_context(off())
        return args.run(args)


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: the process's); the exit code."""
    if (sys.argv[1:] if argv is None else argv)[:1] == ["--version"]:
        return _version()
    from .common import guarded

    return guarded(lambda: _run(build_parser().parse_args(argv)))


def _version() -> int:
    """Print the version before any command's module is imported (they take seconds); where
    standard output fails (a full disk, a closed pipe), the boundary every command shares
    answers instead."""
    def show() -> None:
        print(version_text(), flush=True)

    try:
        show()
        return 0
    except OSError:
        from .common import guarded

        return guarded(show)
