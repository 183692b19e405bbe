"""No function of 60 or more lines in snapsim/ (def line to last line, docstring included):
a long function is split into named steps that each hold one idea.

Numba kernels (@kernel, @njit, @jit) are excluded: they are compiled loops whose steps would
cost a call each in the hot path, and their length is the game's rule, read as one piece.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "snapsim"
LIMIT = 60
KERNEL_DECORATORS = {"kernel", "njit", "jit"}


def _is_kernel(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for deco in fn.decorator_list:
        node = deco.func if isinstance(deco, ast.Call) else deco
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        if name in KERNEL_DECORATORS:
            return True
    return False


def long_functions(source: str, where: str = "") -> dict[str, int]:
    """Every non-kernel function of LIMIT or more lines in `source`, by where::name."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not _is_kernel(node):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines >= LIMIT:
                found[f"{where}::{node.name}"] = lines
    return found


def test_no_non_kernel_function_of_60_lines_or_more():
    found: dict[str, int] = {}
    for path in sorted(ROOT.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        found.update(long_functions(path.read_text(encoding="utf-8"), where))
    assert found == {}


def test_the_counter_counts_docstrings_and_skips_kernels():
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT - 3))
    plain = f'def f():\n    """Why."""\n{body}\n'
    assert long_functions(plain) == {}  # LIMIT - 1 lines
    longer = f'def f():\n    """Why.\n    """\n{body}\n'
    assert long_functions(longer) == {"::f": LIMIT}
    for deco in ("@kernel", "@kernel(cache=True)", "@numba.njit", "@njit(parallel=True)"):
        assert long_functions(f"{deco}\n{longer}") == {}
    assert long_functions(f"@dataclass\n{longer}") == {"::f": LIMIT}
    nested = "class C:\n" + "\n".join("    " + line for line in longer.splitlines())
    assert long_functions(nested) == {"::f": LIMIT}
