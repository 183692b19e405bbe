"""Two ways to run the one Yosemite engine: a parallel batch kernel and a step-by-step game.

Both apply actions with `engine.apply_action` and choose them with `policies.policy_action`:
the step API lists every decision's legal actions (`engine.step`), the batch only where a
policy reads them (`policies.play`: greedy plays its planned fish steps and payments
straight from its memory, forced moves as `engine.settle` would), so a game played through
`YosemiteGame` with the same seed and policies is the game the batch produced. Seeds: the
root seed gives two 64-bit keys; game i draws its chance and policy streams from (key, i)
alone, so results never depend on threads or chunking.
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
from .components import ANIMALS
from .config import YosemiteConfig

ANIMAL_KEYS = ("fox", "sheep", "bear", "snake", "cougar")


def make_policy(spec: str | Policy) -> Policy:
    """Parse "greedy", "rollout:rollouts=8:fish_value=0.5", a bundled tuned policy ("tuned-2p") or a
    tuned-policy file into a Policy."""
    return tuned_policy("yosemite", spec) or parse_policy(spec, "Yosemite", P.KIND_NAMES,
                                                      P.PARAM_NAMES, P.DEFAULT_PARAMS)


# ---------------------------------------------------------------- result schema

INT_COLUMNS = (
    "policy_index", "score", "photo_points", "camping", "judges", "landmarks", "photos",
    "tents", "fish", "hand", "landmark_tokens", "first", "turns", "player_turns", "fish_eaten",
    "explore_a", "explore_c", "pushes", "discards", "truncated",
    *(f"use_{a}" for a in ANIMAL_KEYS), *(f"use_points_{a}" for a in ANIMAL_KEYS),
    "bonus_fish", "bonus_tent", "bonus_camera",
    *(f"judge_{a}" for a in ANIMAL_KEYS),  # -1 not in play, 1 this seat took it, else 0
    *(f"landmark{i}" for i in range(E.N_LM)),  # points of that token, -1 not this seat's
)
N_INT = len(INT_COLUMNS)
_USE = INT_COLUMNS.index("use_fox")
_JUDGE = INT_COLUMNS.index("judge_fox")


@njit(cache=True)
def _record(st, out_i, out_f, row, policy_of_seat):
    for p in range(2):
        r = out_i[row + p]
        r[0] = policy_of_seat[p]
        r[1] = E.score(st, p)
        r[2] = st[E.S_PHOTOS + p]
        r[3] = st[E.S_CAMPING + p]
        r[4] = st[E.S_JUDGES + p]
        r[5] = st[E.S_LANDMARKS + p]
        r[6] = st[E.PHOTOS + p]
        r[7] = st[E.TENTS + p]
        r[8] = st[E.FISH + p]
        r[9] = E.hand_size(st, p)
        k = 0
        for lm in range(E.N_LM):
            k += st[E.LM_OWNER + lm] == p
        r[10] = k
        r[11] = st[E.FIRST] == p
        r[12] = st[E.TURN]
        r[13] = st[E.ST_TURNS + p]
        r[14] = st[E.ST_FISH_EATEN + p]
        r[15] = st[E.ST_EXPLORE_A + p]
        r[16] = st[E.ST_EXPLORE_C + p]
        r[17] = st[E.ST_PUSHES + p]
        r[18] = st[E.ST_DISCARDS + p]
        r[19] = st[E.TRUNCATED]
        for a in range(E.N_ANIMALS):
            r[_USE + a] = st[E.ST_USE + p * E.N_ANIMALS + a]
            r[_USE + E.N_ANIMALS + a] = st[E.ST_USE_POINTS + p * E.N_ANIMALS + a]
            w = st[E.JUDGE_WINNER + a]
            r[_JUDGE + a] = -1 if st[E.JUDGE_IN + a] == 0 else (1 if w == p else 0)
        for b in range(3):
            r[_USE + 2 * E.N_ANIMALS + b] = st[E.ST_BONUS + p * 4 + 1 + b]
        for lm in range(E.N_LM):
            r[_JUDGE + E.N_ANIMALS + lm] = st[E.LM_POINTS + lm] if st[E.LM_OWNER + lm] == p \
                else -1
        out_f[row + p] = E.win_share(st, p)


@njit(cache=True)
def play_game(st, order, buf, mem, cfg, comp, kinds, params, rng, seats, search=None):
    """Play one game to the end in the state vector st; `order` (`engine.start_game`'s),
    `buf` (the action buffer) and `mem` (the policies' memory) are the caller's work space,
    reused game after game. `search`: see `uses_search`."""
    # the kernels' views (`sim.kernel.pointer`), and each seat's row of parameters
    pst, pcfg, pcomp, prng = pointer(st), pointer(cfg), pointer(comp), pointer(rng)
    pbuf, pmem, pparams = pointer(buf), pointer(mem), pointer(params)
    E.start_game(pst, pcfg, pcomp, prng, pointer(order))
    P.clear_memory(pmem)
    par0 = shifted(pparams, seats[0] * params.shape[1])
    par1 = shifted(pparams, seats[1] * params.shape[1])
    while pst[E.PHASE] != E.PH_OVER:
        p = E.decider(pst)
        P.play(pst, pcfg, pcomp, prng, kinds[seats[p]], par0 if p == 0 else par1, pbuf, pmem,
               search)


@njit(cache=True, nogil=True)
def play_batch(lo, hi, cfg, comp, kinds, params, key0, key1, first, rotate, out_i, out_f,
               search):
    """Games first+lo .. first+hi-1 (a block of `sim.kernel.run_blocks`); rows (game, seat)
    in order, row g of the run's games for game first+g. `search`: see `uses_search`."""
    # the work space, laid out once: nothing is allocated game by game
    st = np.empty(E.STATE_SIZE, np.int64)
    order = np.empty(E.N_TILES, np.int64)
    buf = np.empty(E.BUF_SIZE, np.int64)
    mem = P.new_memory()
    rng = np.empty(2, np.uint64)
    seats = np.empty(2, np.int64)
    for g in range(lo, hi):
        game = first + g
        seed_game(rng, key0, key1, game)
        seat_into(seats, kinds.shape[0], game, rotate)
        play_game(st, order, buf, mem, cfg, comp, kinds, params, rng, seats, search)
        _record(st, out_i, out_f, g * 2, seats)


def uses_search(kinds) -> bool | None:
    """`policies.policy_action`'s `search` for a line-up of these kinds: True when one is the
    rollout or the search kind, else None (their code then stays out of the kernels); kinds
    declared by `sim.kernel.seating` count as seated."""
    kinds = seated_kinds(kinds)
    return True if ((kinds == P.ROLLOUT) | (kinds == P.SEARCH)).any() else None


# a first run's compile of the batch kernel on a 2-core machine, without and with the search
# kinds (benchmarks/compile_time.py)
COMPILE_SECONDS = (15, 25)


def compiling(kinds) -> str:
    """What a line-up's first run compiles, for `sim.kernel.compile_notice`."""
    return (f"the Yosemite kernels for this line-up, "
            f"about {COMPILE_SECONDS[uses_search(kinds) is not None]} s")


def run_games(config: YosemiteConfig, policies, first: int, count: int, seed: int,
              rotate_seats: bool = True) -> pd.DataFrame:
    """Rows (game, seat) for games first..first+count-1 of the run keyed by `seed`."""
    pols = [make_policy(p) for p in policies]
    if len(pols) != 2:
        raise InputError(f"2 players need 2 policies, got {len(pols)}")
    key0, key1 = root_keys(seed)
    kinds, params = policy_arrays(pols)
    out_i = np.zeros((count * 2, N_INT), np.int64)
    out_f = np.zeros(count * 2)
    run_blocks(play_batch, count, config.to_array(), config.comp_vector(), kinds, params,
               np.uint64(key0), np.uint64(key1), first, rotate_seats, out_i, out_f,
               uses_search(kinds), compiling=compiling(kinds))
    return result_table(INT_COLUMNS, out_i, out_f, pols, first, 2)


# ---------------------------------------------------------------- step API

ACTION_NAMES = ("start", "eat fish", "stop eating", "step", "animal move", "take landmark",
                "push", "no push", "photo", "no photo", "discard", "pay")
DIRECTIONS = ("up", "down", "left", "right")
PHASES = ("start square", "eat fish", "explore", "push", "camera", "pay", "discard", "over")


class Action(protocol.Action):
    """A decoded action: kind name and its square, direction, photo slot or animal (and for a
    payment, how many tiles of that animal)."""

    FIELDS = ("square", "direction", "slot", "animal", "count")

    _WORDS = {"eat fish": "eat a fish and move", "step": "A: move one space",
              "animal move": "B: the animal's move", "take landmark": "C: take the landmark "
                                                                     "token",
              "push": "move your opponent", "no push": "leave your opponent",
              "photo": "take the photo in", "no photo": "take no photo",
              "pay": "pay", "discard": "discard a"}

    def describe(self, comp=None) -> str:  # Yosemite's actions name no component
        parts = [self._WORDS.get(self.kind, self.kind)]
        if self.count is not None:
            parts.append(str(self.count))
        if self.direction is not None:
            parts.append(DIRECTIONS[self.direction])
        if self.square is not None:
            parts.append(f"to {square_name(self.square)}")
        if self.slot is not None:
            parts.append(f"slot {self.slot + 1}")
        if self.animal is not None:
            parts.append(ANIMALS[self.animal])
        return " ".join(parts)


def square_name(s: int) -> str:
    """Row letter and column number: a1 is the top-left square."""
    return f"{'abcde'[s // E.SIZE]}{s % E.SIZE + 1}"


def decode(code: int, state: np.ndarray | None = None) -> Action:
    """The action a code stands for; a payment names its animal from the state it is legal in."""
    kind, arg = divmod(int(code), 64)
    name = ACTION_NAMES[kind]
    if kind == E.A_PAY:
        return Action(code, name, count=arg,
                      animal=None if state is None else int(state[E.PAY_ANIMAL]))
    if kind in (E.A_START, E.A_ANIMAL, E.A_PUSH):
        return Action(code, name, square=arg)
    if kind in (E.A_EAT, E.A_STEP):
        return Action(code, name, direction=arg)
    if kind == E.A_PHOTO:
        return Action(code, name, slot=arg)
    if kind == E.A_DISCARD:
        return Action(code, name, animal=arg)
    return Action(code, name)


class YosemiteGame(protocol.GameState):
    """One Yosemite game, one decision at a time (the protocol of `snapsim.protocol`)."""

    NAME = "yosemite"
    ENGINE, POLICIES, CONFIG, ACTION = E, P, YosemiteConfig, Action
    DECODE = staticmethod(decode)
    MIN_PLAYERS = MAX_PLAYERS = 2
    ACTION_SPAN = 64
    PHASES = PHASES
    DECISIONS_PER_UNIT = 200  # per turn and player
    # a first game at the terminal (`snapsim play`) to its first prompt: 34 s of one core
    # with no kernel cached (its wall time on a busy 2-core machine is 3-4 times that)
    PREPARE_SECONDS = 35

    _make_policy = staticmethod(make_policy)

    def _action_buffer(self):
        return E.action_buffer()

    KEPT_MEMORY = P.PLAN_SIZE

    def _new_memory(self):
        return P.new_memory()

    def _policy_code(self, st, rng, k, n, mem):
        return P.policy_action(st, self._cfg, self._comp, rng, self._kinds[k], self._params[k],
                               self._buf, n, mem, uses_search(self._kinds))

    def _truncation_cap(self):
        return self.config.max_turns

    def mid_move(self) -> bool:
        """Whether the step API is inside one choice the rules make whole: a photo's payment,
        which it takes animal by animal."""
        return self.phase == "pay"

    def choice_to_string(self, chosen, played) -> str:
        """A photo taken and paid in one go: the tiles it costs, by animal."""
        first = self.decode(chosen[0])
        if first.kind != "photo":
            return super().choice_to_string(chosen, played)
        twin = self.clone()
        twin.log = None
        for code in chosen:
            twin.apply(code)
        p = self.current_player
        paid = [(int(self.state[E.HAND + p * E.N_ANIMALS + a])
                 - int(twin.state[E.HAND + p * E.N_ANIMALS + a]), name)
                for a, name in enumerate(ANIMALS)]
        return f"{first.describe()}, paying " + ", ".join(
            f"{k} {name} tile{'s' * (k > 1)}" for k, name in paid if k > 0)

    def _log(self, who, action, before, forced):
        comp = self.config.components
        s = self.state
        line = f"turn {int(before[E.TURN]) + 1} P{who + 1}: {action.describe()}"
        if forced:
            line += " (forced)"
        events = []
        for p in range(2):
            if s[E.POS + p] != before[E.POS + p] and before[E.POS + p] >= 0 and p != who:
                events.append(f"P{p + 1} moved to {square_name(int(s[E.POS + p]))}")
        for t in range(E.N_ALL_TILES):
            was, now = int(before[E.TILE_LOC + t]), int(s[E.TILE_LOC + t])
            if was != now:
                where = ("deck", "park", f"P{int(s[E.TILE_OWNER + t]) + 1} hand", "discard")[now]
                events.append(f"{comp.describe_tile(t)} to {where}")
        for ph in range(E.N_PHOTOS):
            if before[E.PHOTO_LOC + ph] != s[E.PHOTO_LOC + ph] and s[E.PHOTO_LOC + ph] == \
                    E.P_TAKEN:
                events.append(f"photo {comp.photos[ph].name}")
        if events:
            line += " [" + ", ".join(events) + "]"
        self.log.append(line)

    def _tiles_seen(self, p: int) -> np.ndarray:
        """p's tiles by animal that the other player saw p take face up."""
        return self.state[E.SEEN_HAND + p * E.N_ANIMALS:E.SEEN_HAND + (p + 1) * E.N_ANIMALS].copy()

    def observation(self, player: int) -> dict:
        """What `player` sees: the park, pawns, tracks, face-up cards, both photo sets, their
        own hand, the opponent's hand size and the opponent's tiles it saw them take from the
        park (the rest of a hand is hidden)."""
        self._check_player(player)
        comp = self.config.components
        s = self.state
        park = [[comp.describe_tile(int(s[E.PARK + r * E.SIZE + c])) if s[E.PARK + r * E.SIZE
                                                                         + c] >= 0 else None
                 for c in range(E.SIZE)] for r in range(E.SIZE)]
        hand = {ANIMALS[a]: int(s[E.HAND + player * E.N_ANIMALS + a]) for a in range(5)}
        return {
            "player": player,
            "current_player": self.current_player,
            "phase": self.phase,
            "turn": int(s[E.TURN]) + 1,
            "park": park,
            "pawns": [square_name(int(s[E.POS + p])) if s[E.POS + p] >= 0 else None
                      for p in range(2)],
            "fish": [int(s[E.FISH + p]) for p in range(2)],
            "camping_token": int(s[E.CAMP]),
            "tents": [int(s[E.TENTS + p]) for p in range(2)],
            "hand": hand,
            "opponent_hand_size": int(E.hand_size(s, 1 - player)),
            "opponent_tiles_seen": dict(zip(ANIMALS, map(int, self._tiles_seen(1 - player)),
                                            strict=True)),
            "photos_face_up": [comp.photos[int(s[E.SLOT + k])].name if s[E.SLOT + k] >= 0
                               else None for k in range(self.config.photo_slots)],
            "photos_taken": [[comp.photos[ph].name for ph in range(E.N_PHOTOS)
                              if s[E.PHOTO_LOC + ph] == E.P_TAKEN and s[E.PHOTO_OWNER + ph] == p]
                             for p in range(2)],
            "photo_deck": int(s[E.N_PHOTO_DECK]),
            "tile_deck": int(s[E.N_DECK]),
            "judges": [ANIMALS[a] for a in range(5) if s[E.JUDGE_IN + a]],
            "landmark_tokens": {comp.landmarks[lm]: ("park" if s[E.LM_TOKEN_ON + lm] else
                                                     f"P{int(s[E.LM_OWNER + lm]) + 1}"
                                                     if s[E.LM_OWNER + lm] >= 0 else "board")
                                for lm in range(E.N_LM)},
        }

    _PHASE_WORDS = {"start square": "choose your start square (an animal tile)",
                    "eat fish": "Eat Fish: eat one fish to move one space, or stop",
                    "explore": "Explore: A (one space and a fish), B (the animal's move) or "
                               "C (take the landmark token)",
                    "push": "move your opponent", "camera": "Camera: take a photo or not",
                    "pay": "pay for the photo", "discard": "discard down to the hand limit",
                    "over": "the game is over"}
    _SHORT = {"red fox": "fox", "bighorn sheep": "sheep", "black bear": "bear",
              "rattlesnake": "snake", "cougar": "cougar"}

    def table_view(self, player: int) -> list[str]:
        """What `player` sees at the table, in words: the park as a 5x5 grid with both pawns,
        fish, their own hand, the face-up photos and what they need, photos taken, judges,
        camping track, landmark tokens; of the opponent's hand only its size and the tiles
        seen taken (the rest is hidden)."""
        obs = self.observation(player)  # the seat's view: what follows reads nothing more
        s = self.state
        cur = self.current_player
        you = lambda p: "you" if p == player else f"P{p + 1}"  # noqa: E731
        lines = [f"turn {obs['turn']}: {you(cur)} to play ({self._PHASE_WORDS[self.phase]})"]
        if self.phase in ("eat fish", "explore") and s[E.LM_START] == 1:
            lines.append("  (the turn began on an empty landmark tile: eating must end on an "
                         "animal tile; without eating, only A)")
        lines += self._park_lines()
        for p in range(2):
            lines.append(f"{you(p)}: fish {obs['fish'][p]}, tents {obs['tents'][p]}, photos "
                         f"{', '.join(obs['photos_taken'][p]) or 'none'}")
        lines.append("your hand: " + (", ".join(f"{k} {a}" for a, k in obs["hand"].items() if k)
                                      or "empty"))
        seen = ", ".join(f"{k} {a}" for a, k in obs["opponent_tiles_seen"].items() if k)
        lines.append(f"opponent's hand: {obs['opponent_hand_size']} tiles (seen taken: "
                     f"{seen or 'none'})")
        lines += self._face_up_lines()
        camp = int(obs["camping_token"])
        lines.append("camping token: " + ("not on the track yet" if camp == 0 else
                                          f"on {you(0 if camp > 0 else 1)}'s side, space "
                                          f"{abs(camp)}"))
        lines.append(f"judges: {', '.join(obs['judges'])}")
        tokens = []
        for name, where in obs["landmark_tokens"].items():
            place = {"park": "on its tile", "board": "not in the park yet"}.get(where) or \
                "taken by " + you(int(where[1:]) - 1)
            tokens.append(f"{name} {place}")
        lines.append("landmark tokens: " + "; ".join(tokens))
        lines.append(f"photo deck: {obs['photo_deck']}; tile deck: {obs['tile_deck']}")
        return lines

    def _park_lines(self) -> list[str]:
        """The park as a 5x5 grid of animal/bonus cells (a landmark tile by name, starred
        while it holds its token) with both pawns on their squares."""
        comp, s = self.config.components, self.state
        width = 16
        lines = ["park (animal/bonus; [P1] [P2] the pawns):",
                 ("     " + "".join(f"{c + 1:<{width}}" for c in range(E.SIZE))).rstrip()]
        for r in range(E.SIZE):
            cells = []
            for c in range(E.SIZE):
                sq = r * E.SIZE + c
                t = int(s[E.PARK + sq])
                if t >= E.N_TILES:
                    lm = t - E.N_TILES
                    text = comp.landmarks[lm].split()[0][:8] + \
                        ("*" if s[E.LM_TOKEN_ON + lm] else "(empty)")
                elif t >= 0:
                    tile = comp.tiles[t]
                    bonus = ("", "/fish", "/tent", "/camera")[tile.bonus]
                    text = self._SHORT[ANIMALS[tile.animal]] + bonus
                else:
                    text = "."
                pawns = "".join(f"[P{p + 1}]" for p in range(2) if s[E.POS + p] == sq)
                cells.append(f"{(pawns + text)[:width - 1]:<{width}}")
            lines.append(f"  {'abcde'[r]}  " + "".join(cells).rstrip())
        return lines + ["  (* a landmark tile holding its token)"]

    def _face_up_lines(self) -> list[str]:
        """The face-up photos, each with its landmark, points and the animals it needs."""
        comp, s = self.config.components, self.state
        lines = ["photos face up:"]
        for k in range(self.config.photo_slots):
            ph = int(s[E.SLOT + k])
            if ph >= 0:
                photo = comp.photos[ph]
                lines.append(f"  {k + 1}. {photo.name} ({comp.landmarks[photo.landmark]}), "
                             f"{photo.points} points: needs "
                             f"{', '.join(ANIMALS[a] for a in photo.animals)}")
        return lines

    def _tensor(self, player, t):
        """Layout: seat, decider, phase, turn, pawn squares, fish, camping token, tents, own
        hand, opponent's hand size and tiles seen taken, animal whose move was used and animal
        being paid; per park square (25) the tile's animal, landmark and bonus; the face-up
        photo in each slot; each photo's taker; photo and tile decks; judges in play; each
        landmark token's place (park, player 1, player 2, board)."""
        s = self.state
        t.one_hot("player", player, 2)
        t.one_hot("decider", self.current_player, 2)
        t.one_hot("phase", int(s[E.PHASE]), len(self.PHASES))
        t.add("turn", s[E.TURN] + 1)
        for p in range(2):
            t.one_hot(f"pawn_{p + 1}", int(s[E.POS + p]), E.N_SQ)
        t.add("fish", s[E.FISH:E.FISH + 2])
        t.add("camping_token", s[E.CAMP])
        t.add("tents", s[E.TENTS:E.TENTS + 2])
        t.add("hand", s[E.HAND + player * E.N_ANIMALS:E.HAND + (player + 1) * E.N_ANIMALS])
        t.add("opponent_hand_size", E.hand_size(s, 1 - player))
        t.add("opponent_tiles_seen", self._tiles_seen(1 - player))
        t.one_hot("animal_moved", int(s[E.MOVED]), E.N_ANIMALS)
        t.one_hot("paying_animal", int(s[E.PAY_ANIMAL]) if s[E.PHASE] == E.PH_PAY else -1,
                  E.N_ANIMALS)
        animal, landmark, bonus = (np.zeros((E.N_SQ, k)) for k in (E.N_ANIMALS, E.N_LM, 4))
        for sq in range(E.N_SQ):
            tile = int(s[E.PARK + sq])
            if tile >= E.N_TILES:
                landmark[sq, tile - E.N_TILES] = 1
            elif tile >= 0:
                animal[sq, self._comp[E.K_TILE_ANIMAL + tile]] = 1
                bonus[sq, self._comp[E.K_TILE_BONUS + tile]] = 1
        t.add("park_animal", animal)
        t.add("park_landmark", landmark)
        t.add("park_bonus", bonus)
        for k in range(self.config.photo_slots):
            t.one_hot(f"slot_{k + 1}", int(s[E.SLOT + k]), E.N_PHOTOS)
        taken = np.zeros((E.N_PHOTOS, 2))
        for ph in range(E.N_PHOTOS):
            if s[E.PHOTO_LOC + ph] == E.P_TAKEN:
                taken[ph, s[E.PHOTO_OWNER + ph]] = 1
        t.add("photo_taker", taken)
        t.add("photo_deck", s[E.N_PHOTO_DECK])
        t.add("tile_deck", s[E.N_DECK])
        t.add("judges", s[E.JUDGE_IN:E.JUDGE_IN + E.N_ANIMALS])
        tokens = np.zeros((E.N_LM, 4))
        for lm in range(E.N_LM):
            owner = int(s[E.LM_OWNER + lm])
            tokens[lm, 0 if s[E.LM_TOKEN_ON + lm] else 1 + owner if owner >= 0 else 3] = 1
        t.add("landmark_token", tokens)

    def scores(self) -> pd.DataFrame:
        """Score sheet by seat: the four categories, total and win share."""
        s = self.state
        return pd.DataFrame({
            "seat": [0, 1],
            "photos": [int(s[E.S_PHOTOS + p]) for p in range(2)],
            "camping": [int(s[E.S_CAMPING + p]) for p in range(2)],
            "judges": [int(s[E.S_JUDGES + p]) for p in range(2)],
            "landmarks": [int(s[E.S_LANDMARKS + p]) for p in range(2)],
            "score": [int(E.score(s, p)) for p in range(2)],
            "won": [E.win_share(s, p) for p in range(2)],
        })
