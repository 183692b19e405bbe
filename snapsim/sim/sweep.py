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
"""

from __future__ import annotations

import itertools
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads

from ..errors import InputError, SnapsimError
from .runner import DEFAULT_CHUNK, Point, prepare, run_points
from .store import MANIFEST

SWEEP_KEYS = {"game", "games", "seed", "chunk_size", "rotate_seats", "players", "policies",
              "set", "grid", "out"}
SWEEP_FILE = "sweep.json"


@dataclass
class Sweep:
    game: str
    games: int
    seed: int
    chunk_size: int
    rotate_seats: bool
    points: list[tuple[dict, dict, list | None]]  # (labels, knobs, line-up)
    out: str | None


def read_sweep(path) -> Sweep:
    """Parse and check a sweep file; every problem is one line naming the file and key."""
    path = Path(path)
    name = path.name
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise InputError(f"{name}: cannot read {str(path)!r} ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{name}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - SWEEP_KEYS)
    if unknown:
        raise InputError(f"{name}: unknown key {unknown[0]!r}; keys are "
                         f"{', '.join(sorted(SWEEP_KEYS))}")

    def whole(key, default=None, lo=1):
        v = data.get(key, default)
        if v is None or isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise InputError(f"{name}: {key} must be a whole number >= {lo}, got {v!r}")
        return v

    games = whole("games")
    seed = whole("seed", 0, lo=0)
    chunk = whole("chunk_size", DEFAULT_CHUNK)
    rotate = data.get("rotate_seats", True)
    if not isinstance(rotate, bool):
        raise InputError(f"{name}: rotate_seats must be true or false, got {rotate!r}")
    game = data.get("game", "snapshot")
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
    if "players" in data:
        fixed = {**fixed, "players": whole("players", lo=2)}
    out = data.get("out")
    if out is not None and not isinstance(out, str):
        raise InputError(f"{name}: out must be a folder name in quotes, got {out!r}")
    base_lineup = data.get("policies")
    if base_lineup is not None and (not isinstance(base_lineup, list) or not base_lineup
                                    or not all(isinstance(x, str) for x in base_lineup)):
        raise InputError(f"{name}: policies must be a list of policy names, e.g. "
                         f'["greedy", "cautious"], got {base_lineup!r}')
    keys = list(grid)
    points = []
    for combo in itertools.product(*(grid[k] for k in keys)):
        labels, knobs, lineup = {}, dict(fixed), base_lineup
        for key, value in zip(keys, combo, strict=True):
            if key == "lineup":
                if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                    raise InputError(f"{name}: grid.lineup entries must be lists of policy "
                                     f"names, got {value!r}")
                labels[key] = grid[key].index(value)
                lineup = value
                if len(value) > 1 and "players" not in grid and "players" not in fixed:
                    knobs["players"] = len(value)  # a line-up names every seat
            else:
                labels[key] = value
                knobs[key] = value
        points.append((labels, knobs, lineup))
    # build every point's config now, so a bad knob fails before any game runs
    for labels, knobs, lineup in points:
        try:
            prepare(game, policies=lineup, **knobs)
        except SnapsimError as exc:
            where = ", ".join(f"{k}={v}" for k, v in labels.items())
            raise InputError(f"{name}: point {where}: {exc}") from None
    return Sweep(game, games, seed, chunk, rotate, points, out)


def _partitioning(path: Path):
    """Hive partitioning with the swept values' own types (from sweep.json), so a swept
    column that is also a result column (e.g. players) merges instead of clashing."""
    meta = path / SWEEP_FILE
    if not meta.exists():
        return None  # one run: its chunk files side by side
    points = json.loads(meta.read_text())["points"]
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
    folder = root
    for key, value in labels.items():
        text = json.dumps(value) if not isinstance(value, str | int | float | bool) else \
            str(value).lower() if isinstance(value, bool) else str(value)
        folder = folder / f"{key}={text}"
    return folder


def run_sweep(sweep: Sweep, out=None, resume=False, progress=False, threads=None,
              workers=None, scheduler=None):
    """Run every point (only missing chunks when resuming); returns (labels, result) pairs."""
    root = Path(out or sweep.out or "")
    if not str(root) or root == Path("."):
        raise InputError("the sweep needs an output folder: give --out DIR or out = \"DIR\"")
    points = []
    spec = None
    for labels, knobs, lineup in sweep.points:
        spec, config, pols = prepare(sweep.game, policies=lineup, **knobs)
        points.append(Point(point_folder(root, labels), config, pols, labels))
    root.mkdir(parents=True, exist_ok=True)
    (root / SWEEP_FILE).write_text(json.dumps(
        {"game": sweep.game, "games": sweep.games, "seed": sweep.seed,
         "points": [p.labels for p in points]}, indent=1))
    results = run_points(spec, points, sweep.games, sweep.seed, sweep.rotate_seats,
                         sweep.chunk_size, resume, progress, threads, workers, scheduler)
    return [(p.labels, r) for p, r in zip(points, results, strict=True)]


def load(path, **filters) -> pd.DataFrame:
    """Load a run or sweep folder (or one .parquet file) as one DataFrame, in order; keyword
    filters select partitions, e.g. load("runs/sweep", photo_target=8)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path} does not exist; give a run or sweep folder")
    if path.is_file():
        return pd.read_parquet(path)
    ds = pads.dataset(path, format="parquet", partitioning=_partitioning(path),
                      ignore_prefixes=[".", "_", MANIFEST, SWEEP_FILE])
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
