"""`snapsim rebalance`: from diagnosis to prescription.

Given a game (its components and knobs, as one variant file), balance targets with their
tolerances and the edits a designer allows, the search (analysis.rebalance) finds the Pareto
front of balance against edit cost, each front point is measured again on fresh deals by the
paired comparison under greedy play, the recommended patch (the cheapest that meets every
target) also under the strong line-up, and an ablation takes each of its changes out in turn.
The result is a variant file, `patch.toml`, commented line by line with each change and its
measured effect, and a report of it (index.html, report.md, CSV tables, provenance.json).

An output folder is the search's journal: a run killed at any point and started again with
the same arguments resumes there and ends as an uninterrupted run with the same seed would; a
finished result is never overwritten without `force`.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..analysis.lineups import STRONG, strong_policy
from ..analysis.rebalance import (
    OPTIMIZERS,
    EditSpace,
    Evaluator,
    Journal,
    Outcome,
    Plan,
    Verification,
    edit_space,
    optimise,
    parse_targets,
    verify,
)
from ..analysis.rebalance.evaluate import JOURNAL
from ..analysis.rebalance.search import LEVELS, noise
from ..analysis.rebalance.targets import KINDS, Target, check_items, items, kind_of
from ..analysis.rebalance.verify import FRESH
from ..errors import InputError
from ..sim.agents import resolve_policy
from ..sim.backends import check_backend
from ..sim.checks import MAX_IN_MEMORY_GAMES, number, whole
from ..sim.files import read_text
from ..sim.locks import LOCK, exclusive
from ..sim.provenance import PROVENANCE_FILE, components_record
from ..sim.registry import get_game
from ..sim.runner import simulate_many
from ..sim.variants import file_tables, load_variant, parse_knobs, variant_text
from ..version import __version__
from . import figures as F
from .render import Report, Section, write_report

DEFAULT_BUDGET = 5.0  # minutes, verification included
PILOT_GAMES = 1000  # the base game's first games, to time a game and measure the noise
MIN_GAMES, MAX_GAMES = 1000, 100_000  # games per candidate the plan may choose
MIN_VERIFY = 20_000  # verification plays at least this many paired games per side
MAX_VERIFY = 100_000  # ... and by default at most this many
SEARCH_SHARE = 0.7  # of the budget, for the search (the rest verifies)
SETTINGS = "search.json"  # the search's identity and plan, for a resumed run
EXTRA_VERIFY = 6  # candidates met in the search verified beyond the front, if none held
COSTS = ("values", "size")
OWN_FILES = {SETTINGS, JOURNAL, PROVENANCE_FILE, LOCK}


@dataclass
class Rebalance:
    """The result of `rebalance`: the search, its verified front and the recommended patch.

    Attributes
    ----------
    game : str
        The game rebalanced.
    targets : list of Target
        The balance targets with their tolerances.
    space : EditSpace
        What could change (each variable with its range).
    plan : Plan
        Games per candidate, screening runs and the optimiser.
    outcome : Outcome
        Every candidate played, in order, and the search's Pareto front.
    verified : dict of str to Verification
        The front's points (and any candidate verified after them), measured again on fresh
        deals under greedy play: "front 1" is the cheapest.
    recommended : str or None
        The label of the recommended patch in `verified` (None: the base game already meets
        every target, or no candidate was found).
    strong : Verification or None
        The recommended patch under the strong line-up.
    ablation : dict of str to Verification
        The patch without each of its changes, under greedy play.
    provenance : dict
        What made it: the base variant's file and SHA-256, targets, edits, players, seeds,
        games, candidates played, optimiser, snapsim version.
    """

    game: str
    targets: list[Target]
    space: EditSpace
    plan: Plan
    outcome: Outcome
    verified: dict[str, Verification]
    recommended: str | None
    strong: Verification | None
    ablation: dict[str, Verification]
    provenance: dict
    base_checks: pd.DataFrame | None = None
    notes: list[str] = field(default_factory=list)

    # ------------------------------------------------------------ what it found

    @property
    def patch_changes(self) -> list[str]:
        """The recommended patch's changes in plain words."""
        if self.recommended is None:
            return []
        return self.space.changes(self.verified[self.recommended].cand)

    @property
    def met(self) -> bool:
        """The recommended patch meets every target under greedy play."""
        return self.recommended is not None and self.verified[self.recommended].met

    @property
    def pareto(self) -> pd.DataFrame:
        """One row per verified candidate, cheapest first: its cost, changes, the search's
        worst ratio, the verified worst ratio (at most 1: every target met), whether every
        target is met and whether every interval lies within its tolerance, and each
        target's verified value per player count."""
        rows = []
        size = self.plan.size_cost
        search_ratio = {e.cand: e.ratio for e in self.outcome.evaluations}
        for label, v in self.verified.items():
            row = {"candidate": label, "cost": self.space.cost(v.cand, size),
                   "changes": "; ".join(self.space.changes(v.cand)) or "none",
                   "search_ratio": search_ratio.get(v.cand, math.nan),
                   "verified_ratio": v.ratio, "met": v.met,
                   "sure": bool(v.checks.sure.all()), "recommended": label == self.recommended}
            for r in v.checks.itertuples():
                row[f"{r.target} ({r.players}p)"] = r.value
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def patch(self) -> str | None:
        """The recommended variant file's text (the base file with the changes written in,
        each commented), or None when there is nothing to change."""
        if self.recommended is None or not self.verified[self.recommended].cand:
            return None
        return patch_text(self)

    def summary(self) -> str:
        """A few lines: what was searched, the base game, the verdict, the recommended
        patch's changes with their measured effects, and the front."""
        p = self.provenance
        counts = ", ".join(map(str, self.space.players))
        budget = ("" if p["budget_minutes"] is None
                  else f" of a {p['budget_minutes']:g}-minute budget")
        lines = [f"rebalance {self.game} ({counts} players): targets "
                 f"{', '.join(t.text for t in self.targets)}; edits "
                 f"{', '.join(self.space.specs)} ({len(self.space.vars)} values may change)",
                 f"searched {p['evaluations']:,} candidates of {self.plan.games:,} games each "
                 f"(seed {p['seed']}, {self.plan.optimizer} optimiser, {p['seconds']:.0f} s"
                 f"{budget}); "
                 f"verified on {p['verify_games']:,} fresh paired games per side (seed "
                 f"{p['verify_seed']})"]
        if self.base_checks is not None:
            lines.append("before: " + _checks_text(self.base_checks, "baseline"))
        lines += self.verdict()
        lines += self.notes
        table = self.pareto
        if len(table):
            best = table.sort_values("verified_ratio").groupby("cost", sort=True).head(1)
            front = [f"{int(r.cost)} → {r.verified_ratio:.2f}{' (met)' if r.met else ''}"
                     for r in best.sort_values("cost").itertuples()]
            lines.append("verified, best per cost (changes → worst value/tolerance): "
                         + "; ".join(front))
        return "\n".join(lines)

    def verdict(self) -> list[str]:
        """The verdict in sentences from the numbers."""
        if self.base_checks is not None and self.base_checks.met.all():
            return ["the base game already meets every target: nothing to change"]
        if self.recommended is None:
            return ["no candidate was found: widen the edit space or the budget"]
        v = self.verified[self.recommended]
        n = len(v.cand)
        out = []
        if v.met:
            who = "under greedy play"
            if self.strong is not None:
                who += (" and under " + self.strong.lineup if self.strong.met else
                        f", not under {self.strong.lineup}")
            out.append(f"recommended patch ({n} change{'s' if n != 1 else ''}) meets every "
                       f"target {who}:")
        else:
            worst = v.checks.loc[v.checks.ratio.idxmax()]
            out.append(f"no patch found meets every target; the best trade-off ({n} "
                       f"change{'s' if n != 1 else ''}) still misses {worst.target} at "
                       f"{worst.players} players by {_excess(worst)}:")
        effects = self.change_effects()
        for change in self.space.changes(v.cand):
            out.append(f"  - {change}{effects.get(change, '')}")
        out.append("  after, greedy: " + _checks_text(v.checks, "value"))
        if self.strong is not None:
            out.append(f"  after, {self.strong.lineup}: " + _checks_text(self.strong.checks,
                                                                         "value"))
            one = self.one_lineup_only()
            if one:
                out.append("  met under one line-up only: " + "; ".join(one))
        return out

    def one_lineup_only(self) -> list[str]:
        """Targets met under greedy play but not the strong line-up, or the other way."""
        if self.strong is None or self.recommended is None:
            return []
        g = self.verified[self.recommended].checks.set_index(["players", "target"]).met
        s = self.strong.checks.set_index(["players", "target"]).met
        out = []
        for key in g.index.intersection(s.index):
            if g[key] != s[key]:
                who = "greedy" if g[key] else self.strong.lineup
                out.append(f"{key[1]} ({key[0]} players) under {who} only")
        return out

    def change_effects(self, short: bool = False) -> dict[str, str]:
        """Each change's own contribution, from the ablation: how each target's value moves
        when the change is taken out (with `short`, only that, for a line comment)."""
        out = {}
        if self.recommended is None:
            return out
        patch = self.verified[self.recommended]
        for label, v in self.ablation.items():
            change = label.removeprefix("without ")
            merged = v.checks.merge(patch.checks, on=["players", "target"],
                                    suffixes=("", "_patch"))
            parts = []
            for r in merged.itertuples():
                delta = r.value_patch - r.value
                unit = _unit(self.game, r.target)
                parts.append(f"{r.target} {delta:+.2f}{unit}")
            if short:
                out[change] = f"; its effect: {', '.join(parts)}"
            elif v.met:
                out[change] = f"  (its effect: {', '.join(parts)}; without it every target " \
                              "is still met)"
            else:
                out[change] = f"  (its effect: {', '.join(parts)}; without it a target is " \
                              "missed)"
        return out

    # ------------------------------------------------------------ files

    def write(self, out, force: bool = False) -> Path:
        """patch.toml, pareto.csv and pareto.png, the verification and ablation tables,
        evaluations.csv, report.md, a self-contained index.html and provenance.json;
        returns index.html's path."""
        out = Path(out)
        if not force:
            _check_free(out, self.provenance)
        out.mkdir(parents=True, exist_ok=True)
        text = self.patch
        patch_file = out / "patch.toml"
        if text is not None:
            patch_file.write_text(text)
        elif patch_file.exists():
            patch_file.unlink()
        note = (f"{self.provenance['verify_games']:,} fresh paired games per side, seed "
                f"{self.provenance['verify_seed']}")
        s = Section("0-verdict", 0, "Verdict", "What the search found, verified on fresh deals: "
                    "each target's value before and after with 95% intervals.")
        s.findings = self.verdict() + self.notes
        checks = self.checks_table()
        if len(checks):
            s.tables["targets"] = checks
        s.save(out)
        s = Section("1-front", 1, "Smallest changes against balance (Pareto front)",
                    "For each cost (printed values changed), the best balance found: the worst "
                    "target's value over its tolerance (at most 1: every target met), as the "
                    "search measured it and as verification measured it again.")
        front = self.pareto
        if len(front):
            s.tables["pareto"] = front
            s.figure("pareto", F.pareto_front(front, self.evaluations_table(), note),
                     "Worst target value over its tolerance against the number of changed "
                     "values: every candidate the search played (grey), the verified front "
                     "(blue; filled: every target met); dashed: the tolerance. " + note)
        s.findings = [f"{int(r.cost)} change(s): worst ratio {r.verified_ratio:.2f} verified "
                      f"({r.search_ratio:.2f} in the search){', every target met' if r.met else ''}"
                      for r in front.itertuples()]
        s.save(out)
        s = Section("2-ablation", 2, "Each change's own contribution (ablation)",
                    "The recommended patch played again without one change at a time, under "
                    "greedy play: how far each target moves back without it.")
        ablation = self.ablation_table()
        if len(ablation):
            s.tables["ablation"] = ablation
            s.findings = [f"{k}{v}" for k, v in self.change_effects().items()]
        else:
            s.findings = ["The patch is one change (or none): its effect is the patch's, in the "
                          "verdict."]
        s.save(out)
        s = Section("3-comparison", 3, "The patch against the base game, every measure",
                    "The paired comparison of `snapsim compare` for the recommended patch under "
                    "greedy play (the same numbers `snapsim compare --variant patch.toml` gives "
                    "on these deals).")
        if self.recommended is not None and len(self.verified[self.recommended].table):
            s.tables["comparison"] = self.verified[self.recommended].table
        s.save(out)
        self.evaluations_table().to_csv(out / "evaluations.csv", index=False)
        (out / PROVENANCE_FILE).write_text(json.dumps(self.provenance, indent=1))
        return write_report(out, Report(f"{self.game}: rebalance",
                                        {"targets": ", ".join(t.text for t in self.targets),
                                         "edits": ", ".join(self.space.specs),
                                         "snapsim": __version__}, self.footer()))

    def checks_table(self) -> pd.DataFrame:
        """Every verification's target checks, long form: candidate, line-up, target."""
        parts = []
        if self.recommended is not None:
            parts.append(self.verified[self.recommended].checks.assign(
                candidate=self.recommended, line_up=self.verified[self.recommended].lineup))
        if self.strong is not None:
            parts.append(self.strong.checks.assign(candidate=self.recommended,
                                                   line_up=self.strong.lineup))
        if not parts:
            return pd.DataFrame()
        df = pd.concat(parts, ignore_index=True)
        first = ["candidate", "line_up", "players", "target", "tolerance"]
        return df[first + [c for c in df.columns if c not in first]]

    def ablation_table(self) -> pd.DataFrame:
        parts = [v.checks.assign(without=label.removeprefix("without "))
                 for label, v in self.ablation.items()]
        if not parts:
            return pd.DataFrame()
        df = pd.concat(parts, ignore_index=True)
        return df[["without"] + [c for c in df.columns if c != "without"]]

    def evaluations_table(self) -> pd.DataFrame:
        """Every candidate the search played: cost, worst ratio, games, changes."""
        size = self.plan.size_cost
        return pd.DataFrame([{"order": i, "cost": self.space.cost(e.cand, size),
                              "ratio": e.ratio, "games": e.games,
                              "invalid": e.invalid or "",
                              "changes": "; ".join(self.space.changes(e.cand)) or "none"}
                             for i, e in enumerate(self.outcome.evaluations)])

    def footer(self) -> str:
        p = self.provenance
        comps = p["components"]
        return (f"Made by snapsim {p['snapsim']} from {comps['name']} (sha256 "
                f"{(comps['sha256'] or '')[:12]}...); targets {', '.join(p['targets'])}; "
                f"edits {', '.join(p['edits'])}; players {', '.join(map(str, p['players']))}; "
                f"search seed {p['seed']}, {p['games']:,} games per candidate, "
                f"{p['evaluations']:,} candidates; verification seed {p['verify_seed']}, "
                f"{p['verify_games']:,} games per side; line-ups {p['line_up']} and "
                f"{p.get('strong') or 'no strong line-up'}.")


def _unit(game: str, key: str) -> str:
    kind = kind_of(key)
    unit = KINDS[kind].unit
    if kind == "length":
        return " " + (get_game(game).measures.length or "rounds")
    return {"pp": " pp", "points": " points"}[unit]


def _excess(row) -> str:
    """How far a missed target's value is beyond its tolerance, in its unit."""
    if row.target == "length":
        lo, hi = (float(x) for x in row.tolerance.split("=", 1)[1].split("-"))
        return f"{max(lo - row.value, row.value - hi):.2f}"
    tol = float(row.tolerance.split("=", 1)[1])
    return f"{row.value - tol:.2f}"


def _checks_text(checks: pd.DataFrame, column: str) -> str:
    """"seat_spread 1.4 pp [0.8, 2.5] (≤ 2, met)" for each target and player count."""
    out = []
    for r in checks.itertuples():
        v = getattr(r, column)
        lo = getattr(r, "baseline_ci_low" if column == "baseline" else "ci_low")
        hi = getattr(r, "baseline_ci_high" if column == "baseline" else "ci_high")
        ok = getattr(r, "baseline_ratio" if column == "baseline" else "ratio") <= 1
        surely = column != "baseline" and r.sure
        unit = " pp" if KINDS[kind_of(r.target)].unit == "pp" else ""
        worst = f", {r.worst}" if column != "baseline" and r.worst else ""
        out.append(f"{r.target} ({r.players}p) {v:.2f}{unit} [{lo:.2f}, {hi:.2f}] "
                   f"({r.tolerance.split('=', 1)[1]}: "
                   f"{'met surely' if surely else 'met' if ok else 'missed'}{worst})")
    return "; ".join(out)


# ---------------------------------------------------------------- the patch file


def patch_text(result: Rebalance) -> str:
    """The base variant file with the recommended changes written in: each changed line
    commented with its old value, a header listing every change with its measured effect,
    and the knobs in [knobs] / [knobs.players.N]."""
    space = result.space
    cand = result.verified[result.recommended].cand
    effects = result.change_effects()
    short = result.change_effects(short=True)
    changes = [(space.vars[k].path, v, f"rebalance: was {space.vars[k].base}"
                + short.get(space.vars[k].change(v), ""))
               for k, v in cand if not space.vars[k].knob]
    knobs = parse_knobs(space.game, space.tables_of(cand).get("knobs"), "patch")
    v = result.verified[result.recommended]
    head = [f"rebalance: the recommended patch of `snapsim rebalance {result.game}`, "
            f"snapsim {__version__}",
            f"targets: {', '.join(t.text for t in result.targets)}; players "
            f"{', '.join(map(str, space.players))}",
            f"verified on {v.games:,} fresh paired games per side (seed {v.seed}), greedy: "
            f"{'every target met' if v.met else 'a target is still missed'}",
            "changes, each with its own effect (the patch without it, under greedy play):"]
    head += [f"  {c}{effects.get(c, '')}" for c in space.changes(cand)]
    return variant_text(space.base.path, changes, knobs, head)


# ---------------------------------------------------------------- running it


def _players(spec, players) -> tuple[int, ...]:
    counts = spec.measures.levers.player_counts
    if players is None:
        return tuple(counts)
    if isinstance(players, int | np.integer) and not isinstance(players, bool):
        players = [players]
    if isinstance(players, str) or not hasattr(players, "__iter__"):
        raise InputError(f"players must be a player count or a list of them, got {players!r}")
    out = []
    for n in players:
        whole(n, "players", 1)
        if n not in counts:
            raise InputError(f"{spec.name} is rebalanced at {', '.join(map(str, counts))} "
                             f"players, not {n}")
        out.append(int(n))
    if not out:
        raise InputError("give at least one player count")
    return tuple(dict.fromkeys(out))


def _strong_lineup(game: str, choice, counts):
    """(policy per player count, name) of the strong line-up; None when skipped."""
    if choice is None or str(choice).strip().lower() == "none":
        return None, None
    choice = str(choice).strip()
    if choice != STRONG:
        resolve_policy(game, choice)  # an unknown policy fails here, before any game
    chosen = {n: strong_policy(game, n, choice)[0] for n in counts}
    if any(p is None for p in chosen.values()):
        missing = [str(n) for n, p in chosen.items() if p is None]
        raise InputError(f"no strong line-up for {game} at {', '.join(missing)} players: no "
                         "tuned policy is bundled; give --strong POLICY or --strong none")
    names = list(dict.fromkeys(chosen.values()))
    return chosen, ", ".join(names)


def _check_free(out: Path, record: dict) -> None:
    """Refuse a folder that holds something other than this search's own files."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; give a folder for the rebalance")


def _claim(out: Path, identity: dict, force: bool) -> dict | None:
    """The stored plan when `out` holds an unfinished search of this identity (to resume);
    None for a new search. A finished result, another search's files or foreign files are
    refused unless `force`, which clears them."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; give a folder for the rebalance")
    if not out.exists():
        return None
    files = {p.name for p in out.iterdir()}
    if not files - {LOCK}:
        return None
    settings = out / SETTINGS
    stored = None
    if settings.exists():
        try:
            stored = json.loads(read_text(settings))
        except (OSError, ValueError):
            stored = None
    why = None
    if not isinstance(stored, dict) or "identity" not in stored:
        why = "files that are not a snapsim rebalance"
    elif stored["identity"] != identity:
        old = stored["identity"]
        key = next(k for k in identity if old.get(k) != identity[k])
        why = f"another rebalance ({key} {old.get(key)!r}, not {identity[key]!r})"
    elif stored.get("complete"):
        why = "a finished rebalance of these settings"
    if why is None:
        return stored["plan"]
    if not force:
        raise InputError(f"{out} holds {why}; choose a new --out, or add --force to replace "
                         "it")
    for p in out.iterdir():
        if p.name == LOCK:
            continue
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    return None


def _pilot(space: EditSpace, targets, lineup, seed, threads, workers, scheduler):
    """(seconds per game and player count, games per candidate that measure every target's
    items to a quarter of its tolerance) from the base game's first PILOT_GAMES games."""
    game = space.game
    jobs = [(space.base.config(n), lineup(n)) for n in space.players]
    simulate_many(game, [(c, p) for c, p in jobs], 2, seed, threads, workers, scheduler)
    start = time.perf_counter()
    tables = simulate_many(game, jobs, PILOT_GAMES, seed, threads, workers, scheduler)
    per_game = (time.perf_counter() - start) / (PILOT_GAMES * len(jobs))
    spec = get_game(game)
    need = MIN_GAMES
    for (config, pols), df in zip(jobs, tables, strict=True):
        n = spec.players(config)
        cards = None
        if any(t.kind == "cards" for t in targets):
            group = spec.measures.levers.card_group
            cards = [(name, r) for name, grp, _, r in
                     spec.measures.extra(config, pols, PILOT_GAMES, seed, threads)
                     if grp == group]
            per_game *= 1.5  # the card values replay the games' details
        for t in targets:
            it = items(t, game, df, config, cards)
            se = it.influence().std(axis=0, ddof=1)  # one game's spread, per item
            if KINDS[t.kind].shape == "spread":
                allowed = t.tolerance() / 4
                se = se * math.sqrt(2)
            else:
                allowed = t.band(n)[1] / 4
            worst = float(np.nanmax(se)) if np.isfinite(se).any() else 0.0
            if allowed > 0 and worst > 0:
                need = max(need, math.ceil((worst / allowed) ** 2))
    return per_game, need


def rebalance(game: str, targets, edits, components=None, players=None, games: int | None = None,
              budget: float | None = DEFAULT_BUDGET, strong: str | None = STRONG, seed: int = 1,
              out=None, force: bool = False, threads: int | None = None,
              workers: int | None = None, scheduler: str | None = None,
              optimizer: str = "surrogate", cost: str = "values",
              verify_games: int | None = None, evaluations: int | None = None,
              max_cost: int = 20, progress: bool = False) -> Rebalance:
    """Search the smallest changes that bring `game` within `targets`, then verify them.

    Parameters
    ----------
    game : str
        "snapshot", "yosemite" or "shutterbug".
    targets : list of str
        Balance targets, "NAME=TOL": seat_spread=2 (pp), first_player=2 (pp from fair),
        assignments=3 (pp from fair), cards=0.8 (points per die, Snapshot), length=A-B.
    edits : list of str
        Edit spaces: "start_tokens", "cards.prestige:±1", "assignments[Live Fast].chart",
        "knob:photo_target=7-9" (a range left out takes the game's default).
    components : str or path or component set, optional
        The base variant (default: the bundled components and rules).
    players : int or list of int, optional
        Player counts every target must hold at (default: every count the game supports).
    games : int, optional
        Games per candidate (default: enough to measure each target's items to a quarter of
        its tolerance, within the budget).
    budget : float or None
        Minutes for the whole run, verification included (default 5); None: no limit.
    strong : str or None
        The strong line-up that verifies the recommended patch: "tuned" (the bundled policy
        tuned for each player count), a policy, or None to skip.
    seed : int
        Root seed of the search; its verification plays seed + 7919 (fresh deals).
    out : str or path, optional
        Folder for the journal and the result; an unfinished search there resumes.
    force : bool
        Replace a finished result (or another run's files) in `out`.
    threads, workers, scheduler :
        Where games run (numba threads; a local process pool; Dask), as for `simulate`.
    optimizer : str
        "surrogate" (kept), or optuna's "nsga2" or "tpe" (optional dependency).
    cost : str
        "values" (printed values changed) or "size" (their total change).
    verify_games : int, optional
        Paired games per side of each verification (default: twice the games per candidate,
        20,000-100,000).
    evaluations : int, optional
        At most this many candidates played (default: as many as the budget allows).
    max_cost : int
        The largest edit cost the search proposes.
    progress : bool
        Show progress bars.

    Returns
    -------
    Rebalance
        `.summary()`, `.pareto`, `.patch` (the variant file's text) and `.write(dir)`.
    """
    spec = get_game(game)
    game = spec.name
    whole(seed, "seed", 0)
    if games is not None:
        whole(games, "games", 10, MAX_IN_MEMORY_GAMES)
    if verify_games is not None:
        whole(verify_games, "verify_games", 10, MAX_IN_MEMORY_GAMES)
    if evaluations is not None:
        whole(evaluations, "evaluations", 1, 1_000_000)
    whole(max_cost, "max_cost", 1, 1000)
    if budget is not None:
        number(budget, "budget (minutes)", 0.1, 7 * 24 * 60)
    if optimizer not in OPTIMIZERS:
        raise InputError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}")
    if cost not in COSTS:
        raise InputError(f"cost must be 'values' or 'size', got {cost!r}")
    check_backend(threads, workers, scheduler)
    tlist = parse_targets(game, targets)
    base = load_variant(game, components)
    check_items(tlist, base.components)
    counts = _players(spec, players)
    for n in counts:
        base.config(n)
    space = edit_space(game, base, dict(file_tables(base.path)), edits, counts)
    strong_of, strong_name = _strong_lineup(game, strong, counts)
    identity = {"snapsim": __version__, "game": game,
                "components": components_record(game, base.components)["sha256"],
                "targets": [t.text for t in tlist], "edits": list(space.specs),
                "players": list(counts), "seed": seed, "games": games,
                "optimizer": optimizer, "cost": cost, "max_cost": max_cost,
                "evaluations": evaluations, "strong": strong_name,
                "verify_games": verify_games}
    args = dict(game=game, tlist=tlist, space=space, seed=seed, threads=threads,
                workers=workers, scheduler=scheduler, budget=budget, games=games,
                optimizer=optimizer, cost=cost, verify_games=verify_games,
                evaluations=evaluations, max_cost=max_cost, progress=progress,
                strong_of=strong_of, strong_name=strong_name, identity=identity)
    if out is None:
        return _run(folder=None, stored=None, **args)
    out = Path(out)
    with exclusive(out):
        stored = _claim(out, identity, force)
        result = _run(folder=out, stored=stored, **args)
        result.write(out, force=True)
        settings = json.loads((out / SETTINGS).read_text())
        settings["complete"] = True
        (out / SETTINGS).write_text(json.dumps(settings, indent=1))
    return result


def _run(game, tlist, space, seed, threads, workers, scheduler, budget, games, optimizer,
         cost, verify_games, evaluations, max_cost, progress, strong_of, strong_name,
         identity, folder, stored) -> Rebalance:
    started = time.monotonic()
    spec = get_game(game)
    default = spec.default_policy

    def greedy(n):
        return [default] * n

    if stored is None:
        plan = _make_plan(space, tlist, seed, threads, workers, scheduler, budget, games,
                          optimizer, cost, verify_games, evaluations, max_cost, greedy)
        if folder is not None:
            (folder / SETTINGS).write_text(json.dumps({"identity": identity, "plan": plan},
                                                      indent=1))
    else:
        plan = stored
    deadline = None
    if budget is not None:  # the search stops in time for its verification
        deadline = started + max(budget * 60 * SEARCH_SHARE,
                                 budget * 60 - plan.get("verify_seconds", 0.0))
    search_plan = Plan(plan["games"], plan["screen"], plan["rounds"], max_cost,
                       cost == "size", optimizer, plan["evaluations"], deadline)
    with tqdm(total=len(space.players) * (plan["screen"] + 1), unit="run",
              desc=f"{game} rebalance: search", disable=not progress) as bar:
        evaluator = Evaluator(space, tlist, search_plan.games, seed, greedy, threads, workers,
                              scheduler, Journal(folder), _Bar(bar, len(space.players)))
        try:
            outcome = optimise(evaluator, search_plan, seed)
        finally:
            evaluator.close()
    vgames = plan["verify_games"]
    vseed = seed + FRESH
    base = outcome.evaluations[0]
    verified, recommended, strong_v, ablation, notes = {}, None, None, {}, []
    checks_of_base = None
    with tqdm(total=0, unit="candidate", desc=f"{game} rebalance: verification",
              disable=not progress) as bar:
        labels = _near_front(outcome, space, tlist, cost == "size")
        bar.total += len(labels) + 1
        bar.refresh()
        verified = verify(space, tlist, {"base": (), **labels}, greedy, default, vgames, vseed,
                          threads, workers, scheduler)
        bar.update(len(labels) + 1)
        checks_of_base = verified.pop("base").checks
        met = [k for k, v in verified.items() if v.met]
        if not met and not checks_of_base.met.all():
            extra = _more_candidates(outcome, space, cost == "size", set(labels.values()))
            if extra:
                more = {f"candidate {i + 1}": c for i, c in enumerate(extra)}
                bar.total += len(more)
                bar.refresh()
                verified.update(verify(space, tlist, more, greedy, default, vgames, vseed,
                                       threads, workers, scheduler))
                bar.update(len(more))
                met = [k for k, v in verified.items() if v.met]
        if checks_of_base.met.all():
            recommended = None
        elif met:
            recommended = min(met, key=lambda k: (space.cost(verified[k].cand, cost == "size"),
                                                  verified[k].ratio))
        elif verified:
            recommended = min(verified, key=lambda k: (verified[k].ratio,
                                                       space.cost(verified[k].cand)))
        if recommended is not None:
            def run(cands, lineup=greedy, name=default, tables=False):
                bar.total += len(cands)
                bar.refresh()
                got = verify(space, tlist, cands, lineup, name, vgames, vseed, threads,
                             workers, scheduler, tables=tables)
                bar.update(len(cands))
                return got

            # take out each change in turn; one whose removal still meets every target is
            # not needed, and the cheaper patch is kept (and taken apart again)
            pruned = 0
            while len(verified[recommended].cand) > 1:
                patch = verified[recommended].cand
                ablation = run({f"without {space.vars[k].change(v)}":
                                tuple(c for c in patch if c != (k, v)) for k, v in patch})
                spare = [k for k, v in ablation.items() if v.met]
                if not verified[recommended].met or not spare:
                    break
                pruned += 1
                best = min(spare, key=lambda k: ablation[k].ratio)
                recommended = f"pruned {pruned}"
                verified[recommended] = ablation[best]
                ablation = {}
            if pruned:
                notes.append(f"the search's patch carried {pruned} change(s) that verification "
                             "showed were not needed; they are left out")
            patch = verified[recommended].cand
            verified[recommended] = run({recommended: patch}, tables=True)[recommended]
            if strong_of is not None:
                strong_v = run({recommended: patch}, lambda n: [strong_of[n]] * n,
                               strong_name)[recommended]
    if outcome.stopped == "budget":
        played = len({e.cand for e in outcome.evaluations})
        cap = math.ceil(outcome.used - 1e-9)
        notes.append(f"the search stopped at its budget after {played:,} candidates (a "
                     "larger --budget may find a cheaper patch; --games "
                     f"{plan['games']} --evaluations {cap} repeats this search exactly)")
    record = {"snapsim": __version__, "game": game,
              "components": components_record(game, space.base.components),
              "knobs": {k: list(v) if isinstance(v, tuple) else v
                        for k, v in space.base.knobs.common.items()},
              "targets": [t.text for t in tlist], "edits": list(space.specs),
              "players": list(space.players), "seed": seed, "games": plan["games"],
              "screening_runs": plan["screen"], "rounds": plan["rounds"],
              "evaluations": len(outcome.evaluations), "evaluation_cap": plan["evaluations"],
              "optimizer": optimizer, "cost": cost, "max_cost": max_cost,
              "budget_minutes": budget, "verify_seed": vseed, "verify_games": vgames,
              "line_up": default, "strong": strong_name,
              "seconds": round(time.monotonic() - started, 1),
              "variables": len(space.vars), "stopped": outcome.stopped}
    del base
    return Rebalance(game, tlist, space, search_plan, outcome, verified, recommended,
                     strong_v, ablation, record, checks_of_base, notes)


class _Bar:
    """The search's progress: one tick per candidate (its runs at every player count),
    growing the total as rounds of proposals are made so it stays true."""

    def __init__(self, bar, per: int):
        self.bar, self.per = bar, per

    def update(self, k: int) -> None:
        if self.bar.n + k > self.bar.total:
            self.bar.total = self.bar.n + k
        self.bar.update(k)


NEAR = 3  # candidates verified per cost of the front: its point and those within its noise


def _near_front(outcome: Outcome, space: EditSpace, targets, size: bool) -> list:
    """The front's points, each with up to NEAR - 1 others of the same cost whose worst ratio
    is within twice the search's noise of it: at the search's n two candidates that close
    cannot be told apart, and verification on more games decides between them."""
    games = max(e.games for e in outcome.evaluations)
    valid = [e for e in outcome.evaluations if e.invalid is None and e.cand
             and math.isfinite(e.ratio) and e.games == games]
    out: dict = {}
    for i, point in enumerate((e for e in outcome.front if e.cand), start=1):
        c = space.cost(point.cand, size)
        near = sorted((e for e in valid if space.cost(e.cand, size) == c
                       and e.ratio <= point.ratio + 2 * noise(e, targets)
                       and e.cand != point.cand), key=lambda e: e.ratio)
        out[f"front {i}"] = point.cand
        seen = set(out.values())
        for j, e in enumerate((e for e in near if e.cand not in seen), start=1):
            if j >= NEAR:
                break
            out[f"front {i}, near {j}"] = e.cand
    return out


def _more_candidates(outcome: Outcome, space: EditSpace, size: bool, seen: set) -> list:
    """Candidates the search measured as meeting every target, beyond the front's, cheapest
    first: verified when no front point held on fresh deals."""
    games = max(e.games for e in outcome.evaluations)
    met = sorted((e for e in outcome.evaluations
                  if e.invalid is None and e.ratio <= 1.0 and e.cand not in seen
                  and e.games == games),
                 key=lambda e: (space.cost(e.cand, size), e.ratio))
    return [e.cand for e in met[:EXTRA_VERIFY]]


def _make_plan(space, tlist, seed, threads, workers, scheduler, budget, games, optimizer,
               cost, verify_games, evaluations, max_cost, lineup) -> dict:
    """Games per candidate, screening runs, rounds, the cap on candidates and verification
    games, from the pilot's timing and noise and the budget."""
    per_game, need = _pilot(space, tlist, lineup, seed, threads, workers, scheduler)
    chosen = games or int(min(MAX_GAMES, max(MIN_GAMES, math.ceil(need / 500) * 500)))
    screen = int(min(400, max(16, 2 * len(space.vars))))
    rounds = 8
    counts = len(space.players)
    vgames = verify_games or min(MAX_VERIFY, max(MIN_VERIFY, 2 * chosen))
    levels = 1 + sum(1 for k in LEVELS if k <= max_cost)
    expected = 1 + screen + rounds * levels
    cap = evaluations
    if budget is not None:
        seconds = budget * 60
        verify_cost = vgames * counts * per_game * (levels + EXTRA_VERIFY + 4)
        search_seconds = max(seconds * SEARCH_SHARE, seconds - verify_cost)
        per_eval = chosen * counts * per_game
        if games is None and expected * per_eval > search_seconds:
            chosen = int(max(MIN_GAMES, (search_seconds / (expected * counts * per_game))
                             // 500 * 500))
            per_eval = chosen * counts * per_game
            vgames = verify_games or min(MAX_VERIFY, max(MIN_VERIFY, 2 * chosen))
        if expected * per_eval > search_seconds:
            fit = int(search_seconds / per_eval)
            cap = max(2, fit) if cap is None else min(cap, max(2, fit))
    return {"games": chosen, "screen": screen, "rounds": rounds, "evaluations": cap,
            "verify_games": vgames, "seconds_per_game": per_game, "games_needed": need,
            "verify_seconds": vgames * counts * per_game * (levels + EXTRA_VERIFY + 4)}
