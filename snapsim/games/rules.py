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
from scipy import stats

from ..analysis.effects import NEGLIGIBLE, Smallest, Standard, claim
from ..errors import InputError
from ..sim.files import write_text
from ..sim.kernel import Policy, policy_arrays
from .tuning import RULES as RULES_NAME
from .tuning import data_folder, policies_module, read_tuned, tuned_names

SWEEPS = 4


@dataclass(frozen=True)
class Rule:
    """One rule of thumb: the greedy parameter it sets, its grid of round values, what it
    decides and how it is said (`text` formats the value `v`)."""

    key: str
    param: str
    grid: tuple[float, ...]
    decision: str
    text: str

    def say(self, v: float) -> str:
        return self.text.format(v=_round(v), pct=round(100 * v), inv=_round(1 / v) if v else 0)


def _round(v: float) -> str:
    """A grid value as a person says it: 2, 0.5, 1.25."""
    return f"{v:g}"


def _grid(lo: float, hi: float, step: float) -> tuple[float, ...]:
    return tuple(float(x) for x in np.round(np.arange(lo, hi + step / 2, step), 6))


RULES: dict[str, tuple[Rule, ...]] = {
    "snapshot": (
        Rule("research cards", "max_placed", _grid(1, 8, 1), "research: draw or stop",
             "Stop researching once you have placed {v} cards this turn."),
        Rule("research risk", "max_risk", _grid(0.1, 0.5, 0.05), "research: draw or stop",
             "Stop researching when more than {pct}% of the unseen cards could not be placed "
             "(would spook)."),
        Rule("free reserve slot", "slot_risk", _grid(1, 3, 0.5), "research: draw or stop",
             "With a reserve slot free, accept {v} times that risk (a reserve catches a "
             "spook)."),
        Rule("token worth", "token_value", _grid(0, 1.5, 0.25),
             "tokens on cards and re-rolls",
             "Count a tracking token as worth {v} prestige: put it on a card or spend it on a "
             "re-roll only when that gains more."),
        Rule("keep for later", "keep_min", _grid(2, 12, 1), "research: place or reserve",
             "Reserve a card you could place now only when it is worth {v} or more."),
        Rule("offer", "offer_min", _grid(2, 12, 1), "research: offer or pass",
             "Offer a drawn card to the others only when it is worth {v} or more."),
        Rule("accept", "accept_max", _grid(0, 8, 1), "offers: accept or decline",
             "Accept another player's offer when the card you would give up is worth less "
             "than {v}."),
    ),
    "yosemite": (
        Rule("fish", "fish_value", _grid(0, 2, 0.25), "where to walk (fish eaten)",
             "Count a fish as {v} points: walk further only when the square gains more."),
        Rule("photos", "w_photo", _grid(0, 3, 0.5), "which tile to explore",
             "Weigh progress toward a face-up photo at {v} times its points."),
        Rule("judges", "w_judge", _grid(0, 2, 0.25), "which tile to explore",
             "Count each tile of a judged animal as {v} points."),
        Rule("landmarks", "w_landmark", _grid(0, 3, 0.5), "which tile to explore",
             "Weigh a landmark token's next chart step at {v} times its points."),
        Rule("next square", "w_next", _grid(0, 1.5, 0.25), "where to walk (ending square)",
             "Weigh what the square you end on offers next turn at {v}."),
        Rule("tents", "w_tent", _grid(0, 3, 0.5), "where to walk (tents)",
             "Weigh the camping points a tent move gains at {v} times their points."),
    ),
    "shutterbug": (
        Rule("assignment", "w_assign", _grid(0, 3, 0.5), "which creature to shoot",
             "Value a creature on your assignment's side at {v} per quality point."),
        Rule("off assignment", "w_off", _grid(0, 1.5, 0.25), "which creature to shoot",
             "Value any other creature at {v} per quality point."),
        Rule("side jobs", "w_job", _grid(0, 3, 0.5), "which creature to shoot",
             "Weigh side-job progress at {v} times the job's points."),
        Rule("tips", "tip_value", _grid(0, 2, 0.25), "spending and keeping tips",
             "Count a tip in hand as {v} points: spend it only when the move gains more."),
        Rule("cities", "w_city", _grid(0, 3, 0.5), "where to travel (city bonus)",
             "Weigh the end-of-game city bonus at {v}."),
        Rule("look ahead", "look", _grid(0, 1.5, 0.25), "where to travel (next turn)",
             "Weigh what you could shoot from where you end at {v} of its value."),
    ),
}
assert all(len(r) <= 10 for r in RULES.values())  # a person remembers at most ten


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
    """Positions met by a policy's games at one player count: states and streams, stacked."""

    players: int
    states: np.ndarray
    rngs: np.ndarray

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
    states, rngs, k = [], [], 0
    for i in range(games):
        g = _step_game(game, players, [policy] * players, seed, i)
        while not g.is_terminal:
            if len(g.legal_action_ids()) > 1:
                if k % every == 0:
                    states.append(g.state.copy())
                    rngs.append(g._rng.copy())
                k += 1
            g.apply(g.policy_action())
    return Positions(players, np.array(states), np.array(rngs))


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
    own games reach: by kind of move, how often each picks it where the two disagree."""
    rows = []
    for n in players or tuned_counts(game):
        pos = record(game, n, games, seed, every=every)
        tuned = decisions(game, pos, f"tuned-{n}p")
        greedy = decisions(game, pos, "greedy")
        differ = tuned != greedy
        kt = np.array(action_kinds(game, pos, tuned))
        kg = np.array(action_kinds(game, pos, greedy))
        for kind in sorted(set(kt) | set(kg)):
            rows.append({"players": n, "kind": kind, "positions": len(pos),
                         "disagree": int(differ.sum()),
                         "tuned": int((kt[differ] == kind).sum()),
                         "greedy": int((kg[differ] == kind).sum()),
                         "tuned_all": int((kt == kind).sum()),
                         "greedy_all": int((kg == kind).sum())})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- the strategy guide's parts

GAME_TITLES = {"snapshot": "Snapshot", "yosemite": "Yosemite", "shutterbug": "ShutterBug"}


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def _md(df: pd.DataFrame) -> str:
    def cell(v):
        return f"{v:.3f}" if isinstance(v, float | np.floating) else str(v)

    rows = ["| " + " | ".join(map(str, df.columns)) + " |",
            "|" + "---|" * len(df.columns)]
    rows += ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join(rows)


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


def guide_parts(game: str, out: Path, games: int, seed: int, threads: int | None = None,
                progress=None) -> tuple[list[str], list[str]]:
    """The guide's rules of thumb (its opening part) and its closing parts (the closest calls,
    what the tuned policy does differently from greedy), as Markdown lines; writes their
    tables (strategy_rules*.csv, strategy_differences.csv) into `out`."""
    out = Path(out)
    table = rules_table(game)
    rates, drops = measure(game, games, seed, threads=threads, progress=progress)
    table.to_csv(out / "strategy_rules.csv", index=False)
    rates.to_csv(out / "strategy_rules_win_rates.csv", index=False)
    drops.to_csv(out / "strategy_rules_ablation.csv", index=False)
    rec = fit_record(game)["fit"]
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
            f"{_pct(rec['greedy_agreement'])}. Play them as the policy `rules` "
            f"(`snapsim simulate {game} --policies rules,greedy`).", ""]
    classes = ablation_classes(drops)
    for i, r in enumerate(RULES[game], 1):
        lost = drops[drops.rule == r.key]
        worth = "; ".join(f"{row.players}p {_pct(row.win_rate_lost)} [{_pct(row.ci_low)}, "
                          f"{_pct(row.ci_high)}]" for row in lost.itertuples())
        value, greedy = table.value.iloc[i - 1], table.greedy.iloc[i - 1]
        verdict = ("It is greedy's own number, so dropping it changes nothing."
                   if value == greedy else verdict_sentence(lost, classes))
        head.append(f"{i}. **{r.say(value)}** ({r.decision}; greedy plays {greedy:g}.) Win "
                    f"rate lost against greedy when this rule is dropped (greedy's number "
                    f"instead): {worth}. {verdict}")
    head += ["", f"Each rule's verdict classes the win rate lost at each player count against "
             f"the smallest effect of interest ({SMALLEST_RATE:g} pp) under Holm's correction "
             f"across the {len(classes)} ablations of this guide (docs/reading-reports.md): "
             "worth keeping or costs win rate (meaningful), too small to matter (negligible), "
             "or not settled at this number of games (unresolved)."]
    head += ["", f"Win rate of `rules` with its 95% Wilson interval, in {games:,} games per "
             f"row (seed {seed}, seats rotated), one `rules` seat against copies of the "
             "opponent:", "", _md(rates.assign(
                 win_rate=rates.win_rate.map(_pct), ci_low=rates.ci_low.map(_pct),
                 ci_high=rates.ci_high.map(_pct), fair_share=rates.fair_share.map(_pct))),
             "", "(tables: `strategy_rules.csv`, `strategy_rules_win_rates.csv`, "
             "`strategy_rules_ablation.csv`: each rule dropped in turn, paired game by game "
             "with the full rules on the same deals, 95% intervals)", ""]
    close = table.sort_values("agreement_lost_by_runner_up").head(3)
    tail = ["## The closest calls", "",
            "The rules whose runner-up value plays the tuned moves almost as well (the fit's "
            "positions where the tuned move is lost by playing the runner-up instead):", ""]
    tail += [f"- {r.rule}: {r.value:g} against {r.runner_up:g} "
             f"({round(r.agreement_lost_by_runner_up * rec['positions']):,} of "
             f"{rec['positions']:,} positions)" for r in close.itertuples()]
    diff = differences(game, max(1, games // 200), seed)
    diff.to_csv(out / "strategy_differences.csv", index=False)
    tail += ["", "## What the tuned policy does differently from greedy", "",
             "Measured at the positions the tuned policies' own games reach "
             f"({max(1, games // 200)} games per player count, seed {seed}): greedy and the "
             "tuned policy are asked at the same positions, and where they disagree, how often "
             "each picks each kind of move.", ""]
    tail += difference_sentences(diff)
    tail += ["", "(table: `strategy_differences.csv`)", ""]
    return head, tail


SMALLEST_RATE = Smallest().rate  # pp: the reports' smallest effect of interest on a win rate


def ablation_classes(drops: pd.DataFrame) -> dict[tuple, str]:
    """(rule, players) -> worth keeping, costs win rate, too small to matter or not settled:
    the win rate lost when the rule is dropped, classed against the smallest effect of
    interest under one Holm standard across the guide's ablations (a rule that is greedy's
    own number has nothing to class and is left out)."""
    standard, kinds = Standard(), {}
    for row in drops.itertuples():
        if row.ci_high == row.ci_low:
            continue
        se = (row.ci_high - row.ci_low) / (2 * stats.norm.ppf(0.975))
        kind, p = claim(row.win_rate_lost, se, SMALLEST_RATE / 100)
        key = (row.rule, row.players)
        standard.add(repr(key), p)
        kinds[key] = (kind, row.win_rate_lost)
    words = {}
    for key, (kind, lost) in kinds.items():
        if not standard.passes(repr(key)):
            words[key] = "not settled"
        elif kind == NEGLIGIBLE:
            words[key] = "too small to matter"
        else:
            words[key] = "worth keeping" if lost > 0 else "costs win rate"
    return words


def verdict_sentence(lost: pd.DataFrame, classes: dict[tuple, str]) -> str:
    """'Worth keeping at 2p, 5p; not settled at 3p, 4p.' for one rule's ablations."""
    by: dict[str, list[str]] = {}
    for row in lost.itertuples():
        word = classes.get((row.rule, row.players))
        if word:
            by.setdefault(word, []).append(f"{row.players}p")
    order = ["worth keeping", "costs win rate", "too small to matter", "not settled"]
    parts = [f"{w} at {', '.join(by[w])}" for w in order if w in by]
    return ("; ".join(parts) + ".").capitalize() if parts else ""


def difference_sentences(diff: pd.DataFrame) -> list[str]:
    """Plain words for the largest differences in the kinds of move chosen."""
    lines = []
    for n, part in diff.groupby("players"):
        total, differ = int(part.positions.iloc[0]), int(part.disagree.iloc[0])
        if not differ:
            lines.append(f"- {n} players: the two agree at all {total:,} positions.")
            continue
        gap = (part.tuned_all - part.greedy_all).to_numpy()
        order = np.argsort(-np.abs(gap))[:3]
        said = []
        for i in order:
            row = part.iloc[i]
            if gap[i] == 0:
                continue
            more = "more" if gap[i] > 0 else "less"
            said.append(f"picks *{row.kind}* {more} often ({row.tuned_all:,} times against "
                        f"greedy's {row.greedy_all:,})")
        lines.append(f"- {n} players: they disagree at {differ:,} of {total:,} positions "
                     f"({_pct(differ / total)}); the tuned policy " + "; ".join(said) + ".")
    return lines
