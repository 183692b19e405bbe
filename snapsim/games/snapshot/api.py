"""Two ways to run the one Snapshot engine: a parallel batch kernel and a step-by-step game.

The step game asks `policies.policy_action` at every decision and plays it with
`engine.step`; the batch plays the greedy kinds' decisions on the fast path
(`heuristic.heuristic_turns`: the same choices and rules, without listing the legal actions
or the forced moves in between, a preparation step at a time) and the other seats' as the
step game does. A game played through `SnapshotGame` with the same seed and policies is the
game the batch produced.
Seeds: the root seed gives two 64-bit keys (numpy SeedSequence); game i draws its chance
and policy streams from (key, i) alone, so results never depend on threads or chunking.
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
)
from ..tuning import tuned_policy
from . import engine as E
from . import policies as P
from .config import SnapshotConfig, photo_table

# ---------------------------------------------------------------- policies by name


def make_policy(spec: str | Policy) -> Policy:
    """Parse "greedy", "cautious:max_risk=0.1:token_value=0.5", "search:rollouts=16", a
    bundled tuned policy ("tuned-4p", from data/tuned-4p.toml) or a tuned-policy file into a
    Policy."""
    if isinstance(spec, Policy):
        return spec
    return tuned_policy("snapshot", spec) or parse_policy(spec, "Snapshot", P.KIND_NAMES,
                                                          P.PARAM_NAMES, P.DEFAULT_PARAMS)


# ---------------------------------------------------------------- result schema

INT_COLUMNS = (
    "policy_index", "score", "prestige", "awards", "cover", "article", "photos",
    "reserved_left", "tokens", "turns", "draws", "placed", "spooks", "attempts",
    "explore_fails", "rerolls", "n_awards", "tokens_from_placing", "tokens_from_experience",
    "tokens_from_offers", "tokens_paid_offers", "tokens_spent_photos", "tokens_spent_rerolls",
    "offers_made", "offers_accepted", "assignment", "rounds", "end_round", "truncated",
)
N_INT = len(INT_COLUMNS)


@njit(cache=True)
def _record(st, cfg, out_i, out_f, row, policy_of_seat):
    n = E.n_players(cfg)
    for p in range(n):
        r = out_i[row + p]
        r[0] = policy_of_seat[p]
        r[1] = E.score(st, p)
        r[2] = st[E.S_PRESTIGE + p]
        r[3] = st[E.S_AWARDS + p]
        r[4] = st[E.S_COVER + p]
        r[5] = st[E.S_ARTICLE + p]
        r[6] = st[E.PHOTOS + p]
        r[7] = st[E.N_RESERVED + p]
        r[8] = st[E.TOKENS + p]
        r[9] = st[E.ST_TURNS + p]
        r[10] = st[E.ST_DRAWS + p]
        r[11] = st[E.ST_PLACED + p]
        r[12] = st[E.ST_SPOOKS + p]
        r[13] = st[E.ST_ATTEMPTS + p]
        r[14] = st[E.ST_EXPLORE_FAILS + p]
        r[15] = st[E.ST_REROLLS + p]
        won = 0
        for k in range(E.N_CAT):
            won += st[E.AWARDS_WON + p * E.N_CAT + k]
        r[16] = won
        r[17] = st[E.ST_TOK_PLACE + p]
        r[18] = st[E.ST_TOK_EXPERIENCE + p]
        r[19] = st[E.ST_TOK_OFFERS_IN + p]
        r[20] = st[E.ST_TOK_OFFERS_OUT + p]
        r[21] = st[E.ST_TOK_PHOTO + p]
        r[22] = st[E.ST_TOK_REROLL + p]
        r[23] = st[E.ST_OFFERS_MADE + p]
        r[24] = st[E.ST_OFFERS_TAKEN + p]
        r[25] = st[E.ASSIGN + p]
        r[26] = st[E.ROUND] + 1
        r[27] = st[E.ST_END_ROUND] + 1
        r[28] = st[E.TRUNCATED]
        out_f[row + p] = E.win_share(st, cfg, p)


@njit(cache=True, inline="always")
def play_game(st, cards, cfg, comp, ptab, kinds, params, rng, seats, buf, mem, search=None,
              exact=None):
    """Play one game to the end in the state vector st. `cards` (`engine.start_game`'s),
    `buf` (legal actions) and `mem` (the policies' memory) are the caller's work space,
    reused game after game; `search` and `exact` as for `policies.policy_action`.

    The heuristic seats' decisions take the fast path (`heuristic.heuristic_turns`: no
    listing of the legal actions, a whole preparation step at a time, as many decisions in
    one call as come to heuristic seats in a row); the others are asked as the step API asks
    them, after the forced moves are played (`engine.settle`)."""
    # the engine's calls take the arrays as pointers, as the fast path passes them: one
    # compiled version of each (the caller keeps the arrays alive)
    st_, cfg_, comp_, rng_, buf_ = pointer(st), pointer(cfg), pointer(comp), pointer(rng), \
        pointer(buf)
    P.clear_memory(pointer(mem))
    E.start_game(st_, cfg_, comp_, rng_, pointer(cards))
    n = E.settle(st_, cfg_, comp_, rng_, buf_)
    listed = True  # buf holds the n legal actions of the decision now
    while st[E.PHASE] != E.PH_OVER:
        k = seats[E.decider(st_)]
        kind = kinds[k]
        if P.on_fast_path(kind):
            P.heuristic_turns(st_, cfg_, comp_, pointer(ptab), rng_, pointer(kinds),
                              pointer(params), params.shape[1], pointer(seats), buf_,
                              pointer(mem))
            listed = False
        elif not listed:
            n = E.settle(st_, cfg_, comp_, rng_, buf_)  # the forced moves may change who decides
            listed = True
        else:
            if kind == P.RANDOM:
                a = P.random_action(rng_, buf_, n)
            elif search is not None or exact is not None:
                a = P.policy_action(st, cfg, comp, ptab, rng, kind, params[k], buf, n, mem,
                                    search, exact)
            else:
                raise ValueError("a line-up seating a search or exact policy passes "
                                 "search=True or exact=True")
            n = E.step(st_, cfg_, comp_, rng_, a, buf_)


@njit(cache=True, nogil=True)
def play_batch(lo, hi, cfg, comp, ptab, kinds, params, key0, key1, first, rotate, out_i, out_f,
               out_cards, out_awards, search, exact):
    """Games first+lo .. first+hi-1 (a block of `sim.kernel.run_blocks`), with one work
    space; rows (game, seat) in order, row g of the run's games for game first+g.

    out_cards[g] (attempts, photos, dice per card) and out_awards[g] (claim round per award
    token) are filled when they have a row per game (pass zero-row arrays to skip them).
    `search` and `exact`: see `uses_search`.
    """
    n = E.n_players(pointer(cfg))
    # the work space, laid out once: nothing is allocated game by game
    buf = np.empty(E.MAX_LEGAL, np.int64)
    mem = P.new_memory()
    st = np.empty(E.STATE_SIZE, np.int64)
    cards = np.empty(E.work_cards(pointer(comp)), np.int64)
    rng = np.empty(2, np.uint64)
    seats = np.empty(n, np.int64)
    for g in range(lo, hi):
        game = first + g
        seed_game(rng, key0, key1, game)
        seat_into(seats, kinds.shape[0], game, rotate)
        play_game(st, cards, cfg, comp, ptab, kinds, params, rng, seats, buf, mem, search,
                  exact)
        _record(pointer(st), pointer(cfg), out_i, out_f, g * n, seats)
        if out_cards.shape[0] > 0:
            for c in range(E.N_CARDS):
                out_cards[g, c, 0] = st[E.CS_ATTEMPTS + c]
                out_cards[g, c, 1] = st[E.CS_PHOTOS + c]
                out_cards[g, c, 2] = st[E.CS_DICE + c]
            for k in range(E.N_CAT * E.MAX_STACK):
                out_awards[g, k] = st[E.AWARD_ROUND + k]


def uses_search(kinds) -> bool | None:
    """`policies.policy_action`'s `search` for a line-up of these kinds: True when one is
    the search kind, else None (the search then stays out of the compiled kernels); kinds
    declared by `sim.kernel.seating` count as seated."""
    return True if (seated_kinds(kinds) == P.SEARCH).any() else None


def uses_exact(kinds) -> bool | None:
    """`policies.policy_action`'s `exact` for a line-up of these kinds, as `uses_search`.
    The search kind's playouts never play the exact kind, so it counts only seated."""
    return True if (seated_kinds(kinds) == P.EXACT).any() else None


def _play(config, policies, first, count, seed, rotate_seats, details):
    pols = [make_policy(p) for p in policies]
    if len(pols) != config.players:
        raise InputError(f"{config.players} players need {config.players} policies, "
                         f"got {len(pols)}")
    key0, key1 = root_keys(seed)
    kinds, params = policy_arrays(pols)
    n = config.players
    out_i = np.zeros((count * n, N_INT), np.int64)
    out_f = np.zeros(count * n)
    rows = count if details else 0
    out_cards = np.zeros((rows, E.N_CARDS, 3), np.int64)
    out_awards = np.zeros((rows, E.N_CAT * E.MAX_STACK), np.int64)
    run_blocks(play_batch, count, config.to_array(), config.comp_vector(), photo_table(), kinds,
               params, np.uint64(key0), np.uint64(key1), first, rotate_seats, out_i, out_f,
               out_cards, out_awards, uses_search(kinds), uses_exact(kinds),
               compiling=compiling(kinds))
    return pols, out_i, out_f, out_cards, out_awards


# a first run's compile of the batch kernel on a 2-core machine, without and with the search
# and exact kinds (benchmarks/compile_time.py)
COMPILE_SECONDS = (20, 35)


def compiling(kinds) -> str:
    """What a line-up's first run compiles, for `sim.kernel.compile_notice`."""
    heavy = uses_search(kinds) is not None or uses_exact(kinds) is not None
    return f"the Snapshot kernels for this line-up, about {COMPILE_SECONDS[heavy]} s"


def details(config: SnapshotConfig, policies, games: int, seed: int,
            rotate_seats: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-card totals (attempts, photos, dice rolled) and award claim rounds over a run.

    The games are the same as `run_games(config, policies, 0, games, seed)`'s.
    """
    _, _, _, cards, awards = _play(config, policies, 0, games, seed, rotate_seats, True)
    comp = config.components
    tot = cards.sum(axis=0)
    card_df = pd.DataFrame({
        "card": [a.name for a in comp.cards],
        "habitat": [comp.habitats[a.habitat].name if a.habitat >= 0 else "any"
                    for a in comp.cards],
        "difficulty": [a.difficulty for a in comp.cards],
        "prestige": [a.prestige for a in comp.cards],
        "attempts": tot[:, 0], "photos": tot[:, 1], "dice": tot[:, 2], "games": games})
    names = [h.name for h in comp.habitats] + ["Generalist"]
    rows = []
    for cat, name in enumerate(names):
        for place in range(E.MAX_STACK):
            col = awards[:, cat * E.MAX_STACK + place]
            if place < comp_stack_size(comp, cat):
                claimed = col[col > 0]
                rows.append({"award": name, "place": place + 1, "games": games,
                             "claimed": int(claimed.size),
                             "mean_round": float(claimed.mean()) if claimed.size else np.nan,
                             "median_round": float(np.median(claimed)) if claimed.size
                             else np.nan})
    return card_df, pd.DataFrame(rows)


def comp_stack_size(comp, cat: int) -> int:
    return len(comp.generalist) if cat == E.GENERALIST else len(comp.specialist[cat])


def run_games(config: SnapshotConfig, policies, first: int, count: int, seed: int,
              rotate_seats: bool = True) -> pd.DataFrame:
    """Rows (game, seat) for games first..first+count-1 of the run keyed by `seed`."""
    pols, out_i, out_f, _, _ = _play(config, policies, first, count, seed, rotate_seats, False)
    n = config.players
    return result_table(INT_COLUMNS, out_i, out_f, pols, first, n)


# ---------------------------------------------------------------- step API


ACTION_NAMES = ("draw", "stop", "offer", "pass", "place", "reserve", "accept", "spook",
                "place reserved", "reserved done", "die on habitat", "die on animal",
                "dice done", "token", "tokens done", "resolve", "re-roll token", "give up",
                "raccoon at set-up")


class Action(protocol.Action):
    """A decoded action: kind name and its card or habitat argument (or None)."""

    FIELDS = ("card", "habitat")

    def describe(self, comp) -> str:
        card = comp.cards[self.card].name if self.card is not None else None
        habitat = comp.habitats[self.habitat].name if self.habitat is not None else None
        plain = {"die on habitat": f"put a die on the {habitat} habitat (to explore it)",
                 "die on animal": f"put a die on the {card}",
                 "dice done": "done placing dice",
                 "token": f"put a tracking token on the {card}",
                 "tokens done": "done placing tokens",
                 "re-roll token": "pay a re-roll token " + (f"from the {card} card" if card
                                                            else "from your supply")}
        if self.kind in plain:
            return plain[self.kind]
        parts = [self.kind]
        if card is not None:
            parts.append(card)
        if habitat is not None:
            parts.append(f"in {habitat}")
        return " ".join(parts)


def decode(code: int, state: np.ndarray | None = None) -> Action:
    """The action a code stands for (the code says all of it: `state` is not read)."""
    kind, arg = int(E.act_kind(code)), int(E.act_arg(code))
    name = ACTION_NAMES[kind]
    if kind in (E.A_PLACE, E.A_SPOOK, E.A_DIE_HABITAT, E.A_RESOLVE, E.A_SETUP_RACCOON):
        return Action(code, name, habitat=arg)
    if kind == E.A_PLACE_RESERVED:
        if arg >= E.RACCOON_ARG:
            return Action(code, name, card=E.RACCOON, habitat=arg - E.RACCOON_ARG)
        return Action(code, name, card=arg)
    if kind in (E.A_DIE_ANIMAL, E.A_TOKEN):
        return Action(code, name, card=arg)
    if kind == E.A_REROLL:
        return Action(code, name, card=None if arg == E.SUPPLY else arg)
    return Action(code, name)


_LOC_NAMES = {E.L_DECK: "deck", E.L_TABLE: "table", E.L_DISCARD: "discard",
              E.L_RESERVE: "reserve", E.L_PORTFOLIO: "portfolio", E.L_DRAWN: "drawn",
              E.L_BOX: "box"}
# where a seat sees a card: the deck and the box look alike (face down, order unknown)
_SEEN_LOC = {E.L_DECK: 0, E.L_BOX: 0, E.L_DRAWN: 1, E.L_TABLE: 2, E.L_DISCARD: 3,
             E.L_RESERVE: 4, E.L_PORTFOLIO: 5}


class SnapshotGame(protocol.GameState):
    """One Snapshot game, one decision at a time (the protocol of `snapsim.protocol`)."""

    NAME = "snapshot"
    ENGINE, POLICIES, CONFIG, ACTION = E, P, SnapshotConfig, Action
    DECODE = staticmethod(decode)
    MIN_PLAYERS, MAX_PLAYERS = 2, E.MAX_PLAYERS
    ACTION_SPAN = E.ARG_SPAN
    PHASES = ("research", "offer", "decide", "prepare: reserved", "prepare: dice",
              "prepare: tokens", "photograph", "re-roll", "over", "set-up")
    DECISIONS_PER_UNIT = 1000  # per round and player
    # a first game at the terminal (`snapsim play`) to its first prompt: 23 s of one core
    # with no kernel cached (its wall time on a busy 2-core machine is 3-4 times that)
    PREPARE_SECONDS = 25

    def __init__(self, *args, **kwargs):
        self._ptab = photo_table()
        super().__init__(*args, **kwargs)

    _make_policy = staticmethod(make_policy)

    KEPT_MEMORY = P.KEPT_MEMORY

    def _new_memory(self):
        return P.new_memory()

    def _policy_code(self, st, rng, k, n, mem):
        return P.policy_action(st, self._cfg, self._comp, self._ptab, rng, self._kinds[k],
                               self._params[k], self._buf, n, mem, uses_search(self._kinds),
                               uses_exact(self._kinds))

    def _truncation_cap(self):
        return self.config.max_rounds

    def _log(self, who, action, before, forced):
        comp = self.config.components
        s = self.state
        line = f"round {int(before[E.ROUND]) + 1} P{who + 1}: {action.describe(comp)}"
        if forced:
            line += " (forced)"
        if action.kind == "draw":
            line += f" -> {comp.cards[int(s[E.LAST_DRAWN])].name}"
        # where cards went, including forced moves played after the action
        events = []
        for i in range(E.N_CARDS):
            was, now = int(before[E.LOC + i]), int(s[E.LOC + i])
            if was != now and now != E.L_DRAWN and not (was == E.L_DISCARD and now == E.L_DECK):
                events.append(f"{comp.cards[i].name} {_LOC_NAMES[now]}")
        if events:
            line += " [" + ", ".join(events) + "]"
        rolls = self._rolls_text(action, before)
        if rolls:
            line += " -> " + "; ".join(rolls)
        self.log.append(line)

    def _rolls_text(self, action, before) -> list[str]:
        """The dice `action` rolled (engine.ROLLS), in words: the exploring dice or re-roll
        against the habitat's explore value, each animal's dice and tokens against its
        difficulty, with the outcome."""
        s, comp = self.state, self.config.components
        first, last = int(before[E.ROLL_N]), int(s[E.ROLL_N])
        got = [int(s[E.ROLLS + k % E.ROLL_KEEP]) for k in range(first, last)]
        if not got:
            return []
        h = action.habitat if action.kind == "resolve" else int(before[E.RES_HAB])
        habitat = comp.habitats[h]
        out = []
        explore = [v % 8 for v in got if v // 8 in (E.R_EXPLORE, E.R_REROLL)]
        if explore:
            ok = max(explore) >= habitat.explore
            what = "re-rolled" if got[0] // 8 == E.R_REROLL else \
                f"explore {'die' if len(explore) == 1 else 'dice'} rolled"
            out.append(f"{habitat.name} {what} {', '.join(map(str, explore))} (needs a "
                       f"{habitat.explore} or more): {'explored' if ok else 'not explored'}")
        cards = dict.fromkeys(v // 8 - E.R_ANIMAL for v in got if v // 8 >= E.R_ANIMAL)
        for c in cards:
            dice = [v % 8 for v in got if v // 8 == E.R_ANIMAL + c]
            tokens = int(before[E.TOK_ON + c])
            total = sum(dice) + tokens
            need = int(E.card_difficulty(before, self._comp, c))
            parts = " + ".join(map(str, dice)) + (f" + {tokens} token{'s' * (tokens > 1)}"
                                                   if tokens else "")
            out.append(f"{comp.cards[c].name} rolled {parts} = {total} (needs {need}): "
                       f"{'photographed' if total >= need else 'missed'}")
        return out

    def observation(self, player: int) -> dict:
        """What `player` can see: everything public plus their own assignment."""
        self._check_player(player)
        comp = self.config.components
        s = self.state
        n = self.config.players

        def where(loc, owner=None):
            return [comp.cards[c].name for c in range(E.N_CARDS)
                    if s[E.LOC + c] == loc and (owner is None or s[E.OWNER + c] == owner)]

        table = {h.name: [comp.cards[c].name for c in range(E.N_CARDS)
                          if s[E.LOC + c] == E.L_TABLE and s[E.ON_HAB + c] == i]
                 for i, h in enumerate(comp.habitats)}
        a = comp.assignments[int(s[E.ASSIGN + player])]
        return {
            "player": player,
            "current_player": int(s[E.CUR]),
            "phase": self.phase,
            "round": int(s[E.ROUND]) + 1,
            "deck_size": int(s[E.N_DECK]),
            "drawn": comp.cards[int(s[E.DRAWN])].name if s[E.DRAWN] >= 0 else None,
            "table": table,
            "sideways": [comp.cards[c].name for c in range(E.N_CARDS)
                         if s[E.LOC + c] == E.L_TABLE and s[E.SIDEWAYS + c]],
            "resolving": (comp.habitats[int(s[E.RES_HAB])].name if s[E.RES_HAB] >= 0
                          else None),
            "discards": where(E.L_DISCARD),
            "tokens": [int(s[E.TOKENS + p]) for p in range(n)],
            "portfolios": [where(E.L_PORTFOLIO, p) for p in range(n)],
            "reserves": [where(E.L_RESERVE, p) for p in range(n)],
            "awards_left": [int(self._comp[E.K_AWARD_COUNT + k] - s[E.AWARD_NEXT + k])
                            for k in range(E.N_CAT)],
            "assignment": {"name": a.name, "cover": a.cover, "symbols": a.symbols,
                           "chart": a.chart},
            "end_triggered": bool(s[E.END_TRIGGERED]),
        }

    _PHASE_WORDS = {
        "research": "Research: draw a card or stop",
        "offer": "Research: the drawn card may be offered to reserve",
        "decide": "Research: what to do with the drawn card",
        "prepare: reserved": "Preparation: place your reserved cards",
        "prepare: dice": "Preparation: place your dice",
        "prepare: tokens": "Preparation: place tracking tokens",
        "photograph": "Photography: choose the habitat to resolve next",
        "re-roll": "Photography: the exploring roll failed; re-roll or give up",
        "set-up": "Set-up: put the raccoon into a habitat",
        "over": "the game is over"}

    def table_view(self, player: int) -> list[str]:
        """What `player` sees at the table, in words: the habitats with their animals and the
        dice and tokens put on them, the roll being re-rolled, tokens, cards in front of each
        player, their own assignment (no other seat's, no deck order)."""
        obs = self.observation(player)  # the seat's view: what follows reads nothing more
        comp, s = self.config.components, self.state
        cur = int(E.decider(s))
        lines = [f"round {obs['round']}: P{cur + 1} to play ({self._PHASE_WORDS[self.phase]})"]
        lines.append("tracking tokens: " + ", ".join(
            f"{'you' if p == player else f'P{p + 1}'} {t}" for p, t in enumerate(obs["tokens"])))
        deck = f"deck: {obs['deck_size']} cards"
        if obs["end_triggered"]:
            deck += " (the deck has run out: the game ends after this round)"
        lines.append(deck)
        if obs["drawn"]:
            lines.append(f"drawn card: {self._card(int(s[E.DRAWN]))}")
        lines.append("table:")
        for h, hab in enumerate(comp.habitats):
            dice = int(s[E.HAB_DICE + h])
            head = f"  {hab.name} (explore: a die of {hab.explore} or more)"
            if dice:
                head += f", {dice} {'die' if dice == 1 else 'dice'} on the habitat"
            if s[E.RES_HAB] == h:
                head += ", being explored"
            lines.append(head + ":")
            animals = [c for c in range(E.N_CARDS)
                       if s[E.LOC + c] == E.L_TABLE and s[E.ON_HAB + c] == h]
            lines += [f"    {self._card(c, table=True)}" for c in animals] or ["    (no animals)"]
        if self.phase == "re-roll":
            h = int(s[E.RES_HAB])
            need = self.config.reroll_cost
            lines.append(f"{comp.habitats[h].name} is not explored yet: {self._last_roll()} "
                         f"(needs a {comp.habitats[h].explore} or more); a re-roll costs "
                         f"{need} token{'s' * (need > 1)}, {int(s[E.POT])} paid into "
                         "re-rolls of this habitat so far (back to you if it is not explored)")
        if self.phase.startswith("prepare"):
            lines.append(f"dice left to place: {int(s[E.DICE_LEFT])}")
        for p in range(self.config.players):
            who = "you" if p == player else f"P{p + 1}"
            lines.append(f"{who}: photos {', '.join(obs['portfolios'][p]) or 'none'}; "
                         f"reserved {', '.join(obs['reserves'][p]) or 'none'}")
        a = obs["assignment"]
        lines.append(f"your assignment: {a['name']} (cover animals: {', '.join(a['cover'])}; "
                     f"symbols: {', '.join(a['symbols'])})")
        lines.append("awards left by habitat: " + ", ".join(
            f"{name} {k}" for name, k in zip([h.name for h in comp.habitats] + ["Generalist"],
                                             obs["awards_left"], strict=False)))
        lines.append(f"discard pile: {', '.join(obs['discards']) or 'empty'}")
        return lines

    def _last_roll(self) -> str:
        """The failed exploring roll: the habitat's dice, or the die last re-rolled."""
        s = self.state
        n = int(s[E.ROLL_N])
        if n == 0:
            return "no roll yet"
        got = [int(s[E.ROLLS + k % E.ROLL_KEEP]) for k in range(n - 1, max(-1, n - E.ROLL_KEEP
                                                                           - 1), -1)]
        if got[0] // 8 == E.R_REROLL:
            return f"the re-roll was a {got[0] % 8}"
        dice = [v % 8 for v in got[:int(s[E.HAB_DICE + s[E.RES_HAB]])]]
        return f"the exploring {'die' if len(dice) == 1 else 'dice'} rolled " + \
            ", ".join(map(str, reversed(dice)))

    def _card(self, c: int, table: bool = False) -> str:
        """A card in words: name, difficulty, prestige; on the table, its dice and tokens."""
        card, s = self.config.components.cards[c], self.state
        text = f"{card.name} (difficulty {int(E.card_difficulty(s, self._comp, c))}, " \
               f"prestige {card.prestige})"
        if table:
            dice, tokens = int(s[E.DICE_ON + c]), int(s[E.TOK_ON + c])
            if dice:
                text += f", {dice} {'die' if dice == 1 else 'dice'}"
            if tokens:
                text += f", {tokens} tracking token{'s' * (tokens > 1)}"
            if s[E.SIDEWAYS + c]:
                text += ", turned sideways (must be photographed this turn)"
        return text

    def choice_to_string(self, chosen, played) -> str:
        """A re-roll paid in one go: its tokens' sources (chosen, or the only ones left)."""
        if decode(chosen[0]).kind != "re-roll token":
            return super().choice_to_string(chosen, played)
        acts = [decode(c) for c in played[:self.config.reroll_cost - self.state[E.PAY_PENDING]]]
        names = self.config.components.cards
        sources = {}
        for a in acts:
            where = "your supply" if a.card is None else f"the {names[a.card].name} card"
            sources[where] = sources.get(where, 0) + 1
        return "re-roll a die, paying " + " and ".join(
            f"{k} token{'s' * (k > 1)} from {where}" for where, k in sources.items())

    def mid_move(self) -> bool:
        """Whether the step API is inside one choice the rules make whole: a re-roll whose
        tokens are part paid."""
        return self.phase == "re-roll" and self.state[E.PAY_PENDING] > 0

    def _tensor(self, player, t):
        """Layout: seat, decider, phase, round, deck size, end triggered, tokens by seat,
        awards left by category, own assignment; then per card (37): where it is as seen
        (unseen, drawn, table, discard, reserve, portfolio), its owner, its habitat on the
        table, sideways, dice and tokens on it; then the dice rolled per habitat."""
        s = self.state
        n = self.config.players
        t.one_hot("player", player, n)
        t.one_hot("decider", int(E.decider(s)), n)
        t.one_hot("phase", int(s[E.PHASE]), len(self.PHASES))
        t.add("round", s[E.ROUND] + 1)
        t.add("deck_size", s[E.N_DECK])
        t.add("end_triggered", s[E.END_TRIGGERED])
        t.add("tokens", s[E.TOKENS:E.TOKENS + n])
        t.add("awards_left", self._comp[E.K_AWARD_COUNT:E.K_AWARD_COUNT + E.N_CAT]
              - s[E.AWARD_NEXT:E.AWARD_NEXT + E.N_CAT])
        t.one_hot("assignment", int(s[E.ASSIGN + player]), len(self.config.components.assignments))
        loc = np.zeros((E.N_CARDS, len(set(_SEEN_LOC.values()))))
        owner = np.zeros((E.N_CARDS, n))
        hab = np.zeros((E.N_CARDS, E.N_HAB))
        for c in range(E.N_CARDS):
            where = int(s[E.LOC + c])
            loc[c, _SEEN_LOC[where]] = 1
            if where in (E.L_RESERVE, E.L_PORTFOLIO):
                owner[c, s[E.OWNER + c]] = 1
            if where == E.L_TABLE:
                hab[c, s[E.ON_HAB + c]] = 1
        t.add("card_place", loc)
        t.add("card_owner", owner)
        t.add("card_habitat", hab)
        t.add("card_sideways", s[E.SIDEWAYS:E.SIDEWAYS + E.N_CARDS])
        t.add("card_dice", s[E.DICE_ON:E.DICE_ON + E.N_CARDS])
        t.add("card_tokens", s[E.TOK_ON:E.TOK_ON + E.N_CARDS])
        t.add("habitat_dice", s[E.HAB_DICE:E.HAB_DICE + E.N_HAB])

    def scores(self) -> pd.DataFrame:
        """Score sheet by seat: the four categories, total, tokens and win share."""
        s = self.state
        n = self.config.players
        shares = E.win_shares(s, self._cfg)
        return pd.DataFrame({
            "seat": range(n),
            "animals": [int(s[E.S_PRESTIGE + p]) for p in range(n)],
            "awards": [int(s[E.S_AWARDS + p]) for p in range(n)],
            "cover": [int(s[E.S_COVER + p]) for p in range(n)],
            "article": [int(s[E.S_ARTICLE + p]) for p in range(n)],
            "score": [int(E.score(s, p)) for p in range(n)],
            "tokens": [int(s[E.TOKENS + p]) for p in range(n)],
            "won": shares,
        })
