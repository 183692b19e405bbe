"""Parameter sweeps from a TOML file, and loading datasets back.

A sweep runs a grid over config knobs, player counts and policy line-ups; each grid point is
one run in a hive-style folder (`photo_target=8/reroll_cost=2/`), so the whole sweep loads as
one table with the swept values as columns. Every point uses the same seed: rule variants are
compared on common random numbers.

    game = "snapshot"          # optional (default snapshot)
    games = 20000              # games per point
    seed = 1
    chunk_size = 5000          # optional
    rotate_seats = true        # optional
    players = 4                # optional, unless swept
    policies = ["greedy"]      # optional fixed line-up, unless `lineup` is swept
    [set]                      # fixed knobs
    raccoon = true
    [grid]                     # swept values, each a non-empty list
    photo_target = [7, 8, 9]
    reroll_cost = [1, 2, 3]
    lineup = [["greedy"], ["greedy", "cautious", "aggressive", "random"]]
    components = ["standard", "variants/cheap-leopard.toml"]

`components` selects component files: "standard" is the bundled set, anything else a TOML file
path relative to the sweep file's folder. Swept, each file is a point whose folder is named by
the file's stem (`components=cheap-leopard/`, so the stems must differ and be letters, digits,
'-', '_' or '.'); fixed (`components = "file.toml"` at the top level or in [set]), every point
plays that set. sweep.json records every point's knobs, line-up and component file with its
SHA-256, so a report on the dataset (`snapsim report sweep DIR`, snapsim.report.sweep) can say
exactly what each point played.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads

from ..errors import InputError, SnapsimError
from .checks import flag, path_arg, whole
from .files import parse_json, read_json, read_text, read_toml, write_text
from .locks import exclusive
from .provenance import components_record
from .runner import DEFAULT_CHUNK, MAX_GAMES, Point, RunResult, prepare, run_points
from .store import MANIFEST, chunk_file, content, file_provenance, file_run, run_id
from .variants import load_variant

SWEEP_KEYS = {"game", "games", "seed", "chunk_size", "rotate_seats", "players", "policies",
              "components", "set", "grid", "out"}
SWEEP_FILE = "sweep.json"
STANDARD = "standard"
SAFE_LABEL = re.compile(r"[A-Za-z0-9_.-]+")
MAX_SWEEP_POINTS = 10_000
T = TypeVar("T")


@dataclass
class Sweep:
    """A checked sweep file: the shared run settings and one (labels, knobs, line-up) per
    grid point, labels being the swept values that name the point's folder."""

    game: str
    games: int
    seed: int
    chunk_size: int
    rotate_seats: bool
    points: list[tuple[dict, dict, list | None]]  # (labels, knobs, line-up)
    out: str | None


def _component_file(name: str, folder: Path, value: object, key: str) -> Path | None:
    """None for the bundled set, else the file's path (relative to the sweep file's folder)."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{name}: {key} must be \"standard\" or a component file path in "
                         f"quotes, got {value!r}")
    return None if value == STANDARD else folder / Path(value).expanduser()


def _component_labels(name: str, values: list) -> list[str]:
    """Folder labels of swept component files: their stems, unique and filesystem-safe."""
    for value in values:
        _component_file(name, Path(), value, "grid.components")
    labels = [STANDARD if v == STANDARD else Path(v).stem for v in values]
    for value, label in zip(values, labels, strict=True):
        if not SAFE_LABEL.fullmatch(label):
            raise InputError(f"{name}: grid.components: {value!r} cannot name a folder; rename "
                             "the file using letters, digits, '-', '_' or '.'")
    dup = next((label for label in labels if labels.count(label) > 1), None)
    if dup is not None:
        raise InputError(f"{name}: grid.components: two entries are named {dup!r} (the file "
                         "name without .toml); give each component file its own name")
    return labels


def read_sweep(path: str | os.PathLike) -> Sweep:
    """Parse and check a sweep file; every problem is one line naming the file and key."""
    path = Path(path)
    name = path.name
    data = _sweep_data(path)

    def check(test: Callable[..., T], key: str, *bounds: int | None,
              default: object = None) -> T:
        if key not in data and default is None:
            raise InputError(f"{name}: missing {key} = ... (see snapsim.sim.sweep for the keys)")
        try:
            return test(data.get(key, default), key, *bounds)
        except InputError as exc:
            raise InputError(f"{name}: {exc}") from None

    games = check(whole, "games", 1, MAX_GAMES)
    seed = check(whole, "seed", 0, None, default=0)
    chunk = check(whole, "chunk_size", 1, MAX_GAMES, default=DEFAULT_CHUNK)
    rotate = check(flag, "rotate_seats", default=True)
    game = data.get("game", "snapshot")
    if not isinstance(game, str):
        raise InputError(f"{name}: game must be a game name in quotes, got {game!r}")
    fixed, grid = _set_and_grid(name, data)
    if "players" in data:
        fixed = {**fixed, "players": check(whole, "players", 1, None)}
    folder = path.parent
    fixed = _fixed_components(name, data, fixed, folder)
    comp_labels = _component_labels(name, grid["components"]) if "components" in grid else []
    out = data.get("out")
    if out is not None and not isinstance(out, str):
        raise InputError(f"{name}: out must be a folder name in quotes, got {out!r}")
    base_lineup = data.get("policies")
    if base_lineup is not None and (not isinstance(base_lineup, list) or not base_lineup
                                    or not all(isinstance(x, str) for x in base_lineup)):
        raise InputError(f"{name}: policies must be a list of policy names, e.g. "
                         f'["greedy", "cautious"], got {base_lineup!r}')
    points = [_point(name, grid, combo, fixed, base_lineup, folder, comp_labels)
              for combo in itertools.product(*grid.values())]
    _prepare_points(name, game, points)
    return Sweep(game, games, seed, chunk, rotate, points, out)


def _sweep_data(path: Path) -> dict:
    """A sweep file's TOML, with only the keys a sweep file knows."""
    name = path.name
    try:
        data = read_toml(path)
    except OSError as exc:
        raise InputError(f"{name}: cannot read {str(path)!r} ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{name}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - SWEEP_KEYS)
    if unknown:
        raise InputError(f"{name}: unknown key {unknown[0]!r}; keys are "
                         f"{', '.join(sorted(SWEEP_KEYS))}")
    return data


def _set_and_grid(name: str, data: dict) -> tuple[dict, dict]:
    """The [set] knobs every point shares and the [grid] of swept values (each a non-empty
    list of distinct values, at most MAX_SWEEP_POINTS points in all)."""
    fixed = data.get("set", {})
    grid = data.get("grid", {})
    for key, table in (("set", fixed), ("grid", grid)):
        if not isinstance(table, dict):
            raise InputError(f"{name}: [{key}] must be a table of knob = value lines")
    if not grid:
        raise InputError(f"{name}: [grid] is empty; give at least one knob with a list of "
                         "values, e.g. photo_target = [7, 8, 9]")
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise InputError(f"{name}: grid.{key} must be a non-empty list of values, "
                             f"got {values!r}")
        if len({json.dumps(v) for v in values}) != len(values):
            raise InputError(f"{name}: grid.{key} repeats a value")
    size = math.prod(len(values) for values in grid.values())
    if size > MAX_SWEEP_POINTS:
        raise InputError(f"{name}: [grid] makes {size:,} points; at most {MAX_SWEEP_POINTS:,} "
                         "fit in one sweep (split it into several files)")
    return fixed, grid


def _fixed_components(name: str, data: dict, fixed: dict, folder: Path) -> dict:
    """The shared knobs with a component file given at the top level or in [set] (not both)
    resolved against the sweep file's folder."""
    if "components" in data:
        if "components" in fixed:
            raise InputError(f"{name}: components is given twice (top level and [set]); "
                             "keep one")
        fixed = {**fixed, "components": data["components"]}
    if "components" in fixed:
        fixed["components"] = _component_file(name, folder, fixed["components"], "components")
    return fixed


def _point(name: str, grid: dict, combo: tuple, fixed: dict, base_lineup: list[str] | None,
           folder: Path, comp_labels: list[str]) -> tuple[dict, dict, list[str] | None]:
    """One grid point as (labels for its folder, knobs, line-up): a swept line-up is labelled
    by its index and names every seat, a swept component file by its file name."""
    labels, knobs, lineup = {}, dict(fixed), base_lineup
    for key, value in zip(grid, combo, strict=True):
        if key == "lineup":
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise InputError(f"{name}: grid.lineup entries must be lists of policy "
                                 f"names, got {value!r}")
            labels[key] = grid[key].index(value)
            lineup = value
            if len(value) > 1 and "players" not in grid and "players" not in fixed:
                knobs["players"] = len(value)  # a line-up names every seat
        elif key == "components":
            labels[key] = comp_labels[grid[key].index(value)]
            knobs[key] = _component_file(name, folder, value, "grid.components")
        else:
            labels[key] = value
            knobs[key] = value
    return labels, knobs, lineup


def _prepare_points(name: str, game: str, points: list) -> None:
    """Load every component file and build every point's config now, so a bad knob or file
    fails before any game runs."""
    for labels, knobs, lineup in points:
        try:
            if "components" in knobs:
                knobs["components"] = load_variant(game, knobs["components"])
            prepare(game, policies=lineup, **knobs)
        except SnapsimError as exc:
            where = ", ".join(f"{k}={v}" for k, v in labels.items())
            raise InputError(f"{name}: point {where}: {exc}") from None


def _partitioning(path: Path) -> pads.Partitioning | None:
    """Hive partitioning with the swept values' own types (from sweep.json), so a swept
    column that is also a result column (e.g. players) merges instead of clashing."""
    meta = path / SWEEP_FILE
    if not meta.exists():
        return None  # one run: its chunk files side by side
    points = _read_json(meta)["points"]
    if not points or not points[0]:
        return None
    kinds = {bool: pa.bool_(), int: pa.int64(), float: pa.float64()}
    fields = []
    for key in points[0]:
        values = [p[key] for p in points]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            fields.append((key, pa.int64()))
        elif all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            fields.append((key, pa.float64()))
        else:
            fields.append((key, kinds.get(type(values[0]), pa.string())))
    return pads.partitioning(pa.schema(fields), flavor="hive")


def point_folder(root: Path, labels: dict) -> Path:
    """The hive-style folder of one grid point, `root/knob=value/...`, so the swept values
    come back as columns when the sweep is loaded."""
    folder = root
    for key, value in labels.items():
        text = json.dumps(value) if not isinstance(value, str | int | float | bool) else \
            str(value).lower() if isinstance(value, bool) else str(value)
        folder = folder / f"{key}={text}"
    return folder


def _claim_sweep(root: Path, record: dict, resume: bool) -> str | None:
    """The sweep.json already in `root` (None if none); a folder holding another sweep, or
    files that are no sweep, is refused so two sweeps never mix in one folder."""
    meta = root / SWEEP_FILE
    if not meta.exists():
        if content(root):
            raise InputError(f"{root} exists and is not a snapsim sweep folder; choose another "
                             "output folder")
        return None
    try:
        before = read_text(meta)
        old = parse_json(before)
    except (OSError, ValueError):
        raise InputError(f"{meta} is unreadable; delete the folder to start again") from None
    key = next((k for k in record if not isinstance(old, dict) or old.get(k) != record[k]),
               None)
    if key is None or (resume and key == "runs" and all(
            old.get(k) == record[k] for k in record if k != "runs")):
        return before  # the same grid: each point's own manifest checks its settings
    if resume:
        raise InputError(f"cannot resume {root}: it holds a sweep with other {key}; use the "
                         "same sweep file")
    raise InputError(f"{root} holds another sweep (other {key}); choose another output "
                     "folder")


def run_sweep(sweep: Sweep, out: str | os.PathLike | None = None, resume: bool = False,
              progress: bool = False, threads: int | None = None, workers: int | None = None,
              scheduler: str | None = None) -> list[tuple[dict, RunResult]]:
    """Run every point (only missing chunks when resuming); returns (labels, result) pairs."""
    root = Path(out or sweep.out or "")
    if not str(root) or root == Path("."):
        raise InputError("the sweep needs an output folder: give --out DIR or out = \"DIR\"")
    points, runs = [], []
    spec = None
    for labels, knobs, lineup in sweep.points:
        spec, config, pols = prepare(sweep.game, policies=lineup, **knobs)
        points.append(Point(point_folder(root, labels), config, pols, labels))
        runs.append({"labels": labels, "folder": point_folder(Path(), labels).as_posix(),
                     "knobs": {k: v for k, v in knobs.items() if k != "components"},
                     "lineup": lineup, "players": spec.players(config),
                     "components": components_record(sweep.game, config.components)})
    record = {"game": sweep.game, "games": sweep.games, "seed": sweep.seed,
              "chunk_size": sweep.chunk_size, "rotate_seats": sweep.rotate_seats,
              "points": [p.labels for p in points], "runs": runs}
    with exclusive(root):  # one writer: a second sweep given this folder is refused
        meta = root / SWEEP_FILE
        before = _claim_sweep(root, json.loads(json.dumps(record)), resume)
        write_text(meta, json.dumps(record, indent=1))
        try:
            results = run_points(spec, points, sweep.games, sweep.seed, sweep.rotate_seats,
                                 sweep.chunk_size, resume, progress, threads, workers,
                                 scheduler)
        except InputError:  # refused (e.g. resumed with other settings): the old record stands
            if before is None:
                meta.unlink()
            else:
                write_text(meta, before)
            raise
    return [(p.labels, r) for p, r in zip(points, results, strict=True)]


def load(path: str | os.PathLike, allow_partial: bool = False,
         **filters: object) -> pd.DataFrame:
    """Load a run or sweep folder (or one .parquet file) as one DataFrame, in order.

    Rows come sorted by the swept values, then game and seat, so a loaded run equals the
    `simulate` table of the same settings. Only the chunks a run's manifest lists are read
    (a report written inside is not data), each checked to be that run's own, and a sweep
    folder loads the points its sweep.json names, all of one game: unrelated runs are never
    merged into one table.

    Parameters
    ----------
    path : str or path
        A run folder (`snapsim.run`, `snapsim simulate --out DIR`), a sweep folder
        (`snapsim sweep`) or one .parquet file.
    allow_partial : bool
        Load an interrupted run or sweep as far as it got (default: refuse, naming the
        missing chunks and how to resume).
    **filters
        Keep only the points with these swept values, e.g. ``photo_target=8`` or
        ``components="cheap-leopard"``.

    Returns
    -------
    pandas.DataFrame
        One row per (game, seat) with the columns listed under Output schemas, plus one
        column per swept knob; ``df.attrs["provenance"]`` holds the run's record (a sweep's:
        sweep.json and each point's record by folder).

    Examples
    --------
    >>> df = snapsim.load("runs/sweep", photo_target=8)
    """
    path = _load_path(path, allow_partial)
    if path.is_file():
        return _load_file(path, filters)
    if not allow_partial:
        _refuse_unfinished(path)
    df = _read_chunks(path, _folder_files(path), filters)
    df.attrs = {"provenance": _folder_provenance(path)}
    return df


def _load_path(path: str | os.PathLike, allow_partial: bool) -> Path:
    """load's arguments checked: an existing file or folder, each mistake one line."""
    if path is None or (isinstance(path, str) and not path.strip()):
        raise InputError("load: give a run or sweep folder, or a .parquet file snapsim wrote, "
                         "e.g. snapsim.load(\"runs/big\")")
    path = path_arg(path, "load")
    flag(allow_partial, "allow_partial")
    if not path.exists():
        raise InputError(f"{path} does not exist; give a run or sweep folder")
    if not path.is_file() and not path.is_dir():
        raise InputError(f"{path} is neither a file nor a folder; give a run or sweep folder")
    return path


def _folder_files(path: Path) -> list[str]:
    """The chunk files of a run folder, or of every point of a sweep folder (one game)."""
    if (path / SWEEP_FILE).exists():
        sweep = _read_json(path / SWEEP_FILE)
        files = [f for run in sweep["runs"]
                 for f in _run_files(path / run["folder"], sweep["game"])]
    elif (path / MANIFEST).exists():
        files = _run_files(path)
    else:
        raise InputError(f"{path} is not a snapsim run or sweep folder (no {MANIFEST} or "
                         f"{SWEEP_FILE}); give the folder a run (--out DIR) or a sweep wrote")
    if not files:
        raise InputError(f"{path} holds no finished chunks yet; finish the run with --resume")
    return files


def _read_chunks(path: Path, files: list[str], filters: dict) -> pd.DataFrame:
    """The chunks as one table, filtered on swept values and sorted by them, then game and
    seat (so a loaded run equals the `simulate` table of the same settings)."""
    ds = pads.dataset(files, format="parquet", partitioning=_partitioning(path),
                      partition_base_dir=str(path))
    expr = None
    for key, value in filters.items():
        if key not in ds.schema.names:
            raise InputError(f"cannot filter on {key!r}; columns are "
                             f"{', '.join(ds.schema.names)}")
        term = pads.field(key) == value
        expr = term if expr is None else expr & term
    df = ds.to_table(filter=expr).to_pandas()
    parts = [n for n in (ds.partitioning.schema.names if ds.partitioning is not None else [])
             if n in df.columns and n not in ("game", "seat")]
    return df.sort_values(parts + ["game", "seat"], kind="stable").reset_index(drop=True)


def _read_json(path: Path) -> dict:
    """A record snapsim wrote (manifest.json, sweep.json); unreadable is one line."""
    try:
        data = read_json(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} is unreadable ({getattr(exc, 'strerror', None) or exc}); "
                         "run the same command again with --resume to rebuild it") from None
    if not isinstance(data, dict):
        raise InputError(f"{path} is not a snapsim record; give a run or sweep folder")
    return data


def _run_files(folder: Path, game: str | None = None) -> list[str]:
    """The chunk files a run's manifest lists, each checked to be that run's own (its tag):
    a chunk of another run, or any other file, is never loaded into it; in a sweep every
    point must be a run of the sweep's game."""
    if not (folder / MANIFEST).exists():
        return []  # a sweep point not started yet (allow_partial)
    manifest = _read_json(folder / MANIFEST)
    try:
        identity, chunks = manifest["identity"], manifest["chunks"]
        indices = [int(c["index"]) for c in chunks]
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{folder / MANIFEST} is not a snapsim manifest; run the same command "
                         "again with --resume to rebuild it") from None
    if game is not None and identity.get("game") != game:
        raise InputError(f"{folder} is a {identity.get('game')} run inside a {game} sweep; "
                         "a sweep folder holds the points of one sweep only")
    want = run_id(identity)
    files = []
    for index in sorted(indices):
        path = folder / chunk_file(index)
        if file_run(path) != want:
            raise InputError(f"{path} is not a chunk of the run in {folder} (another run's "
                             "file, or damaged); run the same command with --resume to "
                             "recompute it")
        files.append(str(path))
    return files


def _load_file(path: Path, filters: dict) -> pd.DataFrame:
    """One .parquet file snapsim wrote (simulate --out FILE, or a table saved with its
    provenance); any other file is refused rather than taken for results."""
    if file_run(path) is None and file_provenance(path) is None:
        raise InputError(f"{path} is not a table snapsim wrote (no snapsim record in it); give "
                         "a run or sweep folder, or read other files with pandas.read_parquet")
    df = pd.read_parquet(path)
    for key, value in filters.items():
        if key not in df.columns:
            raise InputError(f"cannot filter on {key!r}; columns are {', '.join(df.columns)}")
        df = df[df[key] == value]
    return df.reset_index(drop=True) if filters else df


def _missing_chunks(folder: Path, chunks_total: int) -> int:
    """Chunks of a run folder not yet written (all of them if it has no manifest yet)."""
    if not (folder / MANIFEST).exists():
        return chunks_total
    manifest = _read_json(folder / MANIFEST)
    try:
        return manifest["chunks_total"] - len(manifest["chunks"])
    except (KeyError, TypeError):
        raise InputError(f"{folder / MANIFEST} is unreadable; run the same command again "
                         "with --resume to rebuild it") from None


def _refuse_unfinished(path: Path) -> None:
    """An interrupted run or sweep is refused, naming what is missing and how to finish it."""
    if (path / SWEEP_FILE).exists():
        sweep = _read_json(path / SWEEP_FILE)
        try:
            total = -(-sweep["games"] // sweep["chunk_size"])
            folders = [run["folder"] for run in sweep["runs"]]
        except (KeyError, TypeError):
            raise InputError(f"{path / SWEEP_FILE} is not a snapsim sweep record") from None
        by_point = {folder: _missing_chunks(path / folder, total) for folder in folders}
        short = [folder for folder, n in by_point.items() if n]
        if short:
            raise InputError(
                f"{path} is an interrupted sweep: {sum(by_point.values())} of "
                f"{total * len(by_point)} chunks missing in {len(short)} of {len(by_point)} "
                f"points (first: {short[0]}); finish it with `snapsim sweep FILE --out {path} "
                "--resume`, or load what is there with allow_partial=True")
    elif (path / MANIFEST).exists():
        missing = _missing_chunks(path, 0)
        if missing:
            total = _read_json(path / MANIFEST)["chunks_total"]
            raise InputError(
                f"{path} is an interrupted run: {missing} of {total} chunks missing; finish "
                "it by running the same command with --resume (snapsim.run(..., "
                "resume=True)), or load what is there with allow_partial=True")


def _folder_provenance(path: Path) -> dict:
    """What made a run folder (its manifest's record) or a sweep (sweep.json and each point's
    record, by folder)."""
    def read(file: Path) -> dict:
        try:
            return read_json(file)
        except (OSError, ValueError):
            return {}

    if (path / SWEEP_FILE).exists():
        points = {run["folder"]: read(path / run["folder"] / MANIFEST).get("provenance", {})
                  for run in read(path / SWEEP_FILE).get("runs", [])}
        return {"sweep": read(path / SWEEP_FILE), "points": points}
    return read(path / MANIFEST).get("provenance", {})
