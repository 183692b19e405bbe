"""`snapsim rebalance`: from diagnosis to prescription.

Given a game (its components and knobs, as one variant file), balance targets with their
tolerances, the edits a designer allows and the line-ups a fix must hold for (greedy players
and the strong line-up by default), the search (analysis.rebalance) finds the Pareto front of
the worst case over line-ups and targets against edit cost. Each front point is measured
again on fresh deals under every line-up; the cheapest that meets every target under every
line-up is chosen there (an ablation takes each of its changes out in turn, and a smaller
patch it finds is a candidate like any other), then confirmed on a second set of fresh deals
that did not choose it: its numbers are the confirmation's, and a patch is recommended only
when the confirmation meets every target under every line-up. The result is a variant file,
`patch.toml`, commented line by line with each change and its measured effect, and a report
of it (index.html, report.md, CSV tables, provenance.json).

The search's budget is a number of candidates, never a time, so the same seed and settings
give the same patch on any machine. An output folder is the search's journal: a run killed
at any point and started again with the same arguments resumes there and ends as an
uninterrupted run with the same seed would; a finished result is never overwritten without
`force`.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..analysis.extras import extra_measures
from ..analysis.rebalance import (
    OPTIMIZERS,
    EditSpace,
    Evaluator,
    Journal,
    LineUp,
    Outcome,
    Plan,
    Verification,
    edit_space,
    effect,
    optimise,
    parse_lineups,
    parse_targets,
    verify,
)
from ..analysis.rebalance.evaluate import JOURNAL
from ..analysis.rebalance.lineups import DEFAULT as DEFAULT_LINEUPS
from ..analysis.rebalance.search import LEVELS
from ..analysis.rebalance.targets import KINDS, Target, check_items, items, kind_of
from ..analysis.rebalance.verify import CONFIRM, EXTRA_VERIFY, FRESH, choose_patch
from ..analysis.verdict import Side, dealt_first, fill_tolerances, verdict_of
from ..errors import InputError
from ..sim import cache as run_cache
from ..sim.backends import check_backend
from ..sim.checks import INT64_MAX, MAX_IN_MEMORY_GAMES, entries, flag, number, whole
from ..sim.defaults import REBALANCE_CANDIDATES as DEFAULT_CANDIDATES
from ..sim.defaults import REBALANCE_COSTS as COSTS
from ..sim.files import read_json, write_text
from ..sim.locks import exclusive
from ..sim.provenance import PROVENANCE_FILE, components_record
from ..sim.registry import get_game
from ..sim.runner import simulate_many
from ..sim.store import (
    check_out_free,
    claim_folder,
    clear_own,
    record_written,
    same_run,
    staged,
)
from ..sim.variants import file_tables, load_variant, parse_knobs, variant_text
from ..version import __version__, commit
from . import figures as F
from .render import Report, Section, write_report

PILOT_GAMES = 1000  # the base game's first games, to measure the noise (and time a game)
MIN_GAMES, MAX_GAMES = 1000, 100_000  # games per candidate the plan may choose
MIN_VERIFY = 20_000  # verification plays at least this many paired games per side
MAX_VERIFY = 100_000  # ... and by default at most this many
SEARCH_SHARE = 0.7  # of a --budget in minutes, at least this share for the search
SETTINGS = "search.json"  # the search's identity and plan, for a resumed run
MAX_SEED = INT64_MAX - CONFIRM  # the confirmation's seed, the largest, still fits an int64

# what a rebalance found, as `Rebalance.status` reads it
Status = Literal["already", "recommended", "unconfirmed", "compromise", "none"]


@dataclass
class Rebalance:
    """The result of `rebalance`: the search, its verified front, the chosen patch and its
    confirmation.

    Attributes
    ----------
    game : str
        The game rebalanced.
    targets : list of Target
        The balance targets with their tolerances.
    space : EditSpace
        What could change (each variable with its range).
    lineups : list of LineUp
        The line-ups every target must hold under.
    plan : Plan
        Games per candidate, screening runs, the cap on candidates and the optimiser.
    outcome : Outcome
        Every candidate played, in order, and the search's Pareto front.
    verified : dict of str to Verification
        The front's points (and any candidate verified after them, and a smaller patch the
        ablation found), measured again on fresh deals under every line-up: "front 1" is
        the cheapest. The patch is chosen on these numbers.
    chosen : str or None
        The label in `verified` of the patch chosen (None: the base game already meets every
        target, or no candidate improves on it).
    confirmed : Verification or None
        The chosen patch played again on a second set of fresh deals, under every line-up:
        the patch's numbers.
    ablation : dict of str to Verification
        The chosen patch without each of its changes, on the verification deals.
    provenance : dict
        What made it: the base variant's file and SHA-256, targets, edits, players,
        line-ups, seeds (search, verification, confirmation), games, the budget in
        candidates, candidates played, optimiser, snapsim version.
    """

    game: str
    targets: list[Target]
    space: EditSpace
    lineups: list[LineUp]
    plan: Plan
    outcome: Outcome
    verified: dict[str, Verification]
    chosen: str | None
    confirmed: Verification | None
    ablation: dict[str, Verification]
    provenance: dict
    base: Verification | None = None
    notes: list[str] = field(default_factory=list)
    effects: dict = field(default_factory=dict, repr=False)  # change -> its paired effect
    # the verdict before and after, once asked: a set of bootstrap verdicts per line-up that
    # the summary, the written report and a caller would otherwise each compute again
    _balance: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    # ------------------------------------------------------------ what it found

    @property
    def base_checks(self) -> pd.DataFrame | None:
        """The base game's targets on the verification deals, under every line-up."""
        return None if self.base is None else self.base.checks

    @property
    def already(self) -> bool:
        """The base game meets every target under every line-up: nothing to change."""
        return self.base is not None and bool(self.base.checks.met.all())

    @property
    def recommended(self) -> str | None:
        """The chosen patch's label when its confirmation meets every target under every
        line-up (None otherwise: nothing is recommended)."""
        if self.chosen is None or self.confirmed is None or not self.confirmed.met:
            return None
        return self.chosen

    @property
    def met(self) -> bool:
        """A patch is recommended: confirmed to meet every target under every line-up."""
        return self.recommended is not None

    @property
    def status(self) -> Status:
        """"already", "recommended", "unconfirmed" (met every target where chosen, not on
        its confirmation), "compromise" (none met every target under every line-up) or
        "none" (no candidate improves on the base game)."""
        if self.already:
            return "already"
        if self.chosen is None:
            return "none"
        if self.met:
            return "recommended"
        return "unconfirmed" if self.verified[self.chosen].met else "compromise"

    @property
    def patch_changes(self) -> list[str]:
        """The chosen patch's changes in plain words."""
        if self.chosen is None:
            return []
        return self.space.changes(self.verified[self.chosen].cand)

    @property
    def pareto(self) -> pd.DataFrame:
        """One row per verified candidate, cheapest first: its cost, changes, the search's
        worst ratio, the verified worst ratio over every line-up (at most 1: every target
        met under every line-up), whether every target is met under every line-up and under
        each, whether every interval lies within its tolerance, and each target's verified
        value per line-up and player count."""
        rows = []
        size = self.plan.size_cost
        search_ratio = {e.cand: e.ratio for e in self.outcome.evaluations}
        for label, v in self.verified.items():
            row = {"candidate": label, "cost": self.space.cost(v.cand, size),
                   "changes": "; ".join(self.space.changes(v.cand)) or "none",
                   "search_ratio": search_ratio.get(v.cand, math.nan),
                   "verified_ratio": v.ratio, "met": v.met,
                   "sure": bool(v.checks.sure.all()), "chosen": label == self.chosen,
                   "recommended": label == self.recommended}
            for lu in self.lineups:
                row[f"met ({lu.name})"] = bool(v.under(lu.name).met.all())
            for r in v.checks.itertuples():
                row[f"{r.target} ({r.players}p, {r.line_up})"] = r.value
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def patch(self) -> str | None:
        """The chosen variant file's text (the base file with the changes written in, each
        commented; its header says whether it is recommended), or None when there is
        nothing to change."""
        if self.chosen is None or not self.verified[self.chosen].cand:
            return None
        return patch_text(self)

    def balance(self) -> list[str]:
        """The answer of `snapsim report` and `compare` to "is the game balanced?", before and
        after the chosen patch, on its confirmation deals: the same family of measures, with
        the targets as tolerances where they share a measure (the rest at their defaults)."""
        if self._balance is None:
            self._balance = self._balance_lines()
        return list(self._balance)

    def _balance_lines(self) -> list[str]:
        c = self.confirmed
        if c is None or not c.runs:
            return []
        given = [t.text for t in self.targets if t.item is None and t.kind != "cards"]
        tol = fill_tolerances(self.game, given)
        out = [f"is {self.game} balanced? (the verdict of `snapsim report`, on the "
               f"confirmation deals)"]
        for side, word in (("base", "before"), ("patch", "after")):
            for lu in self.lineups:
                runs = {n: Side(*r) for (who, name, n), r in c.runs.items()
                        if who == side and name == lu.name}
                v = verdict_of(self.game, runs, tol, line_up=lu.label(), seed=c.seed)
                out += [f"  {word}: {line}" for line in v.lines()]
        return out

    def summary(self) -> str:
        """A few lines: what was searched, the base game, the verdict, the patch's changes
        with their measured effects, and the front."""
        p = self.provenance
        counts = ", ".join(map(str, self.space.players))
        budget = p["budget"]
        given = (f"--budget {budget['minutes']:g} minutes calibrated to " if budget["minutes"]
                 else "")
        lines = [f"rebalance {self.game} ({counts} players): targets "
                 f"{', '.join(t.text for t in self.targets)}; edits "
                 f"{', '.join(self.space.specs)} ({len(self.space.vars)} values may change); "
                 f"line-ups {self.lineup_words()}",
                 f"searched {p['evaluations']:,} candidates of {self.plan.games:,} games each "
                 f"under every line-up (seed {p['seed']}, {self.plan.optimizer} optimiser; "
                 f"{given}--candidates {budget['candidates']} --games {budget['games']}); "
                 f"chosen on {p['verify_games']:,} fresh paired games per side (seed "
                 f"{p['verify_seed']}), confirmed on {p['verify_games']:,} others (seed "
                 f"{p['confirm_seed']})"]
        if self.base is not None:
            lines.append("before: " + _by_lineup(self.base.checks, "baseline"))
        lines += self.verdict()
        lines += self.balance()
        lines += self.notes
        table = self.pareto
        if len(table):
            best = table.sort_values("verified_ratio").groupby("cost", sort=True).head(1)
            front = [f"{int(r.cost)} → {r.verified_ratio:.2f}{' (met)' if r.met else ''}"
                     for r in best.sort_values("cost").itertuples()]
            lines.append("verified, best per cost (changes → worst value/tolerance over every "
                         "line-up): " + "; ".join(front))
        return "\n".join(lines)

    def lineup_words(self) -> str:
        """"greedy and tuned-4p": what plays in each line-up."""
        names = [lu.label() for lu in self.lineups]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def chosen_patch(self) -> tuple[Verification, Verification]:
        """The chosen patch's verification (where it was chosen) and its confirmation."""
        if self.chosen is None or self.confirmed is None:
            raise ValueError(f"no patch was chosen (status {self.status!r})")
        return self.verified[self.chosen], self.confirmed

    def verdict(self) -> list[str]:
        """The verdict in sentences from the numbers: the confirmation's, for the patch."""
        status = self.status
        if status == "already":
            return [f"the base game already meets every target under {self.lineup_words()}: "
                    "nothing to change"]
        if status == "none":
            return ["no candidate found improves on the base game's worst target: widen the "
                    "edit space or the budget (--candidates)"]
        v, c = self.chosen_patch()
        n = len(v.cand)
        many = f"{n} change{'s' if n != 1 else ''}"
        where = (f"confirmed on {c.games:,} fresh paired games per side (seed {c.seed}) that "
                 "did not choose it")
        if status == "recommended":
            out = [f"recommended patch ({many}) meets every target under "
                   f"{self.lineup_words()}, {where}:"]
        elif status == "unconfirmed":
            out = [f"not recommended: the patch chosen ({many}) met every target under "
                   f"{self.lineup_words()} on the deals that chose it, but not on its "
                   f"confirmation ({c.games:,} fresh paired games per side, seed {c.seed}): "
                   + "; ".join(self.lineup_phrases(c))]
        else:
            out = [f"no patch found meets every target under {self.lineup_words()}; the best "
                   f"compromise (lowest worst-case ratio, {many}) "
                   + "; ".join(self.lineup_phrases(c)) + f" ({where}):"]
        effects = self.change_effects()
        for change in self.space.changes(v.cand):
            out.append(f"  - {change}{effects.get(change, '')}")
        for lu in self.lineups:
            out.append(f"  after, {lu.label()}: " + _checks_text(c.under(lu.name), "value"))
        left = c.checks[~c.checks.met]
        if len(left):
            out.append("  left: " + "; ".join(
                f"{r.target} ({r.players}p) under {r.policy} by {_excess(r)}"
                f"{_unit(self.game, r.target)}" for r in left.itertuples()))
        out.append(f"  where chosen ({v.games:,} paired games per side, seed {v.seed}): "
                   f"worst value/tolerance {v.ratio:.2f}; on its confirmation {c.ratio:.2f}")
        return out

    def lineup_phrases(self, v: Verification) -> list[str]:
        """Per line-up, in words from the numbers: "holds for greedy players", "flips the
        edge for tuned-4p players: seat 1 26.7% / seat 4 23.7%" (the worst item changed
        side), "misses for tuned-4p players: ..." (it did not)."""
        out = []
        for lu in self.lineups:
            checks = v.under(lu.name)
            if checks.met.all():
                out.append(f"holds for {lu.label()} players")
                continue
            worst = checks.loc[checks.ratio.idxmax()]
            verb = "flips the edge" if worst.flipped else "misses"
            unit = " pp" if KINDS[kind_of(worst.target)].unit == "pp" else ""
            out.append(f"{verb} for {worst.policy} players: {worst.worst} ({worst.target} "
                       f"{worst.value:.2f}{unit} [{worst.ci_low:.2f}, {worst.ci_high:.2f}] at "
                       f"{worst.players} players, tolerance {_tolerance(worst)})")
        return out

    def change_effects(self, short: bool = False) -> dict[str, str]:
        """Each change's own effect on the verification deals: each target's value with it
        less its value without it (the patch played without it; a one-change patch against
        the base game), with its 95% interval, per line-up. A recommended patch's line also
        says that without the change a target is missed (else the ablation would have taken
        it out); with `short`, only the effect, for a line comment."""
        if self.chosen is None:
            return {}
        patch = self.verified[self.chosen]
        if len(patch.cand) == 1 and self.base is not None:
            withouts = {self.space.changes(patch.cand)[0]: self.base}
        else:
            withouts = {label.removeprefix("without "): v for label, v in self.ablation.items()}
        out = {}
        for change, without in withouts.items():
            if change not in self.effects:
                self.effects[change] = effect(patch, without, self.targets)
            eff = self.effects[change]
            parts = []
            for r in eff.itertuples():
                who = self._policy(r.line_up, r.players)
                unit = _unit(self.game, r.target)
                parts.append(f"{r.target} ({r.players}p) {r.effect:+.2f}{unit} "
                             f"[{r.effect_ci_low:+.2f}, {r.effect_ci_high:+.2f}] for {who}")
            text = "its effect: " + ", ".join(parts)
            if short:
                out[change] = f"; {text}"
            elif self.met and len(patch.cand) > 1:
                out[change] = f"  ({text}; without it a target is missed)"
            else:
                out[change] = f"  ({text})"
        return out

    def _policy(self, name: str, players: int) -> str:
        return next(lu.policy(players) for lu in self.lineups if lu.name == name)

    # ------------------------------------------------------------ files

    def write(self, out, force: bool = False) -> Path:
        """patch.toml, pareto.csv and pareto.png, the target checks (confirmation and
        verification) and ablation tables, evaluations.csv, report.md, a self-contained
        index.html and provenance.json; returns index.html's path."""
        out = Path(out)
        with staged(out, clear=force) as stage:  # one writer; the files appear when whole
            check_out_free(out, force, kind="rebalance")
            self._write(stage.path)
        return out / "index.html"

    def _write(self, out: Path) -> None:
        if self.patch is not None:
            (out / "patch.toml").write_text(self.patch)
        note = (f"{self.provenance['verify_games']:,} fresh paired games per side, seed "
                f"{self.provenance['verify_seed']}")
        s = Section("0-verdict", 0, "Verdict",
                    "What the search found, chosen on fresh deals and confirmed on others that "
                    "did not choose it, under every line-up: each target's value before and "
                    "after with 95% intervals (the confirmation's numbers).")
        s.findings = self.verdict() + self.balance() + self.notes
        checks = self.checks_table()
        if len(checks):
            s.tables["targets"] = checks
        s.save(out)
        s = Section("1-front", 1, "Smallest changes against balance (Pareto front)",
                    "For each cost (printed values changed), the best balance found: the worst "
                    "target's value over its tolerance over every line-up (at most 1: every "
                    "target met under every line-up), as the search measured it and as "
                    "verification measured it again.")
        front = self.pareto
        if len(front):
            s.tables["pareto"] = front
            s.figure("pareto", F.pareto_front(front, self.evaluations_table(), note),
                     "Worst target value over its tolerance, over every line-up, against the "
                     "number of changed values: every candidate the search played (grey), the "
                     "verified front (blue; filled: every target met); dashed: the tolerance. "
                     + note)
        s.findings = [f"{int(r.cost)} change(s): worst ratio {r.verified_ratio:.2f} verified "
                      f"({r.search_ratio:.2f} in the search)"
                      f"{', every target met under every line-up' if r.met else ''}"
                      for r in front.itertuples()]
        s.save(out)
        s = Section("2-ablation", 2, "Each change's own contribution (ablation)",
                    "The chosen patch played again without one change at a time, under every "
                    "line-up on the verification deals: each target's value with the change "
                    "less its value without it, with 95% intervals.")
        ablation = self.ablation_table()
        if len(ablation):
            s.tables["ablation"] = ablation
        s.findings = [f"{k}{v}" for k, v in self.change_effects().items()]
        s.save(out)
        s = Section("3-comparison", 3, "The patch against the base game, every measure",
                    "The paired comparison of `snapsim compare` for the chosen patch under "
                    f"{self.lineups[0].label()} play on its confirmation deals (the same "
                    "numbers `snapsim compare --variant patch.toml` gives on these deals).")
        if self.confirmed is not None and len(self.confirmed.table):
            s.tables["comparison"] = self.confirmed.table
        s.save(out)
        self.evaluations_table().to_csv(out / "evaluations.csv", index=False)
        (out / PROVENANCE_FILE).write_text(json.dumps(self.provenance, indent=1))
        write_report(out, Report(f"{self.game}: rebalance",
                                        {"targets": ", ".join(t.text for t in self.targets),
                                         "edits": ", ".join(self.space.specs),
                                         "line-ups": self.lineup_words(),
                                         "snapsim": __version__}, self.footer(),
                                 dealt_first=dealt_first(self.game)))

    def checks_table(self) -> pd.DataFrame:
        """The chosen patch's target checks, long form: its confirmation (the patch's
        numbers) and the verification that chose it, per line-up, player count and target."""
        if self.chosen is None or self.confirmed is None:
            return pd.DataFrame()
        parts = [self.confirmed.checks.assign(candidate=self.chosen, deals="confirmation",
                                              seed=self.confirmed.seed),
                 self.verified[self.chosen].checks.assign(
                     candidate=self.chosen, deals="verification",
                     seed=self.verified[self.chosen].seed)]
        df = pd.concat(parts, ignore_index=True)
        first = ["candidate", "deals", "seed", "line_up", "policy", "players", "target",
                 "tolerance"]
        return df[first + [c for c in df.columns if c not in first]]

    def ablation_table(self) -> pd.DataFrame:
        parts = [v.checks.assign(without=label.removeprefix("without "))
                 for label, v in self.ablation.items()]
        if not parts:
            return pd.DataFrame()
        df = pd.concat(parts, ignore_index=True)
        return df[["without"] + [c for c in df.columns if c != "without"]]

    def evaluations_table(self) -> pd.DataFrame:
        """Every candidate the search played: cost, worst ratio over line-ups, games,
        changes."""
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
                f"line-ups {self.lineup_words()}; search seed {p['seed']}, "
                f"{p['games']:,} games per candidate, {p['evaluations']:,} candidates "
                f"(--candidates {p['budget']['candidates']}); verification seed "
                f"{p['verify_seed']} and confirmation seed {p['confirm_seed']}, "
                f"{p['verify_games']:,} games per side each.")


def _unit(game: str, key: str) -> str:
    kind = kind_of(key)
    unit = KINDS[kind].unit
    if kind == "length":
        return " " + (get_game(game).measures.length or "rounds")
    return {"pp": " pp", "points": " points"}[unit]


def _tolerance(row) -> str:
    return row.tolerance.split("=", 1)[1]


def _excess(row) -> str:
    """How far a missed target's value is beyond its tolerance, in its unit."""
    if kind_of(row.target) == "length":
        lo, hi = (float(x) for x in _tolerance(row).split("-"))
        return f"{max(lo - row.value, row.value - hi):.2f}"
    return f"{row.value - float(_tolerance(row)):.2f}"


def _checks_text(checks: pd.DataFrame, column: str) -> str:
    """"seat_spread (4p) 1.40 pp [0.80, 2.50] (2: met, seat 4 26.1% / seat 1 24.7%)" for
    each target and player count."""
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
                   f"({_tolerance(r)}: {'met surely' if surely else 'met' if ok else 'missed'}"
                   f"{worst})")
    return "; ".join(out)


def _by_lineup(checks: pd.DataFrame, column: str) -> str:
    """`_checks_text` for each line-up in turn: "greedy: ...; tuned-4p: ..."."""
    parts = []
    for name in dict.fromkeys(checks.line_up):
        mine = checks[checks.line_up == name]
        who = ", ".join(dict.fromkeys(mine.policy))
        parts.append(f"{who}: {_checks_text(mine, column)}")
    return "; ".join(parts)


# ---------------------------------------------------------------- the patch file


def patch_text(result: Rebalance) -> str:
    """The base variant file with the chosen changes written in: each changed line
    commented with its old value, a header saying whether the patch is recommended and
    listing every change with its measured effect, and the knobs in [knobs] /
    [knobs.players.N]."""
    space = result.space
    chosen, c = result.chosen_patch()
    cand = chosen.cand
    effects = result.change_effects()
    short = result.change_effects(short=True)
    changes = [(space.vars[k].path, v, f"rebalance: was {space.vars[k].base}"
                + short.get(space.vars[k].change(v), ""))
               for k, v in cand if not space.vars[k].knob]
    knobs = parse_knobs(space.game, space.tables_of(cand).get("knobs"), "patch")
    verdict = ("recommended: every target met under every line-up" if result.met else
               "NOT recommended: " + "; ".join(result.lineup_phrases(c)))
    head = [f"rebalance: the patch of `snapsim rebalance {result.game}`, "
            f"snapsim {__version__}",
            f"targets: {', '.join(t.text for t in result.targets)}; players "
            f"{', '.join(map(str, space.players))}; line-ups {result.lineup_words()}",
            f"confirmed on {c.games:,} fresh paired games per side (seed {c.seed}): {verdict}",
            "changes, each with its own effect (the patch without it, on the verification "
            "deals):"]
    head += [f"  {ch}{effects.get(ch, '')}" for ch in space.changes(cand)]
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


def _texts(value, name: str) -> str | list[str]:
    """A string argument, or a list of strings as a list; anything else is an InputError
    naming the parameter."""
    if isinstance(value, str):
        return value  # read as the command line reads it
    items = None if value is None else entries(value, name)
    if items is None or not all(isinstance(item, str) for item in items):
        raise InputError(f"{name} must be a string or a list of strings, got "
                         f"{repr(value)[:60]}")
    return items


def _whole_plan(plan) -> bool:
    """Whether a stored plan holds every number a resumed search reads, each in its range."""
    def count(key, low, high):
        value = plan.get(key)
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    if not isinstance(plan, dict):
        return False
    per_game = plan.get("seconds_per_game")
    return (count("games", 1, MAX_IN_MEMORY_GAMES) and count("screen", 1, 10_000)
            and count("rounds", 1, 10_000) and count("candidates", 1, 10_000_000)
            and count("verify_games", 1, MAX_IN_MEMORY_GAMES)
            and (per_game is None or isinstance(per_game, int | float)
                 and math.isfinite(per_game) and per_game >= 0))


def _claim(out: Path, identity: dict, force: bool) -> dict | None:
    """The stored plan when `out` holds an unfinished search of this identity (to resume);
    None for a new search. Files snapsim did not write are refused, forced or not; a
    finished result or another search's files are refused unless `force`, which removes
    them."""
    if not claim_folder(out, kind="rebalance"):
        return None
    try:
        stored = read_json(out / SETTINGS)
    except (OSError, ValueError):
        stored = None
    why = None
    if not isinstance(stored, dict) or not isinstance(stored.get("identity"), dict):
        why = "another snapsim output that is not a rebalance"
    elif not same_run(stored["identity"], identity):
        old = stored["identity"]
        key = next(k for k in identity if old.get(k) != identity[k])
        why = f"another rebalance ({key} {old.get(key)!r}, not {identity[key]!r})"
    elif stored.get("complete"):
        why = "a finished rebalance of these settings"
    elif not _whole_plan(stored.get("plan")):
        raise InputError(f"{out / SETTINGS} is damaged (its plan is incomplete); remove the "
                         "folder or choose another --out")
    if why is None:
        return stored["plan"]
    if not force:
        raise InputError(f"{out} holds {why}; choose a new --out, or add --force to replace "
                         "it")
    clear_own(out)
    return None


def _pilot(space: EditSpace, targets, lineups: list[LineUp], seed, threads, workers,
           scheduler, timed: bool):
    """(seconds per game, line-up and player count, or None unless `timed`; games per
    candidate that measure every target's items to a quarter of its tolerance under every
    line-up) from the base game's first PILOT_GAMES games. The games come from the noise
    alone, so they are the same for a seed on any machine; only a --budget in minutes is
    timed, once, and converted to a count of candidates."""
    game = space.game
    jobs = [(space.base.config(n), lu.seats(n)) for lu in lineups for n in space.players]
    per_game = None
    if timed:
        simulate_many(game, jobs, 2, seed, threads, workers, scheduler)
        start = time.perf_counter()
    play = simulate_many if timed else run_cache.simulate_many  # a timed pilot is played
    tables = play(game, jobs, PILOT_GAMES, seed, threads=threads, workers=workers,
                  scheduler=scheduler)
    if timed:
        per_game = (time.perf_counter() - start) / (PILOT_GAMES * len(jobs))
    spec = get_game(game)
    need = MIN_GAMES
    cards_wanted = any(t.kind == "cards" for t in targets)
    for (config, pols), df in zip(jobs, tables, strict=True):
        n = spec.players(config)
        cards = None
        if cards_wanted:
            group = spec.measures.levers.card_group
            cards = [(name, r) for name, grp, _, r in
                     extra_measures(game, config, pols, PILOT_GAMES, seed, threads)
                     if grp == group]
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
    if per_game is not None and cards_wanted:
        per_game *= 1.5  # the card values replay the games' details
    return per_game, need


@dataclass(frozen=True)
class _Request:
    """A checked rebalance: what the search, its verification and its record read."""

    game: str
    tlist: list[Target]
    space: EditSpace
    lineups: list[LineUp]
    seed: int
    threads: int | None
    workers: int | None
    scheduler: str | None
    budget: float | None
    games: int | None
    candidates: int | None
    optimizer: str
    cost: str
    verify_games: int | None
    max_cost: int
    progress: bool
    identity: dict


def rebalance(game: str, targets, edits, components=None, players=None, games: int | None = None,
              candidates: int | None = None, budget: float | None = None,
              lineups=DEFAULT_LINEUPS, seed: int = 1, out=None, force: bool = False,
              threads: int | None = None, workers: int | None = None,
              scheduler: str | None = None, optimizer: str = "surrogate",
              cost: str = "values", verify_games: int | None = None, max_cost: int = 20,
              progress: bool = False) -> Rebalance:
    """Search the smallest changes that bring `game` within `targets` under every line-up,
    choose one on fresh deals and confirm it on others.

    Parameters
    ----------
    game : str
        "snapshot", "yosemite" or "shutterbug".
    targets : list of str
        "NAME=TOL": seat_spread=2 (pp), first_player=2 (pp from fair), assignments=3 (pp
        from fair), cards=0.8 (points per die, Snapshot), length=A-B.
    edits : list of str
        Edit spaces: "start_tokens", "cards.prestige:±1", "assignments[Live Fast].chart",
        "knob:photo_target=7-9" (a range left out takes the game's default).
    components, players :
        The base variant (default: the bundled components and rules); the player counts
        every target must hold at (default: every count the game supports).
    games, candidates, budget :
        Games per candidate and line-up (default: enough to measure each target's items to a
        quarter of its tolerance, from the base game's noise); at most this many candidates
        played (one raced out early counts a quarter; default DEFAULT_CANDIDATES); or
        minutes for the whole run, converted once from a timed pilot to candidates (and
        games) that are recorded and replay it exactly.
    lineups : list of str or str
        "greedy", "strong" (the policy tuned for each player count) or a policy name, each
        in every seat (default: greedy and strong); the worst case over them is minimised.
    seed : int
        Root seed; the verification choosing the patch plays seed + 7919, its confirmation
        seed + 15838.
    out, force :
        Folder for the journal and the result (an unfinished search there resumes); replace
        a finished result (or another run's files) there.
    threads, workers, scheduler :
        Where games run (numba threads; a local process pool; Dask), as for `simulate`.
    optimizer, cost, max_cost :
        "surrogate" (kept), or optuna's "nsga2" or "tpe" (optional dependency); cost as
        "values" (printed values changed) or "size" (their total change); the largest edit
        cost the search proposes.
    verify_games, progress :
        Paired games per side, line-up and player count of the verification and of the
        confirmation (default: twice the games per candidate, 20,000-100,000); progress bars.

    Returns
    -------
    Rebalance
        `.summary()`, `.status`, `.pareto`, `.patch` (the variant file's text), `.write()`.
    """
    request = _request(game, targets, edits, components, players, games, candidates, budget,
                       lineups, seed, force, threads, workers, scheduler, optimizer, cost,
                       verify_games, max_cost, progress)
    if out is None:
        return _run(request, folder=None, stored=None)
    return _run_into(Path(out), request, force)


def _check_numbers(games, verify_games, candidates, max_cost, budget, optimizer,
                   cost) -> None:
    """Each count in its range, candidates or budget (not both), a known optimiser and cost."""
    if games is not None:
        whole(games, "games", 10, MAX_IN_MEMORY_GAMES)
    if verify_games is not None:
        whole(verify_games, "verify_games", 10, MAX_IN_MEMORY_GAMES)
    if candidates is not None:
        whole(candidates, "candidates", 1, 1_000_000)
    whole(max_cost, "max_cost", 1, 1000)
    if budget is not None:
        number(budget, "budget (minutes)", 0.1, 7 * 24 * 60)
        if candidates is not None:
            raise InputError("give candidates or budget (minutes), not both")
    if optimizer not in OPTIMIZERS:
        raise InputError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}")
    if cost not in COSTS:
        raise InputError(f"cost must be 'values' or 'size', got {cost!r}")


def _request(game, targets, edits, components, players, games, candidates, budget, lineups,
             seed, force, threads, workers, scheduler, optimizer, cost, verify_games, max_cost,
             progress) -> _Request:
    """The arguments checked (one InputError naming the first bad one) and read: targets,
    the base variant at every player count, the edit space, the line-ups and the identity
    a stored search must match to be resumed."""
    spec = get_game(game)
    game = spec.name
    seed = whole(seed, "seed", 0, MAX_SEED, hint=f" (its confirmation plays seed + {CONFIRM})")
    targets, edits, lineups = (_texts(value, name) for value, name in (
        (targets, "targets"), (edits, "edits"), (lineups, "lineups")))
    flag(force, "force")
    flag(progress, "progress")
    _check_numbers(games, verify_games, candidates, max_cost, budget, optimizer, cost)
    check_backend(threads, workers, scheduler)
    tlist = parse_targets(game, targets)
    base = load_variant(game, components)
    check_items(tlist, base.components)
    counts = _players(spec, players)
    for n in counts:
        base.config(n)
    space = edit_space(game, base, dict(file_tables(base.path)), edits, counts)
    lups = parse_lineups(game, lineups, counts)
    identity = {"snapsim": __version__, "game": game,
                "components": components_record(game, base.components)["sha256"],
                "targets": [t.text for t in tlist], "edits": list(space.specs),
                "players": list(counts), "seed": seed, "games": games,
                "optimizer": optimizer, "cost": cost, "max_cost": max_cost,
                "candidates": candidates, "budget_minutes": budget,
                "lineups": {lu.name: {str(n): p for n, p in dict(lu.policies).items()}
                            for lu in lups},
                "verify_games": verify_games}
    return _Request(game, tlist, space, lups, seed, threads, workers, scheduler, budget, games,
                    candidates, optimizer, cost, verify_games, max_cost, progress, identity)


def _run_into(out: Path, request: _Request, force: bool) -> Rebalance:
    """Run (or resume) the search with its journal in `out`, write the result beside it and
    mark the search complete."""
    with exclusive(out):
        stored = _claim(out, request.identity, force)
        record_written(out, [SETTINGS, JOURNAL])
        result = _run(request, folder=out, stored=stored)
        with staged(out) as stage:  # beside the search's own files, which stay
            result._write(stage.path)
        settings = read_json(out / SETTINGS)
        settings["complete"] = True
        write_text(out / SETTINGS, json.dumps(settings, indent=1))
    return result


def _run(r: _Request, folder: Path | None, stored: dict | None) -> Rebalance:
    """The search, then the patch chosen and confirmed on fresh deals, with its record."""
    started = time.monotonic()
    if stored is None:
        plan = _make_plan(r.space, r.tlist, r.lineups, r.seed, r.threads, r.workers,
                          r.scheduler, r.budget, r.games, r.candidates, r.verify_games,
                          r.max_cost)
        if folder is not None:
            write_text(folder / SETTINGS, json.dumps({"identity": r.identity, "plan": plan},
                                                     indent=1))
    else:
        plan = stored
    search_plan = Plan(plan["games"], plan["screen"], plan["rounds"], r.max_cost,
                       r.cost == "size", r.optimizer, plan["candidates"])
    outcome = _search(r, plan, search_plan, folder)
    choice = _choose(r, plan, outcome)
    record = _record(r, plan, outcome)
    record["seconds"] = round(time.monotonic() - started, 1)
    record["variables"], record["stopped"] = len(r.space.vars), outcome.stopped
    return Rebalance(r.game, r.tlist, r.space, r.lineups, search_plan, outcome,
                     choice.verified, choice.chosen, choice.confirmed, choice.ablation, record,
                     choice.base, _notes(choice, outcome, plan))


def _search(r: _Request, plan: dict, search_plan: Plan, folder: Path | None) -> Outcome:
    """The search's evaluations and front, journalled in `folder`."""
    per = len(r.space.players) * len(r.lineups)
    with tqdm(total=per * (plan["screen"] + 1), unit="run",
              desc=f"{r.game} rebalance: search", disable=not r.progress) as bar:
        evaluator = Evaluator(r.space, r.tlist, search_plan.games, r.seed, r.lineups,
                              r.threads, r.workers, r.scheduler, Journal(folder), _Bar(bar, per))
        try:
            return optimise(evaluator, search_plan, r.seed)
        finally:
            evaluator.close()


def _choose(r: _Request, plan: dict, outcome: Outcome):
    """The patch chosen on the verification's fresh deals and confirmed on the
    confirmation's."""
    with tqdm(total=0, unit="candidate", desc=f"{r.game} rebalance: verification",
              disable=not r.progress) as bar:
        def run(cands, at=r.seed + FRESH, tables=False):
            bar.total += len(cands)
            bar.refresh()
            got = verify(r.space, r.tlist, cands, r.lineups, plan["verify_games"], at,
                         r.threads, r.workers, r.scheduler, tables=tables)
            bar.update(len(cands))
            return got

        return choose_patch(outcome, r.space, r.tlist, r.cost == "size", run,
                            r.seed + CONFIRM)


def _notes(choice, outcome: Outcome, plan: dict) -> list[str]:
    """What the summary says of the ablation's cuts and of a search stopped at its budget."""
    notes = []
    if choice.pruned:
        notes.append(f"the ablation took {choice.pruned} change(s) out of the search's patch "
                     "(without them every target is still met, or the worst target "
                     "is nearer its tolerance)")
    if outcome.stopped == "budget":
        notes.append(f"the search stopped at its budget of {plan['candidates']:,} candidates "
                     f"(a larger --candidates may find a cheaper patch; --candidates "
                     f"{plan['candidates']} --games {plan['games']} repeats this search "
                     "exactly)")
    return notes


def _record(r: _Request, plan: dict, outcome: Outcome) -> dict:
    """The provenance of the search: what it read, its plan and its seeds."""
    space = r.space
    return {"snapsim": __version__, "commit": commit(), "game": r.game,
            "components": components_record(r.game, space.base.components),
            "knobs": {k: list(v) if isinstance(v, tuple) else v
                      for k, v in space.base.knobs.common.items()},
            "targets": [t.text for t in r.tlist], "edits": list(space.specs),
            "players": list(space.players), "lineups": r.identity["lineups"], "seed": r.seed,
            "games": plan["games"], "screening_runs": plan["screen"],
            "rounds": plan["rounds"], "evaluations": len(outcome.evaluations),
            "budget": {"candidates": plan["candidates"], "games": plan["games"],
                       "minutes": r.budget, "seconds_per_game": plan["seconds_per_game"]},
            "optimizer": r.optimizer, "cost": r.cost, "max_cost": r.max_cost,
            "verify_seed": r.seed + FRESH, "confirm_seed": r.seed + CONFIRM,
            "verify_games": plan["verify_games"]}


class _Bar:
    """The search's progress: one tick per candidate (its runs at every player count),
    growing the total as rounds of proposals are made so it stays true."""

    def __init__(self, bar, per: int):
        self.bar, self.per = bar, per

    def update(self, k: int) -> None:
        if self.bar.n + k > self.bar.total:
            self.bar.total = self.bar.n + k
        self.bar.update(k)


def _make_plan(space, tlist, lineups, seed, threads, workers, scheduler, budget, games,
               candidates, verify_games, max_cost) -> dict:
    """Games per candidate (from the pilot's noise), screening runs, rounds, the cap on
    candidates and verification games. A budget in minutes is converted once, from the
    pilot's timing, to a cap (and games, unless given); the plan is stored and recorded, so
    the run is replayed by its numbers, never by a time."""
    per_game, need = _pilot(space, tlist, lineups, seed, threads, workers, scheduler,
                            timed=budget is not None)
    chosen = games or int(min(MAX_GAMES, max(MIN_GAMES, math.ceil(need / 500) * 500)))
    screen = int(min(400, max(16, 2 * len(space.vars))))
    rounds = 8
    vgames = verify_games or min(MAX_VERIFY, max(MIN_VERIFY, 2 * chosen))
    cap = candidates or DEFAULT_CANDIDATES
    if budget is not None:
        runs = len(space.players) * len(lineups)
        levels = 1 + sum(1 for k in LEVELS if k <= max_cost)
        expected = 1 + screen + rounds * levels
        seconds = budget * 60
        verify_cost = vgames * runs * per_game * (levels + EXTRA_VERIFY + 5)
        search_seconds = max(seconds * SEARCH_SHARE, seconds - verify_cost)
        if games is None and expected * chosen * runs * per_game > search_seconds:
            chosen = int(max(MIN_GAMES, (search_seconds / (expected * runs * per_game))
                             // 500 * 500))
            vgames = verify_games or min(MAX_VERIFY, max(MIN_VERIFY, 2 * chosen))
        cap = max(2, int(search_seconds / (chosen * runs * per_game)))
    return {"games": chosen, "screen": screen, "rounds": rounds, "candidates": cap,
            "verify_games": vgames, "games_needed": need, "seconds_per_game": per_game}
