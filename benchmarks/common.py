"""Shared by the benchmark scripts (run from the repository root: python benchmarks/X.py)."""

import argparse
import sys


def bounded(kind, lo, hi):
    """An argparse type: a `kind` number from lo to hi."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is not from {lo} to {hi}")
        return value
    return parse


class Parser(argparse.ArgumentParser):
    """Bad input is one line naming the script, and exit status 2."""

    def error(self, message):
        print(f"{self.prog.removesuffix('.py')}: {message}", file=sys.stderr)
        raise SystemExit(2)
