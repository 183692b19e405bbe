"""`snapsim compare`: a designer's variant against a baseline, paired game by game.

Baseline and variant play game i from the same random streams (same seed, and the runner keys
every stream by the game index), so each difference is estimated from per-game paired values
and luck the two games share cancels. Every measure gets the baseline value, the variant
value, the difference with its 95% CI and p-value, its class against the smallest effect of
interest of its unit (meaningful, negligible or unresolved; analysis.effects), the smallest
difference this n could detect (80% power) and the variance reduction pairing bought. The
balance verdict answers "is the variant better balanced?" from the headline family of balance
measures (analysis.verdict: paired changes against the designer's tolerances, with their own
correction over that family only), beside each side's own verdict line, and measures the edit
changes mechanically (an edited card's own value) are set apart from it. With a strong line-up
(`strong=`), the comparison is played again with it in every seat and each measure's change
is labelled (analysis.labels). Every other claim of a comparison is tested under one
standard: Holm across all of them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..analysis.comparison import Flags, measure_rows, side_measures
from ..analysis.effects import (
    MEANINGFUL,
    NEGLIGIBLE,
    UNRESOLVED,
    Claim,
    Estimate,
    Smallest,
    Standard,
    bracket,
    show,
    unsigned_zero,
)
from ..analysis.effects import verdict as class_words
from ..analysis.labels import LABELS, Finding, Labels
from ..analysis.measures import MeasureSpec, measures
from ..analysis.paired import games_to_detect, spread_difference
from ..analysis.verdict import Change, Side, change_verdict, dealt_first, fill_tolerances
from ..analysis.verdict import record as verdict_record
from ..errors import InputError, SnapsimError
from ..sim.agents import resolve_policy
from ..sim.cache import simulate
from ..sim.checks import (
    INT64_MAX,
    MAX_IN_MEMORY_GAMES,
    entries,
    flag,
    mapping,
    number,
    whole,
)
from ..sim.component_files import differences
from ..sim.provenance import PROVENANCE_FILE, provenance
from ..sim.registry import get_game
from ..sim.store import check_out_free, staged
from ..sim.variants import Variant as LoadedVariant
from ..sim.variants import load_variant
from . import figures as F
from .render import Report, Section, write_report
from .words import p_text

PILOT_GAMES = 500
MAX_AUTO_GAMES = 1_000_000
INDEPENDENT = 1_000_003  # seed offset of the variant when pairing is switched off
MIN_DETECT = 0.01  # points of seat spread: a smaller change needs more games than any run
PRIMARY = "seat spread (points)"


@dataclass
class Variant:
    """One side of the comparison: a variant file (components and its rule knobs) plus the
    knobs set on the command line, and what it changes.

    Attributes
    ----------
    label : str
        Its name in tables and sentences (the component file's stem, or "variant").
    variant : sim.variants.Variant
        The component set it plays, with its file's rule knobs.
    knobs : dict
        Rule knobs set over the file's (`variant_set`).
    changes : list of str
        What it changes against the baseline, card by card and knob by knob.
    """

    label: str
    variant: object
    knobs: dict
    changes: list[str] = field(default_factory=list)

    @property
    def components(self):
        """The component set it plays."""
        return self.variant.components


def _label(comps, fallback: str) -> str:
    return Path(comps.path).stem if getattr(comps, "path", None) else fallback


def _knob(value) -> str:
    return "default" if value is None else str(value)


def _fmt(value: float, unit: str, diff: bool = False, named: bool = True) -> str:
    """A value ("24.8%", "32.63") or a difference ("-6.2 pp", "-0.34"; `named=False`: no
    "pp"), never "-0.0"."""
    if not math.isfinite(value):
        return "n/a"
    if unit == "rate":
        text = f"{100 * value:+.1f}" if diff else f"{100 * value:.1f}%"
    else:
        text = f"{value:+.2f}" if diff else f"{value:.2f}"
    text = unsigned_zero(text, diff)
    return f"{text} pp" if diff and named and unit == "rate" else text


def _diff(value: float, lo: float, hi: float, unit: str) -> str:
    """"-6.2 pp [-8.5, -4.0]": a difference with its 95% interval."""
    return (f"{_fmt(value, unit, True)} [{_fmt(lo, unit, True, False)}, "
            f"{_fmt(hi, unit, True, False)}]")


def _most(need: float, games: int) -> str:
    """Games per side that would settle the last open claim: "about 120,000", or "more than
    30,000" (a hundred times the 300 games played) past that, as for an estimate on the edge
    of its band."""
    return f"about {need:,.0f}" if need <= 100 * games else f"more than {100 * games:,}"


def _decided(c: Claim, unit: str) -> str:
    """"(Holm-adjusted [-9.3, -3.1]), meaningful (beyond ±2.0 pp)": the interval a claim's
    class was decided on, the class and the band it was decided against (a rate's
    difference in percentage points)."""
    unit = "pp" if unit == "rate" else unit
    return f"(Holm-adjusted {bracket(*c.decision_ci, unit)}), {class_words(c, unit)}"


def _change(r, c: Claim) -> str:
    """A row's change in words with the claim `c` that classes it: "fell from 32.97 to 32.63
    points (-0.34 [-0.44, -0.24] (Holm-adjusted [-0.49, -0.19]), negligible (within ±0.50
    points))"."""
    verb = "rose" if r.diff > 0 else "fell"
    unit = "" if r.unit in ("rate", "count") else f" {r.unit}"
    return (f"{r.measure} in {r.players}-player games {verb} from {_fmt(r.baseline, r.unit)} "
            f"to {_fmt(r.variant_value, r.unit)}{unit} "
            f"({_diff(r.diff, r.ci_low, r.ci_high, r.unit)} {_decided(c, r.unit)})")


def _flag(r, side: str, found) -> str:
    """A side's flag in words with the claim it was decided on (`Flags.side`): "above fair
    (+6.0 pp from fair (Holm-adjusted [+3.1, +8.9]), meaningful (beyond ±2.0 pp))"; an
    outlier's robust z too."""
    flag = getattr(r, f"{side}_flag") or "in line"
    if found is None:
        return flag
    c, what, z = found
    unit = "rate" if what == "from fair" else r.unit
    shown = "pp" if unit == "rate" else unit
    robust = f", robust z {z:+.1f}" if math.isfinite(z) else ""
    return f"{flag} ({show(c.estimate.effect, shown)} {what}{robust} {_decided(c, unit)})"


@dataclass
class Comparison:
    """The result of `compare`: the table of measures, sentences from it, and a report.

    Attributes
    ----------
    game : str
        The game compared.
    table : pandas.DataFrame
        One row per variant, player count and measure: `baseline` and `variant_value` with
        their 95% CIs (`*_ci_low`, `*_ci_high`), the paired difference `diff` (variant minus
        baseline, in the measure's `unit`: points, a rate 0-1 or a count) with its 95% CI
        (`ci_low`, `ci_high`) and `p_value`, `smallest` (the smallest effect of interest in
        the measure's unit), `class` (meaningful, negligible or unresolved), `p_adjusted`
        (the class's p-value, Holm over every claim of the comparison), `games_to_settle`,
        `mechanical` (the edit itself sets this measure: an edited card's own value), the
        paired and unpaired standard errors, `variance_reduction` (how many times fewer games
        pairing needs), `detectable` (the smallest difference these `games` detect with 80%
        power) and the fair-share or outlier flags of each side (`baseline_flag`,
        `variant_flag`).
    variants : list of Variant
        The variants compared, with what each changes.
    provenance : dict
        What made it: both sides' component files with SHA-256, knobs, policies, seed,
        number of games and snapsim version.
    balance : pandas.DataFrame
        The balance verdict's claims (analysis.verdict.Change): per variant, player count,
        balance measure and objective, both sides' values, the paired change with its
        interval at the family's level, and its class (better, worse, no change, open).
    headline : analysis.verdict.Change
        The balance verdict itself: `.lines()`, `.word(variant, players)`, and each side's
        own verdict (`.before`, `.after`).
    strong_headlines : list
        With a strong line-up: (its name, the balance verdict of the comparison played again
        with it) per player count; their claims are in `balance` too, with their `line_up`.
    claims : analysis.comparison.Flags
        The table's claims: each difference's (`.diffs`, by row) and each side flag's
        (`.side(row, side)`), with the Holm-adjusted interval its class was decided on.
    """

    game: str
    table: pd.DataFrame
    variants: list[Variant]
    provenance: dict
    standard: Standard
    claims: Flags  # the table's claims, each class's decision interval
    strong: pd.DataFrame | None = None  # `strong_check`'s labels, when asked for
    balance: pd.DataFrame | None = None
    headline: Change | None = None
    strong_headlines: list = field(default_factory=list)  # (line-up, its Change) per count

    def verdicts(self, variant: str | None = None) -> list[str]:
        """Sentences from the numbers: every meaningful change (the edit's own mechanical
        effects set apart), how many are negligible or unresolved, and side flags that
        moved."""
        out = []
        for v in self.variants:
            if variant is not None and v.label != variant:
                continue
            rows = self.table[self.table.variant == v.label]
            head = f"{v.label} vs {self.provenance['baseline']['label']}"
            own = rows[rows.mechanical]
            rest = rows[~rows.mechanical]
            big = rest[rest["class"] == MEANINGFUL]
            for r in big.sort_values("p_adjusted").itertuples():
                out.append(f"{head}: {_change(r, self.claims.diffs[r.Index])}.")
            small = int((rest["class"] == NEGLIGIBLE).sum())
            open_ = rest[rest["class"] == UNRESOLVED]
            settle = open_.games_to_settle[np.isfinite(open_.games_to_settle)]
            out.append(f"{head}: {'no measure' if big.empty else f'{len(big)} measure(s)'} "
                       f"changed meaningfully; {small} changed negligibly (within their "
                       f"smallest effect of interest), {len(open_)} neither at this n"
                       + (f" (about {settle.median():,.0f} games per side would settle half "
                          f"of them, {_most(settle.max(), rows.games.max())} all)"
                          if len(settle) else "") + ".")
            mech = own[own["class"] == MEANINGFUL]
            if len(mech):
                out.append(f"{head}: changed by the edit itself, not evidence of balance: "
                           + "; ".join(_change(r, self.claims.diffs[r.Index])
                                       for r in mech.itertuples()) + ".")
            dom = rows[(rows.group == "restricted play") & (rows.variant_flag == "above fair")
                       & (rows.baseline_flag != "above fair")]
            out += [f"{head}: a player {r.measure.removeprefix('win rate ')} now wins more "
                    f"than the fair share in {r.players}-player games (a dominant "
                    f"restriction): {_fmt(r.variant_value, r.unit)} "
                    f"[{_fmt(r.variant_ci_low, r.unit)}, {_fmt(r.variant_ci_high, r.unit)}], "
                    f"{_flag(r, 'variant', self.claims.side(r.Index, 'variant'))}."
                    for r in dom.itertuples()]
        for v in self.variants:
            if variant is not None and v.label != variant:
                continue
            rows = self.table[(self.table.variant == v.label)
                              & (self.table.group != "restricted play")
                              & (self.table.baseline_flag != self.table.variant_flag)]
            out += [f"{v.label}: {r.measure} in {r.players}-player games: "
                    f"{_flag(r, 'baseline', self.claims.side(r.Index, 'baseline'))} in the "
                    f"baseline, {_flag(r, 'variant', self.claims.side(r.Index, 'variant'))} "
                    "in the variant" + (" (changed by the edit itself)." if r.mechanical else ".")
                    for r in rows.itertuples()]
        return out

    def balance_verdict(self, variant: str | None = None) -> list[str]:
        """Is the variant better balanced? Per variant and player count: BETTER, WORSE,
        MIXED, NO CHANGE or NOT SETTLED from the headline family's paired changes, then each
        side's own verdict line (analysis.verdict); with a strong line-up, the same again
        under it."""
        out = [] if self.headline is None else self.headline.lines(variant)
        for line_up, change in self.strong_headlines:
            out += [line if line.startswith("  ") else f"under strong play ({line_up}): {line}"
                    for line in change.lines(variant)]
        return out

    def strong_verdicts(self) -> list[str]:
        """Per measure: does its change hold under the strong line-up (from the numbers)?"""
        if self.strong is None:
            return []
        counts = self.strong.label.value_counts()
        out = [f"under strong play ({', '.join(dict.fromkeys(self.strong.strong_line_up))}"
               f", restricted play left out): " + ", ".join(f"{counts[k]} {k.upper()}"
                                                            for k in LABELS if counts.get(k, 0))]
        out += [_strong_sentence(r) for r in self.strong[self.strong.label != "unresolved"]
                .itertuples()]
        return out

    def standard_text(self) -> str:
        smallest = Smallest(**self.provenance.get("smallest_effect", {}))
        n = len(self.standard) if self.standard is not None else 0
        return (f"Every claim of this comparison is a difference classed against the smallest "
                f"effects of interest ({smallest.text()}), tested under one standard: Holm "
                f"across all {n:,} claims (at most 5% chance of any false claim); the balance "
                f"verdict has its own family and correction (below).")

    def summary(self) -> str:
        """A few lines: what each variant changes, the balance verdict, the verdicts, and
        what pairing bought."""
        p = self.provenance
        lines = [f"{self.game}: {len(self.variants)} variant(s) against "
                 f"{p['baseline']['label']}, {p['games']:,} paired games per side and player "
                 f"count, seed {p['seed']}", self.standard_text()]
        for v in self.variants:
            lines.append(f"{v.label} changes: " + ("; ".join(v.changes) or "nothing"))
        lines += self.balance_verdict() + self.verdicts() + self.strong_verdicts()
        vr = self.table.variance_reduction.to_numpy(float)
        finite = vr[np.isfinite(vr)]
        if len(finite):
            lines.append(f"pairing: median variance reduction {np.median(finite):.1f}x over the "
                         f"{len(finite)} of {len(vr)} measures whose paired error is not zero "
                         "(the same precision unpaired would need that many times the games)")
        return "\n".join(lines)

    def write(self, out, force: bool = False) -> Path:
        """index.html (self-contained), report.md, one CSV per table, provenance.json."""
        out = Path(out)
        with staged(out, clear=force) as stage:  # one writer; the files appear when whole
            check_out_free(out, force)
            self._write(stage.path)
        return out / "index.html"

    def _write(self, out: Path) -> Path:
        note = (f"n = {self.provenance['games']:,} paired games per side, seed "
                f"{self.provenance['seed']}")
        intro = Section("0-verdicts", 0, "Verdicts", "Is the variant better balanced (the "
                        "balance measures' changes), then every measure's change classed "
                        "against its smallest effect of interest, in words, from the numbers.")
        intro.findings = self.balance_verdict() + self.verdicts()
        for v in self.variants:
            intro.findings.append(f"{v.label} changes: " + ("; ".join(v.changes) or "nothing"))
        intro.keys = [(line, "") for line in self.balance_verdict()
                      if not line.startswith("  ")] or None
        if self.balance is not None and not self.balance.empty:
            intro.tables["balance"] = self.balance
        intro.tables["comparison"] = self.table
        if self.strong is not None:
            intro.findings += self.strong_verdicts()
            intro.tables["strong_play"] = self.strong
        intro.save(out)
        for k, (group, rows) in enumerate(self.table.groupby("group", sort=False), start=1):
            key = group.replace(" ", "_")
            s = Section(f"{k}-{key}", k, group.capitalize(),
                        "Difference variant - baseline with 95% CIs (paired), and both "
                        "values side by side.")
            s.tables[f"compare_{key}"] = rows
            title = f"{group}: variant - baseline"
            for players, sub in rows.groupby("players"):
                name = f"diff_{key}_{players}p"
                s.figures[name] = F.differences(sub, title + f" ({players} players)", note)
                s.captions[name] = (f"{group}, {players} players: difference with 95% CI "
                                    "(filled: beyond the smallest effect after Holm)")
                name = f"sides_{key}_{players}p"
                s.figures[name] = F.sides(sub, f"{group}: baseline and variant "
                                               f"({players} players)", note)
                s.captions[name] = f"{group}, {players} players: both values with 95% CIs"
            s.findings = [f"{r.variant}, {r.players}p: {r.measure} {_fmt(r.baseline, r.unit)} → "
                          f"{_fmt(r.variant_value, r.unit)} "
                          f"({_diff(r.diff, r.ci_low, r.ci_high, r.unit)} "
                          f"{_decided(self.claims.diffs[r.Index], r.unit)}"
                          f"{', changed by the edit itself' if r.mechanical else ''}, "
                          f"{p_text(r.p_adjusted)} after Holm)"
                          for r in rows[rows["class"] == MEANINGFUL].itertuples()]
            s.save(out)
        (out / PROVENANCE_FILE).write_text(json.dumps(self.provenance, indent=1))
        return write_report(out, Report(f"{self.game}: variant comparison",
                                        {"games per side": f"{self.provenance['games']:,}",
                                         "seed": self.provenance["seed"],
                                         "snapsim": self.provenance["snapsim"]},
                                        self.footer(), standard=self.standard_text(),
                                        dealt_first=dealt_first(self.game)))

    def footer(self) -> str:
        """What made it: both sides' component files with SHA-256, knobs, policies, seed, n."""
        p = self.provenance
        sides = [f"baseline {p['baseline']['label']} (sha256 "
                 f"{p['baseline']['components']['sha256'][:12]})"]
        sides += [f"variant {v['label']} (sha256 {v['components']['sha256'][:12]}, knobs "
                  f"{v['knobs'] or 'as the baseline'})" for v in p["variants"]]
        names = ", ".join(d["name"] for d in p["baseline"]["policies"])
        return (f"Made by snapsim {p['snapsim']}: {'; '.join(sides)}; policies {names}; "
                f"seed {p['seed']}; n = {p['games']:,} paired games per side and player count; "
                f"players {', '.join(map(str, p['players']))}.")


def _strong_sentence(r) -> str:
    """One measure's change under both line-ups, from its row of the strong-play table: each
    with its 95% interval, the Holm-adjusted interval its class was decided on and the class,
    then the label."""
    def side(name: str, cls: str) -> str:
        lo, hi, alo, ahi = (_fmt(getattr(r, f"{name}_ci_{end}"), r.unit, True, False)
                            for end in ("low", "high", "low_adjusted", "high_adjusted"))
        return (f"{_fmt(getattr(r, name), r.unit, True)} [{lo}, {hi}] (Holm-adjusted "
                f"[{alo}, {ahi}], {cls})")
    tail = f" (the change is {side('change', r.class_change)})" \
        if r.label in ("weakens", "strengthens") else f" ({r.why})" if r.why else ""
    band = show(r.smallest, "pp" if r.unit == "rate" else r.unit, signed=False)
    return (f"{r.variant}: {r.measure} in {r.players}-player games changes by "
            f"{side('measured', r.class_measured)} with the default line-up and "
            f"{side('strong', r.class_strong)} with {r.strong_line_up}, smallest effect "
            f"±{band}: {r.label.upper()}{tail}.")


class _Sides:
    """Runs of one side at one player count, cached; every run advances the progress bar.
    `played` counts them, `from_cache` those read from the cache of finished runs."""

    def __init__(self, game, games, seed, threads, bar):
        self.game, self.games, self.seed, self.threads, self.bar = (game, games, seed, threads,
                                                                    bar)
        self.main: dict[int, pd.DataFrame] = {}  # each config's first (main) run
        self.played = self.from_cache = 0

    def run(self, config, policies, seed=None) -> pd.DataFrame:
        df = simulate(self.game, config=config, policies=policies, games=self.games,
                      seed=self.seed if seed is None else seed, threads=self.threads)
        self.main.setdefault(id(config), df)
        self.played += 1
        self.from_cache += bool(df.attrs.get("from_cache"))
        self.bar.update(1)
        return df


def _lineup(pols, seats: int):
    """The line-up at a player count: one policy for all seats, or one per seat."""
    if not pols:
        return None
    if len(pols) == 1:
        return pols * seats
    if len(pols) != seats:
        raise InputError(f"{seats} players need {seats} policies (or one for all), got "
                         f"{len(pols)}")
    return list(pols)


def _config(variant, players, knobs, label):
    """The config of one side at a player count: its file's knobs, then `knobs` over them."""
    try:
        return variant.config(players, **knobs)
    except SnapsimError as exc:
        raise InputError(f"{label} cannot be played with {players} players: {exc}") from None


def compare(game: str, baseline="standard", variants=(), variant_set: dict | None = None,
            players=None, policies=None, games: int | str = 2000, seed: int = 1,
            detect: float | None = None, threads: int | None = None, restricted: bool = True,
            paired: bool = True, bootstrap: int = 1000, progress: bool = False,
            strong: str | None = None, strong_games: int | None = None,
            smallest: Smallest | None = None, tolerances=None) -> Comparison:
    """Compare each variant (component files or sets, plus `variant_set` knobs) with the
    baseline, game i of both sides on the same random streams: the luck they share cancels.

    Parameters
    ----------
    game : str
        "snapshot", "yosemite" or "shutterbug".
    baseline, variants : str or path or component set; a list of them
        "standard" (the bundled file), a component TOML file or a loaded set.
    variant_set : dict, optional
        Rule knobs changed on the variant side, e.g. ``{"photo_target": 8}``; alone (no
        `variants`) it compares the rule change on the baseline's components.
    players, policies : optional
        Player count(s) and both sides' line-up (default: the game's count and default policy).
    games, detect, seed :
        Paired games per side and player count (at least 10), or "auto": enough to detect a
        change of `detect` points (0.01 to 100) in the seat spread with 80% power; the root
        seed both sides share.
    threads, progress, restricted, paired, bootstrap :
        numba threads (default: all cores); a progress bar; also measure restricted play (one
        player forbidden an action); play the variant on the baseline's streams (False:
        independent ones, to measure what pairing buys); bootstrap resamples for the spread
        intervals (100 to 100,000).
    strong, strong_games : optional
        Compare again with this policy in every seat ("tuned": the policy tuned for each player
        count, else the strongest built-in one) on `strong_games` games a side (default:
        `games`), labelling each change (`strong_check`).
    smallest : effects.Smallest or list of "KIND=VALUE", optional
        The smallest effect of interest of each kind of measure (default: 2 pp of a win rate,
        0.5 points, 0.25 rounds, 0.5 turns, 10% of a count or card value).
    tolerances : dict or list of "NAME=VALUE", optional
        The balance verdict's tolerances (default: seat_spread=2, first_player=2,
        assignments=2 pp, cards=10%; length=A-B only when given).

    Returns
    -------
    Comparison
        `.table`, `.summary()`, `.verdicts()`, `.balance_verdict()`, `.write(dir)`.
    """
    asked, smallest = _arguments(games, seed, detect, bootstrap, strong, strong_games, smallest,
                                 restricted=restricted, paired=paired, progress=progress)
    spec = get_game(game)
    base, base_label, sides = _validate(spec, baseline, variants, variant_set, strong)
    plan = _plan(spec, base, base_label, sides, players, policies, restricted)
    plan.games = _games(spec, plan, asked, seed, threads, detect, bootstrap)
    played = _play(spec, plan, seed, threads, paired, bootstrap, progress)
    result, flags = _assemble(spec, plan, played, seed, paired, bootstrap, smallest,
                              fill_tolerances(game, tolerances))
    again = dict(baseline=baseline, variants=variants, variant_set=variant_set, seed=seed,
                 threads=threads, paired=paired, bootstrap=bootstrap, progress=progress,
                 smallest=smallest)
    _settle(result, flags, plan, strong, strong_games, again)
    return result


def _games(spec, plan: _Plan, asked: int | str, seed: int, threads, detect,
           bootstrap: int) -> int:
    """Games per side and player count: as asked, or "auto"'s count for `detect`."""
    if asked == "auto":
        return _auto_games(spec, plan.configs, plan.pols, seed, threads, detect, bootstrap)
    return int(asked)


def _settle(result: Comparison, flags, plan: _Plan, strong: str | None,
            strong_games: int | None, again: dict) -> None:
    """The strong line-up's comparison (played with `again`'s arguments) labels the
    standard's claims before they are settled; then the flags fill the table."""
    strong_labels = None
    if strong is not None:
        strong_labels, both = strong_check(result, strong, plan.counts, plan.games,
                                           strong_games, again, again["smallest"])
        strong_labels.register(result.standard)
    standard = result.standard
    standard.settle()
    result.table = flags.fill()
    if strong_labels is not None:
        result.strong = strong_table(both, strong_labels)
    result.provenance["standard"] = {"method": standard.method, "claims": len(standard),
                                     "alpha": standard.alpha}


def _validate(spec, baseline, variants, variant_set,
              strong) -> tuple[LoadedVariant, str, list[Variant]]:
    """compare's sides loaded and checked before anything is played: the baseline, its
    label, and each variant with its label and what it changes."""
    variant_set = mapping(variant_set, "variant_set", "rule knobs, e.g. {'photo_target': 8}")
    files = entries(variants, "variants", split=False) if variants is not None else []
    base = load_variant(spec.name, baseline, "baseline")
    base_label = "standard" if baseline in (None, "standard") else _label(base.components,
                                                                          "baseline")
    loaded = [load_variant(spec.name, v, "each variant") for v in files] or (
        [base] if variant_set else [])
    if not loaded:
        raise InputError("give at least one --variant FILE or --variant-set KNOB=VALUE")
    spec.make_config(components=base.components, **variant_set)  # an unknown knob fails first
    if strong is not None and str(strong).strip() != "tuned":
        resolve_policy(spec.name, str(strong).strip())  # so does an unknown strong policy
    names: list[str] = []
    sides = []
    default = spec.make_config(components=base.components)
    for k, side in enumerate(loaded):
        label = _label(side.components, f"variant {k + 1}") if files else "variant"
        if label in names or label == base_label:
            label = f"{label} ({k + 1})"
        names.append(label)
        changes = differences(spec.name, base, side)
        changes += [f"knob {key} {_knob(getattr(default, key))} → {_knob(value)}"
                    for key, value in variant_set.items()]
        sides.append(Variant(label, side, variant_set, changes))
    return base, base_label, sides


@dataclass
class _Plan:
    """What compare plays: each side's config per player count (None: the game's default),
    the line-up (None: the default policy), what is measured, the restricted plays and the
    games per run."""

    base_label: str
    sides: list[Variant]
    counts: list[int | None]
    configs: dict[tuple[str, int | None], tuple]
    pols: list | None
    mspec: MeasureSpec
    restrictions: dict
    games: int = 0


def _plan(spec, base: LoadedVariant, base_label: str, sides: list[Variant], players,
          policies, restricted: bool) -> _Plan:
    """Each side's configs and the line-up, a line-up that fits no player count refused."""
    counts: list[int | None] = [None] if players is None else [
        whole(p, "players", 1) for p in entries(players, "players")]
    configs = {(v.label, n): (_config(base, n, {}, base_label),
                              _config(v.variant, n, v.knobs, v.label))
               for v in sides for n in counts}
    pols = [resolve_policy(spec.name, p) for p in entries(policies, "policies")] \
        if policies is not None else None
    for cfg_b, _ in configs.values():  # a line-up that fits no player count fails first
        _lineup(pols, spec.players(cfg_b))
    mspec = spec.measures or MeasureSpec()
    return _Plan(base_label, sides, counts, configs, pols, mspec,
                 mspec.restrictions if restricted else {})


@dataclass
class _Played:
    """The runs' measures: the paired rows, each side's Side by player count for the
    verdict, and the runner (its counts of runs played and read from the cache)."""

    rows: list[dict]
    base_sides: dict[int, Side]
    variant_sides: dict[str, dict[int, Side]]
    runner: _Sides


def _play(spec, plan: _Plan, seed: int, threads, paired: bool, bootstrap: int,
          progress: bool) -> _Played:
    """Every side at every player count, the baseline's runs once."""
    mspec = plan.mspec
    total = (1 + len(plan.restrictions)) * (1 + len(plan.sides)) * len(plan.counts)
    rows: list[dict] = []
    base_sides: dict[int, Side] = {}
    variant_sides: dict[str, dict[int, Side]] = {}
    with tqdm(total=total, unit="run", desc=f"{spec.name} compare",
              disable=not progress) as bar:
        runner = _Sides(spec.name, plan.games, seed, threads, bar)
        cache: dict = {}
        group = mspec.levers.card_group
        for v in plan.sides:
            for n in plan.counts:
                cfg_b, cfg_v = plan.configs[(v.label, n)]
                n_seats = spec.players(cfg_b)
                lineup = _lineup(plan.pols, n_seats) or [spec.default_policy] * n_seats
                key = ("base", n)
                if key not in cache:
                    cache[key] = side_measures(runner, cfg_b, lineup, mspec, plan.restrictions,
                                                spec, n_seats, None)
                var_seed = seed if paired else seed + INDEPENDENT
                mine = side_measures(runner, cfg_v, lineup, mspec, plan.restrictions, spec,
                                      n_seats, var_seed)
                rows += measure_rows(cache[key], mine, n_seats, v.label, seed, paired, bootstrap)
                base_sides[n_seats], variant_sides.setdefault(v.label, {})[n_seats] = (
                    Side(runner.main[id(cfg)], cfg,
                         [(m.name.split(": ", 1)[-1], m.ratio) for m in found
                          if m.group == group] or None)
                    for cfg, found in ((cfg_b, cache[key]), (cfg_v, mine)))
    return _Played(rows, base_sides, variant_sides, runner)


def _assemble(spec, plan: _Plan, played: _Played, seed: int, paired: bool, bootstrap: int,
              smallest: Smallest, tolerances: dict) -> tuple[Comparison, Flags]:
    """The comparison from its runs: the table with each edit's mechanical measures marked,
    its claims registered under one standard (settled by the caller, after any strong
    line-up's claims join it), the balance verdict and the record."""
    game, mspec = spec.name, plan.mspec
    standard = Standard()
    table = pd.DataFrame(played.rows)
    edited = {v.label: edited_items(v.changes) for v in plan.sides}
    table["mechanical"] = [mechanical(r.measure, r.group, edited[r.variant], mspec)
                           for r in table.itertuples()]
    flags = Flags(table, mspec.outlier_groups, smallest).register(standard)
    named = plan.pols or [spec.make_policy(spec.default_policy)]
    line_up = ", ".join(dict.fromkeys(getattr(p, "name", str(p)) for p in named))
    headline = change_verdict(game, played.base_sides, played.variant_sides, tolerances,
                              line_up, seed)
    first = plan.configs[(plan.sides[0].label, plan.counts[0])]
    record: dict[str, Any] = {"baseline": {"label": plan.base_label,
                           **provenance(game, first[0], named, seed, plan.games)},
              "variants": [{"label": v.label, "changes": v.changes,
                            **provenance(game, plan.configs[(v.label, plan.counts[0])][1],
                                         named, seed, plan.games)}
                           for v in plan.sides],
              "players": [spec.players(plan.configs[(plan.sides[0].label, n)][0])
                          for n in plan.counts],
              "paired": paired, "restricted": sorted(plan.restrictions),
              "bootstrap": bootstrap, "smallest_effect": smallest.record(),
              "verdict": verdict_record(game, tolerances),
              "run_cache": {"runs": played.runner.played,
                            "from_cache": played.runner.from_cache}}
    record.update({k: record["baseline"][k] for k in ("snapsim", "game", "seed", "games")})
    record["components"] = record["baseline"]["components"]
    record["knobs"] = record["baseline"]["knobs"]
    result = Comparison(game, table, plan.sides, record, standard=standard, headline=headline,
                        balance=headline.table(), claims=flags)
    return result, flags

MAX_BOOTSTRAP = 100_000  # resamples of a spread interval: past this, only the time grows


def _arguments(games, seed, detect, bootstrap, strong, strong_games, smallest,
               **flags) -> tuple[int | str, Smallest]:
    """compare's plain arguments checked before anything is played, as the command line
    checks its flags, each error naming the parameter (numpy integers are whole numbers):
    (games, smallest effects)."""
    if not (isinstance(games, str) and games.strip().lower() == "auto"):
        games = whole(games, "games", 10, MAX_IN_MEMORY_GAMES, hint=" (or 'auto' with detect)")
    elif detect is None:
        raise InputError("games 'auto' needs detect, the seat-spread change in points to "
                         "detect (--detect on the command line)")
    else:
        games = "auto"
    whole(seed, "seed", 0, INT64_MAX - INDEPENDENT)
    if detect is not None:
        number(detect, "detect (points of seat spread)", MIN_DETECT, 100)
    whole(bootstrap, "bootstrap", 100, MAX_BOOTSTRAP)
    for name, value in flags.items():
        flag(value, name)
    if strong is not None and not isinstance(strong, str):
        raise InputError(f"strong must be a policy name or 'tuned', got {strong!r}")
    if strong_games is not None:
        if strong is None:
            raise InputError("strong_games belongs with strong (the strong line-up's games)")
        whole(strong_games, "strong_games", 10, MAX_IN_MEMORY_GAMES)
    if smallest is None:
        return games, Smallest()
    if isinstance(smallest, Smallest):
        return games, smallest
    if isinstance(smallest, str | list | tuple):
        return games, Smallest.parse(smallest)
    raise InputError(f"smallest must be an effects.Smallest or KIND=VALUE texts (e.g. "
                     f"'rate=1'), got {smallest!r}")


def edited_items(changes: list[str]) -> set[str]:
    """The component entries a variant edits, by name, from its list of changes ("Live
    Fast: chart [...] → [...]"); knob changes name no entry."""
    return {c.split(":", 1)[0].strip().casefold() for c in changes
            if ":" in c and not c.startswith("knob ")}


def mechanical(measure: str, group: str, edited: set[str], mspec: MeasureSpec) -> bool:
    """Whether a measure is an edited card's own value (its prestige per die after its
    prestige changed): the value is the edited number times the card's photographs per die,
    so the edit moves it by construction and it is no evidence of balance. (An edited
    assignment's win rate is not: play decides it, and the balance verdict weighs it.)"""
    return group == mspec.levers.card_group and \
        measure.split(": ", 1)[-1].casefold() in edited


def strong_check(result: Comparison, choice: str, counts, games: int,
                 strong_games: int | None, kw: dict,
                 smallest: Smallest) -> tuple[Labels, pd.DataFrame]:
    """The comparison played again with the strong line-up in every seat at each player count
    (same seed and variants; restricted play, whose other seats are the default policy, left
    out), each measure's two changes ready to be labelled (analysis.labels) under the
    comparison's standard: compared as independent estimates. A strong line-up that plays
    the same games in both versions cannot express a change the first line-up measured."""
    from .studies import SEARCH_MIN, strong_policy

    spec = get_game(result.game)
    parts, record = [], {}
    for n in counts:
        seats = n or spec.players(spec.make_config())
        policy, share, why = strong_policy(spec.name, seats, str(choice).strip())
        if policy is None:
            raise InputError(f"no strong line-up for {seats}-player {spec.name}: {why}")
        m = strong_games or max(min(SEARCH_MIN, games), games // share)
        again = compare(spec.name, players=n, policies=[policy] * seats, games=m,
                        restricted=False, **kw)
        parts.append(again.table.assign(strong_line_up=policy))
        result.strong_headlines.append((policy, again.headline))
        result.balance = pd.concat([result.balance, again.balance], ignore_index=True)
        record[seats] = {"policy": policy, "games": m, "why": why}
    both = result.table.merge(pd.concat(parts, ignore_index=True),
                              on=["variant", "players", "measure"], suffixes=("", "_strong"))
    result.provenance["strong"] = record
    labels = Labels([
        Finding(f"{r.variant}: {r.measure} ({r.players} players)",
                Estimate(r.diff, r.se_paired, r.games),
                Estimate(r.diff_strong, r.se_paired_strong, r.games_strong),
                delta=smallest.delta(r.unit, r.baseline),
                silent=(f"{r.strong_line_up} plays the same games in both versions"
                        if r.diff_strong == 0 and r.se_paired_strong == 0 and r.diff != 0
                        else None))
        for r in both.itertuples()])
    return labels, both


def strong_table(both: pd.DataFrame, labels: Labels) -> pd.DataFrame:
    """The labelled table of the strong comparison (after the standard is settled): each
    change with its 95% interval and the Holm-adjusted one its class was decided on."""
    out = labels.table()
    table = pd.DataFrame({"variant": both.variant, "players": both.players,
                          "measure": both.measure, "unit": both.unit})
    raw = {"measured": (both["diff"], both.ci_low, both.ci_high),
           "strong": (both.diff_strong, both.ci_low_strong, both.ci_high_strong),
           "change": (out.change.to_numpy(), *zip(*(c.estimate.ci for *_, c in labels.claims),
                                                  strict=True))}
    for k, (side, (value, lo, hi)) in enumerate(raw.items()):
        adjusted = [claims[k].decision_ci for claims in labels.claims]
        table[side], table[f"{side}_ci_low"], table[f"{side}_ci_high"] = (
            np.asarray(value), np.asarray(lo), np.asarray(hi))
        table[f"{side}_ci_low_adjusted"] = [a for a, _ in adjusted]
        table[f"{side}_ci_high_adjusted"] = [b for _, b in adjusted]
    return table.assign(
        strong_line_up=both.strong_line_up.to_numpy(), strong_games=both.games_strong.to_numpy(),
        smallest=out.smallest.to_numpy(), class_measured=out.class_measured.to_numpy(),
        class_strong=out.class_strong.to_numpy(), class_change=out.class_change.to_numpy(),
        p_change=out.p_change.to_numpy(), label=out.label.to_numpy(),
        games_to_settle=out.settle_games.to_numpy(), why=out.why.to_numpy())


def _auto_games(spec, configs, policies, seed, threads, detect, reps) -> int:
    """A pilot of PILOT_GAMES paired games per configuration, then the n that detects
    `detect` points of seat spread with 80% power in every configuration."""
    need = PILOT_GAMES
    for cfg_b, cfg_v in configs.values():
        lineup = policies or [spec.default_policy] * spec.players(cfg_b)
        pair = [simulate(spec.name, config=c, policies=lineup, games=PILOT_GAMES, seed=seed,
                         threads=threads) for c in (cfg_b, cfg_v)]
        base_spread, variant_spread = (
            next(m for m in measures(df, spec.measures or MeasureSpec(), cfg)
                 if m.name == PRIMARY).spread for df, cfg in zip(pair, (cfg_b, cfg_v),
                                                                  strict=True))
        assert base_spread is not None and variant_spread is not None  # PRIMARY is a spread
        d = spread_difference(base_spread, variant_spread, seed=seed, reps=reps)
        need = max(need, games_to_detect(d.se, PILOT_GAMES, detect))
    if need > MAX_AUTO_GAMES:
        raise InputError(f"detecting {detect} points would need {need:,} games per side; "
                         f"ask for a larger --detect or give --games N (at most "
                         f"{MAX_AUTO_GAMES:,} chosen automatically)")
    return need
