"""Exact preparation advisor: every allocation of the dice and tokens, ranked by expected value.

Model (the rulebook's Phase 3 with one documented simplification): habitats are resolved in
habitat order; after a failed explore roll the player keeps buying re-rolls while the tokens
left in the supply pay for them (the preparation search does not take tokens back off cards
for re-rolls, although the rules allow it); re-roll tokens are lost only when the exploration
finally succeeds, card tokens only when the photograph succeeds. The re-roll decision itself
(`reroll_search`, `snapsim advise reroll`, the `exact` policy) is exact over every way of
paying: supply tokens and tokens taken off the habitat's animal cards, in any combination.
The value of a photograph is the policies' `card_value` (prestige plus award, cover and
feature-article gains), and each token lost costs `token_value`, so the advisor and the
greedy policy rank with the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import InputError
from ...odds import photo_success
from ...odds.explore import face_success
from ...sim.checks import number, whole
from . import engine as E
from . import policies as P
from .plans import explore_with_budget, reroll_search, search

TOP = 10  # allocations kept


@dataclass(frozen=True)
class Advice:
    """Ranked allocations (best first) and how many were searched."""

    table: pd.DataFrame
    searched: int


def advise_allocations(state, cfg, comp, ptab, params, cards, mandatory, top: int = TOP):
    """Rank every allocation for the current player of `state` over the candidate `cards`."""
    p = int(E.decider(state))
    hab = np.array([int(state[E.ON_HAB + c]) if state[E.ON_HAB + c] >= 0
                    else int(comp[E.K_HAB + c]) for c in cards], np.int64)
    diff = np.array([int(E.card_difficulty(state, comp, c)) for c in cards], np.int64)
    val = np.array([P.card_value(state, cfg, comp, params, p, c) for c in cards])
    targets = comp[E.K_EXPLORE:E.K_EXPLORE + E.N_HAB].copy()
    tokens = int(state[E.TOKENS + p]) if cfg[E.C_TOKENS] == 1 else 0
    kept, count = search(ptab, hab, diff, val, np.array(mandatory, np.bool_), targets,
                         int(cfg[E.C_DICE]), tokens, int(cfg[E.C_REROLL_COST]),
                         float(params[P.P_TOKEN_VALUE]), top)
    return hab, diff, val, kept[np.argsort(-kept[:, 0])], count


# ---------------------------------------------------------------- situations


SITUATION_KEYS = {"players", "tokens", "table", "sideways", "reserved", "portfolio",
                  "assignment", "token_value", "dice", "reroll_cost", "seen", "discards"}
NAME_LISTS = ("sideways", "reserved", "portfolio", "seen", "discards")
MAX_TOKENS = 100  # a supply past any game: the exact search stays quick
MAX_TOP = 10_000  # rows asked for; more than any search keeps


def check_situation(data: dict, source: str) -> None:
    """Each situation value of the right kind and range, named in one line."""
    try:
        whole(data.get("tokens", 0), "tokens", 0, MAX_TOKENS)
        number(data.get("token_value", 0.0), "token_value", 0, 100)
        table = data.get("table", {})
        if not isinstance(table, dict) or not all(
                isinstance(v, list) and all(isinstance(n, str) for n in v)
                for v in table.values()):
            raise InputError("table must map habitat names to lists of animal names, e.g. "
                             'Shoreline = ["walrus"]')
        for key in NAME_LISTS:
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
                raise InputError(f"{key} must be a list of animal names, got {value!r}")
        if "assignment" in data and not isinstance(data["assignment"], str):
            raise InputError(f"assignment must be an assignment's name, got "
                             f"{data['assignment']!r}")
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


def _check_keys(data, source: str) -> None:
    """A table of known keys, each value of its kind."""
    if not isinstance(data, dict):
        raise InputError(f"{source}: a situation is a table of keys "
                         f"({', '.join(sorted(SITUATION_KEYS))}), not {type(data).__name__}")
    unknown = sorted(set(data) - SITUATION_KEYS)
    if unknown:
        raise InputError(f"{source}: unknown key {unknown[0]!r}; keys are "
                         f"{', '.join(sorted(SITUATION_KEYS))}")
    check_situation(data, source)


def _place_cards(data: dict, source: str, game, config) -> None:
    """Every card where the situation puts it (the rest in the deck), my photographs
    scored with their awards; a card named in two places is an error."""
    st, comp = game.state, config.components
    seen: dict[int, str] = {}

    def card(name, where):
        c = comp.card_index(name)
        if c in seen:
            raise InputError(f"{source}: {name!r} is both in {seen[c]} and in {where}")
        seen[c] = where
        return c

    for c in range(E.N_CARDS):
        st[E.LOC + c], st[E.ON_HAB + c], st[E.OWNER + c], st[E.SIDEWAYS + c] = \
            E.L_DECK, -1, -1, 0
    table = data.get("table", {})
    for hab_name, names in table.items():
        h = comp.habitat_index(hab_name)
        for name in names:
            c = card(name, f"the {comp.habitats[h].name} table")
            if comp.cards[c].habitat not in (h, -1):
                raise InputError(f"{source}: {name!r} lives in "
                                 f"{comp.habitats[comp.cards[c].habitat].name}, not in "
                                 f"{comp.habitats[h].name}")
            st[E.LOC + c], st[E.ON_HAB + c] = E.L_TABLE, h
    for name in data.get("sideways", []):
        c = comp.card_index(name)
        if st[E.LOC + c] != E.L_TABLE:
            raise InputError(f"{source}: sideways card {name!r} must also be on the table")
        st[E.SIDEWAYS + c] = 1
    reserved = data.get("reserved", [])
    if len(reserved) > config.reserve_limit:
        raise InputError(f"{source}: {len(reserved)} reserved cards; the limit is "
                         f"{config.reserve_limit}")
    for name in reserved:
        c = card(name, "the reserve")
        st[E.LOC + c], st[E.OWNER + c] = E.L_RESERVE, 0
    st[E.N_RESERVED] = len(reserved)
    cfg, vec = game._cfg, game._comp
    for name in data.get("portfolio", []):
        c = card(name, "the portfolio")
        st[E.LOC + c], st[E.OWNER + c] = E.L_PORTFOLIO, 0
        E.add_photo(st, cfg, vec, 0, c)
    E.collect_awards(st, vec, 0)
    for name in data.get("discards", []):
        st[E.LOC + card(name, "the discard pile")] = E.L_DISCARD


def _set_assignment(data: dict, source: str, game, comp) -> None:
    """My assignment, and my photographs scored again with it."""
    st, cfg, vec = game.state, game._cfg, game._comp
    if "assignment" not in data:
        return
    names = [a.name for a in comp.assignments]
    if data["assignment"] not in names:
        raise InputError(f"{source}: unknown assignment {data['assignment']!r}")
    st[E.ASSIGN] = names.index(data["assignment"])
    st[E.SYM_COUNT] = st[E.COVER_DONE] = 0
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == E.L_PORTFOLIO:
            st[E.PHOTOS] -= 1
            st[E.S_PRESTIGE] -= comp.cards[c].prestige
            if c != E.RACCOON:
                st[E.HAB_COUNT + comp.cards[c].habitat] -= 1
            E.add_photo(st, cfg, vec, 0, c)


def situation_game(data: dict, source: str = "situation", config=None, seed: int = 0,
                   game: int = 0, components=None):
    """A SnapshotGame positioned at the start of Preparation from a situation description.

    Keys: table = {Habitat = [animals]}, tokens, sideways = [animals placed sideways],
    reserved = [my reserved animals], portfolio = [my photographs], discards = [the discard
    pile, face up for every seat], assignment = name, players, dice, reroll_cost,
    token_value. Impossible situations raise one-line errors.
    """
    from .api import SnapshotGame
    from .config import SnapshotConfig

    _check_keys(data, source)
    knobs = {k: data[k] for k in ("players", "dice", "reroll_cost") if k in data}
    if components is not None:  # "standard", a component file path or a loaded set
        knobs["components"] = components
    if "assignment" not in data:  # no assignment given: photographs earn no assignment bonus
        knobs["assignments"] = False
    config = config or SnapshotConfig.from_knobs(**knobs)
    comp = config.components
    game = SnapshotGame(config, seed=seed, game=game)
    st = game.state
    _place_cards(data, source, game, config)
    _set_assignment(data, source, game, comp)
    st[E.CUR] = 0
    st[E.TOKENS] = data.get("tokens", 0)
    E.index_cards(st, game._comp)
    st[E.PHASE] = E.PH_PREP_DICE
    st[E.DICE_LEFT] = config.dice
    st[E.PHOTOS_TURN] = 0
    return game


# an allocation's odds twice: as text (table, CSV) and as lists of records (JSON)
ODDS_TEXT = ["explore_dice", "animals", "p_explore", "p_photograph"]
ODDS_LISTS = ["habitat_odds", "animal_odds"]
PREP_UNITS = {"value": "prestige", "expected_prestige": "prestige",
              "expected_tokens_lost": "tokens", "p_*": "probability (0-1)",
              "dice, tokens, tokens_on_cards, reroll_cap, dice_used": "count"}
RESEARCH_UNITS = {"value, value_stop, value_draw": "prestige", "p_*": "probability (0-1)"}
REROLL_UNITS = {"value_of_rerolling": "prestige (relative to giving up now)",
                "expected_tokens_lost, tokens_lost_if_it_succeeds": "tokens",
                "p_*": "probability (0-1)"}


@dataclass(frozen=True)
class AllocationOdds:
    """The exact numbers behind one allocation's value (value = expected_prestige -
    token_value x expected_tokens_lost), in the search's model: habitats explored in order,
    at most the plan's re-roll cap paid from the supply."""

    p_explore: np.ndarray  # per habitat
    p_any_photograph: np.ndarray  # per habitat: at least one of its animals photographed
    p_photograph: np.ndarray  # per card, unconditional (explored and photographed)
    expected_prestige: float  # photographs' values, award and assignment gains included
    expected_tokens_lost: float  # re-roll tokens the bank keeps + tokens on photographed cards


def allocation_odds(targets, hab, diff, val, hab_dice, dice_on, tok, cap, tokens,
                    cost) -> AllocationOdds:
    """P(explore) per habitat (re-rolls from one shared budget, `explore_with_budget`) and
    P(photograph) per card (`photo_success`); a card's roll is independent of the explore
    roll, so P(photograph) = P(explore) x P(dice + tokens >= difficulty)."""
    p_explore, rerolls = explore_with_budget(hab_dice, targets, cap, tokens // cost)
    # a difficulty below 1 (an unset raccoon) is met by any roll, as by difficulty 1
    p_card = np.array([photo_success(int(d), int(t), max(int(k), 1)) if d else 0.0
                       for d, t, k in zip(dice_on, tok, diff, strict=True)])
    p_none = np.ones(len(targets))
    for h, s in zip(hab, p_card, strict=True):
        p_none[h] *= 1.0 - s
    p_photo = p_explore[hab] * p_card
    return AllocationOdds(p_explore, p_explore * (1.0 - p_none), p_photo,
                          float(p_photo @ val), rerolls * cost + float(p_photo @ tok))


def _preparation(row: np.ndarray, cards: list[int], placed: list[int], names, targets, hab,
                 diff, val, tokens: int, cost: int) -> dict:
    """One kept allocation as a row of the advice: its value, exact odds and plan."""
    n_hab = E.N_HAB
    dice_on = row[1 + n_hab:1 + n_hab + len(cards)].astype(int)
    tok = row[1 + n_hab + len(cards):1 + n_hab + 2 * len(cards)].astype(int)
    hd = row[1:1 + n_hab].astype(int)
    odds = allocation_odds(targets, hab, diff, val, hd, dice_on, tok, int(row[-1]), tokens,
                           cost)
    explored = [h for h in range(n_hab) if hd[h]]
    shot = [i for i in range(len(cards)) if dice_on[i]]
    habitats = [{"habitat": names.habitats[h].name, "dice": int(hd[h]),
                 "p_explore": float(odds.p_explore[h]),
                 "p_any_photograph": float(odds.p_any_photograph[h])}
                for h in explored]
    animals = [{"animal": names.cards[cards[i]].name, "dice": int(dice_on[i]),
                "tokens": int(tok[i]), "p_photograph": float(odds.p_photograph[i])}
               for i in shot]
    return {
        "value": row[0], "expected_prestige": odds.expected_prestige,
        "expected_tokens_lost": odds.expected_tokens_lost,
        "place_reserved": ", ".join(names.cards[c].name for c in placed) or "-",
        "explore_dice": " ".join(f"{x['habitat']}:{x['dice']}" for x in habitats)
        or "-",
        "animals": "; ".join(f"{x['animal']} {x['dice']}d+{x['tokens']}t"
                             for x in animals) or "-",
        "p_explore": "; ".join(f"{x['habitat']} {x['p_explore']:.4f} (any photo "
                               f"{x['p_any_photograph']:.4f})" for x in habitats)
        or "-",
        "p_photograph": "; ".join(f"{x['animal']} {x['p_photograph']:.4f}"
                                  for x in animals) or "-",
        "habitat_odds": habitats, "animal_odds": animals,
        "tokens_on_cards": int(tok.sum()), "reroll_cap": int(row[-1]),
        "dice_used": int(hd.sum() + dice_on.sum()),
        "plan": {"habitat_dice": hd.tolist(), "cards": [int(c) for c in cards],
                 "dice": dice_on.tolist(), "tokens": tok.tolist(),
                 "place_reserved": [int(c) for c in placed]}}


def advise(data: dict, source: str = "situation", top: int = TOP, components=None) -> Advice:
    """Rank every preparation (dice, tokens; reserved cards placed or not) of a situation,
    with the cards of `components` (default: the bundled set)."""
    whole(top, "top", 1, MAX_TOP)
    game = situation_game(data, source, components=components)
    lam = data.get("token_value", P.DEFAULT_PARAMS["greedy"][P.P_TOKEN_VALUE])
    params = np.array(P.DEFAULT_PARAMS["greedy"], np.float64)
    params[P.P_TOKEN_VALUE] = float(lam)
    st, cfg, comp = game.state, game._cfg, game._comp
    table = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_TABLE]
    reserved = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_RESERVE]
    names = game.config.components
    targets = comp[E.K_EXPLORE:E.K_EXPLORE + E.N_HAB]
    tokens = int(st[E.TOKENS]) if cfg[E.C_TOKENS] == 1 else 0
    rows, searched = [], 0
    # each subset of reserved cards placed (sideways: they must then be attempted)
    for mask in range(1 << len(reserved)):
        placed = [reserved[i] for i in range(len(reserved)) if mask >> i & 1]
        if any(c == E.RACCOON for c in placed):
            continue  # a reserved raccoon's habitat is a choice: not searched here
        cards = table + placed
        mandatory = [bool(st[E.SIDEWAYS + c]) or c in placed for c in cards]
        hab, diff, val, kept, count = advise_allocations(st, cfg, comp, game._ptab, params,
                                                         cards, mandatory, top)
        searched += count
        for row in kept:
            if row[0] <= -1e17:
                continue
            rows.append(_preparation(row, cards, placed, names, targets, hab, diff, val,
                                     tokens, int(cfg[E.C_REROLL_COST])))
    table_df = pd.DataFrame(rows).sort_values("value", ascending=False, kind="stable")
    return Advice(table_df.head(top).reset_index(drop=True), searched)


# ---------------------------------------------------------------- re-rolls and research


def reroll_advice(stake: float, target: int, supply: int, paid: int = 0, cost: int = 2,
                  token_value: float = 0.4, animals=()) -> dict:
    """After a failed explore roll: re-roll or give up? Exact over every later re-roll and
    every way of paying for it (`reroll_search`).

    `animals` are the habitat's animals with dice, as (dice, difficulty, value, tokens on the
    card): their tokens may pay for re-rolls, lowering their totals. `stake` is the expected
    value of any other photographs once explored; `paid` tokens already on the habitat for
    re-rolls come back on giving up and are lost on success.
    """
    from .config import photo_table

    whole(supply, "supply", 0, MAX_TOKENS)
    whole(paid, "paid", 0, MAX_TOKENS)
    whole(target, "target", 1, 6, hint=" (an explore value)")
    whole(cost, "reroll cost", 1, MAX_TOKENS)
    number(token_value, "token value", 0, 100)
    stake = number(stake, "stake", -1000, 1000)
    rows = []
    for a in animals:
        if len(a) != 4 or any(isinstance(x, bool) for x in a) or not (
                isinstance(a[0], int) and 1 <= a[0] <= 6 and isinstance(a[1], int)
                and 1 <= a[1] <= 40 and isinstance(a[3], int) and 0 <= a[3] <= P.MAX_T
                and isinstance(a[2], int | float) and math.isfinite(a[2])
                and abs(a[2]) <= 1000):
            raise InputError(f"an animal is (dice 1-6, difficulty 1-40, value, tokens "
                             f"0-{P.MAX_T}), got {a!r}")
        rows.append(a)
    dice = np.array([a[0] for a in rows], np.int64)
    diff = np.array([a[1] for a in rows], np.int64)
    val = np.array([float(a[2]) for a in rows])
    tok = np.array([a[3] for a in rows], np.int64)
    pay = np.zeros(len(rows) + 1, np.int64)
    v, p_ok, lost = reroll_search(photo_table(), dice, diff, val, tok, float(stake), supply,
                                  paid, cost, float(token_value), target, cost, 0, pay)
    sources = [f"{pay[-1]} from the supply"] if pay[-1] else []
    sources += [f"{pay[i]} from animal {i + 1}" for i in range(len(rows)) if pay[i]]
    affordable = (supply + int(tok.sum())) // cost
    return {"reroll": bool(v > 0.0), "value_of_rerolling": v, "p_explore": p_ok,
            "expected_tokens_lost": lost, "rerolls_affordable": affordable,
            "pay": ", ".join(sources) or "-", "by_rerolls": rerolls_table(target, affordable,
                                                                         paid, cost)}


def rerolls_table(target: int, rerolls: int, paid: int = 0, cost: int = 2) -> pd.DataFrame:
    """P(explored) after each further re-roll k = 1..`rerolls`: each re-roll is one more die,
    so 1 - (1 - p)^k with p = P(one die >= target); the re-roll tokens on the habitat if the
    k-th re-roll is the one that succeeds (they are lost then, returned on a final failure)."""
    q = 1.0 - face_success(target)
    k = np.arange(1, rerolls + 1)
    return pd.DataFrame({"further_rerolls": k, "p_explored": 1.0 - q**k,
                         "p_success_on_this_reroll": q ** (k - 1) * (1.0 - q),
                         "tokens_lost_if_it_succeeds": paid + k * cost})


def research_advice(data: dict, source: str = "situation", free_slots: int | None = None,
                    components=None):
    """Draw one more card or stop? Exact one-step lookahead over every unseen card; once the
    deck has run out (no card is unseen), over the discard pile, which the rules shuffle into
    a new deck for the draw.

    Stopping is worth the best preparation now. Drawing: a placeable card earns a token and
    joins the table (best preparation re-computed); a card that would spook is reserved if a
    slot is free, else the turn ends with the experience tokens only.
    """
    game = situation_game(data, source, components=components)
    st, comp = game.state, game.config.components
    lam = float(data.get("token_value", P.DEFAULT_PARAMS["greedy"][P.P_TOKEN_VALUE]))
    seen = {comp.card_index(n) for n in data.get("seen", [])}
    slots = game.config.reserve_limit - int(st[E.N_RESERVED]) if free_slots is None \
        else free_slots
    now = advise(data, source, top=1, components=components).table.value.iloc[0]
    unseen = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_DECK and c not in seen
              and (c != E.RACCOON or game.config.raccoon)]
    reshuffled = not unseen
    if reshuffled:
        unseen = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_DISCARD]
    if not unseen:
        raise InputError(f"{source}: no card is left to draw: every card is seen and the "
                         "discard pile is empty (list it under discards: drawing from an "
                         "empty deck reshuffles it)")
    tops = [E.habitat_top(st, game._comp, h) for h in range(E.N_HAB)]
    rows = []
    for c in unseen:
        card = comp.cards[c]
        habs = [h for h in range(E.N_HAB) if (card.habitat in (h, -1))
                and card.difficulty > tops[h]]
        if habs:
            best = -1e18
            left = [n for n in data.get("discards", []) if comp.card_index(n) != c]
            for h in habs:
                table = {k: list(v) for k, v in data.get("table", {}).items()}
                name = comp.habitats[h].name
                key = next((k for k in table if comp.habitat_index(k) == h), name)
                table.setdefault(key, []).append(card.name)
                best = max(best, advise({**data, "table": table, "discards": left}, source,
                                        top=1, components=components).table.value.iloc[0])
            rows.append({"card": card.name, "outcome": "placed", "value": best + lam})
        elif slots > 0:
            rows.append({"card": card.name, "outcome": "reserved", "value": now})
        else:
            rows.append({"card": card.name, "outcome": "spook",
                         "value": lam * game.config.experience_tokens})
    df = pd.DataFrame(rows)
    draw = float(df.value.mean())
    return {"unseen_cards": len(df), "reshuffled": reshuffled,
            "p_spook_next": float((df.outcome == "spook").mean()),
            "p_reserved_next": float((df.outcome == "reserved").mean()),
            "p_cannot_place": float((df.outcome != "placed").mean()),
            "value_stop": float(now), "value_draw": draw, "draw": bool(draw > now),
            "cards": df.sort_values("value", ascending=False).reset_index(drop=True)}
