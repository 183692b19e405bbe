"""What every game's report shares: a cache of seeded runs, the build driver and the
command line of the `analyses/` scripts. A game supplies its studies (functions from a
run cache to a Section) and nothing else."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from tqdm import tqdm

from .. import __version__
from ..analysis import balance as B
from ..analysis.measures import seat_matrix
from ..analysis.paired import Ratio, spread_interval, spread_value
from ..analysis.stats import mean_interval, wilson_interval
from ..errors import InputError
from ..sim import get_game, simulate
from ..sim.provenance import PROVENANCE_FILE, components_record, footer
from . import figures as F
from .render import SECTIONS, Report, Section, write_report


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def pp(x: float) -> str:
    """A win-rate difference in percentage points."""
    return f"{100 * x:+.1f} pp"


def policies_text(policies) -> str:
    """"greedy in every seat", or the line-up with its seats rotated."""
    names = list(dict.fromkeys(str(p) for p in policies))
    return f"{names[0]} in every seat" if len(names) == 1 else \
        ", ".join(map(str, policies)) + " (seats rotated)"


def estimate(name: str, values) -> dict:
    """`name`, `name_ci_low`, `name_ci_high`: the mean of per-game (or per-seat) values and
    its 95% Student-t interval, for a table row."""
    mean, lo, hi = mean_interval(values)
    return {name: mean, f"{name}_ci_low": lo, f"{name}_ci_high": hi}


def proportion(name: str, hits, n) -> dict:
    """`name`, `name_ci_low`, `name_ci_high`: hits / n and its 95% Wilson interval."""
    lo, hi = wilson_interval(hits, n)
    return {name: hits / n if n else np.nan, f"{name}_ci_low": float(lo),
            f"{name}_ci_high": float(hi)}


def ratio(name: str, num, den) -> dict:
    """`name`, `name_ci_low`, `name_ci_high`: sum(num) / sum(den) over games (or
    player-games) and its 95% normal interval from the delta method (analysis.paired)."""
    r = Ratio(np.asarray(num, float), np.asarray(den, float))
    half = stats.norm.ppf(0.975) * np.std(r.influence(), ddof=1) / np.sqrt(len(r.num))
    return {name: r.value, f"{name}_ci_low": r.value - half, f"{name}_ci_high": r.value + half}


def seat_spread(df: pd.DataFrame, seed: int) -> dict:
    """Best minus worst seat's win rate with its 95% percentile bootstrap interval (whole
    games resampled)."""
    won = seat_matrix(df, "won")
    lo, hi = spread_interval(won, np.ones_like(won), seed=seed)
    return {"seat_spread": spread_value(won, np.ones_like(won)), "seat_spread_ci_low": lo,
            "seat_spread_ci_high": hi}


def seat_finding(seats: pd.DataFrame, players: int, label: str) -> str:
    """One line on the best and worst seat at a player count (from analysis.seat_advantage)."""
    sub = seats[seats.players == players]
    best, worst = sub.loc[sub.win_rate.idxmax()], sub.loc[sub.win_rate.idxmin()]
    sig = "significant" if sub.significant.any() else "not significant"
    return (f"{label}: seat {int(best.seat)} wins {pct(best.win_rate)} "
            f"[{pct(best.ci_low)}, {pct(best.ci_high)}], seat {int(worst.seat)} "
            f"{pct(worst.win_rate)}, fair {pct(1 / players)} ({sig} after Holm correction).")


def seat_advantage(ctx: Runs, s: Section, players, policy: str = "greedy") -> pd.DataFrame:
    """The seat-advantage table and figure of a section: win rate by seat minus the fair
    share 1/players in pp with 95% Wilson intervals, one colour per player count; adds one
    finding per player count (the main count, 4, first) and returns the table."""
    seats = B.seat_advantage(pd.concat([ctx.sim([policy], players=n) for n in players],
                                       ignore_index=True))
    seats["seat"] += 1
    for col, name in (("win_rate", ""), ("ci_low", "_ci_low"), ("ci_high", "_ci_high")):
        seats[f"vs_fair_pp{name}"] = 100 * (seats[col] - seats.fair_share)
    seats["label"] = [ctx.players_label(n) for n in seats.players]
    s.tables["seat_advantage"] = seats
    s.figure("seat_advantage",
             F.bars(seats, "seat", "vs_fair_pp", "vs_fair_pp_ci_low", "vs_fair_pp_ci_high",
                    "Win rate minus fair share, by seat", ctx.note(), hue="players",
                    ref=0.0, ylabel="win rate - 1/players (pp)", legend=ctx.players_label),
             ctx.caption("Win rate by seat minus the fair share 1/players, in percentage "
                         "points", [policy], players))
    s.findings += [seat_finding(seats, n, ctx.players_label(n))
                   for n in sorted(players, key=lambda k: (k != 4, k))]
    return seats


def knob_table(ctx: Runs, knobs: dict, row, **fixed) -> pd.DataFrame:
    """One row per rule knob and value (each moved alone from its default; the default's
    run is the baseline's, so every row shares its seed: common random numbers): `row(df,
    base)` gives a row's measures from its run and the baseline run."""
    base = ctx.sim(**fixed)
    rows = []
    for knob, (default, values) in knobs.items():
        for v in sorted((default, *values)):
            df = base if v == default else ctx.sim(**fixed, **{knob: v})
            rows.append({"knob": knob, "value": str(v), "default": v == default,
                         **row(df, base)})
    return pd.DataFrame(rows)


@dataclass
class Runs:
    """Settings shared by a report's studies and a cache of their runs, so sections reuse
    each other's games; each new run advances the report's progress bar by one."""

    game: str
    games: int
    seed: int
    threads: int | None = None
    components: object = None
    bar: object = None
    cache: dict = field(default_factory=dict)
    out: Path | None = None  # the report folder, once known

    def note(self, games: int | None = None) -> str:
        return f"n = {games or self.games:,} games per configuration, seed {self.seed}"

    def players_label(self, players: int) -> str:
        return f"{players} players"

    def caption(self, what: str, policies, players, games: int | None = None,
                interval: str = "95% Wilson CIs") -> str:
        """A figure's caption: what it shows and its interval, then the policies, player
        count(s), n (games) and seed, so a figure read alone says how it was made."""
        counts = [players] if isinstance(players, int) else list(players)
        who = policies if isinstance(policies, str) else policies_text(policies)
        return (f"{what} ({interval}). Policies: {who}; "
                f"{', '.join(self.players_label(n) for n in counts)}; "
                f"n = {games or self.games:,} games per configuration; seed {self.seed}.")

    def config(self, **knobs):
        if self.components is not None:
            knobs.setdefault("components", self.components)
        return get_game(self.game).make_config(**knobs)

    def tick(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def sim(self, policies, games: int | None = None, **knobs) -> pd.DataFrame:
        games = games or self.games
        key = ("sim", tuple(policies), games, tuple(sorted(knobs.items())))
        if key not in self.cache:
            self.cache[key] = simulate(self.game, policies=list(policies), games=games,
                                       seed=self.seed, threads=self.threads,
                                       config=self.config(**knobs))
            self.tick()
        return self.cache[key]


Study = tuple[Callable[[Runs], Section], int]  # (function, runs it adds to the cache)


def build_report(game: str, title: str, studies: dict[str, Study], out, games: int, seed: int,
                 chosen=None, threads=None, components=None, progress=True,
                 runs_type: type[Runs] = Runs, min_games: int = 10,
                 meta: dict | None = None) -> Path:
    """Run the chosen studies (default all), save their sections, render the report."""
    names = list(studies) if chosen is None else list(chosen)
    bad = [n for n in names if n not in studies]
    if bad:
        raise InputError(f"unknown study {bad[0]!r}; choose from {', '.join(studies)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < min_games:
        raise InputError(f"games must be a whole number >= {min_games}, got {games!r}")
    out = Path(out)
    claim_report_folder(out, game, seed, games, components)
    out.mkdir(parents=True, exist_ok=True)
    runs = runs_type(game, games, seed, threads, components)
    total = sum(studies[n][1] for n in names)
    with tqdm(total=total, unit="run", desc=f"{game} report", disable=not progress) as bar:
        runs.bar = bar
        for n in names:
            studies[n][0](runs).save(out)
    runs.out = out
    record = report_provenance(game, runs, names)
    (out / PROVENANCE_FILE).write_text(json.dumps(record, indent=1))
    return write_report(out, Report(title, {"games per configuration": f"{games:,}",
                                            "seed": seed, **(meta or {}),
                                            "snapsim": __version__}, footer(record)))


SAME_RUN = ("game", "components", "seed", "games")  # what a report's folder keeps to itself


def claim_report_folder(out, game: str, seed: int, games: int, components=None,
                        force: bool = False) -> None:
    """Refuse a folder that holds another run's report (another game, component file, seed
    or n; a study re-run alone on the same run is welcome) or files that are no report.
    Forced, the old report's files are removed, so none of its sections survives."""
    from .sweep import _clear

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; give a folder for the report")
    if not out.exists() or not any(out.iterdir()):
        return
    if (out / PROVENANCE_FILE).exists():
        try:
            old = json.loads((out / PROVENANCE_FILE).read_text())
        except (OSError, ValueError):
            old = {}
        old = old if isinstance(old, dict) else {}
        comps = components if components is not None else \
            get_game(game).load_components(None)
        new = {"game": game, "components": components_record(game, comps), "seed": seed,
               "games": games}
        key = next((k for k in SAME_RUN if old.get(k) != new[k]), None)
        if key is None:
            return
        was, now = (old.get(key), new[key]) if key != "components" else \
            ((old.get(key) or {}).get("file"), new[key]["file"])
        what = f"the report of another run ({key} {was}, not {now})"
    elif (out / SECTIONS).is_dir():
        return  # a report from before provenance.json: nothing to tell it apart by
    else:
        what = "files that are not a snapsim report"
    if not force:
        raise InputError(f"{out} holds {what}; choose another --out or add --force to "
                         "replace it")
    _clear(out, None, force=True)


def report_provenance(game: str, runs: Runs, studies: list[str]) -> dict:
    """What made a report: components and their SHA-256, seed, n, and every configuration
    its studies ran (knobs that differ from the defaults, policies)."""
    spec = get_game(game)
    comps = runs.components if runs.components is not None else spec.load_components(None)
    configs = [{k: df.attrs["provenance"][k] for k in ("players", "knobs", "policies", "games")}
               for df in runs.cache.values()
               if isinstance(df, pd.DataFrame) and "provenance" in df.attrs]
    record = {"snapsim": __version__, "game": game,
              "components": components_record(game, comps), "seed": runs.seed,
              "games": runs.games, "studies": studies, "configurations": configs}
    try:  # one study re-run alone keeps what the other studies recorded
        old = json.loads((Path(runs.out) / PROVENANCE_FILE).read_text()) if runs.out else {}
    except (OSError, ValueError):
        old = {}
    if all(old.get(k) == record[k] for k in ("game", "components", "seed", "games")):
        record["studies"] = list(dict.fromkeys(old.get("studies", []) + studies))
        seen = {json.dumps(c, sort_keys=True) for c in configs}
        record["configurations"] = configs + [c for c in old.get("configurations", [])
                                              if json.dumps(c, sort_keys=True) not in seen]
    return record


def study_main(game: str, build: Callable[..., Path], study: str, default_games: int,
               argv=None) -> None:
    """Command line of an `analyses/` script: regenerate one study's section in place."""
    ap = argparse.ArgumentParser(description=f"Regenerate the '{study}' section of the "
                                             f"{game} report and re-render the report.")
    ap.add_argument("--games", type=int, default=default_games, help="games per configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=f"reports/{game}")
    args = ap.parse_args(argv)
    print(build(args.out, games=args.games, seed=args.seed, studies=[study]))
