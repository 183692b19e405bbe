"""Run many seeded games: in memory (`simulate`) or streamed to a Parquet dataset (`run`).

Game i of a run depends only on (config, policies, seed, i): chunks are just batches of game
indices, so the result is the same for any chunk size, thread count, process count or
backend, and a resumed run equals an uninterrupted one.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
from tqdm import tqdm

from ..errors import InputError
from .agents import AgentError, StepBackend, is_agent, policy_or_agent
from .agents import move_timeout as agent_move_timeout
from .backends import Task, check_backend, make_backend
from .checks import MAX_IN_MEMORY_GAMES, entries, flag, path_arg, whole
from .locks import exclusive
from .provenance import describe, provenance
from .registry import get_game
from .store import RunStore, chunk_plan
from .sums import add_sums, group_sums
from .variants import load_variant

DEFAULT_CHUNK = 5_000
MAX_GAMES = 10**9  # a run's chunk plan stays small; more games than any study needs


def _check_run(games, chunk_size, seed, **flags) -> None:
    """A run's size, seed and true/false settings, checked before anything starts."""
    whole(games, "games", 1, MAX_GAMES)
    whole(chunk_size, "chunk_size", 1, MAX_GAMES)
    whole(seed, "seed", 0)
    for name, value in flags.items():
        flag(value, name)


def prepare(game: str, players=None, policies=None, config=None, components=None, **knobs):
    """Resolve (spec, config, policies) from user arguments, with clear errors; components
    may be "standard", a file path (a variant file's [knobs] played too, under `knobs` given
    here), a loaded component set or a `sim.variants.Variant`."""
    spec = get_game(game)
    variant = None if components is None else load_variant(spec.name, components)
    if config is None:
        if variant is not None:
            config = variant.config(players, **knobs)
        else:
            config = spec.make_config(**knobs, **({} if players is None else
                                                  {"players": players}))
    elif not isinstance(config, type(spec.make_config())):
        raise InputError(f"config must be a {type(spec.make_config()).__name__} (or give "
                         f"players and knobs instead), got {type(config).__name__}")
    elif knobs or variant is not None:
        if variant is not None:
            knobs = {**variant.knobs.for_players(spec.players(config)), **knobs,
                     "components": variant.components}
        config = config.replace(**knobs)
    n = spec.players(config)
    specs = [spec.default_policy] * n if policies is None else entries(policies, "policies")
    pols = [policy_or_agent(spec, p) for p in specs]
    if len(pols) == 1:
        pols = pols * n
    if len(pols) != n:
        raise InputError(f"{n} players need {n} policies (or one for all), got {len(pols)}")
    return spec, config, tuple(pols)


def _backend(spec, lineups, config, threads, workers, scheduler):
    """Where the chunks run: a line-up holding a Python agent plays in this process through
    the step class (see snapsim.sim.agents); built-in line-ups keep the batch kernels."""
    if not any(is_agent(p) for pols in lineups for p in pols):
        return make_backend(spec.name, config, lineups[0], threads, workers, scheduler)
    if workers is not None or scheduler is not None:
        raise InputError("a line-up with a Python agent plays in this process, game after "
                         "game: drop --workers/--scheduler")
    return StepBackend()


def identity(spec, config, policies, seed, rotate_seats) -> dict:
    """What makes a run's results: a resumed run must match it exactly."""
    return {"game": spec.name, "config": describe_config(config),
            "policies": [describe(p) for p in policies], "seed": seed,
            "rotate_seats": rotate_seats}


def describe_config(config) -> dict:
    """JSON-able knobs of a config, the component set as its file name and SHA-256."""
    out: dict[str, object] = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if f.name == "components":
            data = Path(value.path).read_bytes() if Path(value.path).exists() else b""
            out[f.name] = {"file": Path(value.path).name,
                           "sha256": hashlib.sha256(data).hexdigest()}
        else:
            out[f.name] = describe(value)
    return out


def simulate(game: str, players: int | None = None, policies=None, games: int = 1000,
             seed: int = 0, rotate_seats: bool = True, threads: int | None = None,
             config=None, components=None, chunk_size: int = DEFAULT_CHUNK,
             progress: bool = False, workers: int | None = None, scheduler: str | None = None,
             move_timeout: float | None = None, **knobs) -> pd.DataFrame:
    """Play `games` games and return one row per (game, seat), in game order.

    Game i depends only on (config, policies, seed, i), so the table is the same for any
    `threads`, `chunk_size`, `workers` or `scheduler`. Local numba threads by default;
    `workers=N` uses a process pool and `scheduler=` Dask (tcp://HOST:PORT or local:N).

    Parameters
    ----------
    game : str
        "snapshot", "yosemite" or "shutterbug".
    players : int, optional
        Number of seats (default: the game's default config).
    policies : list of str or agents, optional
        Line-up, one per seat or one for all, e.g. ``["greedy", "cautious:max_risk=0.1"]``
        (default: the game's default policy at every seat). An entry may also be a Python
        agent: an object with ``act(observation, legal_actions)``, a callable, or
        ``"module:object"`` (see `snapsim.sim.agents`); a line-up holding one plays through
        the step class in this process, one game after another.
    games : int
        Games to play.
    seed : int
        Root seed; the same seed gives the same table.
    rotate_seats : bool
        Rotate the line-up over the seats game by game, so no policy keeps a seat.
    threads : int, optional
        numba threads in this process (default: all cores).
    config : dataclass, optional
        A ready game config (e.g. ``SnapshotConfig``) instead of `players` and knobs.
    components : str or path or component set, optional
        "standard", a component TOML file or a loaded set (default: the bundled file).
    chunk_size : int
        Games per chunk handed to a backend.
    progress : bool
        Show a progress bar.
    workers : int, optional
        Run chunks in this many local worker processes.
    scheduler : str, optional
        Dask scheduler address, ``tcp://HOST:PORT``, or ``local:N`` for a local cluster.
    move_timeout : float, optional
        Seconds a Python agent may take for one move before the run stops with an
        AgentError naming it (default: 60, or the limit set by an enclosing
        `snapsim.sim.agents.move_timeout`; 0: no limit).
    **knobs
        Rule knobs, the game config's fields (e.g. ``photo_target=8``).

    Returns
    -------
    pandas.DataFrame
        One row per (game, seat); the columns of each game are listed under Output schemas,
        and ``df.attrs["provenance"]`` says what made the table.
    """
    with agent_move_timeout(move_timeout):
        return _simulate(game, players, policies, games, seed, rotate_seats, threads, config,
                         components, chunk_size, progress, workers, scheduler, knobs)


def _simulate(game, players, policies, games, seed, rotate_seats, threads, config, components,
              chunk_size, progress, workers, scheduler, knobs) -> pd.DataFrame:
    spec, config, pols = prepare(game, players, policies, config, components, **knobs)
    if whole(games, "games", 1) > MAX_IN_MEMORY_GAMES:
        raise InputError(f"{games} games cannot be held in memory (at most "
                         f"{MAX_IN_MEMORY_GAMES:,}); stream them to a dataset folder with "
                         "--out DIR (snapsim.run in Python)")
    _check_run(games, chunk_size, seed, rotate_seats=rotate_seats, progress=progress)
    check_backend(threads, workers, scheduler)
    tasks = [Task(i, spec.name, config, pols, first, count, seed, rotate_seats)
             for i, first, count in chunk_plan(games, chunk_size)]
    backend = _backend(spec, [pols], config, threads, workers, scheduler)
    parts = {}
    try:
        with tqdm(total=games, unit="game", disable=not progress, desc=spec.name) as bar:
            for task, df in backend.run(tasks):
                parts[task.key] = df
                bar.update(task.count)
    except AgentError as exc:  # keep the games finished before the agent failed
        done = pd.concat([parts[k] for k in sorted(parts)] + [exc.finished],
                         ignore_index=True)
        error = AgentError(f"{exc}; {len(done) // spec.players(config)} games finished "
                           "before it (the error's `finished` table)")
        error.finished = done
        raise error from None
    finally:
        backend.close()
    df = pd.concat([parts[k] for k in sorted(parts)], ignore_index=True)
    df.attrs["provenance"] = provenance(spec.name, config, pols, seed, games,
                                        rotate_seats=rotate_seats)
    return df


def simulate_many(game: str, jobs, games: int, seed: int, threads: int | None = None,
                  workers: int | None = None, scheduler: str | None = None,
                  rotate_seats: bool = True, chunk_size: int = DEFAULT_CHUNK,
                  backend=None) -> list[pd.DataFrame]:
    """Many runs of built-in policies through one backend: `jobs` is a list of (config,
    policies), each played for `games` games from `seed` (so every job plays the same deals:
    common random numbers), and the tables come back in the jobs' order. Each table is the
    one `simulate` gives for the same arguments, whatever the backend; an open `backend`
    (`make_backend`) may be passed to reuse it across calls."""
    spec = get_game(game)
    _check_run(games, chunk_size, seed)
    check_backend(threads, workers, scheduler)
    jobs = [(config, tuple(policy_or_agent(spec, p) for p in pols)) for config, pols in jobs]
    if not jobs:
        return []
    if any(is_agent(p) for _, pols in jobs for p in pols):
        raise InputError("simulate_many plays built-in policies only")
    tasks = [Task((j, i), spec.name, config, pols, first, count, seed, rotate_seats)
             for j, (config, pols) in enumerate(jobs)
             for i, first, count in chunk_plan(games, chunk_size)]
    own = backend is None
    if own:
        backend = make_backend(spec.name, jobs[0][0], jobs[0][1], threads, workers, scheduler)
    parts: dict = {}
    try:
        for task, df in backend.run(tasks):
            parts[task.key] = df
    finally:
        if own:
            backend.close()
    out = []
    for j, (config, pols) in enumerate(jobs):
        df = pd.concat([parts[k] for k in sorted(k for k in parts if k[0] == j)],
                       ignore_index=True)
        df.attrs["provenance"] = provenance(spec.name, config, pols, seed, games,
                                            rotate_seats=rotate_seats)
        out.append(df)
    return out


@dataclass
class RunResult:
    """A finished (or interrupted) run on disk, with streamed summary sums.

    Attributes
    ----------
    folder : Path
        The run's folder (Parquet chunks and manifest.json).
    chunks_total : int
        Chunks the run is made of.
    chunks_done : int
        Chunks on disk now.
    computed : int
        Chunks computed by this call (the rest were already on disk).
    by_policy : pandas.DataFrame or None
        Seats played, wins, score and photo sums per policy, over the chunks on disk.
    by_seat : pandas.DataFrame or None
        The same per seat.
    """

    folder: Path
    chunks_total: int
    chunks_done: int
    computed: int  # chunks computed by this call (the rest were already on disk)
    by_policy: pd.DataFrame | None
    by_seat: pd.DataFrame | None

    @property
    def complete(self) -> bool:
        """Every chunk is on disk (an interrupted run can be finished with resume=True)."""
        return self.chunks_done == self.chunks_total


@dataclass
class Point:
    """One run of a sweep: its folder, config, line-up and partition values."""

    folder: Path
    config: object
    policies: tuple
    labels: dict


def run(game: str, out, players: int | None = None, policies=None, games: int = 1000,
        seed: int = 0, rotate_seats: bool = True, threads: int | None = None, config=None,
        components=None, chunk_size: int = DEFAULT_CHUNK, resume: bool = False,
        progress: bool = False, workers: int | None = None, scheduler: str | None = None,
        move_timeout: float | None = None, **knobs) -> RunResult:
    """Stream a run to the folder `out`: one Parquet file per chunk plus manifest.json.

    Chunks are written as they finish, so memory stays flat however many games. After an
    interruption the same call with ``resume=True`` computes only missing or damaged chunks,
    and the dataset equals an uninterrupted run's. Read it back with `snapsim.load`. The
    parameters not listed here are those of `simulate`.

    Parameters
    ----------
    game : str
        "snapshot", "yosemite" or "shutterbug".
    out : str or path
        The run's folder.
    resume : bool
        Finish the run already in `out` (its settings must match) instead of refusing it.

    Returns
    -------
    RunResult
        The folder, chunk counts and win sums per policy and per seat.
    """
    out = path_arg(out, "out")
    flag(resume, "resume")
    with agent_move_timeout(move_timeout):
        spec, config, pols = prepare(game, players, policies, config, components, **knobs)
        _check_run(games, chunk_size, seed, rotate_seats=rotate_seats, progress=progress)
        with exclusive(out):  # one writer: a second run given this folder is refused
            return run_points(spec, [Point(Path(out), config, pols, {})], games, seed,
                              rotate_seats, chunk_size, resume, progress, threads, workers,
                              scheduler)[0]


def run_points(spec, points: list[Point], games, seed, rotate_seats, chunk_size, resume,
               progress, threads=None, workers=None, scheduler=None) -> list[RunResult]:
    """Run every point's missing chunks through one backend with one progress bar."""
    _check_run(games, chunk_size, seed)
    check_backend(threads, workers, scheduler)
    stores = [RunStore(p.folder, identity(spec, p.config, p.policies, seed, rotate_seats),
                       games, chunk_size, spec.players(p.config), resume,
                       provenance(spec.name, p.config, p.policies, seed, games,
                                  rotate_seats=rotate_seats, point=p.labels))
              for p in points]
    tasks = [Task((k, i), spec.name, p.config, p.policies, first, count, seed, rotate_seats)
             for k, (p, store) in enumerate(zip(points, stores, strict=True))
             for i, first, count in store.missing]
    computed = [0] * len(points)
    done_games = sum(c for s in stores for _, _, c in s.plan) - sum(t.count for t in tasks)
    if tasks:
        backend = _backend(spec, [p.policies for p in points], points[0].config, threads,
                           workers, scheduler)
        try:
            with tqdm(total=games * len(points), initial=done_games, unit="game",
                      disable=not progress, desc=spec.name) as bar:
                for task, df in backend.run(tasks):
                    k, i = task.key
                    stores[k].write_chunk(i, df)
                    computed[k] += 1
                    bar.update(task.count)
        except AgentError as exc:  # the chunks written so far stay
            folders = ", ".join(str(s.folder) for s in stores)
            raise AgentError(f"{exc}; the {sum(len(s.done) for s in stores)} finished chunks "
                             f"stay in {folders}: resume the run (--resume) to finish "
                             "it") from None
        finally:
            backend.close()
    return [_result(store, computed[k]) for k, store in enumerate(stores)]


def _result(store: RunStore, computed: int) -> RunResult:
    """Summary sums streamed chunk by chunk, so memory stays bounded."""
    pol = seat = None
    for path in store.chunk_paths():
        df = pq.read_table(path, columns=["seat", "policy", "won", "score", "photos"]).to_pandas()
        pol = add_sums(pol, group_sums(df, "policy"))
        seat = add_sums(seat, group_sums(df, "seat"))
    return RunResult(store.folder, len(store.plan), len(store.done), computed, pol, seat)
