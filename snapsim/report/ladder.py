"""A ladder's output folder: ratings.csv, pairwise.csv, ladder.png, ladder.md, provenance.json."""

from __future__ import annotations

import json
from pathlib import Path

from ..analysis.ladder import interval_text
from ..sim.provenance import PROVENANCE_FILE, footer
from ..sim.store import check_out_free, staged
from . import figures as F
from .words import DOCS_PAGE, glossary


def write_ladder(ladder, out, force: bool = False, smallest=None) -> Path:
    """Write the ladder into `out` (refusing a folder that holds another run unless `force`);
    returns the path of ladder.md, which opens with a glossary of the terms it uses and the
    ladder's claims under one standard (`Ladder.claims`, against `smallest`)."""
    out = Path(out)
    with staged(out, clear=force) as stage:  # one writer; the files appear when whole
        check_out_free(out, force, kind="ladder")
        _write(ladder, stage.path, smallest)
    return out / "ladder.md"


def shown(r) -> str:
    """A rating's interval in the table, or why it has none."""
    text = interval_text(r.ci_low, r.ci_high)
    return text.strip("[]").replace(", ", " to ")


def _write(ladder, out: Path, smallest) -> None:
    ladder.ratings.to_csv(out / "ratings.csv", index=False)
    ladder.pairwise.to_csv(out / "pairwise.csv", index=False)
    note = f"n = {ladder.games:,} games, seed {ladder.seed}; whiskers: 95% bootstrap CI"
    png = F.bars(ladder.ratings, x="policy", y="rating", lo="ci_low", hi="ci_high",
                 title=f"{ladder.game}: skill ladder, {ladder.players} players", note=note,
                 ylabel="rating (Bradley-Terry log-strength)", ref=0.0)
    (out / "ladder.png").write_bytes(png)
    (out / PROVENANCE_FILE).write_text(json.dumps(ladder.provenance, indent=1))
    prov = ladder.provenance
    shares = ladder.pairwise.pivot(index="policy", columns="opponent", values="share")
    order = list(ladder.ratings.policy)
    shares = shares.reindex(index=order, columns=order)
    lines = [f"# {ladder.game}: skill ladder, {ladder.players} players", "",
             f"{len(ladder.policies)} policies, {prov.get('tables')} tables of "
             f"{ladder.players} seats, each in all its seat assignments equally often "
             f"({prov.get('seat_assignments')} in all); "
             f"{ladder.games:,} games in all, seed {ladder.seed}.", "",
             "A rating is a Bradley-Terry log-strength fitted to who finished ahead of whom "
             "(won, then score; a tie counts half): A finishes ahead of B with chance "
             "1 / (1 + exp(rating_B - rating_A)). "
             + ("Ratings are relative to greedy (0), the reports' line-up. "
                if prov.get("reference") == "greedy" else "Ratings are centred on their mean. ")
             + "Intervals: 95% bootstrap over deals.", "",
             "![ratings](ladder.png)", "",
             "| policy | rating | 95% CI | seats | win rate |", "|---|---:|---|---:|---:|"]
    lines += [f"| {r.policy} | {r.rating:+.3f} | "
              f"{'reference' if r.policy == prov.get('reference') else shown(r)} | "
              f"{r.games:,} | {r.win_rate:.3f} |" for r in ladder.ratings.itertuples()]
    by_policy = ladder.pairwise.groupby("policy").share.agg(["min", "max"])
    extreme = [name for name in order if name in by_policy.index
               and (by_policy.loc[name, "max"] == 0 or by_policy.loc[name, "min"] == 1)]
    if extreme:
        lines += ["", f"{', '.join(extreme)} never (or always) finished ahead: the data put "
                  "no bound on such a rating, only the fit's small regularisation does, so its "
                  "value and interval say 'far below (above) the rest', not how far."]
    lines += ["", "Share of meetings the row policy finished ahead of the column policy "
              "(Wilson intervals in pairwise.csv):", "",
              "| | " + " | ".join(order) + " |", "|---|" + "---:|" * len(order)]
    for a in order:
        cells = ["" if a == b or shares.loc[a, b] != shares.loc[a, b]
                 else f"{shares.loc[a, b]:.3f}" for b in order]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines[2:2] = ["## What the ladder claims", ""] + [f"- {c}" for c in ladder.claims(smallest)] \
        + [""]
    terms = glossary("\n".join(lines))
    lines[2:2] = (["## How to read this ladder", ""] + [f"- **{t}**: {m}" for t, m in terms]
                  + ["", f"The full glossary: {DOCS_PAGE} in the snapsim documentation.", ""])
    lines += ["", footer(prov), ""]
    (out / "ladder.md").write_text("\n".join(lines))
