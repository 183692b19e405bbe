"""Analysis functions on constructed tables with known answers."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from snapsim.analysis import balance as B
from snapsim.analysis.stats import wilson_interval, win_table, win_table_from_sums
from snapsim.sim.sums import group_sums


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (517, 1000), (1, 2)])
def test_wilson_interval_equals_scipy(k, n):
    lo, hi = wilson_interval(k, n)
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)


def two_player_games(rng, pairs, games_per_pair, p_first):
    """Constructed two-player results: the first named policy of a pair wins with p_first."""
    rows, game = [], 0
    for a, b in pairs:
        for _ in range(games_per_pair):
            first_wins = rng.random() < p_first[(a, b)]
            swap = game % 2 == 1  # seats rotate
            seat_pol = (b, a) if swap else (a, b)
            winner = a if first_wins else b
            for seat, pol in enumerate(seat_pol):
                rows.append({"game": game, "seat": seat, "policy": pol,
                             "won": 1.0 if pol == winner else 0.0, "score": 0})
            game += 1
    return pd.DataFrame(rows)


def test_matchup_matrix_is_complementary_and_matches_counts():
    rng = np.random.default_rng(1)
    pairs = [("A", "B"), ("A", "C"), ("B", "C")]
    p = {("A", "B"): 0.7, ("A", "C"): 0.9, ("B", "C"): 0.5}
    df = two_player_games(rng, pairs, 400, p)
    m = B.matchup_matrix(df)
    for a, b in pairs:
        assert m.loc[a, b] + m.loc[b, a] == pytest.approx(1.0, abs=1e-12)
        pair = df.groupby("game").policy.agg(frozenset)
        sub = df[df.game.isin(pair[pair == frozenset((a, b))].index) & (df.policy == a)]
        assert m.loc[a, b] == pytest.approx(sub.won.mean())
    table = B.matchup_table(df)
    ab = table[(table.policy == "A") & (table.opponent == "C")].iloc[0]
    assert ab.significant and ab.win_rate > 0.8  # 0.9 vs a fair 0.5 over 400 games
    bc = table[(table.policy == "B") & (table.opponent == "C")].iloc[0]
    assert bc.ci_low < 0.5 < bc.ci_high or not bc.significant


def test_seat_advantage_flags_only_the_unbalanced_count():
    rows = []
    for players, winner_share in ((2, (0.5, 0.5)), (3, (0.6, 0.2, 0.2))):
        n = 3000
        for g in range(n):
            win_seat = int(g * 10 // n >= 10 * winner_share[0]) if players == 2 else \
                (0 if g < winner_share[0] * n else 1 + g % 2)
            for s in range(players):
                rows.append({"game": g, "players": players, "seat": s,
                             "won": float(s == win_seat)})
    out = B.seat_advantage(pd.DataFrame(rows))
    assert out.groupby("players").win_rate.sum().to_dict() == pytest.approx({2: 1.0, 3: 1.0})
    assert not out[out.players == 2].significant.any()
    three = out[out.players == 3].set_index("seat")
    assert three.loc[0, "win_rate"] == pytest.approx(0.6)
    assert three.loc[0, "significant"]


def test_holm_adjustment_known_values():
    adj = B.holm([0.01, 0.04, 0.03])
    np.testing.assert_allclose(adj, [0.03, 0.06, 0.06])
    assert B.holm([0.5, 0.9]).tolist() == [1.0, 1.0]


def test_sample_size_matches_the_normal_formula():
    assert B.sample_size(0.01) == 9604  # 1.96^2 * 0.25 / 0.01^2 = 9603.6
    lo, hi = wilson_interval(0.5 * B.sample_size(0.02), B.sample_size(0.02))
    assert (hi - lo) / 2 == pytest.approx(0.02, rel=0.01)
    with pytest.raises(ValueError):
        B.sample_size(0)


def test_rate_tests_detect_a_real_difference_and_not_a_null_one():
    assert B.two_rates(600, 1000, 400, 1000) < 1e-10
    assert B.two_rates(500, 1000, 500, 1000) == pytest.approx(1.0)
    assert B.rate_vs(250, 1000, 0.25) == pytest.approx(1.0)


def test_score_breakdown_shares_and_game_length_distribution():
    df = pd.DataFrame({"game": [0, 0, 1, 1], "policy": ["a", "b", "a", "b"],
                       "prestige": [10, 20, 30, 40], "awards": [10, 0, 10, 0],
                       "rounds": [5, 5, 7, 7]})
    sb = B.score_breakdown(df, ["prestige", "awards"]).set_index("policy")
    assert sb.loc["a", "prestige"] == 20 and sb.loc["a", "awards_share"] == pytest.approx(1 / 3)
    assert (sb.prestige_share + sb.awards_share).tolist() == pytest.approx([1.0, 1.0])
    gl = B.game_length(df)
    assert gl.share.sum() == pytest.approx(1.0) and gl.rounds.tolist() == [5, 7]


def test_restricted_play_against_the_fair_share():
    df = pd.DataFrame({"policy": ["r", "g", "g", "g"] * 1000,
                       "won": [0.0, 1.0, 0.0, 0.0] * 1000, "score": [1, 2, 3, 4] * 1000})
    r = B.restricted_play(df, "r", 4)
    assert r["win_rate"] == 0.0 and r["p_value"] < 1e-10 and r["ci_high"] < 0.01


def test_streamed_sums_equal_the_whole_table():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"seat": rng.integers(0, 3, 999), "won": rng.random(999),
                       "score": rng.integers(0, 50, 999), "photos": rng.integers(0, 9, 999)})
    parts = [group_sums(df.iloc[i:i + 200], "seat") for i in range(0, 999, 200)]
    total = parts[0]
    for p in parts[1:]:
        total = total.add(p, fill_value=0)
    pd.testing.assert_frame_equal(win_table_from_sums(total), win_table(df, "seat"),
                                  check_dtype=False)


def test_flag_columns_apply_holm_over_every_p_value():
    df = pd.DataFrame({"p_a": [0.001, 0.04], "p_b": [0.5, 0.012]})
    out = B.flag_columns(df, ["p_a", "p_b"])
    # Holm over (0.001, 0.04, 0.5, 0.012): adjusted 0.004, 0.08, 0.5, 0.036
    assert out.p_a_significant.tolist() == [True, False]
    assert out.p_b_significant.tolist() == [False, True]
