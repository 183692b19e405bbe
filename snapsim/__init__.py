"""snapsim: exact odds, fast simulators and balance reports for wildlife-photography games."""

__version__ = "0.1.0"

from .sim import load, run, simulate  # noqa: E402

__all__ = ["load", "run", "simulate"]
