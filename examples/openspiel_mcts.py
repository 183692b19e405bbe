"""OpenSpiel's MCTS bot against snapsim's greedy policy at Yosemite.

    pip install 'snapsim[openspiel]'
    python examples/openspiel_mcts.py [games] [simulations]

The bot searches the state it is given, which holds the whole game (tile deck included):
it shows the plumbing, not a fair match.
"""

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import snapsim.env.openspiel  # noqa: F401  (registers the games)


def main(games: int = 20, simulations: int = 2) -> float:
    game = pyspiel.load_game("python_snapsim_yosemite", {"seed": 1})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    won = 0.0
    for i in range(games):
        mcts_seat = i % 2  # alternate who starts
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == mcts_seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(state.game_state.policy_action()))
        won += state.returns()[mcts_seat]
    print(f"MCTS ({simulations} simulations a move) vs greedy, {games} games: "
          f"MCTS win share {won / games:.2f}")
    return won / games


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
