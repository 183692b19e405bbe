"""`snapsim report sweep DIR`: the balance measures of every point of a sweep, side by side.

For each swept knob (the components axis included) every balance measure is drawn against the
knob's values with 95% CIs: win rate per seat, seat spread in win rate and in points, the
first player's win rate, mean score and the game's score parts, and game length. Ratio
measures get a normal interval from their per-game linearisation; a spread (the largest minus
the smallest seat's rate) is not smooth in the sums, so its interval is a bootstrap over games.

The report then names the setting that minimises an objective (seat spread in win rate unless
told otherwise) and which settings are statistically indistinguishable from it. All points of
a sweep play game i from the same random streams, so each setting is compared with the best
by paired per-game differences, Holm-corrected across the settings; "indistinguishable" means
not significantly worse. Points are read one at a time, so memory holds one point's games.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..analysis.balance import ALPHA, holm
from ..analysis.measures import Measure, MeasureSpec, measures
from ..analysis.normal import norm_ppf
from ..analysis.paired import (
    Difference,
    ratio_difference,
    spread_difference,
    spread_interval,
    spread_value,
)
from ..errors import InputError
from ..sim.files import read_json
from ..sim.locks import exclusive
from ..sim.provenance import PROVENANCE_FILE
from ..sim.registry import get_game
from ..sim.store import MANIFEST, chunk_plan, claim_folder, clear_own, same_run, staged
from ..sim.sweep import SWEEP_FILE, load
from ..version import __version__, commit
from . import figures as F
from .render import Report, Section, write_report

OBJECTIVE = "seat spread (win rate)"
ALIASES = {"seat spread": OBJECTIVE}  # "seat_spread" too: underscores read as spaces
GROUPS = ("seats", "score", "length")  # the balance measures of a sweep report
REPS = 1000  # bootstrap resamples of a spread


def _text(value) -> str:
    """A knob value as in its folder name (photo_target=8, raccoon=true, components=cheap)."""
    value = value.item() if hasattr(value, "item") else value
    return value if isinstance(value, str) else json.dumps(value)


def _where(labels: dict) -> str:
    return ", ".join(f"{k}={_text(v)}" for k, v in labels.items())


def _fmt(value: float, unit: str, spread: bool = False, diff: bool = False) -> str:
    if not math.isfinite(value):
        return "n/a"
    sign = "+" if diff else ""
    if unit == "rate":
        return f"{100 * value:{sign}.1f} pp" if spread or diff else f"{100 * value:.1f}%"
    return f"{value:{sign}.2f} {unit}"


def _read(folder: Path) -> dict:
    """sweep.json with every point's settings; a folder without it is not a sweep."""
    meta = folder / SWEEP_FILE
    if not folder.is_dir() or not meta.is_file():
        raise InputError(f"{folder} is not a sweep folder (no {SWEEP_FILE}); give the output "
                         "folder of `snapsim sweep`")
    try:
        data = read_json(meta)
        if not all(k in data for k in ("game", "games", "seed", "chunk_size")) or \
                not isinstance(data["runs"], list) or not data["runs"]:
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError):
        raise InputError(f"{meta} does not list the points' settings (an older or damaged "
                         "file); run the sweep again with --resume to rewrite it") from None
    return data


def _check_complete(folder: Path, data: dict) -> None:
    """Every point's manifest lists all its chunks."""
    for run in data["runs"]:
        total = len(chunk_plan(data["games"], data["chunk_size"]))
        done = 0
        try:
            manifest = read_json(folder / run["folder"] / MANIFEST)
            total, done = manifest["chunks_total"], len(manifest["chunks"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
        if done < total:
            raise InputError(f"point {_where(run['labels'])} of {folder} is incomplete "
                             f"({total - done} of {total} chunks missing); run the sweep "
                             "again with --resume to finish it")


def _record(data: dict, objective: str) -> dict:
    """provenance.json: what the report was made from."""
    return {"snapsim": __version__, "commit": commit(), "kind": "sweep report",
            "game": data["game"], "seed": data["seed"], "games": data["games"],
            "rotate_seats": data.get("rotate_seats", True), "objective": objective,
            "points": [{k: run.get(k) for k in ("labels", "knobs", "lineup", "players",
                                                "components")} for run in data["runs"]]}


def _footer(record: dict, folder: Path) -> str:
    comps = {p["components"]["name"]: p["components"]["sha256"] for p in record["points"]}
    files = ", ".join(f"{name} (sha256 {(sha or '')[:12]}...)" for name, sha in comps.items())
    return (f"Made by snapsim {record['snapsim']} from the sweep in {folder.name}: "
            f"{record['game']}, {len(record['points'])} points x {record['games']:,} games, "
            f"seed {record['seed']} (common random numbers across points); components: "
            f"{files}.")


def _clear(out: Path, record: dict, force: bool) -> None:
    """Refuse a folder holding files snapsim did not write, or another report (unless
    forced); remove the old report's files, so no section of it survives into the new one."""
    if not claim_folder(out, kind="report"):
        return
    try:
        old = read_json(out / PROVENANCE_FILE)
    except (OSError, ValueError):
        old = None
    if not same_run(old, record) and not force:
        raise InputError(f"{out} already holds another report; choose another --out or add "
                         "--force to replace it")
    clear_own(out)


def _objective_name(objective: str, known: list[str]) -> str | None:
    key = " ".join(str(objective).replace("_", " ").lower().split())
    key = ALIASES.get(key, key)
    return next((name for name in known if name.lower() == key), None)


def _estimate(m: Measure, seed: int) -> tuple[float, float, float, int]:
    """(value, CI low, CI high, games) of one measure of one point."""
    if m.spread is not None:
        num, den = m.spread
        return (spread_value(num, den), *spread_interval(num, den, seed, REPS), len(num))
    ratio = m.ratio
    assert ratio is not None  # a measure without a spread is a ratio
    n = len(ratio.num)
    value = ratio.value
    se = float(np.std(ratio.influence(), ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    z = norm_ppf(1 - ALPHA / 2)
    return value, value - z * se, value + z * se, n


def _difference(best: Measure, other: Measure, seed: int) -> Difference:
    """The paired difference of one point's objective to the best point's (same measure)."""
    if best.spread is not None and other.spread is not None:
        return spread_difference(best.spread, other.spread, seed=seed, reps=REPS)
    assert best.ratio is not None and other.ratio is not None  # a measure is one or the other
    return ratio_difference(best.ratio, other.ratio)


@dataclass
class _Point:
    labels: dict
    value: float  # the objective (nan where the point lacks it)
    data: Measure | None  # the objective's per-game data, for paired differences


def _best(points: list[_Point], seed: int) -> tuple[_Point, pd.DataFrame]:
    """The point minimising the objective, and every point's paired difference to it."""
    have = [p for p in points if p.data is not None and math.isfinite(p.value)]
    if not have:
        raise InputError("no setting of the sweep has a value for the objective; choose "
                         "another --objective")
    best = min(have, key=lambda p: p.value)
    rows = []
    for p in have:
        if p is best:
            rows.append({**p.labels, "value": p.value, "diff": 0.0, "diff_ci_low": 0.0,
                         "diff_ci_high": 0.0, "p_value": math.nan})
            continue
        assert best.data is not None and p.data is not None  # both in `have`
        d = _difference(best.data, p.data, seed)
        lo, hi = d.ci
        rows.append({**p.labels, "value": p.value, "diff": d.diff, "diff_ci_low": lo,
                     "diff_ci_high": hi, "p_value": d.p_value})
    table = pd.DataFrame(rows)
    others = table.p_value.notna().to_numpy()
    table["p_adjusted"] = math.nan
    if others.any():
        table.loc[others, "p_adjusted"] = holm(table.p_value[others].to_numpy())
    worse = (table.p_adjusted < ALPHA) & (table["diff"] > 0)
    table["best"] = [p is best for p in have]
    table["indistinguishable"] = ~worse
    return best, table


def _best_section(table: pd.DataFrame, measures_table: pd.DataFrame, objective: str,
                  best: _Point, keys: list[str], n_points: int, note: str) -> Section:
    obj = measures_table[measures_table.measure == objective]
    unit = obj.unit.iloc[0]
    spread = objective.startswith("seat spread")
    row = obj[(obj[keys] == pd.Series(best.labels)).all(axis=1)].iloc[0]
    s = Section("0-best", 0, f"Setting with the lowest {objective}",
                f"The objective is {objective}, minimised over the {n_points} settings. Every "
                "other setting is compared with the best by paired per-game differences (all "
                "points share their seed), two-sided at alpha 0.05 after Holm's correction "
                "across the other settings; indistinguishable = not significantly worse.")
    s.findings.append(f"The lowest {objective} is {_fmt(row.value, unit, spread)} "
                      f"[{_fmt(row.ci_low, unit, spread)}, {_fmt(row.ci_high, unit, spread)}] "
                      f"at {_where(best.labels)}.")
    same = table[table.indistinguishable & ~table.best]
    if len(table) == 1:
        s.findings.append("The sweep has one setting with this measure; nothing to compare.")
    elif same.empty:
        s.findings.append(f"Every other setting is significantly worse (paired, "
                          f"Holm-corrected across {len(table) - 1}).")
    else:
        names = "; ".join(f"{_where({k: r[k] for k in keys})} "
                          f"({_fmt(r['diff'], unit, spread, diff=True)}, p = "
                          f"{r['p_adjusted']:.2g})" for r in same.to_dict("records"))
        s.findings.append(f"{len(same)} of {len(table) - 1} other settings are statistically "
                          f"indistinguishable from it: {names}.")
    worst = table.loc[table.value.idxmax()]
    if not worst.best:
        s.findings.append(f"The highest is {_fmt(worst.value, unit, spread)} at "
                          f"{_where({k: worst[k] for k in keys})}, "
                          f"{_fmt(worst['diff'], unit, spread, diff=True)} "
                          f"[{_fmt(worst.diff_ci_low, unit, spread, diff=True)}, "
                          f"{_fmt(worst.diff_ci_high, unit, spread, diff=True)}] above the best.")
    if len(table) < n_points:
        s.findings.append(f"{n_points - len(table)} setting(s) have no {objective} (another "
                          "player count) and are left out.")
    s.tables["best"] = table
    if len(keys) == 2:
        scale = 100.0 if unit == "rate" else 1.0
        order = list(dict.fromkeys(obj[keys[0]])), list(dict.fromkeys(obj[keys[1]]))
        matrix, lo, hi = ((obj[col] * scale).to_frame().assign(r=obj[keys[0]], c=obj[keys[1]])
                          .pivot(index="r", columns="c", values=col)
                          .loc[order[0], order[1]].rename_axis(index=keys[0], columns=keys[1])
                          for col in ("value", "ci_low", "ci_high"))
        mark = (list(matrix.index).index(best.labels[keys[0]]),
                list(matrix.columns).index(best.labels[keys[1]]))
        shown = ("pp" if spread else "%") if unit == "rate" else unit
        s.figures["heatmap_objective"] = F.value_heatmap(
            matrix, lo, hi, f"{objective} ({shown})", note, f"{objective} ({shown})",
            fmt="{:.1f}" if unit == "rate" else "{:.2f}", mark=mark)
        s.captions["heatmap_objective"] = (f"{objective} ({shown}) at every setting with its "
                                           f"95% CI in brackets; the best is outlined. {note}")
    return s


def _knob_section(k: int, key: str, keys: list[str], rows: pd.DataFrame, objective: str,
                  best: _Point, note: str) -> Section:
    others = [x for x in keys if x != key]
    s = Section(f"{k}-knob_{key}", k, f"Balance against {key}",
                f"Each balance measure against {key} with 95% CIs (ratio measures: normal "
                f"intervals from per-game values; spreads: bootstrap over games, {REPS} "
                "resamples)" + ("; one line per setting of the other knobs" if others else "")
                + ". The findings follow the line through the best setting.")
    data = rows.copy()
    hue = None
    if others:
        data["other knobs"] = [_where({o: r[o] for o in others}) for r in data.to_dict("records")]
        hue = "other knobs"
    s.figures[f"knob_{key}"] = F.measure_panels(data, key, hue, f"Balance against {key}", note)
    s.captions[f"knob_{key}"] = (f"Every balance measure against {key}, with 95% CIs (rates "
                                 f"in %, spreads in pp). {note}")
    line = rows[(rows[others] == pd.Series({o: best.labels[o] for o in others})).all(axis=1)] \
        if others else rows
    fixed = f" (with {_where({o: best.labels[o] for o in others})})" if others else ""
    names = list(dict.fromkeys(line.measure))
    names.sort(key=lambda n: n != objective)
    for name in names:
        sub = line[line.measure == name].dropna(subset=["value"])
        if len(sub) < 2:
            continue
        unit, spread = sub.unit.iloc[0], name.startswith("seat spread")
        lo, hi = sub.loc[sub.value.idxmin()], sub.loc[sub.value.idxmax()]
        if lo.value == hi.value:
            s.findings.append(f"{name}{fixed} is {_fmt(lo.value, unit, spread)} at every "
                              f"{key}.")
            continue
        overlap = lo.ci_high >= hi.ci_low
        s.findings.append(
            f"{name}{fixed}: lowest at {key}={_text(lo[key])}, "
            f"{_fmt(lo.value, unit, spread)} [{_fmt(lo.ci_low, unit, spread)}, "
            f"{_fmt(lo.ci_high, unit, spread)}]; highest at "
            f"{key}={_text(hi[key])}, {_fmt(hi.value, unit, spread)} "
            f"[{_fmt(hi.ci_low, unit, spread)}, {_fmt(hi.ci_high, unit, spread)}]; the 95% "
            f"CIs {'overlap' if overlap else 'do not overlap'}.")
    s.tables[f"knob_{key}"] = line.reset_index(drop=True)
    return s


def sweep_report(folder, out=None, objective: str = "seat_spread", force: bool = False,
                 progress: bool = False) -> Path:
    """Write the report on a finished sweep to `out` (default DIR/report); returns index.html.

    `objective` names the measure to minimise (default: seat spread in win rate), e.g.
    "seat spread (points)", "game length (rounds)" or "mean score"."""
    folder = Path(folder)
    data = _read(folder)
    out = Path(out) if out is not None else folder / "report"
    game, runs = data["game"], data["runs"]
    mspec = replace(get_game(game).measures or MeasureSpec(), categories=(), economy=())
    keys = list(runs[0]["labels"])
    _check_complete(folder, data)
    with exclusive(out):  # one writer from the check of the folder to the last file
        return _report(folder, data, out, objective, force, progress, mspec, keys)


def _report(folder: Path, data: dict, out: Path, objective: str, force: bool, progress: bool,
            mspec: MeasureSpec, keys: list) -> Path:
    game, seed, runs = data["game"], data["seed"], data["runs"]
    players = {run["players"] for run in runs}
    rows, points, known, name, record, bar = [], [], [], None, None, None
    for run in runs:
        df = load(folder / run["folder"])
        found = [m for m in measures(df, mspec, None) if m.group in GROUPS]
        del df
        known += [m.name for m in found if m.name not in known]
        name = _objective_name(objective, known)
        if name is None and (len(players) == 1 or run is runs[-1]):
            raise InputError(f"unknown objective {objective!r}; measures are "
                             f"{'; '.join(known)}")
        if name is not None and record is None:  # refuse a taken folder before the work
            record = _record(data, name)
            _clear(out, record, force)
        values = {}
        for m in found:
            value, lo, hi, n = _estimate(m, seed)
            values[m.name] = value
            rows.append({**run["labels"], "measure": m.name, "group": m.group,
                         "unit": m.unit, "value": value, "ci_low": lo, "ci_high": hi,
                         "games": n})
        mine = next((m for m in found if m.name == name), None)
        points.append(_Point(run["labels"], math.nan if mine is None else values[mine.name],
                             mine))
        if bar is None:  # after the first point, so a refusal is the only output
            bar = tqdm(total=len(runs), unit="point", desc="sweep report",
                       disable=not progress)
        bar.update(1)
    # the last run named the objective (or refused), so its name and record are known
    assert name is not None and record is not None and bar is not None
    bar.close()
    table = pd.DataFrame(rows)
    lineups = "; ".join(dict.fromkeys(", ".join(map(str, run.get("lineup") or ["?"]))
                                      for run in runs))
    counts = "/".join(map(str, sorted(players)))
    note = (f"policies {lineups}; {counts} players; n = {data['games']:,} games per setting; "
            f"seed {seed}")
    best, best_table = _best(points, seed)
    with staged(out) as stage:  # the files appear when whole; provenance.json comes last
        into = stage.path
        _best_section(best_table, table, name, best, keys, len(points), note).save(into)
        for k, key in enumerate(keys, start=1):
            _knob_section(k, key, keys, table, name, best, note).save(into)
        everything = Section(f"{len(keys) + 1}-measures", len(keys) + 1, "Every measure at "
                             "every setting", "Value and 95% CI of each balance measure at "
                             "each point.")
        everything.tables["sweep_measures"] = table
        everything.save(into)
        (into / PROVENANCE_FILE).write_text(json.dumps(record, indent=1))
        write_report(into, Report(f"{game}: sweep over {', '.join(keys)}",
                                  {"points": len(runs), "games per point":
                                   f"{data['games']:,}", "seed": seed, "objective": name,
                                   "snapsim": __version__},
                                  _footer(record, folder)))
    return out / "index.html"
