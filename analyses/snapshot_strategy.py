"""Generated strategy guide for Snapshot (reports/snapshot/strategy.md).

Run from the repository root:
    python analyses/snapshot_strategy.py [--games N] [--seed S] [--out DIR]
"""

import argparse
import time

from snapsim.games.snapshot.strategy import build_strategy

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per simulated arm")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="reports/snapshot")
    args = ap.parse_args()
    t0 = time.perf_counter()
    path = build_strategy(args.out, games=args.games, seed=args.seed)
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")
