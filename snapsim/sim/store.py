"""A run on disk: one Parquet file per chunk plus a JSON manifest, written as chunks finish.

Every file is written to a temporary name and renamed into place, so a crash leaves either a
whole chunk or none; the manifest lists only chunks whose file was complete. On resume a
listed chunk is checked again (readable, right row count and game range) and recomputed if
it is not, and a manifest made for another config, seed or line-up is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InputError
from ..version import __version__
from .files import read_bytes, read_json, write_atomic, write_text
from .locks import LOCK, exclusive
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


WRITTEN = ".snapsim-files.json"  # the files snapsim wrote into an output folder, listed
# so that --force replaces those and nothing else
_WORKING = (LOCK, WRITTEN)  # snapsim's hidden working files (with STAGING and .tmp- names)
# what writers put in a folder before it listed its files: a folder from then is read by name
_OLD_NAMES = {PROVENANCE_FILE, "index.html", "report.md", "strategy.md", "verdict.csv",
              "patch.toml", "search.json", "evaluations.jsonl", "evaluations.csv", "ladder.md",
              "ladder.png", "ratings.csv", "pairwise.csv"}


def _working(name: str) -> bool:
    return name in _WORKING or name.startswith((STAGING, ".tmp-"))


def _entries(folder: Path) -> list[str]:
    """Every file, link and empty folder under `folder` (relative POSIX paths, sorted), links
    to folders not followed, snapsim's hidden working files left out."""
    found = []
    for root, dirs, files in os.walk(folder):
        rel = Path(root).relative_to(folder)
        links = [d for d in dirs if (Path(root) / d).is_symlink()]
        dirs[:] = sorted(d for d in dirs if d not in links
                         and not (rel == Path(".") and _working(d)))
        names = [n for n in files + links if not (rel == Path(".") and _working(n))]
        found += [(rel / n).as_posix() for n in names]
        if not names and not dirs and rel != Path("."):
            found.append(rel.as_posix() + "/")
    return sorted(found)


def _made_by_snapsim(folder: Path) -> bool:
    """Whether a folder without a list of snapsim's files was made by snapsim: its
    provenance.json or a section's record says so, or its search.json or strategy guide."""
    def says(path: Path, key: str) -> bool:
        try:
            data = read_json(path)
        except (OSError, ValueError):
            return False
        return isinstance(data, dict) and key in data

    try:
        head = read_bytes(folder / "strategy.md", 2**20)[:1000]
    except OSError:
        head = b""
    return (b"Generated by `snapsim." in head or says(folder / PROVENANCE_FILE, "snapsim")
            or says(folder / "search.json", "identity")
            or any(says(meta, "key") for meta in sorted((folder / "sections").glob("*.json"))))


def _old_own(folder: Path) -> set[str]:
    """The files a folder written before snapsim listed them holds as snapsim's: none unless
    snapsim made it; then the names its writers used and the figures and tables its
    sections name."""
    if not _made_by_snapsim(folder):
        return set()
    own = set(_OLD_NAMES)
    sections = folder / "sections"
    for meta in sorted(sections.glob("*.json")) if sections.is_dir() else []:
        own.add(f"sections/{meta.name}")
        try:
            section = read_json(meta)
            own |= {f"{n}.png" for n in section["figures"]} | {f"{n}.csv" for n in
                                                               section["tables"]}
        except (OSError, ValueError, KeyError, TypeError):
            continue
    for p in folder.iterdir():
        if p.name.startswith("strategy_") and p.suffix in (".csv", ".png") or \
                p.name.startswith("fix-") and p.suffix == ".toml":
            own.add(p.name)
    return own


def written(folder) -> set[str]:
    """The files (relative POSIX paths) snapsim wrote into `folder` and may replace."""
    folder = Path(folder)
    try:
        listed = read_json(folder / WRITTEN)
    except (OSError, ValueError):
        return _old_own(folder) if folder.is_dir() else set()
    return {n for n in listed if _plain_name(n)} if isinstance(listed, list) else set()


def _plain_name(name) -> bool:
    """Whether a listed name is a path inside the folder (relative, no '..', no hidden
    working file): a damaged or hostile list never names a file elsewhere."""
    if not isinstance(name, str) or not name or "\0" in name:
        return False
    parts = PurePosixPath(name).parts
    return not PurePosixPath(name).is_absolute() and ".." not in parts and \
        not _working(parts[0])


def record_written(folder, names) -> None:
    """Add `names` (relative paths) to the files snapsim wrote into `folder`."""
    folder = Path(folder)
    listed = {n for n in written(folder) if (folder / n).exists() or (folder / n).is_symlink()}
    listed |= {Path(n).as_posix() for n in names}
    write_text(folder / WRITTEN, json.dumps(sorted(listed), indent=0))


def foreign_file(folder) -> str | None:
    """The first thing in `folder` that snapsim did not write there (a file, a link, a folder
    of the user's), None when everything in it is snapsim's."""
    folder = Path(folder)
    own = written(folder)
    return next((e for e in _entries(folder)
                 if e not in own and not (e.endswith("/") and any(
                     n.startswith(e) for n in own))), None)


def claim_folder(out, flag: str = "--out", kind: str = "output") -> bool:
    """Refuse a file where the output folder goes, or a folder holding anything snapsim did
    not write (with or without --force: nothing of the user's is ever replaced). True when
    the folder holds snapsim's own files, which only --force may replace."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"{flag} {str(out)!r} is a file; give a folder for the {kind}")
    if not out.is_dir():
        return False
    other = foreign_file(out)
    if other is not None:
        raise InputError(f"{out} holds {other.rstrip('/')!r}, which snapsim did not write; "
                         f"choose an empty or new folder for {flag}")
    return bool(_entries(out))


def clear_own(folder) -> None:
    """Remove the files snapsim wrote into `folder` (and the subfolders they leave empty),
    nothing else; call after claim_folder, under the folder's lock."""
    folder = Path(folder)
    own = written(folder)
    for name in sorted(own, reverse=True):
        path = folder / name
        through_link = any((folder / p).is_symlink() for p in Path(name).parents
                           if p != Path("."))
        if not through_link and (path.is_symlink() or path.is_file()):
            path.unlink()
        for parent in Path(name).parents:
            if parent != Path("."):
                with contextlib.suppress(OSError):
                    (folder / parent).rmdir()  # only when empty
    (folder / WRITTEN).unlink(missing_ok=True)


def check_out_free(out, force: bool = False, kind: str = "comparison") -> None:
    """Refuse an output folder that holds files snapsim did not write, or another run's
    output unless `force` (which the writer then clears), before any game is played."""
    out = Path(out)
    if not claim_folder(out, kind=kind) or force:
        return
    what = "another run's output"
    try:
        old = read_json(out / PROVENANCE_FILE)
    except (OSError, ValueError):
        old = None
    if isinstance(old, dict) and "game" in old:
        what += f" ({old['game']}, seed {old.get('seed')}, {old.get('games')} games)"
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
            clear_own(self.out)
        files = sorted((p for p in self.path.rglob("*") if p.is_file()),
                       key=lambda p: (p.name == PROVENANCE_FILE, str(p)))
        record_written(self.out, [f.relative_to(self.path) for f in files])
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


def _comparable(record):
    """A provenance record as JSON reads it back, without the commit of the source it was
    made from (a new commit that changes no result is the same run; a new version of
    snapsim is not)."""
    record = json.loads(json.dumps(_plain(record)))
    return {k: v for k, v in record.items() if k != "commit"} if isinstance(record, dict) \
        else record


def same_run(old, new) -> bool:
    """Whether two provenance records describe the same run (see _comparable)."""
    return _comparable(old) == _comparable(new)


def claim_file(path, provenance: dict, force: bool = False, flag: str = "--out") -> None:
    """Refuse to replace a file that is not snapsim's (even with `force`) or another run's
    rows (unless `force`); a rerun of the same command may replace its own rows, which it
    writes again identically."""
    path = Path(path)
    if not (path.exists() or path.is_symlink()):
        return
    old = file_provenance(path) if path.is_file() and not path.is_symlink() else None
    if old is None:
        raise InputError(f"{path} exists and is not a file snapsim wrote; snapsim never "
                         f"replaces it, even with --force: choose another {flag} or move it "
                         "away")
    if force or same_run(old, provenance):
        return
    key, was, now = _first_difference(_comparable(old), _comparable(provenance))
    raise InputError(f"{path} holds another run's rows ({old.get('game')}, seed "
                     f"{old.get('seed')}, {old.get('games')} games; {key} {was}, not {now}); "
                     f"choose another {flag} or add --force to replace it")


def save_table(df: pd.DataFrame, path, force: bool = False, flag: str = "--out") -> Path:
    """Write a run's (game, seat) table to one Parquet file, whole or not at all, tagged with
    its provenance (df.attrs) so that load can tell it from a foreign file; never over a
    file snapsim did not write for the same run unless `force`."""
    provenance = df.attrs.get("provenance", {})
    claim_file(path, provenance, force, flag)
    table = tagged_table(df, provenance)
    return write_atomic(path, lambda tmp: pq.write_table(table, tmp))
