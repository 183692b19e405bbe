"""What made a result: components (name and SHA-256 of the file's bytes), the rule knobs that
differ from their defaults, the policies with their parameters, seed, games, version and (from
a checkout of snapsim's source) the git commit.

Every output snapsim writes carries this record (Parquet manifests and files, report folders,
comparisons, tuned-policy files), so a number can always be traced to the file and settings
that produced it; `snapsim.load()` hands it back as `df.attrs["provenance"]`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from pathlib import Path

from ..version import __version__, commit
from .files import read_bytes
from .registry import get_game

PROVENANCE_FILE = "provenance.json"


@functools.lru_cache(maxsize=64)
def _file_sha256(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(read_bytes(path)).hexdigest()


def file_sha256(path) -> str:
    """SHA-256 of a file's bytes (what `sha256sum FILE` prints), cached per file version."""
    p = Path(path).resolve()
    stat = p.stat()
    return _file_sha256(str(p), stat.st_mtime_ns, stat.st_size)


def bundled_path(game: str) -> Path:
    """The component file shipped with snapsim for `game`."""
    return Path(get_game(game).load_components(None).path)


def components_record(game: str, components) -> dict:
    """Name, file and SHA-256 of a component set; "standard" when it is the bundled file."""
    path = Path(components.path)
    sha = file_sha256(path) if path.exists() else None
    standard = path.exists() and sha == file_sha256(bundled_path(game))
    package = Path(__file__).resolve().parent.parent
    shown = (f"snapsim/{path.resolve().relative_to(package)}"
             if path.resolve().is_relative_to(package) else str(path))
    return {"name": "standard" if standard else path.stem, "file": shown,
            "sha256": sha, "standard": standard}


def changed_knobs(game: str, config) -> dict:
    """Rule knobs whose value differs from the game's default at the same player count."""
    spec = get_game(game)
    default = spec.make_config(players=spec.players(config))
    out = {}
    for f in dataclasses.fields(config):
        if f.name in ("components", "players"):
            continue
        value = getattr(config, f.name)
        if value != getattr(default, f.name):
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def describe(obj) -> object:
    """JSON-able description of a policy or config (dataclass fields that count for equality)."""
    if dataclasses.is_dataclass(obj):
        return {f.name: describe(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                if f.compare}
    if isinstance(obj, tuple | list):
        return [describe(x) for x in obj]
    return obj


def provenance(game: str, config, policies, seed: int, games: int, **extra) -> dict:
    """The record for one run (or one side of a comparison); `extra` adds output-specific
    fields such as the rotation of seats."""
    return _plain({"snapsim": __version__, "commit": commit(), "game": game,
                   "components": components_record(game, config.components),
                   "players": get_game(game).players(config),
                   "knobs": changed_knobs(game, config),
                   "policies": [describe(p) for p in policies],
                   "seed": seed, "games": games, **extra})


def _plain(obj):
    """JSON-able copy: numpy scalars and tuples become Python numbers and lists."""
    def plain(o):
        if hasattr(o, "tolist"):
            return o.tolist()
        return sorted(o) if isinstance(o, set) else str(o)

    return json.loads(json.dumps(obj, default=plain))


def footer(record: dict) -> str:
    """One line for the foot of a report: what made it."""
    comps = record.get("components", {})
    sha = (comps.get("sha256") or "")[:12]
    if "knobs" in record:
        knobs = ", ".join(f"{k}={v}" for k, v in record["knobs"].items()) or "defaults"
    else:
        knobs = "each configuration's in provenance.json"
    return (f"Made by snapsim {record.get('snapsim')} from components {comps.get('name')} "
            f"(sha256 {sha}...), knobs: {knobs}; seed {record.get('seed')}; "
            f"n = {record.get('games')} games per configuration.")
