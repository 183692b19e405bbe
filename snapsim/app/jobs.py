"""Long runs off the page's thread. A job is keyed by everything that decides its result
(the component file's SHA-256, knobs, policies, seed, n, ...); asking for a key that is
running or done gets that job, so a second tab or a reloaded page watches the same run
instead of starting another, and asking again for a finished one is instant (the cache of
this server process)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..errors import SnapsimError

MAX_KEPT = 64  # finished jobs kept for instant answers; the oldest go first
R = TypeVar("R")  # what a job's work returns


@dataclass
class Job(Generic[R]):
    """One run: what it is doing (`stage`, `fraction` done where known), then its `result`
    or its `error` (a SnapsimError's one line, or the failure's last line); `result` is None
    until the work returns, and stays None when it fails."""

    key: str
    label: str
    started: float = field(default_factory=time.monotonic)
    stage: str = "starting"
    fraction: float | None = None
    result: R | None = None
    error: str | None = None
    finished: float | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def report(self, stage: str, fraction: float | None = None) -> None:
        """Called by the work as it goes: what it is doing and how far it is."""
        self.stage, self.fraction = stage, fraction

    @property
    def seconds(self) -> float:
        return (self.finished or time.monotonic()) - self.started


Work = Callable[[Job[R]], R]  # a job's work: reports on its job as it goes, returns the result

_JOBS: dict[str, Job[Any]] = {}  # Job[Any]: a key names its work, and so its result's type
_LOCK = threading.Lock()


def key_of(*parts: object) -> str:
    """A job's key from the things that decide its result (JSON-able)."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def start(key: str, label: str, work: Work[R]) -> Job[R]:
    """The job for `key`: the one running or done, else `work(job)` started on its own
    thread."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is not None and not (job.done.is_set() and job.error):
            return job
        job = _JOBS[key] = Job(key, label)
        finished = [k for k, j in _JOBS.items() if j.done.is_set()]
        for old in finished[:max(0, len(finished) - MAX_KEPT)]:
            del _JOBS[old]
    threading.Thread(target=_run, args=(job, work), name=f"snapsim-{label}",
                     daemon=True).start()
    return job


def find(key: str) -> Job[Any] | None:
    """The job for `key`, if one was started in this server."""
    return _JOBS.get(key)


def _run(job: Job[R], work: Work[R]) -> None:
    try:
        job.result = work(job)
    except SnapsimError as exc:
        job.error = str(exc)
    except Exception as exc:  # shown as one line on the page; the log keeps the traceback
        traceback.print_exc()
        job.error = f"{type(exc).__name__}: {exc}"
    finally:
        job.finished = time.monotonic()
        job.done.set()


def wait(job: Job[R], show: Callable[[Job[R]], None], every: float = 0.25) -> Job[R]:
    """Show the job's progress until it is done (the page's script waits; the work runs on
    its own thread, so a rerun or a closed tab leaves it running)."""
    while not job.done.wait(every):
        show(job)
    return job
