"""A small Python agent at the Yosemite table, against the built-in greedy policy.

It takes a photo whenever the rules let it, and otherwise plays a random legal move drawn
from the generator the runner hands it (``self.rng``, seeded from the run's seed, the game
and the seat), so the same seed gives the same games.

    python examples/my_agent.py
    snapsim simulate yosemite --policies examples.my_agent:agent,greedy --games 200
"""

import snapsim


class PhotoFirst:
    """Photo when it can, else a random legal move."""

    name = "photo-first"

    def act(self, observation, legal_actions):
        photos = [a for a in legal_actions if a.kind == "photo"]
        if photos:
            return photos[0]
        return legal_actions[self.rng.integers(len(legal_actions))]


agent = PhotoFirst()

if __name__ == "__main__":
    df = snapsim.simulate("yosemite", policies=[agent, "greedy"], games=100, seed=1)
    print(df.groupby("policy", observed=True)[["won", "score", "photos"]].mean().round(2))
