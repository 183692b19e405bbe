"""One writer per output folder: a run that writes a folder holds an exclusive lock on it, so
a second run given the same folder is refused in one line instead of mixing its files in.
The lock is the kernel's (flock), so it ends with the process however the process ends.

The lock file is removed when the writer is done (and so is the folder, when the lock made it
and nothing was written), so a refused or failed command leaves nothing behind. A lock is
taken on the file's inode and checked to still be the file at that name, so removing it
cannot let two writers hold two different files. Within one process the lock is re-entrant:
a command that holds a folder may call library code that takes it again.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import InputError

LOCK = ".snapsim.lock"

try:
    import fcntl
except ImportError:  # not a POSIX system: no lock (one writer is then the user's affair)
    fcntl = None  # type: ignore[assignment]  # the module is absent there

_HELD: dict[str, int] = {}  # folder (resolved) -> depth, for the folders this process holds


def _made_folders(folder: Path) -> list[Path]:
    """Make `folder` and any missing parents; the ones made, outermost first."""
    missing = []
    p = folder
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    folder.mkdir(parents=True, exist_ok=True)
    return list(reversed(missing))


def _acquire(folder: Path, flag: str) -> int:
    """An open, locked descriptor of `folder`'s lock file."""
    path = folder / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is None:
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise InputError(f"{folder} is being written by another snapsim run (process "
                             f"{other}); wait for it to finish or choose another "
                             f"{flag}") from None
        try:  # the holder before us may have removed the file after we opened it
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)


@contextmanager
def exclusive(folder, flag: str = "--out") -> Iterator[Path]:
    """Hold `folder` (made if missing) for this process while the block runs; another
    process holding it is an InputError naming its process id."""
    folder = Path(folder).expanduser()
    key = str(folder.resolve())
    if _HELD.get(key):
        _HELD[key] += 1
        try:
            yield folder
        finally:
            _HELD[key] -= 1
        return
    try:
        made = _made_folders(folder)
        fd = _acquire(folder, flag)
    except OSError as exc:
        raise InputError(f"{flag} {str(folder)!r}: cannot write there ({exc.strerror or exc});"
                         " choose a writable folder") from None
    _HELD[key] = 1
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield folder
    finally:
        del _HELD[key]
        with contextlib.suppress(OSError):
            os.unlink(folder / LOCK)  # still held: no other writer can be between the two
        os.close(fd)
        for made_folder in reversed(made):  # a refused or failed writer leaves no folder
            try:
                made_folder.rmdir()
            except OSError:
                break


def held(folder) -> bool:
    """Whether this process holds `folder`."""
    return bool(_HELD.get(str(Path(folder).expanduser().resolve())))
