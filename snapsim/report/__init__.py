"""Report rendering, generic across games: sections with findings, figures and tables,
written as PNG + CSV files, report.md and a self-contained index.html."""

from .render import Report, Section, write_report

__all__ = ["Report", "Section", "write_report"]
