"""Sections on disk (one JSON each, so a study can be re-run alone) and their rendering: a
glossary of the terms the report uses, its summary, the key findings each with its design
meaning, then every section; tables whole in the HTML, and in Markdown cut only with a line
saying how many rows the CSV holds beyond them."""

from __future__ import annotations

import base64
import html
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..analysis.effects import unsigned_zero
from .words import DOCS_PAGE, cell, column_words, glossary

SECTIONS = "sections"
MD_ROWS = 40  # rows of a table shown in report.md (the HTML shows them all)


@dataclass
class Section:
    """One question the report answers: findings computed from numbers, figures, tables.

    `findings` may hold callables (each returns a sentence, a list of them or None) that a
    report resolves once every claim has been tested against its standard; `keys` are the
    key findings, each a (finding, design meaning) pair or a callable returning a list of
    them (default: the first two findings, without a meaning); `summary` lines open the
    report; `claims` are the raw p-values of the section's claims, kept so that a study
    re-run alone is corrected together with the others."""

    key: str  # file-name stem and anchor
    order: int
    title: str
    text: str = ""
    findings: list = field(default_factory=list)
    figures: dict[str, bytes] = field(default_factory=dict)  # name -> PNG
    captions: dict[str, str] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # name -> table
    keys: list | None = None  # None: the first two findings; []: none
    summary: list = field(default_factory=list)
    claims: dict[str, float] = field(default_factory=dict)

    def figure(self, name: str, png: bytes, caption: str) -> None:
        """Add a figure with the caption shown under it."""
        self.figures[name] = png
        self.captions[name] = caption

    def later(self, sentence: Callable[[], object]) -> None:
        """A finding written once the report's claims are settled."""
        self.findings.append(sentence)

    def key_findings(self, pairs: Callable[[], list] | None = None) -> None:
        """Key findings with their design meanings, written once the claims are settled;
        called with nothing, the section has none (its findings describe, they claim no
        balance problem)."""
        self.keys = (self.keys or []) + ([pairs] if pairs is not None else [])

    def resolve(self) -> None:
        """Write the deferred findings, key findings and summary lines (again: the same)."""
        self.findings = _flat(self.findings)
        self.summary = _flat(self.summary)
        if self.keys is None:
            return
        keys = []
        for k in self.keys:
            out = k() if callable(k) else k
            keys += [tuple(x) for x in (out if isinstance(out, list) else [out]) if x]
        self.keys = keys

    def save(self, out: Path) -> None:
        """PNG and CSV files plus sections/<key>.json describing them."""
        self.resolve()
        (out / SECTIONS).mkdir(parents=True, exist_ok=True)
        for name, png in self.figures.items():
            (out / f"{name}.png").write_bytes(png)
        for name, table in self.tables.items():
            table.to_csv(out / f"{name}.csv", index=False)
        meta = {"key": self.key, "order": self.order, "title": self.title, "text": self.text,
                "findings": self.findings, "figures": list(self.figures),
                "captions": self.captions, "tables": list(self.tables),
                "keys": None if self.keys is None else [list(k) for k in self.keys],
                "summary": self.summary,
                "claims": dict(sorted(self.claims.items()))}  # one order whatever sets did
        (out / SECTIONS / f"{self.key}.json").write_text(json.dumps(meta, indent=1))


def _flat(items) -> list[str]:
    out: list[str] = []
    for item in items:
        value = item() if callable(item) else item
        if value is None:
            continue
        out += [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return out


@dataclass
class Report:
    title: str
    meta: dict  # e.g. games, seed, version: printed at the top
    footer: str = ""  # what made it (components, knobs, seed, n, version)
    words: dict = field(default_factory=dict)  # raw name -> plain words (columns, knobs)
    standard: str = ""  # the report's multiplicity standard and smallest effects, in words
    guide: str = ""  # the strategy guide written beside the report (a file name), if any
    verdict: tuple | None = None  # (question, one line per player count, how to read them)
    dealt_first: bool = False  # the game deals its first player each game (the glossary)


def _load_sections(out: Path) -> list[dict]:
    metas = [json.loads(p.read_text()) for p in sorted((out / SECTIONS).glob("*.json"))]
    return sorted(metas, key=lambda m: m["order"])


def _with_interval(v, lo, hi) -> str:
    """An estimate and its interval at one precision: the interval's half-width to two
    significant digits ("0.523 [0.505, 0.541]", "2.3 [0.5, 4.1]")."""
    if pd.isna(lo) or pd.isna(hi):
        return cell(v)
    try:
        half = (float(hi) - float(lo)) / 2
        v, lo, hi = float(v), float(lo), float(hi)
    except (TypeError, ValueError):
        return f"{cell(v)} [{cell(lo)}, {cell(hi)}]"
    if not (half > 0 and math.isfinite(half) and math.isfinite(v)):
        return f"{cell(v)} [{cell(lo)}, {cell(hi)}]"
    places = min(6, max(0, 1 - math.floor(math.log10(half))))
    return " ".join(_fixed(x, places) for x in (v, (lo, hi)))


def _fixed(x, places: int) -> str:
    """A number at `places` decimals, or a pair as "[lo, hi]"; never "-0.0"."""
    if isinstance(x, tuple):
        return f"[{_fixed(x[0], places)}, {_fixed(x[1], places)}]"
    return unsigned_zero(f"{x:.{places}f}")


def _with_intervals(v, lo, hi, alo=None, ahi=None) -> str:
    """`_with_interval`, then the interval a class was decided on when there is one:
    "2.95 [2.37, 3.54]; Holm [1.90, 4.00]" (at the first one's precision)."""
    text = _with_interval(v, lo, hi)
    if alo is None or pd.isna(alo) or pd.isna(ahi) or pd.isna(lo) or pd.isna(hi):
        return text
    half = (float(hi) - float(lo)) / 2
    places = min(6, max(0, 1 - math.floor(math.log10(half)))) if half > 0 else 2
    return f"{text}; Holm {_fixed((float(alo), float(ahi)), places)}"


def _intervals(columns) -> dict[str, tuple[str, str]]:
    """Estimate column -> its interval's columns: `x_ci_low`/`x_ci_high` belong to `x_value`
    when there is one (a comparison's `variant_value`), else to `x`; plain `ci_low`/`ci_high`
    to the column just before `ci_low`."""
    cols = list(columns)
    out = {}
    for c in cols:
        if c.endswith("_ci_low") and c.replace("_ci_low", "_ci_high") in cols:
            stem = c.removesuffix("_ci_low")
            est = f"{stem}_value" if f"{stem}_value" in cols else stem
            if est in cols:
                out[est] = (c, f"{stem}_ci_high")
    if "ci_low" in cols and "ci_high" in cols and cols.index("ci_low") > 0:
        out[cols[cols.index("ci_low") - 1]] = ("ci_low", "ci_high")
    return out


def shown_table(df: pd.DataFrame, rows: int | None = None,
                words: dict | None = None, name: str = "") -> pd.DataFrame:
    """The table as text (its first `rows` rows; None: all), each estimate with its 95% CI
    next to it in brackets ("0.25 [0.23, 0.27]") in place of separate interval columns,
    p-values and counts as people read them; with `words`, columns are named in plain words
    (those of table `name`, its CSV stem, where a column means something else per table)
    and a `knob` column's values too."""
    df = df if rows is None else df.head(rows)
    text = pd.DataFrame({c: [cell(v, c) for v in df[c]] for c in df.columns}, index=df.index)
    pairs = _intervals(df.columns)
    held = {est for est, (lo, _) in pairs.items() if f"{lo}_adjusted" in df}
    for est, (lo, hi) in pairs.items():
        adjusted = ((df[f"{lo}_adjusted"], df[f"{hi}_adjusted"]) if est in held
                    else ([None] * len(df),) * 2)
        text[est] = [_with_intervals(*x) for x in zip(df[est], df[lo], df[hi], *adjusted,
                                                      strict=True)]
    drop = [c + a for pair in pairs.values() for c in pair for a in ("", "_adjusted")
            if c + a in text]
    text = text.drop(columns=drop)
    if words is not None and "knob" in text:
        text["knob"] = [words_for(k, words) for k in text["knob"]]
    names = {c: (column_words(c, words, name) if words is not None else c)
             for c in text.columns}
    return text.rename(columns={c: names[c] + (" [95% CI; Holm-adjusted CI]" if c in held
                                               else " [95% CI]" if c in pairs else "")
                                for c in text.columns})


def words_for(name: str, words: dict) -> str:
    """A knob or column in plain words with its raw name in brackets (itself if unknown)."""
    plain = words.get(name)
    return f"{plain} ({name})" if plain and plain != name else str(name)


def _md_cell(value) -> str:
    """A table cell as Markdown text: a designer's name holding "|" stays in its column."""
    return str(value).replace("\\", "\\\\").replace("|", "\\|")


def _md_table(df: pd.DataFrame, name: str, words: dict, rows: int = MD_ROWS) -> str:
    fmt = shown_table(df, rows, words, name)
    head = "| " + " | ".join(map(_md_cell, fmt.columns)) + " |"
    sep = "|" + "---|" * len(fmt.columns)
    body = ["| " + " | ".join(map(_md_cell, r)) + " |" for r in fmt.to_numpy().tolist()]
    more = len(df) - len(fmt)
    tail = ["", f"{more:,} more row{'s' if more != 1 else ''} in `{name}.csv` (the HTML "
            "report shows the whole table)."] if more > 0 else []
    return "\n".join([head, sep, *body, *tail])


def write_report(out: str | Path, report: Report, into: str | Path | None = None) -> Path:
    """Render every saved section in `out` into report.md and a self-contained index.html:
    a glossary of the terms used, the summary, the key findings with their design meaning,
    then each section with its findings, figures and tables; written into `out` (or into
    `into`, the staging folder of a report being written)."""
    out = Path(out)
    sections = _load_sections(out)
    meta = ", ".join(f"{k}: {v}" for k, v in report.meta.items())
    verdict_md, verdict_h = _verdict_parts(report)
    summary = [line for s in sections for line in s.get("summary", [])]
    body_md, body_h = _body_parts(out, sections, report.words)
    top_md, top_h = _top_parts(sections, summary)
    used = glossary("\n".join([meta, *verdict_md, report.standard, *summary, *top_md,
                                *body_md]), report.dealt_first)
    terms_md, terms_h = _terms_parts(report, used)
    guide_md, guide_h = _guide_parts(report)
    md = [f"# {report.title}", "", meta, "", *verdict_md, *guide_md, *terms_md, *top_md,
          *body_md]
    h = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(report.title)}"
         "</title><style>body{font-family:sans-serif;max-width:1000px;margin:auto;padding:1em}"
         "table{border-collapse:collapse;font-size:12px;margin:.5em 0}td,th{border:1px solid "
         "#ccc;padding:2px 6px;text-align:right}img{max-width:100%}.f{background:#f4f7fb;"
         "padding:.5em 1em}dd{margin:0 0 .3em 1.5em}</style></head><body>",
         f"<h1>{html.escape(report.title)}</h1><p>{html.escape(meta)}</p>", *verdict_h,
         *guide_h,
         *terms_h, *top_h, *body_h]
    if report.footer:
        md += ["", "---", "", report.footer]
        h.append(f"<hr><footer><small>{html.escape(report.footer)}</small></footer>")
    h.append("</body></html>")
    into = out if into is None else Path(into)
    (into / "report.md").write_text("\n".join(md) + "\n")
    (into / "index.html").write_text("\n".join(h))
    return out / "index.html"


def _verdict_parts(report: Report) -> tuple[list[str], list[str]]:
    """The headline verdict's question and lines (Markdown, HTML); none without one."""
    if not report.verdict:
        return [], []
    question, lines, how = report.verdict
    verdict_md = [f"## {question}", "", *[f"- {x}" for x in lines], "", how,
                  "Every claim: `verdict.csv`.", ""]
    verdict_h = [f"<h2>{html.escape(question)}</h2><ul>",
                 *[f"<li>{html.escape(x)}</li>" for x in lines],
                 f"</ul><p>{html.escape(how)} Every claim: <code>verdict.csv</code>.</p>"]
    return verdict_md, verdict_h


def _body_parts(out: Path, sections: list[dict], words: dict) -> tuple[list[str], list[str]]:
    """Each section with its findings, figures (inlined in the HTML) and tables."""
    body_md: list[str] = []
    body_h: list[str] = []
    for s in sections:
        body_md += ["", f"## {s['title']}", "", s["text"], ""]
        body_md += [f"- {f}" for f in s["findings"]]
        body_h.append(f"<h2 id='{s['key']}'>{html.escape(s['title'])}</h2>"
                      f"<p>{html.escape(s['text'])}</p><div class='f'><ul>")
        body_h += [f"<li>{html.escape(f)}</li>" for f in s["findings"]]
        body_h.append("</ul></div>")
        for name in s["figures"]:
            cap = s["captions"].get(name, "")
            body_md += ["", f"![{cap}]({name}.png)", "", f"*{cap}*"]
            data = base64.b64encode((out / f"{name}.png").read_bytes()).decode()
            body_h.append(f"<figure><img alt='{html.escape(cap)}' "
                          f"src='data:image/png;base64,{data}'>"
                          f"<figcaption>{html.escape(cap)}</figcaption></figure>")
        for name in s["tables"]:
            table = pd.read_csv(out / f"{name}.csv")
            body_md += ["", f"Table `{name}.csv`:", "", _md_table(table, name, words)]
            body_h.append(f"<p>Table <code>{name}.csv</code> ({len(table):,} rows)</p>"
                          + shown_table(table, None, words, name).to_html(index=False))
    return body_md, body_h


def _top_parts(sections: list[dict], summary: list[str]) -> tuple[list[str], list[str]]:
    """The summary, then each section's key findings (its first two unless it names them)
    with their design meaning."""
    keys = [(s["title"], tuple(k)) for s in sections
            for k in (s["keys"] if s.get("keys") is not None
                      else [(f, "") for f in s["findings"][:2]])]
    top_md: list[str] = []
    top_h: list[str] = []
    if summary:
        top_md += ["## Summary", ""] + [f"- {line}" for line in summary] + [""]
        top_h += ["<h2>Summary</h2><ul>"] + [f"<li>{html.escape(x)}</li>" for x in summary]
        top_h.append("</ul>")
    top_md += ["## Key findings", ""]
    top_h.append("<h2>Key findings</h2><ul>")
    for title, (finding, *meaning) in keys:
        why = meaning[0] if meaning and meaning[0] else ""
        why = why if not why or why[-1] in ".!?" else why + "."
        top_md.append(f"- **{title}**: {finding}" + (f"\n  *Design meaning:* {why}"
                                                      if why else ""))
        top_h.append(f"<li><b>{html.escape(title)}</b>: {html.escape(finding)}"
                     + (f"<br><i>Design meaning:</i> {html.escape(why)}" if why else "")
                     + "</li>")
    top_h.append("</ul>")
    return top_md, top_h


def _terms_parts(report: Report, used) -> tuple[list[str], list[str]]:
    """How to read the report: its standard of evidence and the glossary terms it uses."""
    terms_md = ["## How to read this report", ""]
    if report.standard:
        terms_md += [report.standard, ""]
    terms_md += [f"- **{t}**: {m}" for t, m in used]
    terms_md += ["", f"The full glossary, with the reasons for the defaults: {DOCS_PAGE} in the "
                 "snapsim documentation.", ""]
    terms_h = ["<h2>How to read this report</h2>"]
    if report.standard:
        terms_h.append(f"<p>{html.escape(report.standard)}</p>")
    terms_h += ["<dl>"] + [f"<dt><b>{html.escape(t)}</b></dt><dd>{html.escape(m)}</dd>"
                           for t, m in used] + ["</dl>"]
    terms_h.append(f"<p>The full glossary, with the reasons for the defaults: "
                   f"<code>{DOCS_PAGE}</code> in the snapsim documentation.</p>")
    return terms_md, terms_h


def _guide_parts(report: Report) -> tuple[list[str], list[str]]:
    """The link to the game's strategy guide, when the report has one."""
    if not report.guide:
        return [], []
    said = "the rules of thumb, measured, and the game's strategy tables"
    return ([f"Strategy guide: [{report.guide}]({report.guide}) ({said}).", ""],
            [f"<p>Strategy guide: <a href='{html.escape(report.guide)}'>"
             f"{html.escape(report.guide)}</a> ({said}).</p>"])
