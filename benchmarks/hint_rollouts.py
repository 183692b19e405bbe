"""What a hint (snapsim.play.wins) costs: the cold compile of each game's rollout kernel and
the rollouts it plays per second on one core.

    python benchmarks/hint_rollouts.py [--game yosemite] [--rollouts 500]

For each game, in a fresh process with an empty numba cache (NUMBA_CACHE_DIR in a temporary
folder): a greedy game is played to its 8th decision with two or more legal moves, then the
first call of the game's `rollout_wins` (its compile, CPU seconds), then `--rollouts`
rollouts of every legal move: rollouts per move per second and playouts (games played to
the end) per second, so a budget of S seconds gives about S x the first number per move.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from common import Parser, bounded

CHILD = """
import json, sys, time
from snapsim.protocol import new_game
game, rollouts = json.loads(sys.argv[1])
g = new_game(game, seed=3)
for _ in range(8):
    g.apply(g.policy_action())
while len(g.legal_action_ids()) < 2:
    g.apply(g.policy_action())
moves = g.legal_action_ids()
t = time.process_time()
g.POLICIES.rollout_wins(g, moves, 1, 0, 0)
compile_s = time.process_time() - t
t = time.process_time()
g.POLICIES.rollout_wins(g, moves, 1, 0, rollouts)
run_s = time.process_time() - t
print(json.dumps([g.phase, len(moves), compile_s, rollouts / run_s,
                  rollouts * len(moves) / run_s]))
"""


def measure(game: str, rollouts: int) -> list:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([game, rollouts])],
                             env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=["snapshot", "yosemite", "shutterbug"],
                   help="one game (default: all three)")
    p.add_argument("--rollouts", type=bounded(int, 1, 1_000_000), default=500,
                   help="rollouts of every legal move timed (default: 500)")
    args = p.parse_args()
    print(f"{'game':<11} {'phase':<24} {'moves':>5} {'compile s':>9} {'rollouts/s':>10} "
          f"{'playouts/s':>10}")
    for game in [args.game] if args.game else ["snapshot", "yosemite", "shutterbug"]:
        phase, moves, compile_s, per_move, playouts = measure(game, args.rollouts)
        print(f"{game:<11} {phase:<24} {moves:>5} {compile_s:>9.1f} {per_move:>10,.0f} "
              f"{playouts:>10,.0f}")


if __name__ == "__main__":
    main()
