"""`snapsim components`: export the bundled component file, or check your own."""

from __future__ import annotations

import argparse
import sys

from .common import Parser, game_help


def _components(args: argparse.Namespace) -> None:
    from ..sim import component_files as C

    if args.kind == "export":
        if args.out is None:
            sys.stdout.buffer.write(C.export(args.game, fmt=args.format))
            sys.stdout.flush()
            return
        path = C.export(args.game, args.out, force=args.force, fmt=args.format)
        print(f"wrote the standard {args.game} components to {path}; edit it, then "
              f"`snapsim components check {path}` and `snapsim compare {args.game} "
              f"--variant {path}`")
        return
    print(C.check(args.file, args.game).summary())


def add(sub: argparse._SubParsersAction[Parser]) -> None:
    p = sub.add_parser("components", help="export the bundled component file, or check your "
                                          "own and list what it changes")
    kinds = p.add_subparsers(dest="kind", required=True, parser_class=Parser)
    q = kinds.add_parser("export", help="write the bundled components as an editable TOML, "
                                        "CSV or XLSX file")
    q.add_argument("game", help=game_help())
    q.add_argument("--out", help="file to write (default: print to standard output)")
    q.add_argument("--format", choices=("toml", "csv", "xlsx"),
                   help="file format (default: from --out's suffix, .csv or .xlsx, else toml); "
                        "a spreadsheet has one sheet per list of entries and a sheet 'values'")
    q.add_argument("--force", action="store_true",
                   help="replace an unedited export at --out (never an edited or other file; "
                        "default: refuse)")
    q.set_defaults(run=_components)
    q = kinds.add_parser("check", help="validate a component file and list its differences "
                                       "from the standard set")
    q.add_argument("file", help="component file: .toml, .csv or .xlsx")
    q.add_argument("--game", help="game the file is for (default: guessed from its sections)")
    q.set_defaults(run=_components)

