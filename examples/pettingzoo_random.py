"""A random agent at every seat of a PettingZoo Snapshot game, choosing among legal actions.

    pip install 'snapsim[rl]'
    python examples/pettingzoo_random.py
"""

import numpy as np

from snapsim.env import pettingzoo_env


def main(seed: int = 0) -> dict:
    env = pettingzoo_env("snapshot", players=3)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    print("win shares:", {a: round(r, 2) for a, r in totals.items()})
    return totals


if __name__ == "__main__":
    main()
