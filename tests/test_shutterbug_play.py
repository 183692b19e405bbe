"""Whole ShutterBug games: invariants over many playthroughs, the batch kernel against the step
API, reproducibility across threads and chunks, and one-line errors for bad inputs."""

import numpy as np
import pytest
from shutterbug_helpers import check_invariants, new, place_cities

import snapsim
from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.games.shutterbug import ShutterbugConfig, ShutterbugGame, make_policy, run_games
from snapsim.games.shutterbug import engine as E

POLICIES = ["random", "greedy", "trader", "lookahead"]
TINY_SEARCH = "search:rollouts=2:candidates=2:depth=0:z=0"


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_batch_invariants_SB_RND_1_SB_DIS_1(players):
    # clauses SB-RND-1 (8 rounds, 8 turns each), SB-DIS-1 (hands end at most 7), SB-SCO-1..4
    config = ShutterbugConfig(players=players)
    pols = (POLICIES * 2)[:players]
    df = run_games(config, pols, 0, 300, 7)
    assert len(df) == 300 * players
    assert (df.rounds == 8).all() and (df.turns == 8).all()
    assert (df.hand <= 7).all()
    assert (df.score == df.assignment_points + df.side_job_points + df.city_points).all()
    assert (df.tips_paid >= df.quality).all()  # a photo costs its quality in tips
    assert df.photos.sum() <= 48 * 300
    if players == 1:
        assert df.won.isin([0, 1]).all() and (df.won == df.goal).all()
    else:
        assert np.allclose(df.groupby("game").won.sum(), 1.0)
    bonus = 1 if config.pawns == 2 else 2
    assert (df.city_points % bonus == 0).all() and (df.city_points <= 2 * config.pawns).all()


@pytest.mark.parametrize("config", [ShutterbugConfig(players=4), ShutterbugConfig(players=2),
                                    ShutterbugConfig(players=1),
                                    ShutterbugConfig(players=3, cooperative=True)])
def test_random_step_api_playthroughs_conserve_tips_and_tiles(config):
    # tips and tiles are conserved after every action; hands <= 7 at every turn start
    for game in range(8):
        g = new(config, seed=11, game=game, policies=["random"] * config.players)
        while not g.is_over():
            check_invariants(g)
            g.apply(g.policy_action())
        check_invariants(g)
        assert g.state[E.ROUND] == 8


@pytest.mark.parametrize("config,policies", [
    (ShutterbugConfig(players=4), ["greedy", "random", "trader", "lookahead"]),
    (ShutterbugConfig(players=2), ["trader", "greedy"]),
    (ShutterbugConfig(players=1), ["lookahead"]),
])
def test_batch_and_step_api_play_the_same_games(config, policies):
    batch = run_games(config, policies, 0, 6, 5)
    for game in range(6):
        g = ShutterbugGame(config, seed=5, game=game, policies=policies)
        g.play()
        rows = batch[batch.game == game]
        assert rows.score.tolist() == g.scores().score.tolist()
        assert rows.won.tolist() == g.scores().won.tolist()
        assert g.log and all(line.startswith("round ") for line in g.log)


STATS = {"photos": E.ST_PHOTOS, "quality": E.ST_QUALITY, "tips_drawn": E.ST_DRAWN,
         "tips_paid": E.ST_PAID, "tips_discarded": E.ST_DISCARDED, "trades": E.ST_TRADES,
         "traded_with": E.ST_TRADED_WITH, "swaps": E.ST_SWAPS, "steps": E.ST_STEPS,
         "hand": E.N_HAND, "assignment": E.ASSIGN, "jobs_mask": E.JOBS_DONE, "side": E.SIDE}


@pytest.mark.parametrize("kind,games", [(k, 42) for k in POLICIES] + [(TINY_SEARCH, 2)])
def test_batch_kernel_and_step_api_agree_game_for_game(kind, games):
    # The batch kernel (one scratch per game, values kept between decisions) and the step API
    # (a fresh scratch per decision) play the same games: 42 games for each of 6 player counts
    # and 4 policy kinds, 1,008 games in all, and 2 games per player count of a search at a
    # tiny budget, every seat's score sheet and statistics equal.
    for players in range(1, 7):
        config = ShutterbugConfig(players=players)
        pols = [kind] * players
        batch = run_games(config, pols, 0, games, 23)
        for game in range(games):
            g = ShutterbugGame(config, seed=23, game=game, policies=pols)
            g.play()
            rows = batch[batch.game == game]
            sheet = g.scores()
            assert rows.score.tolist() == sheet.score.tolist(), (players, game)
            assert rows.won.tolist() == sheet.won.tolist(), (players, game)
            assert rows.assignment_points.tolist() == sheet.assignment.tolist()
            assert rows.side_job_points.tolist() == sheet.side_jobs.tolist()
            for column, field in STATS.items():
                assert rows[column].tolist() == [int(g.state[field + p])
                                                 for p in range(players)], (column, game)


def test_simulate_is_independent_of_threads_and_chunks():
    kw = dict(players=4, policies=POLICIES, games=200, seed=42)
    a = snapsim.simulate("shutterbug", threads=1, chunk_size=37, **kw)
    b = snapsim.simulate("shutterbug", threads=2, chunk_size=500, **kw)
    assert a.equals(b)
    part = run_games(ShutterbugConfig(), POLICIES, 120, 30, 42)
    whole = a[a.game.between(120, 149)].reset_index(drop=True)
    assert part.drop(columns="policy").equals(whole.drop(columns="policy"))


def test_observation_shows_own_hand_only():
    g = place_cities(new(ShutterbugConfig(players=3), seed=2))
    obs = g.observation(1)
    assert sum(obs["hand"].values()) == 3 and obs["hand_sizes"] == [3, 3, 3]
    assert len(obs["board"]) == 7 and obs["round"] == 1
    with pytest.raises(InputError):
        g.observation(3)


def test_illegal_action_raises_input_error_and_changes_nothing():
    g = new(ShutterbugConfig(players=3))
    before = g.state.copy()
    with pytest.raises(InputError, match="not legal"):
        g.apply(E.act(E.A_DISCARD))
    assert (g.state == before).all()


@pytest.mark.parametrize("knobs,match", [
    ({"players": 7}, "players"), ({"players": 0}, "players"), ({"rounds": 0}, "rounds"),
    ({"trading": 1}, "trading"), ({"cooperative": True, "players": 1}, "cooperative"),
    ({"populate": 99}, "populate"), ({"keep_of": 2, "players": 3}, "solo rule"),
    ({"colour": 3}, "unknown ShutterBug rule knob"),
])
def test_bad_config_is_one_line_input_error(knobs, match):
    with pytest.raises(InputError, match=match) as err:
        ShutterbugConfig.from_knobs(**knobs)
    assert "\n" not in str(err.value)


def test_bad_policy_and_policy_count():
    with pytest.raises(InputError, match="unknown ShutterBug policy"):
        make_policy("sneaky")
    with pytest.raises(InputError, match="look"):
        make_policy("greedy:seeing=2")
    with pytest.raises(InputError, match="3 players need 3 policies"):
        run_games(ShutterbugConfig(players=3), ["greedy"], 0, 2, 1)


def test_cli_simulate_and_bad_inputs_exit_2(capsys):
    rc = main(["simulate", "shutterbug", "--games", "40", "--seed", "1", "--quiet",
               "--players", "3", "--policies", "greedy,trader,random"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "trader" in out
    for argv in (["--players", "9"], ["--set", "rounds=0"], ["--policies", "nope"],
                 ["--components", "/no/such.toml"]):
        rc = main(["simulate", "shutterbug", "--games", "10", "--quiet", *argv])
        out, err = capsys.readouterr()
        assert rc == 2, argv
        assert len(err.strip().splitlines()) == 1, err


def test_report_builds_selected_studies(tmp_path):
    from snapsim.games.shutterbug.report import build

    index = build(tmp_path, games=20, seed=1, studies=["city", "team"], progress=False)
    assert index.exists()
    text = (tmp_path / "report.md").read_text()
    assert "city bonus" in text and "team game" in text
    with pytest.raises(InputError, match="unknown study"):
        build(tmp_path, games=20, studies=["dice"])


def test_solo_and_cooperative_are_labelled_as_variants_outside_the_rulebook(tmp_path, capsys):
    from snapsim.games.shutterbug.report import build

    build(tmp_path, games=10, seed=1, studies=["solo"], progress=False)
    text = (tmp_path / "report.md").read_text()
    section = text[text.index("8. Solo"):]
    assert "variants from other public sources, not rulebook rules" in section
    assert "Cooperative variant (not a rulebook rule)" in section
    # the shared command's help names no game's studies; a name the game lacks is refused
    # with its list, the solo study among them
    assert main(["report", "shutterbug", "--studies", "solitaire", "--games", "10"]) == 2
    err = capsys.readouterr().err
    assert "unknown study 'solitaire'; choose from " in err
    assert "solo" in err.split("choose from ")[1].split(", ")
    assert "not rulebook rules" in (ShutterbugConfig.__doc__ or "").replace("\n    ", " ")
