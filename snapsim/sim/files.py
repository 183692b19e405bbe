"""Reading the files a user names: component and variant files, sweep and situation files,
saved games, tuned policies. Only a regular file of bounded size is read, so /dev/zero, a
pipe, a folder or a huge file given by mistake is refused in one line instead of hanging or
filling the memory. A refusal is an OSError whose `strerror` says what the path is, so the
readers' own "cannot read FILE (why)" messages carry it unchanged."""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
import tomllib
from pathlib import Path

from ..errors import InputError

# Input files are small text: the largest bundled component file is tens of KB, a saved
# game a few KB. Anything bigger than this is not what the user meant to give.
MAX_INPUT_BYTES = 16 * 2**20
# Lists and tables inside lists and tables: every snapsim file nests a few levels deep; a
# hundred is far past any of them and far below Python's recursion limit.
MAX_NESTING = 100


class FileRefused(OSError):
    """A path that is not a regular file, or a file larger than snapsim reads."""


def _not_regular(mode: int) -> str | None:
    """What a path is when it is not a regular file (None when it is one)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "a pipe, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "not a regular file"


def local_path(path) -> Path:
    """`path` as a Path; one holding a NUL character, which the system refuses with a
    ValueError rather than an OSError, is a FileRefused like any path that is no file."""
    if "\0" in str(path):
        raise FileRefused(errno.EINVAL, "a path holding a NUL character, which no file's name "
                                        "holds", str(path).replace("\0", "\\0"))
    return Path(path).expanduser()


def read_bytes(path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; anything else is a
    FileRefused (an OSError), as a missing or unreadable file is an OSError."""
    path = local_path(path)
    why = _not_regular(os.stat(path).st_mode)  # a pipe is never opened: that would block
    if why is not None:
        raise FileRefused(errno.EINVAL, why, str(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        why = _not_regular(os.fstat(fd).st_mode)  # swapped for another kind since the stat
        if why is not None:
            raise FileRefused(errno.EINVAL, why, str(path))
        data = fh.read(limit + 1)  # /proc files say size 0: the cap is on what is read
    if len(data) > limit:
        raise FileRefused(errno.EFBIG, f"larger than {limit // 2**20} MB, far more than any "
                                       "snapsim input file", str(path))
    return data


def read_text(path, limit: int = MAX_INPUT_BYTES) -> str:
    """A regular file's text (UTF-8); UnicodeDecodeError when it is not UTF-8."""
    return read_bytes(path, limit).decode("utf-8")


def _nesting(data) -> int:
    """How deep lists and tables nest in `data` (walked level by level, not recursively, so
    the walk cannot overflow the stack itself)."""
    depth, level = 0, [data]
    while level := [x for x in level if isinstance(x, dict | list)]:
        depth += 1
        level = [v for x in level for v in (x.values() if isinstance(x, dict) else x)]
    return depth


def _parsed(parse, text: str, error):
    """`parse(text)`, with lists or tables nested past MAX_NESTING (which would overflow
    Python's stack in the parser or in any later walk over the data) raised as the format's
    own syntax error, `error`, so every reader refuses it as it refuses bad syntax."""
    too_deep = f"lists or tables nested more than {MAX_NESTING} deep"
    try:
        data = parse(text)
    except RecursionError:
        raise error(too_deep) from None
    if _nesting(data) > MAX_NESTING:
        raise error(too_deep)
    return data


def parse_toml(text: str) -> dict:
    """TOML text's tables (tomllib.TOMLDecodeError when its syntax is wrong or it nests too
    deep)."""
    return _parsed(tomllib.loads, text, tomllib.TOMLDecodeError)


def parse_json(text: str):
    """JSON text's value (ValueError when its syntax is wrong or it nests too deep)."""
    return _parsed(json.loads, text, ValueError)


def read_toml(path) -> dict:
    """A TOML file's tables (tomllib.TOMLDecodeError when its syntax is wrong)."""
    return parse_toml(read_text(path))


def read_json(path):
    """A JSON file's value (ValueError when it is not JSON or not UTF-8)."""
    return parse_json(read_text(path))


# ---------------------------------------------------------------- writing


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path, write, replace: bool = True) -> Path:
    """Write `path` through a temporary file beside it, renamed into place only once `write`
    (called with the temporary path) has finished, so a crash or a full disk leaves the old
    file or none, never half of one. With `replace=False` a file that appeared at `path`
    meanwhile is kept (FileExistsError). The file gets the permissions the user's umask gives
    any new file (mkstemp alone would make it private, 0600)."""
    path = Path(path)
    made = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
    path.parent.mkdir(parents=True, exist_ok=True)  # as users expect of --out runs/3p.parquet
    done = False
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
        os.close(fd)
        try:
            os.chmod(tmp, 0o666 & ~_umask())
            write(tmp)
            if replace:
                os.replace(tmp, path)
            else:
                os.link(tmp, path)  # fails if the name is taken: never over another's file
            done = True
        finally:
            Path(tmp).unlink(missing_ok=True)
    finally:
        if not done:  # a failed write leaves no folder it made either
            for folder in made:
                try:
                    folder.rmdir()
                except OSError:
                    break
    return path


def write_bytes(path, data: bytes, replace: bool = True) -> Path:
    """`data` written to `path` whole or not at all (see write_atomic)."""
    return write_atomic(path, lambda tmp: Path(tmp).write_bytes(data), replace)


def write_text(path, text: str, replace: bool = True) -> Path:
    """`text` written to `path` (UTF-8) whole or not at all (see write_atomic)."""
    return write_bytes(path, text.encode("utf-8"), replace)


def claim_output(path, force: bool, ours, flag: str = "--out") -> bool:
    """Whether a one-file output at `path` may be written over: never a file that is not
    snapsim's (`ours(path)` says whether it is, e.g. by the header snapsim writes), even with
    --force, which replaces only snapsim's own result; an existing file of snapsim's needs
    `force`. False when nothing is there (write without replacing)."""
    path = Path(path)
    if not (path.exists() or path.is_symlink()):
        return False
    if path.is_symlink() or not path.is_file() or not ours(path):
        raise InputError(f"{path} exists and is not a result snapsim wrote; snapsim never "
                         f"replaces it, even with --force: choose another {flag} or move it "
                         "away")
    if not force:
        raise InputError(f"{path} already exists; choose another {flag} or add --force to "
                         "replace it")
    return True


def starts_with(marker: bytes):
    """A test of whether a file begins with `marker` (snapsim's header in a file it wrote)."""
    def test(path: Path) -> bool:
        try:
            with open(path, "rb") as fh:  # a regular file: claim_output checked it
                return fh.read(len(marker)) == marker
        except OSError:
            return False
    return test
