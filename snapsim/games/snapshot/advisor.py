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
from numba import njit

from ...errors import InputError
from ...odds.explore import face_success
from ...sim.checks import number, whole
from . import engine as E
from . import policies as P

TOP = 10  # allocations kept


@njit(cache=True)
def explore_with_budget(explore_dice, targets, budget0, max_budget):
    """P(explore succeeds) per habitat and E[re-rolls paid], re-rolls drawn from one shared
    budget in habitat order (a final failure refunds, so only successes spend)."""
    n_hab = explore_dice.shape[0]
    dist = np.zeros(max_budget + 1)
    dist[budget0] = 1.0
    p_ok = np.zeros(n_hab)
    paid = 0.0
    for h in range(n_hab):
        e = explore_dice[h]
        if e == 0:
            continue
        p = face_success(targets[h])
        q = 1.0 - p
        new = np.zeros(max_budget + 1)
        for b in range(max_budget + 1):
            m = dist[b]
            if m == 0.0:
                continue
            first = 1.0 - q**e
            p_ok[h] += m * first
            new[b] += m * first
            reach = q**e
            for k in range(1, b + 1):  # success on the k-th re-roll spends k
                ok = reach * p
                p_ok[h] += m * ok
                new[b - k] += m * ok
                paid += m * ok * k
                reach *= q
            new[b] += m * reach  # final failure: every re-roll token comes back
        dist = new
    return p_ok, paid


@njit(cache=True)
def token_knapsack(gain, n, limit):
    """best[t] = max sum of gain[i, t_i] with sum t_i <= t; choice[i, t] for reconstruction."""
    width = gain.shape[1]
    best = np.zeros((n + 1, limit + 1))
    choice = np.zeros((n + 1, limit + 1), np.int64)
    for i in range(n):
        for t in range(limit + 1):
            best[i + 1, t] = -1e18
            for k in range(min(t, width - 1) + 1):
                v = best[i, t - k] + gain[i, k]
                if v > best[i + 1, t]:
                    best[i + 1, t] = v
                    choice[i + 1, t] = k
    return best, choice


@njit(cache=True)
def evaluate(ptab, hab, diff, val, dice_on, hab_dice, targets, tokens, cost, lam, tok_out):
    """Best token placement for one dice allocation; returns (expected value, re-roll cap)
    and writes the tokens per card into tok_out."""
    n = hab.shape[0]
    idx = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if dice_on[i] > 0:
            idx[m] = i
            m += 1
    best_total = -1e18
    best_cap = 0
    tcap = min(tokens, P.MAX_T)
    for placed in range(tokens + 1):
        budget = (tokens - placed) // cost
        p_ok, paid = explore_with_budget(hab_dice, targets, budget, tokens // cost)
        limit = min(placed, tcap * max(m, 1))
        gain = np.zeros((max(m, 1), tcap + 1))
        for j in range(m):
            i = idx[j]
            for t in range(tcap + 1):
                s = P.photo_p(ptab, dice_on[i], t, diff[i])
                gain[j, t] = p_ok[hab[i]] * s * (val[i] - lam * t)
        best, choice = token_knapsack(gain, m, limit)
        total = best[m, limit] - lam * paid * cost
        if total > best_total + 1e-12:
            best_total = total
            best_cap = budget
            t = limit
            for j in range(m, 0, -1):
                k = choice[j, t]
                tok_out[idx[j - 1]] = k
                t -= k
            for i in range(n):
                if dice_on[i] == 0:
                    tok_out[i] = 0
    return best_total, best_cap


@njit(cache=True)
def search(ptab, hab, diff, val, mandatory, targets, dice, tokens, cost, lam, top):
    """Every allocation of `dice` (habitat dice, then animal dice in habitats that have one);
    keeps the `top` best as rows (value, habitat dice, card dice, card tokens, re-roll cap)."""
    n = hab.shape[0]
    n_hab = targets.shape[0]
    width = 2 + n_hab + 2 * n
    kept = np.full((top, width), -1e18)
    count = 0
    hd = np.zeros(n_hab, np.int64)
    has = np.zeros(n_hab, np.int64)
    for i in range(n):
        has[hab[i]] = 1
    tok = np.zeros(n, np.int64)
    dice_on = np.zeros(n, np.int64)
    # odometer over habitat dice (only habitats holding a candidate card)
    while True:
        used = hd.sum()
        ok = used <= dice
        for i in range(n):
            if mandatory[i] and hd[hab[i]] == 0:
                ok = False
        if ok:
            rem = dice - used
            elig = np.zeros(n, np.int64)
            for i in range(n):
                elig[i] = 1 if hd[hab[i]] > 0 else 0
            dice_on[:] = 0
            for i in range(n):
                if mandatory[i]:
                    dice_on[i] = 1
            # odometer over animal dice
            while True:
                if dice_on.sum() <= rem:
                    v, cap = evaluate(ptab, hab, diff, val, dice_on, hd, targets, tokens, cost,
                                      lam, tok)
                    count += 1
                    worst = 0
                    for r in range(1, top):
                        if kept[r, 0] < kept[worst, 0]:
                            worst = r
                    if v > kept[worst, 0] + 1e-12:
                        kept[worst, 0] = v
                        kept[worst, 1:1 + n_hab] = hd
                        kept[worst, 1 + n_hab:1 + n_hab + n] = dice_on
                        kept[worst, 1 + n_hab + n:1 + n_hab + 2 * n] = tok
                        kept[worst, 1 + n_hab + 2 * n] = cap
                # next animal allocation
                k = 0
                while k < n:
                    if elig[k] and dice_on[k] < rem:
                        dice_on[k] += 1
                        if dice_on.sum() <= rem:
                            break
                    dice_on[k] = 1 if mandatory[k] else 0
                    k += 1
                if k == n:
                    break
        # next habitat allocation
        h = 0
        while h < n_hab:
            if has[h] and hd[h] < dice:
                hd[h] += 1
                if hd.sum() <= dice:
                    break
            hd[h] = 0
            h += 1
        if h == n_hab:
            break
    return kept, count


MAX_REROLL_STATES = 200_000  # beyond this, card tokens are not offered as re-roll sources


@njit(cache=True)
def reroll_search(ptab, dice, diff, val, tok, stake, supply, pot, cost, lam, target, need,
                  floor, pay):
    """After a failed explore roll: the best way on, exact over every payment of every re-roll.

    The habitat's animals with dice are given by (dice, diff, val, tok), in card order; tokens
    may be taken off them (lowering their totals) and from the supply, any combination per
    re-roll. Value relative to giving up now (which returns every token): on success the pot
    is lost and each animal is worth P(photo) x (val - lam x its tokens), plus `stake` for
    animals without tokens to take. `need` tokens are still owed for the re-roll being paid
    (cost: none begun, giving up allowed), from sources numbered from `floor` (cards 0..m-1,
    then the supply m). Returns (value, P(explore), E[re-roll tokens lost]) and writes the
    best payment now into pay[0..m] (all zero: give up). States: supply x tokens on each
    card; if there are more than MAX_REROLL_STATES, card tokens stay where they are.
    """
    m = dice.shape[0]
    dims = np.empty(m + 1, np.int64)
    dims[m] = supply + 1
    n_states = supply + 1
    for i in range(m):
        dims[i] = tok[i] + 1
        n_states *= tok[i] + 1
    fixed = np.zeros(m, np.int64)  # tokens that stay on their card
    if n_states > MAX_REROLL_STATES:
        for i in range(m):
            fixed[i] = tok[i]
            dims[i] = 1
        n_states = supply + 1
    stride = np.empty(m + 1, np.int64)
    k = 1
    for j in range(m + 1):
        stride[j] = k
        k *= dims[j]
    p = face_success(target)
    q = 1.0 - p
    value = np.zeros(n_states)
    p_ok = np.zeros(n_states)
    lost = np.zeros(n_states)
    have = np.empty(m + 1, np.int64)
    x = np.zeros(m + 1, np.int64)
    total0 = supply
    for i in range(m):
        total0 += dims[i] - 1
    pay[:] = 0
    root = n_states - 1
    # a payment takes tokens away, so it leads to a smaller index: increasing order works
    for idx in range(n_states):
        r = idx
        left = 0
        for j in range(m + 1):
            have[j] = r % dims[j]
            r //= dims[j]
            left += have[j]
        at_root = idx == root
        owe = need if at_root else cost
        lo = floor if at_root else 0
        pot2 = pot + (total0 - left) + owe
        best, best_p, best_l = P.NEG, 0.0, 0.0
        if owe == cost:
            best = 0.0  # give up
        x[:] = 0
        while True:  # odometer over payments x (x[j] <= have[j], only sources >= lo)
            s = 0
            for j in range(m + 1):
                s += x[j]
            if s == owe:
                child = idx
                succ = stake - lam * pot2
                for j in range(m + 1):
                    child -= x[j] * stride[j]
                for i in range(m):
                    t = fixed[i] + have[i] - x[i]
                    succ += P.photo_p(ptab, dice[i], t, diff[i]) * (val[i] - lam * t)
                v = p * succ + q * value[child]
                if v > best + 1e-12:
                    best = v
                    best_p = p + q * p_ok[child]
                    best_l = p * pot2 + q * lost[child]
                    if at_root:
                        pay[:] = x
            j = lo
            while j <= m:
                if x[j] < have[j] and s < owe:
                    x[j] += 1
                    break
                s -= x[j]
                x[j] = 0
                j += 1
            if j > m:
                break
        value[idx] = best
        p_ok[idx] = best_p
        lost[idx] = best_l
    return value[root], p_ok[root], lost[root]


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
                  "assignment", "token_value", "dice", "reroll_cost", "seen"}
NAME_LISTS = ("sideways", "reserved", "portfolio", "seen")
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


def situation_game(data: dict, source: str = "situation", config=None, seed: int = 0,
                   game: int = 0, components=None):
    """A SnapshotGame positioned at the start of Preparation from a situation description.

    Keys: table = {Habitat = [animals]}, tokens, sideways = [animals placed sideways],
    reserved = [my reserved animals], portfolio = [my photographs], assignment = name,
    players, dice, reroll_cost, token_value. Impossible situations raise one-line errors.
    """
    from .api import SnapshotGame
    from .config import SnapshotConfig

    if not isinstance(data, dict):
        raise InputError(f"{source}: a situation is a table of keys "
                         f"({', '.join(sorted(SITUATION_KEYS))}), not {type(data).__name__}")
    unknown = sorted(set(data) - SITUATION_KEYS)
    if unknown:
        raise InputError(f"{source}: unknown key {unknown[0]!r}; keys are "
                         f"{', '.join(sorted(SITUATION_KEYS))}")
    check_situation(data, source)
    knobs = {k: data[k] for k in ("players", "dice", "reroll_cost") if k in data}
    if components is not None:  # "standard", a component file path or a loaded set
        knobs["components"] = components
    if "assignment" not in data:  # no assignment given: photographs earn no assignment bonus
        knobs["assignments"] = False
    config = config or SnapshotConfig.from_knobs(**knobs)
    comp = config.components
    game = SnapshotGame(config, seed=seed, game=game)
    st = game.state
    seen: dict[int, str] = {}

    def card(name, where):
        c = comp.card_index(name)
        if c in seen:
            raise InputError(f"{source}: {name!r} is both in {seen[c]} and in {where}")
        seen[c] = where
        return c

    tokens = data.get("tokens", 0)
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
    if "assignment" in data:
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
    st[E.CUR] = 0
    st[E.TOKENS] = tokens
    st[E.PHASE] = E.PH_PREP_DICE
    st[E.DICE_LEFT] = config.dice
    st[E.PHOTOS_TURN] = 0
    return game


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
        n_hab = E.N_HAB
        for row in kept:
            if row[0] <= -1e17:
                continue
            dice_on = row[1 + n_hab:1 + n_hab + len(cards)].astype(int)
            tok = row[1 + n_hab + len(cards):1 + n_hab + 2 * len(cards)].astype(int)
            hd = row[1:1 + n_hab].astype(int)
            parts = [f"{names.habitats[h].name}:{hd[h]}" for h in range(n_hab) if hd[h]]
            anim = [f"{names.cards[c].name} {dice_on[i]}d+{tok[i]}t"
                    for i, c in enumerate(cards) if dice_on[i]]
            rows.append({"value": row[0], "place_reserved": ", ".join(
                names.cards[c].name for c in placed) or "-",
                "explore_dice": " ".join(parts) or "-", "animals": "; ".join(anim) or "-",
                "tokens_on_cards": int(tok.sum()), "reroll_cap": int(row[-1]),
                "dice_used": int(hd.sum() + dice_on.sum()),
                "plan": {"habitat_dice": hd.tolist(), "cards": [int(c) for c in cards],
                         "dice": dice_on.tolist(), "tokens": tok.tolist(),
                         "place_reserved": [int(c) for c in placed]}})
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
    return {"reroll": v > 0.0, "value_of_rerolling": v, "p_explore": p_ok,
            "expected_tokens_lost": lost,
            "rerolls_affordable": (supply + int(tok.sum())) // cost,
            "pay": ", ".join(sources) or "-"}


def research_advice(data: dict, source: str = "situation", free_slots: int | None = None,
                    components=None):
    """Draw one more card or stop? Exact one-step lookahead over every unseen card.

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
    if not unseen:
        raise InputError(f"{source}: no unseen cards are left to draw")
    tops = [E.habitat_top(st, game._comp, h) for h in range(E.N_HAB)]
    rows = []
    for c in unseen:
        card = comp.cards[c]
        habs = [h for h in range(E.N_HAB) if (card.habitat in (h, -1))
                and card.difficulty > tops[h]]
        if habs:
            best = -1e18
            for h in habs:
                table = {k: list(v) for k, v in data.get("table", {}).items()}
                name = comp.habitats[h].name
                key = next((k for k in table if comp.habitat_index(k) == h), name)
                table.setdefault(key, []).append(card.name)
                best = max(best, advise({**data, "table": table}, source,
                                        top=1).table.value.iloc[0])
            rows.append({"card": card.name, "outcome": "placed", "value": best + lam})
        elif slots > 0:
            rows.append({"card": card.name, "outcome": "reserved", "value": now})
        else:
            rows.append({"card": card.name, "outcome": "spook",
                         "value": lam * game.config.experience_tokens})
    df = pd.DataFrame(rows)
    draw = float(df.value.mean())
    return {"p_spook_next": float((df.outcome == "spook").mean()),
            "p_cannot_place": float((df.outcome != "placed").mean()),
            "value_stop": float(now), "value_draw": draw, "draw": draw > now,
            "cards": df.sort_values("value", ascending=False).reset_index(drop=True)}
