"""`snapsim report`: a game's balance studies written as a report, or a report on a sweep."""

from __future__ import annotations

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, out_folder, whole
from ..sim.locks import exclusive
from .common import add_move_timeout, check_backend_sizes

QUICK_GAMES = 300


def _in_committed_reports(out) -> bool:
    """Whether `out` lies in the reports/ folder of a git checkout (the published reports)."""
    from pathlib import Path

    path = Path(out).resolve()
    return any(p.name == "reports" and (p.parent / ".git").exists()
               for p in (path, *path.parents))


def _report(args) -> None:
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
    games = QUICK_GAMES if args.quick else whole(args.games, "--games", 1, MAX_IN_MEMORY_GAMES)
    studies = [s.strip() for s in args.studies.split(",")] if args.studies else None
    from ..sim.variants import load_variant

    comps = load_variant(spec.name, args.components) if args.components else None
    out = args.out or (f"{spec.name}-quick-report" if args.quick else f"reports/{spec.name}")
    out_folder(out)
    if args.quick and args.out and _in_committed_reports(out) and not args.force:
        raise InputError(f"--quick does not write into {out}: its reports are full runs; give "
                         "another --out or add --force")
    strong = None if args.strong.strip().lower() == "none" else args.strong
    for flag, value in (("--strong-games", args.strong_games),
                        ("--ladder-games", args.ladder_games)):
        if value is not None:
            whole(value, flag, 10, MAX_IN_MEMORY_GAMES)
    with exclusive(out):  # one writer, start to end
        if args.force:  # clear another run's report there; unforced, the report refuses it
            claim_report_folder(out, spec.name, args.seed, games, comps, force=True)
        path = spec.report(out, games=games, seed=args.seed, studies=studies,
                           threads=args.threads, components=comps, progress=not args.quiet,
                           strong=strong, strong_games=args.strong_games,
                           ladder_games=args.ladder_games)
    print(f"report written to {path} (and report.md, figures, CSV tables beside it)")


def _report_sweep(args) -> None:
    from ..report.sweep import OBJECTIVE, sweep_report

    if args.folder is None:
        raise InputError("give the sweep's folder: snapsim report sweep DIR")
    given = [o for o, v in (("--studies", args.studies), ("--components", args.components),
                            ("--quick", args.quick), ("--strong-games", args.strong_games),
                            ("--ladder-games", args.ladder_games)) if v]
    if given:
        raise InputError(f"{given[0]} does not apply to a sweep report (its games are played)")
    if args.out:
        out_folder(args.out)
    path = sweep_report(args.folder, out=args.out, objective=args.objective or OBJECTIVE,
                        force=args.force, progress=not args.quiet)
    print(f"sweep report written to {path} (and report.md, figures, CSV tables beside it)")


def add(sub) -> None:
    p = sub.add_parser("report", help="run the balance studies and write the report, or "
                                      "report on a sweep (report sweep DIR)")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug; or sweep")
    p.add_argument("folder", nargs="?", help="after `sweep`: the sweep's output folder")
    p.add_argument("--games", type=int, default=20_000, help="games per configuration")
    p.add_argument("--seed", type=int, default=1, help="root seed")
    p.add_argument("--out", help="output folder (default: reports/GAME, with --quick "
                                 "GAME-quick-report; a sweep's: DIR/report)")
    p.add_argument("--objective", help="sweep report: the measure to minimise, e.g. 'game "
                                       "length (rounds)' (default: seat spread (win rate))")
    p.add_argument("--force", action="store_true", help="replace another run's report in "
                   "the output folder (default: refuse)")
    p.add_argument("--quick", action="store_true",
                   help=f"{QUICK_GAMES} games per configuration (a smoke run)")
    p.add_argument("--studies", help="comma-separated subset of the game's studies (snapshot: "
                                     "seats, policies, restricted, cards, awards, raccoon, "
                                     "sensitivity, tokens; shutterbug: seats, assignments, "
                                     "side_jobs, trading, city, tips, team, solo = the solo "
                                     "and cooperative variants from other public sources, "
                                     "not rulebook rules)")
    p.add_argument("--components", help="component TOML file (default: bundled)")
    p.add_argument("--strong", default="tuned",
                   help="line-up that re-measures every key finding to label it holds, changes, "
                        "reverses or inconclusive: a policy in every seat, 'tuned' (the bundled "
                        "policy tuned for each player count) or 'none' to skip (default: tuned)")
    p.add_argument("--strong-games", type=int,
                   help="games of each strong re-measure (default: the report's games; a slow "
                        "search policy a share of them)")
    p.add_argument("--ladder-games", type=int,
                   help="games per table of the skill ladder (default: a tenth of the report's "
                        "games, at least 24; a table seating a search policy a tenth of that, "
                        "and search sits out below 1,000 games per configuration)")
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_move_timeout(p)
    p.set_defaults(run=_report)

