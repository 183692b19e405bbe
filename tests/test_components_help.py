"""Every command that takes a component file says in its help that it reads TOML, CSV and XLSX
files, and what it uses without one."""

from __future__ import annotations

import argparse

from snapsim.cli import build_parser

FILE_FLAGS = ("--components", "--baseline", "--variant")  # options that name a component file


def _commands(parser: argparse.ArgumentParser, path: str = ""):
    """(command path, parser) for the parser and every subcommand below it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, f"{path} {name}".strip())


def test_every_component_file_option_names_the_formats_and_its_default():
    found = {}
    for path, parser in _commands(build_parser()):
        for action in parser._actions:
            for flag in set(action.option_strings) & set(FILE_FLAGS):
                found[f"{path} {flag}"] = action.help
    assert {"simulate --components", "report --components", "rebalance --components",
            "tune --components", "ladder --components", "odds spook --components",
            "advise prep --components", "advise research --components",
            "compare --baseline", "compare --variant"} <= set(found)
    for where, text in found.items():
        assert ".toml, .csv or .xlsx" in text, where
        assert "(default: " in text or "; default: " in text, where
