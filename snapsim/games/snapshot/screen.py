"""Snapshot's parts of the play screen (`snapsim play`), registered as GameSpec.screen: the
one-line rule reminders, why a move the rules have is not offered, and the exact points a
move scores at once.

A move's points now are exact: its step actions and the forced moves after them are played
by the engine's own rules, interpreted in Python (`interpreted`), on the seat's public view
of the state (the deck put in card order, the other seats' assignments blanked), with every
die replaced by a choice of outcome. Only an exploring roll's, a re-roll's or an animal's
success or failure changes a score, so each such event branches into its two outcomes, each
with its exact chance (a Fraction: P(explored), P(photograph) of the dice and tokens), and
the chain's score change is read from the engine in every branch. Nothing hidden and no
random stream is read."""

from __future__ import annotations

import types
from fractions import Fraction

import numpy as np
from numba.core.registry import CPUDispatcher

from . import engine as E
from .search import public_view

# one line of the rulebook for each kind of move, shown under the first move of that kind
REMINDERS = {
    "draw": "draw: the next card of the deck; you then place, reserve or (if it cannot be "
            "placed) spook it",
    "stop": "stop: end Research and go on to Preparation with the animals placed",
    "offer": "offer: ask to reserve the card just drawn (Option D); if the drawer accepts, "
             "you take it into your reserve and pay them 1 tracking token (needs a free "
             "reserve space and a token)",
    "pass": "pass: make no offer for the card just drawn",
    "accept": "accept: the offering player reserves the card and pays you 1 tracking token; "
              "it spooks nothing (Option D)",
    "place": "place: into its habitat, above the animals there (a higher difficulty); you "
             "gain 1 tracking token (Option A)",
    "reserve": "reserve: keep the card in front of you to photograph on a later turn; at most "
               "two reserved cards (Option C)",
    "spook": "spook: the card is lower than the animals of its habitat (a raccoon: of every "
             "habitat, and you choose which it spooks), so it cannot be placed: it and they "
             "are discarded, no token, and your turn is over (Option B; reserving it, or "
             "accepting an offer, is the only way out)",
    "place reserved": "place reserved: one of your reserved cards into its habitat, sideways: "
                      "it must be photographed this turn (Step A)",
    "re-roll token": "re-roll: pay tracking tokens to roll an exploring die again; they come "
                     "back if the habitat is not explored in the end",
    "give up": "give up: the habitat is not explored; its animals are not photographed",
}


def unavailable(game, seat: int, kinds: set[str]) -> list[str]:
    """Why a Research move is not offered: reserving with two cards reserved; placing a card
    lower than its habitat's animals."""
    if game.phase != "decide":
        return []
    out = []
    if "reserve" not in kinds:
        out.append("reserve: you hold two reserved cards already, the most you may")
    if "place" not in kinds:
        out.append("place: the card is lower than the animals of its habitat, so it cannot "
                   "be placed")
    return out


# ---------------------------------------------------------------- exact points now


def interpreted(module, **replace) -> types.SimpleNamespace:
    """The compiled kernels of `module` as the Python they were written in, calling each
    other (and `replace`, by name, in place of the module's own): the rules played step by
    step where a die may be chosen instead of rolled."""
    names = dict(vars(module))
    for key, fn in vars(module).items():
        if isinstance(fn, CPUDispatcher) and fn.py_func.__module__ == module.__name__:
            f = fn.py_func
            names[key] = types.FunctionType(f.__code__, names, f.__name__, f.__defaults__,
                                            f.__closure__)
    names.update(replace)
    return types.SimpleNamespace(**names)


def _at_least(dice: int, need: int) -> Fraction:
    """P(the sum of `dice` d6 is `need` or more), exactly."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, k in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + k
        ways = nxt
    return Fraction(sum(k for total, k in ways.items() if total >= need), 6 ** dice)


class _Branch(Exception):
    """A roll whose outcome the chosen chain does not settle yet."""


class _Outcomes:
    """The dice of one chain of outcomes: each event (an exploring roll of a habitat's dice,
    a re-roll, an animal's dice) succeeds or fails as `chosen` says, all its dice showing 6
    or 1; `p` is the chain's chance."""

    def __init__(self, chosen: tuple[bool, ...], comp):
        self.chosen, self.comp = chosen, comp
        self.k = self.left = 0
        self.ok = False
        self.p = Fraction(1)

    def chance(self, st, what) -> tuple[Fraction, int]:
        """(P(success), dice) of the event a roll by `what` starts."""
        if what in (E.R_EXPLORE, E.R_REROLL):
            target = int(self.comp[E.K_EXPLORE + st[E.RES_HAB]])
            dice = 1 if what == E.R_REROLL else int(st[E.HAB_DICE + st[E.RES_HAB]])
            return 1 - Fraction(min(max(target - 1, 0), 6), 6) ** dice, dice
        c = int(what - E.R_ANIMAL)
        dice = int(st[E.DICE_ON + c])
        need = int(E.card_difficulty(st, self.comp, c)) - int(st[E.TOK_ON + c])
        return _at_least(dice, need), dice

    def rolled(self, st, rng, what):
        if self.left == 0:
            p, self.left = self.chance(st, what)
            if 0 < p < 1:
                if self.k == len(self.chosen):
                    raise _Branch
                self.ok = self.chosen[self.k]
                self.k += 1
                self.p *= p if self.ok else 1 - p
            else:
                self.ok = p == 1
        self.left -= 1
        return 6 if self.ok else 1


def points_distribution(game, seat: int, steps) -> dict[int, Fraction]:
    """The seat's score change from playing `steps` (its step actions) and the forced moves
    after each, as {points: exact chance}, from the seat's public view only."""
    start = np.empty(E.STATE_SIZE, np.int64)
    public_view(game.state, game._cfg, np.int64(seat), start)
    out: dict[int, Fraction] = {}
    todo: list[tuple[bool, ...]] = [()]
    while todo:
        chosen = todo.pop()
        dice = _Outcomes(chosen, game._comp)
        rules = interpreted(E, rolled=dice.rolled)
        st, buf = start.copy(), np.empty(E.MAX_LEGAL, np.int64)
        rng = np.zeros_like(game._rng)  # never drawn from: every die is chosen
        before = rules.score(st, seat)
        try:
            for code in steps:
                if st[E.PHASE] != E.PH_OVER:
                    rules.step(st, game._cfg, game._comp, rng, np.int64(code), buf)
        except _Branch:
            todo += [chosen + (True,), chosen + (False,)]
            continue
        gained = int(rules.score(st, seat) - before)
        out[gained] = out.get(gained, Fraction(0)) + dice.p
    return out


def points_now(game, seat: int, moves) -> list[dict[int, Fraction]]:
    """Each move's (a list of step actions) exact points now, as `points_distribution`."""
    return [points_distribution(game, seat, steps) for steps in moves]
