"""ShutterBug throughput on one thread: games/s per policy kind for 2 and 4 players, jitted
against the same games interpreted (NUMBA_DISABLE_JIT=1), and the first run's cost from a
cold start (an empty numba cache: everything compiled) and a warm one (the cache loaded),
each timed in a fresh interpreter.

Run from the repository root: python benchmarks/shutterbug_games.py [--games N]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numba

from snapsim.games.shutterbug import ShutterbugConfig, run_games

POLICIES = ("random", "greedy", "trader", "lookahead")
# The target is relative, so this script only reports the rate: 4-player greedy at least twice
# release 0.1.0's on one thread, as `benchmarks/release_compare.py 3d13a3c --only shutterbug`
# measures it side by side.
TARGET_GREEDY_4P = "2x release 0.1.0 (benchmarks/release_compare.py 3d13a3c)"


def rate(players, policy, games, seed=1):
    cfg = ShutterbugConfig(players=players)
    run_games(cfg, [policy] * players, 0, 4, seed)  # compile or load the cache
    t = time.perf_counter()
    run_games(cfg, [policy] * players, 0, games, seed)
    return games / (time.perf_counter() - t)


def fresh(code: str, **env) -> float:
    """Run `code` (which prints one JSON number) in a fresh interpreter on one thread."""
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code],
                         env=dict(os.environ, NUMBA_NUM_THREADS="1", **env),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_run_seconds(cache_dir: str) -> float:
    """Seconds to import snapsim and play one 4-player game of each policy kind, with the
    numba cache in `cache_dir`."""
    return fresh("import time, json\n"
                 "t = time.perf_counter()\n"
                 "from snapsim.games.shutterbug import ShutterbugConfig, run_games\n"
                 f"for pol in {POLICIES!r}:\n"
                 "    run_games(ShutterbugConfig(players=4), [pol] * 4, 0, 1, 0)\n"
                 "print(json.dumps(time.perf_counter() - t))\n", NUMBA_CACHE_DIR=cache_dir)


def interpreted_rate(policy: str, games: int) -> float:
    """4-player games/s of `policy` with numba's JIT off (set-up not timed)."""
    return fresh("import time, json\n"
                 "from snapsim.games.shutterbug import ShutterbugConfig, run_games\n"
                 f"run = lambda k: run_games(ShutterbugConfig(), [{policy!r}] * 4, 0, k, 1)\n"
                 "run(1)\n"
                 "t = time.perf_counter()\n"
                 f"run({games})\n"
                 f"print(json.dumps({games} / (time.perf_counter() - t)))\n",
                 NUMBA_DISABLE_JIT="1")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--interpreted-games", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="snapsim-numba-") as cache:
        cold = first_run_seconds(cache)
        warm = first_run_seconds(cache)
    print(f"first run, every policy kind: cold (empty numba cache) {cold:.1f} s, "
          f"warm (cache loaded) {warm:.1f} s")
    numba.set_num_threads(1)
    print(f"{'policy':<12}{'2 players':>12}{'4 players':>12}{'4p interpreted':>16}"
          f"{'jit/interp':>12}   (games/s, one thread)")
    rates = {}
    for pol in POLICIES:
        r2, r4 = rate(2, pol, args.games), rate(4, pol, args.games)
        rates[pol] = r4
        slow = interpreted_rate(pol, args.interpreted_games)
        print(f"{pol:<12}{r2:>12,.0f}{r4:>12,.0f}{slow:>16,.2f}{r4 / slow:>11,.0f}x")
    print(f"greedy 4p on one core: {rates['greedy']:,.0f} games/s (target {TARGET_GREEDY_4P})")
    threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(threads)
    t = time.perf_counter()
    run_games(ShutterbugConfig(players=4), ["greedy"] * 4, 0, args.games, 1)
    print(f"greedy 4p on {threads} threads: {args.games / (time.perf_counter() - t):,.0f} games/s")


if __name__ == "__main__":
    main()
