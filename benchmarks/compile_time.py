"""A first run's compile of each game's batch kernels: CPU seconds from an empty numba cache.

    python benchmarks/compile_time.py [--game snapshot] [--repeat 1]

For each game, in a fresh process with an empty numba cache (NUMBA_CACHE_DIR in a temporary
folder): the batch kernel of a line-up of the plain kinds (greedy and random), then the
kernel of a line-up seating every kind (the search kinds, and Snapshot's exact kind), as the
report's skill ladder does. Prints the CPU seconds of each (process time: a busy machine
skews it less than wall time) and their sum, the figure the first run pays for the game.
With --repeat, the least of the repeats.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from common import Parser, bounded

LINE_UPS = {  # (players, plain line-up, line-up seating every kind)
    "snapshot": (4, ["greedy", "random", "greedy", "random"],
                 ["search:rollouts=1:candidates=1", "exact", "greedy", "random"]),
    "yosemite": (2, ["greedy", "random"], ["search:rollouts=1", "rollout:rollouts=1"]),
    "shutterbug": (4, ["greedy", "random", "greedy", "random"],
                   ["search:rollouts=1:candidates=2", "greedy", "random", "greedy"]),
}

CHILD = """
import json, sys, time
import snapsim
game, players, plain, every = json.loads(sys.argv[1])
out = []
for lineup in (plain, every):
    t = time.process_time()
    snapsim.simulate(game, players=players, policies=lineup, games=2, seed=1, threads=1)
    out.append(time.process_time() - t)
print(json.dumps(out))
"""


def measure(game: str) -> list[float]:
    """CPU seconds of the two kernels' first calls, in a fresh process and cache."""
    players, plain, every = LINE_UPS[game]
    with tempfile.TemporaryDirectory(prefix="snapsim-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "1"}
        out = subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD,
                              json.dumps([game, players, plain, every])],
                             capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"compile_time: {game} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=(*LINE_UPS, "all"), default="all",
                    help="the game (default: all three)")
    ap.add_argument("--repeat", type=bounded(int, 1, 10), default=1,
                    help="measurements per game, the least kept (default: 1)")
    args = ap.parse_args(argv)
    games = list(LINE_UPS) if args.game == "all" else [args.game]
    print(f"{'game':<12}{'plain kinds':>14}{'every kind':>14}{'total':>10}   "
          "(CPU s from an empty numba cache)")
    for game in games:
        runs = [measure(game) for _ in range(args.repeat)]
        plain, every = min(r[0] for r in runs), min(r[1] for r in runs)
        print(f"{game:<12}{plain:>14.1f}{every:>14.1f}{plain + every:>10.1f}", flush=True)


if __name__ == "__main__":
    main()
