"""Yosemite greedy's memory: a turn's plan is made once and kept to, a plan from another turn
is not, and a photo's payment is the one its camera decision found, which is the payment
found afresh at every step."""

import numpy as np
import pytest
from test_yosemite_hidden import positions

from snapsim.games.yosemite import YosemiteGame, make_policy
from snapsim.games.yosemite import engine as E
from snapsim.games.yosemite import policies as P

pytestmark = pytest.mark.kernel

PAR = np.array(make_policy("greedy").params)


def ask(g, st, rng, mem, buf, n):
    return int(P.policy_action(st, g._cfg, g._comp, rng, P.GREEDY, PAR, buf, n, mem))


def test_greedy_keeps_to_the_plan_it_remembered_and_not_to_another_turns():
    kept = 0
    for g, st in positions(3, keep=lambda s: s[E.PHASE] == E.PH_FISH):
        p = int(st[E.CUR])
        buf = E.action_buffer()
        k = 4
        tq, ta = np.zeros(k, np.int64), np.zeros(k, np.int64)
        c = P.plans(st, g._cfg, g._comp, PAR, st[E.FISH + p], buf, tq, ta,
                    np.zeros(k, np.int64), np.zeros(k))
        other = [i for i in range(c) if tq[i] != tq[0]]
        if not other:
            continue
        i = other[0]
        sim, rng = st.copy(), np.array([3, 4], np.uint64)
        mem = P.new_memory()
        P.remember(sim, mem, tq[i], ta[i], buf)
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
