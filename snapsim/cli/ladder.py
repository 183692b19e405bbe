"""`snapsim ladder`: the built-in policies rated against each other."""

from __future__ import annotations

from contextlib import nullcontext

from ..sim.checks import MAX_IN_MEMORY_GAMES, out_folder, whole
from ..sim.locks import exclusive
from .common import (
    COMPONENTS_HELP,
    add_move_timeout,
    add_smallest,
    check_backend_sizes,
    game_help,
    policy_list,
    read_knobs,
)


def _ladder(args) -> None:
    from ..analysis.effects import Smallest
    from ..analysis.ladder import REPS, ladder
    from ..report.ladder import write_ladder
    from ..sim.store import check_out_free

    whole(args.games, "--games", 1, MAX_IN_MEMORY_GAMES)
    whole(args.seed, "--seed", 0)
    whole(args.reps, "--reps", 10, 100 * REPS)
    if args.search_games is not None:
        whole(args.search_games, "--search-games", 1, MAX_IN_MEMORY_GAMES)
    if args.players is not None:
        whole(args.players, "--players", 2, 100)
    check_backend_sizes(args)
    knobs = read_knobs(args)
    smallest = Smallest.parse(args.smallest_effect)
    policies = policy_list(args.policies)
    if args.out:
        out_folder(args.out)
    with exclusive(args.out) if args.out else nullcontext():  # one writer, start to end
        if args.out:
            check_out_free(args.out, args.force, kind="ladder")
        result = ladder(args.game, args.players, policies, args.games, args.seed, args.threads,
                        reps=args.reps, progress=not args.quiet,
                        search_games=args.search_games, **knobs)
        claims = result.claims(smallest)
        print(result.summary())
        print("\n".join(claims))
        if args.out:
            path = write_ladder(result, args.out, force=args.force, smallest=smallest)
            print(f"ladder written to {path} (ratings.csv, pairwise.csv, ladder.png and "
                  "provenance.json beside it)")


def add(sub) -> None:
    p = sub.add_parser("ladder", help="rate the built-in policies against each other, seats "
                                      "rotated, with confidence intervals")
    p.add_argument("game", help=game_help())
    p.add_argument("--players", type=int, help="players per table (default: the game's usual "
                                               "count)")
    p.add_argument("--policies", help="comma-separated field, at least two (default: every "
                                      "built-in policy and the bundled tuned-<N>p if any)")
    p.add_argument("--games", type=int, default=240,
                   help="games per table, rounded up to a multiple of its seat assignments")
    p.add_argument("--search-games", type=int,
                   help="games per table at tables seating a search policy (search, rollout) "
                        "or an exact kind, tens of times dearer a game (default: --games)")
    p.add_argument("--seed", type=int, default=0, help="root seed: same seed, same ladder")
    p.add_argument("--reps", type=int, default=500,
                   help="bootstrap resamples for the rating intervals")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="rule knob, e.g. photo_target=8 (repeatable; default: none)")
    p.add_argument("--components", help=COMPONENTS_HELP)
    add_smallest(p)
    p.add_argument("--out", help="folder for ratings.csv, pairwise.csv, ladder.png, ladder.md "
                                 "and provenance.json (default: print the ratings only)")
    p.add_argument("--force", action="store_true",
                   help="replace another run's output in --out (default: refuse); files "
                        "snapsim did not write are never replaced")
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: shown)")
    add_move_timeout(p)
    p.set_defaults(run=_ladder)

