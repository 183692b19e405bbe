"""Rebalancing on its planted suite, and the time of the designer's budget example.

Every plant (snapsim.analysis.rebalance.plants: a known imbalance planted in a game's
standard components or rules, with targets the standard meets and an edit space that can
undo it) is rebalanced at full size with the default plan under greedy play (the line-up
its targets were set for); a plant passes when the confirmed patch meets every target with
at most one changed value more than the plant. Prints one line per plant (pass, changes,
candidates, games each, seconds), the pass rate per game and per optimiser, and then times
the budget example: a 4-player Snapshot rebalance of start_tokens and assignments.chart
against seat_spread=2 and assignments=3.

    python benchmarks/rebalance.py [--optimizers surrogate,nsga2,tpe] [--games GAME,...]
                                   [--candidates N] [--no-example]
"""

from __future__ import annotations

import argparse
import tempfile
import time

from snapsim.analysis.rebalance.plants import plants
from snapsim.report.rebalance import DEFAULT_CANDIDATES, rebalance


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--optimizers", default="surrogate",
                    help="comma-separated: surrogate, nsga2, tpe (default: surrogate)")
    ap.add_argument("--games", default="snapshot,yosemite,shutterbug",
                    help="games whose plants run (default: all three)")
    ap.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES,
                    help=f"candidates per plant (default: {DEFAULT_CANDIDATES}, as the "
                         "command's)")
    ap.add_argument("--seed", type=int, default=1, help="search seed (default: 1)")
    ap.add_argument("--no-example", action="store_true", help="skip the budget example")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="rebalance-plants-")
    summary = {}
    for optimizer in args.optimizers.split(","):
        for game in args.games.split(","):
            for plant in plants(game):
                path = plant.write(folder)
                start = time.perf_counter()
                r = rebalance(game, list(plant.targets), list(plant.edits), components=path,
                              players=list(plant.players), seed=args.seed,
                              candidates=args.candidates, lineups=["greedy"],
                              optimizer=optimizer)
                took = time.perf_counter() - start
                ok = plant.passed(r)
                size = len(r.verified[r.recommended].cand) if r.recommended else 0
                summary.setdefault((optimizer, game), []).append(ok)
                print(f"{optimizer:<9} {game:<10} {'pass' if ok else 'FAIL'}  {plant.name:<52} "
                      f"plant {plant.size} / patch {size} values, "
                      f"{r.provenance['evaluations']:>4} candidates x "
                      f"{r.plan.games:,} games, {took:5.0f} s", flush=True)
    print()
    for (optimizer, game), oks in summary.items():
        print(f"{optimizer:<9} {game:<10} {sum(oks)}/{len(oks)} plants pass")
    if args.no_example:
        return
    start = time.perf_counter()
    r = rebalance("snapshot", ["seat_spread=2", "assignments=3"],
                  ["start_tokens", "assignments.chart"], players=[4], seed=args.seed)
    took = time.perf_counter() - start
    played = r.provenance["evaluations"] * r.plan.games
    print(f"\nbudget example (4-player Snapshot, start_tokens + assignments.chart against "
          f"seat_spread=2, assignments=3): {took:.0f} s, {r.provenance['evaluations']} "
          f"candidates x {r.plan.games:,} games ({played:,} games searched), verification "
          f"{r.provenance['verify_games']:,} games per side; verdict: "
          f"{r.status}")
    print(r.summary())


if __name__ == "__main__":
    main()
