"""`snapsim simulate` and `snapsim sweep`: many seeded games summarised as win rates, and a
grid of rule knobs, player counts and line-ups."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from ..errors import InputError
from ..sim.checks import out_file, out_folder
from .common import (
    COMPONENTS_HELP,
    add_move_timeout,
    check_backend_sizes,
    emit,
    game_help,
    policy_list,
    read_knobs,
)

if TYPE_CHECKING:
    import pandas as pd


def _summary(title: str, by_policy: pd.DataFrame, by_seat: pd.DataFrame, fmt: str,
             extra: dict) -> None:
    """Print the win tables; seats numbered from 1 (in turn order, except in Yosemite, which
    deals its first player each game), as people read them everywhere (the rows of a saved
    run keep the 0-based `seat` column)."""
    import pandas as pd

    by_seat = by_seat.assign(seat=by_seat.seat + 1)
    if fmt == "json":
        print(json.dumps({**extra, "policies": json.loads(by_policy.to_json(orient="records")),
                          "seats": json.loads(by_seat.to_json(orient="records"))}, indent=2))
    elif fmt == "csv":
        sys.stdout.write(pd.concat([by_policy.assign(table="policy"),
                                    by_seat.assign(table="seat")]).to_csv(index=False))
    else:
        print(title)
        emit(by_policy, "table", "by policy:")
        emit(by_seat, "table", "by seat:")


def _interrupted(folder) -> int:
    print(f"snapsim: interrupted; every finished chunk is kept in {folder}: run the same "
          "command with --resume to finish", file=sys.stderr)
    return 130


def _simulate(args) -> int | None:
    from pathlib import Path

    from ..analysis.stats import win_table, win_table_from_sums
    from ..sim import get_game, run, simulate
    from ..sim.provenance import provenance
    from ..sim.runner import prepare
    from ..sim.store import claim_file, save_table

    check_backend_sizes(args)
    knobs = read_knobs(args)
    policies = policy_list(args.policies)
    common = dict(players=args.players, policies=policies, games=args.games, seed=args.seed,
                  rotate_seats=not args.no_rotate, threads=args.threads,
                  chunk_size=args.chunk_size, progress=not args.quiet, workers=args.workers,
                  scheduler=args.scheduler, **knobs)
    title = (f"{args.game}: {args.games} games, seed {args.seed}, "
             f"{'fixed seats' if args.no_rotate else 'seats rotated'}; "
             "win rate with Wilson 95% CI (shared wins count 1/k)")
    note = get_game(args.game).player_notes.get(args.players)
    if note:
        title += f"; {args.players} players: {note}"
    extra = {"games": args.games, "seed": args.seed}
    out = Path(args.out) if args.out else None
    if out is not None and out.suffix != ".parquet":  # a folder: chunked, resumable dataset
        if args.force:
            raise InputError("--force replaces a .parquet --out file; a dataset folder is "
                             "finished with --resume, or give a new folder")
        out_folder(out)
        try:
            res = run(args.game, out, resume=args.resume, **common)
        except KeyboardInterrupt:
            return _interrupted(out)
        _summary(title, win_table_from_sums(res.by_policy), win_table_from_sums(res.by_seat),
                 args.format, extra)
        if args.format == "table":
            print(f"dataset in {out} ({res.chunks_done} chunks, {res.computed} computed now); "
                  "load it with snapsim.load()")
        return None
    if args.resume:
        raise InputError("--resume needs --out DIR (a dataset folder)")
    if out is not None:  # refused before the games are played, and again when written
        out_file(out)
        spec, config, pols = prepare(args.game, args.players, policies, **knobs)
        claim_file(out, provenance(spec.name, config, pols, args.seed, args.games,
                                   rotate_seats=not args.no_rotate), args.force)
    df = simulate(args.game, **common)
    if out is not None:
        save_table(df, out, force=args.force)
    _summary(title, win_table(df, "policy"), win_table(df, "seat"), args.format, extra)
    if out is not None and args.format == "table":
        print(f"rows written to {out}")
    return None


def _sweep(args) -> int | None:
    import pandas as pd

    from ..analysis.stats import win_table_from_sums
    from ..sim import read_sweep, run_sweep

    check_backend_sizes(args)
    sweep = read_sweep(args.file)
    folder = args.out or sweep.out
    if folder:
        out_folder(folder, "--out" if args.out else f"{args.file}: out")
    try:
        results = run_sweep(sweep, out=args.out, resume=args.resume, progress=not args.quiet,
                            threads=args.threads, workers=args.workers,
                            scheduler=args.scheduler)
    except KeyboardInterrupt:
        return _interrupted(folder)
    rows = []
    for labels, res in results:
        table = win_table_from_sums(res.by_policy)
        for rec in table.to_dict("records"):
            rows.append({**labels, **rec})
    df = pd.DataFrame(rows)
    emit(df, args.format, f"sweep {args.file}: {len(results)} points x {sweep.games} games, "
                           f"seed {sweep.seed} (common random numbers across points)")
    if args.format == "table":
        print(f"dataset in {folder}; load it with snapsim.load({str(folder)!r})")
    return None


def _backend_options(p) -> None:
    p.add_argument("--threads", type=int, help="numba threads in this process (default: all)")
    p.add_argument("--workers", type=int, help="run chunks in N local worker processes")
    p.add_argument("--scheduler", help="Dask: tcp://HOST:PORT of a running scheduler, or "
                                       "local:N to start N local worker processes")
    p.add_argument("--resume", action="store_true",
                   help="finish an interrupted run in --out, computing only missing chunks")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table",
                   help="output format")


def add(sub) -> None:
    p = sub.add_parser("simulate", help="play many seeded games and summarise win rates")
    p.add_argument("game", help=game_help())
    p.add_argument("--players", type=int,
                   help="number of players (default: the game's usual count)")
    p.add_argument("--policies", help="comma-separated line-up, one per seat (or one for all); "
                                      "parameters as name:key=value:key=value; a Python agent "
                                      "as module:object (plays in this process)")
    p.add_argument("--games", type=int, default=10_000, help="games to play")
    p.add_argument("--seed", type=int, default=0, help="root seed: same seed, same games")
    p.add_argument("--no-rotate", action="store_true", help="keep each policy on its seat")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="rule knob, e.g. photo_target=8 (repeatable)")
    p.add_argument("--components", help=COMPONENTS_HELP)
    p.add_argument("--out", help="a .parquet file for every (game, seat) row, or a folder for "
                                 "a chunked, resumable Parquet dataset")
    p.add_argument("--chunk-size", type=int, default=5_000, help="games per chunk")
    p.add_argument("--force", action="store_true",
                   help="replace a --out .parquet file that holds another run's rows (never a "
                        "file snapsim did not write; default: refuse)")
    _backend_options(p)
    add_move_timeout(p)
    p.set_defaults(run=_simulate)

    p = sub.add_parser("sweep", help="run a grid of rule knobs / player counts / line-ups")
    p.add_argument("file", help="sweep TOML file (see snapsim.sim.sweep)")
    p.add_argument("--out", help="dataset folder (overrides `out` in the file)")
    _backend_options(p)
    add_move_timeout(p)
    p.set_defaults(run=_sweep)

