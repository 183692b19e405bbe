"""Snapshot throughput on one thread: games/s for every policy kind at 2 and 4 players, the
jitted kernel against the same games interpreted (NUMBA_DISABLE_JIT=1), and the first call
from an empty numba cache (cold: compiling) and from a filled one (warm: loading).

Run from the repository root: python benchmarks/snapshot_games.py [--games N]
Timings are CPU seconds of the timing process (time.process_time), so a busy machine skews
them less than wall time; the cold start also prints its wall time.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numba

from snapsim.games.snapshot import SnapshotConfig, run_games

KINDS = ("random", "greedy", "cautious", "aggressive", "collector", "exact")
GAMES_SCALE = {"exact": 0.02}  # the exact kind searches every preparation exhaustively
TARGETS = {"greedy 4p games/s (one thread)": 50_000}

FIRST_CALL = """
import json, time
t, c = time.perf_counter(), time.process_time()
from snapsim.games.snapshot import SnapshotConfig, run_games
for kind in {kinds!r}:
    run_games(SnapshotConfig(players=4), [kind] * 4, 0, 1, 0)
print(json.dumps((time.perf_counter() - t, time.process_time() - c)))
"""

INTERPRETED = """
import json, time
from snapsim.games.snapshot import SnapshotConfig, run_games
run_games(SnapshotConfig(players={players}), [{kind!r}] * {players}, 0, 1, 1)
c = time.process_time()
run_games(SnapshotConfig(players={players}), [{kind!r}] * {players}, 0, {games}, 1)
print(json.dumps({games} / (time.process_time() - c)))
"""


def subprocess_json(code: str, **env):
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                         text=True, check=True, env={**os.environ, "NUMBA_NUM_THREADS": "1",
                                                     **env})
    return json.loads(out.stdout.strip().splitlines()[-1])


def rate(players, kind, games, seed=1):
    """Games per CPU second on the current thread count (the kernels already compiled)."""
    cfg = SnapshotConfig(players=players)
    run_games(cfg, [kind] * players, 0, 4, seed)  # compile or load the cache
    c = time.process_time()
    run_games(cfg, [kind] * players, 0, games, seed)
    return games / (time.process_time() - c)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--interpreted-games", type=int, default=10)
    ap.add_argument("--no-cold", action="store_true", help="skip the empty-cache compile")
    args = ap.parse_args()
    if not args.no_cold:
        with tempfile.TemporaryDirectory() as cache:
            wall, cpu = subprocess_json(FIRST_CALL.format(kinds=KINDS), NUMBA_CACHE_DIR=cache)
        print(f"cold start (empty cache, every kind compiled): {cpu:.1f} s CPU, {wall:.1f} s wall")
    wall, cpu = subprocess_json(FIRST_CALL.format(kinds=KINDS))
    print(f"warm start (cache loaded, every kind): {cpu:.1f} s CPU, {wall:.1f} s wall")
    numba.set_num_threads(1)
    print(f"{'policy':<12}{'2p jit':>12}{'4p jit':>12}{'4p interp':>12}{'jit/interp':>12}"
          "   (games/s, one thread)")
    rates = {}
    for kind in KINDS:
        games = max(20, int(args.games * GAMES_SCALE.get(kind, 1.0)))
        r2, r4 = rate(2, kind, games), rate(4, kind, games)
        interp_games = max(1, int(args.interpreted_games * GAMES_SCALE.get(kind, 1.0)))
        ri = subprocess_json(INTERPRETED.format(players=4, kind=kind, games=interp_games),
                             NUMBA_DISABLE_JIT="1")
        rates[kind] = r4
        print(f"{kind:<12}{r2:>12,.0f}{r4:>12,.0f}{ri:>12,.1f}{r4 / ri:>11,.0f}x")
    target = TARGETS["greedy 4p games/s (one thread)"]
    print(f"greedy 4p on one thread: {rates['greedy']:,.0f} games/s (target {target:,})")
    threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(threads)
    t = time.perf_counter()
    run_games(SnapshotConfig(players=4), ["greedy"] * 4, 0, args.games, 1)
    print(f"greedy 4p on {threads} threads: {args.games / (time.perf_counter() - t):,.0f} "
          "games/s (wall)")


if __name__ == "__main__":
    main()
