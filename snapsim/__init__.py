"""snapsim: exact odds, fast simulators and balance reports for wildlife-photography games."""

__version__ = "0.1.0"

from .sim import load, run, simulate  # noqa: E402


def compare(game: str, **kwargs):
    """A variant against a baseline on common random numbers.

    The same as `snapsim.report.compare.compare` (imported on first use, so
    `import snapsim` stays light); its keyword arguments are accepted here.

    Returns
    -------
    Comparison
        The table of measures with paired differences, `.summary()` and `.write(dir)`.

    Examples
    --------
    >>> c = snapsim.compare("yosemite", games=2000, seed=1,
    ...                     variants=["examples/variants/yosemite-richer-camping.toml"])
    >>> print(c.summary())
    """
    from .report.compare import compare as paired_compare

    return paired_compare(game, **kwargs)


__all__ = ["compare", "load", "run", "simulate"]
