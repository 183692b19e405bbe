"""Shared by the benchmark scripts (run from the repository root: python benchmarks/X.py)."""

import json
import os
import subprocess
import sys


def interpreted_seconds_per_game(game: str, players: int, games: int) -> float:
    """Seconds per greedy game with numba's JIT off, timed in a fresh interpreter."""
    code = (
        "import time, json, snapsim\n"
        f"run = lambda n: snapsim.simulate({game!r}, players={players}, policies=['greedy'], "
        "games=n, seed=1, threads=1)\n"
        "run(1)\n"  # imports and first-call set-up are not timed
        "t = time.perf_counter()\n"
        f"run({games})\n"
        f"print(json.dumps((time.perf_counter() - t) / {games}))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
