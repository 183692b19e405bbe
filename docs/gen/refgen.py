"""Reference tables of the site, made from the code at build time (never copied by hand).

Each function returns Markdown: the CLI reference from `snapsim.cli.build_parser()`, a game's
rule knobs from its config dataclass, its components file format from the bundled TOML and
its comments, and its result columns from a two-game `snapsim.simulate`. Needs snapsim only,
not MkDocs, so tests/test_docs.py checks the same text the site shows.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import tomllib
from functools import cache

import meanings

GAMES = ("snapshot", "yosemite", "shutterbug")


class MissingMeaning(KeyError):
    """A name in the code has no meaning in meanings.py (or a meaning names nothing)."""

    def __str__(self) -> str:
        return self.args[0]


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell (no pipes, HTML or emphasis marks)."""
    out = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")
    return out.replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ")


def code(text: object) -> str:
    """Inline code in a table cell."""
    return f"`{str(text).replace('|', '&#124;')}`"


def check_covered(what: str, names: list[str], described: dict[str, str]) -> None:
    """Every name has a meaning and every meaning names something that exists."""
    missing = [n for n in names if n not in described]
    stale = [n for n in described if n not in names]
    if missing or stale:
        raise MissingMeaning(f"{what}: no meaning in docs/gen/meanings.py for {missing}; "
                             f"meanings for names the code does not have: {stale}")


# ---------------------------------------------------------------- CLI


def _subcommands(parser: argparse.ArgumentParser):
    """(name, help, subparser) for each subcommand, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name) or "", sub


def _default(action: argparse.Action) -> str:
    if action.required or isinstance(action, argparse._HelpAction | argparse._VersionAction):
        return ""
    if isinstance(action, argparse._StoreTrueAction):
        return "off"
    if action.default in (None, [], argparse.SUPPRESS):
        return ""
    return code(action.default)


def _sentence(text: str, more: str) -> str:
    """`text` followed by one more short clause."""
    return f"{text}; {more}" if text else more[0].upper() + more[1:]


def _argument_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        if action.option_strings:
            name = ", ".join(code(s) for s in action.option_strings)
            if action.nargs != 0:
                name += " " + code(action.metavar or action.dest.upper())
        else:
            name = code(action.metavar or action.dest)
        text = cell((action.help or "") % {"default": action.default, "prog": parser.prog})
        if action.choices is not None:
            text = _sentence(text, "one of " + ", ".join(code(c) for c in action.choices))
        if action.required:
            text = _sentence(text, "required")
        rows.append(f"| {name} | {text} | {_default(action)} |")
    return rows


def cli_reference(parser: argparse.ArgumentParser | None = None) -> str:
    """Every command and subcommand of `snapsim`: usage, what it does, every argument."""
    if parser is None:
        from snapsim.cli import build_parser

        parser = build_parser()
    out: list[str] = []

    def command(p: argparse.ArgumentParser, title: str, help_text: str, depth: int) -> None:
        out.append(f"{'#' * depth} `{title}`\n")
        if help_text:
            out.append(cell(help_text[0].upper() + help_text[1:]) + ".\n")
        out.append(f"```text\n{p.format_usage().strip()}\n```\n")
        out.append("| argument | meaning | default |\n| --- | --- | --- |")
        out.extend(_argument_rows(p))
        out.append("")
        for name, text, sub in _subcommands(p):
            command(sub, f"{title} {name}", text, min(depth + 1, 4))

    command(parser, parser.prog, "", 2)
    return "\n".join(out)


# ---------------------------------------------------------------- rule knobs


@cache
def config_class(game: str) -> type:
    """The game's config dataclass (the class of the config its registry entry makes)."""
    from snapsim.sim.registry import get_game

    return type(get_game(game).make_config())


def knob_names(game: str) -> list[str]:
    return [f.name for f in dataclasses.fields(config_class(game))]


def knob_table(game: str) -> str:
    """One row per config field: name, type, default and meaning."""
    described = meanings.KNOBS.get(game, {})
    check_covered(f"{game} rule knobs", knob_names(game), described)
    rows = ["| knob | type | default | meaning |", "| --- | --- | --- | --- |"]
    for f in dataclasses.fields(config_class(game)):
        if f.default is not dataclasses.MISSING:
            default = code(repr(f.default))
        else:
            default = "the bundled standard set"
        rows.append(f"| {code(f.name)} | {cell(str(f.type).replace('|', 'or'))} | {default} | "
                    f"{cell(described[f.name])} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- policies

_PARAM = re.compile(r'^\s*(?:Param\()?"(\w+)"')
_RANGE = re.compile(r"^-?[\d.]+\s*(?:-|\.\.|or)\s*-?[\d.]+:\s*")


def _param_comments(block: str) -> dict[str, str]:
    """Each parameter's comment: the one beside its name, else the lines just above it (the
    valid range it may start with is shown from the code instead)."""
    comments: dict[str, str] = {}
    above: list[str] = []
    for line in block.splitlines():
        if line.strip().startswith("#"):
            above.append(line.strip().lstrip("# "))
            continue
        m = _PARAM.match(line)
        if m:
            beside = line.split("#", 1)[1].strip() if "#" in line else ""
            comments[m[1]] = _RANGE.sub("", beside or " ".join(above))
        above = []
    return comments


def _range(param) -> str:
    if not hasattr(param, "lo"):
        return ""
    kind = "whole number " if param.whole else ""
    return f"{kind}{param.lo:g} to {param.hi:g}"


def policy_parameters(game: str):
    """(module, {parameter: comment}) of the game's policies module."""
    import importlib
    import inspect

    module = importlib.import_module(f"snapsim.games.{game}.policies")
    source = inspect.getsource(module)
    block = source[source.index("PARAM_NAMES = ("):]
    return module, _param_comments(block[:block.index("\n)")])


def policy_table(game: str) -> str:
    """Policy kinds and their default parameters, each parameter with its valid range and the
    comment beside its name in the game's policies module."""
    module, comments = policy_parameters(game)
    kinds = list(module.KIND_NAMES)
    rows = ["| parameter | range | meaning | " + " | ".join(code(k) for k in kinds) + " |",
            "| --- | --- | --- | " + " | ".join("---" for _ in kinds) + " |"]
    for i, param in enumerate(module.PARAM_NAMES):
        if not comments.get(str(param)):
            raise MissingMeaning(f"{game} policy parameter {str(param)!r} has no comment "
                                 f"beside it in snapsim/games/{game}/policies.py")
        values = " | ".join(f"{module.DEFAULT_PARAMS[k][i]:g}" for k in kinds)
        rows.append(f"| {code(str(param))} | {_range(param)} | {cell(comments[str(param)])} | "
                    f"{values} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- components files

_KEY = re.compile(r"^(?:\[\[(\w+)\]\]|\[(\w+)\]|(\w+)\s*=)")


def bundled_text(game: str) -> str:
    from snapsim.sim.provenance import bundled_path

    return bundled_path(game).read_text(encoding="utf-8")


def _comments(text: str) -> tuple[str, dict[str, str]]:
    """The file's opening comment and, per top-level key, the comment just above its first
    appearance (joined into one paragraph)."""
    lines = text.splitlines()
    header: list[str] = []
    i = 0
    while i < len(lines) and (lines[i].startswith("#") or not lines[i].strip()):
        header.append(lines[i])
        i += 1
    # the header ends at the last blank line before the first key
    while header and header[-1].strip():
        header.pop()
    above: dict[str, str] = {}
    block: list[str] = []
    in_table = False
    for line in lines[len(header):]:
        if line.startswith("#"):
            block.append(line.lstrip("# ").strip())
            continue
        m = _KEY.match(line)
        if m and (m[1] or m[2] or not in_table):
            key = m[1] or m[2] or m[3]
            text_above = " ".join(b for b in block if b and not b.startswith("---"))
            if text_above:
                above.setdefault(key, text_above)
            in_table = bool(m[1] or m[2])
        block = []
    head = [h.lstrip("#")[1:] if h.startswith("# ") else h.lstrip("#") for h in header]
    return "\n".join(head).strip("\n"), above


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "whole number"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        kinds = sorted({_kind(v) for v in value})
        return "list of " + (kinds[0] if len(kinds) == 1 else "mixed values")
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _example(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    text = text.replace("'", '"').replace("True", "true").replace("False", "false")
    return code(text if len(text) <= 60 else text[:57] + "...")


def components_format(game: str) -> str:
    """The bundled file's sections and the fields of their entries, with its comments."""
    text = bundled_text(game)
    data = tomllib.loads(text)
    header, above = _comments(text)
    out = [f"The bundled file, `snapsim/games/{game}/data/standard.toml`, opens with:\n",
           f"```text\n{header}\n```\n",
           "| section | holds | entries | notes in the bundled file |",
           "| --- | --- | --- | --- |"]
    tables: list[tuple[str, list[dict]]] = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            holds, entries = "list of tables", str(len(value))
            tables.append((key, value))
        elif isinstance(value, dict):
            holds, entries = "table", "1"
            tables.append((key, [value]))
        else:
            holds, entries = f"{_kind(value)}: {_example(value)}", ""
        out.append(f"| {code(key)} | {holds} | {entries} | {cell(above.get(key, ''))} |")
    out.append("")
    for key, entries in tables:
        out.append(f"### `{key}`\n")
        out.append("| field | value | in | example |\n| --- | --- | --- | --- |")
        fields: dict[str, object] = {}
        for entry in entries:
            for name, value in entry.items():
                fields.setdefault(name, value)
        for name, value in fields.items():
            present = sum(name in e for e in entries)
            where = "every entry" if present == len(entries) else \
                f"{present} of {len(entries)} entries"
            out.append(f"| {code(name)} | {_kind(value)} | {where} | {_example(value)} |")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------- result columns


@cache
def result_table(game: str):
    """A two-game run of the game's default line-up: the real table, not a copy of it."""
    import snapsim

    return snapsim.simulate(game, games=2, seed=1, threads=1)


def result_columns(game: str) -> list[str]:
    return list(result_table(game).columns)


def column_table(game: str) -> str:
    """One row per result column: name, type and meaning."""
    df = result_table(game)
    described = meanings.COLUMNS.get(game, {})
    check_covered(f"{game} result columns", list(df.columns), described)
    rows = ["| column | type | meaning |", "| --- | --- | --- |"]
    for name in df.columns:
        kind = "category" if str(df[name].dtype) == "category" else str(df[name].dtype)
        rows.append(f"| {code(name)} | {kind} | {cell(described[name])} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- rebalancing


def levers_table(game: str) -> str:
    """What `snapsim rebalance` may change in a game (each edit space with its default range)
    and which targets it measures, from the game's registration (analysis.measures.Levers)."""
    from snapsim.analysis.rebalance.targets import KINDS, available, length_unit
    from snapsim.sim.registry import get_game
    from snapsim.sim.variants import bundled_file, file_tables

    spec = get_game(game)
    levers = spec.measures.levers
    tables = file_tables(bundled_file(game))
    rows = ["| `--edit` | what changes | default range |", "| --- | --- | --- |"]
    if levers.seat_knob:
        also = "" if levers.seat_knob == "start_tokens" else f" (or `{levers.seat_knob}`)"
        rows.append(f"| `start_tokens`{also} | each seat's `{levers.seat_knob}`, one schedule "
                    f"per player count | ±{levers.seat_range} |")
    for field, size in levers.fields.items():
        section, name = field.split(".")
        what = (f"every entry's `{name}` (one entry: `{section}[NAME].{name}`)"
                if isinstance(tables[section], list) else f"the `[{section}]` table's `{name}`")
        rows.append(f"| `{field}` | {what}; each number of a list is one value | ±{size} |")
    for knob, default in levers.knobs.items():
        shown = (", ".join(str(v).lower() for v in default) if isinstance(default, tuple)
                 else f"±{default} around its value")
        rows.append(f"| `knob:{knob}` | the rule knob `{knob}` | {shown} |")
    for field, why in levers.refused.items():
        rows.append(f"| `{field}` | refused: {cell(why)} | - |")
    aliases = ", ".join(f"`{a}` for `{b}`" for a, b in levers.aliases.items() if a != b)
    counts = ", ".join(map(str, levers.player_counts))
    targets = ", ".join(f"`{t}`" for t in available(game))
    units = ", ".join(KINDS[t].unit or length_unit(game) for t in available(game))
    return ("\n".join(rows) + f"\n\nWords a designer may use instead: {aliases}. Targets it "
            f"measures: {targets} ({units}), at {counts} players by default.\n")


# ---------------------------------------------------------------- markers in pages

GENERATORS = {"cli": cli_reference, "knobs": knob_table, "policies": policy_table,
              "components": components_format, "columns": column_table,
              "levers": levers_table}
MARKER = re.compile(r"^<!-- snapsim:(\w+)(?: (\w+))? -->$", re.MULTILINE)


def expand(markdown: str) -> str:
    """Replace each `<!-- snapsim:KIND [GAME] -->` line of a page with its generated text."""

    def one(m: re.Match) -> str:
        kind, game = m[1], m[2]
        if kind not in GENERATORS:
            raise MissingMeaning(f"unknown generated section {m[0]!r}; kinds are "
                                 f"{', '.join(GENERATORS)}")
        return GENERATORS[kind]() if game is None else GENERATORS[kind](game)

    return MARKER.sub(one, markdown)
