"""What pairing buys a designer's comparison, and how long a comparison takes.

For each game, the worked variant in examples/variants/ is compared with the standard set:
the standard error of the seat-spread difference paired game by game (common random numbers)
and unpaired (the same games treated as independent samples), their ratio squared (how many
times the games an unpaired comparison would need), and the wall time of the whole
comparison (baseline and variant, the restricted-play runs included).

    python benchmarks/compare.py [--games 20000] [--players 4] [--threads N]
"""

import argparse
import time
from pathlib import Path

import snapsim

VARIANTS = {"snapshot": "snapshot-live-fast-harder.toml",
            "yosemite": "yosemite-richer-camping.toml",
            "shutterbug": "shutterbug-coast-to-coast-6.toml"}
HERE = Path(__file__).resolve().parent.parent / "examples" / "variants"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000,
                    help="paired games per side (default: 20000)")
    ap.add_argument("--players", type=int, default=4,
                    help="players for Snapshot and ShutterBug (default: 4; Yosemite has 2)")
    ap.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    ap.add_argument("--seed", type=int, default=1, help="root seed (default: 1)")
    args = ap.parse_args()
    snapsim.compare("yosemite", variant_set={"start_fish": 3}, games=20, restricted=False)
    print(f"{'game':<11} {'measure':<24} {'diff':>8} {'SE paired':>10} {'SE unpaired':>12} "
          f"{'reduction':>9} {'wall s':>8}")
    for game, file in VARIANTS.items():
        players = None if game == "yosemite" else [args.players]
        start = time.perf_counter()
        c = snapsim.compare(game, variants=[str(HERE / file)], players=players,
                            games=args.games, seed=args.seed, threads=args.threads)
        wall = time.perf_counter() - start
        rows = c.table.set_index("measure")
        for measure in ("seat spread (points)", "seat spread (win rate)"):
            r = rows.loc[measure]
            print(f"{game:<11} {measure:<24} {r['diff']:>8.4f} {r['se_paired']:>10.4f} "
                  f"{r['se_unpaired']:>12.4f} {r['variance_reduction']:>8.2f}x {wall:>8.1f}")
    print(f"n = {args.games:,} paired games per side, seed {args.seed}; wall time covers both "
          "sides and the restricted-play runs")


if __name__ == "__main__":
    main()
