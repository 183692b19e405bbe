"""Regenerate the bundled tuned Snapshot policies (snapsim/games/snapshot/data/tuned-Np.toml).

`snapsim tune` never writes into the installed package; this script is how the bundled files
are made: the same tuning for 2 to 5 players, each saved only if it beats greedy on fresh
seeds. Run from the repository root: python analyses/snapshot_tuned.py [--players 4 ...]
"""

import argparse

from snapsim.games.snapshot.tuning import DATA, save_tuned, tune


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5],
                    help="player counts to tune (default: 2 3 4 5)")
    ap.add_argument("--games", type=int, default=1000, help="games per candidate (default: 1000)")
    ap.add_argument("--iterations", type=int, default=4,
                    help="differential-evolution rounds (default: 4)")
    ap.add_argument("--verify-games", type=int, default=20_000,
                    help="fresh games for the significance check (default: 20000)")
    ap.add_argument("--seed", type=int, default=0, help="tuning seed (default: 0)")
    args = ap.parse_args(argv)
    for players in args.players:
        res = tune(players, games=args.games, seed=args.seed, iterations=args.iterations,
                   verify_games=args.verify_games)
        if res.significant:
            print(save_tuned(res, DATA / f"tuned-{players}p.toml", force=True))
        else:
            print(f"{players} players: not significant ({res.win_rate:.3f}); file kept")


if __name__ == "__main__":
    main()
