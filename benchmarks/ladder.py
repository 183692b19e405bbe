"""Skill ladders of the three games, and each search agent against greedy.

    python benchmarks/ladder.py                  # a few minutes on an idle 2-core machine
    python benchmarks/ladder.py --games 2400 --vs-games 2000   # bigger

Measured at the defaults (seed 0, 2 shared cores; ratings relative to greedy = 0):
Snapshot 2p tuned-2p +0.53 [0.19, 0.85] > exact +0.36 [0.06, 0.70] > greedy > collector
-0.64 > aggressive -0.79 > cautious -1.35 > random -9.1, 81 s for 1,260 games (before the
search kind); a ladder of random, greedy, search and tuned-2p (240 games a table, seed 0):
search +0.65 [0.44, 0.88] > tuned-2p +0.53 [0.32, 0.75] > greedy > random -9.4, 47 s.
Snapshot search (its defaults: the tuned-2p base, rollouts 12, candidates 2, margin 0.1) vs
greedy, seed 2026, 1,000 games each: 2p 0.658 (0.629-0.687), 3p 0.537 (0.506-0.568), 4p
0.473 (0.442-0.504) (the tuned-2p base alone 0.625, 0.523, 0.450); 2.6 ms a searched
decision, 17 searched decisions and 43 ms a 2p game on one thread. Yosemite: tuned-2p +1.71
[1.17, 2.38] > greedy, rollout -0.19 [-0.64, 0.28] level with greedy in the ladder; search
vs greedy 0.865 (0.811-0.906) head to head over 200 games, ~1.3 ms a decision; seed 2026,
1,000 games: search (its defaults: the tuned-2p base, rollouts 4, candidates 2, margin 0.15)
0.842 (0.818-0.863), the tuned-2p base alone 0.766 (0.739-0.791), search vs tuned-2p 0.635
(0.605-0.664).
ShutterBug 4p: search +0.86
[0.67, 1.03] > tuned-4p +0.36 [0.21, 0.52] > trader +0.17 [0.01, 0.33] > lookahead ~ greedy
> random, 102 s for 1,080 games (2 busy shared cores). ShutterBug search (its defaults: the
tuned base, rollouts 16, candidates 3, depth 1, z 2) vs greedy: 4p 0.432 (0.393-0.472) over
600 games, ~5 ms a decision; seed 2026: 2p 0.700 (0.670-0.727), 3p 0.491 (0.460-0.522), 4p
0.443 (0.412-0.474) over 1,000 games each (the tuned base alone 0.563, 0.444, 0.322).

For each game: the ladder of its built-in field (every policy kind and the bundled tuned
policy for that player count) at the stated games per table, with wall time; then its
search agent against greedy copies (seat rotated): win rate with a 95% Wilson interval and
seconds per decision of the searching seat. Every game's `search` is a batch policy, timed
per decision on the step API.
"""

import argparse
import time

import snapsim
from snapsim.analysis.stats import wilson_interval
from snapsim.protocol import new_game

PLAYERS = {"snapshot": 2, "yosemite": 2, "shutterbug": 4}
SEARCH = {"snapshot": "search", "yosemite": "search", "shutterbug": "search"}


def search_vs_greedy(game: str, players: int, games: int, timed: int, seed: int) -> str:
    """Win rate of the game's search agent against greedy copies, and its time per decision."""
    search = SEARCH[game]
    df = snapsim.simulate(game, players=players,
                          policies=[search] + ["greedy"] * (players - 1), games=games,
                          seed=seed)
    mine = df[df.policy.astype(str) == search]
    wins, n = mine.won.sum(), len(mine)
    spent, decisions = 0.0, 0
    for i in range(timed):
        g = new_game(game, seed=seed, game=i, players=players,
                     policies=[search] + ["greedy"] * (players - 1), rotate_seats=False)
        while not g.is_over():
            t0 = time.perf_counter()
            a = g.policy_action()
            if g.current_player == 0:
                spent += time.perf_counter() - t0
                decisions += 1
            g.apply(a)
    per = spent / max(decisions, 1)
    what = search
    lo, hi = wilson_interval(wins, n)
    return (f"  {what} vs greedy: win rate {wins / n:.3f} (95% CI {lo:.3f}-{hi:.3f}; fair "
            f"share {1 / players:.3f}) over {n} games; {per * 1e3:.1f} ms per decision")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="ladder games per table")
    ap.add_argument("--vs-games", type=int, default=200,
                    help="games of each search policy against greedy")
    ap.add_argument("--timed", type=int, default=3,
                    help="step-API games timed per decision (batch search policies)")
    ap.add_argument("--seed", type=int, default=0, help="root seed")
    ap.add_argument("--only", choices=list(PLAYERS), help="one game only")
    args = ap.parse_args(argv)
    for game in [args.only] if args.only else list(PLAYERS):
        players = PLAYERS[game]
        t0 = time.perf_counter()
        result = snapsim.ladder(game, players=players, games=args.games, seed=args.seed)
        print(result.summary())
        print(f"  wall {time.perf_counter() - t0:.1f} s for {result.games:,} games")
        t0 = time.perf_counter()
        print(search_vs_greedy(game, players, args.vs_games, args.timed, args.seed))
        print(f"  wall {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
