"""`snapsim report`: a game's balance studies written as a report, or a report on a sweep."""

from __future__ import annotations

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, out_folder, whole
from ..sim.locks import exclusive
from .common import (
    COMPONENTS_HELP,
    Parser,
    add_move_timeout,
    add_no_cache,
    add_smallest,
    add_tolerance,
    check_backend_sizes,
    game_help,
    guarded,
)

QUICK_GAMES = 300
REPORT_GAMES = 20_000
REPORT_SEED = 1


def _in_committed_reports(out) -> bool:
    """Whether `out` lies in the reports/ folder of a git checkout (the published reports)."""
    from pathlib import Path

    path = Path(out).resolve()
    return any(p.name == "reports" and (p.parent / ".git").exists()
               for p in (path, *path.parents))


def _report(args) -> None:
    from ..analysis.effects import Smallest
    from ..analysis.verdict import fill_tolerances
    from ..report.studies import claim_report_folder
    from ..sim import get_game

    if args.game.strip().lower() == "sweep":
        return _report_sweep(args)
    if args.folder is not None or args.objective is not None:
        raise InputError("a folder and --objective belong to `snapsim report sweep DIR`")
    check_backend_sizes(args)
    whole(args.seed, "--seed", 0)
    spec = get_game(args.game)
    if spec.report is None:
        raise InputError(f"no report for game {args.game!r} yet")
    games = args.games if args.games is not None else QUICK_GAMES if args.quick else \
        REPORT_GAMES
    whole(games, "--games", 1, MAX_IN_MEMORY_GAMES)
    studies = [s.strip() for s in args.studies.split(",")] if args.studies else None
    from ..sim.variants import load_variant

    comps = load_variant(spec.name, args.components) if args.components else None
    out = args.out or (f"{spec.name}-quick-report" if args.quick else f"reports/{spec.name}")
    out_folder(out)
    if args.quick and args.out and _in_committed_reports(out) and not args.force:
        raise InputError(f"--quick does not write into {out}: its reports are full runs; give "
                         "another --out or add --force")
    if args.strategy_only:
        return _strategy(spec.name, out, games, args)
    strong = None if args.strong.strip().lower() == "none" else args.strong
    smallest = Smallest.parse(args.smallest_effect)
    tolerances = fill_tolerances(spec.name, args.tolerance)
    for flag, value in (("--strong-games", args.strong_games),
                        ("--ladder-games", args.ladder_games)):
        if value is not None:
            whole(value, flag, 10, MAX_IN_MEMORY_GAMES)
    guide = None
    if studies is None and not args.components:  # the whole report: its strategy guide too,
        from ..games.guide import guide_games, guide_in_background

        # measured on the other core while the studies run
        guide = guide_in_background(spec.name, guide_games(games), args.seed, args.threads)
    with exclusive(out):  # one writer, start to end
        if args.force:  # clear another run's report there; unforced, the report refuses it
            claim_report_folder(out, spec.name, args.seed, games, comps, force=True,
                                smallest=smallest)
        path = spec.report(out, games=games, seed=args.seed, studies=studies,
                           threads=args.threads, components=comps, progress=not args.quiet,
                           strong=strong, strong_games=args.strong_games,
                           ladder_games=args.ladder_games, smallest=smallest,
                           tolerances=tolerances)
    print(f"report written to {path} (and report.md, figures, CSV tables beside it)"
          + (" -- copied from the run cache, where the same report made before was kept "
             "(--no-cache builds it again)" if _copied(out) else ""))
    if studies is None and not args.components:
        if guide is not None:
            guide.join()  # into the cache, which `_strategy` copies it from
        _strategy(spec.name, out, games, args, alone=False)


def _copied(out) -> bool:
    """Whether the report in `out` was copied whole from the run cache (its provenance says)."""
    import json
    from pathlib import Path

    from ..sim.files import read_text
    from ..sim.provenance import PROVENANCE_FILE

    return bool(json.loads(read_text(Path(out) / PROVENANCE_FILE)).get("report_from_cache"))


def _strategy(game: str, out, games: int, args, alone: bool = True) -> None:
    """The game's strategy guide (strategy.md) written into the report folder `out`, its
    measurements at the report's games (at least 20) per arm. Written `alone`, it claims the
    folder as the report does: a folder holding only a guide takes one of the same game,
    games and seed again."""
    from ..games.guide import guide_games, write_strategy

    if args.components:
        raise InputError("the strategy guide measures the bundled components only; drop "
                         "--components or --strategy-only")
    with exclusive(out):
        if alone:
            _claim_guide(out, game, games, args)
        path = write_strategy(game, out, games=guide_games(games), seed=args.seed,
                              threads=args.threads)
    print(f"strategy guide written to {path}")


def _claim_guide(out, game: str, games: int, args) -> None:
    from pathlib import Path

    from ..analysis.effects import Smallest
    from ..games.guide import GUIDE, guide_games, guide_made
    from ..report.studies import claim_report_folder
    from ..sim.provenance import PROVENANCE_FILE
    from ..sim.store import claim_folder, clear_own

    made = guide_made(out)
    if made is None or (Path(out) / PROVENANCE_FILE).exists():
        claim_report_folder(out, game, args.seed, games, force=args.force,
                            smallest=Smallest.parse(args.smallest_effect))
        return
    claim_folder(out, kind="strategy guide")
    want = {"game": game, "games": guide_games(games), "seed": args.seed}
    key = next((k for k in want if made[k] != want[k]), None)
    if key is None:
        return
    if not args.force:
        raise InputError(f"{out} holds the {GUIDE} of another run ({key} {made[key]}, not "
                         f"{want[key]}); choose another --out or add --force to replace it")
    clear_own(out)


def _report_sweep(args) -> None:
    from ..report.sweep import OBJECTIVE, sweep_report

    if args.folder is None:
        raise InputError("give the sweep's folder: snapsim report sweep DIR")
    given = [o for o, v in (("--games", args.games), ("--studies", args.studies),
                            ("--components", args.components), ("--quick", args.quick),
                            ("--strong-games", args.strong_games),
                            ("--ladder-games", args.ladder_games),
                            ("--smallest-effect", args.smallest_effect),
                            ("--tolerance", args.tolerance))
             if v not in (None, False) and v != []]
    if given:
        raise InputError(f"{given[0]} does not apply to a sweep report (its games are played)")
    if args.out:
        out_folder(args.out)
    path = sweep_report(args.folder, out=args.out, objective=args.objective or OBJECTIVE,
                        force=args.force, progress=not args.quiet)
    print(f"sweep report written to {path} (and report.md, figures, CSV tables beside it)")


def study_main(game: str, study: str, argv: list[str] | None = None) -> int:
    """An `analyses/` script: one study's section written again into a report folder (by
    default the game's committed report), and the report rendered again, under the command's
    rules (one error line, exit code 2). Its games and seed default to the report's already
    in the folder, so the section matches the rest; another n goes to another folder."""
    parser = Parser(prog=f"analyses/{game}_{study}.py",
                    description=f"Write the '{study}' section of the {game} report again and "
                                "render the report again.")
    parser.add_argument("--games", type=int, help="games per configuration (default: the "
                                                  "report's in --out, else 20,000)")
    parser.add_argument("--seed", type=int, help="root seed (default: the report's in --out, "
                                                 "else 1)")
    parser.add_argument("--out", default=f"reports/{game}", help="the report folder")
    parser.add_argument("--force", action="store_true",
                        help="replace another run's report in --out (default: refuse); "
                             "files snapsim did not write are never replaced")
    parser.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_smallest(parser)
    return guarded(lambda: _study(parser.parse_args(argv), game, study))


def _study(args, game: str, study: str) -> None:
    from pathlib import Path

    from ..analysis.effects import Smallest
    from ..report.studies import claim_report_folder
    from ..sim import get_game
    from ..sim.files import read_json
    from ..sim.provenance import PROVENANCE_FILE

    spec = get_game(game)
    check_backend_sizes(args)
    out_folder(args.out)
    try:
        made = read_json(Path(args.out) / PROVENANCE_FILE)
    except (OSError, ValueError):
        made = {}
    made = made if isinstance(made, dict) else {}
    games = args.games if args.games is not None else made.get("games", REPORT_GAMES)
    seed = args.seed if args.seed is not None else made.get("seed", REPORT_SEED)
    whole(games, "--games", 1, MAX_IN_MEMORY_GAMES)
    whole(seed, "--seed", 0)
    smallest = Smallest.parse(args.smallest_effect)
    with exclusive(args.out):  # one writer, start to end
        if args.force:
            claim_report_folder(args.out, spec.name, seed, games, None, force=True,
                                smallest=smallest)
        path = spec.report(args.out, games=games, seed=seed, studies=[study],
                           threads=args.threads, progress=not args.quiet, smallest=smallest)
    print(f"section {study} written at {games:,} games, seed {seed}; report rendered again "
          f"as {path}")


def add(sub) -> None:
    p = sub.add_parser("report", help="run the balance studies and write the report, or "
                                      "report on a sweep (report sweep DIR)")
    p.add_argument("game", help=f"{game_help()}; or sweep")
    p.add_argument("folder", nargs="?", help="after `sweep`: the sweep's output folder")
    p.add_argument("--games", type=int, help=f"games per configuration (default: "
                                             f"{REPORT_GAMES:,}; with --quick {QUICK_GAMES})")
    p.add_argument("--seed", type=int, default=REPORT_SEED, help="root seed")
    p.add_argument("--out", help="output folder (default: reports/GAME, with --quick "
                                 "GAME-quick-report; a sweep's: DIR/report)")
    p.add_argument("--objective", help="sweep report: the measure to minimise, e.g. 'game "
                                       "length (rounds)' (default: seat spread (win rate))")
    p.add_argument("--force", action="store_true", help="replace another run's report in "
                   "the output folder (default: refuse); files snapsim did not write are "
                   "never replaced")
    p.add_argument("--quick", action="store_true",
                   help=f"a smoke run: {QUICK_GAMES} games per configuration (unless --games) "
                        "into GAME-quick-report")
    p.add_argument("--studies", help="comma-separated subset of the game's studies, e.g. "
                                     "luck,ladder (default: all; a name the game does not "
                                     "have is refused with the list of its studies; luck: how "
                                     "much skill and the deal decide; fixes: the smallest fixes "
                                     "`snapsim rebalance` finds for the worst findings)")
    p.add_argument("--components", help=COMPONENTS_HELP)
    p.add_argument("--strategy-only", action="store_true",
                   help="write only the strategy guide (strategy.md: the rules of thumb, "
                        "measured, the exact tables where the game has them, the closest calls) "
                        "into the report folder, at --games per arm (default: off; "
                        "the whole report writes it too)")
    p.add_argument("--strong", default="tuned",
                   help="line-up that re-measures every key finding to label it (holds, weakens, "
                        "strengthens, reverses, appears, vanishes, unresolved, not comparable): a "
                        "policy in every seat, 'tuned' (the bundled policy tuned for each player "
                        "count) or 'none' to skip (default: tuned)")
    p.add_argument("--strong-games", type=int,
                   help="games of each strong re-measure (default: the report's games; a slow "
                        "search policy a share of them)")
    p.add_argument("--ladder-games", type=int,
                   help="games per table of the skill ladder (default: a tenth of the report's "
                        "games, at least 24; a table seating a search policy a tenth of that, "
                        "and search sits out below 3,000 games per configuration)")
    add_smallest(p)
    add_tolerance(p)
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_no_cache(p)
    add_move_timeout(p)
    p.set_defaults(run=_report)

