"""snapsim: exact odds, fast simulators and balance reports for wildlife-photography games."""

__version__ = "0.1.0"

from .sim import load, run, simulate  # noqa: E402


def compare(game: str, **kwargs):
    """A variant against a baseline on common random numbers; see snapsim.report.compare.
    (Imported on first use, so `import snapsim` stays light.)"""
    from .report.compare import compare as paired_compare

    return paired_compare(game, **kwargs)


__all__ = ["compare", "load", "run", "simulate"]
