"""ShutterBug (Calliope, 2017): components, rules engine, policies, step API."""

from ...sim.registry import GameSpec, register
from .api import ShutterbugGame, make_policy, run_games
from .components import load_components
from .config import ShutterbugConfig
from .measures import MEASURES


def _report(*args, **kwargs):
    from .report import build  # matplotlib and the studies load only when a report is made

    return build(*args, **kwargs)


GAME = register(GameSpec(
    name="shutterbug",
    make_config=ShutterbugConfig.from_knobs,
    make_policy=make_policy,
    run_chunk=run_games,
    players=lambda config: config.players,
    default_policy="greedy",
    load_components=load_components,
    report=_report,
    measures=MEASURES,
))

__all__ = ["GAME", "ShutterbugConfig", "ShutterbugGame", "load_components", "make_policy",
           "run_games"]
