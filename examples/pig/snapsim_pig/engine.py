"""Pig's rules as numba kernels over one int64 state vector.

On your turn you roll the die as often as you like: each face's value adds to the turn's
total, but the bust face (a 1) loses it and ends the turn. Hold to bank the turn's total; the
first to bank the goal (100) wins. A turn's first roll is forced (holding nothing would only
pass), so every decision is roll or hold with something at stake. Seat 0 plays first.
"""

from __future__ import annotations

import numpy as np

from snapsim.sim.kernel import CHANCE, Layout, kernel, randint

MAX_PLAYERS = 4
ROLL, HOLD = 0, 1  # action ids (ACTION_SPAN 1: the kind is the id)
N_KINDS = 2
MAX_LEGAL = 2
PH_PLAY, PH_OVER = 0, 1

# the config vector
C_PLAYERS, C_GOAL, C_MAX_TURNS, C_START = 0, 1, 2, 3
CFG_SIZE = C_START + MAX_PLAYERS
# the component vector: number of faces, the bust value, each face's value
K_FACES, K_BUST, K_FACE = 0, 1, 2

_L = Layout()
PHASE = _L.field("phase")
PLAYERS = _L.field("players")
MOVER = _L.field("mover")  # the seat whose turn it is
TURN_TOTAL = _L.field("turn_total")
LAST_ROLL = _L.field("last_roll")  # the value last rolled (0 before the first roll)
TURNS = _L.field("turns")  # turns begun, all seats together
WINNER = _L.field("winner")  # -1 until someone banks the goal
TRUNCATED = _L.field("truncated")
SCORE = _L.field("score", MAX_PLAYERS)  # banked points
START = _L.field("start", MAX_PLAYERS)  # points each seat started with
ST_TURNS = _L.field("player_turns", MAX_PLAYERS)
ST_ROLLS = _L.field("rolls", MAX_PLAYERS)
ST_BUSTS = _L.field("busts", MAX_PLAYERS)
ST_LOST = _L.field("points_lost", MAX_PLAYERS)  # turn totals lost to the bust face
STATE_SIZE = _L.size


@kernel
def new_game(cfg, comp, rng):
    st = np.zeros(STATE_SIZE, np.int64)
    n = cfg[C_PLAYERS]
    st[PLAYERS] = n
    st[WINNER] = -1
    st[TURNS] = 1
    for p in range(n):
        st[SCORE + p] = cfg[C_START + p]
        st[START + p] = cfg[C_START + p]
    st[ST_TURNS] = 1
    return st


@kernel
def decider(st):
    return st[MOVER]


@kernel
def legal_actions(st, cfg, comp, buf):
    """Roll, and hold once the turn has something to bank."""
    if st[PHASE] == PH_OVER:
        return 0
    buf[0] = ROLL
    if st[TURN_TOTAL] > 0:
        buf[1] = HOLD
        return 2
    return 1


@kernel
def _next_turn(st, cfg):
    st[TURN_TOTAL] = 0
    if st[TURNS] >= cfg[C_MAX_TURNS]:  # the safety cap: the leaders share the win
        st[TRUNCATED] = 1
        st[PHASE] = PH_OVER
        return
    st[MOVER] = (st[MOVER] + 1) % st[PLAYERS]
    st[TURNS] += 1
    st[ST_TURNS + st[MOVER]] += 1


@kernel
def apply_action(st, cfg, comp, rng, action):
    p = st[MOVER]
    if action == HOLD:
        st[SCORE + p] += st[TURN_TOTAL]
        if st[SCORE + p] >= cfg[C_GOAL]:
            st[WINNER] = p
            st[PHASE] = PH_OVER
            return
        _next_turn(st, cfg)
        return
    value = comp[K_FACE + randint(rng, CHANCE, comp[K_FACES])]
    st[LAST_ROLL] = value
    st[ST_ROLLS + p] += 1
    if value == comp[K_BUST]:
        st[ST_BUSTS + p] += 1
        st[ST_LOST + p] += st[TURN_TOTAL]
        _next_turn(st, cfg)
    else:
        st[TURN_TOTAL] += value


@kernel
def settle(st, cfg, comp, rng, buf):
    """Play the forced moves (a turn's first roll) until a seat has a choice."""
    while st[PHASE] != PH_OVER and legal_actions(st, cfg, comp, buf) == 1:
        apply_action(st, cfg, comp, rng, buf[0])


@kernel
def win_share(st, p):
    """1 to the seat that banked the goal; in a capped game the leaders share it."""
    if st[WINNER] >= 0:
        return 1.0 if st[WINNER] == p else 0.0
    best, ties = -1, 0
    for q in range(st[PLAYERS]):
        if st[SCORE + q] > best:
            best, ties = st[SCORE + q], 1
        elif st[SCORE + q] == best:
            ties += 1
    return 1.0 / ties if st[SCORE + p] == best else 0.0
