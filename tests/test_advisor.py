"""The exact preparation advisor against an independent brute force, and its inputs."""

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from snapsim.errors import InputError
from snapsim.games.snapshot.advisor import advise, search
from snapsim.games.snapshot.config import photo_table

FACES = range(1, 7)


@cache
def p_sum_at_least(dice, need):
    if dice == 0:
        return 0.0
    rolls = list(itertools.product(FACES, repeat=dice))
    return sum(sum(r) >= need for r in rolls) / len(rolls)


def explore_outcomes(e, target, budget):
    """[(probability, re-rolls spent, success)] by rolling the faces, re-rolling one die at a
    time while the budget lasts (spent only on success)."""
    out = []
    for faces in itertools.product(FACES, repeat=e):
        p0 = 6.0**-e
        if max(faces) >= target:
            out.append((p0, 0, True))
            continue
        stack = [(p0, 0)]
        while stack:
            p, k = stack.pop()
            if k == budget:
                out.append((p, 0, False))
                continue
            for f in FACES:
                if f >= target:
                    out.append((p / 6, k + 1, True))
                else:
                    stack.append((p / 6, k + 1))
    return out


def brute_value(hab_dice, animals, targets, tokens, cost, lam, cap):
    """EV of one full allocation: animals = [(habitat, difficulty, value, dice, tokens)],
    re-rolls paid from the tokens left, at most `cap` of them, habitats in order."""
    left = tokens - sum(a[4] for a in animals)
    budget = min(left // cost, cap)

    def go(h, b):
        if h == len(targets):
            return 0.0
        if hab_dice[h] == 0:
            return go(h + 1, b)
        total = 0.0
        for p, spent, ok in explore_outcomes(hab_dice[h], targets[h], b):
            v = -lam * spent * cost
            if ok:
                for hh, d, val, dice, t in animals:
                    if hh == h and dice:
                        s = p_sum_at_least(dice, d - t)
                        v += s * (val - lam * t)
            total += p * (v + go(h + 1, b - spent))
        return total

    return go(0, budget)


def brute_best(hab, diff, val, mandatory, targets, dice, tokens, cost, lam):
    n, best = len(hab), -1e18
    for hd in itertools.product(range(dice + 1), repeat=len(targets)):
        if sum(hd) > dice or any(hd[h] and h not in hab for h in range(len(targets))):
            continue
        for ad in itertools.product(range(dice + 1), repeat=n):
            if sum(hd) + sum(ad) > dice:
                continue
            if any((ad[i] and not hd[hab[i]]) or (mandatory[i] and not ad[i]) for i in range(n)):
                continue
            for tk in itertools.product(range(tokens + 1), repeat=n):
                if sum(tk) > tokens or any(tk[i] and not ad[i] for i in range(n)):
                    continue
                animals = [(hab[i], diff[i], val[i], ad[i], tk[i]) for i in range(n)]
                for cap in range(tokens // cost + 1):
                    best = max(best, brute_value(hd, animals, targets, tokens, cost, lam, cap))
    return best


CASES = [
    # hab, diff, val, mandatory, targets, dice, tokens, cost, lam
    ([0, 0], [5, 8], [2.0, 4.0], [False, False], [2, 4], 4, 2, 2, 0.4),
    ([0, 1], [4, 7], [1.0, 5.0], [False, True], [3, 5], 4, 3, 2, 0.3),
    ([1, 1, 0], [3, 9, 6], [1.0, 6.0, 2.5], [False, False, False], [2, 4], 4, 2, 1, 0.5),
    ([0], [10], [9.0], [False], [5], 4, 4, 2, 0.2),
    ([0, 1], [6, 6], [3.0, 3.0], [False, False], [4, 4], 3, 4, 3, 1.5),
]


@pytest.mark.parametrize("case", CASES)
def test_search_optimum_equals_brute_force(case):
    hab, diff, val, mand, targets, dice, tokens, cost, lam = case
    kept, count = search(photo_table(), np.array(hab), np.array(diff), np.array(val),
                         np.array(mand), np.array(targets), dice, tokens, cost, lam, 5)
    want = brute_best(hab, diff, val, mand, targets, dice, tokens, cost, lam)
    assert kept[:, 0].max() == pytest.approx(want, abs=1e-9)
    assert count > 0


def test_situation_ranking_and_speed_shape():
    sit = {"tokens": 4, "table": {"Shoreline": ["sea otter", "walrus"], "Savannah": ["meerkat"],
                                  "Rainforest": ["jaguar"]}, "reserved": ["golden eagle"]}
    a = advise(sit)
    assert len(a.table) == 10 and a.table.value.is_monotonic_decreasing
    assert (a.table.dice_used <= 6).all()
    # placing the reserved card is searched too (it must then get dice)
    placed = a.table[a.table.place_reserved == "golden eagle"]
    assert len(placed) and placed.animals.str.contains("golden eagle").all()


def count_rolls(dice: int, hit) -> Fraction:
    """P(hit(faces)) over every roll of `dice` d6, as an exact fraction."""
    rolls = list(itertools.product(FACES, repeat=dice))
    return Fraction(sum(1 for r in rolls if hit(r)), len(rolls))


def enumerate_allocation(row, comp):
    """P(explore), P(any photograph) per habitat and P(photograph) per animal of one advised
    allocation without re-rolls, over every joint roll of all its dice, as exact fractions."""
    habs = {h["habitat"]: h["dice"] for h in row.habitat_odds}
    animals = row.animal_odds
    dice = [*habs.values(), *(a["dice"] for a in animals)]
    target = {h.name: h.explore for h in comp.habitats}
    card = {a.name: a for a in comp.cards}
    hab_of = {a["animal"]: comp.habitats[card[a["animal"]].habitat].name for a in animals}
    explored, any_photo = dict.fromkeys(habs, 0), dict.fromkeys(habs, 0)
    photo = {a["animal"]: 0 for a in animals}
    rolls = itertools.product(FACES, repeat=sum(dice))
    for faces in rolls:
        cut = np.cumsum([0, *dice])
        parts = [faces[cut[i]:cut[i + 1]] for i in range(len(dice))]
        ok = {h: max(parts[i]) >= target[h] for i, h in enumerate(habs)}
        shot = set()
        for a, f in zip(animals, parts[len(habs):], strict=True):
            if ok[hab_of[a["animal"]]] and sum(f) + a["tokens"] >= card[a["animal"]].difficulty:
                photo[a["animal"]] += 1
                shot.add(hab_of[a["animal"]])
        for h in habs:
            explored[h] += ok[h]
            any_photo[h] += h in shot
    n = 6 ** sum(dice)
    return ({h: Fraction(v, n) for h, v in explored.items()},
            {h: Fraction(v, n) for h, v in any_photo.items()},
            {a: Fraction(v, n) for a, v in photo.items()})


def test_prep_odds_equal_every_roll_of_the_dice():
    """Phase 3 (Explore, Photograph): each shown P(explore), P(any photograph) and
    P(photograph), and the tokens lost, against every joint roll of the allocation's dice
    (re-rolls cost more than the supply, so none are bought); value = expected prestige -
    token_value x expected tokens lost."""
    from snapsim.games.snapshot.components import load_components

    sit = {"tokens": 3, "reroll_cost": 100, "token_value": 0.4,
           "table": {"Shoreline": ["sea otter", "walrus"], "Mountain": ["pika"]}}
    table = advise(sit, top=4).table
    assert (table.reroll_cap == 0).all() and table.tokens_on_cards.max() > 0
    for row in table.itertuples():
        explored, any_photo, photo = enumerate_allocation(row, load_components())
        for h in row.habitat_odds:
            assert h["p_explore"] == pytest.approx(float(explored[h["habitat"]]), abs=1e-12)
            assert h["p_any_photograph"] == pytest.approx(float(any_photo[h["habitat"]]),
                                                          abs=1e-12)
        for a in row.animal_odds:
            assert a["p_photograph"] == pytest.approx(float(photo[a["animal"]]), abs=1e-12)
        lost = sum(photo[a["animal"]] * a["tokens"] for a in row.animal_odds)
        assert row.expected_tokens_lost == pytest.approx(float(lost), abs=1e-12)
        assert row.value == pytest.approx(row.expected_prestige - 0.4 * row.expected_tokens_lost,
                                          abs=1e-12)


def test_prep_odds_with_rerolls_equal_the_rolled_out_rerolls():
    """Phase 3, Re-Rolls: with re-rolls in the plan, P(explore) and the re-roll tokens lost
    (only when the exploration succeeds) against rolling out every re-roll."""
    sit = {"tokens": 5, "token_value": 0.4, "table": {"Rainforest": ["jaguar"]}}
    table = advise(sit, top=5).table
    assert (table.reroll_cap > 0).any()
    for row in table.itertuples():
        (h,), (a,) = row.habitat_odds, row.animal_odds
        outcomes = explore_outcomes(h["dice"], 5, row.reroll_cap)
        p_explore = sum(p for p, _, ok in outcomes if ok)
        paid = sum(p * spent * 2 for p, spent, ok in outcomes if ok)
        p_photo = p_explore * p_sum_at_least(a["dice"], 8 - a["tokens"])
        assert h["p_explore"] == pytest.approx(p_explore, abs=1e-12)
        assert a["p_photograph"] == pytest.approx(p_photo, abs=1e-12)
        assert row.expected_tokens_lost == pytest.approx(paid + p_photo * a["tokens"],
                                                         abs=1e-12)


@pytest.mark.parametrize("sit,msg", [
    ({"table": {"Shoreline": ["meerkat"]}}, "lives in Savannah"),
    ({"table": {"Shoreline": ["sea otter"]}, "portfolio": ["sea otter"]}, "both in"),
    ({"tokens": -1}, "tokens must be"),
    ({"dice": 7}, "dice must be"),
    ({"reserved": ["pika", "walrus", "jaguar"]}, "the limit is 2"),
    ({"table": {"Moon": []}}, "unknown habitat"),
    ({"tokens": 2, "bogus": 1}, "unknown key"),
    ({"sideways": ["pika"]}, "must also be on the table"),
])
def test_impossible_situations_are_one_line_errors(sit, msg):
    with pytest.raises(InputError, match=msg) as exc:
        advise(sit)
    assert "\n" not in str(exc.value)


def play_plan(sit, plan, seed, game):
    """Carry out an advised preparation in the engine and return the realised value."""
    from snapsim.games.snapshot import engine as E
    from snapsim.games.snapshot import policies as P
    from snapsim.games.snapshot.advisor import situation_game

    g = situation_game(sit, seed=seed, game=game)
    st, cfg, comp = g.state, g._cfg, g._comp
    params = np.array(P.DEFAULT_PARAMS["greedy"])
    cards = plan["cards"]
    val = {c: P.card_value(st, cfg, comp, params, 0, c) for c in cards}
    want_dice = dict(zip(cards, plan["dice"], strict=True))
    want_tok = dict(zip(cards, plan["tokens"], strict=True))
    cap, rerolls = plan["cap"], 0
    while int(st[E.CUR]) == 0 and not g.is_over() and int(st[E.PHASE]) != E.PH_RESEARCH:
        ph = int(st[E.PHASE])
        if ph == E.PH_PREP_DICE:
            short = [h for h in range(E.N_HAB) if st[E.HAB_DICE + h] < plan["habitat_dice"][h]]
            cards_short = [c for c in cards if st[E.DICE_ON + c] < want_dice[c]]
            code = (E.A_DIE_HABITAT * 64 + short[0] if short else
                    E.A_DIE_ANIMAL * 64 + cards_short[0] if cards_short else E.A_DICE_DONE * 64)
        elif ph == E.PH_PREP_TOKENS:
            short = [c for c in cards if st[E.TOK_ON + c] < want_tok[c]]
            code = E.A_TOKEN * 64 + short[0] if short else E.A_TOKENS_DONE * 64
        elif ph == E.PH_RESOLVE:
            code = min(a.code for a in g.legal_actions())  # habitat order
        else:  # re-roll from the supply while the plan's cap allows
            if rerolls < cap and st[E.TOKENS] >= cfg[E.C_REROLL_COST]:
                code, rerolls = E.A_REROLL * 64 + E.SUPPLY, rerolls + 1
            else:
                code = E.A_GIVE_UP * 64
        g.apply(code)
    got = sum(v for c, v in val.items() if st[E.LOC + c] == E.L_PORTFOLIO)
    lost = int(st[E.ST_TOK_PHOTO]) + int(st[E.ST_TOK_REROLL])
    return got - 0.4 * lost


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_advised_value_equals_the_simulated_average():
    """The top allocation's exact value against its mean over 3,000 seeded plays in the
    engine: |mean - value| < 4 standard errors (a false alarm about once in 16,000)."""
    sit = {"tokens": 4, "players": 2, "table": {"Shoreline": ["sea otter", "walrus"],
                                                "Rainforest": ["jaguar"]}}
    top = advise(sit).table.iloc[0]
    plan = {**top.plan, "cap": int(top.reroll_cap)}
    values = np.array([play_plan(sit, plan, seed=5, game=i) for i in range(3000)])
    se = values.std(ddof=1) / np.sqrt(len(values))
    assert abs(values.mean() - top.value) < 4 * se, (values.mean(), top.value, se)


@pytest.mark.parametrize("stake,target,supply,paid,cost,lam", [
    (3.0, 4, 5, 0, 2, 0.4), (0.5, 5, 6, 0, 2, 0.4), (6.0, 6, 9, 2, 3, 0.5),
    (2.0, 2, 1, 0, 2, 0.4), (1.2, 3, 8, 4, 1, 0.3)])
def test_reroll_advice_equals_the_best_fixed_number_of_rerolls(stake, target, supply, paid,
                                                               cost, lam):
    """With a fixed stake, the best plan is "re-roll up to k times"; enumerate every k."""
    from snapsim.games.snapshot.advisor import reroll_advice

    p = (7 - target) / 6
    best = 0.0
    for k in range(supply // cost + 1):
        v = sum((1 - p) ** (j - 1) * p * (stake - lam * (paid + j * cost))
                for j in range(1, k + 1))
        best = max(best, v)
    out = reroll_advice(stake, target, supply, paid, cost, lam)
    assert out["value_of_rerolling"] == pytest.approx(best, abs=1e-12)
    assert out["reroll"] == (best > 0)


@pytest.mark.parametrize("target,supply,paid,cost,animals", [
    (4, 5, 0, 2, []), (6, 9, 2, 3, []), (2, 1, 0, 2, []), (5, 1, 0, 2, [(1, 2, 3.0, 1)]),
    (3, 4, 4, 1, [(2, 7, 4.0, 2)])])
def test_reroll_advice_shows_p_explored_after_each_further_reroll(target, supply, paid, cost,
                                                                  animals):
    """Phase 3, Re-Rolls: after a failed roll each re-roll rolls one die; P(explored) after
    k further re-rolls and P(the k-th is the first success), against every roll of k dice,
    for k = 1 up to the re-rolls the supply and the animals' tokens can pay for."""
    from snapsim.games.snapshot.advisor import reroll_advice

    rows = reroll_advice(1.0, target, supply, paid, cost, 0.4, animals)["by_rerolls"]
    budget = (supply + sum(a[3] for a in animals)) // cost
    assert rows.further_rerolls.tolist() == list(range(1, budget + 1))
    for r in rows.itertuples():
        k = r.further_rerolls
        explored = count_rolls(k, lambda f: max(f) >= target)
        first = count_rolls(k, lambda f: max(f) >= target and max(f[:-1], default=0) < target)
        assert r.p_explored == pytest.approx(float(explored), abs=1e-15)
        assert r.p_success_on_this_reroll == pytest.approx(float(first), abs=1e-15)
        assert r.tokens_lost_if_it_succeeds == paid + k * cost


def brute_reroll(animals, stake, target, supply, pot, cost, lam):
    """max(give up, re-roll) by plain recursion over every payment (supply and card tokens)."""
    p = (7 - target) / 6

    @cache
    def value(supply, toks, pot):
        best = 0.0
        srcs = [supply, *toks]
        for pay in itertools.product(*(range(min(s, cost) + 1) for s in srcs)):
            if sum(pay) != cost:
                continue
            left = tuple(t - x for t, x in zip(toks, pay[1:], strict=True))
            win = stake - lam * (pot + cost) + sum(
                p_sum_at_least(d, diff - t) * (v - lam * t)
                for (d, diff, v, _), t in zip(animals, left, strict=True))
            best = max(best, p * win + (1 - p) * value(supply - pay[0], left, pot + cost))
        return best

    return value(supply, tuple(a[3] for a in animals), pot)


@pytest.mark.parametrize("animals,stake,target,supply,paid,cost,lam", [
    ([(2, 7, 4.0, 2)], 0.0, 5, 0, 0, 2, 0.4),
    ([(1, 2, 2.0, 1), (2, 8, 5.0, 3)], 0.5, 4, 1, 2, 2, 0.4),
    ([(1, 5, 3.0, 2), (1, 3, 1.0, 1)], 0.0, 6, 3, 0, 2, 0.8),
    ([(2, 9, 6.0, 4)], 1.0, 3, 2, 0, 3, 0.3),
])
def test_reroll_advice_is_exact_over_card_payments(animals, stake, target, supply, paid, cost,
                                                   lam):
    """Phase 3, Re-Rolls: the advice may take tokens off the animals (lowering their totals);
    its value equals a brute force over every payment of every re-roll."""
    from snapsim.games.snapshot.advisor import reroll_advice

    out = reroll_advice(stake, target, supply, paid, cost, lam, animals)
    want = brute_reroll(animals, stake, target, supply, paid, cost, lam)
    assert out["value_of_rerolling"] == pytest.approx(want, abs=1e-12)
    assert out["reroll"] == (want > 1e-12)


def test_reroll_advice_pays_with_card_tokens_when_the_supply_is_empty():
    """One spare token on each of two animals, none in the supply: the re-roll is paid with
    both cards' tokens (the supply-only model would give up)."""
    from snapsim.games.snapshot.advisor import reroll_advice

    # animals: a 2-difficulty frog with 1 die and 1 token (the token is nearly spare), a
    # 5-difficulty animal with 2 dice and 1 token
    out = reroll_advice(0.0, 5, 0, 0, 2, 0.4, [(1, 2, 3.0, 1), (2, 5, 4.0, 1)])
    assert out["reroll"] and out["pay"] == "1 from animal 1, 1 from animal 2"
    assert out["rerolls_affordable"] == 1
    assert out["p_explore"] == pytest.approx(1 / 3)
    assert out["expected_tokens_lost"] == pytest.approx(2 / 3)
    frog, other = 5 / 6 * 3.0, (1 - 6 / 36) * 4.0  # P(photo) x value, no tokens left
    assert out["value_of_rerolling"] == pytest.approx((frog + other - 0.4 * 2) / 3)
    assert not reroll_advice(0.0, 5, 0, 0, 2, 0.4)["reroll"]  # nothing to pay with


def test_research_advice_is_the_mean_over_unseen_cards():
    from snapsim.games.snapshot.advisor import research_advice
    from snapsim.games.snapshot.components import load_components
    from snapsim.odds import research_odds

    sit = {"tokens": 3, "reserved": ["walrus", "jaguar"], "seen": ["pika"],
           "table": {"Shoreline": ["sea otter"], "Mountain": ["golden eagle"]}}
    out = research_advice(sit)
    cards = out["cards"]
    comp = load_components()
    gone = {"walrus", "jaguar", "pika", "sea otter", "golden eagle"}
    unseen = [a for a in comp.cards if a.name not in gone]
    assert len(cards) == len(unseen) and out["value_draw"] == pytest.approx(cards.value.mean())
    pairs = [(a.habitat, a.difficulty) for a in unseen if a.habitat >= 0]
    exact = research_odds([6, 0, 8, 0], pairs, raccoon=True)  # tops: otter 6, eagle 8
    assert out["p_cannot_place"] == pytest.approx(exact.next_draw, abs=1e-12)
    assert out["draw"] == (out["value_draw"] > out["value_stop"])
    # Phase 2 (Research): with both reserve slots full a card that fits no habitat spooks;
    # counted over the cards this seat has not seen (tops: otter 6, eagle 8, others empty)
    tops = {0: 6, 2: 8}
    spooks = [a for a in unseen if all(a.difficulty <= tops.get(h, 0) for h in range(4)
                                       if a.habitat in (h, -1))]
    assert out["unseen_cards"] == len(unseen) == 32
    assert out["p_spook_next"] == pytest.approx(float(Fraction(len(spooks), len(unseen))),
                                                abs=1e-12)
    assert out["p_reserved_next"] == 0.0 and len(spooks) == 9  # 4 Shoreline, 5 Mountain


def test_research_with_a_free_slot_reserves_what_would_spook():
    """Phase 2 (Research): a card that fits no habitat goes into a free reserve slot, so the
    next draw cannot spook; P(reserve) counts the unseen cards that fit nowhere."""
    from snapsim.games.snapshot.advisor import research_advice
    from snapsim.games.snapshot.components import load_components

    comp = load_components()
    keep = {"great white shark", "leopard", "snow leopard", "harpy eagle", "pika", "meerkat",
            "mudskipper"}
    seen = [a.name for a in comp.cards if a.name not in keep | {"walrus", "lion"}]
    sit = {"tokens": 2, "seen": seen, "table": {"Shoreline": ["walrus"], "Savannah": ["lion"]}}
    out = research_advice(sit)
    # walrus 8 tops the Shoreline, lion 9 the Savannah: mudskipper (2) and meerkat (3) fit
    # nowhere else; pika fits the empty Mountain; the four 10s fit their habitats
    assert out["unseen_cards"] == 7 and out["p_spook_next"] == 0.0
    assert out["p_reserved_next"] == pytest.approx(2 / 7, abs=1e-15)
    assert out["p_cannot_place"] == out["p_reserved_next"]
    reserved = out["cards"][out["cards"].outcome == "reserved"]
    assert sorted(reserved.card) == ["meerkat", "mudskipper"]
    assert (reserved.value == out["value_stop"]).all()
    assert out["value_draw"] == pytest.approx(out["cards"].value.mean(), abs=1e-12)


SITUATIONS = [
    {"tokens": 4, "table": {"Shoreline": ["sea otter", "walrus"], "Savannah": ["meerkat"],
                            "Rainforest": ["jaguar"]}},
    {"tokens": 0, "table": {"Mountain": ["golden eagle", "pika"], "Savannah": ["lion"]}},
    {"tokens": 7, "players": 3, "table": {"Rainforest": ["jaguar", "harpy eagle"],
                                          "Shoreline": ["walrus"]},
     "portfolio": ["meerkat", "pika"], "assignment": "The Long Lunch"},
    {"tokens": 2, "table": {"Savannah": ["lion"], "Mountain": ["golden eagle"]},
     "sideways": ["lion"], "token_value": 0.9},
]


@pytest.mark.parametrize("sit", SITUATIONS)
def test_exact_policy_never_disagrees_with_the_advisor(sit):
    """The `exact` policy's preparation is the advisor's top allocation, re-roll cap included."""
    from snapsim.games.snapshot import engine as E
    from snapsim.games.snapshot import policies as P
    from snapsim.games.snapshot.advisor import situation_game
    from snapsim.games.snapshot.api import make_policy
    from snapsim.sim.kernel import policy_arrays

    top = advise(sit).table.iloc[0]
    g = situation_game(sit)
    lam = sit.get("token_value", 0.4)
    pol = make_policy(f"exact:token_value={lam}")
    g._kinds, g._params = policy_arrays([pol])
    g._seats[:] = 0
    g.apply(g.policy_action())  # the first dice decision computes and stores the plan
    mem = g._memory  # the policies' memory holds the plan
    assert [int(mem[P.M_HAB + h]) for h in range(E.N_HAB)] == top.plan["habitat_dice"]
    assert [int(mem[P.M_DICE + c]) for c in top.plan["cards"]] == top.plan["dice"]
    assert [int(mem[P.M_TOK + c]) for c in top.plan["cards"]] == top.plan["tokens"]
    assert int(mem[P.M_CAP]) == top.reroll_cap
    assert pol.kind == P.EXACT


def test_exact_policy_plays_whole_games_legally_and_matches_the_batch():
    import snapsim
    from snapsim.games.snapshot import SnapshotConfig, SnapshotGame

    cfg = SnapshotConfig(players=2)
    for i in range(2):
        g = SnapshotGame(cfg, seed=4, game=i, policies=["exact", "greedy"])
        while not g.is_over():
            a = g.policy_action()
            assert a.code in {b.code for b in g.legal_actions()}
            g.apply(a)
        batch = snapsim.simulate("snapshot", players=2, policies=["exact", "greedy"], games=2,
                                 seed=4, threads=1)
        row = batch[batch.game == i].sort_values("seat")
        assert row.score.tolist() == g.scores().score.tolist()


def test_cli_advise_reroll_takes_animals(capsys):
    """`snapsim advise reroll --animal ...`: the same advice as the API; bad animals are one
    line, exit 2."""
    import io

    import pandas as pd

    from snapsim.cli import main
    from snapsim.games.snapshot.advisor import reroll_advice

    rc = main(["advise", "reroll", "--target", "5", "--tokens", "0", "--animal", "1,2,3,1",
               "--animal", "2,5,4,1", "--format", "csv"])
    out, _ = capsys.readouterr()
    assert rc in (0, None)
    row = pd.read_csv(io.StringIO(out)).iloc[0]
    want = reroll_advice(0.0, 5, 0, 0, 2, 0.4, [(1, 2, 3.0, 1), (2, 5, 4.0, 1)])
    assert bool(row.reroll) and row.pay == want["pay"]
    assert row.value_of_rerolling == pytest.approx(want["value_of_rerolling"], abs=1e-9)
    rc = main(["advise", "reroll", "--target", "5", "--tokens", "0", "--animal", "1,2"])
    _, err = capsys.readouterr()
    assert rc == 2 and "DICE,DIFFICULTY,VALUE,TOKENS" in err and err.count("\n") == 1


def test_advice_uses_the_given_components(tmp_path, capsys):
    """A designer's card values change the advice: a sea otter worth far more is chosen."""
    from snapsim.cli import main
    from snapsim.sim import component_files as C

    sit = {"tokens": 0, "table": {"Shoreline": ["sea otter"], "Rainforest": ["jaguar"]}}
    path = C.export("snapshot", tmp_path / "cards.toml")
    text = path.read_text()
    start = text.index('name = "sea otter"')
    line = text.index("prestige = ", start)
    end = text.index("\n", line)
    path.write_text(text[:line] + "prestige = 40" + text[end:])
    standard = advise(sit)
    mine = advise(sit, components=str(path))
    assert mine.table.value.iloc[0] > standard.table.value.iloc[0] + 10
    assert "sea otter" in mine.table.animals.iloc[0]
    (tmp_path / "sit.toml").write_text('tokens = 0\n[table]\nShoreline = ["sea otter"]\n')
    assert main(["advise", "prep", str(tmp_path / "sit.toml"), "--components", str(path),
                 "--format", "json", "--top", "1"]) == 0
    assert "sea otter" in capsys.readouterr().out


def test_cli_advise_shows_the_odds_in_every_format(tmp_path, capsys):
    """`advise prep` prints and writes, for each ranked allocation, P(explore) per habitat,
    P(photograph) per animal, expected prestige and expected tokens lost, the same numbers
    as the API; `advise reroll` P(explored) after each further re-roll; JSON names units."""
    import io
    import json

    import pandas as pd
    from cli_helpers import cli

    sit = {"tokens": 4, "table": {"Shoreline": ["sea otter", "walrus"], "Savannah": ["meerkat"]}}
    (tmp_path / "sit.json").write_text(json.dumps(sit))
    want = advise(sit, top=3).table
    rc, out, _ = cli(capsys, "advise", "prep", tmp_path / "sit.json", "--top", 3,
                     "--format", "json")
    got = json.loads(out)
    assert rc == 0 and got["units"]["expected_tokens_lost"] == "tokens"
    assert got["allocations_searched"] == advise(sit).searched
    for row, (_, w) in zip(got["rows"], want.iterrows(), strict=True):
        for key in ("value", "expected_prestige", "expected_tokens_lost"):
            assert row[key] == pytest.approx(w[key], abs=1e-12)
        for key in ("habitat_odds", "animal_odds"):
            assert len(row[key]) == len(w[key])
            for a, b in zip(row[key], w[key], strict=True):
                assert a == pytest.approx(b, abs=1e-12)
    rc, out, _ = cli(capsys, "advise", "prep", tmp_path / "sit.json", "--top", 3)
    header = out.splitlines()[1].split()
    assert {"expected_prestige", "expected_tokens_lost", "p_explore", "p_photograph"} <= \
        set(header)
    first = want.animal_odds[0][0]
    assert f"{first['animal']} {first['p_photograph']:.4f}" in out.splitlines()[2]
    rc, out, _ = cli(capsys, "advise", "prep", tmp_path / "sit.json", "--format", "csv")
    csv = pd.read_csv(io.StringIO(out))
    assert csv.p_photograph[0] == want.p_photograph[0] and len(csv) == 10
    rc, out, _ = cli(capsys, "advise", "reroll", "--target", 4, "--tokens", 6, "--format",
                     "json")
    got = json.loads(out)
    assert [r["p_explored"] for r in got["rows"]] == pytest.approx([1 / 2, 3 / 4, 7 / 8],
                                                                   abs=1e-15)
    assert got["units"]["p_*"] == "probability (0-1)"
