"""`snapsim compare`: a variant against the baseline, paired on common random numbers."""

from __future__ import annotations

import math
from contextlib import nullcontext

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, out_folder, whole
from ..sim.locks import exclusive
from .common import (
    COMPONENT_FORMATS,
    add_move_timeout,
    add_no_cache,
    add_smallest,
    add_tolerance,
    check_backend_sizes,
    game_help,
    int_list,
    parse_knob,
    policy_list,
)


def _compare(args) -> int | None:
    from ..analysis.effects import Smallest
    from ..analysis.verdict import fill_tolerances
    from ..report.compare import compare
    from ..sim.store import check_out_free

    games: int | str = args.games
    if str(games).strip().lower() == "auto":
        games = "auto"
    else:
        try:
            games = int(games)
        except ValueError:
            raise InputError(f"--games {args.games!r}: give a whole number or 'auto'") from None
        whole(games, "--games", 1, MAX_IN_MEMORY_GAMES)
    check_backend_sizes(args)
    whole(args.seed, "--seed", 0)
    if args.detect is not None and not (args.detect > 0 and math.isfinite(args.detect)):
        raise InputError(f"--detect must be a positive number of points, got {args.detect}")
    smallest = Smallest.parse(args.smallest_effect)
    tolerances = fill_tolerances(args.game.strip().lower(), args.tolerance)
    players = [int(p) for text in args.players for p in int_list(text)] or None
    policies = policy_list(args.policies)
    knobs = dict(parse_knob(t) for t in args.variant_set)
    if args.strong_games is not None:
        if args.strong is None:
            raise InputError("--strong-games belongs with --strong")
        whole(args.strong_games, "--strong-games", 10, MAX_IN_MEMORY_GAMES)
    if args.out:
        out_folder(args.out)
    with exclusive(args.out) if args.out else nullcontext():  # one writer, start to end
        if args.out:
            check_out_free(args.out, args.force)
        result = compare(args.game, baseline=args.baseline, variants=args.variant,
                         variant_set=knobs, players=players, policies=policies, games=games,
                         seed=args.seed, detect=args.detect, threads=args.threads,
                         restricted=not args.no_restricted, progress=not args.quiet,
                         strong=args.strong, strong_games=args.strong_games,
                         smallest=smallest, tolerances=tolerances)
        print(result.summary())
        if args.out:
            print(f"comparison written to {result.write(args.out, force=args.force)} "
                  "(report.md, figures, CSV tables and provenance.json beside it)")
    return None


def add(sub) -> None:
    p = sub.add_parser("compare", help="a variant against the baseline, paired on common "
                                       "random numbers, with CIs and verdicts")
    p.add_argument("game", help=game_help())
    p.add_argument("--baseline", default="standard",
                   help=f"'standard' or a component file, {COMPONENT_FORMATS} (default: "
                        "standard)")
    p.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help=f"variant component file, {COMPONENT_FORMATS} (repeatable; default: the "
                        "baseline's components with --variant-set)")
    p.add_argument("--variant-set", action="append", default=[], metavar="KNOB=VALUE",
                   help="rule knob changed in every variant (repeatable; default: none)")
    p.add_argument("--players", action="append", default=[], metavar="N",
                   help="player count(s), e.g. 3 or 2-5 (repeatable; default: the game's)")
    p.add_argument("--policies", help="comma-separated line-up, one per seat or one for all "
                                      "(default: greedy in every seat)")
    p.add_argument("--games", default="2000",
                   help="paired games per side and player count, or 'auto' with --detect "
                        "(default: 2000)")
    p.add_argument("--detect", type=float,
                   help="with --games auto: seat-spread change in points to detect with 80%% "
                        "power (default: none)")
    p.add_argument("--seed", type=int, default=1, help="root seed (default: 1)")
    p.add_argument("--no-restricted", action="store_true",
                   help="skip the restricted-play runs (default: run them)")
    p.add_argument("--strong", nargs="?", const="tuned", metavar="POLICY",
                   help="compare again with POLICY in every seat (alone: 'tuned', the bundled "
                        "policy tuned for each player count, else the game's strongest "
                        "built-in one) and label each change (holds, weakens, strengthens, "
                        "reverses, appears, vanishes, unresolved, not comparable; default: off)")
    p.add_argument("--strong-games", type=int,
                   help="with --strong: paired games per side of the strong comparison "
                        "(default: --games; a slow search policy a share of them)")
    add_smallest(p)
    add_tolerance(p)
    p.add_argument("--out", help="folder for index.html, report.md, CSVs and provenance.json "
                                 "(default: print the summary only)")
    p.add_argument("--force", action="store_true",
                   help="replace another run's output in --out (default: refuse); files "
                        "snapsim did not write are never replaced")
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: shown)")
    add_no_cache(p)
    add_move_timeout(p)
    p.set_defaults(run=_compare)

