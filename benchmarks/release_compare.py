"""The working tree against a released version, measured side by side in one run.

    python benchmarks/release_compare.py 3d13a3c [--games 4000] [--rounds 3]

Installs git ref REF (e.g. 3d13a3c, release 0.1.0) into a temporary virtual environment, then
runs the same workloads there and in the working tree, interleaved round by round (REF, tree,
REF, tree, ...) so both see the same machine load, each on one numba thread after a warm-up
that compiles the kernels. Prints games per second (or seconds per searched decision) for
both, the best of the rounds, and their ratio. The machine may be shared and noisy: absolute
figures drift, ratios much less, so the ratio is the number to quote.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = ("numpy", "numba", "pandas", "scipy", "matplotlib", "pyarrow", "tqdm")

# name -> (kind, code): "games" workloads print games/s; "decision" ones seconds per decision.
WORKLOADS = {
    "snapshot 4p greedy": ("games", "sim('snapshot', 4, 'greedy')"),
    "snapshot 4p random": ("games", "sim('snapshot', 4, 'random')"),
    "snapshot 4p cautious": ("games", "sim('snapshot', 4, 'cautious')"),
    "snapshot 4p aggressive": ("games", "sim('snapshot', 4, 'aggressive')"),
    "snapshot 4p collector": ("games", "sim('snapshot', 4, 'collector')"),
    # the tuned kinds (strong play's and rebalancing's line-ups), bundled since 0.1.0
    "snapshot 4p tuned-4p": ("games", "sim('snapshot', 4, 'tuned-4p')"),
    "snapshot 2p tuned-2p": ("games", "sim('snapshot', 2, 'tuned-2p')"),
    "yosemite greedy": ("games", "sim('yosemite', 2, 'greedy')"),
    "shutterbug 4p greedy": ("games", "sim('shutterbug', 4, 'greedy')"),
    "yosemite rollout vs greedy": ("games", "sim('yosemite', 2, 'rollout,greedy', 20)"),
    # the strongest player each version has: 0.1.0's rollout, here the search kind
    "yosemite strongest vs greedy": ("games", "sim('yosemite', 2, strongest('yosemite'), 20)"),
    "shutterbug 4p lookahead": ("games", "sim('shutterbug', 4, 'lookahead', 0.1)"),
    "snapshot search decision": ("decision", "search()"),
    # the budget whose win rate against greedy matches 0.1.0's agent's (SearchAgent(5, 24)),
    # measured by benchmarks/search_agent.py (0.1.0's side times its agent as above)
    "snapshot search decision, same strength": ("decision",
                                                "search('search:rollouts=8:candidates=5')"),
}

RUNNER = textwrap.dedent("""
    import json, sys, time
    import snapsim
    GAMES = int(sys.argv[2])

    def sim(game, players, policies, scale=1.0):
        pols = policies.split(",")
        n = max(4, int(GAMES * scale) if scale <= 1 else GAMES // int(scale))
        run = lambda k: snapsim.simulate(game, players=players, policies=pols, games=k,
                                         seed=1, threads=1)
        run(2)  # compile (or load the cache) before timing
        t = time.perf_counter()
        run(n)
        return n / (time.perf_counter() - t)

    def strongest(game):
        # the version's strongest player of `game` against greedy: its search kind, or
        # before that kind existed its rollout player
        import importlib
        kinds = importlib.import_module(f"snapsim.games.{game}.policies").KIND_NAMES
        return ("search" if "search" in kinds else "rollout") + ",greedy"

    def search(spec="search:rollouts=24:candidates=5"):
        from snapsim.games.snapshot import policies as P
        if "search" not in P.KIND_NAMES:  # before the search kind: its agent, same budget
            from snapsim.games.snapshot.config import SnapshotConfig
            from snapsim.games.snapshot.search import SearchAgent, play_match
            config = SnapshotConfig(players=2)
            play_match(SearchAgent(1, 2, seed=0), config, "greedy", 1, 1)  # compile
            agent = SearchAgent(5, 24, seed=0)
            play_match(agent, config, "greedy", max(2, GAMES // 1000), 0)
            return agent.search_seconds / max(agent.searches, 1)
        from snapsim.games.snapshot import engine as E
        from snapsim.games.snapshot.search import dice_placed
        from snapsim.protocol import new_game
        spent, decisions = 0.0, 0
        for i in range(1 + max(2, GAMES // 1000)):  # game 0 compiles
            g = new_game("snapshot", seed=0, game=i, players=2, rotate_seats=False,
                         policies=[spec, "greedy"])
            while not g.is_over():
                st = g.state
                searched = g.current_player == 0 and (
                    st[E.PHASE] == E.PH_PREP_RESERVED
                    or (st[E.PHASE] == E.PH_PREP_DICE and dice_placed(st) == 0)
                    or (st[E.PHASE] == E.PH_REROLL and st[E.PAY_PENDING] == 0))
                t = time.perf_counter()
                a = g.policy_action()
                if i > 0 and searched:
                    spent += time.perf_counter() - t
                    decisions += 1
                g.apply(a)
        return spent / max(decisions, 1)

    print(json.dumps(eval(sys.argv[1])))
""")


def run(python: str, code: str, games: int, cwd: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_NUM_THREADS")}
    env["NUMBA_NUM_THREADS"] = "1"
    out = subprocess.run([python, "-W", "ignore", "-c", RUNNER, code, str(games)], cwd=cwd,
                         env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"workload {code!r} failed in {python}:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def install(ref: str, where: Path) -> str:
    """A virtual environment holding snapsim at `ref` and this environment's dependency
    versions; returns its python."""
    src = where / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True)
    python = str(where / "venv" / "bin" / "python")
    from importlib.metadata import version

    pins = [f"{d}=={version(d)}" for d in DEPENDENCIES]
    subprocess.run([python, "-m", "pip", "install", "--quiet", *pins], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", str(src)],
                   check=True)
    return python


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", help="git ref to compare against, e.g. 3d13a3c (release 0.1.0)")
    ap.add_argument("--games", type=int, default=4000,
                    help="games per timed run of the plain workloads (default: 4000)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds; the best of each side is kept (default: 3)")
    ap.add_argument("--only", help="comma-separated workload names or parts of names, "
                    "e.g. 'snapshot 4p' (default: all)")
    args = ap.parse_args(argv)
    chosen = {k: v for k, v in WORKLOADS.items()
              if not args.only or any(s.strip() in k for s in args.only.split(","))}
    with tempfile.TemporaryDirectory(prefix="snapsim-release-") as tmp:
        print(f"installing {args.ref} into a temporary environment ...", flush=True)
        ref_python = install(args.ref, Path(tmp))
        sides = {args.ref: (ref_python, Path(tmp)), "tree": (sys.executable, ROOT)}
        best: dict[tuple[str, str], float] = {}
        for r in range(args.rounds):
            for name, (kind, code) in chosen.items():
                order = list(sides) if r % 2 == 0 else list(sides)[::-1]
                for side in order:
                    python, cwd = sides[side]
                    value = run(python, code, args.games, cwd)
                    key = (name, side)
                    better = min if kind == "decision" else max
                    best[key] = better(best.get(key, value), value)
        print(f"\n{'workload':<28} {args.ref:>12} {'tree':>12} {'ratio':>8}")
        for name, (kind, _) in chosen.items():
            old, new = best[(name, args.ref)], best[(name, "tree")]
            ratio = old / new if kind == "decision" else new / old
            unit = "s/decision" if kind == "decision" else "games/s"
            print(f"{name:<28} {old:>12.4g} {new:>12.4g} {ratio:>7.2f}x  ({unit}, "
                  f"best of {args.rounds}, one thread)")


if __name__ == "__main__":
    main()
