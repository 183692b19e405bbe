"""Sections on disk (one JSON each, so a study can be re-run alone) and their rendering."""

from __future__ import annotations

import base64
import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

SECTIONS = "sections"


@dataclass
class Section:
    """One question the report answers: findings computed from numbers, figures, tables."""

    key: str  # file-name stem and anchor
    order: int
    title: str
    text: str = ""
    findings: list[str] = field(default_factory=list)
    figures: dict[str, bytes] = field(default_factory=dict)  # name -> PNG
    captions: dict[str, str] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # name -> table

    def figure(self, name: str, png: bytes, caption: str) -> None:
        """Add a figure with the caption shown under it."""
        self.figures[name] = png
        self.captions[name] = caption

    def save(self, out: Path) -> None:
        """PNG and CSV files plus sections/<key>.json describing them."""
        (out / SECTIONS).mkdir(parents=True, exist_ok=True)
        for name, png in self.figures.items():
            (out / f"{name}.png").write_bytes(png)
        for name, table in self.tables.items():
            table.to_csv(out / f"{name}.csv", index=False)
        meta = {"key": self.key, "order": self.order, "title": self.title, "text": self.text,
                "findings": self.findings, "figures": list(self.figures),
                "captions": self.captions, "tables": list(self.tables)}
        (out / SECTIONS / f"{self.key}.json").write_text(json.dumps(meta, indent=1))


@dataclass
class Report:
    title: str
    meta: dict  # e.g. games, seed, version: printed at the top
    footer: str = ""  # what made it (components, knobs, seed, n, version)


def _load_sections(out: Path) -> list[dict]:
    metas = [json.loads(p.read_text()) for p in sorted((out / SECTIONS).glob("*.json"))]
    return sorted(metas, key=lambda m: m["order"])


def _cell(v) -> str:
    """A table cell: 4 significant digits, a missing number blank."""
    if isinstance(v, float):
        return "" if v != v else f"{v:.4g}"
    return str(v)


def _with_interval(v, lo, hi) -> str:
    """An estimate and its interval at one precision: the interval's half-width to two
    significant digits ("0.523 [0.505, 0.541]", "2.3 [0.5, 4.1]")."""
    if pd.isna(lo) or pd.isna(hi):
        return _cell(v)
    try:
        half = (float(hi) - float(lo)) / 2
        v, lo, hi = float(v), float(lo), float(hi)
    except (TypeError, ValueError):
        return f"{_cell(v)} [{_cell(lo)}, {_cell(hi)}]"
    if not (half > 0 and math.isfinite(half) and math.isfinite(v)):
        return f"{_cell(v)} [{_cell(lo)}, {_cell(hi)}]"
    places = min(6, max(0, 1 - math.floor(math.log10(half))))
    return f"{v:.{places}f} [{lo:.{places}f}, {hi:.{places}f}]"


def _intervals(columns) -> dict[str, tuple[str, str]]:
    """Estimate column -> its interval's columns: `x_ci_low`/`x_ci_high` belong to `x`,
    plain `ci_low`/`ci_high` to the column just before `ci_low`."""
    cols = list(columns)
    out = {c: (f"{c}_ci_low", f"{c}_ci_high") for c in cols
           if f"{c}_ci_low" in cols and f"{c}_ci_high" in cols}
    if "ci_low" in cols and "ci_high" in cols and cols.index("ci_low") > 0:
        out[cols[cols.index("ci_low") - 1]] = ("ci_low", "ci_high")
    return out


def shown_table(df: pd.DataFrame, rows: int = 40) -> pd.DataFrame:
    """The first `rows` rows as text, each estimate with its 95% CI next to it in brackets
    ("0.25 [0.23, 0.27]") in place of separate interval columns."""
    df = df.head(rows)
    text = df.map(_cell)
    pairs = _intervals(df.columns)
    for est, (lo, hi) in pairs.items():
        text[est] = [_with_interval(v, a, b) for v, a, b in zip(df[est], df[lo], df[hi],
                                                                 strict=True)]
    drop = [c for pair in pairs.values() for c in pair]
    return text.drop(columns=drop).rename(columns={e: f"{e} [95% CI]" for e in pairs})


def _md_table(df: pd.DataFrame, rows: int = 40) -> str:
    fmt = shown_table(df, rows)
    head = "| " + " | ".join(map(str, fmt.columns)) + " |"
    sep = "|" + "---|" * len(fmt.columns)
    body = ["| " + " | ".join(r) + " |" for r in fmt.to_numpy().tolist()]
    return "\n".join([head, sep, *body])


def write_report(out: str | Path, report: Report, into: str | Path | None = None) -> Path:
    """Render every saved section in `out` into report.md and a self-contained index.html,
    written into `out` (or into `into`, the staging folder of a report being written)."""
    out = Path(out)
    sections = _load_sections(out)
    meta = ", ".join(f"{k}: {v}" for k, v in report.meta.items())
    md = [f"# {report.title}", "", meta, "", "## Key findings", ""]
    for s in sections:
        md += [f"- **{s['title']}**: {f}" for f in s["findings"][:2]]
    h = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(report.title)}"
         "</title><style>body{font-family:sans-serif;max-width:1000px;margin:auto;padding:1em}"
         "table{border-collapse:collapse;font-size:12px;margin:.5em 0}td,th{border:1px solid "
         "#ccc;padding:2px 6px;text-align:right}img{max-width:100%}.f{background:#f4f7fb;"
         "padding:.5em 1em}</style></head><body>",
         f"<h1>{html.escape(report.title)}</h1><p>{html.escape(meta)}</p>",
         "<h2>Key findings</h2><ul>"]
    for s in sections:
        h += [f"<li><b>{html.escape(s['title'])}</b>: {html.escape(f)}</li>"
              for f in s["findings"][:2]]
    h.append("</ul>")
    for s in sections:
        md += ["", f"## {s['title']}", "", s["text"], ""]
        md += [f"- {f}" for f in s["findings"]]
        h.append(f"<h2 id='{s['key']}'>{html.escape(s['title'])}</h2>"
                 f"<p>{html.escape(s['text'])}</p><div class='f'><ul>")
        h += [f"<li>{html.escape(f)}</li>" for f in s["findings"]]
        h.append("</ul></div>")
        for name in s["figures"]:
            cap = s["captions"].get(name, "")
            md += ["", f"![{cap}]({name}.png)", "", f"*{cap}*"]
            data = base64.b64encode((out / f"{name}.png").read_bytes()).decode()
            h.append(f"<figure><img alt='{html.escape(cap)}' src='data:image/png;base64,{data}'>"
                     f"<figcaption>{html.escape(cap)}</figcaption></figure>")
        for name in s["tables"]:
            table = pd.read_csv(out / f"{name}.csv")
            md += ["", f"Table `{name}.csv`:", "", _md_table(table)]
            h.append(f"<p>Table <code>{name}.csv</code></p>"
                     + shown_table(table).to_html(index=False))
    if report.footer:
        md += ["", "---", "", report.footer]
        h.append(f"<hr><footer><small>{html.escape(report.footer)}</small></footer>")
    h.append("</body></html>")
    into = out if into is None else Path(into)
    (into / "report.md").write_text("\n".join(md) + "\n")
    (into / "index.html").write_text("\n".join(h))
    return out / "index.html"
