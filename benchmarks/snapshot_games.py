"""Snapshot throughput: games/s per policy for 2 and 4 players on one thread, and the
jitted kernel against the same games interpreted (NUMBA_DISABLE_JIT=1, in a subprocess).

Run from the repository root: python benchmarks/snapshot_games.py [--games N]
"""

import argparse
import time

import numba
from common import interpreted_seconds_per_game

from snapsim.games.snapshot import SnapshotConfig, run_games

POLICIES = ("random", "greedy", "cautious", "aggressive", "collector")
TARGETS = {"greedy 4p games/s (one core)": 50_000, "jit / interpreted": 200}


def rate(players, policy, games, seed=1):
    cfg = SnapshotConfig(players=players)
    run_games(cfg, [policy] * players, 0, 4, seed)  # compile or load the cache
    t = time.perf_counter()
    run_games(cfg, [policy] * players, 0, games, seed)
    return games / (time.perf_counter() - t)



def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--interpreted-games", type=int, default=10)
    args = ap.parse_args()
    numba.set_num_threads(1)
    t = time.perf_counter()
    run_games(SnapshotConfig(players=4), ["greedy"] * 4, 0, 1, 0)
    print(f"first call (compile or cache load): {time.perf_counter() - t:.1f} s")
    print(f"{'policy':<12}{'2 players':>14}{'4 players':>14}   (games/s, one thread)")
    rates = {}
    for pol in POLICIES:
        r2, r4 = rate(2, pol, args.games), rate(4, pol, args.games)
        rates[pol] = r4
        print(f"{pol:<12}{r2:>14,.0f}{r4:>14,.0f}")
    jit = 1.0 / rates["greedy"]
    interp = interpreted_seconds_per_game('snapshot', 4, args.interpreted_games)
    print(f"interpreted greedy 4p: {1 / interp:,.1f} games/s over {args.interpreted_games} games")
    print(f"jit / interpreted speed ratio: {interp / jit:,.0f}x "
          f"(target {TARGETS['jit / interpreted']}x)")
    print(f"greedy 4p on one core: {rates['greedy']:,.0f} games/s "
          f"(target {TARGETS['greedy 4p games/s (one core)']:,})")
    threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(threads)
    t = time.perf_counter()
    run_games(SnapshotConfig(players=4), ["greedy"] * 4, 0, args.games, 1)
    print(f"greedy 4p on {threads} threads: {args.games / (time.perf_counter() - t):,.0f} games/s")


if __name__ == "__main__":
    main()
