"""No module outside a game's own package names a game: shared code asks the registry
(snapsim.sim.registry) for what a game provides, so a new game is one package
(docs/add-a-game.md). Read from the code with `ast`: an import of `snapsim.games.<game>`
(absolute or relative) or a string, other than a docstring, holding a game's name as a word.
The checker is tried on planted code first, so a pass means something.

ALLOWED lists the modules that still name a game, each with the reason; the test fails when
one no longer does as well as when a new one does, so the list only shrinks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "snapsim"
GAMES = ("snapshot", "yosemite", "shutterbug", "pig")
WORD = re.compile(r"\b(" + "|".join(GAMES) + r")\b", re.IGNORECASE)
GAME_MODULE = re.compile(r"(^|\.)games\.(" + "|".join(GAMES) + r")(\.|$)")

ALLOWED = {
    "analysis/rebalance/plants.py": "the planted-imbalance benchmark suite is written per game "
                                    "(each plant's edits are that game's)",
    "env/__init__.py": "the shipped games' Gymnasium ids are registered when snapsim.env is "
                       "imported, without importing the games (any game: gym_env(name))",
    "env/openspiel.py": "the shipped games' OpenSpiel registrations, made when the module is "
                        "imported, without importing the games",
    "sim/sweep.py": "a sweep file without `game = ...` plays Snapshot, as every sweep file "
                    "written before games were named did",
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def names_of_games(source: str, package: str) -> list[tuple[int, str]]:
    """(line, what) for every import of a game's package and every string naming a game in
    one module's source; `package` is the module's package ("snapsim.games" for
    snapsim/games/rules.py), so that relative imports read as absolute."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs and WORD.search(node.value):
            found.append((node.lineno, repr(node.value[:50])))
        modules = []
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            modules = [module] + [f"{module}.{a.name}" for a in node.names]
        found += [(node.lineno, f"imports {m}") for m in modules if GAME_MODULE.search(m)]
    return found


def _module_package(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts if rel.name != "__init__" else rel.parts[:-1] + ("x",)
    return ".".join(parts[:-1])


def _shared_modules() -> dict[str, Path]:
    """Every module of snapsim outside a game's own package, by path below snapsim/."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "games" and len(rel.parts) > 2:
            continue  # games/<game>/...: a game's own package
        out[rel.as_posix()] = path
    return out


def test_the_checker_finds_planted_names_and_passes_docstrings():
    planted = '''"""Snapshot is named in a docstring: allowed."""
from ..games.snapshot import advisor
from snapsim.games.yosemite.api import run_games
import snapsim.games.shutterbug
from . import rules

def f(game):
    """Only ShutterBug here."""
    return game == "snapshot" or f"{game}" == "Pig v2" or "piggy" == game
'''
    found = names_of_games(planted, "snapsim.play")
    assert [line for line, _ in found] == [2, 2, 3, 3, 4, 9, 9]
    assert names_of_games("from .snapshot import spec\n", "snapsim.games") == \
        [(1, "imports snapsim.games.snapshot"), (1, "imports snapsim.games.snapshot.spec")]


def test_no_shared_module_names_a_game():
    modules = _shared_modules()
    naming = {rel: names_of_games(path.read_text(), _module_package(path))
              for rel, path in modules.items()}
    naming = {rel: found for rel, found in naming.items() if found}
    new = {rel: found[:3] for rel, found in naming.items() if rel not in ALLOWED}
    assert not new, f"modules outside games/<game>/ that name a game: {new}"
    stale = sorted(rel for rel in ALLOWED if rel not in naming)
    assert not stale, f"no longer name a game, drop them from ALLOWED: {stale}"


def test_the_game_argument_lists_the_registrys_games():
    """Every command's game argument lists the games the registry finds, each once."""
    from snapsim.cli import build_parser
    from snapsim.sim.registry import known_games

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    helps = {name: next(a.help for a in p._actions if a.dest == "game")
             for name, p in sub.choices.items()
             if any(a.dest == "game" for a in p._actions)}
    assert set(helps) >= {"simulate", "compare", "ladder", "play", "rebalance", "report",
                          "tune"}
    for name, text in helps.items():
        listed = re.findall(r"\w+", text.removeprefix("game name: ").removesuffix("; or sweep"))
        assert sorted(w for w in listed if w != "or") == known_games(), name


def test_the_exact_odds_game_is_found_without_importing_it():
    """`snapsim odds` and `snapsim advise`'s situations go to the shipped game whose package
    holds an advisor module (Snapshot's alone), found by listing files: no game is imported;
    its GameSpec then carries that module."""
    import subprocess
    import sys

    code = ("import sys; from snapsim.sim.registry import advised_games; "
            "print(advised_games(), any(m.startswith('snapsim.games') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["['snapshot']", "False"]
    from snapsim.games.snapshot import advisor
    from snapsim.sim.registry import advised_game, get_game

    assert advised_game() is get_game("snapshot") and advised_game().advisor is advisor
    assert get_game("yosemite").advisor is None and get_game("yosemite").hints is None
