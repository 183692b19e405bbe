"""The exact preparation advisor against an independent brute force, and its inputs."""

import itertools
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
