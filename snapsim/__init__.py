"""snapsim: exact odds, fast simulators and balance reports for wildlife-photography games.

`import snapsim` stays light: the public functions (with pandas, pyarrow and the numba
kernels behind them) are imported on first use, each with its own signature.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any

from . import lazy
from .version import __version__ as __version__

if TYPE_CHECKING:
    from .analysis.ladder import ladder
    from .play.advice import advise
    from .report.compare import compare
    from .report.rebalance import rebalance
    from .sim.runner import run, simulate
    from .sim.sweep import load

_LAZY = {"simulate": "snapsim.sim.runner", "run": "snapsim.sim.runner",
         "load": "snapsim.sim.sweep", "ladder": "snapsim.analysis.ladder",
         "advise": "snapsim.play.advice", "compare": "snapsim.report.compare",
         "rebalance": "snapsim.report.rebalance"}


def __getattr__(name: str) -> Any:
    return lazy.attribute(__name__, _LAZY, name)


def __dir__() -> list[str]:
    return lazy.names(__name__, _LAZY)


def _writable(folder: str) -> bool:
    """Whether this process can create files in `folder` (made on demand): tried for real,
    since os.access says yes to root for places nobody can write (/proc, a read-only
    mount)."""
    probe = os.path.join(folder, f".snapsim-probe-{os.getpid()}")
    try:
        os.makedirs(folder, exist_ok=True)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:
        return False
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return True


def _numba_cache_dir() -> None:
    """numba caches compiled kernels beside their source; in a read-only install (system
    site-packages, a container image) that fails and numba tries ~/.cache/numba, and if HOME
    is read-only too it refuses to import the kernels. Point it, before numba is imported,
    at $XDG_CACHE_HOME/snapsim (~/.cache/snapsim), else at a private temporary folder
    removed at exit (no cache kept between runs). NUMBA_CACHE_DIR, if set, is respected."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    if _writable(os.path.join(os.path.dirname(__file__), "__pycache__")):
        _drop_stale_kernels()
        return
    home_cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                  ".cache")
    folder = os.path.join(home_cache, "snapsim")
    if not _writable(folder):
        import atexit
        import shutil
        import tempfile

        try:
            folder = tempfile.mkdtemp(prefix="snapsim-numba-")
        except OSError:  # no writable folder at all: numba's own message will say so
            return
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # spawned workers inherit it
    if "numba" in sys.modules:  # imported before snapsim: its config is already read
        sys.modules["numba"].config.CACHE_DIR = folder


# where the compiled kernels come from: a kernel calls kernels of other files
KERNEL_SOURCES = ("games", "odds", "sim")


def _drop_stale_kernels() -> None:
    """numba keeps a kernel cached beside its source and checks only that file's date: a
    kernel whose callee in another file changed would load its old machine code, and play
    the old rules or policy. So when any kernel source differs from the last import's (date
    and size of every file under KERNEL_SOURCES), every cached kernel is deleted and
    compiled again on first use. Deleting files only is safe while another process loads
    them: numba then compiles. (An installed copy gets new dates on every install, so its
    caches elsewhere never outlive their sources.)"""
    root = os.path.dirname(__file__)
    stamp = []
    for part in KERNEL_SOURCES:
        for folder, subs, files in os.walk(os.path.join(root, part)):
            subs[:] = sorted(d for d in subs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(folder, name))
                    stamp.append(f"{os.path.relpath(folder, root)}/{name} {st.st_size} "
                                 f"{st.st_mtime_ns}")
    text = "\n".join(stamp)
    path = os.path.join(root, "__pycache__", "kernel-sources.txt")
    with contextlib.suppress(OSError), open(path) as f:
        if f.read() == text:
            return
    for part in KERNEL_SOURCES:
        for folder, _, files in os.walk(os.path.join(root, part)):
            if os.path.basename(folder) == "__pycache__":
                for name in files:
                    if name.endswith((".nbi", ".nbc")):
                        with contextlib.suppress(OSError):
                            os.unlink(os.path.join(folder, name))
    temp = f"{path}.{os.getpid()}"
    with contextlib.suppress(OSError):
        with open(temp, "w") as f:
            f.write(text)
        os.replace(temp, path)


_numba_cache_dir()


__all__ = ["advise", "compare", "ladder", "load", "rebalance", "run", "simulate"]
