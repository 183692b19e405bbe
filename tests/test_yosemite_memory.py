"""Yosemite greedy's memory: a turn's plan is made once and kept to, a plan from another turn
is not, and a photo's payment is the one its camera decision found, which is the payment
found afresh at every step; the best payment is the one trying every payment finds."""

import numpy as np
import pytest
from test_yosemite_hidden import positions

from snapsim.games.yosemite import YosemiteConfig, YosemiteGame, make_policy
from snapsim.games.yosemite import engine as E
from snapsim.games.yosemite import policies as P

pytestmark = pytest.mark.kernel

PAR = np.array(make_policy("greedy").params)


def ask(g, st, rng, mem, buf, n):
    return int(P.policy_action(st, g._cfg, g._comp, rng, P.GREEDY, PAR, buf, n, mem, None))


def test_greedy_keeps_to_the_plan_it_remembered_and_not_to_another_turns():
    kept = 0
    for g, st in positions(3, keep=lambda s: s[E.PHASE] == E.PH_FISH):
        p = int(st[E.CUR])
        buf = E.action_buffer()
        k = 4
        out = np.zeros(4 * k, np.int64)  # rows: squares, explore choices, keys, values
        c = P.plans(st, g._cfg, g._comp, PAR, st[E.FISH + p], buf, out, 0, k, k)
        tq, ta = out[:k], out[k:2 * k]
        other = [i for i in range(c) if tq[i] != tq[0]]
        if not other:
            continue
        i = other[0]
        sim, rng = st.copy(), np.array([3, 4], np.uint64)
        mem = P.new_memory()
        P.remember(sim, mem, tq[i], ta[i])
        stale = mem.copy()
        stale[P.M_TURN] = st[E.TURN] + 1
        n = E.legal_actions(sim, g._cfg, g._comp, buf)
        fresh_move = ask(g, st.copy(), rng.copy(), P.new_memory(), buf, n)
        assert ask(g, st.copy(), rng.copy(), stale, buf, n) == fresh_move
        while sim[E.PHASE] == E.PH_FISH:  # eats its way to the remembered square ...
            n = E.step(sim, g._cfg, g._comp, rng, ask(g, sim, rng, mem, buf, n), buf)
        assert sim[E.POS + p] == tq[i]
        if sim[E.PHASE] == E.PH_EXPLORE and n > 1:  # ... and explores as remembered
            assert ask(g, sim, rng, mem, buf, n) == ta[i]
        kept += 1
    assert kept >= 5


def test_the_remembered_payment_is_the_best_payment_found_afresh():
    """At every payment decision of greedy games the payment remembered from the camera
    decision is the one `best_payment` finds for what is left to pay."""
    paid = 0
    for seed in range(6):
        g = YosemiteGame(seed=seed, policies=["greedy", "greedy"])
        while not g.is_over():
            if g.state[E.PHASE] == E.PH_PAY:
                assert g._memory[P.M_PAY_TURN] == g.state[E.TURN]
                buf = E.action_buffer()
                n = E.legal_actions(g.state, g._cfg, g._comp, buf)
                rng = g._rng.copy()
                assert ask(g, g.state.copy(), rng.copy(), g._memory.copy(), buf, n) == \
                    ask(g, g.state.copy(), rng.copy(), P.new_memory(), buf, n)
                paid += 1
            g.apply(g.policy_action())
    assert paid >= 10


def brute_payment(g, st, slot, first, lo, hi, w):
    """Every count of tiles of animals first.. in count order (animal `first` fastest): the
    first that completes the photo and keeps the most, as (value, counts)."""
    ph = int(st[E.SLOT + slot])
    k = int(E.photo_size(g._comp, ph))
    hand = [int(x) for x in st[E.HAND + st[E.CUR] * 5:E.HAND + st[E.CUR] * 5 + 5]]
    best = (P.NEG, [0] * 5)
    radix = [hand[a] + 1 for a in range(first, 5)]
    for code in range(int(np.prod(radix))):
        d = [0] * 5
        for a in range(first, 5):
            code, d[a] = divmod(code, hand[a] + 1)
        spans = [E.cover_span(g._cfg, g._comp, ph, a, d[a]) for a in range(first, 5)]
        if all(s[0] <= s[1] for s in spans) and \
                lo + sum(s[0] for s in spans) <= k <= hi + sum(s[1] for s in spans):
            left = np.array([hand[a] - d[a] for a in range(5)], np.int64)
            v = P.keep_value(st, g._cfg, g._comp, w, left, slot)
            if v > best[0]:
                best = (v, d)
    return best


def test_best_payment_is_the_first_best_of_every_payment():
    """The pruned search finds what trying every count in count order finds, for the whole
    payment and for what is left after the first animals are paid."""
    checked = 0
    for g, st in positions(5, keep=lambda s: s[E.PHASE] == E.PH_CAMERA, limit=30):
        buf = E.action_buffer()
        # the kernels' work space as numpy views (compiled, payment_space gives pointers)
        w, paid, left, d, sums = getattr(P.payment_space, "py_func", P.payment_space)(buf)
        P.keep_weights(st, g._cfg, g._comp, PAR, w)
        for slot in range(g._cfg[E.C_SLOTS]):
            if st[E.SLOT + slot] < 0:
                continue
            for first, lo, hi in ((0, 0, 0), (2, 1, 1), (3, 0, 2)):
                v = P.best_payment(st, g._cfg, g._comp, slot, first, lo, hi, w, paid, left, d,
                                   sums)
                want_v, want_d = brute_payment(g, st, slot, first, lo, hi, w)
                assert v == want_v and paid[first:E.N_ANIMALS].tolist() == want_d[first:]
                checked += want_v > P.NEG
    assert checked >= 20


@pytest.mark.parametrize("knobs", [{}, {"wilds": False, "photo_slots": 3, "hand_limit": 4}])
def test_greedy_moves_found_without_the_legal_actions_are_legal(knobs):
    """The batch plays greedy's fish steps, explore choices, photos, payments and discards
    without listing the legal actions (`policies.greedy_play`), and a forced move without
    asking: at every such decision of greedy games, forced ones included, the move greedy
    finds from the state and its memory is legal (at a forced one, the forced move)."""
    config = YosemiteConfig(**knobs)
    cfg, comp = config.to_array(), config.comp_vector()
    seen = {"forced": 0, "chosen": 0}
    for seed in range(3):
        rng = np.array([seed, 99], np.uint64)
        st = E.new_game(cfg, comp, rng)
        buf, mem = E.action_buffer(), P.new_memory()
        while st[E.PHASE] != E.PH_OVER:
            n = E.legal_actions(st, cfg, comp, buf)
            if not P.greedy_lists(st):
                move = P.greedy_move(st, cfg, comp, PAR, E.action_buffer(), mem.copy())
                assert move in buf[:n].tolist(), (int(st[E.PHASE]), move)
                seen["forced" if n == 1 else "chosen"] += 1
            a = buf[0] if n == 1 else P.greedy_action(st, cfg, comp, PAR, buf, n, mem)
            E.apply_action(st, cfg, comp, rng, a)
    assert seen["forced"] >= 50 and seen["chosen"] >= 100
