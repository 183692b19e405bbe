"""Exact odds kernels (snapsim.odds) against independent brute-force references.

Every `naive_*` function below is written from the rulebook, not from the kernels: dice are
enumerated face by face with itertools.product and exact Fractions, explore re-rolls are
rolled one die at a time, and the research phase is played card by card over every
permutation of a small deck. The kernels must match them to 1e-12. Sampled frequencies are
checked against the exact values with a stated binomial test.

All tests here are marked `kernel`: CI runs them again with NUMBA_DISABLE_JIT=1, so decks stay
small (<= 7 cards, the raccoon included). The full 37-card deck lives in test_cli_odds.py.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from snapsim.errors import InputError
from snapsim.odds import (
    explore_odds,
    explore_success,
    habitat_value,
    photo_success,
    photo_table,
    research_odds,
    spook_risk,
    sum_pmf,
    token_table,
    token_value,
    unseen_counts,
)

pytestmark = pytest.mark.kernel

FACES = range(1, 7)
TOL = 1e-12
RACCOON = "raccoon"
RACCOON_D = 6
N_HABITATS = 4


# ============================================================== naive references: dice


@functools.cache
def naive_sum_counts(n: int) -> Counter:
    """Number of the 6**n equally likely face tuples of n dice giving each total."""
    return Counter(sum(faces) for faces in itertools.product(FACES, repeat=n))


def naive_sum_pmf(n: int) -> list[Fraction]:
    counts = naive_sum_counts(n)
    return [Fraction(counts[s], 6**n) for s in range(6 * n + 1)]


def rule_photo_succeeds(total: int, tokens: int, difficulty: int) -> bool:
    """clause SN-PHO-8: dice total + tokens on the card >= the animal's difficulty."""
    return total + tokens >= difficulty


def rule_explore_succeeds(faces, target: int) -> bool:
    """clause SN-PHO-2: at least one die meets the explore value; dice are never summed."""
    return any(f >= target for f in faces)


@functools.cache
def naive_photo(dice: int, tokens: int, difficulty: int) -> Fraction:
    counts = naive_sum_counts(dice)
    hits = sum(c for total, c in counts.items() if rule_photo_succeeds(total, tokens, difficulty))
    return Fraction(hits, 6**dice)


def naive_explore_outcomes(dice: int, target: int, rerolls: int):
    """Yield (probability, succeeded, re-rolls bought) for every distinct sequence of rolls.

    Roll all the habitat's dice; while every die failed and the budget allows, buy a re-roll of
    a single die (clause SN-PHO-3) and look again. All dice failed, so which one is re-rolled
    does not matter; we always re-roll the first.
    """

    def go(faces, prob, bought):
        if rule_explore_succeeds(faces, target):
            yield prob, True, bought
            return
        if bought == rerolls:
            yield prob, False, bought
            return
        for f in FACES:
            yield from go((f, *faces[1:]), prob / 6, bought + 1)

    for faces in itertools.product(FACES, repeat=dice):
        yield from go(faces, Fraction(1, 6**dice), 0)


@functools.cache
def naive_explore_dist(dice: int, target: int, rerolls: int) -> dict:
    """{(succeeded, re-rolls bought): probability}."""
    dist: Counter = Counter()
    for prob, ok, bought in naive_explore_outcomes(dice, target, rerolls):
        dist[ok, bought] += prob
    return dict(dist)


def naive_explore(dice: int, target: int, rerolls: int, cost: int):
    """(P(success), E[tokens kept by the bank], E[re-rolls bought]) with Fractions."""
    success = paid = bought = Fraction(0)
    for (ok, k), prob in naive_explore_dist(dice, target, rerolls).items():
        bought += prob * k
        if ok:
            success += prob
            paid += prob * k * cost  # clause SN-PHO-6: the bank keeps the re-roll tokens
        # clause SN-PHO-7: on a final failure the re-roll tokens come back (nothing paid)
    return success, paid, bought


def naive_habitat(explore_dice, target, animals, rerolls, cost):
    """Enumerate every explore sequence and every face of every animal's dice.

    Returns (p_explore, p_photo list, photos_pmf list, expected tokens lost, expected re-roll
    tokens paid), all Fractions.
    """
    n = len(animals)
    # every joint outcome of all animals' dice, reduced to which animals succeed
    total_dice = sum(a[1] for a in animals)
    animal_outcomes: Counter = Counter()
    for faces in itertools.product(FACES, repeat=total_dice):
        pos, succ = 0, []
        for difficulty, dice, tokens in animals:
            succ.append(rule_photo_succeeds(sum(faces[pos:pos + dice]), tokens, difficulty))
            pos += dice
        animal_outcomes[tuple(succ)] += 1
    denom = 6**total_dice

    p_explore = lost = paid = Fraction(0)
    p_photo = [Fraction(0)] * n
    pmf = [Fraction(0)] * (n + 1)
    for prob, ok, bought in naive_explore_outcomes(explore_dice, target, rerolls):
        if not ok:
            # clause SN-PHO-7: every animal with dice is discarded, all tokens come back
            pmf[0] += prob
            continue
        p_explore += prob
        paid += prob * bought * cost  # clause SN-PHO-6
        for succ, count in animal_outcomes.items():
            p = prob * Fraction(count, denom)
            pmf[sum(succ)] += p
            for i, hit in enumerate(succ):
                if hit:
                    p_photo[i] += p
                    lost += p * animals[i][2]  # clause SN-PHO-9: tokens on the card go
    return p_explore, p_photo, pmf, lost + paid, paid


# ============================================================== naive reference: research


def naive_research_play(order, tops, free_slots, max_placed, max_risk, raccoon_d=RACCOON_D):
    """Play one research phase on a fixed deck order, card by card, with the documented policy.

    `order` is a sequence of (habitat, difficulty) or RACCOON. Returns (how it ended, placed,
    reserved) with how in {"spooked", "stopped"}.
    """
    tops = list(tops)
    placed = reserved = 0
    limit = math.inf if max_placed is None else max_placed
    risk_limit = Fraction(max_risk)
    for i, card in enumerate(order):
        rest = order[i:]
        # stopping rule, checked before each draw
        if placed >= limit:
            return "stopped", placed, reserved
        if max_risk < 1.0:
            bad = sum(1 for c in rest if not _placeable(c, tops, raccoon_d))
            if Fraction(bad, len(rest)) > risk_limit:
                return "stopped", placed, reserved
        if _placeable(card, tops, raccoon_d):
            if card == RACCOON:
                # clause SN-RAC-1: the raccoon goes where it turns the fewest remaining cards
                # into spookers (cards of that habitat with top < d <= 6); lowest index on ties
                later = order[i + 1:]
                options = [h for h in range(len(tops)) if tops[h] < raccoon_d]
                best = min(options, key=lambda h: (sum(
                    1 for c in later if c != RACCOON and c[0] == h and tops[h] < c[1] <= raccoon_d
                ), h))
                tops[best] = raccoon_d
            else:
                tops[card[0]] = card[1]  # clause SN-RES-2: placed on top, +1 token
            placed += 1
        elif reserved < free_slots:
            reserved += 1  # clauses SN-RES-4 / SN-RES-5: reserve while a slot is free
        else:
            return "spooked", placed, reserved  # clause SN-RES-3: research ends
    return "stopped", placed, reserved  # deck empty


def _placeable(card, tops, raccoon_d):
    """clause SN-RES-2 (and SN-RAC-1 for the raccoon): strictly higher than the habitat's top."""
    if card == RACCOON:
        return any(t < raccoon_d for t in tops)
    h, d = card
    return d > tops[h]


def naive_research(tops, cards, raccoon, free_slots=0, max_placed=None, max_risk=1.0):
    """Exact research outcome over all permutations of the deck (each equally likely)."""
    deck = list(cards) + ([RACCOON] if raccoon else [])
    spooked: Counter = Counter()
    stopped: Counter = Counter()
    n_perm = 0
    for order in itertools.permutations(deck):
        how, placed, reserved = naive_research_play(order, tops, free_slots, max_placed,
                                                    max_risk)
        (spooked if how == "spooked" else stopped)[placed, reserved] += 1
        n_perm += 1
    bad = sum(1 for c in deck if not _placeable(c, tops, RACCOON_D))
    next_draw = Fraction(bad, len(deck)) if deck else Fraction(0)
    shape = (len(deck) + 1, free_slots + 1)
    spk = np.zeros(shape, dtype=object)
    stp = np.zeros(shape, dtype=object)
    for (p, r), c in spooked.items():
        spk[p, r] = Fraction(c, n_perm)
    for (p, r), c in stopped.items():
        stp[p, r] = Fraction(c, n_perm)
    return next_draw, spk, stp


def _research_cases():
    """~30 seeded small situations plus hand-made ones that hit the raccoon's branches."""
    rng = random.Random(20240607)
    cases = []
    for i in range(30):
        raccoon = i % 2 == 0
        tops = [rng.choice([0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10]) for _ in range(N_HABITATS)]
        n_cards = rng.randint(3, 7 - int(raccoon))
        pool = [(h, d) for h in range(N_HABITATS) for d in range(2, 11) if d != tops[h]]
        cards = sorted(rng.sample(pool, n_cards))
        free_slots = rng.choice([0, 0, 1, 2])
        max_placed = rng.choice([None, None, None, None, 1, 2, 3])
        max_risk = rng.choice([1.0, 1.0, 1.0, 1.0, 0.15, 0.3, 0.45, 0.55, 0.7])
        cases.append((tops, cards, raccoon, free_slots, max_placed, max_risk))
    cases += [
        # raccoon blocked everywhere (all tops >= 6): it spooks unless reserved
        ([6, 7, 8, 9], [(0, 2), (1, 10), (2, 9), (3, 3)], True, 0, None, 1.0),
        ([6, 7, 8, 9], [(0, 2), (1, 10), (2, 9), (3, 3)], True, 1, None, 1.0),
        # raccoon choice: habitat 2 has no card in (0, 6]; habitat 0 has two
        ([0, 0, 0, 0], [(0, 3), (0, 5), (1, 4), (2, 8), (3, 2)], True, 0, None, 1.0),
        # tie everywhere (nothing at or below 6 left): lowest index, then its 6 would spook
        ([0, 0, 0, 0], [(0, 7), (1, 8), (2, 9), (3, 10), (0, 6)], True, 0, None, 1.0),
        # a 6 in the raccoon's habitat: equal difficulty spooks
        ([5, 7, 8, 9], [(0, 6), (0, 7), (1, 8), (2, 2)], True, 2, None, 1.0),
        # the benchmark's mid-game tops
        ([5, 3, 7, 0], [(0, 2), (0, 8), (1, 5), (2, 4), (3, 6), (3, 3)], True, 2, None, 0.45),
        ([5, 3, 7, 0], [(0, 2), (0, 8), (1, 5), (2, 4), (3, 6), (3, 3)], True, 1, 2, 1.0),
        # ties in the raccoon's count that change the outcome (lowest habitat index wins)
        ([3, 2, 6, 3], [(0, 5), (1, 7), (3, 5), (3, 8)], True, 1, None, 1.0),
        ([8, 2, 5, 0], [(1, 4), (2, 4), (2, 6), (3, 5), (3, 8)], True, 0, None, 1.0),
        # stop at once: nothing placed, nothing drawn
        ([0, 0, 0, 0], [(0, 2), (1, 3), (2, 4)], True, 0, 0, 1.0),
        ([4, 4, 4, 4], [(0, 2), (1, 3), (2, 5)], False, 0, None, 0.0),
    ]
    return cases


RESEARCH_CASES = _research_cases()


def _fraction_array(a):
    return np.array([[float(x) for x in row] for row in a])


# ============================================================== dice sums and photographs


@pytest.mark.parametrize("n", range(1, 7))
def test_sum_pmf_matches_enumeration(n):
    got = sum_pmf(n)
    want = naive_sum_pmf(n)
    assert got.shape == (6 * n + 1,)
    np.testing.assert_allclose(got, [float(x) for x in want], rtol=0, atol=TOL)
    assert got.sum() == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize("dice", range(1, 7))
def test_photo_success_matches_enumeration(dice):
    # clause SN-PHO-8: total + tokens >= difficulty, for every tokens 0..4, difficulty 1..40
    for tokens in range(5):
        for difficulty in range(1, 41):
            got = photo_success(dice, tokens, difficulty)
            want = naive_photo(dice, tokens, difficulty)
            assert abs(got - float(want)) <= TOL, (dice, tokens, difficulty, got, want)


def test_photo_table_equals_photo_success_elementwise():
    table = photo_table()
    assert table.shape == (6, 21, 40)
    for d, t, k in itertools.product(range(1, 7), range(21), range(1, 41)):
        assert abs(table[d - 1, t, k - 1] - photo_success(d, t, k)) <= TOL, (d, t, k)
    # and against the enumeration where tokens fall in the naive range
    naive = np.array([[[float(naive_photo(d, t, k)) for k in range(1, 41)] for t in range(5)]
                      for d in range(1, 7)])
    np.testing.assert_allclose(table[:, :5, :], naive, rtol=0, atol=TOL)


def test_photo_table_smaller_shape():
    table = photo_table(2, 3, 12)
    assert table.shape == (2, 4, 12)
    assert table[1, 3, 11] == pytest.approx(float(naive_photo(2, 3, 12)), abs=TOL)


# ============================================================== rulebook worked examples


def test_example_rolls_total_7_vs_difficulty_5_succeeds():
    # clause SN-PHO-8, Phase 3 "Example Rolls" (1): a total of 7 beats difficulty 5
    assert rule_photo_succeeds(7, 0, 5)
    # the kernel agrees with the rule: two dice vs 5 succeeds on every total >= 5, 7 included
    success_totals = {s for s in range(2, 13) if rule_photo_succeeds(s, 0, 5)}
    assert 7 in success_totals
    assert photo_success(2, 0, 5) == pytest.approx(
        sum(naive_sum_counts(2)[s] for s in success_totals) / 36, abs=TOL)
    assert photo_success(2, 0, 5) == pytest.approx(30 / 36, abs=TOL)


def test_example_rolls_2_plus_1_token_vs_4_fails():
    # clause SN-PHO-8 / SN-PHO-10, "Example Rolls" (2): a 2 plus 1 token is 3 < 4: fails
    assert not rule_photo_succeeds(2, 1, 4)
    success_faces = {f for f in FACES if rule_photo_succeeds(f, 1, 4)}
    assert 2 not in success_faces
    assert success_faces == {3, 4, 5, 6}
    # one die + 1 token vs 4 = P(die >= 3) = 2/3
    assert photo_success(1, 1, 4) == pytest.approx(len(success_faces) / 6, abs=TOL)
    assert photo_success(1, 1, 4) == pytest.approx(2 / 3, abs=TOL)


def test_example_rolls_8_plus_2_tokens_vs_10_succeeds():
    # clause SN-PHO-8 / SN-PHO-9, "Example Rolls" (3): 8 alone fails, 8 + 2 tokens = 10 succeeds
    assert not rule_photo_succeeds(8, 0, 10)
    assert rule_photo_succeeds(8, 2, 10)
    with_tokens = {s for s in range(2, 13) if rule_photo_succeeds(s, 2, 10)}
    without = {s for s in range(2, 13) if rule_photo_succeeds(s, 0, 10)}
    assert 8 in with_tokens and 8 not in without
    assert photo_success(2, 2, 10) == pytest.approx(15 / 36, abs=TOL)  # P(2d6 >= 8)
    assert photo_success(2, 0, 10) == pytest.approx(6 / 36, abs=TOL)  # P(2d6 >= 10)


def test_tokens_can_guarantee_a_photo():
    # Step C: "possible to guarantee success by placing so many tokens"
    assert photo_success(1, 9, 10) == 1.0
    assert photo_success(2, 0, 13) == 0.0


def test_explore_rainforest_one_die_needs_5_or_6():
    # clause SN-PHO-2: Rainforest (5) with one die: a 5 or a 6
    assert {f for f in FACES if rule_explore_succeeds((f,), 5)} == {5, 6}
    assert explore_success(1, 5) == pytest.approx(1 / 3, abs=TOL)


def test_explore_dice_are_never_summed():
    # clause SN-PHO-2: "a 2 and a 3 against a target of 5 is a failed exploration"
    assert not rule_explore_succeeds((2, 3), 5)
    p = explore_success(2, 5)
    assert p == pytest.approx(1 - (4 / 6) ** 2, abs=TOL)
    p_sum = sum(c for s, c in naive_sum_counts(2).items() if s >= 5) / 36
    assert abs(p - p_sum) > 0.2  # summing the dice would be 5/6, not 5/9


def test_explore_target_3_both_or_one_die():
    # clause SN-PHO-2: both dice >= 3 succeed; only one meeting the target also succeeds
    assert rule_explore_succeeds((3, 4), 3)
    assert rule_explore_succeeds((1, 3), 3)
    assert not rule_explore_succeeds((1, 2), 3)
    assert explore_success(2, 3) == pytest.approx(1 - (2 / 6) ** 2, abs=TOL)


def test_reroll_one_die_after_a_failed_explore():
    # clause SN-PHO-3: after a failed roll, 2 tokens re-roll a single die
    o = explore_odds(1, 5, rerolls=1)
    assert o.success == pytest.approx(1 - (2 / 3) ** 2, abs=TOL)
    assert o.expected_rerolls == pytest.approx(2 / 3, abs=TOL)  # bought only after a failure
    # repeatable without limit while tokens last: success -> 1
    assert explore_odds(1, 5, rerolls=60).success == pytest.approx(1.0, abs=1e-9)
    # with two dice only ONE die is re-rolled: success is 1 - q**(dice + rerolls)
    assert explore_odds(2, 5, rerolls=1).success == pytest.approx(1 - (2 / 3) ** 3, abs=TOL)


def test_reroll_tokens_go_to_the_bank_only_on_success():
    # clause SN-PHO-6: success after a re-roll: its 2 tokens go to the bank
    # clause SN-PHO-7: final failure: the re-roll tokens come back
    o = explore_odds(1, 5, rerolls=1)
    p_fail_then_succeed = (2 / 3) * (1 / 3)
    assert o.expected_paid == pytest.approx(2 * p_fail_then_succeed, abs=TOL)
    assert o.expected_paid < 2 * o.expected_rerolls
    o2 = explore_odds(1, 5, rerolls=2, reroll_cost=3)
    want = 3 * (2 / 3) * (1 / 3) + 6 * (2 / 3) ** 2 * (1 / 3)
    assert o2.expected_paid == pytest.approx(want, abs=TOL)
    # no re-roll is ever bought when the first roll cannot fail
    assert explore_odds(3, 1, rerolls=3) == explore_odds(3, 1, rerolls=0)


# ============================================================== explore with re-rolls


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_explore_odds_matches_roll_by_roll_enumeration(dice):
    mismatch = []
    for target, rerolls, cost in itertools.product(range(1, 7), range(4), range(1, 4)):
        o = explore_odds(dice, target, rerolls, cost)
        s, paid, bought = naive_explore(dice, target, rerolls, cost)
        for name, got, want in (("success", o.success, s), ("expected_paid", o.expected_paid,
                                paid), ("expected_rerolls", o.expected_rerolls, bought)):
            if abs(got - float(want)) > TOL:
                mismatch.append((dice, target, rerolls, cost, name, got, float(want)))
        assert explore_success(dice, target, rerolls) == pytest.approx(float(s), abs=TOL)
    assert not mismatch, mismatch[:5]


def test_expected_paid_is_not_cost_times_rerolls():
    # tokens are paid only when the exploration finally succeeds (SN-PHO-6/7), and re-rolls are
    # bought only after failures, so expected_paid differs from cost * rerolls in general
    differs = 0
    for dice, target, rerolls, cost in itertools.product(range(1, 4), range(2, 7), range(1, 4),
                                                         range(1, 4)):
        o = explore_odds(dice, target, rerolls, cost)
        assert o.expected_paid <= cost * o.expected_rerolls + TOL
        assert o.expected_paid <= cost * rerolls + TOL
        differs += abs(o.expected_paid - cost * rerolls) > 1e-9
    assert differs > 0
    o = explore_odds(2, 4, 2)
    assert o.expected_paid == pytest.approx(0.5, abs=TOL)  # 2*(1/4)(1/2) + 4*(1/8)(1/2)
    assert o.expected_paid != 2 * 2


# ============================================================== habitat allocations


@st.composite
def allocations(draw):
    explore_dice = draw(st.integers(1, 4))
    target = draw(st.integers(1, 6))
    rerolls = draw(st.integers(0, 2))
    cost = draw(st.integers(1, 3))
    left = 6 - explore_dice
    animals = []
    for _ in range(draw(st.integers(0, min(3, left)))):
        if left == 0:
            break
        dice = draw(st.integers(1, min(3, left)))
        left -= dice
        animals.append((draw(st.integers(1, 14)), dice, draw(st.integers(0, 4))))
    return explore_dice, target, animals, rerolls, cost


@settings(max_examples=40, deadline=None)
@given(allocations())
def test_habitat_value_matches_enumeration(alloc):
    explore_dice, target, animals, rerolls, cost = alloc
    hv = habitat_value(explore_dice, target, animals, rerolls, cost)
    pe, pp, pmf, lost, paid = naive_habitat(explore_dice, target, animals, rerolls, cost)
    assert hv.p_explore == pytest.approx(float(pe), abs=TOL)
    np.testing.assert_allclose(hv.p_photo, [float(x) for x in pp], rtol=0, atol=TOL)
    np.testing.assert_allclose(hv.photos_pmf, [float(x) for x in pmf], rtol=0, atol=TOL)
    assert hv.expected_tokens_lost == pytest.approx(float(lost), abs=TOL)
    assert hv.expected_reroll_paid == pytest.approx(float(paid), abs=TOL)
    assert hv.expected_photos == pytest.approx(float(sum(pp)), abs=TOL)


def test_habitat_value_fixed_example():
    # Preparation Example: savannah (3) with 1 die; meerkat 3 with 1 die; white rhino 8 with
    # 2 dice and 2 tokens (clauses SN-PHO-1, SN-PHO-8)
    hv = habitat_value(1, 3, [(3, 1, 0), (8, 2, 2)])
    pe = 4 / 6
    assert hv.p_explore == pytest.approx(pe, abs=TOL)
    np.testing.assert_allclose(hv.p_photo, [pe * 4 / 6, pe * 26 / 36], atol=TOL)
    assert hv.photos_pmf.sum() == pytest.approx(1.0, abs=TOL)
    assert hv.expected_tokens_lost == pytest.approx(pe * 26 / 36 * 2, abs=TOL)


# ============================================================== research (card counting)


def _check_research(tops, cards, raccoon, free_slots, max_placed, max_risk):
    got = research_odds(tops, cards, raccoon=raccoon, free_slots=free_slots,
                        max_placed=max_placed, max_risk=max_risk)
    next_draw, spk, stp = naive_research(tops, cards, raccoon, free_slots, max_placed, max_risk)
    assert got.dropped == 0.0
    assert got.next_draw == pytest.approx(float(next_draw), abs=TOL)
    assert got.spooked.shape == spk.shape and got.stopped.shape == stp.shape
    np.testing.assert_allclose(got.spooked, _fraction_array(spk), rtol=0, atol=TOL)
    np.testing.assert_allclose(got.stopped, _fraction_array(stp), rtol=0, atol=TOL)
    # the derived views, from the naive matrices directly
    both = spk + stp
    placed_pmf = [float(sum(both[p, :])) for p in range(both.shape[0])]
    np.testing.assert_allclose(got.placed_pmf, placed_pmf, rtol=0, atol=TOL)
    assert got.p_spook == pytest.approx(float(spk.sum()), abs=TOL)
    assert got.expected_tokens == pytest.approx(
        float(sum(p * both[p, r] for p in range(both.shape[0]) for r in range(both.shape[1]))),
        abs=TOL)
    assert got.expected_reserved == pytest.approx(
        float(sum(r * both[p, r] for p in range(both.shape[0]) for r in range(both.shape[1]))),
        abs=TOL)
    first_spook: Counter = Counter()
    for p in range(spk.shape[0]):
        for r in range(spk.shape[1]):
            first_spook[p + r] += spk[p, r]
    for k, v in enumerate(got.spook_pmf):
        assert v == pytest.approx(float(first_spook.get(k, 0)), abs=TOL)
    assert float(sum(first_spook.values())) == pytest.approx(got.spook_pmf.sum(), abs=TOL)
    assert got.spooked.sum() + got.stopped.sum() == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize("case", RESEARCH_CASES,
                         ids=[f"case{i}" for i in range(len(RESEARCH_CASES))])
def test_research_odds_matches_permutation_enumeration(case):
    # clauses SN-RES-2 (place strictly higher, +1 token), SN-RES-3 (spook ends research),
    # SN-RES-4/5 (reserve while a slot is free), SN-RAC-1 (the raccoon's habitat)
    _check_research(*case)


@settings(max_examples=25, deadline=None)
@given(
    tops=st.lists(st.integers(0, 10), min_size=4, max_size=4),
    picks=st.lists(st.tuples(st.integers(0, 3), st.integers(2, 10)), min_size=2, max_size=5,
                   unique=True),
    raccoon=st.booleans(),
    free_slots=st.integers(0, 2),
    max_placed=st.one_of(st.none(), st.integers(0, 4)),
    max_risk=st.sampled_from([1.0, 0.0, 0.15, 0.3, 0.45, 0.55, 0.7, 0.9]),
)
def test_research_odds_random_small_decks(tops, picks, raccoon, free_slots, max_placed,
                                          max_risk):
    cards = [c for c in picks if c[1] != tops[c[0]]]
    _check_research(tops, cards, raccoon, free_slots, max_placed, max_risk)


def test_spook_risk_is_research_odds_without_stopping():
    tops = [5, 3, 7, 0]
    cards = [(0, 2), (0, 8), (1, 5), (2, 4), (3, 6)]
    a = spook_risk(tops, cards, raccoon=True, free_slots=1)
    b = research_odds(tops, cards, raccoon=True, free_slots=1)
    np.testing.assert_array_equal(a.spooked, b.spooked)
    np.testing.assert_array_equal(a.stopped, b.stopped)
    assert a.next_draw == b.next_draw
    # count array input gives the same answer as pairs
    c = spook_risk(tops, unseen_counts(cards), raccoon=True, free_slots=1)
    np.testing.assert_array_equal(a.spooked, c.spooked)


def test_next_draw_by_hand():
    # clause SN-RES-2/3: with tops (5, 3, 7, 0) the unseen 2 (shoreline) and 4 (mountain) would
    # spook; the 8, the 5 (savannah) and the 6 (rainforest) can be placed
    cards = [(0, 2), (0, 8), (1, 5), (2, 4), (3, 6)]
    assert research_odds([5, 3, 7, 0], cards).next_draw == pytest.approx(2 / 5, abs=TOL)
    # clause SN-RAC-1: the raccoon (6) is blocked when every top is >= 6
    assert research_odds([6, 7, 8, 9], [(0, 7)], raccoon=True).next_draw == pytest.approx(0.5)
    assert research_odds([5, 7, 8, 9], [(0, 7)], raccoon=True).next_draw == 0.0


def test_unseen_counts():
    counts = unseen_counts([(0, 2), (0, 2), (3, 10)])
    assert counts.shape == (4, 11)
    assert counts[0, 2] == 2 and counts[3, 10] == 1 and counts.sum() == 3


# ============================================================== sampled vs exact
# Each check below is an exact two-sided binomial test (scipy.stats.binomtest) of the sampled
# success count against the exact probability; it fails when the p-value is <= 1e-4, so a
# correct kernel raises a false alarm with probability 1e-4 per check (about 5e-4 for the whole
# group). Seeds are fixed, so the outcome is deterministic run to run.

N_SAMPLES = 200_000
ALPHA = 1e-4


def _binom_ok(k, n, p):
    return stats.binomtest(int(k), int(n), float(p)).pvalue > ALPHA


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_sampled_photograph_matches_exact():
    rng = np.random.default_rng(11)
    rolls = rng.integers(1, 7, size=(N_SAMPLES, 2)).sum(axis=1)
    k = int(np.count_nonzero(rolls + 1 >= 8))  # 2 dice + 1 token vs difficulty 8
    assert _binom_ok(k, N_SAMPLES, photo_success(2, 1, 8))


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_sampled_explore_with_rerolls_matches_exact():
    rng = np.random.default_rng(12)
    dice, target, rerolls, cost = 2, 5, 2, 2
    faces = rng.integers(1, 7, size=(N_SAMPLES, dice))
    ok = (faces >= target).any(axis=1)
    bought = np.zeros(N_SAMPLES, dtype=np.int64)
    for _ in range(rerolls):  # re-roll one die while the exploration has failed
        again = ~ok
        bought += again
        ok |= again & (rng.integers(1, 7, size=N_SAMPLES) >= target)
    exact = explore_odds(dice, target, rerolls, cost)
    assert _binom_ok(ok.sum(), N_SAMPLES, exact.success)
    # a first re-roll is bought exactly when the first roll fails: P = q**dice
    q = (target - 1) / 6
    assert _binom_ok(np.count_nonzero(bought >= 1), N_SAMPLES, q**dice)
    # the bank keeps 2 tokens with probability P(fail, then succeed on re-roll 1) and 4 with
    # P(fail, fail, succeed); test the first of these events exactly too
    assert _binom_ok(np.count_nonzero(ok & (bought == 1)), N_SAMPLES, q**dice * (1 - q))
    # mean tokens kept by the bank: a z-test at 5 standard errors (false alarm ~6e-7)
    paid = np.where(ok, bought * cost, 0)
    assert abs(paid.mean() - exact.expected_paid) < 5 * paid.std() / N_SAMPLES**0.5


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_sampled_research_matches_exact():
    rng = np.random.default_rng(13)
    tops = [5, 3, 7, 0]
    cards = [(0, 2), (0, 8), (1, 5), (2, 4), (3, 6), (3, 3)]
    deck = [*cards, RACCOON]
    exact = research_odds(tops, cards, raccoon=True, free_slots=1)
    orders = rng.permuted(np.tile(np.arange(len(deck)), (N_SAMPLES, 1)), axis=1)
    spooks = 0
    placed_counts: Counter = Counter()
    for row in orders.tolist():
        how, placed, _ = naive_research_play([deck[i] for i in row], tops, 1, None, 1.0)
        spooks += how == "spooked"
        placed_counts[placed] += 1
    assert _binom_ok(spooks, N_SAMPLES, exact.p_spook)
    mode = int(np.argmax(exact.placed_pmf))
    assert _binom_ok(placed_counts[mode], N_SAMPLES, exact.placed_pmf[mode])


# ============================================================== token value


def test_token_value_gains_are_kernel_differences():
    for ed, tg, ad, diff, tok, rr, cost in itertools.product(
            (1, 2), (2, 4, 5), (1, 2, 3), (3, 7, 10), (0, 2), (0, 1), (1, 2)):
        now, card, reroll = token_value(ed, tg, ad, diff, tok, rr, cost)
        pe = explore_odds(ed, tg, rr, cost).success
        pe_more = explore_odds(ed, tg, rr + 1, cost).success
        s = photo_success(ad, tok, diff)
        s_more = photo_success(ad, tok + 1, diff)
        assert now == pytest.approx(pe * s, abs=TOL)
        assert card == pytest.approx(pe * (s_more - s), abs=TOL)
        assert reroll == pytest.approx((pe_more - pe) * s / cost, abs=TOL)
        # and against the enumerations
        n_pe, _, _ = naive_explore(ed, tg, rr, cost)
        assert now == pytest.approx(float(n_pe * naive_photo(ad, tok, diff)), abs=TOL)


def test_token_table_consistent_with_token_value():
    df = token_table(rerolls=1)
    assert (df.explore_dice + df.animal_dice <= 6).all()
    assert len(df) == 4 * 2 * 3 * 9 * 4
    for row in df.itertuples(index=False):
        now, card, reroll = token_value(row.explore_dice, row.target, row.animal_dice,
                                        row.difficulty, row.tokens, 1)
        assert row.p_photo == pytest.approx(now, abs=TOL)
        assert row.gain_card_token == pytest.approx(card, abs=TOL)
        assert row.gain_per_reroll_token == pytest.approx(reroll, abs=TOL)
        if card <= 1e-12 and reroll <= 1e-12:
            want = "none"
        elif abs(card - reroll) <= 1e-12:
            want = "either"
        else:
            want = "card" if card > reroll else "reroll"
        assert row.best_use == want, row
    assert set(df.best_use) <= {"none", "either", "card", "reroll"}
    # a table that would use too many dice drops those rows
    assert token_table(explore_dice=(3,), animal_dice=(3, 4)).animal_dice.eq(3).all()


# ============================================================== bad inputs


@pytest.mark.parametrize("call", [
    lambda: photo_success(0, 0, 5),
    lambda: photo_success(7, 0, 5),
    lambda: photo_success(2, -1, 5),
    lambda: photo_success(2.5, 0, 5),
    lambda: photo_success(True, 0, 5),
    lambda: photo_success(2, 0, 0),
    lambda: sum_pmf(0),
    lambda: sum_pmf(7),
    lambda: explore_success(2, 7),
    lambda: explore_odds(0, 4),
    lambda: explore_odds(2, 4, -1),
    lambda: explore_odds(2, 4, 1, 0),
    lambda: habitat_value(3, 4, [(5, 2, 0), (4, 2, 0)]),
    lambda: habitat_value(2, 4, [(5, 0, 0)]),
    lambda: habitat_value(2, 4, [(5, 2)]),
    lambda: unseen_counts([(4, 5)]),
    lambda: unseen_counts([(0, 11)]),
    lambda: unseen_counts(["x"]),
    lambda: research_odds([0, 0, 0, 0], [(0, 5), (9, 2)]),
    lambda: research_odds([0, 0, 0], unseen_counts([(0, 5)])),
    lambda: research_odds([0, 0, 0, 0], [(0, 5)], max_risk=1.5),
    lambda: research_odds([0, 0, 0, 0], [(0, 5)], max_risk=float("nan")),
    lambda: research_odds([0, 0, 0, 0], [(0, 5)], max_placed=-1),
    lambda: research_odds([0, 0, 11, 0], [(0, 5)]),
    lambda: research_odds([0, 0, 0, 0], [(0, 5)], free_slots=-1),
    lambda: token_value(4, 4, 3, 8),
    lambda: token_table(targets=(7,)),
], ids=lambda c: "")
def test_bad_inputs_raise_input_error(call):
    with pytest.raises(InputError) as info:
        call()
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert message and "\n" not in message


def test_bad_input_messages_name_the_problem():
    with pytest.raises(InputError, match="six dice"):
        photo_success(7, 0, 5)
    with pytest.raises(InputError, match="whole number"):
        photo_success(2.5, 0, 5)
    with pytest.raises(InputError, match="whole number"):
        photo_success(True, 0, 5)
    with pytest.raises(InputError, match="tokens"):
        photo_success(2, -1, 5)
    with pytest.raises(InputError, match="target"):
        explore_success(2, 7)
    with pytest.raises(InputError, match="uses 7 dice"):
        habitat_value(3, 4, [(5, 2, 0), (4, 2, 0)])
    with pytest.raises(InputError, match="habitat"):
        unseen_counts([(4, 5)])
    with pytest.raises(InputError, match="3 habitat tops given for 4 habitats"):
        research_odds([0, 0, 0], unseen_counts([(0, 5)]))
    with pytest.raises(InputError, match="max_risk"):
        research_odds([0, 0, 0, 0], [(0, 5)], max_risk=1.5)
