"""`snapsim odds`: exact odds tables (photo, explore, spook, tokens) of the game with an
exact advisor (Snapshot's; `registry.advised_game`)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from ..errors import InputError
from ..sim.checks import whole
from .common import COMPONENTS_HELP, Parser, emit, int_list

MAX_ROWS = 100_000  # rows of one odds table


def _table_size(**lists: list[int]) -> None:
    """Refuse an odds table with more than MAX_ROWS rows (every combination of the lists)."""
    rows = math.prod(len(v) for v in lists.values())
    if rows > MAX_ROWS:
        names = " x ".join(f"--{k.replace('_', '-')}" for k in lists)
        raise InputError(f"{names} make {rows:,} rows; at most {MAX_ROWS:,} fit in one table "
                         "(shorten the lists)")


def _one(values: list[int], name: str) -> int:
    if len(values) != 1:
        raise InputError(f"--{name} takes one number here, got {len(values)}")
    return values[0]


def parse_cards(text: str, components: Any) -> tuple[list[tuple[int, int]], bool]:
    """Parse a card list: items separated by ';', each `HABITAT:DIFFICULTIES`, an animal name,
    `raccoon` or `all`. Returns ((habitat, difficulty) pairs, raccoon included). `components`
    is the advised game's set, of that game's own type (a shared module names no game)."""
    pairs: set[tuple[int, int]] = set()
    raccoon = False
    for item in (s.strip() for s in str(text).split(";")):
        if not item:
            continue
        low = item.lower()
        if low == "all":
            pairs |= {(a.habitat, a.difficulty) for a in components.animals}
        elif low == components.raccoon.name.lower():
            raccoon = True
        elif ":" in item:
            hab, _, diffs = item.partition(":")
            h = components.habitat_index(hab.strip())
            for d in int_list(diffs):
                if not any(a.habitat == h and a.difficulty == d for a in components.animals):
                    raise InputError(f"card list: {components.habitats[h].name} has no card of "
                                     f"difficulty {d}")
                pairs.add((h, d))
        else:
            a = components.cards[components.card_index(item)]
            if a.habitat < 0:
                raccoon = True
            else:
                pairs.add((a.habitat, a.difficulty))
    return sorted(pairs), raccoon


def _odds_photo(args: argparse.Namespace) -> None:
    import pandas as pd

    from ..odds import photo_success

    dice, tokens, difficulty = int_list(args.dice), int_list(args.tokens), int_list(args.difficulty)
    _table_size(dice=dice, tokens=tokens, difficulty=difficulty)
    rows = [(d, t, k, photo_success(d, t, k)) for d in dice for t in tokens for k in difficulty]
    df = pd.DataFrame(rows, columns=["dice", "tokens", "difficulty", "p_success"])
    if args.format == "table" and len(df) > 1 and df.tokens.nunique() == 1:
        wide = df.pivot(index="difficulty", columns="dice", values="p_success")
        wide.columns = [f"{c} dice" for c in wide.columns]
        emit(wide.reset_index(), "table",
              f"P(photograph) = P(dice total + {df.tokens.iloc[0]} tokens >= difficulty)")
    else:
        emit(df, args.format, "P(photograph) = P(dice total + tokens >= difficulty)")


def _odds_explore(args: argparse.Namespace) -> None:
    import pandas as pd

    from ..odds import explore_odds

    dice, target, rerolls = int_list(args.dice), int_list(args.target), int_list(args.rerolls)
    _table_size(dice=dice, target=target, rerolls=rerolls)
    rows = []
    for d in dice:
        for t in target:
            for r in rerolls:
                o = explore_odds(d, t, r, args.reroll_cost)
                rows.append((d, t, r, o.success, o.expected_rerolls, o.expected_paid))
    df = pd.DataFrame(rows, columns=["dice", "target", "rerolls", "p_success",
                                     "expected_rerolls", "expected_tokens_paid"])
    emit(df, args.format, f"Explore: at least one die >= target; re-rolls cost "
                           f"{args.reroll_cost} tokens, refunded if the exploration fails")


def _odds_spook(args: argparse.Namespace) -> None:
    from ..odds import research_odds, spook_table, unseen_counts
    from ..odds.api import check_stop_rule
    from ..sim.registry import advised_game

    check_stop_rule(args.max_placed, args.max_risk)
    whole(args.reserve_slots, "--reserve-slots", 0, 7)
    comp = advised_game().load_components(args.components)
    tops = [0] * len(comp.habitats)
    for spec in args.top:
        hab, sep, val = spec.partition("=")
        if not sep:
            raise InputError(f"--top {spec!r}: write HABITAT=DIFFICULTY, e.g. --top mountain=7")
        tops[comp.habitat_index(hab.strip())] = _one(int_list(val), "top")
    if args.unseen is not None:
        cards, raccoon = parse_cards(args.unseen, comp)
        raccoon = raccoon or args.raccoon
    else:
        seen, raccoon_seen = parse_cards(args.seen or "", comp)
        seen_set = set(seen) | {(h, t) for h, t in enumerate(tops)}
        cards = [(a.habitat, a.difficulty) for a in comp.animals
                 if (a.habitat, a.difficulty) not in seen_set]
        raccoon = args.raccoon and not raccoon_seen
    counts = unseen_counts(cards, len(comp.habitats), max(a.difficulty for a in comp.cards))
    kw = dict(raccoon=raccoon, raccoon_difficulty=comp.raccoon.difficulty)
    df, extra = spook_table(tops, counts, reserve_slots=args.reserve_slots, **kw)
    if args.max_placed is not None or args.max_risk < 1.0:
        rule = research_odds(tops, counts, free_slots=args.reserve_slots,
                             max_placed=args.max_placed, max_risk=args.max_risk, **kw)
        extra["rule"] = (f"draw until {args.max_placed or 'any number'} placed or "
                         f"next-draw risk > {args.max_risk}")
        extra["rule_expected_tokens"] = rule.expected_tokens
        extra["rule_p_spook"] = rule.p_spook
    emit(df, args.format, "Research odds by card counting (drawing on until a spook)", extra)


def _odds_tokens(args: argparse.Namespace) -> None:
    from ..odds import token_table

    target, explore_dice = int_list(args.target), int_list(args.explore_dice)
    animal_dice, difficulty = int_list(args.animal_dice), int_list(args.difficulty)
    tokens = int_list(args.tokens)
    _table_size(target=target, explore_dice=explore_dice, animal_dice=animal_dice,
                difficulty=difficulty, tokens=tokens)
    df = token_table(target, explore_dice, animal_dice, difficulty, tokens, args.rerolls,
                     args.reroll_cost)
    emit(df, args.format, "Where does the next token buy the most P(photograph)? "
                           "(gain per token: on the card vs held for an explore re-roll)")


def _add_format(p: argparse.ArgumentParser) -> None:
    """Every odds table's --format."""
    p.add_argument("--format", choices=["table", "csv", "json"], default="table",
                   help="output format")


def add(sub: argparse._SubParsersAction[Parser]) -> None:
    from ..sim.registry import advised_games

    odds = sub.add_parser("odds", help=f"exact odds tables of {' and '.join(advised_games())}")
    kinds = odds.add_subparsers(dest="kind", required=True, parser_class=Parser)

    p = kinds.add_parser("photo", help="P(dice total + tokens >= difficulty)")
    p.add_argument("--dice", default="1-6", help="number list, e.g. 2 or 1-3")
    p.add_argument("--tokens", default="0", help="tokens on the card (number list)")
    p.add_argument("--difficulty", default="2-12", help="animal difficulty (number list)")
    _add_format(p)
    p.set_defaults(run=_odds_photo)

    p = kinds.add_parser("explore", help="explore success with bought re-rolls")
    p.add_argument("--dice", default="1-3", help="explore dice on the habitat (number list)")
    p.add_argument("--target", default="2-5", help="explore value(s) of the habitat")
    p.add_argument("--rerolls", default="0-2", help="re-roll budget(s)")
    p.add_argument("--reroll-cost", type=int, default=2, help="tokens per re-roll")
    _add_format(p)
    p.set_defaults(run=_odds_explore)

    p = kinds.add_parser("spook", help="research risk by card counting")
    p.add_argument("--top", action="append", default=[], metavar="HABITAT=D",
                   help="highest difficulty in a habitat (repeat; others are empty)")
    p.add_argument("--seen", help="cards out of the deck besides the tops, e.g. "
                                  "'shoreline:2,3;mountain:4-6;white rhino'")
    p.add_argument("--unseen", help="the exact unseen cards instead (same syntax)")
    p.add_argument("--raccoon", action="store_true", help="the raccoon is in the deck")
    p.add_argument("--reserve-slots", type=int, default=0,
                   help="also show the odds with this many free reserve slots")
    p.add_argument("--max-placed", type=int, help="stopping rule: stop after this many placed")
    p.add_argument("--max-risk", type=float, default=1.0,
                   help="stopping rule: stop when the next draw's spook risk exceeds this")
    p.add_argument("--components", help=COMPONENTS_HELP)
    _add_format(p)
    p.set_defaults(run=_odds_spook)

    p = kinds.add_parser("tokens", help="value of the next token: card vs explore re-roll")
    p.add_argument("--target", default="4", help="explore value of the habitat (number list)")
    p.add_argument("--explore-dice", default="1", help="dice on the habitat (number list)")
    p.add_argument("--animal-dice", default="1-3", help="dice on the animal (number list)")
    p.add_argument("--difficulty", default="2-10", help="animal difficulty (number list)")
    p.add_argument("--tokens", default="0", help="tokens already on the card")
    p.add_argument("--rerolls", type=int, default=0, help="re-rolls already affordable")
    p.add_argument("--reroll-cost", type=int, default=2, help="tokens per re-roll")
    _add_format(p)
    p.set_defaults(run=_odds_tokens)

