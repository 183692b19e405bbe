"""The one step protocol of the three games (snapsim.protocol): ids and masks, rewards, clone
and serialize, seat observations, and the batch's games when the built-in policies play."""

import json

import numpy as np
import pytest
from test_shutterbug_hidden import hide_differently as shutterbug_hide
from test_snapshot_policies import hide_differently as snapshot_hide
from test_yosemite_hidden import hidden_variant

from snapsim.errors import InputError
from snapsim.games.shutterbug.api import ShutterbugGame
from snapsim.games.shutterbug.api import run_games as shutterbug_runs
from snapsim.games.snapshot.api import SnapshotGame
from snapsim.games.snapshot.api import run_games as snapshot_runs
from snapsim.games.yosemite.api import YosemiteGame
from snapsim.games.yosemite.api import run_games as yosemite_runs
from snapsim.protocol import GameState, game_class, new_game

GAMES = ("snapshot", "yosemite", "shutterbug")


def advanced(name: str, moves: int, seed: int = 3) -> GameState:
    """Game `name` after `moves` decisions of its greedy policies."""
    g = new_game(name, seed=seed)
    for _ in range(moves):
        g.apply(g.policy_action())
    return g


def play_on(g: GameState, moves: int) -> list[int]:
    """Play `moves` decisions of the seats' policies; the ids played."""
    played = []
    for _ in range(moves):
        if g.is_terminal:
            break
        a = g.policy_action()
        played.append(int(a))
        g.apply(a)
    return played


@pytest.mark.parametrize("name", GAMES)
def test_actions_are_ids_in_range_and_the_mask_marks_exactly_them(name):
    g = new_game(name, seed=2)
    seen = 0
    while not g.is_terminal and seen < 40:
        acts = g.legal_actions()
        mask = g.legal_action_mask()
        assert mask.shape == (g.num_distinct_actions,) and mask.dtype == bool
        assert sorted(acts) == list(np.flatnonzero(mask))
        assert all(isinstance(a, int) and a.code == int(a) and a.kind for a in acts)
        assert [g.decode(a).kind for a in acts] == [a.kind for a in acts]
        g.apply(g.policy_action())
        seen += 1
    assert g.info.num_distinct_actions == g.num_distinct_actions
    assert g.info.observation_shape == g.observation_tensor(0).shape


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_zero_until_the_last_move_then_the_win_shares(name):
    g = new_game(name, seed=5)
    moves = 0
    while not g.is_terminal:
        assert not g.rewards().any() and not g.returns().any()
        g.apply(g.policy_action())
        moves += 1
    shares = g.scores()["won"].to_numpy()
    assert np.array_equal(g.rewards(), shares) and np.array_equal(g.returns(), shares)
    assert g.returns().sum() == pytest.approx(1.0)
    assert g.current_player == -1 and g.legal_actions() == [] and not g.legal_action_mask().any()
    assert moves <= g.max_game_length


@pytest.mark.parametrize("name", GAMES)
def test_clone_and_deserialize_play_on_exactly_as_the_original(name):
    g = advanced(name, 25)
    twin = g.clone()
    loaded = game_class(name)(g.config, seed=99).deserialize(g.serialize())
    assert loaded.serialize() == g.serialize()
    played = play_on(g, 10_000)
    assert play_on(twin, 10_000) == played and play_on(loaded, 10_000) == played
    for other in (twin, loaded):
        assert np.array_equal(other.state, g.state) and np.array_equal(other._rng, g._rng)
        assert np.array_equal(other.returns(), g.returns())
    assert twin.log == g.log


@pytest.mark.parametrize("name", GAMES)
def test_a_position_saved_at_any_decision_continues_as_the_game_did(name):
    """Saved between any two decisions, mid-turn included (Snapshot's and Yosemite's greedy
    keep their turn's plan in the policies' memory), a loaded game makes the moves the game
    made."""
    g = new_game(name, seed=5)
    for _ in range(120):
        if g.is_terminal:
            break
        loaded = game_class(name)(g.config, seed=99).deserialize(g.serialize())
        assert play_on(loaded, 3) == play_on(g.clone(), 3)
        g.apply(g.policy_action())


@pytest.mark.parametrize("name, policies", [
    ("snapshot", ["search:rollouts=1:candidates=1", "greedy"]),
    ("yosemite", ["search:rollouts=1", "rollout:rollouts=1"])])
def test_a_position_keeps_the_plan_not_the_search_work_space(name, policies):
    """A position carries the head of the policies' memory that carries between decisions
    (the plan), not the searches' work space after it, which each decision writes before
    reading: a searching game loaded from it plays on as the game does, and so does one
    loaded from a position holding the whole memory, as earlier versions saved it."""
    g = new_game(name, seed=6, players=2, policies=policies)
    for i in range(80):
        if g.is_terminal:
            break
        data = json.loads(g.serialize())
        assert len(data["memory"]) == g.KEPT_MEMORY < g._memory.shape[0]
        loaded = game_class(name)(g.config, seed=99, policies=policies).deserialize(
            g.serialize())
        assert play_on(loaded, 2) == play_on(g.clone(), 2)
        if i % 20 == 0:
            data["memory"] = g._memory.tolist()
            older = game_class(name)(g.config, seed=99, policies=policies).deserialize(
                json.dumps(data))
            assert play_on(older, 2) == play_on(g.clone(), 2)
        g.apply(g.policy_action())
    data = json.loads(g.serialize())
    data["memory"] = data["memory"][:-1]
    with pytest.raises(InputError, match=f"not a serialized {name} position"):
        game_class(name)(g.config, seed=99, policies=policies).deserialize(json.dumps(data))


def test_deserialize_refuses_another_game_in_one_line():
    data = new_game("yosemite").serialize()
    with pytest.raises(InputError, match="not a serialized snapshot position"):
        new_game("snapshot").deserialize(data)
    with pytest.raises(InputError, match="not a serialized snapshot position"):
        new_game("snapshot").deserialize(b"{broken")


@pytest.mark.parametrize("name", GAMES)
def test_asking_for_a_move_leaves_the_game_byte_identical(name):
    g = advanced(name, 12)
    for _ in range(30):
        if g.is_terminal:
            break
        before, rng, data = g.state.tobytes(), g._rng.tobytes(), g.serialize()
        g.policy_action()
        g.legal_actions()
        g.observation_tensor(0)
        assert g.state.tobytes() == before and g._rng.tobytes() == rng
        assert g.serialize() == data
        g.apply(g.legal_actions()[-1])  # a move of our own: the policy's scratch is dropped


@pytest.mark.parametrize("name, runs, knobs, policies", [
    ("snapshot", snapshot_runs, {"players": 3}, ["random", "greedy", "cautious"]),
    ("yosemite", yosemite_runs, {}, ["random", "greedy"]),
    ("shutterbug", shutterbug_runs, {"players": 3}, ["random", "greedy", "trader"]),
])
def test_protocol_play_is_the_batch_game(name, runs, knobs, policies):
    cls = game_class(name)
    config = cls.CONFIG.from_knobs(**knobs)
    df = runs(config, policies, 0, 3, 17)
    for i in range(3):
        g = cls(config, seed=17, game=i, policies=policies)
        while not g.is_terminal:
            g.apply(g.policy_action())
        rows = df[df.game == i]
        assert list(g.scores()["score"]) == list(rows.score)
        assert list(g.returns()) == list(rows.won)


def observation_unchanged(g: GameState, hide) -> None:
    """`hide` changes only what the seat to move cannot see: its observation and tensor stay."""
    me = g.current_player
    before, tensor, state = g.observation(me), g.observation_tensor(me), g.state.copy()
    hide(g)
    assert not np.array_equal(g.state, state)  # something hidden did change
    assert g.observation(me) == before
    assert np.array_equal(g.observation_tensor(me), tensor)


def test_snapshot_seat_sees_neither_the_deck_order_nor_other_assignments():
    g = advanced("snapshot", 20)
    observation_unchanged(g, lambda h: snapshot_hide(h, 1))
    me = g.current_player
    tensor = g.observation_tensor(me)
    g.state[SnapshotGame.ENGINE.ASSIGN + me] += 1  # its own assignment is seen
    assert not np.array_equal(g.observation_tensor(me), tensor)


def test_yosemite_seat_sees_neither_the_opponents_hidden_tiles_nor_the_decks():
    E = YosemiteGame.ENGINE
    g = new_game("yosemite", seed=3)

    def hidden_tiles():
        return [t for t in range(E.N_TILES) if g.state[E.TILE_LOC + t] == E.L_HAND
                and g.state[E.TILE_OWNER + t] != g.current_player and not g.state[E.SEEN + t]]

    while len(hidden_tiles()) < 2:  # a position where the seat has not seen two of them
        g.apply(g.policy_action())
    observation_unchanged(g, lambda h: h.state.__setitem__(
        slice(None), hidden_variant(h.state, h._comp, h.current_player, 4)))
    me = g.current_player
    tensor = g.observation_tensor(me)
    g.state[E.HAND + me * E.N_ANIMALS] += 1  # its own hand is seen
    assert not np.array_equal(g.observation_tensor(me), tensor)


def test_shutterbug_seat_sees_neither_other_hands_nor_the_deck_and_bag():
    g = advanced("shutterbug", 20)
    observation_unchanged(g, lambda h: shutterbug_hide(h, 2))
    E = ShutterbugGame.ENGINE
    me = g.current_player
    tensor = g.observation_tensor(me)
    g.state[E.HAND + me * E.N_TYPES] += 1  # its own hand is seen
    assert not np.array_equal(g.observation_tensor(me), tensor)


@pytest.mark.parametrize("name", GAMES)
def test_tensor_layout_names_every_entry(name):
    g = new_game(name)
    layout = g.tensor_layout()
    assert sum(size for _, size in layout) == g.observation_shape[0]
    assert len({part for part, _ in layout}) == len(layout)
    assert g.observation_tensor(0).dtype == np.float32


def test_bad_player_game_and_action_are_one_line_input_errors():
    g = new_game("shutterbug", players=3)
    for bad in (3, -1, True, "0"):
        with pytest.raises(InputError, match="player must be 0-2"):
            g.observation_tensor(bad)
    with pytest.raises(InputError, match="unknown game 'chess'"):
        new_game("chess")
    with pytest.raises(InputError, match="not legal now"):
        g.apply(10 ** 6)


def test_docs_page_lists_each_games_tensor_layout_in_order():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs/api/protocol.md").read_text()
    for name in GAMES:
        g = new_game(name)
        rows = "".join(f"| `{part}` | {size} |\n" for part, size in g.tensor_layout())
        assert f"{g.observation_shape[0]} entries, {g.num_distinct_actions} action ids" in page
        assert rows in page
