"""Names a package imports on first use (module `__getattr__`, PEP 562), so importing the
package stays light: `snapsim`, `snapsim.sim` and `snapsim.odds` load pandas, pyarrow or the
numba kernels only when one of their names behind them is asked for."""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any


def attribute(package: str, lazy: dict[str, str], name: str) -> Any:
    """`package`'s attribute `name`, imported from its module in `lazy` (name -> module,
    absolute or relative to `package`) and kept on the package for the next use."""
    if name not in lazy:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(import_module(lazy[name], package), name)
    setattr(sys.modules[package], name, value)
    return value


def names(package: str, lazy: dict[str, str]) -> list[str]:
    """The package's names for `dir()`: those it holds and those it imports on first use."""
    return sorted({*vars(sys.modules[package]), *lazy})
