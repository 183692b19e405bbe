"""MkDocs hook: fills each page's `<!-- snapsim:... -->` markers with tables made from the code
(see refgen.py), so the CLI, knob, components and column references are never hand-copied."""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).resolve().parent))

import refgen  # noqa: E402  (a sibling module, importable once its folder is on the path)


def on_page_markdown(markdown, page, config, files):
    try:
        return refgen.expand(markdown)
    except refgen.MissingMeaning as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from None
