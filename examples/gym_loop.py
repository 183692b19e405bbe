"""A random agent in seat 0 of ShutterBug against greedy opponents, through Gymnasium.

    pip install 'snapsim[rl]'
    python examples/gym_loop.py
"""

import gymnasium
import numpy as np

import snapsim.env  # noqa: F401  (registers the snapsim/ ids)


def main(episodes: int = 3) -> list[float]:
    env = gymnasium.make("snapsim/ShutterBug-v0", opponents="greedy", players=3)
    rng = np.random.default_rng(0)
    results = []
    for episode in range(episodes):
        obs, info = env.reset(seed=episode)
        done, total = False, 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        results.append(total)
    print("win share per episode:", results)
    return results


if __name__ == "__main__":
    main()
