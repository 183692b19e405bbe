"""Gymnasium single-agent environment: one seat against built-in policies.

The observation is the seat's tensor; ``info["action_mask"]`` (and `action_masks()`) marks
its legal actions. Reward: 0 until the game ends, then the seat's win share. An illegal
action ends the episode with reward -1 (use the mask).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..errors import InputError
from .state import OBS_HIGH, OBS_LOW, new_state


class SnapsimGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, seat: int = 0, opponents: str | list[str] = "greedy",
                 render_mode: str | None = None, **config: object) -> None:
        self._game, self._config = game, config
        probe = new_state(game, 0, None, **config)
        n = probe.config.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InputError(f"seat must be 0-{n - 1}, got {seat!r}")
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) != n:
            raise InputError(f"opponents: give one policy or {n} (one per seat), "
                             f"got {len(specs)}")
        self.seat, self._policies = seat, specs
        self.render_mode = render_mode
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, probe.observation_shape,
                                            np.float32)
        self.action_space = spaces.Discrete(probe.num_distinct_actions)
        self.state = probe

    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2 ** 31))
        self.state = new_state(self._game, game_seed, self._policies, **self._config)
        self._play_opponents()
        return self.state.observation_tensor(self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if int(action) not in set(self.state.legal_action_ids().tolist()):
            return (self.state.observation_tensor(self.seat), -1.0, True, False,
                    {**self._info(), "illegal_action": int(action)})
        self.state.apply(int(action))
        self._play_opponents()
        reward = float(self.state.returns()[self.seat]) if self.state.is_terminal else 0.0
        return (self.state.observation_tensor(self.seat), reward, self.state.is_terminal,
                False, self._info())

    def action_masks(self) -> np.ndarray:
        """Legal actions of the seat now (all False once the game is over)."""
        return self.state.legal_action_mask()

    def _play_opponents(self) -> None:
        while not self.state.is_terminal and self.state.current_player != self.seat:
            self.state.apply(self.state.policy_action())

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return "\n".join((self.state.log or [])[-20:])
        return None
