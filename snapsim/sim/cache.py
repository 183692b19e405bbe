"""A cache of finished runs, so that a report, a comparison or a rebalance run again reuses
the games it already played.

A run is stored under the SHA-256 of everything that makes its table: the game, the config
(rule knobs and the components' content), the policies with their parameters, the seed, the
number of games, the rotation of seats, the snapsim version and the source of every module
that plays a game (`KERNEL_SOURCES`, with the numba and numpy versions): a change to any of
them is another key, so a run is never served across a version or a kernel-source change.
Each run is one Parquet file in the user cache folder ($SNAPSIM_CACHE_DIR, else
$XDG_CACHE_HOME/snapsim/runs, else ~/.cache/snapsim/runs), written to a temporary name and
renamed into place (two processes may write the same run: both write the same table), kept
under $SNAPSIM_CACHE_MB megabytes (default 2,048) by removing the least recently used. A
file that cannot be read, or holds another key or another number of rows, is removed and
the run played again: the cache only ever saves time.

Runs of Python agents are not cached (their code is not part of the key).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from ..version import __version__

if TYPE_CHECKING:
    import pandas as pd

DIR_ENV = "SNAPSIM_CACHE_DIR"
SIZE_ENV = "SNAPSIM_CACHE_MB"
DEFAULT_MB = 2048
SUFFIX = ".parquet"
KEY_FIELD = b"snapsim.run_key"  # the key a file was stored under, in its Parquet metadata
STALE_S = 3600  # a temporary file this old was left by a process that died while writing
# where the code that plays a game lives: a kernel calls kernels of other files, and a
# policy's Python code decides its play, so all of it is part of a run's key
KERNEL_SOURCES = ("games", "odds", "sim")
_OFF: list[bool] = []  # open `off()` blocks: the cache is neither read nor written while one is
# tables this process read from the cache and played (a report's provenance counts them)
COUNTS = {"read": 0, "played": 0}


@contextmanager
def off() -> Iterator[None]:
    """Within the block every run is played (`--no-cache`): nothing is read from the cache
    or written to it."""
    _OFF.append(True)
    try:
        yield
    finally:
        _OFF.pop()


def enabled() -> bool:
    return not _OFF


def cache_dir() -> Path:
    """The folder the runs are kept in."""
    given = os.environ.get(DIR_ENV)
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "snapsim" / "runs"


def size_limit() -> int:
    """Bytes the cache may hold ($SNAPSIM_CACHE_MB megabytes)."""
    text = os.environ.get(SIZE_ENV, "").strip()
    if not text:
        return DEFAULT_MB * 2**20
    try:
        mb = float(text)
    except ValueError:
        mb = -1.0
    if not mb >= 0:
        raise InputError(f"{SIZE_ENV}={text!r}: give the cache's size in megabytes, e.g. "
                         f"{SIZE_ENV}={DEFAULT_MB}")
    return int(mb * 2**20)


@functools.cache
def source_hash() -> str:
    """SHA-256 of the snapsim version, the numba and numpy versions and the content of
    every module under KERNEL_SOURCES (read once per process)."""
    import numba
    import numpy

    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"snapsim {__version__} numba {numba.__version__} numpy "
                       f"{numpy.__version__}\n".encode())
    for part in KERNEL_SOURCES:
        _hash_files(h, root, sorted((root / part).rglob("*.py")))
    return h.hexdigest()


def _hash_files(h, root: Path, paths) -> None:
    """Add each file's path (relative to `root`) and content to the digest `h`."""
    for path in paths:
        h.update(f"{path.relative_to(root).as_posix()}\n".encode())
        h.update(path.read_bytes())


@functools.cache
def game_source_hash(game: str) -> str:
    """SHA-256 of the modules of a game installed on its own (its package lies outside
    snapsim, so `source_hash` does not read it); empty for a game shipped in snapsim."""
    from .registry import game_folder, game_package

    if game_package(game).split(".")[0] == "snapsim":
        return ""
    folder = game_folder(game)
    h = hashlib.sha256()
    _hash_files(h, folder, sorted(folder.rglob("*.py")))
    return h.hexdigest()


def _content(config) -> object:
    """A config as JSON-able data, its components by content (not by where they were read
    from: an edited set in memory keeps its file's path)."""
    from .provenance import describe

    out = describe(config)
    comps = out.get("components") if isinstance(out, dict) else None
    if isinstance(comps, dict):
        comps.pop("path", None)
    return out


def run_key(game: str, config, policies, seed: int, games: int, rotate_seats: bool,
            measure: str = "") -> str:
    """The key of one run: what its table depends on (`measure`: a table of a measure that
    plays the run's games again, such as the game's extra measures, not the run's own)."""
    from .provenance import describe

    record = {"game": game, "config": _content(config),
              "policies": [describe(p) for p in policies], "seed": int(seed),
              "games": int(games), "rotate_seats": bool(rotate_seats),
              "sources": source_hash()}
    if measure:
        record["measure"] = measure
    if game_source_hash(game):  # a game installed on its own: its modules too
        record["game_sources"] = game_source_hash(game)
    text = json.dumps(record, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / f"{key}{SUFFIX}"


def load(key: str, rows: int | None) -> pd.DataFrame | None:
    """The table stored under `key` (marked most recently used), or None: never stored, or
    damaged or not of `rows` rows (None: any) (removed, so it is played and stored again)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = _path(key)
    try:
        table = pq.read_table(path)
        if (table.schema.metadata or {}).get(KEY_FIELD) != key.encode() or \
                rows is not None and table.num_rows != rows:
            raise ValueError("another run")
        df = table.to_pandas()
    except FileNotFoundError:
        return None
    except (OSError, ValueError, pa.ArrowException):
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):
        os.utime(path)
    return df


def store(key: str, df: pd.DataFrame) -> None:
    """Keep `df` under `key`: written whole to a temporary file, then renamed into place; a
    cache that cannot be written (a full disk, a read-only place) is skipped silently."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = cache_dir()
    temp = folder / f".{key}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        table = pa.Table.from_pandas(df, preserve_index=False, nthreads=1)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               KEY_FIELD: key.encode()})
        pq.write_table(table, temp)
        size = temp.stat().st_size
        os.replace(temp, _path(key))
    except (OSError, ValueError, pa.ArrowException):
        with contextlib.suppress(OSError):
            temp.unlink()
        return
    _written(folder, size)


# this process's view of each cache folder's size: [bytes at its last look plus what it
# wrote since, writes since]
_SIZES: dict[Path, list[int]] = {}
LOOK_EVERY = 256  # writes between two looks at a folder's files (other processes' writes)


def _written(folder: Path, size: int) -> None:
    """Evict when the folder may hold more than its limit: on a process's first write, when
    what it knows of the folder passes the limit, and every LOOK_EVERY writes (others write
    too). Looking at every file's size after each write made a rebalance's thousand small
    writes quadratic in the cache's size."""
    known = _SIZES.get(folder)
    limit = size_limit()
    if known is not None:
        known[0] += size
        known[1] += 1
        if known[0] <= limit and known[1] < LOOK_EVERY:
            return
    _SIZES[folder] = [evict(limit), 0]


def _entries() -> list[tuple[float, int, Path]]:
    """(last use, bytes, path) of every stored run, oldest first."""
    out = []
    with contextlib.suppress(OSError):
        for path in cache_dir().iterdir():
            if path.suffix == SUFFIX:
                with contextlib.suppress(OSError):
                    st = path.stat()
                    out.append((st.st_mtime, st.st_size, path))
    return sorted(out)


def evict(limit: int) -> int:
    """Remove the least recently used runs until the cache holds at most `limit` bytes, and
    temporary files a dead writer left behind; returns the bytes it holds then."""
    entries = _entries()
    total = sum(size for _, size, _ in entries)
    for _, size, path in entries:
        if total <= limit:
            break
        with contextlib.suppress(OSError):
            path.unlink()
        total -= size
    with contextlib.suppress(OSError):
        for path in cache_dir().glob(".*.tmp"):
            with contextlib.suppress(OSError):
                if time.time() - path.stat().st_mtime > STALE_S:
                    path.unlink()
    return total


def info() -> dict:
    """Where the cache is, how many runs it holds, their size and the limit."""
    entries = _entries()
    return {"dir": str(cache_dir()), "runs": len(entries),
            "bytes": sum(size for _, size, _ in entries), "limit_bytes": size_limit()}


def clear() -> int:
    """Remove every stored run; the number removed."""
    removed = 0
    for _, _, path in _entries():
        with contextlib.suppress(OSError):
            path.unlink()
            removed += 1
    return removed


def _mark(df: pd.DataFrame, hit: bool, game: str = "", config=None, policies=(), seed=0,
          games=0, rotate_seats=True) -> pd.DataFrame:
    """A table read from the cache gets the provenance of this process (its commit), and
    every table says whether it came from the cache."""
    from .provenance import provenance

    if hit:
        df.attrs["provenance"] = provenance(game, config, policies, seed, games,
                                            rotate_seats=rotate_seats)
    COUNTS["read" if hit else "played"] += 1
    df.attrs["from_cache"] = hit
    return df


def simulate(game: str, config, policies, games: int, seed: int, rotate_seats: bool = True,
             threads: int | None = None) -> pd.DataFrame:
    """`snapsim.sim.runner.simulate` of built-in policies through the cache (unless within
    `off()`). The table is the one played; `df.attrs["from_cache"]` says whether it was
    read from the cache."""
    from .agents import is_agent
    from .runner import prepare
    from .runner import simulate as play

    spec, config, pols = prepare(game, None, policies, config)
    if not enabled() or any(is_agent(p) for p in pols):
        return _mark(play(spec.name, config=config, policies=list(pols), games=games,
                          seed=seed, rotate_seats=rotate_seats, threads=threads), False)
    key = run_key(spec.name, config, pols, seed, games, rotate_seats)
    df = load(key, games * spec.players(config))
    hit = df is not None
    if not hit:
        df = play(spec.name, config=config, policies=list(pols), games=games, seed=seed,
                  rotate_seats=rotate_seats, threads=threads)
        store(key, df)
    return _mark(df, hit, spec.name, config, pols, seed, games, rotate_seats)


def simulate_many(game: str, jobs, games: int, seed: int, rotate_seats: bool = True,
                  **backend) -> list[pd.DataFrame]:
    """`snapsim.sim.runner.simulate_many` through the cache: the jobs already stored are
    read, the others played together and stored."""
    from .agents import policy_or_agent
    from .registry import get_game
    from .runner import simulate_many as play

    if not enabled():
        return [_mark(df, False) for df in play(game, jobs, games, seed,
                                                rotate_seats=rotate_seats, **backend)]
    spec = get_game(game)
    jobs = [(config, tuple(policy_or_agent(spec, p) for p in pols)) for config, pols in jobs]
    keys = [run_key(spec.name, config, pols, seed, games, rotate_seats)
            for config, pols in jobs]
    out = [load(key, games * spec.players(config)) for key, (config, _) in zip(keys, jobs,
                                                                                strict=True)]
    todo = [j for j, df in enumerate(out) if df is None]
    played = play(game, [jobs[j] for j in todo], games, seed, rotate_seats=rotate_seats,
                  **backend) if todo else []
    for j, df in zip(todo, played, strict=True):
        store(keys[j], df)
        out[j] = df
    return [_mark(df, j not in todo, spec.name, jobs[j][0], jobs[j][1], seed, games,
                  rotate_seats) for j, df in enumerate(out)]


def measured(game: str, config, policies, games: int, seed: int, measure: str,
             compute, rows: int | None = None) -> pd.DataFrame:
    """A table of one row per game (or of `rows` rows) that `measure` computes from the
    seeded games of a run (`compute()` makes it: it plays them again), through the cache
    like a run's own table."""
    from .agents import is_agent, policy_or_agent
    from .registry import get_game

    spec = get_game(game)
    pols = [policy_or_agent(spec, p) for p in policies]
    if not enabled() or any(is_agent(p) for p in pols):
        COUNTS["played"] += 1
        return compute()
    key = run_key(spec.name, config, pols, seed, games, True, measure)
    df = load(key, games if rows is None else rows)
    COUNTS["read" if df is not None else "played"] += 1
    if df is None:
        df = compute()
        store(key, df)
    return df


def files_key(record: dict, folder: Path) -> str:
    """The key of files made from `record` (JSON-able settings) by code that also reads the
    files under `folder` (a game's package: its tuned tables, its data), with the sources
    `source_hash` reads."""
    h = hashlib.sha256(json.dumps({**record, "sources": source_hash()}, sort_keys=True,
                                  default=str).encode())
    _hash_files(h, folder, sorted(p for p in folder.rglob("*") if p.is_file()
                                  and "__pycache__" not in p.parts))
    return h.hexdigest()


def has(key: str) -> bool:
    """Whether something is stored under `key` (without reading it)."""
    return enabled() and _path(key).is_file()


def load_files(key: str) -> dict[str, bytes] | None:
    """name -> content of the files stored under `key`, or None (as `load`; also for an
    entry naming a file outside the folder it is copied into, which snapsim never stores)."""
    if not enabled():
        return None
    df = load(key, None)
    if df is not None and not all(_inside(str(name)) for name in df.name):
        df = None
    COUNTS["read" if df is not None else "played"] += 1
    return None if df is None else dict(zip(df.name, df.data, strict=True))


def _inside(name: str) -> bool:
    """Whether a stored file's name is a path inside the folder it is written into."""
    path = Path(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts


def store_files(key: str, files: dict[str, bytes]) -> None:
    """Keep the files `files` (name -> content) under `key`, as one table."""
    import pandas as pd

    if enabled():
        store(key, pd.DataFrame({"name": list(files), "data": list(files.values())}))
