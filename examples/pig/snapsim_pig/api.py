"""Two ways to run the one Pig engine: a parallel batch kernel and a step-by-step game.

Both apply actions with `engine.apply_action`, choose them with `policies.policy_action` and
play a forced move (a turn's first roll) without asking the policy, so a game played through
`PigGame` with the same seed and policies is the game the batch produced."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from snapsim import protocol
from snapsim.errors import InputError
from snapsim.games.tuning import tuned_policy
from snapsim.sim.kernel import (
    Policy,
    parse_policy,
    policy_arrays,
    result_table,
    root_keys,
    run_blocks,
    seat_into,
    seed_game,
)

from . import engine as E
from . import policies as P
from .config import PigConfig


def make_policy(spec: str | Policy) -> Policy:
    """Parse "greedy", "greedy:hold_at=25:chase=2", a bundled tuned policy ("tuned-2p") or a
    tuned-policy file into a Policy."""
    return tuned_policy("pig", spec) or parse_policy(spec, "Pig", P.KIND_NAMES, P.PARAM_NAMES,
                                                     P.DEFAULT_PARAMS)


# ---------------------------------------------------------------- result schema

INT_COLUMNS = ("policy_index", "score", "first", "start_points", "turns", "player_turns",
               "rolls", "busts", "points_lost", "truncated")
N_INT = len(INT_COLUMNS)


@njit(cache=True)
def _record(st, out_i, out_f, row, policy_of_seat):
    for p in range(st[E.PLAYERS]):
        r = out_i[row + p]
        r[0] = policy_of_seat[p]
        r[1] = st[E.SCORE + p]
        r[2] = p == 0
        r[3] = st[E.START + p]
        r[4] = st[E.TURNS]
        r[5] = st[E.ST_TURNS + p]
        r[6] = st[E.ST_ROLLS + p]
        r[7] = st[E.ST_BUSTS + p]
        r[8] = st[E.ST_LOST + p]
        r[9] = st[E.TRUNCATED]
        out_f[row + p] = E.win_share(st, p)


@njit(cache=True)
def play_game(st, buf, cfg, comp, kinds, params, rng, seats):
    """Play one game to the end from a fresh state in st."""
    st[:] = E.new_game(cfg, comp, rng)
    while st[E.PHASE] != E.PH_OVER:
        n = E.legal_actions(st, cfg, comp, buf)
        if n == 1:
            E.apply_action(st, cfg, comp, rng, buf[0])
            continue
        k = seats[st[E.MOVER]]
        E.apply_action(st, cfg, comp, rng,
                       P.policy_action(st, cfg, comp, rng, kinds[k], params[k], buf, n))


@njit(cache=True, nogil=True)
def play_batch(lo, hi, cfg, comp, kinds, params, key0, key1, first, rotate, out_i, out_f):
    """Games first+lo .. first+hi-1 (a block of `sim.kernel.run_blocks`); rows (game, seat)
    in order."""
    n = cfg[E.C_PLAYERS]
    st = np.empty(E.STATE_SIZE, np.int64)
    buf = np.empty(E.MAX_LEGAL, np.int64)
    rng = np.empty(2, np.uint64)
    seats = np.empty(n, np.int64)
    for g in range(lo, hi):
        game = first + g
        seed_game(rng, key0, key1, game)
        seat_into(seats, kinds.shape[0], game, rotate)
        play_game(st, buf, cfg, comp, kinds, params, rng, seats)
        _record(st, out_i, out_f, g * n, seats)


def run_games(config: PigConfig, policies, first: int, count: int, seed: int,
              rotate_seats: bool = True) -> pd.DataFrame:
    """Rows (game, seat) for games first..first+count-1 of the run keyed by `seed`."""
    pols = [make_policy(p) for p in policies]
    n = config.players
    if len(pols) != n:
        raise InputError(f"{n} players need {n} policies, got {len(pols)}")
    key0, key1 = root_keys(seed)
    kinds, params = policy_arrays(pols)
    out_i = np.zeros((count * n, N_INT), np.int64)
    out_f = np.zeros(count * n)
    run_blocks(play_batch, count, config.to_array(), config.comp_vector(), kinds, params,
               np.uint64(key0), np.uint64(key1), first, rotate_seats, out_i, out_f,
               compiling="the Pig kernels, a few seconds")
    return result_table(INT_COLUMNS, out_i, out_f, pols, first, n)


# ---------------------------------------------------------------- step API

class Action(protocol.Action):
    """A decoded action: "roll" or "hold"."""


def decode(code: int, state: np.ndarray | None = None) -> Action:
    """The action a code stands for (the code says all of it: `state` is not read)."""
    return Action(code, ("roll", "hold")[int(code)])


class PigGame(protocol.GameState):
    """One Pig game, one decision at a time (the protocol of `snapsim.protocol`)."""

    NAME = "pig"
    ENGINE, POLICIES, CONFIG, ACTION = E, P, PigConfig, Action
    DECODE = staticmethod(decode)
    MIN_PLAYERS, MAX_PLAYERS = 2, E.MAX_PLAYERS
    ACTION_SPAN = 1
    PHASES = ("roll or hold", "over")
    DECISIONS_PER_UNIT = 100  # rolls in one turn: the goal is reached long before
    PREPARE_SECONDS = 5

    _make_policy = staticmethod(make_policy)

    def _policy_code(self, st, rng, k, n, mem):
        return P.policy_action(st, self._cfg, self._comp, rng, self._kinds[k],
                               self._params[k], self._buf, n)

    def _truncation_cap(self):
        return self.config.max_turns

    def _log(self, who, action, before, forced):
        s = self.state
        line = f"turn {int(before[E.TURNS])} P{who + 1}: {action.kind}"
        if action.kind == "roll":
            line += f" {int(s[E.LAST_ROLL])}"
            line += (f" (turn total {int(s[E.TURN_TOTAL])})" if s[E.MOVER] == who
                     and not self.is_terminal else f": bust, {int(before[E.TURN_TOTAL])} lost")
        else:
            line += f" {int(before[E.TURN_TOTAL])} (banked {int(s[E.SCORE + who])})"
        self.log.append(line + (" (forced)" if forced else ""))

    def observation(self, player: int) -> dict:
        """Everything is public in Pig: the scores, whose turn, the turn's total, the goal."""
        self._check_player(player)
        s = self.state
        return {"player": player, "current_player": self.current_player,
                "phase": self.phase, "turn": int(s[E.TURNS]),
                "scores": [int(s[E.SCORE + p]) for p in range(self.config.players)],
                "turn_total": int(s[E.TURN_TOTAL]), "last_roll": int(s[E.LAST_ROLL]),
                "goal": self.config.goal}

    def table_view(self, player: int) -> list[str]:
        obs = self.observation(player)
        who = "you" if obs["current_player"] == player else f"P{obs['current_player'] + 1}"
        lines = [f"turn {obs['turn']}: {who} to play (roll or hold; first to "
                 f"{obs['goal']} wins)"]
        lines += [f"{'you' if p == player else f'P{p + 1}'}: {score} banked"
                  for p, score in enumerate(obs["scores"])]
        lines.append(f"this turn's total: {obs['turn_total']} (last roll {obs['last_roll']})")
        return lines

    def _tensor(self, player, t):
        """Layout: seat, decider, scores and the turn's total as shares of the goal."""
        n, s, goal = self.config.players, self.state, self.config.goal
        t.one_hot("player", player, n)
        t.one_hot("decider", self.current_player, n)
        t.add("scores", s[E.SCORE:E.SCORE + n] / goal)
        t.add("turn_total", s[E.TURN_TOTAL] / goal)

    def scores(self) -> pd.DataFrame:
        """Score sheet by seat: banked points and win share."""
        n, s = self.config.players, self.state
        return pd.DataFrame({"seat": list(range(n)),
                             "score": [int(s[E.SCORE + p]) for p in range(n)],
                             "won": [E.win_share(s, p) for p in range(n)]})
