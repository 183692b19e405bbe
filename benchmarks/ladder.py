"""Skill ladders of the three games, and each search agent against greedy.

    python benchmarks/ladder.py                  # a few minutes on an idle 2-core machine
    python benchmarks/ladder.py --games 2400 --vs-games 2000 --search-games 200   # bigger

Measured at the defaults (seed 0, 2 shared cores; ratings relative to greedy = 0):
Snapshot 2p tuned-2p +0.53 [0.19, 0.85] > exact +0.36 [0.06, 0.70] > greedy > collector
-0.64 > aggressive -0.79 > cautious -1.35 > random -9.1, 81 s for 1,260 games; search vs
greedy 0.700 (0.397-0.892) over 10 games, ~50 ms a decision. Yosemite: tuned-2p +1.71
[1.17, 2.38] > greedy, rollout -0.19 [-0.64, 0.28] level with greedy in the ladder, 0.550
(0.481-0.617) head to head over 200 games, ~5 ms a decision. ShutterBug 4p: tuned-4p +0.48
[0.33, 0.63] > trader +0.20 [0.06, 0.34] > lookahead +0.11 [-0.06, 0.26] ~ greedy ~ search
-0.08 [-0.26, 0.10] > random, 50 s for 1,080 games. ShutterBug
search (tuned weights, rollouts 16, candidates 3, depth 1) vs greedy, seed 0: 2p 0.562
(0.532-0.593) over 1,000 games, 3p 0.306 (0.271-0.344) over 600, ~6 ms a decision.

For each game: the ladder of its built-in field (every policy kind and the bundled tuned
policy for that player count) at the stated games per table, with wall time; then its
search agent against greedy copies (seat rotated): win rate with a 95% Wilson interval and
seconds per decision of the searching seat. Snapshot's search agent (determinized rollouts
over the Preparation plan) plays through the step API; Yosemite and ShutterBug `search`
are batch policies, timed per decision on the step API.
"""

import argparse
import time

import snapsim
from snapsim.analysis.stats import wilson_interval

PLAYERS = {"snapshot": 2, "yosemite": 2, "shutterbug": 4}
SEARCH = {"yosemite": "search", "shutterbug": "search"}


def search_spec(game: str, players: int) -> str:
    """The game's batch search policy; ShutterBug's plays out with the bundled tuned weights."""
    if game != "shutterbug":
        return SEARCH[game]
    from snapsim.games.shutterbug import policies as P
    from snapsim.sim.tuning import tuned_policies

    _, params = tuned_policies(game)[f"tuned-{players}p"]
    tuned = ":".join(f"{k}={v:g}" for k, v in zip(P.PARAM_NAMES, params, strict=True)
                     if k in ("w_assign", "w_off", "w_job", "tip_value", "w_city", "look"))
    return f"search:{tuned}"


def search_vs_greedy(game: str, players: int, games: int, timed: int, seed: int) -> str:
    """Win rate of the game's search agent against greedy copies, and its time per decision."""
    if game == "snapshot":
        from snapsim.games.snapshot.config import SnapshotConfig
        from snapsim.games.snapshot.search import SearchAgent, play_match

        agent = SearchAgent(seed=seed)
        df = play_match(agent, SnapshotConfig(players=players), "greedy", games, seed)
        wins, n = df.won.sum(), len(df)
        per = agent.search_seconds / max(agent.searches, 1)
        what = f"search (candidates {agent.candidates}, rollouts {agent.rollouts})"
    else:
        from snapsim.protocol import new_game

        search = search_spec(game, players)
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
                    help="games of a batch search policy against greedy")
    ap.add_argument("--search-games", type=int, default=10,
                    help="games of the Snapshot search agent against greedy")
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
        n = args.search_games if game == "snapshot" else args.vs_games
        t0 = time.perf_counter()
        print(search_vs_greedy(game, players, n, args.timed, args.seed))
        print(f"  wall {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
