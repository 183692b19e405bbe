"""`snapsim rebalance`: the smallest changes that bring a game within balance targets."""

from __future__ import annotations

import argparse

import numpy as np

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, out_folder, whole
from .common import check_backend_sizes, int_list


def _rebalance(args) -> None:
    from ..report.rebalance import rebalance

    check_backend_sizes(args)
    whole(args.seed, "--seed", 0)
    if args.games is not None and args.budget_given:
        raise InputError("give --games N or --budget MINUTES, not both")
    for flag, value, lo in (("--games", args.games, 10),
                            ("--verify-games", args.verify_games, 10),
                            ("--evaluations", args.evaluations, 1),
                            ("--max-cost", args.max_cost, 1)):
        if value is not None:
            whole(value, flag, lo, MAX_IN_MEMORY_GAMES)
    if not (args.budget > 0 and np.isfinite(args.budget)):
        raise InputError(f"--budget must be a positive number of minutes, got {args.budget}")
    try:
        players = [int(p) for text in args.players for p in int_list(text)] or None
    except InputError as exc:
        raise InputError(f"--players: {exc}") from None
    strong = None if args.strong.strip().lower() == "none" else args.strong.strip()
    from ..sim.registry import get_game

    args.out = args.out or f"{get_game(args.game).name}-rebalance"
    out_folder(args.out)
    result = rebalance(args.game, targets=args.target, edits=args.edit,
                       components=args.components, players=players, games=args.games,
                       budget=None if args.games is not None else args.budget, strong=strong,
                       seed=args.seed, out=args.out, force=args.force, threads=args.threads,
                       workers=args.workers, scheduler=args.scheduler,
                       optimizer=args.optimizer, cost=args.cost,
                       verify_games=args.verify_games, evaluations=args.evaluations,
                       max_cost=args.max_cost, progress=not args.quiet)
    print(result.summary())
    patch = "patch.toml (the recommended variant), " if result.patch is not None else ""
    print(f"written to {args.out}: {patch}report.md, index.html, pareto.csv and "
          "provenance.json")


class _Budget(argparse.Action):
    """--budget, remembering that it was given (it conflicts with --games)."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.budget = values
        namespace.budget_given = True


def add(sub) -> None:
    from ..report.rebalance import COSTS, DEFAULT_BUDGET

    p = sub.add_parser("rebalance", help="find the smallest changes that bring a game within "
                                         "balance targets, verified under greedy and strong "
                                         "play")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
    p.add_argument("--target", action="append", default=[], metavar="NAME=TOL", required=True,
                   help="a balance target (repeatable): seat_spread=2, first_player=2, "
                        "assignments=3 (pp), cards=0.8 (Snapshot, points per die), "
                        "length=A-B")
    p.add_argument("--edit", action="append", default=[], metavar="SPACE", required=True,
                   help="what may change (repeatable): start_tokens, SECTION.FIELD[:±R] such "
                        "as cards.prestige:±1 or assignments[Live Fast].chart, "
                        "knob:NAME[=A-B]; a range left out takes the game's default (see the "
                        "game's docs page)")
    p.add_argument("--components", help="the base variant file: components and [knobs] "
                                        "(default: the bundled game)")
    p.add_argument("--players", action="append", default=[], metavar="N",
                   help="player count(s) the targets must hold at, e.g. 4 or 2-5 (repeatable; "
                        "default: every count the game supports)")
    p.add_argument("--games", type=int, help="games per candidate (default: enough to measure "
                                             "each target to a quarter of its tolerance, "
                                             "within --budget)")
    p.add_argument("--budget", type=float, default=DEFAULT_BUDGET, action=_Budget,
                   metavar="MINUTES", help=f"minutes for the whole run, verification included "
                                           f"(default: {DEFAULT_BUDGET:g})")
    p.add_argument("--strong", nargs="?", const="tuned", default="tuned", metavar="POLICY",
                   help="line-up that verifies the recommended patch again: 'tuned' (the "
                        "bundled policy tuned for each player count), a policy, or 'none' "
                        "(default: tuned)")
    p.add_argument("--seed", type=int, default=1, help="root seed of the search; the "
                                                       "verification plays seed + 7919 "
                                                       "(default: 1)")
    p.add_argument("--out", help="folder for patch.toml, the report and the search's "
                                 "journal; an unfinished search there resumes (default: "
                                 "GAME-rebalance)")
    p.add_argument("--force", action="store_true",
                   help="replace a finished result or another run's files in --out "
                        "(default: refuse)")
    p.add_argument("--optimizer", choices=["surrogate", "nsga2", "tpe"], default="surrogate",
                   help="the search: surrogate (a fitted model and mixed-integer programme), "
                        "or optuna's NSGA-II or TPE (needs optuna) (default: surrogate)")
    p.add_argument("--cost", choices=list(COSTS), default="values",
                   help="edit cost: printed values changed, or their total size "
                        "(default: values)")
    p.add_argument("--max-cost", type=int, default=20,
                   help="the largest edit cost proposed for the trade-off front; the cheapest "
                        "patch that meets every target is sought at any cost (default: 20)")
    p.add_argument("--verify-games", type=int,
                   help="paired games per side of each verification (default: twice the "
                        "games per candidate, 20,000-100,000)")
    p.add_argument("--evaluations", type=int,
                   help="at most this many candidates played (default: as the budget allows)")
    p.add_argument("--threads", type=int, help="numba threads in this process (default: all)")
    p.add_argument("--workers", type=int,
                   help="play candidates in N local worker processes (default: none)")
    p.add_argument("--scheduler", help="Dask: tcp://HOST:PORT of a running scheduler, or "
                                       "local:N to start N local worker processes "
                                       "(default: none)")
    p.add_argument("--quiet", action="store_true", help="no progress bars (default: shown)")
    p.set_defaults(run=_rebalance, budget_given=False)
