"""The skill ladder: the rating step recovers a known order and covers the truth, tables
rotate every seat assignment equally often, same seed same ladder, bad input refused."""

import numpy as np
import pandas as pd
import pytest
from cli_helpers import cli, one_error_line

import snapsim
from snapsim.analysis.ladder import rate, rotations, seatings, tables
from snapsim.report.ladder import write_ladder
from snapsim.sim.checks import MAX_IN_MEMORY_GAMES
from snapsim.sim.store import WRITTEN


def two_player_results(strengths, games_per_pair, rng):
    """Games between every pair, the first finishing ahead with the Bradley-Terry chance."""
    rows, game = [], 0
    names = list(strengths)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
            for _ in range(games_per_pair):
                a_wins = rng.random() < p
                rows += [(game, game, a, float(a_wins), 1.0), (game, game, b, float(not a_wins),
                                                                1.0)]
                game += 1
    return pd.DataFrame(rows, columns=["deal", "game", "policy", "won", "score"])


def test_a_field_with_a_known_order_is_recovered():
    # four seats: A always first, B second, C third, D last (by score; only A wins)
    rows = []
    for g in range(60):
        for pol, score in zip("ABCD", (40, 30, 20, 10), strict=True):
            rows.append((g, g, pol, float(pol == "A"), float(score)))
    results = pd.DataFrame(rows, columns=["deal", "game", "policy", "won", "score"])
    ratings, pairwise = rate(results, ["D", "B", "A", "C"], reps=50)
    assert list(ratings.policy) == ["A", "B", "C", "D"]
    # every deal the same order: every resample agrees, and the data bound no rating (only the
    # fit's regularisation does), so no interval is claimed rather than a zero-width one
    assert ratings.ci_low.isna().all() and ratings.ci_high.isna().all()
    ab = pairwise[(pairwise.policy == "A") & (pairwise.opponent == "B")].iloc[0]
    assert ab.meetings == 60 and ab.share == 1.0 and ab.ci_low > 0.9


def test_a_tie_counts_half_to_each():
    rows = [(0, 0, "A", 0.5, 10.0), (0, 0, "B", 0.5, 10.0),
            (1, 1, "A", 1.0, 12.0), (1, 1, "B", 0.0, 9.0)]
    _, pairwise = rate(pd.DataFrame(rows, columns=["deal", "game", "policy", "won", "score"]),
                       ["A", "B"], reps=20)
    ab = pairwise[pairwise.policy == "A"].iloc[0]
    assert ab.meetings == 2 and ab.ahead == 1.5


@pytest.mark.slow  # a statistical test: simulated rates vs exact values
def test_rating_intervals_cover_the_true_strengths():
    truth = {"weak": -0.6, "mid": 0.1, "strong": 0.5}  # centred: mean 0, as the fit is
    rng = np.random.default_rng(7)
    covered = total = 0
    estimates = []
    for _ in range(20):
        ratings, _ = rate(two_player_results(truth, 150, rng), list(truth), reps=100,
                          seed=int(rng.integers(1 << 30)))
        for r in ratings.itertuples():
            covered += r.ci_low <= truth[r.policy] <= r.ci_high
            total += 1
            estimates.append((r.policy, r.rating))
    assert covered / total >= 0.85
    means = pd.DataFrame(estimates, columns=["p", "r"]).groupby("p").r.mean()
    for name, value in truth.items():
        assert means[name] == pytest.approx(value, abs=0.06)


def test_tables_and_seatings():
    assert tables(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    # a field smaller than the table: all of it, and every choice for the seats left over
    assert tables(2, 3) == [(0, 0, 1), (0, 1, 1)]
    assert tables(3, 4) == [(0, 0, 1, 2), (0, 1, 1, 2), (0, 1, 2, 2)]
    assert seatings((0, 0, 1)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert len(seatings((0, 1, 2, 3))) == 24
    # rotation classes cover every assignment once: ABAB turns into only 2 of them
    assert rotations((0, 0, 1, 1)) == [((0, 0, 1, 1), 4), ((0, 1, 0, 1), 2)]
    assert sum(size for _, size in rotations((0, 1, 2, 3))) == 24


def test_a_field_smaller_than_the_table_plays_every_assignment_equally_often():
    result = snapsim.ladder("shutterbug", players=3, policies=["random", "greedy"], games=6,
                            seed=2, threads=1, reps=20)
    orders = result.results.sort_values(["game", "seat"]).groupby("game").policy.agg(tuple)
    assert orders.value_counts().to_dict() == {
        o: 2 for o in [("random", "random", "greedy"), ("random", "greedy", "random"),
                       ("greedy", "random", "random"), ("greedy", "greedy", "random"),
                       ("greedy", "random", "greedy"), ("random", "greedy", "greedy")]}
    assert list(result.ratings.policy) == ["greedy", "random"]


@pytest.fixture(scope="module")
def small():
    return snapsim.ladder("snapshot", players=3, policies=["random", "greedy", "cautious"],
                          games=12, seed=5, threads=1, reps=50)


def test_every_policy_sits_in_every_seat_equally_often(small):
    counts = small.results.groupby(["policy", "seat"]).size().unstack()
    assert counts.shape == (3, 3) and (counts.to_numpy() == 12 // 3).all()
    # and every one of the 6 seat assignments of the table is played equally often
    orders = small.results.sort_values(["game", "seat"]).groupby("game").policy.agg(tuple)
    assert orders.value_counts().tolist() == [2] * 6
    assert small.games == 12 and small.provenance["seat_assignments"] == 6


def test_random_is_at_the_bottom_and_greedy_is_the_zero(small):
    assert small.ratings.policy.iloc[-1] == "random"
    greedy = small.ratings.set_index("policy").loc["greedy"]
    assert greedy.rating == 0  # the reference: 0 by definition, so it has no interval
    assert np.isnan(greedy.ci_low) and np.isnan(greedy.ci_high)
    assert "greedy              +0.000  (reference)" in small.summary()
    assert small.provenance["reference"] == "greedy"
    random_row = small.ratings.iloc[-1]
    assert random_row.rating < small.ratings.rating.iloc[:-1].min()
    if random_row.win_rate == 0:  # never ahead: nothing bounds its rating from below
        assert np.isnan(random_row.ci_low)


def test_same_seed_same_ladder_whatever_the_threads(small):
    again = snapsim.ladder("snapshot", players=3, policies=["random", "greedy", "cautious"],
                           games=12, seed=5, threads=2, reps=50)
    pd.testing.assert_frame_equal(again.ratings, small.ratings)
    pd.testing.assert_frame_equal(again.pairwise, small.pairwise)
    other = snapsim.ladder("snapshot", players=3, policies=["random", "greedy", "cautious"],
                           games=12, seed=6, threads=1, reps=50)
    assert not other.results.score.equals(small.results.score)


def test_tables_seating_a_search_policy_play_search_games():
    # ShutterBug 2p: of the three tables, the two that seat `search` play 2 games each
    lad = snapsim.ladder("shutterbug", players=2, policies=["random", "greedy", "search"],
                         games=6, search_games=2, seed=3, threads=1, reps=20)
    per_table = lad.results.groupby(lad.results.deal // MAX_IN_MEMORY_GAMES).game.nunique()
    meetings = lad.pairwise.set_index(["policy", "opponent"]).meetings
    assert meetings[("greedy", "random")] == 6
    assert meetings[("search", "random")] == meetings[("search", "greedy")] == 2
    assert sorted(per_table.tolist()) == [2, 2, 6] and lad.games == 10
    assert lad.provenance["search_games_per_table"] == 2
    plain = snapsim.ladder("shutterbug", players=2, policies=["random", "greedy"], games=6,
                           search_games=2, seed=3, threads=1, reps=20)
    assert plain.games == 6 and plain.provenance["search_games_per_table"] is None


def test_tables_seating_snapshots_exact_kind_play_search_games_too():
    # the exact kind's exhaustive preparation costs about a hundred greedy games a game
    lad = snapsim.ladder("snapshot", players=2, policies=["random", "greedy", "exact"],
                         games=6, search_games=2, seed=3, threads=1, reps=20)
    meetings = lad.pairwise.set_index(["policy", "opponent"]).meetings
    assert meetings[("greedy", "random")] == 6
    assert meetings[("exact", "random")] == meetings[("exact", "greedy")] == 2
    assert lad.games == 10 and lad.provenance["search_games_per_table"] == 2


def test_written_folder_and_refusal_to_overwrite(small, tmp_path):
    import json

    path = write_ladder(small, tmp_path / "ladder")
    files = sorted(p.name for p in path.parent.iterdir() if not p.name.startswith("."))
    assert files == ["ladder.md", "ladder.png", "pairwise.csv", "provenance.json", "ratings.csv"]
    ratings = pd.read_csv(path.parent / "ratings.csv")
    assert list(ratings.columns[:5]) == ["policy", "rating", "ci_low", "ci_high", "games"]
    prov = json.loads((path.parent / "provenance.json").read_text())
    assert prov["seed"] == 5 and prov["components"]["sha256"]
    assert len(prov["policies"]) == 3
    with pytest.raises(snapsim.errors.InputError, match="already holds"):
        write_ladder(small, tmp_path / "ladder")


@pytest.mark.parametrize("argv", [
    ["ladder", "snapshot", "--games", "0"],
    ["ladder", "snapshot", "--players", "1"],
    ["ladder", "snapshot", "--policies", "greedy"],
    ["ladder", "snapshot", "--policies", "greedy,greedy"],
    ["ladder", "snapshot", "--policies", "greedy,nosuch"],
    ["ladder", "chess"],
    ["ladder", "snapshot", "--seed", "-1"],
    ["ladder", "snapshot", "--reps", "1"],
    ["ladder", "snapshot", "--search-games", "0"],
    ["ladder", "yosemite", "--players", "3", "--policies", "random,greedy"],
])
def test_bad_input_is_one_line(argv, capsys):
    rc, _, err = cli(capsys, *argv)
    assert rc == 2
    one_error_line(err)


def test_an_occupied_out_folder_is_refused_before_any_game(tmp_path, capsys):
    (tmp_path / "old.csv").write_text("x\n")
    rc, _, err = cli(capsys, "ladder", "snapshot", "--players", "2", "--policies",
                     "random,greedy", "--out", tmp_path)
    assert rc == 2 and "holds 'old.csv', which snapsim did not write" in one_error_line(err)


class FirstLegal:
    """A Python agent: always the first legal action."""

    name = "first-legal"

    def act(self, observation, legal_actions):
        return legal_actions[0]


def test_a_python_agent_takes_its_seats_in_the_ladder():
    result = snapsim.ladder("yosemite", policies=["greedy", FirstLegal()], games=4, seed=1,
                            threads=1, reps=20)
    counts = result.results.groupby(["policy", "seat"]).size().unstack()
    assert set(counts.index) == {"greedy", "first-legal"} and (counts.to_numpy() == 2).all()
    assert list(result.ratings.policy) == ["greedy", "first-legal"]


def test_cli_writes_the_ladder_folder(tmp_path, capsys):
    rc, out, err = cli(capsys, "ladder", "yosemite", "--policies", "random,greedy", "--games",
                       4, "--reps", 20, "--threads", 1, "--quiet", "--out", tmp_path / "l")
    assert rc == 0 and err == ""
    assert "greedy" in out.splitlines()[1] and "ladder written to" in out
    assert sorted(p.name for p in (tmp_path / "l").iterdir() if p.name != WRITTEN) == [
        "ladder.md", "ladder.png", "pairwise.csv", "provenance.json", "ratings.csv"]
