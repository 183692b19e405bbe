"""Generated strategy guide for Snapshot (reports/snapshot/strategy.md).

Run from the repository root:
    python analyses/snapshot_strategy.py [--games N] [--seed S] [--out DIR]
"""

import sys
import time

from snapsim.cli.common import Parser, guarded
from snapsim.games.snapshot.strategy import build_strategy


def main() -> None:
    ap = Parser(prog="analyses/snapshot_strategy.py", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per simulated arm")
    ap.add_argument("--seed", type=int, default=1, help="root seed")
    ap.add_argument("--out", default="reports/snapshot", help="the report folder")
    args = ap.parse_args()
    t0 = time.perf_counter()
    path = build_strategy(args.out, games=args.games, seed=args.seed)
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    sys.exit(guarded(main))  # a bad setting is one line and exit code 2, as for snapsim
