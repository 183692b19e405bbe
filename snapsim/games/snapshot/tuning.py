"""Tuning a heuristic policy's parameters for win rate against a field of opponents.

Differential evolution (scipy) over a few parameters that shape the policy's play (research
risk, placements per turn, token value, reserving and offering thresholds), each candidate
played against copies of the field with seats rotated. Every candidate meets the same games
(common random numbers: one seed for all), so differences between candidates are not luck
of the deal. The winner is then checked on fresh seeds against the default policy: its win
rate must beat the fair share 1/players with a significant score test, or it is not saved.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import optimize

from ...analysis.balance import rate_vs
from ...analysis.stats import wilson_interval
from ...errors import InputError
from ...sim import simulate
from ...sim.kernel import Policy
from ...sim.provenance import provenance
from ...sim.runner import prepare
from . import policies as P

DATA = Path(__file__).resolve().parent / "data"
SEARCHED = {"max_risk": (0.05, 0.6), "max_placed": (1.0, 8.0), "slot_risk": (1.0, 3.0),
            "token_value": (0.0, 1.5), "keep_min": (2.0, 12.0), "offer_min": (2.0, 12.0),
            "accept_max": (0.0, 8.0)}


@dataclass
class TuneResult:
    players: int
    base: str
    field: str
    params: dict[str, float]
    win_rate: float
    ci_low: float
    ci_high: float
    p_value: float
    verify_games: int
    verify_seed: int
    evaluations: int
    provenance: dict = field(default_factory=dict)  # components, knobs, seed, n, version

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05 and self.win_rate > 1.0 / self.players


def _policy(base: str, values: np.ndarray, name: str = "candidate") -> Policy:
    params = list(P.DEFAULT_PARAMS[base])
    for key, v in zip(SEARCHED, values, strict=True):
        params[P.PARAM_NAMES.index(key)] = float(v)
    return Policy(name, P.KIND_NAMES.index(base), tuple(params))


def _win_rate(policy: Policy, field: str, players: int, games: int, seed: int, threads,
              config=None):
    df = simulate("snapshot", players=players, policies=[policy] + [field] * (players - 1),
                  games=games, seed=seed, threads=threads, config=config)
    mine = df[df.policy.astype(str) == policy.name]
    return float(mine.won.sum()), len(mine)


def tune(players: int = 4, base: str = "greedy", field: str = "greedy", games: int = 1000,
         seed: int = 0, iterations: int = 4, popsize: int = 5, verify_games: int = 20_000,
         threads: int | None = None, components=None, **knobs) -> TuneResult:
    """Optimise `base`'s parameters against `field` copies; validate on fresh seeds. The games
    use `components` ("standard", a file or a loaded set) and rule `knobs`."""
    if base not in P.DEFAULT_PARAMS or base == "random":
        raise InputError(f"can only tune a heuristic policy: one of "
                         f"{', '.join(k for k in P.KIND_NAMES if k != 'random')}")
    _, config, opponents = prepare("snapshot", players=players, policies=[field],
                                   components=components, **knobs)
    bounds = list(SEARCHED.values())
    evaluations = 0

    def objective(x):
        nonlocal evaluations
        evaluations += 1
        wins, n = _win_rate(_policy(base, x), field, players, games, seed, threads, config)
        return -wins / n

    res = optimize.differential_evolution(objective, bounds, maxiter=iterations,
                                          popsize=popsize, seed=seed, polish=False, tol=0,
                                          init="sobol")
    best = _policy(base, res.x, name=f"tuned-{players}p")
    verify_seed = seed + 1_000_003  # fresh games, never seen while tuning
    wins, n = _win_rate(best, "greedy", players, verify_games, verify_seed, threads, config)
    lo, hi = wilson_interval(wins, n)
    record = provenance("snapshot", config, [best, *opponents[1:]],
                        seed, games, verify_games=verify_games, verify_seed=verify_seed)
    return TuneResult(players, base, field, dict(zip(SEARCHED, map(float, res.x), strict=True)),
                      wins / n, float(lo), float(hi), float(rate_vs(wins, n, 1 / players)),
                      verify_games, verify_seed, evaluations, record)


def save_tuned(result: TuneResult, path: str | Path | None = None, force: bool = False) -> Path:
    """Write a tuned policy as data (default: tuned-<players>p.toml in the current folder,
    never over an existing file unless `force`); use it as `--policies FILE`."""
    path = Path(path) if path else Path.cwd() / f"tuned-{result.players}p.toml"
    if path.is_dir():
        path = path / f"tuned-{result.players}p.toml"
    if path.exists() and not force:
        raise InputError(f"{path} already exists; give another --out or add --force to "
                         "replace it")
    lines = [f"# Tuned by `snapsim tune snapshot --players {result.players}`: {result.base} "
             f"against {result.field} copies, {result.evaluations} candidates.",
             f'base = "{result.base}"', f"players = {result.players}", "", "[params]"]
    lines += [f"{k} = {v:.6g}" for k, v in result.params.items()]
    lines += ["", "[validation]  # fresh seeds, against the default greedy policy",
              f"games = {result.verify_games}", f"seed = {result.verify_seed}",
              f"win_rate = {result.win_rate:.6g}", f"ci_low = {result.ci_low:.6g}",
              f"ci_high = {result.ci_high:.6g}", f"fair_share = {1 / result.players:.6g}",
              f"p_value = {result.p_value:.6g}"]
    prov = result.provenance
    if prov:
        comps = prov["components"]
        lines += ["", "[provenance]  # what the tuning games were made of",
                  f"snapsim = {json.dumps(prov['snapsim'])}",
                  f"components = {json.dumps(comps['name'])}",
                  f"components_sha256 = {json.dumps(comps['sha256'])}",
                  f"knobs = {json.dumps(json.dumps(prov['knobs']))}",
                  f"seed = {prov['seed']}", f"games_per_candidate = {prov['games']}"]
    try:
        path.write_text("\n".join(lines) + "\n")
    except OSError as exc:
        raise InputError(f"cannot write {path} ({exc.strerror or exc}); choose a writable "
                         "place with --out") from None
    return path


def read_tuned(path: Path) -> tuple[str, tuple[float, ...]]:
    """(base kind, parameter vector) of a tuned-policy file."""
    try:
        data = tomllib.loads(Path(path).read_text())
        params = list(P.DEFAULT_PARAMS[data["base"]])
        for k, v in data["params"].items():
            params[P.PARAM_NAMES.index(k)] = float(v)
    except (OSError, ValueError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{Path(path).name}: not a tuned-policy file ({exc}); make one with "
                         "snapsim tune snapshot") from None
    return data["base"], tuple(params)


def tuned_policies(folder: Path = DATA) -> dict[str, tuple[str, tuple[float, ...]]]:
    """Tuned policies by name (bundled in the data folder): (base kind, parameter vector)."""
    return {f.stem: read_tuned(f) for f in sorted(Path(folder).glob("tuned-*.toml"))}
