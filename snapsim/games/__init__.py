"""The games, one package each; each package registers itself with `register_game`."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec


def register_game(package: str, make_config, step: type, default_policy: str = "greedy",
                  name: str | None = None, **extra):
    """Register the game package `package` (its `__name__`) from the parts every game has:
    api (make_policy, run_games and the batch kernel's result columns and recorder), its step
    class `step`, policies (KIND_NAMES), components (load_components), measures (MEASURES)
    and report (build, imported only when a report is made: matplotlib and the studies).
    `name` defaults to the package's last part; `extra` are the GameSpec fields that only
    some games have or that say the game in words (title, rules, searched, guide). The
    package's optional `screen` module is its play screen's parts (GameSpec.screen), its
    optional `hints` module the exact numbers of its hints and advice (GameSpec.hints)."""
    from ..sim.registry import GameSpec, register
    from . import tuning

    api = import_module(".api", package)

    def report(*args, **kwargs):
        return import_module(".report", package).build(*args, **kwargs)

    name = name or package.rsplit(".", 1)[-1]
    return register(GameSpec(
        name=name,
        make_config=make_config,
        make_policy=api.make_policy,
        run_chunk=api.run_games,
        players=lambda config: config.players,
        default_policy=default_policy,
        load_components=import_module(".components", package).load_components,
        report=report,
        measures=import_module(".measures", package).MEASURES,
        step=step,
        result_columns=tuple(api.INT_COLUMNS),
        record=api._record,
        policy_kinds=tuple(import_module(".policies", package).KIND_NAMES),
        tuned_names=lambda: tuning.tuned_names(name),
        package=package,
        screen=_part(".screen", package),
        hints=_part(".hints", package),
        advisor=_part(".advisor", package),
        **{"title": name.capitalize(), **extra},
    ))


def _part(module: str, package: str):
    """A game package's optional module (None when it has none)."""
    return import_module(module, package) if find_spec(module, package) else None
