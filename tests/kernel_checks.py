"""What numba compiles and allocates for a game's batch, each counted in a fresh interpreter
(the counts of the running test process depend on what ran before)."""

import json
import os
import subprocess
import sys


def _fresh(code: str, **env) -> list[str]:
    return subprocess.run([sys.executable, "-W", "ignore", "-c", code],
                          env=dict(os.environ, **env), capture_output=True, text=True,
                          check=True).stdout.splitlines()


def flag_types(game: str, players: int, policies: list[str], arg: int) -> list[list[str]]:
    """The types `api.play_batch` is compiled for at its line-up flag argument `arg`: after
    a greedy run, then after a run of `policies` as well."""
    show = f"print(json.dumps(sorted(str(s[{arg}]) for s in api.play_batch.signatures)))\n"
    run = f"snapsim.simulate({game!r}, players={players}, games=2, seed=1, threads=1, "
    code = (f"import json, snapsim\nfrom snapsim.games.{game} import api\n"
            f"{run}policies=None)\n{show}{run}policies={policies!r})\n{show}")
    return [json.loads(line) for line in _fresh(code)[-2:]]


def ladder_flag_types(game: str, players: int, policies: list[str],
                      args: list[int]) -> list[list[str]]:
    """The types `api.play_batch` is compiled for at each flag argument in `args` after a
    ladder of `policies` (2 games a table)."""
    code = (f"import json\nfrom snapsim.analysis.ladder import ladder\n"
            f"from snapsim.games.{game} import api\n"
            f"ladder({game!r}, {players}, policies={policies!r}, games=2, seed=1, threads=1)\n"
            f"print(json.dumps([sorted({{str(s[a]) for s in api.play_batch.signatures}}) "
            f"for a in {args!r}]))\n")
    return json.loads(_fresh(code)[-1])


def allocations(game: str, players: int, policies, call: str, per_policy: str = "") -> dict:
    """numba's allocations over 3 games (after a first) of each of `policies` in every seat.
    `call` plays game g (from cfg, comp, kinds, params, rngs(g), the game's api and
    policies P); `per_policy` runs after each line-up's kinds and params are made."""
    code = f"""
import json, numpy as np
from numba.core.runtime import rtsys
from snapsim.games.{game} import api, policies as P
from snapsim.protocol import game_class
from snapsim.sim.kernel import game_rngs, policy_arrays, root_keys
config = game_class({game!r}).CONFIG.from_knobs(players={players})
cfg, comp = config.to_array(), config.comp_vector()
key0, key1 = (np.uint64(k) for k in root_keys(3))
rngs = lambda g: game_rngs(key0, key1, g)
out = {{}}
for policy in {list(policies)!r}:
    kinds, params = policy_arrays([api.make_policy(policy)] * {players})
    {per_policy}
    run = lambda g: {call}
    run(0)
    before = rtsys.get_allocation_stats().alloc
    for g in range(3):
        run(g)
    out[policy] = rtsys.get_allocation_stats().alloc - before
print(json.dumps(out))
"""
    return json.loads(_fresh(code, NUMBA_NRT_STATS="1")[-1])
