"""A run on disk: one Parquet file per chunk plus a JSON manifest, written as chunks finish.

Every file is written to a temporary name and renamed into place, so a crash leaves either a
whole chunk or none; the manifest lists only chunks whose file was complete. On resume a
listed chunk is checked again (readable, right row count and game range) and recomputed if
it is not, and a manifest made for another config, seed or line-up is refused.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from ..errors import InputError
from ..version import __version__
from .provenance import PROVENANCE_FILE, _plain

MANIFEST = "manifest.json"


def chunk_file(index: int) -> str:
    """File name of chunk `index`; zero-padded so the files sort in game order."""
    return f"chunk-{index:06d}.parquet"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _atomic_write(path: Path, write) -> None:
    """Write through a temporary file renamed into place; the file gets the permissions the
    user's umask gives any new file (mkstemp alone would make it private, 0600)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    os.close(fd)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
                old = json.loads(manifest.read_text())
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
        elif self.folder.exists() and any(p for p in self.folder.iterdir()
                                          if not p.name.startswith(".tmp-")):
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
        """A listed chunk counts only if its file opens and has the rows and games it should."""
        try:
            index = entry["index"]
            _, first, count = self.plan[index]
            path = self.folder / chunk_file(index)
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
        _atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False))
        _, first, count = self.plan[index]
        self.done[index] = {"index": index, "first": first, "count": count, "rows": len(df),
                            "file": chunk_file(index)}
        self._write_manifest()

    def _write_manifest(self) -> None:
        body = {"identity": self.identity, "provenance": self.provenance,
                "complete": len(self.done) == len(self.plan),
                "chunks_total": len(self.plan),
                "chunks": [self.done[i] for i in sorted(self.done)]}
        _atomic_write(self.folder / MANIFEST,
                      lambda tmp: Path(tmp).write_text(json.dumps(body, indent=1)))

    def chunk_paths(self) -> list[Path]:
        """The chunk files on disk, in game order."""
        return [self.folder / chunk_file(i) for i in sorted(self.done)]


def check_out_free(out) -> None:
    """Refuse an output folder that already holds files (another run's output is never
    overwritten unless --force), before any game is played."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; give a folder for the comparison")
    if out.is_dir() and any(out.iterdir()):
        prov = out / PROVENANCE_FILE
        what = "another run's output"
        try:
            old = json.loads(prov.read_text())
            what = (f"another run's output ({old.get('game')}, seed {old.get('seed')}, "
                    f"{old.get('games')} games)")
        except (OSError, ValueError, AttributeError):
            pass
        raise InputError(f"{out} already holds {what}; choose a new folder or add --force to "
                         "replace it")
