"""The reference site stays true to the code: every result column and rule knob has a meaning,
every CLI flag is in the CLI reference with its help and default, every components section is
listed; and, where MkDocs is installed, the site builds with warnings as errors."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from snapsim.cli import build_parser
from snapsim.sim.provenance import bundled_path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "gen"))

import meanings  # noqa: E402
import refgen  # noqa: E402

GAMES = ("snapshot", "yosemite", "shutterbug")


@pytest.mark.parametrize("game", GAMES)
def test_every_result_column_has_a_description(game):
    columns = list(refgen.result_table(game).columns)
    described = meanings.COLUMNS[game]
    assert [c for c in columns if c not in described] == []
    assert [c for c in described if c not in columns] == []  # no meaning for a gone column
    rows = refgen.column_table(game).splitlines()[2:]
    assert [r.split("|")[1].strip() for r in rows] == [f"`{c}`" for c in columns]


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_knob_has_a_meaning_and_its_default(game):
    fields = dataclasses.fields(refgen.config_class(game))
    assert [f.name for f in fields] == list(meanings.KNOBS[game])
    table = refgen.knob_table(game)
    for f in fields:
        if f.default is not dataclasses.MISSING:
            assert f"| `{f.name}` | " in table and f"| `{f.default!r}` |" in table


def test_a_column_without_a_description_stops_the_build(monkeypatch):
    described = dict(meanings.COLUMNS["shutterbug"])
    del described["tips_paid"]
    monkeypatch.setitem(meanings.COLUMNS, "shutterbug", described)
    with pytest.raises(refgen.MissingMeaning, match="tips_paid"):
        refgen.expand("<!-- snapsim:columns shutterbug -->")


def _commands(parser: argparse.ArgumentParser, path: str):
    """(command path, parser) for the parser and every subcommand below it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, f"{path} {name}")


def _sections(reference: str) -> dict[str, str]:
    """The text under each command's heading, up to the next heading."""
    out, current = {}, None
    for line in reference.splitlines():
        if line.startswith("#"):
            current = line.lstrip("# ").strip("`")
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


def test_every_cli_flag_is_in_the_reference_with_its_help_and_default():
    parser = build_parser()
    sections = _sections(refgen.cli_reference(parser))
    commands = dict(_commands(parser, "snapsim"))
    assert sorted(sections) == sorted(commands)
    assert {"snapsim simulate", "snapsim compare", "snapsim components check"} <= set(commands)
    for path, command in commands.items():
        text = sections[path]
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            for flag in action.option_strings or [action.metavar or action.dest]:
                assert f"`{flag}`" in text, f"{path}: {flag} missing from the CLI reference"
            if action.help:
                assert refgen.cell(action.help.split("%")[0]) in text, (path, action.help)
            if action.default not in (None, [], False, argparse.SUPPRESS):
                assert f"`{action.default}`" in text, (path, action.dest, action.default)


def test_cli_reference_row_of_a_known_flag():
    sections = _sections(refgen.cli_reference())
    assert "| `--chunk-size` `CHUNK_SIZE` | games per chunk | `5000` |" in \
        sections["snapsim simulate"]
    assert "| `--raccoon` | the raccoon is in the deck | off |" in sections["snapsim odds spook"]


@pytest.mark.parametrize("game", GAMES)
def test_components_format_lists_every_section_and_field(game):
    data = tomllib.loads(bundled_path(game).read_text(encoding="utf-8"))
    page = refgen.components_format(game)
    for key, value in data.items():
        assert f"| `{key}` |" in page
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            if isinstance(entry, dict):
                for field in entry:
                    assert f"| `{field}` |" in page.split(f"### `{key}`")[1].split("###")[0]


@pytest.mark.parametrize("game", GAMES)
def test_every_policy_parameter_has_its_comment_and_range(game):
    module, comments = refgen.policy_parameters(game)
    assert [c for c in module.PARAM_NAMES if not comments.get(str(c))] == []
    rows = refgen.policy_table(game).splitlines()
    assert len(rows) == 2 + len(module.PARAM_NAMES)
    assert all(f"| {refgen.code(k)} |" in rows[0] for k in module.KIND_NAMES)


def test_policy_parameter_row_from_the_code():
    table = refgen.policy_table("snapshot")
    assert "| `max_risk` | 0 to 1 | stop drawing when P(next card cannot be placed) exceeds " \
        "this | 0.25 | 0.25 | 0.12 | 0.45 | 0.25 | 0.25 |" in table
    assert "| `slot_risk` | 1 to 100 | risk divisor while a reserve slot is free (a reserve " \
        "absorbs a spook) |" in table


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                    or importlib.util.find_spec("mkdocstrings") is None,
                    reason="the docs toolchain is not installed (pip install '.[docs]')")
@pytest.mark.slow  # CI builds the site strictly in a step of its own too (.ci/run)
def test_site_builds_with_warnings_as_errors(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    rulings = (tmp_path / "rulings" / "index.html").read_text(encoding="utf-8")
    assert "Where a rulebook is silent or ambiguous" in rulings
    schemas = (tmp_path / "schemas" / "index.html").read_text(encoding="utf-8")
    assert "tokens_spent_rerolls" in schemas and "use_points_cougar" in schemas
