"""SearchAgent (determinized Monte Carlo over Preparation) against greedy, 2 players.

    python benchmarks/search_agent.py --games 200 --candidates 5 --rollouts 24
"""

import argparse
import time

from snapsim.analysis.stats import wilson_interval
from snapsim.games.snapshot.config import SnapshotConfig
from snapsim.games.snapshot.search import SearchAgent, play_match


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--candidates", type=int, default=5)
    ap.add_argument("--rollouts", type=int, default=24)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    config = SnapshotConfig(players=2)
    agent = SearchAgent(args.candidates, args.rollouts, seed=args.seed)
    play_match(SearchAgent(1, 2, seed=args.seed), config, "greedy", 1, args.seed + 1)  # compile
    t0 = time.perf_counter()
    df = play_match(agent, config, "greedy", args.games, args.seed)
    wall = time.perf_counter() - t0
    wins = df.won.sum()
    lo, hi = wilson_interval(wins, len(df))
    decisions = int(df.decisions.sum())
    print(f"search agent (candidates={args.candidates}, rollouts={args.rollouts}) vs greedy, "
          f"2 players, {len(df)} games, seat rotated")
    print(f"win rate {wins / len(df):.3f}  (95% CI {lo:.3f}-{hi:.3f}; 0.5 = parity)")
    for seat, g in df.groupby("seat"):
        print(f"  seat {seat}: win rate {g.won.mean():.3f} over {len(g)} games")
    print(f"mean score difference (agent - greedy) {df.score_diff.mean():+.2f} "
          f"(sd {df.score_diff.std():.2f})")
    print(f"searched decisions {decisions} ({decisions / len(df):.1f} per game), "
          f"{agent.search_seconds / max(decisions, 1):.3f} s per decision, wall {wall:.1f} s")


if __name__ == "__main__":
    main()
