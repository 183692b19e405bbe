"""Where chunks run: this process (numba threads), a local process pool, or Dask.

A task is plain data: (game name, config, policies, first game, count, seed, rotation). Every
backend ships that, never a function object or RNG state, and yields finished chunks as they
complete with a bounded number in flight, so memory stays flat however long the run.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

import pandas as pd

from ..errors import InputError
from .checks import MAX_WORKERS, whole
from .registry import get_game


@dataclass(frozen=True)
class Task:
    """One chunk of work as plain data, so any process or Dask worker can run it: games
    first .. first+count-1 of the run keyed by `seed`."""

    key: object  # the caller's tag (e.g. (point, chunk index))
    game: str
    config: object
    policies: tuple
    first: int
    count: int
    seed: int
    rotate_seats: bool


def compute(task: Task) -> pd.DataFrame:
    """Run one chunk; a module-level function so any worker can import it by name."""
    spec = get_game(task.game)
    return spec.run_chunk(task.config, list(task.policies), task.first, task.count, task.seed,
                          task.rotate_seats)


def warm_up(game: str, config, policies) -> bool:
    """Compile (or load from cache) a worker's kernels once, before real work arrives."""
    get_game(game).run_chunk(config, list(policies), 0, 1, 0, False)
    return True


def _die_with_parent(parent: int) -> None:
    """End this worker when the process that started it ends, however it ends (a SIGKILL
    included), so no worker outlives its run. Linux: the kernel delivers SIGKILL
    (prctl PR_SET_PDEATHSIG); elsewhere a thread checks the parent every half second
    (between chunks, as a compiled chunk holds the interpreter)."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent went before the request took hold
            os._exit(1)
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="snapsim-parent-watch").start()


def _start_worker(parent: int) -> None:
    _die_with_parent(parent)
    os.environ["NUMBA_NUM_THREADS"] = "1"


class LocalBackend:
    """In this process; each chunk spread over `threads` threads (`sim.kernel.run_blocks`)."""

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def run(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, pd.DataFrame]]:
        """(task, table) for each task, in order, each spread over the threads."""
        import numba

        old = numba.get_num_threads()
        if self.threads is not None:
            numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))
        try:
            for task in tasks:
                yield task, compute(task)
        finally:
            numba.set_num_threads(old)

    def close(self) -> None:
        """Nothing to release: the work ran in this process."""


def _bounded(submit, done_of, tasks: Iterable[Task], window: int):
    """Keep at most `window` tasks in flight; yield (task, future) as each completes."""
    pending = {}
    it = iter(tasks)
    exhausted = False
    while True:
        while not exhausted and len(pending) < window:
            task = next(it, None)
            if task is None:
                exhausted = True
                break
            pending[submit(task)] = task
        if not pending:
            return
        for fut in done_of(list(pending)):
            yield pending.pop(fut), fut


class ProcessBackend:
    """A pool of local worker processes, one numba thread each."""

    def __init__(self, workers: int):
        self.workers = workers
        # spawn, not fork: forking a process whose numba threads are running is unsafe
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                                        initargs=(os.getpid(),),
                                        mp_context=multiprocessing.get_context("spawn"))

    def run(self, tasks):
        """(task, table) for each task as it finishes (any order: the caller sorts by key)."""
        def done_of(futs):
            return wait(futs, return_when=FIRST_COMPLETED).done

        for task, fut in _bounded(lambda t: self.pool.submit(compute, t), done_of, tasks,
                                  2 * self.workers):
            yield task, fut.result()

    def close(self) -> None:
        """Stop the workers, dropping chunks not started."""
        self.pool.shutdown(cancel_futures=True)


class DaskBackend:
    """Dask distributed: `tcp://host:port` of a running scheduler, or `local:N` for a
    LocalCluster of N single-threaded worker processes started here."""

    def __init__(self, scheduler: str, game: str, config, policies):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InputError("the Dask backend needs dask distributed: "
                             "pip install 'snapsim[distributed]'") from None
        self.cluster = None
        if scheduler.startswith("local:"):
            try:
                n = int(scheduler.split(":", 1)[1])
                if n < 1:
                    raise ValueError
            except ValueError:
                raise InputError(f"--scheduler {scheduler!r}: write local:N with N >= 1 "
                                 "worker processes") from None
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        dashboard_address=None,
                                        env={"NUMBA_NUM_THREADS": "1"})
            self.client = Client(self.cluster)
        elif scheduler.startswith("tcp://"):
            try:
                self.client = Client(scheduler, timeout=10)
            except (OSError, TimeoutError) as exc:
                raise InputError(f"cannot reach the Dask scheduler at {scheduler} ({exc}); "
                                 "start it with `dask scheduler` or check the address") from None
        else:
            raise InputError(f"--scheduler {scheduler!r}: give tcp://HOST:PORT or local:N")
        self.client.run(warm_up, game, config, tuple(policies))
        self.workers = max(1, len(self.client.scheduler_info()["workers"]))

    def run(self, tasks):
        """(task, table) for each task as it finishes (any order: the caller sorts by key)."""
        from distributed import wait as dwait

        def done_of(futs):
            return dwait(futs, return_when="FIRST_COMPLETED").done

        for task, fut in _bounded(lambda t: self.client.submit(compute, t, pure=False),
                                  done_of, tasks, 2 * self.workers):
            yield task, fut.result()

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this backend started it."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def check_backend(threads=None, workers=None, scheduler=None) -> None:
    """Reject bad backend options before anything is written or started."""
    for name, value in (("threads", threads), ("workers", workers)):
        if value is not None:
            whole(value, name, 1, MAX_WORKERS)
    if scheduler is not None:
        if not isinstance(scheduler, str):
            raise InputError(f"scheduler must be tcp://HOST:PORT or local:N, got {scheduler!r}")
        if workers is not None:
            raise InputError("give either --workers or --scheduler, not both")
        if scheduler.startswith("local:"):
            n = scheduler.split(":", 1)[1]
            if not n.isdigit() or int(n) < 1:
                raise InputError(f"--scheduler {scheduler!r}: write local:N with N >= 1 "
                                 "worker processes")
        elif not scheduler.startswith("tcp://"):
            raise InputError(f"--scheduler {scheduler!r}: give tcp://HOST:PORT or local:N")


def make_backend(game: str, config, policies, threads=None, workers=None, scheduler=None):
    """Dask with `scheduler`, a process pool with `workers`, else this process with numba
    threads; the choice never changes a result, only where the chunks run."""
    check_backend(threads, workers, scheduler)
    if scheduler:
        return DaskBackend(scheduler, game, config, policies)
    if workers is not None:
        return ProcessBackend(workers)
    return LocalBackend(threads)
