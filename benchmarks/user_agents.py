"""Games per second of the three routes a line-up can take, one thread, 2 players:
the batch kernel (built-in policies only), the step driver with built-in policies, and the
step driver with a Python agent at one seat (a random legal move; greedy at the other).

    python benchmarks/user_agents.py --games 200
"""

import argparse
import time

import snapsim
from snapsim.sim.agents import play_chunk
from snapsim.sim.backends import Task
from snapsim.sim.runner import prepare


class RandomAgent:
    """A random legal move from the runner's generator: about the cheapest Python agent."""

    def act(self, observation, legal_actions):
        return legal_actions[self.rng.integers(len(legal_actions))]


def per_second(run, games: int) -> float:
    run(1)  # compile or load the kernels first
    t = time.perf_counter()
    run(games)
    return games / (time.perf_counter() - t)


def step_driver(game: str, lineup: list):
    """Games through the step class, whatever the line-up (what a line-up holding a Python
    agent gets)."""
    spec, config, pols = prepare(game, 2, lineup)
    return lambda n: play_chunk(Task(0, spec.name, config, pols, 0, n, 1, True))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per route and game")
    args = ap.parse_args(argv)
    print(f"games/s on one thread, 2 players, {args.games} games per route")
    print(f"{'game':<11} {'batch':>10} {'step, built-in':>15} {'step, Python agent':>19}")
    for game in ("snapshot", "yosemite", "shutterbug"):
        batch = per_second(lambda n, g=game: snapsim.simulate(
            g, players=2, policies=["greedy"], games=n, seed=1, threads=1), args.games)
        builtin = per_second(step_driver(game, ["greedy", "greedy"]), args.games)
        agent = per_second(step_driver(game, [RandomAgent(), "greedy"]), args.games)
        print(f"{game:<11} {batch:>10,.0f} {builtin:>15,.0f} {agent:>19,.0f}")


if __name__ == "__main__":
    main()
