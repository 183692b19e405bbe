"""Edit spaces: which printed values and rule knobs a rebalancing may change, and by how much.

A designer names them in a few words (``--edit``):

- ``start_tokens`` (the game's per-seat starting resource: Snapshot's tracking tokens,
  Yosemite's fish, ShutterBug's tips), one schedule per player count;
- a component field by pattern, ``SECTION.FIELD[:RANGE]``: every entry's field
  (``cards.prestige:±1``, ``assignments.chart:±2``), or one entry's
  (``cards[golden eagle].prestige:±2``); a list field (a chart) gives one value per step;
- a rule knob, ``knob:NAME[=RANGE]`` (``knob:photo_target=7-9``).

A range left out takes the game's documented default (`analysis.measures.Levers`). RANGE is
``±R`` (or ``+-R`` or ``R``), ``+R`` (raise only), ``-R`` (lower only), or for a knob ``A-B``
or a list ``A,B,C``. Each value of the space is one variable; a candidate sets some of them.
Every candidate is checked by the game's own component validator and config before it is
played; a variable none of whose changes gives a valid file is dropped, and a space left
with no variable is refused in one line saying why.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass

from ...errors import InputError, SnapsimError
from ...sim.registry import get_game
from ...sim.toml_loader import KNOBS
from ...sim.variants import Knobs, Variant, from_tables, parse_knobs

ENTRY_KEYS = ("name", "animal", "space")  # how an entry of a list names itself
SEAT_SPACE = "start_tokens"  # every game's word for its per-seat starting resource
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")  # places in turn order


@dataclass(frozen=True)
class Var:
    """One printed value or knob a candidate may change.

    `path` locates it in the variant's tables: ("animals", 17, "prestige"),
    ("assignments", 0, "chart", 3), or for a knob ("knobs", players or None, name[, seat]);
    `values` are the values it may take besides `base`."""

    key: str
    label: str
    path: tuple
    base: object
    values: tuple

    @property
    def knob(self) -> bool:
        return self.path[0] == KNOBS

    def change(self, value) -> str:
        """One edit in plain words: "ostrich: prestige 1 → 2"."""
        return f"{self.label} {_word(self.base)} → {_word(value)}"


def _word(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


Candidate = tuple  # ((var key, value), ...) sorted by key: a hashable set of changes


def candidate(changes: dict) -> Candidate:
    """The canonical form of a set of changes {var key: value}."""
    return tuple(sorted(changes.items()))


@dataclass
class EditSpace:
    """The variables of every --edit given, over a base variant and its player counts."""

    game: str
    base: Variant
    tables: dict
    players: tuple[int, ...]
    vars: dict  # key -> Var, in the order the specs named them
    specs: tuple[str, ...]

    def tables_of(self, cand: Candidate) -> dict:
        """The base tables with a candidate's changes written in (a new dict)."""
        tables = copy.deepcopy(self.tables)
        knobs = parse_knobs(self.game, tables.get(KNOBS), "base")
        common, per = dict(knobs.common), {n: dict(k) for n, k in knobs.by_players.items()}
        for key, value in cand:
            var = self.vars[key]
            if var.knob:
                _, n, name, *seat = var.path
                where = common if n is None else per.setdefault(n, {})
                if seat:
                    values = list(where.get(name, self._seat_base(n)))
                    values[seat[0]] = value
                    where[name] = tuple(values)
                else:
                    where[name] = value
            else:
                *parents, last = var.path
                node = tables
                for step in parents:
                    node = node[step]
                node[last] = value
        new = Knobs(common, per).to_toml()
        tables.pop(KNOBS, None)
        if new:
            tables[KNOBS] = new
        return tables

    def _seat_base(self, players: int) -> tuple:
        levers = get_game(self.game).measures.levers
        return tuple(levers.seat_values(self.base.config(players)))

    def variant(self, cand: Candidate, path="candidate.toml") -> Variant:
        """The candidate as a validated Variant, its configs checked at every player count
        (a ComponentError or InputError when the game refuses it)."""
        variant = from_tables(self.game, self.tables_of(cand), path)
        for n in self.players:
            variant.config(n)
        return variant

    def valid(self, cand: Candidate) -> str | None:
        """None when the game accepts the candidate, else the validator's one line."""
        try:
            self.variant(cand)
        except SnapsimError as exc:
            return str(exc)
        return None

    def cost(self, cand: Candidate, size: bool = False) -> float:
        """Printed values changed (or, with `size`, the total size of the changes; a knob
        switched on or off counts 1)."""
        if not size:
            return float(len(cand))
        total = 0.0
        for key, value in cand:
            base = self.vars[key].base
            total += 1.0 if isinstance(base, bool) else abs(float(value) - float(base))
        return total

    def changes(self, cand: Candidate) -> list[str]:
        """Each change of a candidate in plain words, in the order the spaces were given."""
        order = {key: i for i, key in enumerate(self.vars)}
        return [self.vars[key].change(value)
                for key, value in sorted(cand, key=lambda c: order[c[0]])]


# ---------------------------------------------------------------- parsing the specs

MAX_VALUES = 1000  # values of every edit together; each is checked by the game's validator
_RANGE = re.compile(r"^(?:(±|\+-|\+|-)?(\d+))$")


def _range(text: str, where: str) -> tuple[int, int]:
    """(lowest, highest) change from "±2", "+-2", "2", "+1" or "-3"."""
    m = _RANGE.match(text.strip())
    if not m:
        raise InputError(f"--edit {where}: range {text!r}: write ±N (or +-N, N), +N or -N, "
                         "e.g. cards.prestige:±1")
    sign, size = m.group(1) or "±", int(m.group(2))
    if size < 1 or size > 100:
        raise InputError(f"--edit {where}: range {text!r}: N must be 1-100")
    return {"±": (-size, size), "+-": (-size, size), "+": (0, size), "-": (-size, 0)}[sign]


def _knob_values(text: str, base, where: str) -> tuple:
    """A knob's values from "A-B", "A,B,C" or "true,false"."""
    parts = [p.strip() for p in text.split(",")] if "," in text else [text.strip()]
    if isinstance(base, bool):
        words = {"true": True, "false": False, "yes": True, "no": False, "on": True,
                 "off": False}
        if any(p.lower() not in words for p in parts):
            raise InputError(f"--edit {where}: {text!r}: this knob is true or false; write "
                             "true,false")
        return tuple(dict.fromkeys(words[p.lower()] for p in parts))
    if len(parts) == 1 and re.fullmatch(r"\d+-\d+", parts[0]):
        lo, hi = (int(x) for x in parts[0].split("-"))
        if hi < lo or hi - lo > 100:
            raise InputError(f"--edit {where}: {text!r}: write A-B with A <= B, at most 100 "
                             "apart")
        return tuple(range(lo, hi + 1))
    try:
        return tuple(dict.fromkeys(int(p) for p in parts))
    except ValueError:
        raise InputError(f"--edit {where}: {text!r}: write a range A-B or values A,B,C of "
                         "whole numbers") from None


def _entry_name(entry, i: int) -> str:
    if isinstance(entry, dict):
        for key in ENTRY_KEYS:
            if isinstance(entry.get(key), str):
                return entry[key]
    return f"#{i + 1}"


def _leaves(value, label: str, key: str, path: tuple):
    """(label, key, path, int) of every editable whole number inside a field's value: the
    value itself, each step of a list, the number of each [name, number] pair, each list of a
    table of lists."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield label, key, path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
                if isinstance(item[1], int) and not isinstance(item[1], bool):
                    yield f"{label} {item[0]}", f"{key}[{item[0]}]", (*path, i, 1), item[1]
            elif isinstance(item, int) and not isinstance(item, bool):
                yield f"{label} step {i}", f"{key}[{i}]", (*path, i), item
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from _leaves(item, f"{label} {name}", f"{key}[{name}]", (*path, name))


class _Parser:
    """Turns --edit specs into variables over one base variant."""

    def __init__(self, game: str, base: Variant, tables: dict, players: tuple[int, ...]):
        self.game, self.base, self.tables, self.players = game, base, tables, players
        self.spec = get_game(game)
        self.levers = self.spec.measures.levers
        self.title = type(self.spec.make_config()).GAME

    def parse(self, text: str) -> list[Var]:
        text = str(text).strip()
        if not text:
            raise InputError("--edit needs a space, e.g. start_tokens, cards.prestige:±1 or "
                             "knob:photo_target=7-9")
        if text.lower().startswith("knob:"):
            return self.knob(text[5:], text)
        head, _, rng = text.partition(":")
        name = head.strip()
        seat_names = {SEAT_SPACE, self.levers.seat_knob}
        if name in seat_names:
            return self.seats(rng, text)
        return self.field(name, rng, text)

    def seats(self, rng: str, text: str) -> list[Var]:
        knob = self.levers.seat_knob
        if knob is None:
            raise InputError(f"--edit {text}: {self.title} has no per-seat starting resource")
        lo, hi = _range(rng, text) if rng else (-self.levers.seat_range, self.levers.seat_range)
        out = []
        for n in self.players:
            values = tuple(self.levers.seat_values(self.base.config(n)))
            for seat, base in enumerate(values):
                allowed = tuple(base + d for d in range(lo, hi + 1) if d and base + d >= 0)
                who = (f"the {ORDINALS[seat]} player's" if self.levers.turn_order
                       else f"seat {seat + 1}'s")
                out.append(Var(f"{knob} ({n} players) seat {seat + 1}",
                               f"{n} players: {who} {knob}",
                               (KNOBS, n, knob, seat), base, allowed))
        return out

    def knob(self, body: str, text: str) -> list[Var]:
        name, _, rng = body.partition("=")
        name = name.strip()
        config = self.base.config(self.players[0])
        known = sorted(self.levers.knobs)
        if name not in known:
            every = {f for f in type(config).__dataclass_fields__} - {"components", "players"}
            hint = (f"{name} is not one rebalancing may change" if name in every
                    else f"unknown {self.title} rule knob {name!r}")
            raise InputError(f"--edit {text}: {hint}; knobs it may change: {', '.join(known)}")
        effective = self.levers.effective or getattr
        bases = {n: effective(self.base.config(n), name) for n in self.players}
        default = self.levers.knobs[name]
        out = []
        per_count = len(set(bases.values())) > 1
        for n in (self.players if per_count else (None,)):
            base = bases[n if n is not None else self.players[0]]
            if rng:
                values = _knob_values(rng, base, text)
            elif isinstance(default, tuple):
                values = default
            else:
                values = tuple(base + d for d in range(-default, default + 1) if base + d >= 0)
            where = f" ({n} players)" if n is not None else ""
            out.append(Var(f"knob {name}{where}", f"{name}{where}", (KNOBS, n, name), base,
                           tuple(v for v in values if v != base)))
        return out

    def field(self, name: str, rng: str, text: str) -> list[Var]:
        m = re.fullmatch(r"([A-Za-z_]+)(?:\[([^\]]+)\])?\.([A-Za-z_]+)", name)
        if not m:
            raise InputError(f"--edit {text}: write SECTION.FIELD[:RANGE] (e.g. "
                             "cards.prestige:±1), SECTION[NAME].FIELD, start_tokens or "
                             "knob:NAME=A-B")
        section, entry, fld = m.groups()
        aliases = self.levers.aliases
        section, fld = aliases.get(section, section), aliases.get(fld, fld)
        key = f"{section}.{fld}"
        if key in self.levers.refused:
            raise InputError(f"--edit {text}: no change of {key} gives a valid file: "
                             f"{self.levers.refused[key]}")
        if key not in self.levers.fields:
            raise InputError(f"--edit {text}: {key} is not a field rebalancing may change; "
                             f"{self.title} fields: {', '.join(sorted(self.levers.fields))}, "
                             f"and {SEAT_SPACE} or knob:NAME")
        lo, hi = _range(rng, text) if rng else (-self.levers.fields[key],
                                                 self.levers.fields[key])
        table = self.tables[section]
        if isinstance(table, dict):
            if entry is not None:
                raise InputError(f"--edit {text}: [{section}] is one table; write "
                                 f"{section}.{fld}")
            found: list[tuple[str, str, tuple, dict]] = [(section, section, (section,), table)]
        else:
            names = [_entry_name(e, i) for i, e in enumerate(table)]
            shown = [n if names.count(n) == 1 else f"{n} #{names[:i + 1].count(n)}"
                     for i, n in enumerate(names)]  # two tiles of one space stay apart
            found = [(shown[i], f"{section}[{shown[i]}]", (section, i), e)
                     for i, e in enumerate(table)]
            if entry is not None:
                wanted = entry.strip().casefold()
                found = [f for f in found if wanted in (f[0].casefold(),
                                                        f[0].split(" #")[0].casefold())]
                if not found:
                    names = [_entry_name(e, i) for i, e in enumerate(table)]
                    close = difflib.get_close_matches(entry, names, n=3)
                    hint = f"; did you mean {', '.join(close)}?" if close else ""
                    raise InputError(f"--edit {text}: no {section} entry named {entry!r}{hint}")
        out = []
        for label, where, path, item in found:
            if fld not in item:
                continue
            for leaf_label, key, leaf_path, base in _leaves(item[fld], f"{label}: {fld}",
                                                            f"{where}.{fld}", (*path, fld)):
                allowed = tuple(base + d for d in range(lo, hi + 1) if d)
                out.append(Var(key, leaf_label, leaf_path, base, allowed))
        if not out:
            raise InputError(f"--edit {text}: {key} holds no whole numbers to change")
        return out


def edit_space(game: str, base: Variant, tables: dict, specs, players) -> EditSpace:
    """The variables of every --edit spec over the base variant, each value checked by the
    game's validator (a change none of whose values is valid is dropped; a spec left with
    none is refused, saying why)."""
    if isinstance(specs, str):
        specs = [specs]
    specs = tuple(str(s) for s in specs)
    if not specs:
        raise InputError("give at least one --edit SPACE (e.g. start_tokens or "
                         "cards.prestige:±1)")
    players = tuple(players)
    parser = _Parser(game, base, tables, players)
    space = EditSpace(game, base, tables, players, {}, specs)
    parsed, seen = [], set()
    for text in specs:
        found = [v for v in parser.parse(text) if v.key not in seen]
        seen |= {v.key for v in found}
        parsed.append((text, found, sum(len(v.values) for v in found)))
    total = sum(n for _, _, n in parsed)
    if total > MAX_VALUES:  # each value is a variant checked by the validator: refused now
        text, found, n = max(parsed, key=lambda p: p[2])
        shown = text if len(text) <= 60 else text[:57] + "..."
        rest = f"; {total:,} in all" if total > n else ""
        raise InputError(f"--edit {shown} gives {n:,} values to try ({len(found)} field(s)"
                         f"{rest}), more than the {MAX_VALUES:,} one search weighs; narrow "
                         "its range or name one entry")
    for text, found, _ in parsed:
        kept, why = [], None
        for var in found:
            space.vars[var.key] = var
            values = []
            for value in var.values:
                problem = space.valid(((var.key, value),))
                if problem is None:
                    values.append(value)
                else:
                    why = why or problem
            del space.vars[var.key]
            if values:
                kept.append(Var(var.key, var.label, var.path, var.base, tuple(values)))
        if not kept and found:
            raise InputError(f"--edit {text}: every change it allows makes an invalid game "
                             f"({why}); widen or change the space")
        for var in kept:
            space.vars[var.key] = var
    return space
