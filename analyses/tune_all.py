"""Regenerate the bundled tuned policies of every game (snapsim/games/GAME/data/tuned-Np.toml).

`snapsim tune` never writes into the installed package; this script is how the bundled files
are made: the same tuning for each game and player count, each saved only if it beats greedy
on fresh seeds (an existing file is kept otherwise). Once a file exists the policy is
`tuned-<N>p` for that game. Run from the repository root:

    python analyses/tune_all.py                      # every game, every usual player count
    python analyses/tune_all.py --games yosemite --players 2 --budget 200 --iterations 2
"""

import sys
import time
from pathlib import Path

from snapsim.cli.common import Parser, guarded
from snapsim.games.tuning import SEARCHED, data_folder, save_tuned, tune

PLAYERS = {"snapshot": [2, 3, 4, 5], "yosemite": [2], "shutterbug": [2, 3, 4, 5, 6]}


def main(argv=None) -> None:
    ap = Parser(prog="analyses/tune_all.py", description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=list(SEARCHED), choices=list(SEARCHED),
                    help="games to tune")
    ap.add_argument("--players", type=int, nargs="+",
                    help="player counts (default: each game's in PLAYERS)")
    ap.add_argument("--budget", type=int, default=1000, help="games per candidate")
    ap.add_argument("--iterations", type=int, default=4, help="differential-evolution rounds")
    ap.add_argument("--popsize", type=int, default=5, help="population multiplier")
    ap.add_argument("--verify-games", type=int, default=20_000,
                    help="fresh games against greedy for the significance check")
    ap.add_argument("--seed", type=int, default=0, help="tuning seed")
    ap.add_argument("--out", help="folder for the files, with a subfolder per game when "
                    "several are tuned (default: each game's data folder)")
    args = ap.parse_args(argv)
    for game in args.games:
        for players in args.players or PLAYERS[game]:
            t0 = time.perf_counter()
            res = tune(game, players, games=args.budget, seed=args.seed,
                       iterations=args.iterations, popsize=args.popsize,
                       verify_games=args.verify_games)
            took = f"{time.perf_counter() - t0:.0f} s, {res.evaluations} candidates"
            if res.significant:
                # several games into one --out: a folder each, as their file names agree
                folder = data_folder(game) if args.out is None else (
                    f"{args.out}/{game}" if len(args.games) > 1 else args.out)
                Path(folder).mkdir(parents=True, exist_ok=True)
                path = save_tuned(res, f"{folder}/tuned-{players}p.toml", force=True)
                print(f"{game} {players}p: win rate {res.win_rate:.3f} vs fair "
                      f"{1 / players:.3f} (p {res.p_value:.2g}); saved {path} ({took})")
            else:
                print(f"{game} {players}p: win rate {res.win_rate:.3f} vs fair "
                      f"{1 / players:.3f}, not significant; file kept ({took})")


if __name__ == "__main__":
    sys.exit(guarded(main))  # a bad setting is one line and exit code 2, as for snapsim
