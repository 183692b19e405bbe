"""Statistics over result tables (pandas), generic across games."""

from .stats import wilson_interval, win_table

__all__ = ["wilson_interval", "win_table"]
