"""The README's main job, timed: `snapsim report snapshot --games 2000 --seed 1` into a fresh
folder with an empty run cache, then again into another folder (its runs and guide read
from the cache). Prints wall and CPU seconds of each and the machine's load average, since
a shared machine's wall time says little without it.

    python benchmarks/report_time.py [--games 2000] [--game snapshot]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall, CPU) seconds of one command run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per configuration "
                    "(default: 2000, the README's)")
    ap.add_argument("--game", default="snapshot", help="game (default: snapshot)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="report-time-") as folder:
        env = {**os.environ, "SNAPSIM_CACHE_DIR": str(Path(folder) / "cache")}
        for label, out in (("empty run cache", "a"), ("again, another --out", "b")):
            cmd = [sys.executable, "-m", "snapsim", "report", args.game, "--games",
                   str(args.games), "--seed", "1", "--quiet", "--out", str(Path(folder) / out)]
            wall, cpu = timed(cmd, env)
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"{label:<22} wall {wall:6.1f} s, CPU {cpu:6.1f} s (load average {load})",
                  flush=True)


if __name__ == "__main__":
    main()
