"""Rules of thumb: each game's stronger play (its bundled tuned policies) distilled into a few
numbers a person can remember, found by fitting the tuned policies' decisions.

A rule is one number of the game's greedy heuristic, said in words ("stop researching once
you have placed 5 cards this turn", "count a fish as half a point"), taken from a short grid
of round values. The `rules` policy is greedy with every rule's number: the heuristic
interpreter already plays each decision from such a number, so the rules cost no new
compiled code, and dropping a rule means playing greedy's number for that decision.

How the numbers are found (`fit`): games are played by the bundled tuned policy at each
player count it is tuned for (every seat tuned), and every position where the seat to move
has a choice is recorded (its state and streams: what the seat's policy is asked with). At
each position the tuned policy's move is the target. The rules start from the grid values
nearest the tuned policies' mean numbers; then, rule by rule, every value of its grid is
tried and the one whose moves agree with the target at the most positions is kept (ties keep
the value held, else the first), and the sweep over the rules is repeated until nothing
changes (at most `SWEEPS` times): an exhaustive threshold search per rule, coordinate by
coordinate, on numpy arrays of moves. It needs nothing beyond the game's own policies, and
it is deterministic for a seed. Each rule's runner-up value (the next best agreement) is kept
too: the closest call of that rule.

The bundled `rules.toml` of each game is made by analyses/fit_rules.py; `measure` plays the
rules against greedy and the tuned policy, and each rule dropped in turn, on common random
numbers (`snapsim.analysis.paired`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis.effects import (
    MEANINGFUL,
    NEGLIGIBLE,
    UNRESOLVED,
    Claim,
    Estimate,
    Smallest,
    Standard,
    said,
)
from ..errors import InputError
from ..sim.files import write_text
from ..sim.kernel import Policy, policy_arrays
from ..sim.registry import ByGame
from .rule_of_thumb import Rule
from .tuning import RULES as RULES_NAME
from .tuning import data_folder, policies_module, read_tuned, tuned_names

SWEEPS = 4


# Each game's rules of thumb by game name, as its GameSpec declares them (`rules`).
RULES = ByGame("rules")


def tuned_counts(game: str) -> list[int]:
    """The player counts the game has a bundled tuned policy for (tuned-<N>p)."""
    return sorted(int(n[len("tuned-"):-1]) for n in tuned_names(game))


def rules_path(game: str) -> Path:
    return data_folder(game) / f"{RULES_NAME}.toml"


def rules_policy(game: str, values=None, name: str = RULES_NAME) -> Policy:
    """Greedy with the rules' numbers: `values` (by rule key; default the bundled fit)."""
    P = policies_module(game)
    if values is None:
        values = bundled_values(game)
    params = list(P.DEFAULT_PARAMS["greedy"])
    for rule in RULES[game]:
        params[P.PARAM_NAMES.index(rule.param)] = float(values[rule.key])
    return Policy(name, P.KIND_NAMES.index("greedy"), tuple(params))


def bundled_values(game: str, path: Path | None = None) -> dict[str, float]:
    """The rules' numbers from the game's bundled rules.toml (or `path`), by rule key."""
    path = rules_path(game) if path is None else path
    if not path.is_file():
        raise InputError(f"no rules of thumb for {game} yet; fit them with "
                         f"python analyses/fit_rules.py {game}")
    _, params = read_tuned(game, path)
    P = policies_module(game)
    return {r.key: params[P.PARAM_NAMES.index(r.param)] for r in RULES[game]}


def greedy_values(game: str) -> dict[str, float]:
    """Greedy's own numbers for the rules' parameters: what dropping a rule plays."""
    P = policies_module(game)
    return {r.key: P.DEFAULT_PARAMS["greedy"][P.PARAM_NAMES.index(r.param)]
            for r in RULES[game]}


def ablated_spec(game: str, rule: Rule) -> str:
    """The rules with `rule` dropped: greedy's number for its decision (a policy spec)."""
    return f"{RULES_NAME}:{rule.param}={greedy_values(game)[rule.key]:g}"


# ---------------------------------------------------------------- recorded decisions

@dataclass
class Positions:
    """Positions met by a policy's games at one player count: states and streams, stacked,
    and the game each came from (positions of one game are not independent)."""

    players: int
    states: np.ndarray
    rngs: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.states)


def _step_game(game: str, players: int, policies, seed: int = 0, index: int = 0):
    from ..protocol import game_class

    cls = game_class(game)
    return cls(cls.CONFIG.from_knobs(players=players), seed=seed, game=index,
               policies=policies, log=False)


def record(game: str, players: int, games: int, seed: int, policy: str | None = None,
           every: int = 1) -> Positions:
    """Every `every`-th position with a choice met in `games` games of `policy` (default the
    bundled tuned policy for `players`) in every seat, from `seed`."""
    policy = policy or f"tuned-{players}p"
    states: list[np.ndarray] = []
    rngs: list[np.ndarray] = []
    games_of: list[int] = []
    met = 0  # positions with a choice so far

    for i in range(games):
        g = _step_game(game, players, [policy] * players, seed, i)

        def visit(n: int, g=g, i=i) -> None:
            nonlocal met
            if n > 1:
                if met % every == 0:
                    states.append(g.state.copy())
                    rngs.append(g._rng.copy())
                    games_of.append(i)
                met += 1

        g.play(visit)
    return Positions(players, np.array(states), np.array(rngs), np.array(games_of, np.int64))


def decisions(game: str, pos: Positions, policy) -> np.ndarray:
    """The move `policy` makes at each position, asked with a fresh memory (no plan kept
    from earlier decisions), as action ids."""
    from ..sim import get_game

    pol = get_game(game).make_policy(policy) if isinstance(policy, str) else policy
    g = _step_game(game, pos.players, [pol] * pos.players)
    g._kinds, g._params = policy_arrays([pol])
    fresh = g._new_memory()
    E = g.ENGINE
    out = np.empty(len(pos), np.int64)
    for i in range(len(pos)):
        st = pos.states[i].copy()
        n = E.legal_actions(st, g._cfg, g._comp, g._buf)
        out[i] = g._policy_code(st, pos.rngs[i].copy(), 0, n, fresh.copy())
    return out


def action_kinds(game: str, pos: Positions, codes: np.ndarray) -> list[str]:
    """The kind of each move ("draw", "stop", ...), decoded at its position."""
    g = _step_game(game, pos.players, ["greedy"] * pos.players)
    kinds = []
    for st, code in zip(pos.states, codes, strict=True):
        g.state[:] = st
        kinds.append(g.decode(int(code)).kind)
    return kinds


# ---------------------------------------------------------------- the fit

@dataclass
class Fit:
    """Fitted rules: each value, its agreement with the tuned moves, its runner-up."""

    game: str
    values: dict[str, float]
    agreement: float  # share of positions where the rules play the tuned move
    greedy_agreement: float  # ... and where greedy does
    positions: int
    games: int
    seed: int
    runner_up: dict[str, tuple[float, float]] = field(default_factory=dict)  # value, agreement
    sweeps: int = 0


def start_values(game: str) -> dict[str, float]:
    """The grid values nearest the tuned policies' mean numbers: where the search starts."""
    P = policies_module(game)
    tuned = [read_tuned(game, data_folder(game) / f"{n}.toml")[1] for n in tuned_names(game)]
    out = {}
    for rule in RULES[game]:
        mean = np.mean([t[P.PARAM_NAMES.index(rule.param)] for t in tuned])
        out[rule.key] = rule.grid[int(np.argmin(np.abs(np.array(rule.grid) - mean)))]
    return out


def fit(game: str, games: int = 20, seed: int = 1, every: int = 1,
        data: list[Positions] | None = None) -> Fit:
    """Fit the rules to the tuned policies' moves (see the module's docstring): `games` games
    at each tuned player count from `seed`, every `every`-th position kept."""
    if game not in RULES:
        raise InputError(f"rules of thumb exist for {', '.join(RULES)}, not {game!r}")
    data = data if data is not None else [record(game, n, games, seed, every=every)
                                          for n in tuned_counts(game)]
    targets = [decisions(game, pos, f"tuned-{pos.players}p") for pos in data]
    total = sum(len(pos) for pos in data)
    cache: dict[tuple, float] = {}

    def agreement(values: dict[str, float]) -> float:
        key = tuple(values[r.key] for r in RULES[game])
        if key not in cache:
            pol = rules_policy(game, values)
            hits = sum(int((decisions(game, pos, pol) == t).sum())
                       for pos, t in zip(data, targets, strict=True))
            cache[key] = hits / total
        return cache[key]

    values = start_values(game)
    sweeps = 0
    while sweeps < SWEEPS:
        sweeps += 1
        changed = False
        for rule in RULES[game]:
            scores = [agreement({**values, rule.key: v}) for v in rule.grid]
            best = max(scores)
            if scores[rule.grid.index(values[rule.key])] < best:
                values[rule.key] = rule.grid[scores.index(best)]
                changed = True
        if not changed:
            break
    runner_up = {}
    for rule in RULES[game]:
        others = [(agreement({**values, rule.key: v}), v) for v in rule.grid
                  if v != values[rule.key]]
        a, v = max(others, key=lambda t: (t[0], -abs(t[1] - values[rule.key])))
        runner_up[rule.key] = (v, a)
    greedy = sum(int((decisions(game, pos, "greedy") == t).sum())
                 for pos, t in zip(data, targets, strict=True)) / total
    return Fit(game, values, agreement(values), greedy, total, games, seed, runner_up, sweeps)


def save_fit(result: Fit, path: Path | None = None) -> Path:
    """Write the fitted rules as a policy file (the tuned files' format, base greedy) with
    the fit's agreement and runner-ups; read back by `bundled_values` and as `rules`."""
    game = result.game
    path = rules_path(game) if path is None else Path(path)
    lines = [f"# Rules of thumb for {game}, fitted by `python analyses/fit_rules.py {game}`: "
             "each value is the one of its grid",
             "# whose moves agree most with the bundled tuned policies' moves at positions "
             "from their own games.",
             f'game = "{game}"', 'base = "greedy"', "", "[params]"]
    lines += [f"{r.param} = {result.values[r.key]:g}" for r in RULES[game]]
    lines += ["", "[fit]  # positions with a choice from tuned games at each tuned player count",
              f"games_per_count = {result.games}", f"seed = {result.seed}",
              f"positions = {result.positions}", f"sweeps = {result.sweeps}",
              f"agreement = {result.agreement:.6g}",
              f"greedy_agreement = {result.greedy_agreement:.6g}"]
    lines += ["", "[runner_up]  # each rule's next best value and the agreement it reaches"]
    lines += [f"{r.param} = [{result.runner_up[r.key][0]:g}, {result.runner_up[r.key][1]:.6g}]"
              for r in RULES[game]]
    write_text(path, "\n".join(lines) + "\n", replace=True)
    return path


def fit_record(game: str, path: Path | None = None) -> dict:
    """The [fit] and [runner_up] tables of the bundled rules file."""
    from ..sim.files import read_toml

    data = read_toml(rules_path(game) if path is None else path)
    return {"fit": data.get("fit", {}), "runner_up": data.get("runner_up", {})}


# ---------------------------------------------------------------- measured value

def _focal_wins(df: pd.DataFrame, name: str) -> np.ndarray:
    """The focal policy's win share in each game (one focal seat per game)."""
    mine = df[df.policy.astype(str) == name]
    return mine.groupby("game").won.sum().to_numpy(dtype=float)


def measure(game: str, games: int, seed: int, players: list[int] | None = None,
            threads: int | None = None, progress=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rules' win rates against greedy and against the tuned policy at each player count
    (95% Wilson intervals), and the win rate each rule is worth: the rules' win rate against
    greedy less the rules' with that rule dropped (greedy's number), paired game by game on
    the same deals (95% intervals from `analysis.paired`)."""
    from ..analysis.paired import Ratio, ratio_difference
    from ..analysis.stats import wilson_interval
    from ..sim.runner import simulate

    players = players or tuned_counts(game)
    rates, drops = [], []
    for n in players:
        base = None
        for opponent in ("greedy", f"tuned-{n}p"):
            df = simulate(game, players=n, policies=[RULES_NAME] + [opponent] * (n - 1),
                          games=games, seed=seed, threads=threads)
            wins = _focal_wins(df, RULES_NAME)
            lo, hi = wilson_interval(wins.sum(), len(wins))
            rates.append({"players": n, "against": opponent, "games": len(wins),
                          "win_rate": wins.mean(), "ci_low": float(lo), "ci_high": float(hi),
                          "fair_share": 1 / n})
            base = wins if base is None else base
            if progress:
                progress()
        for rule in RULES[game]:
            spec = ablated_spec(game, rule)
            df = simulate(game, players=n, policies=[spec] + ["greedy"] * (n - 1),
                          games=games, seed=seed, threads=threads)
            d = ratio_difference(Ratio.mean(_focal_wins(df, spec)), Ratio.mean(base))
            lo, hi = d.ci
            drops.append({"players": n, "rule": rule.key, "games": d.n, "rules": d.variant,
                          "dropped": d.baseline, "win_rate_lost": d.diff, "ci_low": lo,
                          "ci_high": hi, "p_value": d.p_value})
            if progress:
                progress()
    return pd.DataFrame(rates), pd.DataFrame(drops)


def differences(game: str, games: int, seed: int, players: list[int] | None = None,
                every: int = 1) -> pd.DataFrame:
    """What the tuned policy does differently from greedy, at the positions the tuned policy's
    own games reach: by kind of move, the share of positions where each picks it, and the
    tuned share less greedy's with its standard error, paired position by position and
    clustered by game (a game's positions are not independent; `analysis.paired`)."""
    from ..analysis.paired import Ratio, ratio_difference

    rows = []
    for n in players or tuned_counts(game):
        pos = record(game, n, games, seed, every=every)
        tuned = decisions(game, pos, f"tuned-{n}p")
        greedy = decisions(game, pos, "greedy")
        kt = np.array(action_kinds(game, pos, tuned))
        kg = np.array(action_kinds(game, pos, greedy))
        ids, per_game = np.unique(pos.game, return_inverse=True)
        den = np.bincount(per_game).astype(float)
        for kind in sorted(set(kt) | set(kg)):
            t = np.bincount(per_game, weights=kt == kind, minlength=len(ids))
            g = np.bincount(per_game, weights=kg == kind, minlength=len(ids))
            d = ratio_difference(Ratio(g, den), Ratio(t, den)) \
                if len(ids) >= MIN_DIFFERENCE_GAMES else None
            rows.append({"players": n, "kind": kind, "games": games, "positions": len(pos),
                         "disagree": int((tuned != greedy).sum()),
                         "tuned_all": int(t.sum()), "greedy_all": int(g.sum()),
                         "difference": t.sum() / den.sum() - g.sum() / den.sum(),
                         "se": d.se if d else np.nan})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- the strategy guide's parts

SMALLEST_RATE = Smallest().rate  # pp: the reports' smallest effect of interest on a win rate

# What the ablation at one player count says of a rule's number, and whether the guide
# recommends playing it there: only where it is shown to gain, or shown not to cost more than
# the smallest effect of interest (or is greedy's own number, so the same play).
HELPS, NO_COST, SAME = "helps", "no measurable cost", "greedy's own number"
NOT_SHOWN, COSTS = "not shown to help", "costs win rate"
RECOMMENDED = (HELPS, NO_COST, SAME)


@dataclass
class GuideParts:
    """The guide's rules of thumb (its opening Markdown lines), its closing parts, and the
    value to play for each rule at each player count (`advice`)."""

    head: list[str]
    tail: list[str]
    advice: pd.DataFrame


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def _pp(v: float, sign: bool = True) -> str:
    """A proportion in percentage points: "+3.7", never "-0.0"."""
    text = f"{100 * v:+.1f}" if sign else f"{100 * v:.1f}"
    return text.replace("-0.0", "+0.0" if sign else "0.0")


def _md(df: pd.DataFrame) -> str:
    def cell(v):
        return f"{v:.3f}" if isinstance(v, float | np.floating) else str(v)

    rows = ["| " + " | ".join(map(str, df.columns)) + " |",
            "|" + "---|" * len(df.columns)]
    rows += ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join(rows)


def _counts(players) -> str:
    """"2 players", "2 and 3 players", "2, 3 and 4 players"."""
    n = [str(p) for p in players]
    return (n[0] if len(n) == 1 else ", ".join(n[:-1]) + " and " + n[-1]) + " players"


def rules_table(game: str) -> pd.DataFrame:
    """Each rule with its number, greedy's, the fit's agreement and the runner-up."""
    values, greedy = bundled_values(game), greedy_values(game)
    record_ = fit_record(game)
    return pd.DataFrame([{
        "rule": r.key, "decision": r.decision, "value": values[r.key],
        "greedy": greedy[r.key], "runner_up": record_["runner_up"][r.param][0],
        "agreement_lost_by_runner_up": record_["fit"]["agreement"]
        - record_["runner_up"][r.param][1],
        "says": r.say(values[r.key])} for r in RULES[game]])


def advice(game: str, table: pd.DataFrame, drops: pd.DataFrame) -> pd.DataFrame:
    """The value to play for each rule at each player count, from its ablation (the win rate
    the rule's number adds over greedy's, `measure`): each estimate classed against the
    smallest effect of interest under one Holm standard across the guide's ablations (a rule
    that is greedy's own number has nothing to class). A number that costs win rate
    meaningfully is not recommended: greedy's number, which the ablation measured as better,
    is played there instead. `ci_low`, `ci_high` are the 95% interval, `decided_low`,
    `decided_high` the one the class was decided on (`Claim.decision_ci`); `said` is the
    estimate with both and its class, in the reports' words (`effects.said`)."""
    standard, delta = Standard(), SMALLEST_RATE / 100
    claims = {}
    for row in drops.itertuples():
        if table.value[table.rule == row.rule].iloc[0] != \
                table.greedy[table.rule == row.rule].iloc[0]:
            est = Estimate.from_ci(row.win_rate_lost, row.ci_low, row.ci_high, row.games)
            claims[row.Index] = Claim.make(standard, f"{row.rule}, {row.players}p", est, delta)
    standard.settle()
    rules = {r.key: r for r in RULES[game]}
    values = dict(zip(table.rule, table.value, strict=True))
    greedy = dict(zip(table.rule, table.greedy, strict=True))
    rows = []
    for row in drops.itertuples():
        if values[row.rule] == greedy[row.rule]:  # the same play: nothing to class
            status, cls, (lo, hi), text = SAME, "", (0.0, 0.0), "+0.0 pp (the same play)"
        else:
            c = claims[row.Index]
            cls, (lo, hi), text = c.cls, c.decision_ci, said(c, "pp")
            status = (NOT_SHOWN if cls == UNRESOLVED else NO_COST if cls == NEGLIGIBLE
                      else HELPS if row.win_rate_lost > 0 else COSTS)
        value, base = values[row.rule], greedy[row.rule]
        play = base if status == COSTS else value
        rows.append({"rule": row.rule, "players": row.players, "value": value,
                     "greedy": base, "status": status, "play": play,
                     "play_text": rules[row.rule].amount(play), "gain": row.win_rate_lost,
                     "ci_low": row.ci_low, "ci_high": row.ci_high, "decided_low": lo,
                     "decided_high": hi, "class": cls, "said": text})
    return pd.DataFrame(rows)


def _worth(a: pd.DataFrame) -> str:
    """Each player count's gain over greedy's number, with its intervals and class."""
    return "; ".join(f"{r.players} players {r.said}" for r in a.itertuples())


def advice_lines(game: str, adv: pd.DataFrame) -> list[str]:
    """The advice in words: what to play at each player count (one value per rule and
    count), the rules recommended somewhere, those not shown to help anywhere, and what not
    to do (a number whose ablation shows it costs win rate)."""
    rules = RULES[game]
    counts = sorted(adv.players.unique())
    grid = []
    for rule in rules:
        a = adv[adv.rule == rule.key]
        cells = {}
        for r in a.itertuples():
            cells[f"{r.players} players"] = r.play_text + (
                "" if r.status in RECOMMENDED else " (not shown to help)" if r.status ==
                NOT_SHOWN else f" (greedy's number: {rule.amount(r.value)} costs win rate)")
        grid.append({"rule": rule.key, **cells})
    lines = ["### What to play, by player count", "",
             "One value for each rule at each player count: the rule's number where its "
             "ablation shows it gains or does not cost, greedy's number where the rule's "
             "costs win rate (the ablation measured greedy's as better), and the rule's "
             "number marked *not shown to help* where the games did not settle it.", "",
             _md(pd.DataFrame(grid)), "", "### The rules to play", ""]
    start, dont, unshown = len(lines), [], []
    for rule in rules:
        a = adv[adv.rule == rule.key]
        by = {s: a.players[a.status == s].tolist() for s in (*RECOMMENDED, NOT_SHOWN, COSTS)}
        worth = f"Win rate it adds over greedy's {rule.amount(a.greedy.iloc[0])}: {_worth(a)}."
        if by[COSTS]:
            dont.append(f"- At {_counts(by[COSTS])}, do not play *{rule.say(a.value.iloc[0])}* "
                        f"Play greedy's {rule.amount(a.greedy.iloc[0])} instead: "
                        + _worth(a[a.status == COSTS]) + ".")
        ok = sorted(by[HELPS] + by[NO_COST] + by[SAME])
        if not ok:
            if by[NOT_SHOWN]:
                unshown.append(f"- *{rule.say(a.value.iloc[0])}* ({rule.decision}) Not shown "
                               f"to help at {_counts(by[NOT_SHOWN])}. {worth}")
            continue
        verdicts = [f"{s} at {_counts(by[s])}" for s in RECOMMENDED if by[s]]
        if by[NOT_SHOWN]:
            verdicts.append(f"not shown to help at {_counts(by[NOT_SHOWN])}")
        if by[COSTS]:
            verdicts.append(f"costs win rate at {_counts(by[COSTS])}, where greedy's "
                        f"{rule.amount(a.greedy.iloc[0])} is played instead")
        scope = "every player count" if len(ok) == len(counts) > 1 else _counts(ok)
        lines.append(f"{len(lines) - start + 1}. **{rule.say(a.value.iloc[0])}** "
                     f"({rule.decision}; greedy plays {rule.amount(a.greedy.iloc[0])}.) "
                     f"Recommended at {scope}: " + "; ".join(verdicts) + f". {worth}")
    if len(lines) == start:
        lines.append("None: no rule is shown to gain or not to cost at these games.")
    if unshown:
        lines += ["", "### Not shown to help", "",
                  "Fitted to the tuned moves, but the games did not show that they gain or "
                  "that they do not cost (recommended at no player count):", "", *unshown]
    if dont:
        lines += ["", "### What not to do", "",
                  "The fitted number costs win rate meaningfully here: greedy's number does "
                  "better at these player counts.", "", *dont]
    return lines


def rules_lines(game: str, table: pd.DataFrame, rates: pd.DataFrame, adv: pd.DataFrame,
                games: int, seed: int) -> list[str]:
    """The guide's rules-of-thumb section from its measured tables (no games are played
    here)."""
    rec = fit_record(game)["fit"]
    classed = int((adv.status != SAME).sum())
    head = ["## Rules of thumb", "",
            f"Each rule is one number of the greedy policy, rounded to a value a person can "
            f"remember. The numbers were found by fitting the bundled tuned policies' moves: "
            f"{rec['games_per_count']} games of the tuned policy at each player count it is "
            f"tuned for (seed {rec['seed']}) gave {rec['positions']:,} positions with a "
            f"choice; for each rule every value of a short grid was tried, rule by rule until "
            f"none changed, and the value whose moves agree with the tuned moves at the most "
            f"positions was kept (`snapsim.games.rules.fit`, made by "
            f"`python analyses/fit_rules.py {game}`). The rules together play the tuned move "
            f"at {_pct(rec['agreement'])} of those positions; greedy plays it at "
            f"{_pct(rec['greedy_agreement'])}. The fit follows the tuned moves, not the win "
            f"rate, so each rule is then measured: the win rate it adds over greedy's number "
            f"for its decision (the rules with that one dropped, against greedy, paired game "
            f"by game on the same deals, {games:,} games per player count, seed {seed}). "
            f"Each gain is classed against the smallest effect of interest "
            f"({SMALLEST_RATE:g} pp of win rate) under Holm's correction across the "
            f"{classed} ablations of this guide: each is shown with its 95% interval and "
            f"the Holm-adjusted interval its class was decided on (docs/reading-reports.md). A "
            f"rule is recommended at a player count only where it helps (meaningful gain) or "
            f"shows no measurable cost (negligible); where it costs win rate meaningfully it "
            f"is listed under what not to do, with greedy's number in its place. Play the "
            f"fitted numbers as the policy `rules` (`snapsim simulate {game} --policies "
            f"rules,greedy`).", "", *advice_lines(game, adv)]
    head += ["", f"Win rate of `rules` (the fitted numbers, every rule) with its 95% Wilson "
             f"interval, in {games:,} games per row (seed {seed}, seats rotated), one `rules` "
             "seat against copies of the opponent:", "", _md(rates.assign(
                 win_rate=rates.win_rate.map(_pct), ci_low=rates.ci_low.map(_pct),
                 ci_high=rates.ci_high.map(_pct), fair_share=rates.fair_share.map(_pct))),
             "", "(tables: `strategy_rules.csv`, `strategy_rules_win_rates.csv`, "
             "`strategy_rules_ablation.csv`: each rule dropped in turn, paired game by game "
             "with the full rules on the same deals, 95% intervals; `strategy_rules_advice.csv`:"
             " the value to play at each player count, with the class and its interval)", ""]
    return head


def difference_claims(diff: pd.DataFrame) -> pd.DataFrame:
    """Each kind of move's difference in share (tuned less greedy), classed against the
    smallest effect of interest (2 pp of positions) under one Holm standard across the
    kinds and player counts: its class, the interval it was decided on and `said`, the
    estimate with its intervals and class in the reports' words."""
    standard, delta = Standard(), SMALLEST_RATE / 100
    claims = [Claim.make(standard, f"{r.players}p {r.kind}",
                         Estimate(r.difference, r.se, r.games), delta)
              for r in diff.itertuples()]
    standard.settle()
    ci = [c.decision_ci for c in claims]
    return diff.assign(cls=[c.cls for c in claims], decided_low=[lo for lo, _ in ci],
                       decided_high=[hi for _, hi in ci], said=[said(c, "pp") for c in claims])


def difference_sentences(diff: pd.DataFrame) -> list[str]:
    """The differences in the kinds of move chosen that are larger than the smallest effect
    of interest (meaningful), in plain words; the others are counted, not listed."""
    lines = []
    for n, part in diff.groupby("players"):
        total, differ = int(part.positions.iloc[0]), int(part.disagree.iloc[0])
        head = (f"- {n} players ({int(part.games.iloc[0]):,} games, {total:,} positions; they "
                f"pick different moves at {differ:,}, {_pct(differ / total)})")
        big = part[part.cls == MEANINGFUL].sort_values("difference", key=abs, ascending=False)
        moves = [f"picks *{r.kind}* {'more' if r.difference > 0 else 'less'} often, at "
                f"{r.tuned_all:,} positions against greedy's {r.greedy_all:,}: {r.said}"
                for r in big.itertuples()]
        rest = len(part) - len(big)
        tail = (f"{rest} other kinds of move: not distinguishable from a difference within "
                f"±{SMALLEST_RATE:g} pp at these games" if rest else "")
        if len(part) and part.se.isna().all():
            lines.append(f"{head}: too few games to tell a difference from chance (at least "
                         f"{MIN_DIFFERENCE_GAMES} are needed).")
        elif moves:
            lines.append(f"{head}: the tuned policy " + "; ".join(moves)
                         + (f"; {tail}." if tail else "."))
        else:
            lines.append(f"{head}: no kind of move differs by more than ±{SMALLEST_RATE:g} pp "
                         f"in a way these games show ({rest} kinds of move).")
    return lines


def guide_parts(game: str, out: Path, games: int, seed: int, threads: int | None = None,
                progress=None) -> GuideParts:
    """The guide's rules of thumb (its opening part), its closing parts (the closest calls,
    what the tuned policy does differently from greedy) and the value to play per rule and
    player count; writes their tables (strategy_rules*.csv, strategy_differences.csv) into
    `out`."""
    out = Path(out)
    table = rules_table(game)
    rates, drops = measure(game, games, seed, threads=threads, progress=progress)
    adv = advice(game, table, drops)
    table.to_csv(out / "strategy_rules.csv", index=False)
    rates.to_csv(out / "strategy_rules_win_rates.csv", index=False)
    drops.to_csv(out / "strategy_rules_ablation.csv", index=False)
    adv.to_csv(out / "strategy_rules_advice.csv", index=False)
    head = rules_lines(game, table, rates, adv, games, seed)
    rec = fit_record(game)["fit"]
    rules = {r.key: r for r in RULES[game]}
    close = table.sort_values("agreement_lost_by_runner_up").head(3)
    tail = ["## The closest calls", "",
            "The rules whose runner-up value plays the tuned moves almost as well (the fit's "
            "positions where the tuned move is lost by playing the runner-up instead):", ""]
    tail += [f"- {r.rule}: {rules[r.rule].amount(r.value)} against "
             f"{rules[r.rule].amount(r.runner_up)} "
             f"({round(r.agreement_lost_by_runner_up * rec['positions']):,} of "
             f"{rec['positions']:,} positions)" for r in close.itertuples()]
    n_diff = difference_games(games)
    diff = difference_claims(differences(game, n_diff, seed))
    diff.to_csv(out / "strategy_differences.csv", index=False)
    tail += ["", "## What the tuned policy does differently from greedy", "",
             f"Measured at the positions the tuned policies' own games reach ({n_diff:,} games "
             f"per player count, seed {seed}): greedy and the tuned policy are asked at the "
             f"same positions, and for each kind of move the share of positions where the "
             f"tuned policy picks it less the share where greedy does, paired position by "
             f"position with its interval clustered by game. Each difference is classed "
             f"against the smallest effect of interest ({SMALLEST_RATE:g} pp of positions) "
             f"under Holm's correction across the {len(diff)} differences, with the interval "
             f"the class was decided on; only the meaningful ones are listed.", ""]
    tail += difference_sentences(diff)
    tail += ["", "(table: `strategy_differences.csv`, every kind of move with its class)", ""]
    return GuideParts(head, tail, adv)


MIN_DIFFERENCE_GAMES = 30  # a clustered interval needs enough games (clusters) to hold


def difference_games(guide_games: int) -> int:
    """Games per player count for the differences: a game has hundreds of positions, so a
    hundredth of the guide's games, and at least `MIN_DIFFERENCE_GAMES`."""
    return max(MIN_DIFFERENCE_GAMES, guide_games // 100)
