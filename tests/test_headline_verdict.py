"""The verdict "is the game balanced?" (analysis.verdict): planted imbalances found at a few
thousand games, a self-comparison unchanged, every class decided on the interval printed
beside it, and the tolerances' input checked."""

from __future__ import annotations

import math

import numpy as np
import pytest

import snapsim
from snapsim.analysis import verdict as V
from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.sim import component_files as C
from snapsim.sim import get_game, simulate

GAMES = 2000


def _side(game: str, players: int, games: int = GAMES, **knobs) -> V.Side:
    config = get_game(game).make_config(players=players, **knobs)
    df = simulate(game, policies=["greedy"], games=games, seed=3, config=config)
    return V.Side(df, config, V.card_values(game, config, ["greedy"] * players, games, 3))


def test_a_planted_seat_bias_is_not_balanced():
    """Seat 1 starts with no token and seat 4 with eight: the seat spread lies wholly beyond
    2 pp, so the line says NOT BALANCED and names it."""
    v = V.verdict_of("snapshot", {4: _side("snapshot", 4, start_tokens=(0, 2, 4, 8))},
                     seed=1)
    assert v.status("seat_spread", 4) == "not balanced"
    assert v.word(4) == "NOT BALANCED"
    row = v.rows[v.rows.measure == "seat_spread"].iloc[0]
    assert row.ci_low > 2
    (line,) = v.lines()
    assert line.startswith("4 players, greedy play: NOT BALANCED: ")
    assert f"seat spread {row.value:.1f} pp [{row.ci_low:.1f}, {row.ci_high:.1f}]" in line
    assert "Bonferroni over the 13 claims of this line" in line  # 2 + 10 assignments + cards


def test_every_class_is_decided_on_the_interval_printed_beside_it():
    v = V.verdict_of("snapshot", {3: _side("snapshot", 3, 1000)}, seed=2)
    claims = v.rows[v.rows["class"] != ""]
    m = len(claims)
    assert (claims.level == 1 - 0.05 / m).all()
    for _, r in claims.iterrows():
        beyond = r.ci_low > r.tol_high or r.ci_high < r.tol_low
        inside = r.tol_low <= r.ci_low and r.ci_high <= r.tol_high
        assert r["class"] == ("not within" if beyond else "within" if inside else "open")
        if r["class"] == "open":
            assert r.games_to_settle > r.games
    rates = claims[claims.measure.isin(["first_player", "assignments"])]
    assert (rates.ci_low >= -100 / 3).all() and (rates.ci_high <= 100 - 100 / 3).all()


@pytest.fixture(scope="module")
def live_fast(tmp_path_factory):
    """Snapshot with Live Fast's assignment chart much richer: its holders win far more."""
    path = C.export("snapshot", tmp_path_factory.mktemp("v") / "rich-live-fast.toml")
    text = path.read_text()
    old = 'name = "Live Fast"\ncover = ["pika", "meerkat"]\nsymbols = ["1-10 years", ' \
          '"omnivore"]\nchart = [0, 1, 3, 6, 9, 11, 13, 15, 16]'
    assert old in text
    path.write_text(text.replace(old, old.replace("[0, 1, 3, 6, 9, 11, 13, 15, 16]",
                                                  "[0, 4, 9, 14, 19, 23, 27, 30, 32]")))
    return path


def test_one_objective_moved_away_from_fair_makes_compare_worse(live_fast):
    c = snapsim.compare("snapshot", variants=[str(live_fast)], players=[4], games=GAMES,
                        seed=1, restricted=False)
    assert c.headline.word("rich-live-fast", 4) == "WORSE"
    rows = c.balance.set_index("item")
    assert rows.loc["Live Fast", "class"] == "worse"
    assert rows.loc["Live Fast", "ci_low"] > 2
    text = c.summary()
    assert "is rich-live-fast better balanced at 4 players? WORSE" in text
    assert "  before: 4 players, greedy play: " in text
    assert "  after: 4 players, greedy play: NOT BALANCED" in text


def test_a_self_comparison_is_no_change(tmp_path):
    path = C.export("snapshot", tmp_path / "copy.toml")
    c = snapsim.compare("snapshot", baseline=str(path), variants=[str(path)], players=[4],
                        games=300, seed=1, restricted=False)
    assert c.headline.word("copy (1)", 4) == "NO CHANGE"
    assert set(c.balance["class"]) == {"no change"}
    assert (c.balance.change == 0).all()
    assert c.headline.before.word(4) == c.headline.after["copy (1)"].word(4)


def test_tolerances_defaults_parsing_and_bad_input():
    assert V.fill_tolerances("snapshot") == {"seat_spread": 2.0, "first_player": 2.0,
                                             "assignments": 2.0, "cards": 10.0}
    assert V.fill_tolerances("yosemite", ["seat_spread=3", "length=20-24"]) == {
        "seat_spread": 3.0, "first_player": 2.0, "length": (20.0, 24.0)}
    for bad, words in (("seat_spread", "write NAME=VALUE"), ("cards=5", "has no cards"),
                       ("seat_spread=-1", "positive number"), ("length=5-4", "A < B"),
                       ("luck=2", "write NAME=VALUE")):
        with pytest.raises(InputError, match=words):
            V.fill_tolerances("yosemite", [bad])
    with pytest.raises(InputError, match="given twice"):
        V.fill_tolerances("snapshot", ["cards=5", "cards=6"])


def test_the_tolerance_flag_s_bad_input_is_one_line(capsys):
    assert main(["report", "yosemite", "--tolerance", "cards=5", "--games", "20"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "has no cards measure" in err


def test_settle_is_always_more_than_the_games_played():
    assert V._settle(1.0, -1.0, 3.0, (-2.0, 2.0), 0.99, 500) > 500
    assert math.isinf(V._settle(2.0, 1.0, 3.0, (-2.0, 2.0), 0.99, 500))
    assert V._settle_words(math.inf, 500) == "more than 50,000 games would settle it"


# ---------------------------------------------------------------- beyond sampling noise


def _objectives_run(rng, true: np.ndarray, games: int, fair: float = 0.25) -> V.Items:
    """`games` games, each dealing one of the objectives at random to a holder who wins with
    chance fair + true[i]: a run's (game, objective) table as the verdict reads it."""
    held = rng.integers(0, len(true), games)
    den = np.zeros((games, len(true)))
    den[np.arange(games), held] = 1
    num = den * (rng.random(games) < fair + true[held])[:, None]
    return V.Items(tuple(f"o{i}" for i in range(len(true))), num, den)


def test_the_typical_distance_is_not_inflated_by_noise():
    """40 objectives held about 50 times each, eight of them 6 pp off fair (the true root
    mean square is 6*sqrt(8/40) = 2.68 pp): the plain mean of |distance| reads about 5 pp
    whatever the truth, the noise-corrected mean square is unbiased. Over 150 runs its mean
    lies within 4 standard errors of the truth, and its 99% interval holds the truth in at
    least 140 (Bin(150, 0.99) falls below 145 with chance under 0.1%; 140 leaves room for
    the percentile interval's approximation)."""
    rng = np.random.default_rng(7)
    true = np.r_[np.full(4, 0.06), np.full(4, -0.06), np.zeros(32)]
    rms = 100 * math.sqrt(np.mean(true ** 2))
    squares, plain, held = [], [], 0
    for _ in range(150):
        it = _objectives_run(rng, true, 2000)
        rates = V.resample([it], 400, int(rng.integers(1 << 30)))[0]
        est, draws = V._typical(100 * (it.values - 0.25), 100 * (rates - 0.25))
        lo, hi = V._percentile(draws, 0.99)
        squares.append(float(np.nanmean((100 * (it.values - 0.25)) ** 2
                                        - np.nanvar(100 * (rates - 0.25), axis=0))))
        plain.append(100 * float(np.nanmean(np.abs(it.values - 0.25))))
        held += lo <= rms <= hi
    squares = np.array(squares)
    assert abs(squares.mean() - rms ** 2) < 4 * squares.std(ddof=1) / math.sqrt(len(squares))
    assert np.mean(plain) > 4.0 > rms + 1  # what the plain mean would have said
    assert held >= 140


def test_four_fair_seats_at_300_games_are_rarely_called_beyond_2pp():
    """Four equal seats at 300 games: the best minus the worst seat reads about 6 pp, so the
    resamples' own spread put its interval wholly beyond 2 pp in about a fifth of runs.
    The simultaneous pair intervals at 99% may do so in at most 1% of runs: over 200 runs,
    at most 7 (Bin(200, 0.01) exceeds 7 with chance under 0.1%); and a true 6 pp spread at
    2,000 games is held by the interval in at least 190 of 200."""
    rng = np.random.default_rng(11)

    def run(p, games):
        won = np.eye(4)[rng.choice(4, size=games, p=p)]
        it = V.Items(("1", "2", "3", "4"), won, np.ones_like(won))
        rates = V.resample([it], 400, int(rng.integers(1 << 30)))[0]
        return V._spread(it.values, rates, 0.99, games)

    fair = [run([0.25] * 4, 300) for _ in range(200)]
    assert np.mean([value for value, _, _ in fair]) > 4  # the noise the interval must absorb
    assert sum(lo > 2 for _, lo, _ in fair) <= 7
    tilted = [run([0.28, 0.25, 0.25, 0.22], 2000) for _ in range(200)]
    assert sum(lo <= 6 <= hi for _, lo, hi in tilted) >= 190


def test_a_handful_of_games_settles_nothing_the_resamples_cannot_measure():
    """One game: every seat's rate is 0 or 1 and every resample the same game, so the
    resamples have no spread. The seat spread's pairs then take the spread of one more game
    shared by the seats (open, within [0, 100] pp), and the cards' distance gets no interval
    below RESAMPLED_MIN games (open, said in words), instead of a one-game run reading NOT
    BALANCED."""
    for game, players in (("snapshot", 2), ("yosemite", 2), ("shutterbug", 6)):
        v = V.verdict_of(game, {players: _side(game, players, 1)}, seed=1)
        assert v.word(players) == "NOT SETTLED"
        spread = v.rows[v.rows.measure == "seat_spread"].iloc[0]
        assert spread["class"] == "open" and 0 <= spread.ci_low <= spread.ci_high <= 100
    cards = V.verdict_of("snapshot", {2: _side("snapshot", 2, 1)}, seed=1).line("cards", 2)
    assert cards.endswith("open (no interval from 1 game: at least 20 are needed), against the "
                          "tolerance of 10%")
