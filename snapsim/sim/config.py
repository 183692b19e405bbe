"""What every game's config and component files share: rule knobs by name, and loading a
component file once per version with a one-line error when it cannot be opened."""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable
from pathlib import Path

from ..errors import ComponentError, InputError
from .files import local_path


class RuleKnobs:
    """`replace` and `from_knobs` for a frozen dataclass config; GAME names the game."""

    GAME = "game"
    components: object  # each game's config: its component set, or a name or path to load

    def _load_components(self, load: Callable[[object], object]) -> None:
        """Accept "standard", a component file path or a loaded set for `components`."""
        value = self.components
        if isinstance(value, str) and value == "standard":
            object.__setattr__(self, "components", load(None))
        elif isinstance(value, str | os.PathLike):
            object.__setattr__(self, "components", load(value))

    def replace(self, **changes):
        """A copy with some knobs changed (unknown knobs are a clear error)."""
        return self.from_knobs(**{**{f.name: getattr(self, f.name)
                                     for f in dataclasses.fields(self)}, **changes})

    @classmethod
    def from_knobs(cls, **knobs):
        """Build from keyword knobs, naming an unknown knob clearly (CLI --set, sweeps)."""
        known = {f.name for f in dataclasses.fields(cls)}
        bad = sorted(set(knobs) - known)
        if bad:
            raise InputError(f"unknown {cls.GAME} rule knob {bad[0]!r}; knobs are "
                             f"{', '.join(sorted(known - {'components'}))}")
        return cls(**knobs)


def load_cached(path: str | os.PathLike[str] | None, bundled: Path, loader,
                data: dict | None = None):
    """Parse a component file (None: the bundled one) with `loader` (a TomlLoader class),
    cached by path, mtime and size so an edited file is read again; `data`, a file's tables
    already read, is parsed afresh (it has no file version to key a cache)."""
    if data is not None:
        return loader.parse_data(data, path if path is not None else "variant.toml")
    target = bundled if path is None else Path(path).expanduser()
    try:
        resolved = local_path(target).resolve()
        stat = resolved.stat()
    except OSError as exc:
        raise ComponentError(f"{target.name}: file: cannot open {str(target)!r} "
                             f"({exc.strerror or exc}); check the file's path"
                             ) from None
    return _cached(loader.parse, str(resolved), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _cached(parse, path: str, mtime_ns: int, size: int):
    return parse(Path(path))
