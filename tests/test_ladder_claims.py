"""What a ladder claims: one claim per pair of policies, read by every sentence and group that
compares them, and a pair measured elsewhere (a report's head-to-head) taken as that claim."""

import numpy as np
import pytest
from test_ladder import two_player_results

from snapsim.analysis.effects import MEANINGFUL, Claim, Estimate, Smallest, Standard
from snapsim.analysis.ladder import Ladder, rate


@pytest.fixture(scope="module")
def ladder():
    """A close to B (a 5 pp edge), both far ahead of C, 400 meetings per pair."""
    results = two_player_results({"A": 0.2, "B": 0.0, "C": -2.0}, 400,
                                 np.random.default_rng(3))
    ratings, pairwise = rate(results, ["A", "B", "C"], reps=50)
    return Ladder("snapshot", 2, ["A", "B", "C"], ratings, pairwise, len(results) // 2, 1)


def settled(ladder, known=None):
    standard = Standard()
    st = ladder.standings(standard, Smallest(), known)
    standard.settle()
    return st, standard


def test_each_pair_is_one_claim_and_the_groups_read_it(ladder):
    st, standard = settled(ladder)
    assert list(st.order) == ["A", "B", "C"]
    # three pairs, three claims: the lead over the second, the ends' groups and the luck line
    # all read the same ones
    assert sorted(standard.raw()) == ["ladder: A ahead of B", "ladder: A ahead of C",
                                      "ladder: C ahead of B"]
    ab = st.ahead("A", "B")
    assert st.second.key == ab.key and ab.cls != MEANINGFUL
    assert st.strongest() == ["A", "B"]  # A is not meaningfully ahead of B: a tied group
    assert st.group("C") == ["C"]  # C is meaningfully behind both
    ba = st.ahead("B", "A")
    assert ba.key == ab.key and ba.estimate.effect == -ab.estimate.effect
    assert ba.decision_ci == pytest.approx(tuple(-x for x in reversed(ab.decision_ci)))
    text = " ".join(st.sentences())
    assert "Strongest, not distinguishable at this n: A" in text
    assert text.count("A finishes ahead of B") == 1


def test_a_pair_measured_head_to_head_is_that_claim(ladder):
    outside = Standard()
    claim = Claim.make(outside, "head to head: A vs B", Estimate(0.08, 0.005, 20_000), 0.02)
    known = {("A", "B"): (claim, "58.0% [57.0%, 59.0%] of 20,000 games head to head"),
             ("B", "A"): (claim.reversed(), "42.0% [41.0%, 43.0%] of 20,000 games head to head")}
    outside.settle()
    st, standard = settled(ladder, known)
    assert "ladder: A ahead of B" not in standard.raw()  # not tested a second time
    assert st.second is claim and claim.cls == MEANINGFUL
    assert st.strongest() == ["A"]  # separated by the head-to-head's claim
    line = next(x for x in st.sentences() if x.startswith("A finishes ahead of B"))
    assert "58.0% [57.0%, 59.0%] of 20,000 games head to head: +8.0 pp" in line
    assert "meaningful (beyond ±2.0 pp)" in line

