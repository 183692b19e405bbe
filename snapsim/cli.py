"""The `snapsim` command. Every user mistake ends as one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import pandas as pd

from .errors import InputError, SnapsimError
from .sim.checks import MAX_IN_MEMORY_GAMES, out_file, out_folder, whole
from .version import __version__


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Every flag's help ends with its default, unless the text already names it."""

    def _get_help_string(self, action):
        text = action.help or ""
        if ("default" in text.lower() or action.default in (None, argparse.SUPPRESS)
                or action.default is False or action.default == []):
            return text
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line (no usage dump) with exit code 2."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message):
        raise InputError(f"{message} (see `{self.prog} --help`)")

    def parse_known_args(self, args=None, namespace=None):
        """Parse, refusing a blank value given to any flag or argument (`--out ''`)."""
        ns, rest = super().parse_known_args(args, namespace)
        for action in self._actions:
            value = getattr(ns, action.dest, None)
            if value is action.default:
                continue
            if any(isinstance(v, str) and not v.strip()
                   for v in (value if isinstance(value, list) else [value])):
                name = action.option_strings[-1] if action.option_strings else action.dest
                self.error(f"{name} is empty: give a value or leave it out")
        return ns, rest


MAX_LIST = 1000  # numbers in one list (a table of more rows is never what was meant)
MAX_ROWS = 100_000  # rows of one odds table


def _policy_list(text: str | None) -> list[str] | None:
    """--policies as a list of specs (None when the flag is not given)."""
    if text is None:
        return None
    specs = [p for p in (s.strip() for s in text.split(",")) if p]
    if not specs:
        raise InputError("--policies is empty: give policy specs, e.g. greedy,random, or leave "
                         "--policies out")
    return specs


def int_list(text: str) -> list[int]:
    """Parse "2", "1-3" or "0,2,4-6" into a list of at most MAX_LIST integers."""
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            if sep and lo:
                a, b = int(lo), int(hi)
                if b < a:
                    raise ValueError
                out.extend(range(a, min(b, a + MAX_LIST) + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise InputError(f"{text!r} is not a number list; write e.g. 2 or 1-3 or 0,2,4-6") \
                from None
    if len(out) > MAX_LIST:
        raise InputError(f"{text!r} lists more than {MAX_LIST} numbers; at most {MAX_LIST} "
                         "fit in one list")
    return out


def _table_size(**lists: list) -> None:
    """Refuse an odds table with more than MAX_ROWS rows (every combination of the lists)."""
    rows = int(np.prod([len(v) for v in lists.values()], dtype=np.float64))
    if rows > MAX_ROWS:
        names = " x ".join(f"--{k.replace('_', '-')}" for k in lists)
        raise InputError(f"{names} make {rows:,} rows; at most {MAX_ROWS:,} fit in one table "
                         "(shorten the lists)")


def _one(values: list[int], name: str) -> int:
    if len(values) != 1:
        raise InputError(f"--{name} takes one number here, got {len(values)}")
    return values[0]


def parse_cards(text: str, components) -> tuple[list[tuple[int, int]], bool]:
    """Parse a card list: items separated by ';', each `HABITAT:DIFFICULTIES`, an animal name,
    `raccoon` or `all`. Returns ((habitat, difficulty) pairs, raccoon included)."""
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


def _emit(df: pd.DataFrame, fmt: str, title: str = "", extra: dict | None = None) -> None:
    if fmt == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif fmt == "json":
        payload = {"rows": json.loads(df.to_json(orient="records", double_precision=15))}
        if extra:
            payload = {**extra, **payload}
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        if title:
            print(title)
        for k, v in (extra or {}).items():
            print(f"  {k}: {v:.6g}" if isinstance(v, float) else f"  {k}: {v}")
        print(df.to_string(index=False, float_format=lambda x: f"{x:.4f}"))


# ---------------------------------------------------------------- odds


def _odds_photo(args) -> None:
    from .odds import photo_success

    dice, tokens, difficulty = int_list(args.dice), int_list(args.tokens), int_list(args.difficulty)
    _table_size(dice=dice, tokens=tokens, difficulty=difficulty)
    rows = [(d, t, k, photo_success(d, t, k)) for d in dice for t in tokens for k in difficulty]
    df = pd.DataFrame(rows, columns=["dice", "tokens", "difficulty", "p_success"])
    if args.format == "table" and len(df) > 1 and df.tokens.nunique() == 1:
        wide = df.pivot(index="difficulty", columns="dice", values="p_success")
        wide.columns = [f"{c} dice" for c in wide.columns]
        _emit(wide.reset_index(), "table",
              f"P(photograph) = P(dice total + {df.tokens.iloc[0]} tokens >= difficulty)")
    else:
        _emit(df, args.format, "P(photograph) = P(dice total + tokens >= difficulty)")


def _odds_explore(args) -> None:
    from .odds import explore_odds

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
    _emit(df, args.format, f"Explore: at least one die >= target; re-rolls cost "
                           f"{args.reroll_cost} tokens, refunded if the exploration fails")


def _odds_spook(args) -> None:
    from .games.snapshot.components import load_components
    from .odds import research_odds, unseen_counts
    from .odds.api import check_stop_rule

    check_stop_rule(args.max_placed, args.max_risk)
    whole(args.reserve_slots, "--reserve-slots", 0, 7)
    comp = load_components(args.components)
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
    plain = research_odds(tops, counts, **kw)
    columns = {"p_no_reserve": plain.spook_pmf}
    if args.reserve_slots > 0:
        slots = research_odds(tops, counts, free_slots=args.reserve_slots, **kw)
        columns[f"p_{args.reserve_slots}_reserve_slots"] = slots.spook_pmf
    n = max(len(v) for v in columns.values())
    df = pd.DataFrame({"draws_before_spook": np.arange(n),
                       **{k: np.pad(v, (0, n - len(v))) for k, v in columns.items()}})
    extra = {
        "unseen_cards": len(cards) + int(raccoon),
        "p_next_draw_spooks": plain.next_draw,
        "expected_tokens_drawing_to_spook": plain.expected_tokens,
        "p_deck_runs_out_first": float(plain.stopped.sum()),
    }
    if args.max_placed is not None or args.max_risk < 1.0:
        rule = research_odds(tops, counts, free_slots=args.reserve_slots,
                             max_placed=args.max_placed, max_risk=args.max_risk, **kw)
        extra["rule"] = (f"draw until {args.max_placed or 'any number'} placed or "
                         f"next-draw risk > {args.max_risk}")
        extra["rule_expected_tokens"] = rule.expected_tokens
        extra["rule_p_spook"] = rule.p_spook
    _emit(df, args.format, "Research odds by card counting (drawing on until a spook)", extra)


def _odds_tokens(args) -> None:
    from .odds import token_table

    lists = dict(target=int_list(args.target), explore_dice=int_list(args.explore_dice),
                 animal_dice=int_list(args.animal_dice), difficulty=int_list(args.difficulty),
                 tokens=int_list(args.tokens))
    _table_size(**lists)
    df = token_table(*lists.values(), args.rerolls, args.reroll_cost)
    _emit(df, args.format, "Where does the next token buy the most P(photograph)? "
                           "(gain per token: on the card vs held for an explore re-roll)")


def _add_odds(sub) -> None:
    odds = sub.add_parser("odds", help="exact Snapshot odds tables")
    kinds = odds.add_subparsers(dest="kind", required=True, parser_class=_Parser)
    fmt = dict(choices=["table", "csv", "json"], default="table", help="output format")

    p = kinds.add_parser("photo", help="P(dice total + tokens >= difficulty)")
    p.add_argument("--dice", default="1-6", help="number list, e.g. 2 or 1-3")
    p.add_argument("--tokens", default="0", help="tokens on the card (number list)")
    p.add_argument("--difficulty", default="2-12", help="animal difficulty (number list)")
    p.add_argument("--format", **fmt)
    p.set_defaults(run=_odds_photo)

    p = kinds.add_parser("explore", help="explore success with bought re-rolls")
    p.add_argument("--dice", default="1-3", help="explore dice on the habitat (number list)")
    p.add_argument("--target", default="2-5", help="explore value(s) of the habitat")
    p.add_argument("--rerolls", default="0-2", help="re-roll budget(s)")
    p.add_argument("--reroll-cost", type=int, default=2, help="tokens per re-roll")
    p.add_argument("--format", **fmt)
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
    p.add_argument("--components", help="component TOML file (default: bundled)")
    p.add_argument("--format", **fmt)
    p.set_defaults(run=_odds_spook)

    p = kinds.add_parser("tokens", help="value of the next token: card vs explore re-roll")
    p.add_argument("--target", default="4", help="explore value of the habitat (number list)")
    p.add_argument("--explore-dice", default="1", help="dice on the habitat (number list)")
    p.add_argument("--animal-dice", default="1-3", help="dice on the animal (number list)")
    p.add_argument("--difficulty", default="2-10", help="animal difficulty (number list)")
    p.add_argument("--tokens", default="0", help="tokens already on the card")
    p.add_argument("--rerolls", type=int, default=0, help="re-rolls already affordable")
    p.add_argument("--reroll-cost", type=int, default=2, help="tokens per re-roll")
    p.add_argument("--format", **fmt)
    p.set_defaults(run=_odds_tokens)


# ---------------------------------------------------------------- simulate


def parse_knob(text: str) -> tuple[str, object]:
    """`--set name=value`: value read as bool, int, float or a comma list of ints."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key or not raw:
        raise InputError(f"--set {text!r}: write NAME=VALUE, e.g. --set photo_target=8")
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return key, True
    if low in ("false", "no", "off"):
        return key, False
    if "," in raw:
        return key, tuple(int_list(raw))
    for cast in (int, float):
        try:
            return key, cast(raw)
        except ValueError:
            pass
    raise InputError(f"--set {text!r}: {raw!r} is not a number, true/false or number list")


def _knobs(args) -> dict:
    from .sim import get_game

    knobs = dict(parse_knob(t) for t in args.set)
    if "players" in knobs:
        raise InputError("--set players=...: the player count is --players, not a rule knob")
    if getattr(args, "components", None):
        knobs["components"] = get_game(args.game).load_components(args.components)
    return knobs


def _summary(title: str, by_policy: pd.DataFrame, by_seat: pd.DataFrame, fmt: str,
             extra: dict) -> None:
    if fmt == "json":
        print(json.dumps({**extra, "policies": json.loads(by_policy.to_json(orient="records")),
                          "seats": json.loads(by_seat.to_json(orient="records"))}, indent=2))
    elif fmt == "csv":
        sys.stdout.write(pd.concat([by_policy.assign(table="policy"),
                                    by_seat.assign(table="seat")]).to_csv(index=False))
    else:
        print(title)
        _emit(by_policy, "table", "by policy:")
        _emit(by_seat, "table", "by seat:")


def _interrupted(folder) -> int:
    print(f"snapsim: interrupted; every finished chunk is kept in {folder}: run the same "
          "command with --resume to finish", file=sys.stderr)
    return 130


def _simulate(args) -> int | None:
    from pathlib import Path

    from .analysis.stats import win_table, win_table_from_sums
    from .sim import run, simulate

    _check_backend_sizes(args)
    knobs = _knobs(args)
    policies = _policy_list(args.policies)
    common = dict(players=args.players, policies=policies, games=args.games, seed=args.seed,
                  rotate_seats=not args.no_rotate, threads=args.threads,
                  chunk_size=args.chunk_size, progress=not args.quiet, workers=args.workers,
                  scheduler=args.scheduler, **knobs)
    title = (f"{args.game}: {args.games} games, seed {args.seed}, "
             f"{'fixed seats' if args.no_rotate else 'seats rotated'}; "
             "win rate with Wilson 95% CI (shared wins count 1/k)")
    if args.game == "snapshot" and args.players == 5:
        from .games.snapshot.config import FIVE_PLAYER_NOTE

        title += f"; 5 players: {FIVE_PLAYER_NOTE} (the rulebook adds the Flora Expansion)"
    extra = {"games": args.games, "seed": args.seed}
    out = Path(args.out) if args.out else None
    if out is not None and out.suffix != ".parquet":  # a folder: chunked, resumable dataset
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
    if out is not None:
        out_file(out)
    df = simulate(args.game, **common)
    if out is not None:
        df.to_parquet(out, index=False)
    _summary(title, win_table(df, "policy"), win_table(df, "seat"), args.format, extra)
    if out is not None and args.format == "table":
        print(f"rows written to {out}")
    return None


def _sweep(args) -> int | None:
    from .analysis.stats import win_table_from_sums
    from .sim import read_sweep, run_sweep

    _check_backend_sizes(args)
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
    _emit(df, args.format, f"sweep {args.file}: {len(results)} points x {sweep.games} games, "
                           f"seed {sweep.seed} (common random numbers across points)")
    if args.format == "table":
        print(f"dataset in {folder}; load it with snapsim.load({str(folder)!r})")
    return None


MAX_WORKERS = 1024  # threads or processes of one run


def _check_backend_sizes(args) -> None:
    """Threads and worker processes: at least one, and not more than any machine runs."""
    for name in ("threads", "workers"):
        if getattr(args, name, None) is not None:
            whole(getattr(args, name), f"--{name}", 1, MAX_WORKERS)


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


def _add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play many seeded games and summarise win rates")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
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
    p.add_argument("--components", help="component TOML file (default: bundled)")
    p.add_argument("--out", help="a .parquet file for every (game, seat) row, or a folder for "
                                 "a chunked, resumable Parquet dataset")
    p.add_argument("--chunk-size", type=int, default=5_000, help="games per chunk")
    _backend_options(p)
    p.set_defaults(run=_simulate)

    p = sub.add_parser("sweep", help="run a grid of rule knobs / player counts / line-ups")
    p.add_argument("file", help="sweep TOML file (see snapsim.sim.sweep)")
    p.add_argument("--out", help="dataset folder (overrides `out` in the file)")
    _backend_options(p)
    p.set_defaults(run=_sweep)


# ---------------------------------------------------------------- advise


def read_situation(path: str) -> dict:
    """A situation file: TOML (.toml) or JSON (.json)."""
    import tomllib
    from pathlib import Path

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{p.name}: cannot read {path!r} ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{p.name}: is not UTF-8 text; save the situation as UTF-8 TOML or "
                         "JSON") from None
    try:
        return json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{p.name}: not valid {'JSON' if p.suffix == '.json' else 'TOML'} "
                         f"({exc})") from None


def _advise(args) -> None:
    from pathlib import Path

    from .games.snapshot import advisor as A

    if args.kind == "reroll":
        animals = [_animal(a) for a in args.animal]
        out = A.reroll_advice(args.stake, args.target, args.tokens, args.paid, args.reroll_cost,
                              args.token_value, animals)
        rows = out.pop("by_rerolls")
        if args.format == "csv":  # one table: the decision on every row
            rows = pd.DataFrame([out] * len(rows) or [out]).join(rows)
        _emit(rows, args.format, "Re-roll after a failed explore? (values in prestige, relative "
                                 "to giving up now; exact over every payment from the supply "
                                 "and the animals' tokens; rows: P(explored) after each further "
                                 "re-roll)", _units(out, args.format, A.REROLL_UNITS))
        return
    whole(args.top, "--top", 1, A.MAX_TOP)
    data, name = read_situation(args.situation), Path(args.situation).name
    if args.kind == "research":
        out = A.research_advice(data, name, components=args.components)
        cards = out.pop("cards")
        _emit(cards.head(args.top), args.format, "Draw one more card or stop? (exact one-step "
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
        _emit(table.drop(columns=A.ODDS_TEXT), "json",
              extra=_units({"allocations_searched": advice.searched}, "json", A.PREP_UNITS))
    else:
        _emit(table.drop(columns=A.ODDS_LISTS), args.format, title)


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


def _add_advise(sub) -> None:
    p = sub.add_parser("advise", help="exact best moves for a Snapshot situation")
    kinds = p.add_subparsers(dest="kind", required=True, parser_class=_Parser)
    fmt = dict(choices=["table", "csv", "json"], default="table", help="output format")
    for kind, text in (("prep", "rank every dice and token allocation"),
                       ("research", "draw one more card or stop")):
        q = kinds.add_parser(kind, help=text)
        q.add_argument("situation", help="situation file (.toml or .json): table, tokens, "
                                         "reserved, sideways, portfolio, assignment, seen, "
                                         "token_value")
        q.add_argument("--top", type=int, default=10, help="rows to show")
        q.add_argument("--components", help="component TOML file (default: bundled)")
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


# ---------------------------------------------------------------- tune


def _tune(args) -> None:
    from importlib import import_module
    from pathlib import Path

    from .games.tuning import SEARCHED, save_tuned, tune
    from .sim import get_game

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
    _check_backend_sizes(args)
    knobs = _knobs(args)
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir() and not args.force:
        raise InputError(f"{args.out} already exists; give another --out or add --force to "
                         "replace it")
    if args.out and Path(args.out).is_dir():  # checked before the long search
        out_folder(args.out)
    elif args.out:
        out_file(args.out)
    res = tune(game, args.players, args.policy, args.field, args.games, args.seed,
               args.iterations, args.popsize, args.verify_games, args.threads, **knobs)
    players_label = getattr(import_module(f"snapsim.games.{game}.config"), "players_label",
                            lambda n: f"{n} players")
    table = pd.DataFrame({"parameter": list(res.params), "tuned": list(res.params.values())})
    verdict = "significant" if res.significant else "NOT significant: not saved"
    _emit(table, "table", f"Tuned {res.base} for {players_label(res.players)} against {res.field} "
                          f"({res.evaluations} candidates, {args.games} games each)",
          {"verify_games": res.verify_games, "win_rate": res.win_rate, "ci_low": res.ci_low,
           "ci_high": res.ci_high, "fair_share": 1 / res.players, "p_value": res.p_value,
           "verdict": verdict})
    if res.significant:
        path = save_tuned(res, args.out, force=args.force)
        print(f"saved as {path} (use it as --policies {path})")


def _add_tune(sub) -> None:
    p = sub.add_parser("tune", help="optimise a policy's parameters for win rate")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
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
    p.add_argument("--components", help="component TOML file (default: bundled)")
    p.add_argument("--out", help="tuned TOML file or folder (default: tuned-<N>p.toml in the "
                                 "current folder)")
    p.add_argument("--force", action="store_true",
                   help="replace --out if it exists (default: refuse)")
    p.set_defaults(run=_tune)


# ---------------------------------------------------------------- ladder


def _ladder(args) -> None:
    from .analysis.ladder import REPS, ladder
    from .report.ladder import write_ladder
    from .sim.store import check_out_free

    whole(args.games, "--games", 1, MAX_IN_MEMORY_GAMES)
    whole(args.seed, "--seed", 0)
    whole(args.reps, "--reps", 10, 100 * REPS)
    if args.search_games is not None:
        whole(args.search_games, "--search-games", 1, MAX_IN_MEMORY_GAMES)
    if args.players is not None:
        whole(args.players, "--players", 2, 100)
    _check_backend_sizes(args)
    knobs = _knobs(args)
    policies = _policy_list(args.policies)
    if args.out:
        out_folder(args.out)
        if not args.force:
            check_out_free(args.out)
    result = ladder(args.game, args.players, policies, args.games, args.seed, args.threads,
                    reps=args.reps, progress=not args.quiet, search_games=args.search_games,
                    **knobs)
    print(result.summary())
    if args.out:
        print(f"ladder written to {write_ladder(result, args.out, force=args.force)} (ratings.csv, "
              "pairwise.csv, ladder.png and provenance.json beside it)")


def _add_ladder(sub) -> None:
    p = sub.add_parser("ladder", help="rate the built-in policies against each other, seats "
                                      "rotated, with confidence intervals")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
    p.add_argument("--players", type=int, help="players per table (default: the game's usual "
                                               "count)")
    p.add_argument("--policies", help="comma-separated field, at least two (default: every "
                                      "built-in policy and the bundled tuned-<N>p if any)")
    p.add_argument("--games", type=int, default=240,
                   help="games per table, rounded up to a multiple of its seat assignments")
    p.add_argument("--search-games", type=int,
                   help="games per table at tables seating a search policy (search, rollout), "
                        "tens of times dearer a game (default: --games)")
    p.add_argument("--seed", type=int, default=0, help="root seed: same seed, same ladder")
    p.add_argument("--reps", type=int, default=500,
                   help="bootstrap resamples for the rating intervals")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="rule knob, e.g. photo_target=8 (repeatable; default: none)")
    p.add_argument("--components", help="component TOML file (default: bundled)")
    p.add_argument("--out", help="folder for ratings.csv, pairwise.csv, ladder.png, ladder.md "
                                 "and provenance.json (default: print the ratings only)")
    p.add_argument("--force", action="store_true",
                   help="write into --out even if it holds another run (default: refuse)")
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: shown)")
    p.set_defaults(run=_ladder)


# ---------------------------------------------------------------- report

QUICK_GAMES = 300


def _in_committed_reports(out) -> bool:
    """Whether `out` lies in the reports/ folder of a git checkout (the published reports)."""
    from pathlib import Path

    path = Path(out).resolve()
    return any(p.name == "reports" and (p.parent / ".git").exists()
               for p in (path, *path.parents))


def _report(args) -> None:
    from .report.studies import claim_report_folder
    from .sim import get_game

    if args.game.strip().lower() == "sweep":
        return _report_sweep(args)
    if args.folder is not None or args.objective is not None:
        raise InputError("a folder and --objective belong to `snapsim report sweep DIR`")
    _check_backend_sizes(args)
    whole(args.seed, "--seed", 0)
    spec = get_game(args.game)
    if spec.report is None:
        raise InputError(f"no report for game {args.game!r} yet")
    games = QUICK_GAMES if args.quick else whole(args.games, "--games", 1, MAX_IN_MEMORY_GAMES)
    studies = [s.strip() for s in args.studies.split(",")] if args.studies else None
    comps = spec.load_components(args.components) if args.components else None
    out = args.out or (f"{spec.name}-quick-report" if args.quick else f"reports/{spec.name}")
    out_folder(out)
    if args.quick and args.out and _in_committed_reports(out) and not args.force:
        raise InputError(f"--quick does not write into {out}: its reports are full runs; give "
                         "another --out or add --force")
    if args.force:  # clear another run's report there; unforced, the report refuses it
        claim_report_folder(out, spec.name, args.seed, games, comps, force=True)
    strong = None if args.strong.strip().lower() == "none" else args.strong
    for flag, value in (("--strong-games", args.strong_games),
                        ("--ladder-games", args.ladder_games)):
        if value is not None:
            whole(value, flag, 10, MAX_IN_MEMORY_GAMES)
    path = spec.report(out, games=games, seed=args.seed, studies=studies, threads=args.threads,
                       components=comps, progress=not args.quiet, strong=strong,
                       strong_games=args.strong_games, ladder_games=args.ladder_games)
    print(f"report written to {path} (and report.md, figures, CSV tables beside it)")


def _report_sweep(args) -> None:
    from .report.sweep import OBJECTIVE, sweep_report

    if args.folder is None:
        raise InputError("give the sweep's folder: snapsim report sweep DIR")
    given = [o for o, v in (("--studies", args.studies), ("--components", args.components),
                            ("--quick", args.quick), ("--strong-games", args.strong_games),
                            ("--ladder-games", args.ladder_games)) if v]
    if given:
        raise InputError(f"{given[0]} does not apply to a sweep report (its games are played)")
    path = sweep_report(args.folder, out=args.out, objective=args.objective or OBJECTIVE,
                        force=args.force, progress=not args.quiet)
    print(f"sweep report written to {path} (and report.md, figures, CSV tables beside it)")


def _add_report(sub) -> None:
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
    p.set_defaults(run=_report)


# ---------------------------------------------------------------- components


def _components(args) -> None:
    from .sim import component_files as C

    if args.kind == "export":
        if args.out is None:
            sys.stdout.buffer.write(C.export(args.game))
            sys.stdout.flush()
            return
        path = C.export(args.game, args.out, force=args.force)
        print(f"wrote the standard {args.game} components to {path}; edit it, then "
              f"`snapsim components check {path}` and `snapsim compare {args.game} "
              f"--variant {path}`")
        return
    print(C.check(args.file, args.game).summary())


def _add_components(sub) -> None:
    p = sub.add_parser("components", help="export the bundled component file, or check your "
                                          "own and list what it changes")
    kinds = p.add_subparsers(dest="kind", required=True, parser_class=_Parser)
    q = kinds.add_parser("export", help="write the bundled components as an editable TOML")
    q.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
    q.add_argument("--out", help="file to write (default: print to standard output)")
    q.add_argument("--force", action="store_true",
                   help="replace --out if it exists (default: refuse)")
    q.set_defaults(run=_components)
    q = kinds.add_parser("check", help="validate a component file and list its differences "
                                       "from the standard set")
    q.add_argument("file", help="component TOML file")
    q.add_argument("--game", help="game the file is for (default: guessed from its sections)")
    q.set_defaults(run=_components)


# ---------------------------------------------------------------- compare


def _compare(args) -> int | None:
    from .report.compare import compare
    from .sim.store import check_out_free

    games: int | str = args.games
    if str(games).strip().lower() == "auto":
        games = "auto"
    else:
        try:
            games = int(games)
        except ValueError:
            raise InputError(f"--games {args.games!r}: give a whole number or 'auto'") from None
        whole(games, "--games", 1, MAX_IN_MEMORY_GAMES)
    _check_backend_sizes(args)
    whole(args.seed, "--seed", 0)
    if args.detect is not None and not (args.detect > 0 and np.isfinite(args.detect)):
        raise InputError(f"--detect must be a positive number of points, got {args.detect}")
    players = [int(p) for text in args.players for p in int_list(text)] or None
    policies = _policy_list(args.policies)
    knobs = dict(parse_knob(t) for t in args.variant_set)
    if args.strong_games is not None:
        if args.strong is None:
            raise InputError("--strong-games belongs with --strong")
        whole(args.strong_games, "--strong-games", 10, MAX_IN_MEMORY_GAMES)
    if args.out:
        out_folder(args.out)
    if args.out and not args.force:
        check_out_free(args.out)
    result = compare(args.game, baseline=args.baseline, variants=args.variant, variant_set=knobs,
                     players=players, policies=policies, games=games, seed=args.seed,
                     detect=args.detect, threads=args.threads,
                     restricted=not args.no_restricted, progress=not args.quiet,
                     strong=args.strong, strong_games=args.strong_games)
    print(result.summary())
    if args.out:
        print(f"comparison written to {result.write(args.out, force=args.force)} (report.md, "
              "figures, CSV tables and provenance.json beside it)")
    return None


def _add_compare(sub) -> None:
    p = sub.add_parser("compare", help="a variant against the baseline, paired on common "
                                       "random numbers, with CIs and verdicts")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
    p.add_argument("--baseline", default="standard",
                   help="'standard' or a component TOML file (default: standard)")
    p.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="variant component file (repeatable; default: the baseline's "
                        "components with --variant-set)")
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
                        "built-in one) and label each change holds, changes, reverses or "
                        "inconclusive (default: off)")
    p.add_argument("--strong-games", type=int,
                   help="with --strong: paired games per side of the strong comparison "
                        "(default: --games; a slow search policy a share of them)")
    p.add_argument("--out", help="folder for index.html, report.md, CSVs and provenance.json "
                                 "(default: print the summary only)")
    p.add_argument("--force", action="store_true",
                   help="write into --out even if it holds another run (default: refuse)")
    p.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: shown)")
    p.set_defaults(run=_compare)


# ---------------------------------------------------------------- play


def _play(args) -> int:
    from .play import load, new_session, play

    if args.load:
        session = load(args.load, args.game)
    else:
        whole(args.seed, "--seed", 0)
        session = new_session(args.game, args.players, args.seat, args.opponents, args.seed,
                              args.hints)
    if args.hints:
        session.hints = True
    return play(session, save_to=args.save or args.load)


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a seat at the terminal against the built-in players")
    p.add_argument("game", help="game name: snapshot, yosemite or shutterbug")
    p.add_argument("--players", type=int, help="number of players (default: the game's usual "
                                               "count)")
    p.add_argument("--seat", type=int, default=1, help="your seat, 1 = P1")
    p.add_argument("--opponents", default="greedy",
                   help="the other seats: one policy spec for all or one per seat, "
                        "comma-separated (e.g. tuned-4p, search for Snapshot, module:object)")
    p.add_argument("--hints", action="store_true", help="show the numbers snapsim computes "
                                                        "for your seat at each decision")
    p.add_argument("--seed", type=int, default=0, help="root seed: same seed, same game")
    saving = p.add_mutually_exclusive_group()
    saving.add_argument("--save", help="save the game to this file on quit or Ctrl-C")
    saving.add_argument("--load", help="continue a saved game (its settings are used)")
    p.set_defaults(run=_play)


def version_text() -> str:
    """`snapsim 0.1.0`, and from a git checkout its commit: `snapsim 0.1.0 (git 1a2b3c4)`."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    if (root / ".git").exists():
        try:
            commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                                    capture_output=True, text=True, timeout=5).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
        if commit:
            return f"snapsim {__version__} (git {commit})"
    return f"snapsim {__version__}"


class _Version(argparse.Action):
    """--version, looking up the commit only when asked."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help="show the version (and git commit) and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="snapsim", description=__doc__)
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_odds(sub)
    _add_simulate(sub)
    _add_report(sub)
    _add_advise(sub)
    _add_tune(sub)
    _add_ladder(sub)
    _add_components(sub)
    _add_compare(sub)
    _add_play(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code = args.run(args)
        if code:
            return code
    except SnapsimError as exc:
        print(f"snapsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("snapsim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0
