"""OpenSpiel games over the step protocol: importing this module registers
``python_snapsim_snapshot``, ``python_snapsim_yosemite`` and ``python_snapsim_shutterbug``.

Chance is sampled inside `apply` from the game's seeded stream (SAMPLED_STOCHASTIC), so a
state has no chance nodes. Parameters: ``players`` and ``seed``; the n-th state a game
object creates is game n of that seed. Returns are win shares: Snapshot and Yosemite are
constant-sum (shares add up to 1); ShutterBug is general-sum (its solo and cooperative
variants are won or lost by everyone alike). Observations are the seats' tensors.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ..protocol import GameState, game_class

_T = pyspiel.GameType


class SnapsimOpenSpielGame(pyspiel.Game):
    """A snapsim game as an OpenSpiel game; `NAME` says which."""

    NAME: str
    TYPE: pyspiel.GameType
    DEFAULTS: dict[str, int]

    def __init__(self, params: dict[str, int] | None = None) -> None:
        params = {**self.DEFAULTS, **(params or {})}
        cls = game_class(self.NAME)
        self.config = cls.CONFIG.from_knobs(players=params["players"])
        self.seed = params["seed"]
        self._started = 0
        probe = cls(self.config, seed=self.seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_distinct_actions, max_chance_outcomes=0,
            num_players=self.config.players, min_utility=0.0, max_utility=1.0,
            utility_sum=1.0 if self.TYPE.utility == _T.Utility.CONSTANT_SUM else None,
            max_game_length=probe.max_game_length)
        super().__init__(self.TYPE, info, params)

    def new_initial_state(self) -> SnapsimOpenSpielState:
        game = self._started
        self._started += 1
        return SnapsimOpenSpielState(self, game_class(self.NAME)(
            self.config, seed=self.seed, game=game, rotate_seats=False, log=False))

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> SeatObserver:
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("only observations (no perfect-recall information states)")
        return SeatObserver(self)


class SnapsimOpenSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a protocol state (`.game_state`)."""

    def __init__(self, game: SnapsimOpenSpielGame, game_state: GameState) -> None:
        super().__init__(game)
        self.game_state = game_state

    def current_player(self) -> int:
        g = self.game_state
        return pyspiel.PlayerId.TERMINAL if g.is_terminal else g.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(int(a) for a in self.game_state.legal_action_ids())

    def _apply_action(self, action: int) -> None:
        self.game_state.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.game_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.game_state.is_terminal

    def returns(self) -> list[float]:
        return [float(x) for x in self.game_state.returns()]

    def rewards(self) -> list[float]:
        return [float(x) for x in self.game_state.rewards()]

    def __str__(self) -> str:
        return self.game_state.serialize().decode()

    def __deepcopy__(self, memo: dict) -> SnapsimOpenSpielState:
        return SnapsimOpenSpielState(self.get_game(), self.game_state.clone())


class SeatObserver:
    """A seat's observation tensor (`dict["observation"]` views the same numbers)."""

    def __init__(self, game: SnapsimOpenSpielGame) -> None:
        size = int(np.prod(game_class(game.NAME)(game.config).observation_shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SnapsimOpenSpielState, player: int) -> None:
        self.tensor[:] = state.game_state.observation_tensor(player)

    def string_from(self, state: SnapsimOpenSpielState, player: int) -> str:
        return str(state.game_state.observation(player))


def _register(name: str, long_name: str, utility: pyspiel.GameType.Utility, min_players: int,
              max_players: int,
              players: int) -> type[SnapsimOpenSpielGame]:
    game_type = _T(
        short_name=f"python_snapsim_{name}", long_name=f"snapsim {long_name}",
        dynamics=_T.Dynamics.SEQUENTIAL, chance_mode=_T.ChanceMode.SAMPLED_STOCHASTIC,
        information=_T.Information.IMPERFECT_INFORMATION, utility=utility,
        reward_model=_T.RewardModel.TERMINAL, max_num_players=max_players,
        min_num_players=min_players, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": players, "seed": 0})
    cls = type(f"OpenSpiel{long_name}", (SnapsimOpenSpielGame,),
               {"NAME": name, "TYPE": game_type, "DEFAULTS": {"players": players, "seed": 0}})
    pyspiel.register_game(game_type, cls)
    return cls


SnapshotOpenSpiel = _register("snapshot", "Snapshot", _T.Utility.CONSTANT_SUM, 2, 5, 4)
YosemiteOpenSpiel = _register("yosemite", "Yosemite", _T.Utility.CONSTANT_SUM, 2, 2, 2)
ShutterbugOpenSpiel = _register("shutterbug", "ShutterBug", _T.Utility.GENERAL_SUM, 1, 6, 4)
