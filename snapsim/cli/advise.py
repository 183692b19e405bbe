"""`snapsim advise`: the moves of a saved game's current decision ranked by win chance
(--load, every game), and exact best moves for a situation of the game with an exact
advisor (prep, research, reroll: Snapshot's; `registry.advised_game`)."""

from __future__ import annotations

import json

from ..errors import InputError
from ..sim.checks import whole
from ..sim.files import parse_json, parse_toml, read_text
from .common import COMPONENTS_HELP, Parser, emit


def read_situation(path: str) -> dict:
    """A situation file: TOML (.toml) or JSON (.json)."""
    from pathlib import Path

    p = Path(path)
    try:
        text = read_text(p)
    except OSError as exc:
        raise InputError(f"{p.name}: cannot read {path!r} ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{p.name}: is not UTF-8 text; save the situation as UTF-8 TOML or "
                         "JSON") from None
    try:
        return parse_json(text) if p.suffix == ".json" else parse_toml(text)
    except ValueError as exc:  # bad JSON or TOML (a TOMLDecodeError is a ValueError)
        raise InputError(f"{p.name}: not valid {'JSON' if p.suffix == '.json' else 'TOML'} "
                         f"({exc})") from None


def _advise(args) -> None:
    from pathlib import Path

    import pandas as pd

    from ..sim.registry import advised_game

    A = advised_game().advisor
    if args.kind == "reroll":
        animals = [_animal(a) for a in args.animal]
        out = A.reroll_advice(args.stake, args.target, args.tokens, args.paid, args.reroll_cost,
                              args.token_value, animals)
        rows = out.pop("by_rerolls")
        if args.format == "csv":  # one table: the decision on every row
            rows = pd.DataFrame([out] * len(rows) or [out]).join(rows)
        emit(rows, args.format, "Re-roll after a failed explore? (values in prestige, relative "
                                 "to giving up now; exact over every payment from the supply "
                                 "and the animals' tokens; rows: P(explored) after each further "
                                 "re-roll)", _units(out, args.format, A.REROLL_UNITS))
        return
    whole(args.top, "--top", 1, A.MAX_TOP)
    data, name = read_situation(args.situation), Path(args.situation).name
    if args.kind == "research":
        out = A.research_advice(data, name, components=args.components)
        cards = out.pop("cards")
        emit(cards.head(args.top), args.format, "Draw one more card or stop? (exact one-step "
                                                 "lookahead over the unseen cards: best "
                                                 "preparation after each; values in prestige)",
              _units(out, args.format, A.RESEARCH_UNITS))
        return
    advice = A.advise(data, name, top=args.top, components=args.components)
    table = advice.table.drop(columns="plan")
    table.insert(0, "rank", range(1, len(table) + 1))
    title = (f"Best preparations ({advice.searched:,} allocations searched; value = "
             "expected_prestige (award and assignment gains included) - token_value x "
             "expected_tokens_lost; P(photograph) unconditional: explored and photographed)")
    if args.format == "json":
        emit(table.drop(columns=A.ODDS_TEXT), "json",
              extra=_units({"allocations_searched": advice.searched}, "json", A.PREP_UNITS))
    else:
        emit(table.drop(columns=A.ODDS_LISTS), args.format, title)


def _advise_saved(args) -> None:
    from ..play.advice import advise
    from ..play.wins import Budget

    if args.kind is not None:
        raise InputError(f"advise {args.kind} reads a situation file; --load, --seat, "
                         "--budget and --rollouts go with advise --load SAVE alone")
    if not args.load:
        raise InputError("advise needs a saved game (--load SAVE) or one of prep, research, "
                         "reroll; see snapsim advise --help")
    if args.seat is not None:
        whole(args.seat, "--seat", 1)
    whole(args.seed, "--seed", 0)
    budget = Budget.of(args.budget, args.rollouts)
    advice = advise(args.load, args.seat, budget, args.seed)
    if args.format == "json":
        print(json.dumps(advice.to_dict(), indent=2))
    elif args.format == "csv":
        emit(advice.moves, "csv")
    else:
        print(advice.summary())


def _units(summary: dict, fmt: str, units: dict) -> dict:
    """JSON names each field's unit; the table's title already does."""
    return {**summary, "units": units} if fmt == "json" else summary


def _animal(text: str) -> tuple:
    """--animal DICE,DIFFICULTY,VALUE,TOKENS (tokens on the card)."""
    parts = text.split(",")
    try:
        if len(parts) != 4:
            raise ValueError
        return int(parts[0]), int(parts[1]), float(parts[2]), int(parts[3])
    except ValueError:
        raise InputError(f"--animal wants DICE,DIFFICULTY,VALUE,TOKENS, got {text!r}") from None


def add(sub) -> None:
    from ..sim.registry import advised_games

    p = sub.add_parser("advise", help="rank the moves of a saved game's decision by win "
                                      "chance (--load), or exact best moves for a situation "
                                      f"of {' or '.join(advised_games())} (prep, research, "
                                      "reroll)")
    fmt = dict(choices=["table", "csv", "json"], default="table", help="output format")
    p.add_argument("--load", metavar="SAVE",
                   help="a game saved by snapsim play (its save command, quit or Ctrl-C): "
                        "advise its current decision (default: none)")
    p.add_argument("--seat", type=int, help="the seat to advise, 1 = P1 (default: the seat "
                                            "to move, the only one with moves to rank)")
    p.add_argument("--budget", type=float, default=2.0, metavar="SECONDS",
                   help="time on one core for the win chances (default: 2)")
    p.add_argument("--rollouts", type=int, metavar="N",
                   help="exactly N rollouts per move instead: the same numbers on any "
                        "machine (default: none, the time budget decides)")
    p.add_argument("--seed", type=int, default=0, help="seed of the rollouts: same save, "
                                                       "seed and rollouts, same numbers")
    p.add_argument("--format", **fmt)
    p.set_defaults(run=_advise_saved)
    kinds = p.add_subparsers(dest="kind", parser_class=Parser)
    for kind, text in (("prep", "rank every dice and token allocation"),
                       ("research", "draw one more card or stop")):
        q = kinds.add_parser(kind, help=text)
        q.add_argument("situation", help="situation file (.toml or .json): table, tokens, "
                                         "reserved, sideways, portfolio, assignment, seen, "
                                         "discards (drawn from once the deck has run out), "
                                         "token_value")
        q.add_argument("--top", type=int, default=10, help="rows to show")
        q.add_argument("--components", help=COMPONENTS_HELP)
        q.add_argument("--format", **fmt)
        q.set_defaults(run=_advise)
    q = kinds.add_parser("reroll", help="re-roll a failed explore or give up")
    q.add_argument("--stake", type=float, default=0.0,
                   help="expected value of the habitat's photographs once explored (those "
                        "not given with --animal)")
    q.add_argument("--animal", action="append", default=[], metavar="D,DIFF,VALUE,TOKENS",
                   help="an animal with dice in the habitat: its dice, difficulty, value and "
                        "tokens on the card, which may pay for re-rolls (repeatable)")
    q.add_argument("--target", type=int, required=True, help="the habitat's explore value")
    q.add_argument("--tokens", type=int, required=True, help="tokens in your supply")
    q.add_argument("--paid", type=int, default=0, help="re-roll tokens already on the habitat")
    q.add_argument("--reroll-cost", type=int, default=2, help="tokens per re-roll")
    q.add_argument("--token-value", type=float, default=0.4,
                   help="prestige one token left in the supply is worth")
    q.add_argument("--format", **fmt)
    q.set_defaults(run=_advise)

