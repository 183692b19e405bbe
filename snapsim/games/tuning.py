"""Tuning a heuristic policy's parameters for win rate against a field of opponents, for
any game.

Differential evolution (scipy) over a few parameters that shape the policy's play, each
candidate played against copies of the field with seats rotated. Every candidate meets the
same games (common random numbers: one seed for all), so differences between candidates
are not luck of the deal. The winner is then checked on fresh seeds against the default
greedy policy: its win rate must beat the fair share 1/players with a significant score
test, or it is not saved. A game supplies only which parameters are searched and within
which ranges (`SEARCHED`, inside each parameter's valid range); the policy kinds, names
and defaults come from the game's policies module.

Why differential evolution: on equal small budgets (about 60-80 candidates of 200 games,
Yosemite and ShutterBug, two seeds each, winners checked on 4000 fresh games) CMA-ES (the
`cma` package, started from the default parameters) found neither better nor worse winners
(fresh win rates 0.747/0.793 vs DE's 0.759/0.769 in Yosemite, 0.281/0.295 vs 0.301/0.262 in
ShutterBug), so scipy's optimiser stays and no dependency is added.

Tuned policies are data: `tuned-<N>p.toml` files. `snapsim tune` writes them where it is
told (never into the installed package); the bundled ones live in each game's data folder
and are made by analyses/tune_all.py.

Candidates are played against the field however the optimiser maps them (one after another
or through a worker pool): a failure inside a candidate's games, such as an outside agent in
the field that raises, exits or runs out of time (snapsim.sim.agents), leaves the search as
that same error, the one line every other command gives, rather than as the optimiser's own.

The tuner sits with the games: it reads each game's policies module, and the games read
their bundled tuned policies through it; the layers below find a game's tuned policies in
its registration (`GameSpec.tuned_names`).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType

from ..errors import InputError
from ..sim.files import claim_output, read_toml, starts_with, write_text
from ..sim.kernel import Policy
from ..sim.registry import ByGame, game_package

# Searched parameters and ranges by game: each game's GameSpec declares its own (`searched`).
SEARCHED = ByGame("searched")
VERIFY_AGAINST = "greedy"
TUNED_HEADER = "# Tuned by `snapsim tune"  # a tuned file's first words: --force replaces those
RULES = "rules"  # the policy name of a game's rules of thumb, bundled as data/rules.toml
VERIFY_OFFSET = 1_000_003  # verification seed = tuning seed + this: games never seen tuning


def policies_module(game: str) -> ModuleType:
    """The game's policies module (kinds, parameter names with ranges, defaults), in the
    package the game registered."""
    return import_module(".policies", game_package(game))


def data_folder(game: str) -> Path:
    """Where the game's bundled tuned policies live."""
    return Path(str(policies_module(game).__file__)).resolve().parent / "data"


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
    # components, knobs, seed, n, version
    provenance: dict = dataclasses.field(default_factory=dict)
    game: str = ""

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05 and self.win_rate > 1.0 / self.players


def candidate(game: str, base: str, values, name: str = "candidate") -> Policy:
    """`base` with the searched parameters set to `values` (in `SEARCHED[game]` order)."""
    P = policies_module(game)
    params = list(P.DEFAULT_PARAMS[base])
    for key, v in zip(SEARCHED[game], values, strict=True):
        params[P.PARAM_NAMES.index(key)] = float(v)
    return Policy(name, P.KIND_NAMES.index(base), tuple(params))


def _wins(game: str, policy: Policy, field: str, players: int, games: int, seed: int,
          threads, config) -> tuple[float, int]:
    from ..sim.runner import simulate

    df = simulate(game, policies=[policy] + [field] * (players - 1), games=games, seed=seed,
                  threads=threads, config=config)
    mine = df[df.policy.astype(str) == policy.name]
    return float(mine.won.sum()), len(mine)


class _Stopped(Exception):
    """Carries a candidate's failure out of the optimiser: scipy turns a ValueError raised
    while mapping the objective (an InputError, hence an AgentError, is one) into its own
    RuntimeError, but lets other exceptions through, from any worker pool."""

    def __init__(self, error: Exception):
        super().__init__(error)
        self.error = error


@dataclass(frozen=True)
class _Carried:
    """`objective` with its exceptions wrapped in _Stopped for the way out of the optimiser
    (a class, so that a process pool can send it when the objective can be sent)."""

    objective: object

    def __call__(self, x):
        try:
            return self.objective(x)
        except Exception as exc:  # noqa: BLE001 - every failure leaves the search as itself
            raise _Stopped(exc) from exc


def search(objective, bounds, **options):
    """scipy's differential evolution of `objective` within `bounds`; a failure in the
    objective, under any `workers` pool, is raised as itself (see _Stopped)."""
    from scipy import optimize

    try:
        return optimize.differential_evolution(_Carried(objective), bounds, **options)
    except _Stopped as stop:
        raise stop.error from None


def check_base(game: str, base: str) -> None:
    """A tunable policy: one of the game's heuristic kinds."""
    P = policies_module(game)
    if base not in P.DEFAULT_PARAMS or base == "random":
        raise InputError(f"can only tune a heuristic policy: one of "
                         f"{', '.join(k for k in P.KIND_NAMES if k != 'random')}")
    for key, (lo, hi) in SEARCHED[game].items():
        param = P.PARAM_NAMES[P.PARAM_NAMES.index(key)]
        assert param.lo <= lo < hi <= param.hi, f"{game} {key}: searched outside its range"


def tune(game: str, players: int | None = None, base: str = "greedy", field: str = "greedy",
         games: int = 1000, seed: int = 0, iterations: int = 4, popsize: int = 5,
         verify_games: int = 20_000, threads: int | None = None, components=None,
         **knobs) -> TuneResult:
    """Optimise `base`'s parameters against `field` copies; validate on fresh seeds. The games
    use `components` ("standard", a file or a loaded set) and rule `knobs`."""
    from ..analysis.balance import rate_vs
    from ..analysis.stats import wilson_interval
    from ..sim.provenance import provenance
    from ..sim.runner import prepare

    spec, config, opponents = prepare(game, players, [field], components=components, **knobs)
    game = spec.name
    if game not in SEARCHED:
        raise InputError(f"tuning is available for {', '.join(SEARCHED)}, not {game!r}")
    check_base(game, base)
    n = spec.players(config)
    if n < 2:
        raise InputError("tuning plays for win rate against other players: give --players 2 "
                         "or more")
    evaluations = 0

    def objective(x):
        nonlocal evaluations
        evaluations += 1
        wins, seats = _wins(game, candidate(game, base, x), field, n, games, seed, threads,
                           config)
        return -wins / seats

    res = search(objective, list(SEARCHED[game].values()), maxiter=iterations,
                 popsize=popsize, seed=seed, polish=False, tol=0, init="sobol")
    best = candidate(game, base, res.x, name=f"tuned-{n}p")
    verify_seed = seed + VERIFY_OFFSET
    wins, seats = _wins(game, best, VERIFY_AGAINST, n, verify_games, verify_seed, threads,
                        config)
    lo, hi = wilson_interval(wins, seats)
    record = provenance(game, config, [best, *opponents[1:]], seed, games,
                        verify_games=verify_games, verify_seed=verify_seed)
    return TuneResult(n, base, field, dict(zip(SEARCHED[game], map(float, res.x), strict=True)),
                      wins / seats, float(lo), float(hi), float(rate_vs(wins, seats, 1 / n)),
                      verify_games, verify_seed, evaluations, record, game)


def save_tuned(result: TuneResult, path: str | Path | None = None, force: bool = False) -> Path:
    """Write a tuned policy as data (default: tuned-<players>p.toml in the current folder;
    over an earlier tuned file only with `force`, never over any other file); use it as
    `--policies FILE`."""
    path = Path(path) if path else Path.cwd() / f"tuned-{result.players}p.toml"
    if path.is_dir():
        path = path / f"tuned-{result.players}p.toml"
    replace = claim_output(path, force, starts_with(TUNED_HEADER.encode()))
    lines = [f"{TUNED_HEADER} {result.game} --players {result.players}`: "
             f"{result.base} against {result.field} copies, {result.evaluations} candidates.",
             f'game = "{result.game}"', f'base = "{result.base}"',
             f"players = {result.players}", "", "[params]"]
    lines += [f"{k} = {v:.6g}" for k, v in result.params.items()]
    lines += ["", f"[validation]  # fresh seeds, against the default {VERIFY_AGAINST} policy",
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
    try:  # whole or not at all, and never over a file that appeared meanwhile, unless forced
        write_text(path, "\n".join(lines) + "\n", replace=replace)
    except FileExistsError:
        raise InputError(f"{path} already exists; give another --out or add --force to "
                         "replace it") from None
    except OSError as exc:
        raise InputError(f"cannot write {path} ({exc.strerror or exc}); choose a writable "
                         "place with --out") from None
    return path


def read_tuned(game: str, path) -> tuple[str, tuple[float, ...]]:
    """(base kind, parameter vector) of a tuned-policy file for `game` (a file without a
    `game` line, written before tuning covered every game, is checked by its parameters)."""
    P = policies_module(game)
    try:
        data = read_toml(path)
        if data.get("game", game) != game:
            raise ValueError(f"tuned for {data['game']}, not {game}")
        params = list(P.DEFAULT_PARAMS[data["base"]])
        for k, v in data["params"].items():
            params[P.PARAM_NAMES.index(k)] = float(v)
    except (OSError, ValueError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{Path(path).name}: not a {game} tuned-policy file ({exc}); make one "
                         f"with snapsim tune {game}") from None
    return data["base"], tuple(params)


def tuned_policies(game: str, folder: Path | None = None) -> dict[str, tuple[str, tuple]]:
    """Tuned policies by name (bundled in the game's data folder): (base kind, parameters)."""
    folder = data_folder(game) if folder is None else Path(folder)
    return {f.stem: read_tuned(game, f) for f in sorted(folder.glob("tuned-*.toml"))}


def bundled_tuned(game: str, name: str) -> tuple[str, tuple[float, ...]] | None:
    """(base kind, parameters) of the game's bundled tuned policy `name` (e.g. "tuned-4p"),
    read from its file alone; None when none of that name is bundled."""
    path = data_folder(game) / f"{name}.toml"
    return read_tuned(game, path) if path.is_file() else None


def tuned_names(game: str) -> list[str]:
    """Names of the game's bundled tuned policies, e.g. ["tuned-2p", "tuned-4p"]."""
    return sorted(f.stem for f in data_folder(game).glob("tuned-*.toml"))


def tuned_policy(game: str, spec) -> Policy | None:
    """`spec` as a Policy when it names a bundled tuned policy of `game` (`tuned-<N>p`), its
    rules of thumb (`rules`) or a tuned-policy file (`path.toml`), with `:key=value`
    overrides either way; else None (a game's make_policy can start with
    `tuned_policy(game, spec) or ...`)."""
    from ..sim.kernel import parse_policy

    if not isinstance(spec, str):
        return None
    text = spec.strip()
    head = text.split(":")[0].strip()
    if head.endswith(".toml"):
        kind, params = read_tuned(game, head)
        name = Path(head).stem
    elif head.lower() in tuned_names(game) and (found := bundled_tuned(game, head.lower())):
        name = head.lower()
        kind, params = found
    elif head.lower() == RULES and (data_folder(game) / f"{RULES}.toml").is_file():
        name = RULES  # the rules of thumb (games/rules.py): greedy with their numbers
        kind, params = read_tuned(game, data_folder(game) / f"{RULES}.toml")
    else:
        return None
    P = policies_module(game)
    pol = parse_policy(name + text[len(head):], game, (*P.KIND_NAMES, name), P.PARAM_NAMES,
                       {**P.DEFAULT_PARAMS, name: params})
    return Policy(pol.name, P.KIND_NAMES.index(kind), pol.params)

