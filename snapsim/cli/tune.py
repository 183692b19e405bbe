"""`snapsim tune`: a heuristic policy's parameters optimised for win rate, saved only when
the gain is significant."""

from __future__ import annotations

from ..errors import InputError
from ..sim.checks import MAX_IN_MEMORY_GAMES, out_file, out_folder, whole
from .common import (
    COMPONENTS_HELP,
    add_move_timeout,
    check_backend_sizes,
    emit,
    game_help,
    read_knobs,
)


def _tune(args) -> None:
    from importlib import import_module
    from pathlib import Path

    import pandas as pd

    from ..games.tuning import SEARCHED, TUNED_HEADER, save_tuned, tune
    from ..sim import get_game
    from ..sim.files import claim_output, starts_with
    from ..sim.registry import game_package

    game = get_game(args.game).name
    if game not in SEARCHED:
        raise InputError(f"tuning is available for {', '.join(SEARCHED)}, not {args.game!r}")
    if args.players is not None:
        whole(args.players, "--players", 2, 100)
    for name, v, lo, hi in (
                            ("--games", args.games, 1, MAX_IN_MEMORY_GAMES),
                            ("--iterations", args.iterations, 1, 1000),
                            ("--popsize", args.popsize, 1, 1000),
                            ("--verify-games", args.verify_games, 1, MAX_IN_MEMORY_GAMES),
                            ("--seed", args.seed, 0, 2**32 - 1)):
        whole(v, name, lo, hi)
    check_backend_sizes(args)
    knobs = read_knobs(args)
    if args.out and not Path(args.out).is_dir():  # refused before the long search
        claim_output(args.out, args.force, starts_with(TUNED_HEADER.encode()))
    if args.out and Path(args.out).is_dir():  # checked before the long search
        out_folder(args.out)
    elif args.out:
        out_file(args.out)
    res = tune(game, args.players, args.policy, args.field, args.games, args.seed,
               args.iterations, args.popsize, args.verify_games, args.threads, **knobs)
    players_label = getattr(import_module(".config", game_package(game)), "players_label",
                            lambda n: f"{n} players")
    table = pd.DataFrame({"parameter": list(res.params), "tuned": list(res.params.values())})
    verdict = "significant" if res.significant else "NOT significant: not saved"
    emit(table, "table", f"Tuned {res.base} for {players_label(res.players)} against {res.field} "
                          f"({res.evaluations} candidates, {args.games} games each)",
          {"verify_games": res.verify_games, "win_rate": res.win_rate, "ci_low": res.ci_low,
           "ci_high": res.ci_high, "fair_share": 1 / res.players, "p_value": res.p_value,
           "verdict": verdict})
    if res.significant:
        path = save_tuned(res, args.out, force=args.force)
        print(f"saved as {path} (use it as --policies {path})")


def add(sub) -> None:
    p = sub.add_parser("tune", help="optimise a policy's parameters for win rate")
    p.add_argument("game", help=game_help())
    p.add_argument("--players", type=int, help="number of players (default: the game's "
                                                "usual count, 2 or more)")
    p.add_argument("--policy", default="greedy", help="heuristic policy to tune")
    p.add_argument("--field", default="greedy", help="opponents' policy")
    p.add_argument("--games", type=int, default=1000, help="games per candidate")
    p.add_argument("--iterations", type=int, default=4, help="differential-evolution rounds")
    p.add_argument("--popsize", type=int, default=5,
                   help="differential-evolution population multiplier")
    p.add_argument("--verify-games", type=int, default=20_000,
                   help="fresh games against greedy for the significance check")
    p.add_argument("--seed", type=int, default=0, help="tuning seed")
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="rule knob for the tuning games, e.g. photo_target=8 (repeatable; "
                        "default: none)")
    p.add_argument("--components", help=COMPONENTS_HELP)
    p.add_argument("--out", help="tuned TOML file or folder (default: tuned-<N>p.toml in the "
                                 "current folder)")
    p.add_argument("--force", action="store_true",
                   help="replace an earlier tuned file at --out (never any other file; "
                        "default: refuse)")
    add_move_timeout(p)
    p.set_defaults(run=_tune)

