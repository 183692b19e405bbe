"""Scaling: games/s of greedy 4-player Snapshot on every backend, and the peak memory of a
long run streamed to disk.

Throughput: local numba threads (1 and 2), a process pool (workers=1 and 2) and Dask
(local:2), all started first, then timed round by round on the same chunks (best pass
counts), so load from other processes hits them alike; start-up (spawning workers, loading
kernels, starting the cluster) is reported separately.
Memory: `snapsim.run` streams a long run to a temporary folder in a fresh process, which
reports its own peak RSS; two lengths give the growth per game, extrapolated to 10M games.

Run from the repository root: python benchmarks/scaling.py [--games N] [--big]
(--big also streams 10,000,000 games, which takes about an hour on two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from snapsim.sim.backends import DaskBackend, LocalBackend, ProcessBackend, Task, warm_up
from snapsim.sim.runner import prepare
from snapsim.sim.store import chunk_plan

GAME = "snapshot"
SEED = 1
POLICY = "greedy"
PLAYERS = 4
TARGET_SPEEDUP = 1.8  # 2 workers vs 1
TARGET_DASK_OVERHEAD = 10.0  # percent, vs local threads on the same cores
TARGET_RSS_MB = 1024  # peak for 10M games
BIG = 10_000_000

MEMORY_RUN = """
import json, resource, sys, time
import snapsim
games, out = int(sys.argv[1]), sys.argv[2]
snapsim.simulate("snapshot", players=4, policies=["greedy"], games=4, seed=0)  # load kernels
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t, c = time.perf_counter(), cpu()
res = snapsim.run("snapshot", out, players=4, policies=["greedy"], games=games, seed=1)
seconds = time.perf_counter() - t
cores = (cpu() - c) / seconds
assert res.complete
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
print(json.dumps({"seconds": seconds, "cores": cores, "base_mb": base, "peak_mb": peak,
                  "chunks": res.chunks_done}))
"""


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def _warm_and_report(game, config, policies) -> int:
    """Load a worker's kernels, then hold it a moment so every worker gets one of these."""
    warm_up(game, config, policies)
    time.sleep(0.2)
    return os.getpid()


def start_pool(workers: int, config, pols) -> ProcessBackend:
    backend = ProcessBackend(workers)
    pids: set[int] = set()
    for _ in range(5):
        futs = [backend.pool.submit(_warm_and_report, GAME, config, pols)
                for _ in range(workers)]
        pids |= {f.result() for f in futs}
        if len(pids) >= workers:
            break
    return backend


def throughput(makers: dict, tasks, games: int, rounds: int) -> tuple[dict, dict]:
    """Start every backend (timing its start-up), then time them round by round on the same
    chunks, so background load hits all alike; returns (best games/s, start-up s) by name."""
    backends, startup = {}, {}
    try:
        for name, make in makers.items():
            t = time.perf_counter()
            backends[name] = make()
            startup[name] = time.perf_counter() - t
        best = dict.fromkeys(backends, 0.0)
        for _ in range(rounds):
            for name, backend in backends.items():
                t = time.perf_counter()
                rows = sum(len(df) for _, df in backend.run(tasks))
                best[name] = max(best[name], games / (time.perf_counter() - t))
                assert rows == games * PLAYERS
    finally:
        for backend in backends.values():
            backend.close()
    return best, startup


def memory_run(games: int, folder: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", MEMORY_RUN, str(games), str(folder)],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"memory run of {games:,} games failed:\n{out.stderr}")
    info = json.loads(out.stdout.strip().splitlines()[-1])
    info["disk_mb"] = sum(p.stat().st_size for p in folder.iterdir()) / 2**20
    info["games"] = games
    return info


def fmt_minutes(seconds: float) -> str:
    return f"{seconds / 60:,.0f} min" if seconds < 2 * 3600 else f"{seconds / 3600:,.1f} h"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8_000, help="games per throughput pass")
    ap.add_argument("--rounds", type=int, default=3, help="timed passes of every backend, "
                    "interleaved; the best counts (other processes on the machine add noise)")
    ap.add_argument("--chunk-size", type=int, default=1_000, help="games per chunk")
    ap.add_argument("--memory-games", type=int, default=200_000,
                    help="games of the streamed run whose peak memory is measured")
    ap.add_argument("--big", action="store_true", help=f"also stream {BIG:,} games")
    args = ap.parse_args()

    import numba

    spec, config, pols = prepare(GAME, players=PLAYERS, policies=[POLICY])
    tasks = [Task(i, spec.name, config, pols, first, count, SEED, True)
             for i, first, count in chunk_plan(args.games, args.chunk_size)]
    t = time.perf_counter()
    warm_up(GAME, config, pols)
    load = os.getloadavg()[0]
    print(f"snapsim scaling: {POLICY} x{PLAYERS} Snapshot, seed {SEED}, {args.games:,} games "
          f"per measurement in chunks of {args.chunk_size:,}; {os.cpu_count()} CPUs, "
          f"{numba.config.NUMBA_NUM_THREADS} numba threads, load average {load:.2f} at start")
    print(f"kernels loaded in this process in {time.perf_counter() - t:.1f} s; games/s is the "
          f"best of {args.rounds} interleaved passes")
    if load > 0.5:
        print("note: other processes were using the CPUs at start; ratios may be noisy")
    print()
    print(f"{'backend':<28}{'games/s':>10}{'vs 1 worker':>13}{'start-up s':>12}")

    def row(name, rate, base=None, startup=None):
        ratio = f"{rate / base:.2f}x" if base else ""
        start = f"{startup:.1f}" if startup is not None else "-"
        print(f"{name:<28}{rate:>10,.0f}{ratio:>13}{start:>12}", flush=True)

    names = ["local, 1 thread", "local, 2 threads", "process pool, workers=1",
             "process pool, workers=2", "Dask local:2"]
    rate, startup = throughput({
        names[0]: lambda: LocalBackend(1),
        names[1]: lambda: LocalBackend(2),
        names[2]: lambda: start_pool(1, config, pols),
        names[3]: lambda: start_pool(2, config, pols),
        names[4]: lambda: DaskBackend("local:2", GAME, config, pols),
    }, tasks, args.games, args.rounds)
    local1, local2, pool1, pool2, dask2 = (rate[n] for n in names)
    dstart = startup[names[4]]
    row(names[0], local1, local1)
    row(names[1], local2, local1)
    row(names[2], pool1, pool1, startup[names[2]])
    row(names[3], pool2, pool1, startup[names[3]])
    row(names[4], dask2, None, dstart)
    overhead = (local2 / dask2 - 1) * 100
    print()
    print(f"local 2 threads vs 1: {local2 / local1:.2f}x "
          f"(target >= {TARGET_SPEEDUP}x: {verdict(local2 / local1 >= TARGET_SPEEDUP)})")
    print(f"process pool 2 workers vs 1: {pool2 / pool1:.2f}x "
          f"(target >= {TARGET_SPEEDUP}x: {verdict(pool2 / pool1 >= TARGET_SPEEDUP)})")
    print(f"Dask local:2 overhead vs local 2 threads: {overhead:+.1f}% of run time, "
          f"start-up excluded (target <= {TARGET_DASK_OVERHEAD:.0f}%: "
          f"{verdict(overhead <= TARGET_DASK_OVERHEAD)}); cluster start-up {dstart:.1f} s")
    print(flush=True)

    small = max(args.memory_games // 10, 5_000)
    print("peak memory of a run streamed to disk (snapsim.run, local threads, default "
          "chunks), each in a fresh process:")
    print(f"{'games':>12}{'seconds':>10}{'games/s':>10}{'cores used':>12}{'RSS before MB':>15}"
          f"{'peak RSS MB':>13}{'on disk MB':>12}")
    runs = []
    lengths = [small, args.memory_games] + ([BIG] if args.big else [])
    for games in lengths:
        if games == BIG and runs:
            eta = BIG / (runs[-1]["games"] / runs[-1]["seconds"])
            print(f"  (streaming {BIG:,} games, about {fmt_minutes(eta)} ...)", flush=True)
        with tempfile.TemporaryDirectory(prefix="snapsim-scaling-") as tmp:
            info = memory_run(games, Path(tmp) / "run")
        runs.append(info)
        print(f"{games:>12,}{info['seconds']:>10.1f}{games / info['seconds']:>10,.0f}"
              f"{info['cores']:>12.2f}{info['base_mb']:>15,.0f}{info['peak_mb']:>13,.0f}{info['disk_mb']:>12,.1f}",
              flush=True)
    a, b = runs[0], runs[1]
    per_game = max(0.0, (b["peak_mb"] - a["peak_mb"]) / (b["games"] - a["games"]))
    rate = b["games"] / b["seconds"]
    if args.big:
        big = runs[-1]
        print(f"{BIG:,} games: peak RSS {big['peak_mb']:,.0f} MB measured "
              f"(target < {TARGET_RSS_MB:,} MB: {verdict(big['peak_mb'] < TARGET_RSS_MB)}), "
              f"{fmt_minutes(big['seconds'])}")
    else:
        guess = b["peak_mb"] + per_game * (BIG - b["games"])
        print(f"growth {per_game * 100_000:.1f} MB per 100,000 games -> {BIG:,} games: "
              f"peak RSS about {guess:,.0f} MB extrapolated (target < {TARGET_RSS_MB:,} MB: "
              f"{verdict(guess < TARGET_RSS_MB)}), about "
              f"{b['disk_mb'] * BIG / b['games'] / 1024:,.1f} GB on disk")
        print(f"{BIG:,} games would take about {fmt_minutes(BIG / rate)} at the measured "
              f"{rate:,.0f} games/s; run with --big to measure it")


if __name__ == "__main__":
    main()
