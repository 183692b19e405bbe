"""Yosemite play: invariants over many playthroughs, batch = step API, reproducibility,
policies, the registry and the command line."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from yosemite_helpers import BEAR, COUGAR, FOX, SNAKE, camera_turn, check_invariants, code, hand

from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.games.yosemite import YosemiteConfig, YosemiteGame, make_policy, run_games
from snapsim.games.yosemite import engine as E
from snapsim.games.yosemite import policies as P
from snapsim.sim import simulate
from snapsim.sim.kernel import game_rngs, policy_arrays, randint, root_keys


def random_playthrough(config, seed, game):
    """A game of uniformly random legal actions, checking invariants at every turn start."""
    key0, key1 = root_keys(seed)
    rng = game_rngs(np.uint64(key0), np.uint64(key1), game)
    cfg, comp = config.to_array(), config.comp_vector()
    buf = E.action_buffer()
    st = E.new_game(cfg, comp, rng)
    n = E.settle(st, cfg, comp, rng, buf)
    while st[E.PHASE] != E.PH_OVER:
        if st[E.PHASE] in (E.PH_FISH, E.PH_EXPLORE):
            check_invariants(st, config)
        assert n >= 2 and len(set(buf[:n])) == n
        n = E.step(st, cfg, comp, rng, buf[randint(rng, 1, n)], buf)
    return st


@pytest.mark.parametrize("knobs", [{}, {"tiles_dealt": 5}, {"hand_limit": 4},
                                   {"wilds": False, "photo_slots": 3, "judges": 5}])
def test_random_playthroughs_keep_invariants_YO_RST_3_YO_END_1(knobs):
    config = YosemiteConfig(**knobs)
    for game in range(60):
        st = random_playthrough(config, 7, game)
        check_invariants(st, config)
        if not st[E.TRUNCATED]:  # clause YO-END-1: 9 photos taken and one left face up
            assert st[E.PHOTOS] + st[E.PHOTOS + 1] == 20 - config.photos_removed - \
                config.photo_slots + 1


def test_batch_invariants_and_score_parts():
    df = run_games(YosemiteConfig(), ["greedy", "random"], 0, 400, 5)
    assert (df.score == df.photo_points + df.camping + df.judges + df.landmarks).all()
    assert df.groupby("game").won.sum().eq(1.0).all()
    assert df.fish.between(0, 5).all() and (df.hand <= 10).all()
    assert (df.truncated == 0).all()
    assert df.groupby("game")["first"].sum().eq(1).all()
    uses = df[[c for c in df if c.startswith("use_") and "points" not in c]].sum(axis=1)
    bonus = df[["bonus_fish", "bonus_tent", "bonus_camera"]].sum(axis=1)
    assert (uses == bonus).all()  # every animal move collects one tile with one icon
    greedy = df[df.policy == "greedy"]
    assert greedy.won.mean() > 0.8


@pytest.mark.parametrize("policies", [["greedy", "greedy"], ["random", "greedy"],
                                      ["rollout:rollouts=1", "random"],
                                      ["search:rollouts=1:margin=0", "greedy"]])
def test_batch_and_step_api_play_the_same_games(policies):
    config = YosemiteConfig()
    games = 3 if policies[0].startswith(("rollout", "search")) else 8
    df = run_games(config, policies, 0, games, 11)
    for game in range(games):
        g = YosemiteGame(config, seed=11, game=game, policies=policies)
        g.play()
        sheet = g.scores()
        row = df[df.game == game].sort_values("seat")
        assert list(row.score) == list(sheet.score)
        assert list(row.won) == list(sheet.won)
        assert g.log and all(line.startswith("turn ") for line in g.log)


# 1,000 games in all, every policy kind and a variant: the step API plays a game in about
# 10-40 ms (random games are the longest, rollouts the slowest per decision), so this takes
# about 20 s with the JIT on; the two 350-game runs are in the slow set (the default run
# still plays every kind, greedy against random in 150 games and in the variant)
EQUAL_RUNS = [pytest.param(["random", "random"], {}, 350, marks=pytest.mark.slow),
              pytest.param(["greedy", "greedy"], {}, 350, marks=pytest.mark.slow),
              (["greedy", "random"], {}, 150), (["rollout:rollouts=1", "greedy"], {}, 50),
              (["search:rollouts=1:candidates=2:margin=0", "greedy"], {}, 30),
              (["greedy", "random"], {"wilds": False, "photo_slots": 3, "hand_limit": 4}, 100)]
RUNS = [getattr(run, "values", run) for run in EQUAL_RUNS]
assert sum(run[2] for run in RUNS) >= 1000
assert {p.split(":")[0] for run in RUNS for p in run[0]} == set(P.KIND_NAMES)


@pytest.mark.parametrize("policies,knobs,games", EQUAL_RUNS)
def test_batch_table_is_the_step_api_game_for_game(policies, knobs, games):
    """Every row of the batch table is the game the step API plays with the same seed: all
    four score parts, photos, tents, fish, hand, turns and the win share, for both seats."""
    config = YosemiteConfig(**knobs)
    df = run_games(config, policies, 0, games, 23).sort_values(["game", "seat"])
    batch = df[["score", "photo_points", "camping", "judges", "landmarks", "photos", "tents",
                "fish", "hand", "turns", "won"]].to_numpy().tolist()
    step = []
    for game in range(games):
        g = YosemiteGame(config, seed=23, game=game, policies=policies)
        while not g.is_over():
            g.apply(g.policy_action())
        s, sheet = g.state, g.scores()
        for p in range(2):
            step.append([*(int(sheet[c][p]) for c in ("score", "photos", "camping", "judges",
                                                       "landmarks")),
                         int(s[E.PHOTOS + p]), int(s[E.TENTS + p]), int(s[E.FISH + p]),
                         int(E.hand_size(s, p)), int(s[E.TURN]), float(sheet.won[p])])
    assert batch == step


def test_simulate_is_independent_of_threads_and_chunks():
    a = simulate("yosemite", policies=["greedy", "random"], games=300, seed=4, threads=1)
    b = simulate("yosemite", policies=["greedy", "random"], games=300, seed=4, threads=2,
                 chunk_size=70)
    pd.testing.assert_frame_equal(a, b)


def test_policy_action_is_always_legal_and_start_square_is_a_decision():
    for kind in ("greedy", "random"):
        g = YosemiteGame(seed=2, policies=[kind, kind])
        assert g.phase == "start square"
        while not g.is_over():
            act = g.policy_action()
            assert act.code in {a.code for a in g.legal_actions()}
            g.apply(act)


def test_rollout_and_search_are_deterministic():
    a = run_games(YosemiteConfig(), ["rollout:rollouts=2", "greedy"], 0, 4, 9)
    b = run_games(YosemiteConfig(), ["rollout:rollouts=2", "greedy"], 0, 4, 9)
    pd.testing.assert_frame_equal(a, b)
    lineup = ["search:rollouts=2:margin=0", "greedy"]
    pd.testing.assert_frame_equal(run_games(YosemiteConfig(), lineup, 0, 4, 9),
                                  run_games(YosemiteConfig(), lineup, 0, 4, 9))


def test_determinize_samples_only_what_the_seat_cannot_see():
    g = YosemiteGame(seed=1)
    s = g.state.copy()
    rng = game_rngs(np.uint64(3), np.uint64(4), 0)
    P.determinize(s, g._comp, rng, 0, np.empty(E.N_TILES, np.int64))

    def where(st, t):
        return int(st[E.TILE_LOC + t]), int(st[E.TILE_OWNER + t])

    mine = [t for t in range(E.N_TILES) if where(g.state, t) == (E.L_HAND, 0)]
    assert all(where(s, t) == (E.L_HAND, 0) for t in mine)  # own hand kept
    assert E.hand_size(s, 1) == E.hand_size(g.state, 1) == 3
    theirs = {t for t in range(E.N_TILES) if where(s, t) == (E.L_HAND, 1)}
    assert theirs != {t for t in range(E.N_TILES) if where(g.state, t) == (E.L_HAND, 1)}
    assert all(where(g.state, t)[0] in (E.L_DECK, E.L_HAND) for t in theirs)  # never seen
    deck = lambda st: sorted(st[E.DECK:E.DECK + st[E.N_DECK]])  # noqa: E731
    assert len(deck(s)) == len(deck(g.state)) and s[E.N_PHOTO_DECK] == g.state[E.N_PHOTO_DECK]
    assert sorted(deck(s) + sorted(theirs)) == sorted(
        deck(g.state) + [t for t in range(E.N_TILES) if where(g.state, t) == (E.L_HAND, 1)])
    slots = lambda st: list(st[E.SLOT:E.SLOT + E.MAX_SLOTS])  # noqa: E731
    assert slots(s) == slots(g.state)


def test_observation_hides_the_opponent_hand():
    g = YosemiteGame(seed=0)
    obs = g.observation(0)
    assert sum(obs["hand"].values()) == 3 and obs["opponent_hand_size"] == 3
    assert len(obs["park"]) == 5 and obs["photo_deck"] == 8
    with pytest.raises(InputError):
        g.observation(2)


def test_bad_policy_and_policy_count():
    with pytest.raises(InputError, match="unknown Yosemite policy"):
        make_policy("clever")
    with pytest.raises(InputError, match="2 players need 2"):
        run_games(YosemiteConfig(), ["greedy"] * 3, 0, 1, 0)


@pytest.mark.parametrize("argv,needle", [
    (["--players", "3"], "two-player"), (["--set", "hand_limit=40"], "hand_limit"),
    (["--policies", "greedy:zap=1"], "zap"), (["--set", "photo_target=3"], "photo_target"),
    (["--components", "/no/such/yosemite.toml"], "yosemite.toml"),
])
def test_cli_bad_input_is_one_line_exit_2(capsys, argv, needle):
    rc = main(["simulate", "yosemite", "--games", "5", "--quiet", *argv])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err


@pytest.mark.slow  # two processes; test_cli_simulate's process exit code runs by default
def test_cli_simulate_runs_and_process_exit_code():
    proc = subprocess.run([sys.executable, "-m", "snapsim", "simulate", "yosemite", "--games",
                           "20", "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "snapsim", "simulate", "yosemite", "--games",
                           "5", "--set", "tiles_dealt=99"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1


@pytest.mark.parametrize("judge,kept", [(FOX, [1, 0, 0, 0, 0]), (BEAR, [0, 0, 1, 0, 0])])
def test_greedy_pays_for_a_photo_with_the_tiles_worth_least(judge, kept):
    """El Capitan paid from a fox, two snakes, a bear and two cougars: greedy keeps the tile
    the only judge in play likes, paying with the cougar pair instead."""
    g, el_cap = camera_turn({SNAKE: 2, BEAR: 1, COUGAR: 2}, config=YosemiteConfig(photo_slots=1))
    g.state[E.JUDGE_IN:E.JUDGE_IN + 5] = 0
    g.state[E.JUDGE_IN + judge] = 1
    while not g.is_over() and g.current_player == 0:
        g.apply(g.policy_action())
    assert g.state[E.PHOTO_OWNER + el_cap] == 0 and hand(g, 0) == kept


def test_random_chooses_among_every_legal_payment():
    g, _ = camera_turn({SNAKE: 2, BEAR: 1, COUGAR: 2})
    g.apply(code(E.A_PHOTO, 0))
    kinds, params = policy_arrays([make_policy("random")])
    buf = E.action_buffer()
    n = E.legal_actions(g.state, g._cfg, g._comp, buf)
    picks = {int(P.policy_action(g.state, g._cfg, g._comp, np.array([0, s], np.uint64),
                                 kinds[0], params[0], buf, n, P.new_memory(), None))
             for s in range(40)}
    assert picks == {code(E.A_PAY, 0), code(E.A_PAY, 1)}
