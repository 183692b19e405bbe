"""Yosemite throughput: games/s on one thread for each policy kind, jitted and interpreted
(NUMBA_DISABLE_JIT=1), and the first call from a cold start (empty numba cache: compiling)
and a warm one (the cache just written: loading).

Run from the repository root: python benchmarks/yosemite_games.py [--games N]

Each measurement runs in a fresh interpreter on one numba thread; a rate is the best of
--repeats timed runs after an untimed warm-up, since other processes may share the machine.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# greedy's target is relative: at least twice release 0.1.0's games/s on one thread, as
# `benchmarks/release_compare.py 3d13a3c --only yosemite` measures it side by side.
TARGETS = {"greedy games/s (one thread)":
           "2x release 0.1.0 (benchmarks/release_compare.py 3d13a3c)",
           "cold first call (s)": 60}

RUNNER = """
import json, sys, time
from snapsim.games.yosemite import YosemiteConfig, run_games
config = YosemiteConfig()
t = time.perf_counter()
run_games(config, ["greedy", "greedy"], 0, 1, 0)
first = time.perf_counter() - t
rates = {}
for name, policies, games in json.loads(sys.argv[1]):
    run_games(config, policies, 0, 2, 1)
    best = 0.0
    for _ in range(int(sys.argv[2])):
        t = time.perf_counter()
        run_games(config, policies, 0, games, 1)
        best = max(best, games / (time.perf_counter() - t))
    rates[name] = best
print(json.dumps({"first": first, "rates": rates}))
"""


def measure(workloads, repeats, **env):
    """{"first": seconds of the first call, "rates": {name: games/s}} in a fresh process."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1", **env)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", RUNNER, json.dumps(workloads),
                          str(repeats)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per random/greedy run")
    ap.add_argument("--rollout-games", type=int, default=20,
                    help="games per rollout or search run")
    ap.add_argument("--interpreted-games", type=int, default=5,
                    help="games per interpreted random/greedy run (rollout, search: 1)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    kinds = [("random", ["random", "random"]), ("greedy", ["greedy", "greedy"]),
             ("rollout vs greedy", ["rollout", "greedy"]),
             ("search vs greedy", ["search", "greedy"])]

    def workloads(games, rollout_games):
        return [(name, pols, rollout_games if name.startswith(("rollout", "search")) else games)
                for name, pols in kinds]

    with tempfile.TemporaryDirectory(prefix="snapsim-numba-cache-") as cache:
        cold = measure(workloads(args.games, args.rollout_games), args.repeats,
                       NUMBA_CACHE_DIR=cache)
        warm = measure(workloads(args.games, args.rollout_games), args.repeats,
                       NUMBA_CACHE_DIR=cache)
    interp = measure(workloads(args.interpreted_games, 1), 1, NUMBA_DISABLE_JIT="1")
    print(f"first call, cold start (empty cache: compile): {cold['first']:6.1f} s "
          f"(target < {TARGETS['cold first call (s)']} s)")
    print(f"first call, warm start (cache load):           {warm['first']:6.1f} s")
    print(f"\n{'policy':<20}{'jitted games/s':>16}{'interpreted':>14}{'ratio':>10}")
    for name, _ in kinds:
        jit = max(cold["rates"][name], warm["rates"][name])
        slow = interp["rates"][name]
        print(f"{name:<20}{jit:>16,.1f}{slow:>14,.2f}{jit / slow:>9,.0f}x")
    print(f"\ngreedy on one thread: {max(cold['rates']['greedy'], warm['rates']['greedy']):,.0f}"
          f" games/s (target {TARGETS['greedy games/s (one thread)']})")


if __name__ == "__main__":
    main()
