"""Snapshot's `search` policy against greedy copies, and its base alone on the same seeds.

    python benchmarks/search_agent.py --players 2 --games 1000 --seed 2026
    python benchmarks/search_agent.py --players 4 --spec search:rollouts=24:candidates=4
    python benchmarks/search_agent.py --spec search:rollouts=24:candidates=5 \
        search:rollouts=8:candidates=5  # budgets side by side, on the same games

Seats rotate game by game. Prints each policy's win rate with a 95% Wilson interval (fair
share 1/players), the search's wall time per game (on --threads numba threads), and its
time per searched decision (Preparation plan, reserved card, re-roll) on --timed step-API
games.
"""

import argparse
import time

from common import Parser, bounded

import snapsim
from snapsim.analysis.stats import wilson_interval
from snapsim.errors import InputError
from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot.api import make_policy
from snapsim.games.snapshot.policies import SEARCH_BASE
from snapsim.games.snapshot.search import dice_placed
from snapsim.protocol import new_game


def searched(g) -> bool:
    """Whether the search compares moves by rollouts at this decision."""
    st = g.state
    ph = st[E.PHASE]
    return bool(ph == E.PH_PREP_RESERVED or (ph == E.PH_PREP_DICE and dice_placed(st) == 0)
                or (ph == E.PH_REROLL and st[E.PAY_PENDING] == 0))


def per_decision(spec: str, players: int, games: int, seed: int) -> tuple[float, float]:
    """Seconds per searched decision and searched decisions per game, seat 0 searching."""
    spent, decisions = 0.0, 0
    for i in range(games):
        g = new_game("snapshot", seed=seed, game=i, players=players, rotate_seats=False,
                     policies=[spec] + ["greedy"] * (players - 1))
        while not g.is_over():
            timed = g.current_player == 0 and searched(g)
            t0 = time.perf_counter()
            a = g.policy_action()
            if timed:
                spent += time.perf_counter() - t0
                decisions += 1
            g.apply(a)
    return spent / max(decisions, 1), decisions / games


def main(argv=None):
    ap = Parser(description=__doc__.splitlines()[0],
                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--players", type=bounded(int, 2, E.MAX_PLAYERS), default=2,
                    help="players per game")
    ap.add_argument("--games", type=bounded(int, 1, 10**7), default=1000,
                    help="games per policy")
    ap.add_argument("--seed", type=bounded(int, 0, 2**63 - 1), default=2026, help="root seed")
    ap.add_argument("--spec", nargs="+", default=["search"], help="search policy specs")
    ap.add_argument("--threads", type=bounded(int, 1, 1024), default=2, help="numba threads")
    ap.add_argument("--timed", type=bounded(int, 1, 10**4), default=5,
                    help="step-API games timed per searched decision")
    args = ap.parse_args(argv)
    n = args.players
    for spec in args.spec:
        try:
            make_policy(spec)
        except InputError as e:  # a refused spec: its one line
            ap.error(str(e))
    for spec in (SEARCH_BASE, *args.spec):
        pols = [spec] + ["greedy"] * (n - 1)
        snapsim.simulate("snapshot", players=n, policies=pols, games=n, seed=args.seed)  # compile
        t0 = time.perf_counter()
        df = snapsim.simulate("snapshot", players=n, policies=pols, games=args.games,
                              seed=args.seed, threads=args.threads)
        wall = time.perf_counter() - t0
        mine = df[df.policy.astype(str) == spec]
        wins = mine.won.sum()
        lo, hi = wilson_interval(wins, len(mine))
        print(f"{n}p {spec} vs greedy, seed {args.seed}, {len(mine)} games: win rate "
              f"{wins / len(mine):.3f} (95% CI {lo:.3f}-{hi:.3f}; fair share {1 / n:.3f}); "
              f"{wall / args.games * 1e3:.1f} ms per game on {args.threads} threads")
    for spec in args.spec:
        sec, count = per_decision(spec, n, args.timed, args.seed)
        print(f"  {spec}: {sec * 1e3:.2f} ms per searched decision, {count:.1f} searched "
              f"decisions per game ({args.timed} step-API games)")


if __name__ == "__main__":
    main()
