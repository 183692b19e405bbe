"""`snapsim rebalance`: the smallest changes that bring a game within balance targets."""

from __future__ import annotations

import math

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, out_folder, whole
from .common import COMPONENT_FORMATS, add_no_cache, check_backend_sizes, game_help, int_list


def _rebalance(args) -> None:
    from ..analysis.rebalance.lineups import DEFAULT as DEFAULT_LINEUPS
    from ..analysis.rebalance.verify import CONFIRM
    from ..report.rebalance import MAX_SEED, rebalance

    check_backend_sizes(args)
    whole(args.seed, "--seed", 0, MAX_SEED, hint=f" (its confirmation plays seed + {CONFIRM})")
    if args.budget is not None:
        if args.games is not None or args.candidates is not None:
            raise InputError("give --budget MINUTES or --games N / --candidates N, not both "
                             "(a budget in minutes chooses both)")
        if not (args.budget > 0 and math.isfinite(args.budget)):
            raise InputError(f"--budget must be a positive number of minutes, got "
                             f"{args.budget}")
    for flag, value, lo in (("--games", args.games, 10),
                            ("--verify-games", args.verify_games, 10),
                            ("--candidates", args.candidates, 1),
                            ("--max-cost", args.max_cost, 1)):
        if value is not None:
            whole(value, flag, lo, MAX_IN_MEMORY_GAMES)
    if args.strong is not None:
        if args.lineups is not None:
            raise InputError("give --lineups or --strong, not both (--strong POLICY is "
                             "--lineups greedy,POLICY)")
        strong = args.strong.strip()
        args.lineups = "greedy" if strong.lower() == "none" else f"greedy,{strong}"
    try:
        players = [int(p) for text in args.players for p in int_list(text)] or None
    except InputError as exc:
        raise InputError(f"--players: {exc}") from None
    from ..sim.registry import get_game

    args.out = args.out or f"{get_game(args.game).name}-rebalance"
    out_folder(args.out)
    result = rebalance(args.game, targets=args.target, edits=args.edit,
                       components=args.components, players=players, games=args.games,
                       candidates=args.candidates, budget=args.budget,
                       lineups=",".join(DEFAULT_LINEUPS) if args.lineups is None
                       else args.lineups, seed=args.seed,
                       out=args.out, force=args.force, threads=args.threads,
                       workers=args.workers, scheduler=args.scheduler,
                       optimizer=args.optimizer, cost=args.cost,
                       verify_games=args.verify_games, max_cost=args.max_cost,
                       progress=not args.quiet)
    print(result.summary())
    patch = ("" if result.patch is None else "patch.toml (the recommended variant), "
             if result.met else "patch.toml (the best compromise, not recommended), ")
    print(f"written to {args.out}: {patch}report.md, index.html, pareto.csv and "
          "provenance.json")


def _what_flags(p) -> None:
    """What must hold (targets, player counts, line-ups) and what may change."""
    p.add_argument("--target", action="append", default=[], metavar="NAME=TOL", required=True,
                   help="a balance target (repeatable): seat_spread=2, first_player=2, "
                        "assignments=3 (pp), cards=0.8 (points per die), length=A-B; a "
                        "target the game does not have is refused with the game's list")
    p.add_argument("--edit", action="append", default=[], metavar="SPACE", required=True,
                   help="what may change (repeatable): start_tokens, SECTION.FIELD[:±R] such "
                        "as cards.prestige:±1 or assignments[Live Fast].chart, "
                        "knob:NAME[=A-B]; a range left out takes the game's default (see the "
                        "game's docs page)")
    p.add_argument("--components",
                   help=f"the base variant file, {COMPONENT_FORMATS}: components and [knobs] "
                        "(default: the bundled game)")
    p.add_argument("--players", action="append", default=[], metavar="N",
                   help="player count(s) the targets must hold at, e.g. 4 or 2-5 (repeatable; "
                        "default: every count the game supports)")
    p.add_argument("--lineups", metavar="A,B",
                   help="line-ups every target must hold under, each in every seat: greedy "
                        "(the game's default policy), strong (the bundled policy tuned for "
                        "each player count) or a policy name such as search; the search "
                        "minimises the worst case over them (default: greedy,strong)")
    p.add_argument("--strong", metavar="POLICY",
                   help="shorthand: --strong POLICY is --lineups greedy,POLICY, --strong none "
                        "is --lineups greedy (default: not given)")


def _search_flags(p, candidates: int, costs) -> None:
    """The search's budget, seeds, output folder, optimiser and cost."""
    p.add_argument("--games", type=int, help="games per candidate and line-up (default: enough "
                                             "to measure each target to a quarter of its "
                                             "tolerance, from the base game's noise)")
    p.add_argument("--candidates", type=int,
                   help="the search's budget: at most N candidates played (a candidate raced "
                        f"out early counts 1/4) (default: {candidates})")
    p.add_argument("--budget", type=float, metavar="MINUTES",
                   help="a budget in minutes instead of --candidates and --games: converted "
                        "once, from a timed pilot, to both, printed and recorded, so "
                        "--candidates N --games G replays the run exactly (default: not "
                        "given)")
    p.add_argument("--seed", type=int, default=1, help="root seed of the search; the patch is "
                                                       "chosen on seed + 7919 and confirmed "
                                                       "on seed + 15838 (default: 1)")
    p.add_argument("--out", help="folder for patch.toml, the report and the search's "
                                 "journal; an unfinished search there resumes (default: "
                                 "GAME-rebalance)")
    p.add_argument("--force", action="store_true",
                   help="replace a finished result or another run's files in --out "
                        "(default: refuse); files snapsim did not write are never replaced")
    p.add_argument("--optimizer", choices=["surrogate", "nsga2", "tpe"], default="surrogate",
                   help="the search: surrogate (a fitted model and mixed-integer programme), "
                        "or optuna's NSGA-II or TPE (needs optuna) (default: surrogate)")
    p.add_argument("--cost", choices=list(costs), default="values",
                   help="edit cost: printed values changed, or their total size "
                        "(default: values)")
    p.add_argument("--max-cost", type=int, default=20,
                   help="the largest edit cost proposed for the trade-off front; the cheapest "
                        "patch that meets every target is sought at any cost (default: 20)")
    p.add_argument("--verify-games", type=int,
                   help="paired games per side, line-up and player count of the verification "
                        "and of the confirmation (default: twice the games per candidate, "
                        "20,000-100,000)")


def add(sub) -> None:
    from ..sim.defaults import REBALANCE_CANDIDATES, REBALANCE_COSTS

    p = sub.add_parser("rebalance", help="find the smallest changes that bring a game within "
                                         "balance targets under every line-up (greedy and "
                                         "strong play), confirmed on fresh deals")
    p.add_argument("game", help=game_help())
    _what_flags(p)
    _search_flags(p, REBALANCE_CANDIDATES, REBALANCE_COSTS)
    p.add_argument("--threads", type=int, help="numba threads in this process (default: all)")
    p.add_argument("--workers", type=int,
                   help="play candidates in N local worker processes (default: none)")
    p.add_argument("--scheduler", help="Dask: tcp://HOST:PORT of a running scheduler, or "
                                       "local:N to start N local worker processes "
                                       "(default: none)")
    p.add_argument("--quiet", action="store_true", help="no progress bars (default: shown)")
    add_no_cache(p)
    p.set_defaults(run=_rebalance)
