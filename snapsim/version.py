"""The snapsim version, at the bottom of the layers so that every output can say what made it.

Declared here alone (pyproject.toml reads it from this file). Semantic versioning: a release
that changes any result (a game's rules, a policy's play, a default, a statistic) bumps the
minor version; CHANGELOG.md says what each release changed.

`commit()` adds the git commit when snapsim runs from a checkout of its own source (an
editable install of a clone), so that two outputs of one version made from different code can
be told apart.
"""

from __future__ import annotations

import re
from pathlib import Path

__version__ = "0.2.0"

_SOURCE = Path(__file__).resolve().parent.parent  # a checkout's root, when this is one
_OBJECT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")  # a SHA-1 or SHA-256 object name
_REF = re.compile(r"refs/[\w./-]+")
_READ = 1 << 16  # bytes read of one small git file (HEAD, a ref, a gitdir pointer)


def _small(path: Path) -> str | None:
    """The start of a regular file as text (never a pipe, which would block); None if it is
    not one or cannot be read."""
    try:
        if not path.is_file():
            return None
        with path.open("rb") as fh:
            return fh.read(_READ).decode("utf-8", "replace")
    except OSError:
        return None


def _git_folders(root: Path) -> tuple[Path, Path] | None:
    """(the checkout's git folder, the one holding its shared refs); a worktree's `.git` is a
    file naming its folder, which names the common one."""
    dot = root / ".git"
    if dot.is_dir():
        folder = dot
    else:
        text = _small(dot)
        if not text or not text.startswith("gitdir:"):
            return None
        folder = (root / text.partition(":")[2].strip()).resolve()
    common = _small(folder / "commondir")
    return folder, (folder / common.strip()).resolve() if common else folder


def _packed(common: Path, ref: str) -> str | None:
    """`ref`'s object name in packed-refs (lines `NAME REF`)."""
    try:
        with (common / "packed-refs").open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                name, _, which = line.strip().partition(" ")
                if which == ref and _OBJECT.fullmatch(name):
                    return name
    except OSError:
        return None
    return None


def commit(root: Path = _SOURCE) -> str | None:
    """The commit checked out where this package's source lives (read from the git files
    directly: no git program, nothing run), or None when the source is not a checkout of
    snapsim (an installed copy) or its git files cannot be read. It names the commit, not
    whether the files were edited since."""
    if "name = \"snapsim\"" not in (_small(root / "pyproject.toml") or ""):
        return None  # a folder of another project's, or none: its commit is not snapsim's
    folders = _git_folders(root)
    if folders is None:
        return None
    folder, common = folders
    head = (_small(folder / "HEAD") or "").strip()
    if _OBJECT.fullmatch(head):  # a detached HEAD names its commit
        return head
    ref = head.removeprefix("ref:").strip()
    if not head.startswith("ref:") or not _REF.fullmatch(ref) or ".." in ref:
        return None
    for where in (folder, common):
        name = (_small(where / ref) or "").strip()
        if _OBJECT.fullmatch(name):
            return name
    return _packed(common, ref)
