"""A run on disk: one Parquet file per chunk plus a JSON manifest, written as chunks finish.

Every file is written to a temporary name and renamed into place, so a crash leaves either a
whole chunk or none; the manifest lists only chunks whose file was complete. On resume a
listed chunk is checked again (readable, right row count and game range) and recomputed if
it is not, and a manifest made for another config, seed or line-up is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InputError
from ..version import __version__
from .files import read_json, write_atomic, write_text
from .locks import exclusive
from .provenance import PROVENANCE_FILE, _plain

MANIFEST = "manifest.json"
RUN_KEY = b"snapsim.run"  # Parquet metadata: the identity hash of the run a table belongs to
ATTRS_KEY = b"PANDAS_ATTRS"  # where pandas keeps df.attrs (the provenance) in a Parquet file
STAGING = ".staging-"


def chunk_file(index: int) -> str:
    """File name of chunk `index`; zero-padded so the files sort in game order."""
    return f"chunk-{index:06d}.parquet"


def run_id(identity: dict) -> str:
    """The hash that tags every chunk (and one-file output) of the run with this identity."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def tagged_table(df: pd.DataFrame, identity: dict) -> pa.Table:
    """`df` as an Arrow table whose metadata names its run (and keeps `df.attrs`, the
    provenance, as pandas does), so resume and load can tell a foreign file from the run's
    own."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = {**(table.schema.metadata or {}), RUN_KEY: run_id(identity).encode()}
    if df.attrs:
        meta[ATTRS_KEY] = json.dumps(_plain(df.attrs)).encode()
    return table.replace_schema_metadata(meta)


def _metadata(path) -> dict:
    try:
        return pq.read_schema(path).metadata or {}
    except Exception:  # noqa: BLE001 - any unreadable or foreign file: no metadata
        return {}


def file_run(path) -> str | None:
    """The run hash a Parquet file is tagged with (None: untagged, not snapsim's, unreadable)."""
    tag = _metadata(path).get(RUN_KEY)
    return tag.decode() if tag else None


def file_provenance(path) -> dict | None:
    """What made a one-file output (the provenance pandas keeps with it), None if nothing
    says snapsim made it."""
    try:
        prov = json.loads(_metadata(path)[ATTRS_KEY])["provenance"]
    except (KeyError, ValueError, TypeError):
        return None
    return prov if isinstance(prov, dict) and "snapsim" in prov else None


def content(folder: Path) -> list[Path]:
    """What a folder holds besides snapsim's own hidden working files (its lock, temporary
    files and the staging folder of a writer that was killed)."""
    return [p for p in folder.iterdir() if not p.name.startswith(".")]


def _first_difference(old, new, path=""):
    """(dotted key, old value, new value) of the first difference between two identities."""
    if isinstance(old, dict) and isinstance(new, dict):
        if "name" in old and old.get("name") != new.get("name"):  # e.g. a policy: its name
            return path, json.dumps(old.get("name")), json.dumps(new.get("name"))
        for key in sorted(set(old) | set(new)):
            found = _first_difference(old.get(key), new.get(key), f"{path}.{key}" if path
                                      else str(key))
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if old != new:
        return path, json.dumps(old)[:80], json.dumps(new)[:80]
    return None


def chunk_plan(games: int, chunk_size: int) -> list[tuple[int, int, int]]:
    """(index, first game, count) for every chunk of the run."""
    return [(i, first, min(chunk_size, games - first))
            for i, first in enumerate(range(0, games, chunk_size))]


class RunStore:
    """The folder of one run (one point of a sweep)."""

    def __init__(self, folder: str | os.PathLike, identity: dict, games: int, chunk_size: int,
                 players: int, resume: bool, provenance: dict | None = None):
        self.folder = Path(folder)
        self.provenance = provenance or {}
        self.identity = _plain({**identity, "games": games, "chunk_size": chunk_size,
                                "snapsim": __version__})  # numpy numbers as JSON numbers
        self.run_id = run_id(self.identity)
        self.players = players
        self.plan = chunk_plan(games, chunk_size)
        self.done: dict[int, dict] = {}
        self._open(resume)

    # -- opening and checking
    def _open(self, resume: bool) -> None:
        manifest = self.folder / MANIFEST
        if manifest.exists():
            if not resume:
                raise InputError(f"{self.folder} already holds a run; add --resume to finish it "
                                 "or choose another output folder")
            try:
                old = read_json(manifest)
                old_identity = old["identity"]
            except (OSError, ValueError, KeyError, TypeError):
                raise InputError(f"{manifest} is unreadable; delete the folder to start "
                                 "again") from None
            diff = _first_difference(old_identity, self.identity)
            if diff is not None:
                key, was, now = diff
                raise InputError(f"cannot resume {self.folder}: it was run with {key}={was}, "
                                 f"not {now}; use the same settings or another output folder")
            for entry in old.get("chunks", []):
                if self._valid(entry):
                    self.done[entry["index"]] = entry
        elif self.folder.exists() and content(self.folder):
            raise InputError(f"{self.folder} exists and is not a snapsim run folder; "
                             "choose another output folder")
        self.folder.mkdir(parents=True, exist_ok=True)
        for stale in self.folder.glob(".tmp-*"):
            stale.unlink(missing_ok=True)
        for i, _, _ in self.plan:  # files of chunks not in the manifest are not trusted
            if i not in self.done:
                (self.folder / chunk_file(i)).unlink(missing_ok=True)
        if manifest.exists():  # a new run writes its manifest with its first chunk
            self._write_manifest()

    def _valid(self, entry: dict) -> bool:
        """A listed chunk counts only if its file is this run's (its tag), opens and has the
        rows and games it should."""
        try:
            index = entry["index"]
            _, first, count = self.plan[index]
            path = self.folder / chunk_file(index)
            if file_run(path) != self.run_id:  # another run's chunk copied in, or untagged
                return False
            meta = pq.ParquetFile(path).metadata
            if meta.num_rows != count * self.players or entry.get("rows") != meta.num_rows:
                return False
            games = pq.read_table(path, columns=["game"]).column("game")
            return games[0].as_py() == first and games[-1].as_py() == first + count - 1
        except Exception:  # noqa: BLE001 - any unreadable or foreign file means "recompute"
            return False

    # -- progress
    @property
    def missing(self) -> list[tuple[int, int, int]]:
        """(index, first game, count) of the chunks not yet on disk."""
        return [c for c in self.plan if c[0] not in self.done]

    def write_chunk(self, index: int, df: pd.DataFrame) -> None:
        """Write one finished chunk, then record it in the manifest (both atomically, so an
        interruption never leaves a half-written chunk counted as done)."""
        path = self.folder / chunk_file(index)
        table = tagged_table(df, self.identity)
        write_atomic(path, lambda tmp: pq.write_table(table, tmp))
        _, first, count = self.plan[index]
        self.done[index] = {"index": index, "first": first, "count": count, "rows": len(df),
                            "file": chunk_file(index)}
        self._write_manifest()

    def _write_manifest(self) -> None:
        body = {"identity": self.identity, "provenance": self.provenance,
                "complete": len(self.done) == len(self.plan),
                "chunks_total": len(self.plan),
                "chunks": [self.done[i] for i in sorted(self.done)]}
        write_text(self.folder / MANIFEST, json.dumps(body, indent=1))

    def chunk_paths(self) -> list[Path]:
        """The chunk files on disk, in game order."""
        return [self.folder / chunk_file(i) for i in sorted(self.done)]


def check_out_free(out) -> None:
    """Refuse an output folder that already holds files (another run's output is never
    overwritten unless --force), before any game is played. snapsim's own hidden working
    files (a lock, the staging folder of a writer that was killed) do not count."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; give a folder for the comparison")
    if out.is_dir() and content(out):
        prov = out / PROVENANCE_FILE
        what = "another run's output"
        try:
            old = read_json(prov)
            what = (f"another run's output ({old.get('game')}, seed {old.get('seed')}, "
                    f"{old.get('games')} games)")
        except (OSError, ValueError, AttributeError):
            pass
        raise InputError(f"{out} already holds {what}; choose a new folder or add --force to "
                         "replace it")


class Stage:
    """The hidden folder an output is written into before it is moved into place."""

    def __init__(self, out: Path, path: Path):
        self.out = out
        self.path = path

    def commit(self, clear: bool = False) -> None:
        """Move every file written so far into the output folder, provenance.json last (a
        folder with provenance.json is whole); with `clear`, the folder's old files go
        first (a forced replacement keeps nothing of the old output)."""
        if clear:
            for old in content(self.out):
                shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
        files = sorted((p for p in self.path.rglob("*") if p.is_file()),
                       key=lambda p: (p.name == PROVENANCE_FILE, str(p)))
        for f in files:
            dest = self.out / f.relative_to(self.path)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(f, dest)


@contextmanager
def staged(out, flag: str = "--out", clear: bool = False) -> Iterator[Stage]:
    """Write an output folder whole or not at all: hold it (one writer), write into a hidden
    staging folder inside it (`stage.path`), and move the files into place when the block
    ends without an error (clearing the old files first with `clear`). A failure or a kill
    leaves the folder as it was, plus at most the hidden staging folder, which the next
    writer removes; so a rerun is never refused for a half-written output."""
    with exclusive(out, flag) as folder:
        mine = f"{STAGING}{os.getpid()}-"
        for stale in folder.glob(f"{STAGING}*"):  # left by a killed writer (we hold the lock)
            if not stale.name.startswith(mine):
                shutil.rmtree(stale, ignore_errors=True)
        stage = Stage(folder, Path(tempfile.mkdtemp(prefix=mine, dir=folder)))
        try:
            yield stage
            stage.commit(clear)
        finally:
            shutil.rmtree(stage.path, ignore_errors=True)


def claim_file(path, provenance: dict, force: bool = False, flag: str = "--out") -> None:
    """Refuse to replace a file snapsim did not write for this same run (a file of another
    run, or any other file) unless `force`; a rerun of the same command may replace its own
    rows, which it writes again identically."""
    path = Path(path)
    if force or not path.exists():
        return
    old = file_provenance(path) if path.is_file() else None
    if old is not None and old == json.loads(json.dumps(_plain(provenance))):
        return
    what = ("exists and is not a file snapsim wrote" if old is None else
            f"holds another run's rows ({old.get('game')}, seed {old.get('seed')}, "
            f"{old.get('games')} games)")
    raise InputError(f"{path} {what}; choose another {flag} or add --force to replace it")


def save_table(df: pd.DataFrame, path, force: bool = False, flag: str = "--out") -> Path:
    """Write a run's (game, seat) table to one Parquet file, whole or not at all, tagged with
    its provenance (df.attrs) so that load can tell it from a foreign file; never over a
    file snapsim did not write for the same run unless `force`."""
    provenance = df.attrs.get("provenance", {})
    claim_file(path, provenance, force, flag)
    table = tagged_table(df, provenance)
    return write_atomic(path, lambda tmp: pq.write_table(table, tmp))
