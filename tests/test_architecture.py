"""The import graph keeps the layers of docs/architecture.md. It is read from the code with
`ast`: imports at the top of a module and inside functions, relative and absolute, and
`import_module(...)` with a written name (a literal, or an f-string's literal start:
`f"snapsim.games.{game}.api"` imports something in `snapsim.games`). The graph has no import
circle, and no module imports one of a higher layer. The checker is tested on a small
package with a planted circle and planted upward imports, so a pass means something."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components, shortest_path

PACKAGE = Path(__file__).resolve().parents[1] / "snapsim"

# Top to bottom. A module's layer is named by the first part of its path below the package
# (snapsim/games/snapshot/api.py is in `games`, snapsim/errors.py in `errors`); the package's
# own __init__ and __main__ are its front door, above every layer.
LAYERS = (("cli", "app"), ("play",), ("games",), ("report", "env"),
          ("analysis", "odds", "protocol"), ("sim",), ("errors", "version", "lazy"))
FRONT_DOOR = "front door"

# The registry turns a game's name into its package: the layers below a game ask it for what
# the game provides (DESIGN.md), so it alone may load a package below `snapsim.games` by a
# computed name.
LOADS_BY_NAME = {"snapsim.sim.registry": "snapsim.games"}

# Circles not taken apart yet, each by its modules. The test fails when one is gone as well
# as when a new one appears, so this only shrinks (it is empty: keep it so).
PENDING_CIRCLES: set[frozenset[str]] = set()


@dataclass(frozen=True)
class Import:
    """One import of one module by another, where it is written."""

    source: str  # dotted module name
    target: str  # dotted module name (only its package, for a computed name)
    file: Path
    line: int
    computed: bool = False

    def where(self) -> str:
        return f"{self.file}:{self.line}: {self.source} imports {self.target}"


def modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package at `root`."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = (root.name, *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _package(module: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _absolute(name: str, anchor: str) -> str:
    """`name` with leading dots made absolute from the package `anchor`, as Python does."""
    level = len(name) - len(name.lstrip("."))
    for _ in range(level - 1):
        anchor = anchor.rpartition(".")[0]
    rest = name[level:]
    return f"{anchor}.{rest}" if rest else anchor


def _import_module_name(call: ast.Call, module: str, path: Path) -> tuple[str, bool] | None:
    """(name, computed) of an `import_module`/`__import__` call whose name is written in the
    code; None where it is known only when the code runs."""
    func = call.func
    if getattr(func, "id", getattr(func, "attr", None)) not in ("import_module", "__import__") \
            or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        if not arg.value.startswith("."):
            return arg.value, False
        anchor = call.args[1] if len(call.args) > 1 else None
        if isinstance(anchor, ast.Name) and anchor.id == "__name__":
            return _absolute(arg.value, module), False
        if isinstance(anchor, ast.Name) and anchor.id == "__package__":
            return _absolute(arg.value, _package(module, path)), False
        return None  # relative to a package named at run time
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        package = str(arg.values[0].value).rpartition(".")[0]
        return (package, True) if package else None
    return None


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of the package that `name` is or lies in."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(root: Path) -> list[Import]:
    """Every import, inside the package at `root`, of another of its modules."""
    known = modules(root)
    found = []
    for module, path in known.items():
        shown = path.relative_to(root.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names: list[tuple[str, bool]] = []
            if isinstance(node, ast.Import):
                names = [(alias.name, False) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = _absolute("." * node.level + base, _package(module, path))
                # `from package import name` imports package.name where that is a module
                names = [(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base, False)
                         for a in node.names]
            elif isinstance(node, ast.Call):
                named = _import_module_name(node, module, path)
                names = [named] if named else []
            for name, computed in names:
                target = _resolve(name, known) if name.split(".")[0] == root.name else None
                if target and target != module:
                    found.append(Import(module, target, shown, node.lineno, computed))
    return found


def layer(module: str, layers=LAYERS) -> str:
    """The layer of a module, from its path below the package."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return FRONT_DOOR
    for names in layers:
        if parts[1] in names:
            return "/".join(names)
    raise AssertionError(f"{module} is in no layer: give {parts[1]!r} a layer in LAYERS "
                         "(tests/test_architecture.py) and in docs/architecture.md")


def rank(module: str, layers=LAYERS) -> int:
    """0 for the front door, then 1, 2, ... down the layers."""
    name = layer(module, layers)
    return 0 if name == FRONT_DOOR else 1 + ["/".join(n) for n in layers].index(name)


def upward(found: list[Import], layers=LAYERS, loads_by_name=LOADS_BY_NAME) -> list[str]:
    """Each import from a lower layer up to a higher one, once per line."""
    bad = set()
    for imp in found:
        if imp.computed and loads_by_name.get(imp.source) == imp.target:
            continue
        if rank(imp.target, layers) < rank(imp.source, layers):
            bad.add((str(imp.file), imp.line, f"{imp.where()}: `{layer(imp.source, layers)}` "
                                              f"is below `{layer(imp.target, layers)}`"))
    return [text for *_, text in sorted(bad)]


def circles(found: list[Import]) -> dict[frozenset[str], str]:
    """Each import circle (modules that import each other, directly or not): its modules ->
    its shortest loop, import by import with file and line, and how many modules it holds."""
    static = [i for i in found if not i.computed]
    names = sorted({i.source for i in static} | {i.target for i in static})
    index = {n: k for k, n in enumerate(names)}
    first: dict[tuple[int, int], Import] = {}
    for imp in sorted(static, key=lambda i: (str(i.file), i.line)):
        first.setdefault((index[imp.source], index[imp.target]), imp)
    rows, cols = (np.array(c, dtype=np.int64) for c in zip(*first, strict=True)) if first \
        else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    graph = csr_array((np.ones(len(rows)), (rows, cols)), shape=(len(names),) * 2)
    count, labels = connected_components(graph, directed=True, connection="strong")
    hops, before = shortest_path(graph, unweighted=True, return_predecessors=True)
    found_circles = {}
    for label in range(count):
        members = np.flatnonzero(labels == label)
        if len(members) < 2:
            continue
        inside = [(a, b) for (a, b) in first if labels[a] == label and labels[b] == label]
        a, b = min(inside, key=lambda e: hops[e[1], e[0]])  # the edge on the shortest loop
        back = [a]  # the shortest path from b to a, read backwards by predecessors
        while back[-1] != b:
            back.append(before[b, back[-1]])
        loop = [a, *back[::-1]]  # a -> b -> ... -> a
        text = "\n  ".join(first[(loop[k], loop[k + 1])].where() for k in range(len(loop) - 1))
        modules_in = frozenset(names[k] for k in members)
        found_circles[modules_in] = (f"a circle of {len(members)} modules "
                                     f"({', '.join(sorted(modules_in))}); its shortest loop:\n  "
                                     + text)
    return found_circles


# ---------------------------------------------------------------- snapsim itself


@pytest.fixture(scope="module")
def graph() -> list[Import]:
    return imports(PACKAGE)


def test_no_import_circle(graph):
    found = circles(graph)
    new = [text for members, text in found.items() if members not in PENDING_CIRCLES]
    assert not new, "import circles:\n" + "\n".join(new)
    gone = [sorted(members) for members in PENDING_CIRCLES if members not in found]
    assert not gone, f"no longer a circle, take it out of PENDING_CIRCLES: {gone}"


def test_no_import_from_a_lower_layer_up(graph):
    bad = upward(graph)
    assert not bad, "imports up the layers (see docs/architecture.md):\n" + "\n".join(bad)


def test_every_module_is_in_a_layer():
    assert [layer(m) for m in modules(PACKAGE)]


def test_the_checker_sees_snapsim_s_imports(graph):
    """Known imports of each kind are in the graph: top-level, in a function, relative,
    absolute, `from package import module`, and a computed name."""
    seen = {(i.source, i.target, i.computed) for i in graph}
    assert ("snapsim.sim.runner", "snapsim.sim.registry", False) in seen  # top, relative
    assert ("snapsim.protocol", "snapsim.sim.registry", False) in seen  # in a function
    assert ("snapsim.games.snapshot.api", "snapsim.games.snapshot.engine", False) in seen
    assert ("snapsim.sim.registry", "snapsim.games", True) in seen  # import_module(f"...")
    assert ("snapsim.__main__", "snapsim.cli", False) in seen


# ---------------------------------------------------------------- the checker on a planted package

PLANTED = {
    "__init__.py": "",
    "__main__.py": "from .cli import main\n",
    "errors.py": "",
    "cli/__init__.py": "from ..sim import runner\nfrom . import run\n",
    "cli/run.py": "import pkg.games.g\n",
    "games/__init__.py": "",
    "games/g.py": "from ..sim.runner import go\n\n\ndef f():\n    from ..report import r\n",
    "report/__init__.py": "",
    "report/r.py": "import pkg.errors\n\n\ndef back():\n    from pkg.games import g\n",
    "sim/__init__.py": "",
    "sim/runner.py": ("from importlib import import_module\n\n\ndef go():\n"
                      "    return import_module('pkg.report.r')\n\n\n"
                      "def by_name(game):\n    return import_module(f'pkg.games.{game}')\n"),
    "sim/registry.py": ("import importlib\n\n\ndef get(game):\n"
                        "    return importlib.import_module(f'pkg.games.{game}')\n"),
    "sim/store.py": "from .. import errors\nfrom . import runner\n",
}
PLANTED_LAYERS = (("cli",), ("games",), ("report",), ("sim",), ("errors",))


@pytest.fixture
def planted(tmp_path) -> Path:
    root = tmp_path / "pkg"
    for name, text in PLANTED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_checker_reads_every_kind_of_import(planted):
    seen = {(i.source, i.target, i.line, i.computed) for i in imports(planted)}
    assert seen == {
        ("pkg.__main__", "pkg.cli", 1, False),
        ("pkg.cli", "pkg.sim.runner", 1, False),  # from package import module
        ("pkg.cli", "pkg.cli.run", 2, False),
        ("pkg.cli.run", "pkg.games.g", 1, False),  # absolute
        ("pkg.games.g", "pkg.sim.runner", 1, False),  # from module import name
        ("pkg.games.g", "pkg.report.r", 5, False),  # inside a function
        ("pkg.report.r", "pkg.errors", 1, False),
        ("pkg.report.r", "pkg.games.g", 5, False),
        ("pkg.sim.runner", "pkg.report.r", 5, False),  # import_module("...")
        ("pkg.sim.runner", "pkg.games", 9, True),  # import_module(f"...")
        ("pkg.sim.registry", "pkg.games", 5, True),
        ("pkg.sim.store", "pkg.errors", 1, False),
        ("pkg.sim.store", "pkg.sim.runner", 2, False),
    }


def test_checker_finds_a_planted_circle_with_its_lines(planted):
    found = circles(imports(planted))
    loop = found[frozenset({"pkg.games.g", "pkg.report.r", "pkg.sim.runner"})]
    assert "a circle of 3 modules" in loop
    assert loop.endswith("its shortest loop:\n"
                         "  pkg/games/g.py:5: pkg.games.g imports pkg.report.r\n"
                         "  pkg/report/r.py:5: pkg.report.r imports pkg.games.g")
    assert len(found) == 1


def test_checker_finds_planted_upward_imports_with_their_lines(planted):
    bad = upward(imports(planted), PLANTED_LAYERS, {"pkg.sim.registry": "pkg.games"})
    assert bad == [
        "pkg/report/r.py:5: pkg.report.r imports pkg.games.g: `report` is below `games`",
        "pkg/sim/runner.py:5: pkg.sim.runner imports pkg.report.r: `sim` is below `report`",
        "pkg/sim/runner.py:9: pkg.sim.runner imports pkg.games: `sim` is below `games`",
    ]
    # without its leave to load games by name, the registry's lookup is one more
    assert len(upward(imports(planted), PLANTED_LAYERS, {})) == 4


def test_checker_refuses_a_module_outside_the_layers(planted):
    (planted / "extra.py").write_text("")
    with pytest.raises(AssertionError, match="pkg.extra is in no layer"):
        [layer(m, PLANTED_LAYERS) for m in modules(planted)]
