"""Two ways to run the one ShutterBug engine: a parallel batch kernel and a step-by-step game.

Both call `engine.step` with actions from `policies.policy_action`, so a game played
through `ShutterbugGame` with the same seed and policies is the game the batch produced.
Game i draws its chance and policy streams from (seed, i) alone, so results never depend
on threads or chunking.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from ... import protocol
from ...errors import InputError
from ...sim.kernel import (
    Policy,
    parse_policy,
    pointer,
    policy_arrays,
    result_table,
    root_keys,
    run_blocks,
    seat_into,
    seated_kinds,
    seed_game,
    shifted,
)
from ..tuning import tuned_policy
from . import engine as E
from . import policies as P
from .config import ShutterbugConfig


def make_policy(spec: str | Policy) -> Policy:
    """Parse "greedy", "trader:trade_margin=0.3", a bundled tuned policy ("tuned-2p") or a
    tuned-policy file into a Policy."""
    policy = tuned_policy("shutterbug", spec) or parse_policy(
        spec, "ShutterBug", P.KIND_NAMES, P.PARAM_NAMES, P.DEFAULT_PARAMS)
    if policy.kind == P.SEARCH and policy.params[P.P_BASE] == 1:
        given = [k.partition("=")[0].strip() for k in str(spec).split(":")[1:]]
        own = [k for k in given if k in P.PARAM_NAMES[:P.P_ROLLOUTS]]
        if own:
            raise InputError(f"policy {str(spec).strip()!r}: base=1 (the default) plays the "
                             f"tuned weights for the player count, so {', '.join(own)} would "
                             "be ignored; add base=0 to play your own")
    return policy


INT_COLUMNS = (
    "policy_index", "score", "assignment_points", "side_job_points", "city_points", "photos",
    "quality", "side", "creatures_met", "side_jobs", "jobs_mask", "goal", "tips_drawn",
    "tips_paid", "tips_discarded", "trades", "traded_with", "swaps", "steps", "turns",
    "hand", "assignment", "rounds",
)
N_INT = len(INT_COLUMNS)


@njit(cache=True)
def _record(st, cfg, out_i, out_f, row, policy_of_seat):
    n = E.n_players(cfg)
    shares = E.win_shares(st, cfg)
    for p in range(n):
        r = out_i[row + p]
        jobs = 0
        m = st[E.JOBS_DONE + p]
        while m:
            jobs += m & 1
            m >>= 1
        vals = (policy_of_seat[p], E.score(st, p), st[E.S_ASSIGN + p], st[E.S_JOBS + p],
                st[E.S_CITY + p], st[E.ST_PHOTOS + p], st[E.ST_QUALITY + p], st[E.SIDE + p],
                st[E.MET + p], jobs, st[E.JOBS_DONE + p], st[E.GOAL + p], st[E.ST_DRAWN + p],
                st[E.ST_PAID + p], st[E.ST_DISCARDED + p], st[E.ST_TRADES + p],
                st[E.ST_TRADED_WITH + p], st[E.ST_SWAPS + p], st[E.ST_STEPS + p],
                st[E.ST_TURNS + p], st[E.N_HAND + p], st[E.ASSIGN + p], st[E.ROUND])
        for i in range(len(vals)):
            r[i] = vals[i]
        out_f[row + p] = shares[p]


@njit(cache=True)
def play_game(st, work, fss, jss, rs, buf, cfg, comp, kinds, params, rng, seats, search=None):
    """Play one game to the end in the state vector st. `work` (`engine.deal`'s), the
    seats' scratches fss, jss, rs (`policies.seat_scratches`, what a seat's values were
    worked out from forgotten at the start) and `buf` (legal actions) are the caller's work
    space, reused game after game. `search`: see `uses_search`."""
    # the kernels' views of the game's arrays (`sim.kernel.pointer`), made once per game
    pst = pointer(st)
    pcfg = pointer(cfg)
    pcomp = pointer(comp)
    prng = pointer(rng)
    pbuf = pointer(buf)
    prs = pointer(rs)
    pparams = pointer(params)
    pfss = pointer(fss)
    pjss = pointer(jss)
    E.deal(pst, pcfg, pcomp, prng, pointer(work))
    P.forget_seats(pjss, fss.shape[0], jss.shape[1])
    n = E.settle(pst, pcfg, pcomp, prng, pbuf)
    while pst[E.PHASE] != E.PH_OVER:
        p = E.decider(pst)
        k = seats[p]  # the seat's parameters and its own scratch (a row each)
        a = P.decide(pst, pcfg, pcomp, prng, kinds[k], shifted(pparams, k * params.shape[1]),
                     pbuf, n, shifted(pfss, p * fss.shape[1]), shifted(pjss, p * jss.shape[1]),
                     prs, search)
        n = E.step(pst, pcfg, pcomp, prng, a, pbuf)


@njit(cache=True, nogil=True)
def play_batch(lo, hi, cfg, comp, kinds, params, key0, key1, first, rotate, out_i, out_f,
               search):
    """Games first+lo .. first+hi-1 (a block of `sim.kernel.run_blocks`); rows (game, seat)
    in order, row g of the run's games for game first+g. `search`: see `uses_search`."""
    n = E.n_players(cfg)
    # the work space, laid out once: nothing is allocated game by game
    st = np.empty(E.STATE_SIZE, np.int64)
    work = np.empty(E.work_size(comp), np.int64)
    fss, jss, rs = P.seat_scratches(cfg, comp, n, search)
    buf = np.empty(E.MAX_LEGAL, np.int64)
    rng = np.empty(2, np.uint64)
    seats = np.empty(n, np.int64)
    for g in range(lo, hi):
        game = first + g
        seed_game(rng, key0, key1, game)
        seat_into(seats, kinds.shape[0], game, rotate)
        play_game(st, work, fss, jss, rs, buf, cfg, comp, kinds, params, rng, seats, search)
        _record(st, cfg, out_i, out_f, g * n, seats)


# a first run's compile of the batch kernel on a 2-core machine, without and with the search
# kind (benchmarks/compile_time.py)
COMPILE_SECONDS = (20, 30)


def compiling(kinds) -> str:
    """What a line-up's first run compiles, for `sim.kernel.compile_notice`."""
    return (f"the ShutterBug kernels for this line-up, "
            f"about {COMPILE_SECONDS[uses_search(kinds) is not None]} s")


def uses_search(kinds) -> bool | None:
    """`policies.decide`'s `search` for a line-up of these kinds: True when one is the search
    kind, else None (the search then stays out of the compiled kernels); kinds declared by
    `sim.kernel.seating` count as seated."""
    return True if (seated_kinds(kinds) == P.SEARCH).any() else None


def run_games(config: ShutterbugConfig, policies, first: int, count: int, seed: int,
              rotate_seats: bool = True) -> pd.DataFrame:
    """Rows (game, seat) for games first..first+count-1 of the run keyed by `seed`."""
    pols = [make_policy(p) for p in policies]
    if len(pols) != config.players:
        raise InputError(f"{config.players} players need {config.players} policies, "
                         f"got {len(pols)}")
    key0, key1 = root_keys(seed)
    kinds, params = policy_arrays(pols)
    n = config.players
    P.on_base(kinds, params, n)
    out_i = np.zeros((count * n, N_INT), np.int64)
    out_f = np.zeros(count * n)
    run_blocks(play_batch, count, config.to_array(), config.comp_vector(), kinds, params,
               np.uint64(key0), np.uint64(key1), first, rotate_seats, out_i, out_f,
               uses_search(kinds), compiling=compiling(kinds))
    return result_table(INT_COLUMNS, out_i, out_f, pols, first, n)


# ---------------------------------------------------------------- step API

ACTION_NAMES = ("keep", "move", "stop", "swap", "trade", "no trade", "photograph", "skip",
                "pay", "discard", "start")


class Action(protocol.Action):
    """A decoded action: kind name and its pawn, space, tile, tip type or option (or None)."""

    FIELDS = ("pawn", "space", "tile", "tip", "option")

    def describe(self, comp) -> str:
        parts = [self.kind]
        if self.option is not None:
            parts.append(f"option {self.option + 1}")
        if self.space is not None:
            parts.append(f"pawn {self.pawn + 1} to {comp.spaces[self.space].name}")
        if self.tile is not None:
            t = comp.tiles[self.tile]
            parts.append(f"{comp.creatures[t.creature]} ({comp.terrains[t.terrain]}, "
                         f"quality {t.quality})")
        if self.tip is not None:
            parts.append(tip_name(comp, self.tip))
        return " ".join(parts)


def tip_name(comp, u: int) -> str:
    return f"{comp.creatures[u // E.N_TERRAINS]}/{comp.terrains[u % E.N_TERRAINS]}"


def decode(code: int, state: np.ndarray | None = None) -> Action:
    """The action a code stands for (the code says all of it: `state` is not read)."""
    kind, arg = int(E.act_kind(code)), int(E.act_arg(code))
    name = ACTION_NAMES[kind]
    if kind == E.A_KEEP:
        return Action(code, name, option=arg)
    if kind in (E.A_MOVE, E.A_CITY):
        return Action(code, name, pawn=int(E.arg_pawn(arg)), space=int(E.arg_space(arg)))
    if kind == E.A_PHOTO:
        return Action(code, name, tile=arg)
    if kind in (E.A_SWAP, E.A_TRADE, E.A_PAY, E.A_DISCARD):
        return Action(code, name, tip=arg)
    return Action(code, name)


class ShutterbugGame(protocol.GameState):
    """One ShutterBug game, one decision at a time (the protocol of `snapsim.protocol`)."""

    NAME = "shutterbug"
    ENGINE, POLICIES, CONFIG, ACTION = E, P, ShutterbugConfig, Action
    DECODE = staticmethod(decode)
    MIN_PLAYERS, MAX_PLAYERS = 1, E.MAX_PLAYERS
    ACTION_SPAN = E.BASE
    PHASES = ("keep an assignment", "move", "trade", "photograph", "pay tips", "discard", "over",
              "choose a starting city")
    DECISIONS_PER_UNIT = 1000  # per round and player
    # a first game at the terminal (`snapsim play`) to its first prompt: 20 s of one core
    # with no kernel cached (its wall time on a busy 2-core machine is 3-4 times that)
    PREPARE_SECONDS = 20

    _make_policy = staticmethod(make_policy)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        P.on_base(self._kinds, self._params, self.config.players)

    def _policy_code(self, st, rng, k, n, mem):
        return P.policy_action(st, self._cfg, self._comp, rng, self._kinds[k], self._params[k],
                               self._buf, n, uses_search(self._kinds))

    def _truncation_cap(self):
        return self.config.rounds

    def _log(self, who, action, before, forced):
        comp = self.config.components
        line = f"round {int(before[E.ROUND]) + 1} P{who + 1}: {action.describe(comp)}"
        if action.kind == "trade":
            line += f" -> got {tip_name(comp, int(self.state[E.LAST_TRADE]))}"
        self.log.append(line + (" (forced)" if forced else ""))

    def observation(self, player: int) -> dict:
        """What `player` can see: everything public plus their own hand and assignment."""
        self._check_player(player)
        comp = self.config.components
        s = self.state
        n = self.config.players
        board = {}
        for t in range(E.N_TILES):
            if s[E.TILE_LOC + t] == E.T_BOARD:
                board.setdefault(comp.spaces[comp.tiles[t].space].name, []).append(
                    comp.tiles[t].quality)
        a = comp.assignments[int(s[E.ASSIGN + player])]
        return {
            "player": player,
            "current_player": int(s[E.CUR]),
            "phase": self.phase,
            "round": int(s[E.ROUND]) + 1,
            "board": board,
            "pawns": [[comp.spaces[int(s[E.PAWN + p * E.MAX_PAWNS + k])].name
                       if s[E.PAWN + p * E.MAX_PAWNS + k] >= 0 else None  # not placed yet
                       for k in range(self.config.pawns)] for p in range(n)],
            "hand": {tip_name(comp, u): int(E.hand(s, player, u)) for u in range(E.N_TYPES)
                     if E.hand(s, player, u) > 0},
            "hand_sizes": [int(s[E.N_HAND + p]) for p in range(n)],
            "portfolios": [[t for t in range(E.N_TILES) if s[E.TILE_LOC + t] == E.T_PORTFOLIO
                            and s[E.TILE_OWNER + t] == p] for p in range(n)],
            "tiles_in_bag": int(s[E.N_BAG]),
            "deck_size": int(s[E.N_DECK]),
            "assignment": {"name": a.name, "sides": [[(comp.creatures[c], m) for c, m in side]
                                                     for side in a.sides]},
        }

    def table_view(self, player: int) -> list[str]:
        """What `player` sees at the table, in words: where every pawn stands (city or the
        space's terrain and creature), the photo tiles on the map, the tips in their own hand
        and how many the others hold, each player's photos and their own assignment."""
        obs = self.observation(player)  # the seat's view: what follows reads nothing more
        comp = self.config.components
        you = lambda p: "you" if p == player else f"P{p + 1}"  # noqa: E731

        def space(name):
            sp = comp.spaces[comp.space_index(name)]
            if sp.city:
                return f"{name} (city)"
            return f"{name} ({comp.terrains[sp.terrain]}, {comp.creatures[sp.creature]})"

        lines = [f"round {obs['round']}: {you(obs['current_player'])} to play "
                 f"({self.phase})"]
        lines.append("pawns:")
        for p, pawns in enumerate(obs["pawns"]):
            where = "; ".join(space(x) if x else "not placed yet" for x in pawns)
            lines.append(f"  {you(p)}: {where}")
        lines.append("photo tiles on the map (space: qualities): " + (
            "; ".join(f"{name} {', '.join(map(str, q))}" for name, q in obs["board"].items())
            or "none") + f"; {obs['tiles_in_bag']} in the bag")
        lines.append("your tips: " + (", ".join(f"{k} {name}" for name, k in obs["hand"].items())
                                      or "none"))
        lines.append("tips held: " + ", ".join(f"{you(p)} {k}"
                                               for p, k in enumerate(obs["hand_sizes"])) +
                     f"; tip deck {obs['deck_size']}")
        for p, tiles in enumerate(obs["portfolios"]):
            got = [f"{comp.creatures[comp.tiles[t].creature]} (quality {comp.tiles[t].quality})"
                   for t in tiles]
            lines.append(f"{you(p)} photos: {', '.join(got) or 'none'}")
        a = obs["assignment"]
        sides = [", ".join(f"{c} {m}+" for c, m in side) for side in a["sides"]]
        lines.append(f"your assignment {a['name']}: side 1 {sides[0]}; side 2 {sides[1]}")
        return lines

    def _tensor(self, player, t):
        """Layout: seat, decider, phase, round, steps taken this turn, own assignment, own
        hand by tip type, hand sizes by seat, tiles in the bag, tip deck size, tips discarded
        by type; per tile (48) where it is (bag, board, a seat's portfolio); per seat and pawn
        its space."""
        s = self.state
        n = self.config.players
        spaces = len(self.config.components.spaces)
        t.one_hot("player", player, n)
        t.one_hot("decider", self.current_player, n)
        t.one_hot("phase", int(s[E.PHASE]), len(self.PHASES))
        t.add("round", s[E.ROUND] + 1)
        t.add("steps", s[E.STEPS])
        t.one_hot("assignment", int(s[E.ASSIGN + player]),
                  len(self.config.components.assignments))
        t.add("hand", s[E.HAND + player * E.N_TYPES:E.HAND + (player + 1) * E.N_TYPES])
        t.add("hand_sizes", s[E.N_HAND:E.N_HAND + n])
        t.add("tiles_in_bag", s[E.N_BAG])
        t.add("deck_size", s[E.N_DECK])
        t.add("discards", s[E.DISC:E.DISC + E.N_TYPES])
        where = np.zeros((E.N_TILES, 2 + n))
        for tile in range(E.N_TILES):
            loc = int(s[E.TILE_LOC + tile])
            where[tile, 2 + s[E.TILE_OWNER + tile] if loc == E.T_PORTFOLIO else loc] = 1
        t.add("tile_place", where)
        for p in range(n):
            for k in range(self.config.pawns):
                t.one_hot(f"pawn_{p + 1}_{k + 1}", int(s[E.PAWN + p * E.MAX_PAWNS + k]), spaces)

    def scores(self) -> pd.DataFrame:
        """Score sheet by seat: assignment, side jobs, city bonus, total, quality, win share."""
        s = self.state
        n = self.config.players
        return pd.DataFrame({
            "seat": range(n),
            "assignment": [int(s[E.S_ASSIGN + p]) for p in range(n)],
            "side_jobs": [int(s[E.S_JOBS + p]) for p in range(n)],
            "city": [int(s[E.S_CITY + p]) for p in range(n)],
            "score": [int(E.score(s, p)) for p in range(n)],
            "quality": [int(E.total_quality(s, self._cfg, p)) for p in range(n)],
            "won": E.win_shares(s, self._cfg),
        })
