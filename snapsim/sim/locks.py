"""One writer per output folder: a run that writes a folder holds an exclusive lock on it, so
a second run given the same folder is refused in one line instead of mixing its files in.
The lock is the kernel's (flock), so it ends with the process however the process ends."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import InputError

LOCK = ".snapsim.lock"

try:
    import fcntl
except ImportError:  # not a POSIX system: no lock (one writer is then the user's affair)
    fcntl = None


@contextmanager
def exclusive(folder, flag: str = "--out") -> Iterator[Path]:
    """Hold `folder` (made if missing) for this process while the block runs; another
    process holding it is an InputError naming its process id."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise InputError(f"{flag} {str(folder)!r}: cannot write there ({exc.strerror or exc});"
                         " choose a writable folder") from None
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
                raise InputError(f"{folder} is being written by another snapsim run (process "
                                 f"{other}); wait for it to finish or choose another "
                                 f"{flag}") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield folder
    finally:
        os.close(fd)  # the file stays: unlinking it could let two runs lock two inodes
