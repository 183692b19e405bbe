"""Fit a game's rules of thumb to its bundled tuned policies' moves and write them as the
game's bundled rules (snapsim/games/GAME/data/rules.toml, or --out).

Run from the repository root:
    python analyses/fit_rules.py GAME [--games N] [--seed S] [--out FILE]
"""

import sys
import time
from pathlib import Path

from snapsim.cli.common import Parser, guarded
from snapsim.games.rules import RULES, fit, save_fit
from snapsim.sim.checks import whole


def main() -> None:
    ap = Parser(prog="analyses/fit_rules.py", description=__doc__.splitlines()[0])
    ap.add_argument("game", help=f"one of {', '.join(RULES)}")
    ap.add_argument("--games", type=int, default=30,
                    help="tuned games recorded at each tuned player count (default: 30)")
    ap.add_argument("--seed", type=int, default=1, help="root seed (default: 1)")
    ap.add_argument("--out", help="the rules file to write (default: the game's bundled "
                                  "data/rules.toml)")
    args = ap.parse_args()
    whole(args.games, "--games", 1)
    whole(args.seed, "--seed", 0)
    t0 = time.perf_counter()
    result = fit(args.game.strip().lower(), games=args.games, seed=args.seed)
    path = save_fit(result, Path(args.out) if args.out else None)
    print(f"{result.positions} positions; the rules play the tuned move at "
          f"{result.agreement:.1%} of them (greedy {result.greedy_agreement:.1%})")
    for key, v in result.values.items():
        print(f"  {key}: {v:g} (runner-up {result.runner_up[key][0]:g}: "
              f"{result.runner_up[key][1]:.1%})")
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    sys.exit(guarded(main))  # a bad setting is one line and exit code 2, as for snapsim
