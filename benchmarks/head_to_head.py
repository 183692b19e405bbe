"""A policy of the working tree against the same policy of an earlier version, head to head in
the same games: is the new one as strong?

    python benchmarks/head_to_head.py REF --game snapshot --players 4 --policy greedy
        [--ref-policy SPEC] [--games 20000] [--seed 1] [--workers 1] [--keep DIR]

REF's `snapsim` package (e.g. a commit) is extracted under the name `snapsim_ref` and imported
beside the tree's. Every game is played by the tree's engine, half the seats asking the tree's
policy and half REF's (REF's seat reads the same position: the state is carried over field by
field, by the names of the engines' state layouts, so REF's policy sees its own layout). Each
side keeps its own policies' memory, as in a game of its own. Each deal is played twice, the
sides' seats swapped, and the deals take every arrangement in turn (4 players: the 6 ways of
choosing the tree's two seats; 2 players: both orders), so no side keeps a seat or a
neighbour, and the luck of a deal is shared. With an odd number of players the sides cannot
hold half the seats each: the tree holds the smaller part (3 players: one seat, in each of
the 3 ways; 5 players: two, in each of the 10) in one game of a deal and the larger part, the
other seats, in the other, so a deal's share, the mean of its two games, is 50% on average at
equal strength (k of P seats win k/P of the time, and k/P + (P-k)/P = 1). Prints the tree's
share of the wins with its 95% confidence interval (deals are independent; a tie is shared).
"""

from __future__ import annotations

import itertools
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from common import Parser, bounded

from snapsim.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


def extract(ref: str, where: Path) -> None:
    """REF's snapsim as the package `snapsim_ref` in `where` (imports renamed)."""
    if (where / "snapsim_ref").exists():
        return
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "snapsim"], check=True,
                             capture_output=True).stdout
    tmp = where / "extract"
    tmp.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    for path in (tmp / "snapsim").rglob("*.py"):
        text = path.read_text()
        text = re.sub(r"\bsnapsim\.", "snapsim_ref.", text)
        text = re.sub(r"(from|import) snapsim\b", r"\1 snapsim_ref", text)
        path.write_text(text)
    (tmp / "snapsim").rename(where / "snapsim_ref")


def layout_map(new_engine, old_engine) -> np.ndarray:
    """Positions in the new state of each slot of the old one (matched by field name)."""
    def offsets(engine):
        at, out = 0, {}
        for name, size in engine._layout.sizes.items():
            out[name] = (at, size)
            at += size
        return out
    new, old = offsets(new_engine), offsets(old_engine)
    index = np.empty(old_engine.STATE_SIZE, np.int64)
    for name, (at, size) in old.items():
        if name not in new or new[name][1] != size:
            raise SystemExit(f"head_to_head: state field {name} differs between the versions")
        index[at:at + size] = np.arange(new[name][0], new[name][0] + size)
    return index


def arrangements(players: int) -> list[tuple[int, ...]]:
    """The seats of the tree's side in a deal's first game, in every arrangement: half the
    seats (an odd number of players: the smaller part); its second game swaps the sides."""
    return [s for s in itertools.combinations(range(players), players // 2)]


def play(task) -> list[float]:
    """The tree's share of the wins in deals lo..hi-1 (each the mean of its two games)."""
    where, game, players, policy, ref_policy, seed, lo, hi, knobs = task
    sys.path.insert(0, str(where))
    import snapsim_ref.protocol as ref_protocol

    from snapsim.protocol import game_class
    new_cls, ref_cls = game_class(game), ref_protocol.game_class(game)
    E = new_cls.ENGINE
    index = layout_map(E, ref_cls.ENGINE)
    config = new_cls.CONFIG.from_knobs(players=players, **knobs)
    ref_config = ref_cls.CONFIG.from_knobs(players=players, **knobs)
    mine = arrangements(players)
    shares = []
    for i in range(2 * lo, 2 * hi):
        deal = i // 2
        ours = set(mine[deal % len(mine)])
        if i % 2:
            ours = set(range(players)) - ours
        g = new_cls(config, seed=seed, game=deal, policies=[policy] * players,
                    rotate_seats=False)
        g.log = None
        ref = ref_cls(ref_config, seed=seed, game=deal, policies=[ref_policy] * players,
                      rotate_seats=False)
        st, cfg, comp, rng, buf = g.state, g._cfg, g._comp, g._rng, g._buf
        mem, ref_mem = g._new_memory(), ref._new_memory()
        n = E.settle(st, cfg, comp, rng, buf)
        while n > 0:
            seat = int(E.decider(st))
            if seat in ours:
                code = g._policy_code(st, rng, seat, n, mem)
            else:
                ref._buf[:n] = buf[:n]
                code = ref._policy_code(st[index], rng, seat, n, ref_mem)
            n = E.step(st, cfg, comp, rng, code, buf)
        won = g.returns()
        shares.append(float(sum(won[s] for s in ours)))
    return [(a + b) / 2 for a, b in zip(shares[::2], shares[1::2], strict=True)]


def main(argv=None) -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", help="git ref of the earlier version, e.g. a commit")
    ap.add_argument("--game", choices=("snapshot", "yosemite", "shutterbug"), default="snapshot",
                    help="the game (default: snapshot)")
    ap.add_argument("--players", type=bounded(int, 2, 6), default=None,
                    help="players (default: 4, Yosemite 2)")
    ap.add_argument("--policy", default="greedy", help="the tree's policy (default: greedy)")
    ap.add_argument("--ref-policy", default=None,
                    help="REF's policy (default: the same as --policy)")
    ap.add_argument("--games", type=bounded(int, 2, 10_000_000), default=20_000,
                    help="games, two per deal (default: 20,000)")
    ap.add_argument("--seed", type=bounded(int, 0, 2**63), default=1, help="seed (default: 1)")
    ap.add_argument("--workers", type=bounded(int, 1, 64), default=1,
                    help="processes playing slices of the games (default: 1)")
    ap.add_argument("--keep", default=None,
                    help="folder to extract REF into and keep (its compiled kernels with it) "
                         "for later runs (default: a temporary folder)")
    args = ap.parse_args(argv)
    try:
        run(args)
    except InputError as e:  # players the game does not take, a policy it does not know
        ap.error(str(e))


def run(args) -> None:
    """Play the games and print the tree's share."""
    players = args.players or (2 if args.game == "yosemite" else 4)
    with tempfile.TemporaryDirectory(prefix="snapsim-h2h-") as tmp:
        where = Path(args.keep or tmp)
        extract(args.ref, where)
        t = time.perf_counter()
        cut = np.linspace(0, args.games // 2, args.workers + 1).astype(int)
        tasks = [(where, args.game, players, args.policy, args.ref_policy or args.policy,
                  args.seed, int(lo), int(hi), {}) for lo, hi in
                 zip(cut[:-1], cut[1:], strict=True)]
        if args.workers == 1:
            shares = play(tasks[0])
        else:
            env = os.environ.get("NUMBA_NUM_THREADS")
            os.environ["NUMBA_NUM_THREADS"] = "1"
            with ProcessPoolExecutor(args.workers) as pool:
                shares = [s for part in pool.map(play, tasks) for s in part]
            if env is None:
                del os.environ["NUMBA_NUM_THREADS"]
        x = np.asarray(shares)
        mean = x.mean()
        half = 1.96 * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
        print(f"{args.game} {players}p: tree {args.policy!r} vs {args.ref} "
              f"{args.ref_policy or args.policy!r}, {2 * len(x):,} games ({len(x):,} deals), "
              f"seed {args.seed}: "
              f"tree's win share {100 * mean:.2f}% [{100 * (mean - half):.2f}%, "
              f"{100 * (mean + half):.2f}%] ({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
