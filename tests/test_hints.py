"""A seat's win chance with each legal move (snapsim.play.wins), in hints, `snapsim advise
--load` and `snapsim.advise`, for every game: the estimate agrees with a large-budget one, a
budget of N rollouts is N rollouts, nothing hidden is read, and asking changes nothing."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from cli_helpers import cli, one_error_line
from scipy import stats
from test_play import GAMES, HIDE

import snapsim
from snapsim.games.snapshot import advisor as A
from snapsim.games.snapshot.hints import situation
from snapsim.play import load
from snapsim.play.hints import hints
from snapsim.play.wins import Budget, _rollouts, move_chances, sequences, view_key
from snapsim.protocol import new_game

FEW = Budget(rollouts=24)


def position(name, seed, decisions, phase=None):
    """The first decision with two or more legal moves after `decisions` moves of a greedy
    game (and, with `phase`, in a phase whose name starts with it)."""
    g = new_game(name, seed=seed)
    for _ in range(decisions):
        g.apply(g.policy_action())
    while len(g.legal_action_ids()) < 2 or (phase and not g.phase.startswith(phase)):
        g.apply(g.policy_action())
    return g


POSITIONS = {  # (seed, decisions before, phase): a few phases of each game
    "yosemite": [(1, 0, None), (2, 9, None), (3, 30, "push")],
    "shutterbug": [(1, 0, None), (2, 6, "move"), (3, 25, None)],
    "snapshot": [(1, 0, "research"), (2, 3, "prepare: dice"), (4, 0, "re-roll")],
}
CASES = [(name, *spec) for name in GAMES for spec in POSITIONS[name]]


def _game_id(case):
    return f"{case[0]}-{case[1]}-{case[3] or 'any'}" if isinstance(case, tuple) else None


@pytest.mark.parametrize("case", CASES, ids=_game_id)
def test_a_budget_of_n_rollouts_is_n_rollouts_and_batches_add_up(case):
    """Every move gets exactly the rollouts asked for; rollouts run in batches (as a time
    budget runs them) sum to the same win shares as one run (rollout r depends on r only)."""
    name, seed, before, phase = case
    g = position(name, seed, before, phase)
    me = g.current_player
    table = move_chances(g, me, Budget(rollouts=17))
    assert (table.rollouts == 17).all()
    assert sorted(table.action) == sorted(g.legal_action_ids().tolist())
    assert list(table.win_chance) == sorted(table.win_chance, reverse=True)
    moves, run = sequences(g.legal_action_ids()), g.POLICIES.rollout_wins
    sums = run(g, moves, 99, 0, 17)
    parts = [run(g, moves, 99, 0, 5), run(g, moves, 99, 5, 12)]
    for total, a, b in zip(sums, *parts, strict=True):  # wins, points, position digests
        assert np.array_equal(total, a + b)
    whole = sums[0]
    assert np.all((whole >= 0) & (whole <= 17))
    # a win share is 0, 1/k (a k-way tie) or 1 in each rollout: sums of halves at most here
    assert np.allclose(table.win_chance * 17, np.round(table.win_chance * 34) / 2)


@pytest.mark.parametrize("case", CASES, ids=_game_id)
def test_the_ranking_agrees_with_a_large_budget_estimate(case):
    """Statistical test: the hint's budget (200 rollouts, seed 0) against an independent
    reference (2,000 rollouts, seed 1). Each move's two win chances differ by at most z
    standard errors of the difference (unpaired; a win share's variance is at most
    p(1 - p)), z two-sided at family-wise alpha = 0.001 (Bonferroni over the position's
    moves); and the hint's best move is at most z standard errors of a difference of two of
    the hint's own estimates below the reference's best."""
    name, seed, before, phase = case
    g = position(name, seed, before, phase)
    me = g.current_player
    hint = move_chances(g, me, Budget(rollouts=200), seed=0).set_index("action")
    ref = move_chances(g, me, Budget(rollouts=2000), seed=1).set_index("action")
    z = stats.norm.ppf(1 - 0.001 / 2 / len(ref))
    var = lambda p, n: np.maximum(p * (1 - p), 0.25 / n) / n  # noqa: E731 (>0 at p=0, 1)
    diff = (hint.win_chance - ref.win_chance).abs()
    se = np.sqrt(var(hint.win_chance, 200) + var(ref.win_chance, 2000))
    assert (diff <= z * se).all(), (diff / se).max()
    top = hint.index[0]
    best = ref.win_chance.max()
    se_pick = np.sqrt(var(hint.win_chance[top], 200) + var(best, 200))
    assert best - ref.win_chance[top] <= z * se_pick


@pytest.mark.parametrize("case", CASES, ids=_game_id)
def test_win_chances_do_not_read_what_the_seat_cannot_see(case):
    """The hidden cards redealt consistently with the seat's view (the other hands, the deck
    order, the unseen assignments and photos): the same seed gives the same table."""
    name, seed, before, phase = case
    g = position(name, seed, before, phase)
    me = g.current_player
    want = move_chances(g, me, FEW, seed=3)
    for k in range(2):
        twin = g.clone()
        HIDE[name](twin, 11 + k)
        assert not np.array_equal(twin.state, g.state)
        assert move_chances(twin, me, FEW, seed=3).equals(want)
    # another seed is another sample: the numbers move (the test above could fail)
    assert not move_chances(g, me, FEW, seed=4).win_chance.equals(want.win_chance)


def _kept(g):
    return (g.state.copy(), g._rng.copy(), g._memory.copy(), list(g.log))


@pytest.mark.parametrize("name", GAMES)
def test_asking_for_hints_or_advice_never_changes_the_game(name):
    """State, random streams, the policies' memory and the log are the same after hints and
    advice, and the game then plays on exactly as a copy taken before asking."""
    g = position(name, *POSITIONS[name][1])
    me = g.current_player
    copy = g.clone()
    kept = _kept(g)
    hints(g, me, FEW)
    snapsim.advise(g, me + 1, rollouts=24)
    for a, b in zip(_kept(g), kept, strict=True):
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
    g.play()
    copy.play()
    assert np.array_equal(g.state, copy.state) and g.log == copy.log


def _saved(game, tmp_path, capsys, monkeypatch, moves=("1", "2")):
    """A game played at the prompt, saved there with the `save` command, played on, quit."""
    path = tmp_path / f"{game}.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*moves, "save", str(path), "1",
                                                            "quit", ""]) + "\n"))
    rc, out, err = cli(capsys, "play", game, "--players", 2, "--seed", 5)
    assert rc == 0, err
    assert f"saved to {path}; continue with: snapsim play {game} --load {path}" in out
    assert out.count("--- you are P1 ---") >= 2  # the game went on after saving
    return path


@pytest.mark.parametrize("game", GAMES)
def test_advise_a_saved_game_in_json_names_each_unit(game, tmp_path, capsys, monkeypatch):
    path = _saved(game, tmp_path, capsys, monkeypatch)
    rc, out, err = cli(capsys, "advise", "--load", path, "--rollouts", 20, "--format", "json")
    assert rc == 0, err
    body = json.loads(out)
    g = load(path).game
    assert body["game"] == game and body["seat"] == g.current_player + 1 == 1
    assert body["phase"] == g.phase
    for unit in ("win_chance", "interval", "rollouts", "points", "same_as"):
        assert unit in body["units"]
    assert body["units"]["win_chance"].startswith("fraction 0-1")
    legal = [g.action_to_string(a) for a in g.legal_actions()]
    assert sorted(r["text"] for r in body["moves"]) == sorted(legal)
    for r in body["moves"]:
        assert legal[r["move"] - 1] == r["text"] and r["rollouts"] == 20
        assert r["interval"][0] <= r["win_chance"] <= r["interval"][1]
    # the same numbers from Python, from the save or from its game
    api = snapsim.advise(str(path), rollouts=20).to_dict()
    assert api["moves"] == body["moves"]
    assert snapsim.advise(g, rollouts=20).to_dict()["moves"] == body["moves"]
    rc, out, err = cli(capsys, "advise", "--load", path, "--rollouts", 20)
    assert rc == 0 and f"{game}: P1 to move" in out and "win chance" in out


def test_advise_snapshot_gives_the_advisors_preparations_and_odds():
    g = position("snapshot", 2, 3, "prepare: dice")
    me = g.current_player
    advice = snapsim.advise(g, me + 1, rollouts=10)
    want = A.advise(situation(g, me), "your seat", top=3, components=g.config.components).table
    rows = advice.to_dict()["snapshot"]["preparations"]["rows"]
    assert [r["value"] for r in rows] == list(want.value)
    assert "preparations from the start of this Preparation" in advice.summary()
    g = position("snapshot", 1, 0, "research")
    advice = snapsim.advise(g, rollouts=10)
    r = A.research_advice(situation(g, g.current_player), components=g.config.components)
    assert advice.numbers["research"]["p_spook_next"] == r["p_spook_next"]


@pytest.mark.parametrize("argv, says", [
    (["--seat", 2], "it is P1's decision now, not P2's"),
    (["--seat", 9], "seat must be 1-2 for 2 players, got 9"),
    (["--seat", 0], "--seat must be a whole number"),
    (["--rollouts", 0], "rollouts must be a whole number"),
    (["--budget", -1], "hint budget (seconds) must be"),
])
def test_advise_bad_seats_and_budgets_are_one_line(argv, says, tmp_path, capsys, monkeypatch):
    path = _saved("yosemite", tmp_path, capsys, monkeypatch)
    rc, _, err = cli(capsys, "advise", "--load", path, *argv)
    assert rc == 2 and says in one_error_line(err)


def test_advise_bad_saves_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    rc, _, err = cli(capsys, "advise", "--load", bad)
    assert rc == 2 and "not a saved snapsim game" in one_error_line(err)
    rc, _, err = cli(capsys, "advise", "--load", tmp_path / "none.json")
    assert rc == 2 and "cannot read it" in one_error_line(err)
    rc, _, err = cli(capsys, "advise")
    assert rc == 2 and "advise needs a saved game (--load SAVE)" in one_error_line(err)


def test_a_hint_on_a_time_budget_says_how_many_rollouts_it_used():
    """(No time is measured here: only that the text reports the count it used.)"""
    g = position("yosemite", 2, 9)
    text = hints(g, g.current_player, Budget(seconds=0.05))
    assert "rollouts each in 0.05 s" in text and "recommended: " in text


@pytest.mark.parametrize("argv, says", [
    (["--hint-budget", 0], "hint budget (seconds) must be"),
    (["--hint-rollouts", -3], "rollouts must be a whole number"),
])
def test_play_bad_hint_budgets_are_one_line(argv, says, capsys):
    rc, _, err = cli(capsys, "play", "yosemite", "--hints", *argv)
    assert rc == 2 and says in one_error_line(err)


def test_a_screens_whole_move_is_rated_after_all_its_step_actions_and_numbered_as_there():
    """A 2-token Snapshot re-roll is one move on screen (two step actions): the hint rates
    it after both tokens, in the rollouts' own worlds, under the screen's number and words."""
    from snapsim.games.snapshot.screen import points_now
    from snapsim.play import choices

    g = new_game("snapshot", players=2, seed=0, policies=["random", "random"])
    for _ in range(87):  # to a re-roll paid from the supply or a card (found by search)
        g.apply(g.policy_action())
    me, moves = g.current_player, choices(g)
    assert g.phase == "re-roll" and any(len(chosen) > 1 for chosen, _ in moves)
    budget = Budget.of(rollouts=40)
    table = move_chances(g, me, budget, seed=3, choices=moves).set_index("move")
    assert sorted(table.index) == list(range(1, len(moves) + 1))
    for number, (chosen, done) in enumerate(moves, start=1):
        row = table.loc[number]
        assert row.text == g.choice_to_string(chosen, done)
        # the same rollouts as the screen's move's: the same view key, all its step actions;
        # its points exact, after all of them
        wins, _, _, n = _rollouts(g, sequences([chosen]), view_key(g, me, 3), budget)
        odds = points_now(g, me, [chosen])[0]
        assert (row.win_chance, row.points, row.rollouts) == \
            (pytest.approx(wins[0] / n), float(sum(k * p for k, p in odds.items())), n)
    text = hints(g, me, budget, seed=3, choices=moves)
    for number, (chosen, done) in enumerate(moves, start=1):
        assert re.search(rf"^\s+{number}\. win .*{re.escape(g.choice_to_string(chosen, done))}$",
                         text, re.M)


def test_research_advice_is_kept_for_its_position_and_its_game_only(monkeypatch):
    """The exact research advice is computed once a position, and afresh for the same
    observation in another game (its components or knobs may differ: the workbench plays
    many in one process)."""
    import snapsim.games.snapshot.advisor as advisor
    from snapsim.games.snapshot import hints as H

    calls = []
    monkeypatch.setattr(advisor, "research_advice",
                        lambda situation, who, components: calls.append(components) or {})
    monkeypatch.setattr(H, "situation", lambda game, seat: {})
    first, twin = new_game("snapshot", seed=4), new_game("snapshot", seed=4)
    seat = first.current_player
    assert np.array_equal(first.observation_tensor(seat), twin.observation_tensor(seat))
    H.research_numbers(first, seat)
    H.research_numbers(first, seat)
    assert len(calls) == 1
    H.research_numbers(twin, seat)
    assert len(calls) == 2
