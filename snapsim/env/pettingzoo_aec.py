"""PettingZoo AEC environment over the step protocol.

Agents are ``player_0`` .. ``player_{n-1}``; each observation is a dict with the seat's
``observation`` tensor and the ``action_mask`` of its legal actions (all zeros when it is not
that seat's turn). Rewards: 0 until the game ends, then each seat's win share.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .state import OBS_HIGH, OBS_LOW, fresh_seed, new_state


class SnapsimAEC(AECEnv):
    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **config: object) -> None:
        super().__init__()
        self._game, self._config = game, config
        self.state = new_state(game, 0, None, **config)
        self.metadata = {**self.metadata, "name": f"snapsim_{self.state.NAME}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.state.config.players)]
        n_act = self.state.num_distinct_actions
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, self.state.observation_shape,
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8)})
        self._act_space = spaces.Discrete(n_act)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.state = new_state(self._game, fresh_seed() if seed is None else seed,
                               None, **self._config)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.state.num_distinct_actions, np.int8)
        if self.state.current_player == p:
            mask[self.state.legal_action_ids()] = 1
        return {"observation": self.state.observation_tensor(p), "action_mask": mask}

    def step(self, action: int) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[self.agent_selection] = 0
        self.state.apply(int(action))
        rewards = self.state.rewards()
        for p, a in enumerate(self.agents):
            self.rewards[a] = float(rewards[p])
        if self.state.is_terminal:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.agents[self.state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return "\n".join((self.state.log or [])[-20:])
        return None

    def close(self) -> None:
        pass
