"""The one range check for every number a user gives: command-line flags, rule knobs, policy
parameters, sweep, situation and component files. A bad value is one InputError line naming
it, its allowed range and what was given, so nothing out of range reaches a kernel (where an
int64 would overflow or a loop would run for hours)."""

from __future__ import annotations

import math
import tempfile
from numbers import Integral, Real
from os import PathLike
from pathlib import Path

from ..errors import InputError

INT64_MAX = 2**63 - 1
# Games of one run held in memory: about 1 KB each (a row per seat), so a few GB at most;
# more are streamed to a dataset folder (snapsim.run, the CLI's --out DIR).
MAX_IN_MEMORY_GAMES = 2_000_000
# Seconds a Python agent may take for one move before the run stops (snapsim.sim.agents).
MOVE_TIMEOUT = 60.0
MAX_MOVE_TIMEOUT = 86_400.0  # a day: a longer limit is none (0), and the system timer overflows
MAX_WORKERS = 1024  # threads or processes of one run: more than any machine runs


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _span(lo, hi) -> str:
    if lo is not None and hi is not None:
        return f" from {lo} to {hi}"
    if lo is not None:
        return f" >= {lo}"
    return f" <= {hi}" if hi is not None else ""


def whole(value, name: str, lo: int | None = None, hi: int | None = None, *,
          hint: str = "") -> int:
    """`value` as an int when it is a whole number (not a bool, not 2.0) in lo..hi; no upper
    bound still means one that fits an int64. Else an InputError naming `name`, the range,
    the value given and `hint` (how to fix it)."""
    ok = isinstance(value, Integral) and not isinstance(value, bool)
    if ok and abs(int(value)) > INT64_MAX and hi is None:
        hi = INT64_MAX
    if ok:
        value = int(value)
        ok = (lo is None or value >= lo) and (hi is None or value <= hi)
    if not ok:
        raise InputError(f"{name} must be a whole number{_span(lo, hi)}, got "
                         f"{_shown(value)}{hint}")
    return value


def number(value, name: str, lo: float | None = None, hi: float | None = None, *,
           hint: str = "") -> float:
    """`value` as a float when it is a finite real number (not a bool, not NaN) in lo..hi;
    else an InputError naming `name`, the range, the value given and `hint`."""
    ok = isinstance(value, Real) and not isinstance(value, bool)
    if ok:
        try:
            value = float(value)
        except OverflowError:  # an int beyond any float
            ok = False
    if ok:
        ok = math.isfinite(value) and (lo is None or value >= lo) and (hi is None or value <= hi)
    if not ok:
        raise InputError(f"{name} must be a finite number{_span(lo, hi)}, got "
                         f"{_shown(value)}{hint}")
    return value


def flag(value, name: str) -> bool:
    """`value` when it is true or false; otherwise an InputError naming `name`."""
    if not isinstance(value, bool):
        raise InputError(f"{name} must be true or false, got {_shown(value)}")
    return value


def path_arg(value, name: str) -> Path:
    """A file or folder argument as a Path: a string or path object, nothing else."""
    if isinstance(value, bool) or not isinstance(value, str | PathLike):
        raise InputError(f"{name} must be a file or folder path, got {_shown(value)}")
    if not str(value).strip():
        raise InputError(f"{name} is empty: give a path")
    return _named(value, name)


def _named(path, name: str) -> Path:
    """`path` as a Path, unless it holds a NUL character: the system takes no such name
    (and Python's calls then raise ValueError, not OSError)."""
    if "\0" in str(path):
        raise InputError(f"{name} holds a NUL character (\\0), which no path may hold")
    return Path(path).expanduser()


def out_folder(path, name: str = "--out") -> Path:
    """Make sure files can be written in the output folder `path` (made later, by the writer)
    before any work is done; nothing is created or changed. A file in the way or an
    unwritable place is one InputError."""
    folder = _named(path, name)
    if not str(path).strip():
        raise InputError(f"{name} is empty: give a folder name")
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{name} {str(path)!r} is a file, not a folder; give a folder name")
    existing = folder
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(f"{name} {str(path)!r}: {str(existing)!r} is a file, not a folder; "
                         "give a folder name")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        raise InputError(f"{name} {str(path)!r}: cannot write there ({exc.strerror or exc}); "
                         "choose a writable folder") from None
    return folder


def out_file(path, name: str = "--out"):
    """Make sure the output file `path` can be written (its missing folders are made when it
    is), before any work is done; nothing is created or changed."""
    file = _named(path, name)
    if file.is_dir():
        raise InputError(f"{name} {str(path)!r} is a folder; give a file name")
    if file.exists() and not file.is_file():
        raise InputError(f"{name} {str(path)!r} is not a regular file; give a file name")
    out_folder(file.parent, name)
    return file


def entries(value, name: str, split: bool = True) -> list:
    """A list argument as a list: a list or tuple as given, one string as the command line
    reads it (comma-separated with `split`, e.g. "greedy" or "greedy,random"; else one
    entry, e.g. a file path), and any other single value as a list of one. A string is never
    taken letter by letter."""
    if isinstance(value, str):
        items = [s.strip() for s in value.split(",")] if split else [value.strip()]
        items = [s for s in items if s]
        if not items:
            raise InputError(f"{name} is empty; give at least one entry or leave it out")
        return items
    if isinstance(value, list | tuple | range) or type(value).__name__ == "ndarray":
        return list(value)
    if isinstance(value, dict | set | frozenset):
        raise InputError(f"{name} must be a list, got a {type(value).__name__}")
    return [value]


def mapping(value, name: str, what: str) -> dict:
    """A mapping argument as a dict (None: empty); a list, a string or a file path where a
    mapping belongs is an InputError saying what goes there."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{name} must be a mapping of {what}, got {_shown(value)}")
    return dict(value)
