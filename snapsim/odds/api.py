"""Validated Python entry points to the exact kernels (what `snapsim.odds` exports)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputError
from ..sim.checks import number
from .dice import photo_table_kernel
from .explore import explore_kernel
from .habitat import habitat_kernel
from .spook import SPOOK_BITS, TOP_BITS, next_draw_risk, research_kernel
from .sums import MAX_DICE, _dice, _int
from .sums import photo_success as photo_success
from .sums import sum_pmf as sum_pmf
from .tokens import token_gain_kernel, token_table_kernel

DEFAULT_REROLL_COST = 2
RACCOON_DIFFICULTY = 6
# States below this probability are not followed; their total mass is reported as `dropped`.
PRUNE = 1e-18


# After 1000 re-rolls P(every die failed) <= (5/6)**1000 < 1e-79.
MAX_REROLLS = 1000


def photo_table(max_dice: int = 6, max_tokens: int = 20, max_difficulty: int = 40) -> np.ndarray:
    """table[d-1, t, D-1] = photo_success(d, t, D) for every dice, tokens and difficulty."""
    return photo_table_kernel(_dice(max_dice, "max_dice"), _int("max_tokens", max_tokens, 0),
                              _int("max_difficulty", max_difficulty, 1))


@dataclass(frozen=True)
class ExploreOdds:
    """Exact outcome of exploring one habitat with a re-roll budget.

    Attributes
    ----------
    success : float
        P(the habitat is explored), re-rolls included.
    expected_paid : float
        Expected tokens the bank keeps for re-rolls (refunded on a final failure).
    expected_rerolls : float
        Expected re-rolls actually bought.
    """

    success: float
    expected_paid: float
    expected_rerolls: float


def _explore_args(dice, target, rerolls, reroll_cost):
    return (_dice(dice), _int("target", target, 1, 6, " (explore values are 1-6)"),
            _int("rerolls", rerolls, 0, MAX_REROLLS, " (more change no probability)"),
            _int("reroll_cost", reroll_cost, 1))


def explore_odds(dice: int, target: int, rerolls: int = 0,
                 reroll_cost: int = DEFAULT_REROLL_COST) -> ExploreOdds:
    """Explore with up to `rerolls` single-die re-rolls bought after failed rolls.

    Parameters
    ----------
    dice : int
        Dice on the habitat, 1-6.
    target : int
        The habitat's explore value: the roll one die must reach, 1-6.
    rerolls : int
        Most re-rolls the player will buy (each re-rolls one die after a failed roll).
    reroll_cost : int
        Tokens one re-roll costs (the rulebook's 2).

    Returns
    -------
    ExploreOdds
        Success probability, expected tokens kept by the bank and expected re-rolls bought.
    """
    s, paid, bought = explore_kernel(*_explore_args(dice, target, rerolls, reroll_cost))
    return ExploreOdds(float(s), float(paid), float(bought))


def explore_success(dice: int, target: int, rerolls: int = 0) -> float:
    """P(at least one die >= target) with up to `rerolls` bought re-rolls."""
    return explore_odds(dice, target, rerolls).success


@dataclass(frozen=True)
class HabitatValue:
    """Exact value of one habitat allocation.

    Attributes
    ----------
    p_explore : float
        P(the habitat is explored), re-rolls included.
    p_photo : numpy.ndarray
        P(each animal is photographed), unconditional, in the order given.
    photos_pmf : numpy.ndarray
        P(k animals photographed), k = 0..n.
    expected_tokens_lost : float
        Expected tokens lost: re-roll tokens kept by the bank plus tokens spent on
        photographed cards.
    expected_reroll_paid : float
        Expected tokens paid for re-rolls.
    """

    p_explore: float
    p_photo: np.ndarray
    photos_pmf: np.ndarray
    expected_tokens_lost: float
    expected_reroll_paid: float

    @property
    def expected_photos(self) -> float:
        """Expected animals photographed."""
        return float(self.p_photo.sum())


def habitat_value(explore_dice: int, target: int, animals, rerolls: int = 0,
                  reroll_cost: int = DEFAULT_REROLL_COST) -> HabitatValue:
    """Value of dice on a habitat plus (difficulty, dice, tokens) per animal.

    Re-rolls are paid from tokens held back, not from tokens placed on the animals.

    Parameters
    ----------
    explore_dice : int
        Dice placed on the habitat card.
    target : int
        The habitat's explore value, 1-6.
    animals : list of (int, int, int)
        Per animal: (difficulty, dice on it, tokens on it); all dice together at most 6.
    rerolls : int
        Most explore re-rolls the player will buy.
    reroll_cost : int
        Tokens one re-roll costs.

    Returns
    -------
    HabitatValue
        Explore and photo probabilities, the distribution of photos taken and expected
        token costs.
    """
    args = _explore_args(explore_dice, target, rerolls, reroll_cost)
    rows = [tuple(a) for a in animals]
    for i, row in enumerate(rows):
        if len(row) != 3:
            raise InputError(f"animal {i}: give (difficulty, dice, tokens), got {row!r}")
        _int(f"animal {i} difficulty", row[0], 1)
        _int(f"animal {i} dice", row[1], 1, MAX_DICE, " (each attempted animal needs a die)")
        _int(f"animal {i} tokens", row[2], 0)
    used = explore_dice + sum(r[1] for r in rows)
    if used > MAX_DICE:
        raise InputError(f"the allocation uses {used} dice; a turn has {MAX_DICE}")
    arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
    pe, pp, pmf, lost, paid = habitat_kernel(*args, arr[:, 0].copy(), arr[:, 1].copy(),
                                             arr[:, 2].copy())
    return HabitatValue(float(pe), pp, pmf, float(lost), float(paid))


def unseen_counts(cards, n_habitats: int = 4, max_difficulty: int = 10) -> np.ndarray:
    """Turn (habitat index, difficulty) pairs into the count array the research kernels take."""
    counts = np.zeros((n_habitats, max_difficulty + 1), dtype=np.int64)
    for card in cards:
        try:
            h, d = card
        except (TypeError, ValueError):
            raise InputError(f"unseen card {card!r}: give (habitat index, difficulty)") from None
        _int("card habitat", h, 0, n_habitats - 1)
        _int("card difficulty", d, 1, max_difficulty)
        counts[h, d] += 1
    return counts


def _research_args(tops, unseen, raccoon, free_slots, raccoon_difficulty):
    if not isinstance(unseen, np.ndarray):
        unseen = unseen_counts(unseen, n_habitats=len(tops))
    if unseen.ndim != 2 or np.any(unseen < 0):
        raise InputError("unseen must be non-negative counts of shape (habitats, difficulty+1)")
    max_d = unseen.shape[1] - 1
    if max_d >= 1 << TOP_BITS or np.any(unseen.sum(axis=1) >= 1 << SPOOK_BITS):
        raise InputError(f"card counting supports difficulties below {1 << TOP_BITS} and "
                         f"fewer than {1 << SPOOK_BITS} unseen cards per habitat")
    tops = [_int("habitat top", t, 0, max_d, " (0 = empty habitat)") for t in tops]
    if len(tops) != unseen.shape[0]:
        raise InputError(f"{len(tops)} habitat tops given for {unseen.shape[0]} habitats")
    rd = _int("raccoon_difficulty", raccoon_difficulty, 1, max_d)
    return (np.array(tops, dtype=np.int64), unseen.astype(np.int64), int(bool(raccoon)), rd,
            _int("free_slots", free_slots, 0, 7))


@dataclass(frozen=True)
class ResearchOdds:
    """Exact outcome distribution of a research phase.

    Attributes
    ----------
    next_draw : float
        P(the next card cannot be placed: it spooks unless reserved).
    spooked : numpy.ndarray
        [placed, reserved]: P(research ends in a spook with that many cards placed and
        reserved).
    stopped : numpy.ndarray
        [placed, reserved]: P(research ends by stopping, or an empty deck, there).
    dropped : float
        Probability mass of pruned deep states: an exact bound on every error (< 1e-12).
    """

    next_draw: float
    spooked: np.ndarray
    stopped: np.ndarray
    dropped: float

    @property
    def p_spook(self) -> float:
        """P(research ends in a spook)."""
        return float(self.spooked.sum())

    @property
    def placed_pmf(self) -> np.ndarray:
        """P(k cards placed, i.e. k tokens earned) when research ends."""
        return (self.spooked + self.stopped).sum(axis=1)

    @property
    def spook_pmf(self) -> np.ndarray:
        """P(the first spook comes after exactly k successful draws (placed or reserved))."""
        n = self.spooked.shape[0]
        out = np.zeros(n + self.spooked.shape[1])
        for r in range(self.spooked.shape[1]):
            out[r:r + n] += self.spooked[:, r]
        return np.trim_zeros(out, "b") if out.any() else out[:1]

    @property
    def expected_tokens(self) -> float:
        """Expected tracking tokens gained by placing cards."""
        return float(np.arange(self.spooked.shape[0]) @ self.placed_pmf)

    @property
    def expected_reserved(self) -> float:
        """Expected cards reserved (into free slots) during research."""
        return float((self.spooked + self.stopped).sum(axis=0) @ np.arange(self.spooked.shape[1]))


def spook_risk(tops, unseen, *, raccoon: bool = False, free_slots: int = 0,
               raccoon_difficulty: int = RACCOON_DIFFICULTY) -> ResearchOdds:
    """Card counting for a player who keeps drawing until a spook (or the deck runs out).

    `tops[h]` is the highest difficulty in habitat h (0 if empty); `unseen` is the multiset of
    cards not yet seen, as (habitat, difficulty) pairs or a numpy count array [habitat,
    difficulty] (as from `unseen_counts`); `raccoon` says the
    raccoon is among them. Free reserve slots absorb cards that would spook.
    """
    return research_odds(tops, unseen, raccoon=raccoon, free_slots=free_slots,
                         raccoon_difficulty=raccoon_difficulty)


def _stop_rule(max_placed, max_risk) -> int:
    """Validate a stopping rule; returns the placement cap (no cap: a huge number)."""
    k = 1 << 30 if max_placed is None else _int("max_placed", max_placed, 0)
    number(max_risk, "max_risk", 0, 1, hint=" (a probability)")
    return k


def check_stop_rule(max_placed=None, max_risk=1.0) -> None:
    """Raise InputError for a bad stopping rule before any work is done."""
    _stop_rule(max_placed, max_risk)


def research_odds(tops, unseen, *, raccoon: bool = False, free_slots: int = 0,
                  max_placed: int | None = None, max_risk: float = 1.0,
                  raccoon_difficulty: int = RACCOON_DIFFICULTY) -> ResearchOdds:
    """Exact odds of the stopping rule "draw until `max_placed` placed or risk > `max_risk`".

    `tops`, `unseen`, `raccoon` and `free_slots` are as for `spook_risk`; `max_placed`
    (cards placed this turn, None: no cap) and `max_risk` (a probability, 0-1, of the next
    draw spooking) say when the player stops drawing.
    """
    t, u, r, rd, slots = _research_args(tops, unseen, raccoon, free_slots, raccoon_difficulty)
    k = _stop_rule(max_placed, max_risk)
    spooked, stopped, dropped = research_kernel(t, u, r, rd, slots, k, float(max_risk), PRUNE)
    return ResearchOdds(float(next_draw_risk(t, u, r, rd)), spooked, stopped, float(dropped))


def spook_table(tops, unseen: np.ndarray, *, raccoon: bool = False, reserve_slots: int = 0,
                raccoon_difficulty: int = RACCOON_DIFFICULTY) -> tuple[pd.DataFrame, dict]:
    """The table `snapsim odds spook` prints, for a player who draws on until a spook:
    P(the first spook after k successful draws), also with `reserve_slots` free reserve
    slots when given, and its headline numbers (unseen cards, next draw's risk, expected
    tokens, P(the deck runs out first)). `unseen` is a count array from `unseen_counts`."""
    kw = dict(raccoon=raccoon, raccoon_difficulty=raccoon_difficulty)
    plain = research_odds(tops, unseen, **kw)
    columns = {"p_no_reserve": plain.spook_pmf}
    if reserve_slots > 0:
        slots = research_odds(tops, unseen, free_slots=reserve_slots, **kw)
        columns[f"p_{reserve_slots}_reserve_slots"] = slots.spook_pmf
    n = max(len(v) for v in columns.values())
    df = pd.DataFrame({"draws_before_spook": np.arange(n),
                       **{k: np.pad(v, (0, n - len(v))) for k, v in columns.items()}})
    return df, {"unseen_cards": int(np.sum(unseen)) + int(bool(raccoon)),
                "p_next_draw_spooks": plain.next_draw,
                "expected_tokens_drawing_to_spook": plain.expected_tokens,
                "p_deck_runs_out_first": float(plain.stopped.sum())}


def token_value(explore_dice: int, target: int, animal_dice: int, difficulty: int,
                tokens: int = 0, rerolls: int = 0,
                reroll_cost: int = DEFAULT_REROLL_COST) -> tuple[float, float, float]:
    """Where the next token buys more: on the card or held back for an explore re-roll.

    Returns
    -------
    tuple of float
        (P(photo) now, gain in P(photo) from +1 token on the card, gain in P(photo) per
        token held back for a re-roll).
    """
    ed, tg, rr, cost = _explore_args(explore_dice, target, rerolls, reroll_cost)
    ad = _dice(animal_dice, "animal_dice")
    if ed + ad > MAX_DICE:
        raise InputError(f"the allocation uses {ed + ad} dice; a turn has {MAX_DICE}")
    return tuple(float(x) for x in token_gain_kernel(
        ed, tg, ad, _int("difficulty", difficulty, 1), _int("tokens", tokens, 0), rr, cost))


TOKEN_COLUMNS = ["target", "explore_dice", "animal_dice", "difficulty", "tokens", "p_photo",
                 "gain_card_token", "gain_per_reroll_token"]


def token_table(targets=(2, 3, 4, 5), explore_dice=(1, 2), animal_dice=(1, 2, 3),
                difficulties=tuple(range(2, 11)), tokens=(0, 1, 2, 3), rerolls: int = 0,
                reroll_cost: int = DEFAULT_REROLL_COST) -> pd.DataFrame:
    """One row per situation with the better use of the next token.

    best_use is "card", "reroll", "either" (equal gains) or "none" (no gain either way).
    """
    tg = [_int("target", t, 1, 6) for t in targets]
    ed = [_dice(d, "explore_dice") for d in explore_dice]
    ad = [_dice(d, "animal_dice") for d in animal_dice]
    df = [_int("difficulty", d, 1) for d in difficulties]
    tk = [_int("tokens", t, 0) for t in tokens]
    rr = _int("rerolls", rerolls, 0, MAX_REROLLS, " (more change no probability)")
    cost = _int("reroll_cost", reroll_cost, 1)
    arr = [np.array(x, dtype=np.int64) for x in (tg, ed, ad, df, tk)]
    out = pd.DataFrame(token_table_kernel(*arr, rr, cost), columns=TOKEN_COLUMNS)
    out = out[out.explore_dice + out.animal_dice <= MAX_DICE].reset_index(drop=True)
    if out.empty:
        raise InputError(f"no situation fits in {MAX_DICE} dice: lower explore_dice or "
                         "animal_dice")
    for c in TOKEN_COLUMNS[:5]:
        out[c] = out[c].astype(np.int64)
    card, reroll = out.gain_card_token, out.gain_per_reroll_token
    out["best_use"] = np.select(
        [(card <= 1e-12) & (reroll <= 1e-12), (card - reroll).abs() <= 1e-12, card > reroll],
        ["none", "either", "card"], "reroll")
    return out
