"""`snapsim play`: a seat at the terminal driven by scripted input, end to end for every game
(hints, a bad entry, save, load, auto, final scores); a saved game continues exactly as the
uninterrupted one; Ctrl-C offers to save; bad settings are one line and exit code 2."""

from __future__ import annotations

import io
import json
import re
from types import SimpleNamespace

import numpy as np
import pytest
from cli_helpers import cli, one_error_line
from numba import njit
from test_shutterbug_hidden import hide_differently as shutterbug_hide
from test_snapshot_policies import hide_differently as snapshot_hide
from test_yosemite_hidden import hidden_variant

from snapsim.games.snapshot.advisor import research_advice
from snapsim.games.snapshot.hints import situation
from snapsim.games.yosemite import YosemiteGame
from snapsim.odds.explore import face_success
from snapsim.play import choices, load, new_session, play, preparing, save, view
from snapsim.play.hints import hints
from snapsim.play.wins import Budget
from snapsim.protocol import new_game

GAMES = ("yosemite", "shutterbug", "snapshot")
FEW = Budget(rollouts=8)  # hints' rollouts per move: the numbers are the same on any machine


def script(*lines):
    """A `read` that answers the prompts with `lines`, then ends the input."""
    answers = iter(lines)

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return read


def played(session, *lines):
    out = []
    rc = play(session, read=script(*lines), write=out.append)
    return rc, "\n".join(out)


@pytest.mark.parametrize("game", GAMES)
def test_cli_game_with_hints_bad_entry_save_then_load_to_the_end(game, tmp_path, capsys,
                                                                 monkeypatch):
    saved = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("fly\n0\nhints\n1\nquit\n\n"))
    rc, out, err = cli(capsys, "play", game, "--players", 2, "--hints", "--hint-rollouts", 8,
                       "--seed", 3, "--save", saved)
    assert rc == 0, err
    assert "--- you are P1 ---" in out and "hints:" in out
    assert "'fly' is not a move here: type the number of a move" in out
    assert "'0' is not a move here" in out
    assert f"saved to {saved}; continue with: snapsim play {game} --load {saved}" in out
    assert json.loads(saved.read_text())["game"] == game

    monkeypatch.setattr("sys.stdin", io.StringIO("1\nauto\n"))
    rc, out, err = cli(capsys, "play", game, "--load", saved)
    assert rc == 0, err
    assert "greedy plays P1 from here" in out
    assert "game over" in out and "you were P1" in out
    header, *rows, last = out.rstrip().splitlines()[-4:]
    assert header.split()[0] == "seat" and header.split()[-1] == "won"
    assert [r.split()[0] for r in rows] == ["0", "1"]
    assert sum(float(r.split()[-1]) for r in rows) == 1.0  # the win shares


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_game_continues_exactly_as_the_uninterrupted_one(game, tmp_path):
    moves = ["1", "2", "1", "1"]
    whole = new_session(game, 2, seat=2, seed=8)
    rc, _ = played(whole, *moves, "auto")
    assert rc == 0 and whole.game.is_terminal

    first = new_session(game, 2, seat=2, seed=8)
    rc, out = played(first, *moves[:2], "quit", str(tmp_path / "g.json"))
    assert rc == 0 and not first.game.is_terminal
    resumed = load(tmp_path / "g.json")
    assert resumed.game.serialize() == first.game.serialize()
    rc, _ = played(resumed, *moves[2:], "auto")
    assert resumed.game.log == whole.game.log
    assert resumed.game.scores().equals(whole.game.scores())


def test_ctrl_c_offers_to_save_and_saves(tmp_path):
    session = new_session("yosemite", seed=1)

    def read(prompt):
        if prompt.startswith("save"):
            return str(tmp_path / "interrupted.json")
        raise KeyboardInterrupt

    out = []
    assert play(session, read=read, write=out.append) == 130
    assert out[-1].startswith(f"saved to {tmp_path / 'interrupted.json'}")
    assert load(tmp_path / "interrupted.json").game.serialize() == session.game.serialize()


def test_end_of_input_without_save_file_quits_unsaved():
    rc, out = played(new_session("shutterbug", 2, seed=2))
    assert rc == 0 and out.endswith("not saved")


ENGINE_WORDS = ("sideways:", "end triggered", "camping token: -1", "opponent hand size",
                ": False", ": True", "resolving:", "_")


@pytest.mark.parametrize("game, shown", [
    ("snapshot", [r"^  table:$", r"^    Shoreline \(explore: a die of 2 or more\)",
                  r"^  tracking tokens: you \d+, P2 \d+$", r"^  your assignment: "]),
    ("yosemite", [r"^  park \(animal/bonus", r"^    a  \[P1\]\w+/\w+ ",
                  r"^    e  (\S+\s+){4}\S+$", r"^  your hand: ", r"^  photos face up:$",
                  r"^  judges: \w", r"^  you: fish 2, tents 0, photos none$"]),
    ("shutterbug", [r"^  pawns:$", r"^    you: \w[\w ]* \(city\); not placed yet$",
                    r"^  your tips: ", r"^  tips held: you 3, P2 3"]),
])
def test_the_cli_screen_is_in_plain_words(game, shown, capsys, monkeypatch):
    """A scripted session: the first move, then a look at the screen it leads to."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n\n"))
    rc, out, err = cli(capsys, "play", game, "--players", 2, "--seed", 3)
    assert rc == 0, err
    screen = out.split("--- you are P1 ---")[-1]
    for pattern in shown:
        assert re.search(pattern, screen, re.M), (pattern, screen)
    body = [line for line in screen.splitlines() if not re.match(r"^\s+\d+\. ", line)]
    for word in ENGINE_WORDS:
        assert not any(word in line for line in body), word


def screen_player(out, prefs, limit=3000):
    """A player who reads the last menu on screen and types the number of the first move
    whose words match a preference (else 1)."""
    asked = []

    def read(prompt):
        asked.append(prompt)
        if len(asked) > limit:
            raise EOFError
        menu = next((m for line in reversed(out)
                     if (m := re.findall(r"^\s+(\d+)\. (.*)$", line, re.M))), [])
        return next((num for pref in prefs for num, text in menu if re.search(pref, text)),
                    "1")

    return read


def test_snapshot_screen_shows_the_dice_placed_and_every_roll():
    session = new_session("snapshot", 2, seed=0)
    out = []
    prefs = [r"^re-roll a die", r"^done placing tokens", r"^put a die on the \w+ habitat",
             r"^put a die on the", r"^stop"]
    assert play(session, read=screen_player(out, prefs), write=out.append) == 0
    text = "\n".join(out)
    assert session.game.is_terminal
    # Preparation: a die put on a habitat shows on the next screen
    placed = re.search(r"P1: put a die on the (\w+) habitat", text)
    after = text[placed.end():]
    assert re.search(rf"^    {placed.group(1)} \(explore: a die of \d or more\), 1 die on the "
                     "habitat", after, re.M)
    # every roll as it happens: dice, the value needed, the outcome
    rolls = re.findall(r"P1: resolve in \w+.* -> (\w+) explore (?:die|dice) rolled ([\d, ]+) "
                       r"\(needs a (\d) or more\): (explored|not explored)", text)
    assert rolls
    for _, dice, need, outcome in rolls:
        assert (max(map(int, dice.split(", "))) >= int(need)) == (outcome == "explored")
    animals = re.findall(r"(?:; |-> )([a-z -]+) rolled ([\d +]+)(?: \+ (\d+) tokens?)? = (\d+) "
                         r"\(needs (\d+)\): (photographed|missed)", text)
    assert animals
    for _, dice, tokens, total, need, outcome in animals:
        assert sum(map(int, dice.split(" + "))) + int(tokens or 0) == int(total)
        assert (int(total) >= int(need)) == (outcome == "photographed")
    # the re-roll decision shows the failed roll, and a 2-token re-roll is one choice
    failed = re.search(r"^  (\w+) is not explored yet: the exploring (?:die|dice) rolled "
                       r"[\d, ]+ \(needs a (\d) or more\); a re-roll costs 2 tokens", text, re.M)
    assert failed
    assert re.search(r"^\s+1\. re-roll a die, paying 2 tokens from your supply$", text, re.M)
    assert re.search(r"P1: pay a re-roll token from your supply \(forced\) -> \w+ re-rolled \d "
                     r"\(needs a \d or more\): (not )?explored", text)


def test_a_re_roll_is_one_choice_on_screen_and_token_by_token_in_the_step_api():
    g = new_game("snapshot", players=2, seed=2, policies=["random", "random"])
    while not (g.phase == "re-roll" and g.observation(g.current_player)["tokens"][
            g.current_player] >= 4):
        assert not g.is_terminal
        g.apply(g.policy_action())
    steps = g.legal_actions()
    assert {a.kind for a in steps} == {"re-roll token", "give up"}
    moves = choices(g)
    assert len(moves) == len(steps)  # here: the supply or give up, each once
    (chosen, played), = [m for m in moves if g.decode(m[0][0]).kind == "re-roll token"]
    assert [g.decode(c).kind for c in played[:2]] == ["re-roll token"] * 2
    tokens = g.observation(g.current_player)["tokens"][g.current_player]
    for code in chosen:
        g.apply(code)
    assert g.observation(g.current_player)["tokens"][g.current_player] <= tokens - 2 + 2 * \
        (g.phase != "re-roll")  # paid two (given back only if the habitat is given up)


@pytest.mark.parametrize("name", GAMES)
def test_the_screen_does_not_change_with_what_the_seat_cannot_see(name):
    """Another seat's hidden hand or assignment and the deck order re-dealt: the seat's
    screen stays the same, line for line."""
    for g in positions(name, seed=5, every=7, count=4):
        me = g.current_player
        before = view(SimpleNamespace(game=g, seat=me))
        twin = g.clone()
        HIDE[name](twin, 7)
        assert not np.array_equal(twin.state, g.state)
        assert view(SimpleNamespace(game=twin, seat=me)) == before


def test_a_first_compile_is_announced_once():
    out = []
    with preparing("yosemite", out.append):
        njit(lambda x: x + 1)(1)  # a function no cache holds: compiled here
        njit(lambda x: x + 2)(1)
    assert out == [f"preparing the game engine, about {YosemiteGame.PREPARE_SECONDS} s on an "
                   "idle machine (longer while it is busy), once (later games start at once)"]


@pytest.mark.parametrize("argv, message", [
    (["yosemite", "--seat", "3"], "--seat must be 1-2 for 2 players, got 3"),
    (["shutterbug", "--players", "3", "--opponents", "greedy,greedy,greedy"],
     "--opponents: give one policy for all or 2 (one per other seat), got 3"),
    (["yosemite", "--opponents", "sleepy"], "unknown Yosemite policy 'sleepy'"),
    (["yosemite", "--load", "missing.json"], "--load missing.json: cannot read it"),
    (["yosemite", "--save", "a.json", "--load", "b.json"], "not allowed with argument"),
    (["yosemite", "--load", ""], "--load is empty: give a value"),
    (["yosemite", "--save", " "], "--save is empty: give a value"),
    (["yosemite", "--opponents", ""], "--opponents is empty: give a value"),
])
def test_bad_settings_are_one_line_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    rc, _, err = cli(capsys, "play", *argv)
    assert rc == 2
    assert message in one_error_line(err)


def test_a_saved_game_of_another_game_is_one_line(tmp_path, capsys):
    played(new_session("yosemite", seed=1), "quit", str(tmp_path / "y.json"))
    rc, _, err = cli(capsys, "play", "shutterbug", "--load", tmp_path / "y.json")
    assert rc == 2
    assert f"--load {tmp_path / 'y.json'} holds a yosemite game, not shutterbug" in \
        one_error_line(err)


def test_a_file_that_is_not_a_saved_game_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"snapsim_play": 2, "game": "yosemite"}')
    rc, _, err = cli(capsys, "play", "yosemite", "--load", bad)
    assert rc == 2
    assert f"--load {bad}: not a saved snapsim game" in one_error_line(err)


def yosemite_hide(g, seed):
    g.state[:] = hidden_variant(g.state, g._comp, g.current_player, seed)


HIDE = {"snapshot": snapshot_hide, "yosemite": yosemite_hide, "shutterbug": shutterbug_hide}


def positions(name, seed, every, count):
    """Positions of a greedy game (`count` of them, `every` decisions apart)."""
    g = new_game(name, seed=seed)
    for _ in range(count):
        for _ in range(every):
            g.apply(g.policy_action())
        yield g


@pytest.mark.parametrize("name", GAMES)
def test_hints_do_not_change_with_what_the_seat_cannot_see(name):
    """Deck order, the other seats' hidden hands and assignments redealt: the seat's hints
    (every number and the greedy pick) stay the same."""
    shown = 0
    for g in positions(name, seed=5, every=9, count=4):
        me = g.current_player
        before = hints(g, me, FEW)
        twin = g.clone()
        HIDE[name](twin, 7)
        assert not np.array_equal(twin.state, g.state)
        assert hints(twin, me, FEW) == before
        shown += len(before.splitlines()) > 2
    assert shown  # some position had numbers, not only the greedy pick


def test_snapshot_research_hint_is_the_advisors_numbers_for_the_seats_situation():
    g = new_game("snapshot", players=2, seed=1)
    assert g.phase == "research"
    me = g.current_player
    r = research_advice(situation(g, me), components=g.config.components)
    text = hints(g, me, FEW)
    assert f"P(spook) {r['p_spook_next']:.3f}" in text
    assert f"draw {r['value_draw']:.2f}, stop {r['value_stop']:.2f}" in text
    # only cards the seat has not seen count: the table's animals are not among them
    assert r["unseen_cards"] == int(g.observation(me)["deck_size"])


def test_snapshot_reroll_hint_gives_p_explored_after_each_reroll():
    for g in positions("snapshot", seed=2, every=1, count=3000):
        if g.phase == "re-roll":
            break
    assert g.phase == "re-roll"
    me = g.current_player
    text = hints(g, me, FEW)
    resolved = [line for line in g.log if f"P{me + 1}: resolve in " in line][-1]
    habitat = next(h for h in g.config.components.habitats if f"resolve in {h.name}" in resolved)
    q = 1 - face_success(habitat.explore)
    k = g.observation(me)["tokens"][me] // g.config.reroll_cost
    assert k >= 1
    want = ", ".join(f"{i}: {1 - q ** i:.3f}" for i in range(1, k + 1))
    assert f"{habitat.name} (explore {habitat.explore}): P(explored) after k more re-rolls " \
           f"from the supply: {want}" in text


def test_what_another_seat_got_in_a_trade_stays_hidden():
    session = new_session("shutterbug", 3, seed=1, opponents="trader")
    rc, out = played(session, "auto")
    assert rc == 0 and session.game.is_terminal
    others = [line for line in session.game.log if "-> got" in line and " P1: " not in line]
    assert others  # the traders did trade
    shown = out.splitlines()
    assert all(" P1: " in line for line in shown if "-> got" in line)
    for line in others:
        assert f"  {line.split(' -> got ')[0]}" in shown


def test_a_huge_number_at_the_prompt_is_not_a_move():
    # a million digits: no integer conversion of it is even tried
    rc, out = played(new_session("yosemite", 2, seed=1), "9" * 1_000_000, "quit")
    assert rc == 0 and "'99999999999999999...' is not a move here" in out


@pytest.mark.parametrize("edit", ["move", "policy move", "extra move", "settings"])
def test_an_edited_save_is_refused_in_one_line(tmp_path, capsys, edit):
    session = new_session("yosemite", 2, seat=2, seed=4)
    played(session, "1", "2", "quit", str(tmp_path / "g.json"))
    body = json.loads((tmp_path / "g.json").read_text())
    if edit == "move":  # a move that is not legal there
        body["moves"][-1][0] = 10**6
    elif edit == "policy move":  # a move the built-in player would not make
        k = next(i for i, (_, by_policy) in enumerate(body["moves"]) if by_policy)
        body["moves"][k][0] = next(code for code in
                                   new_session("yosemite", 2, seat=2, seed=4)
                                   .game.legal_action_ids().tolist()
                                   if code != body["moves"][k][0])
    elif edit == "extra move":
        body["moves"].append([0, 0])
        body["moves"] *= 500
    else:
        body["seed"] = -5
    (tmp_path / "g.json").write_text(json.dumps(body))
    rc, _, err = cli(capsys, "play", "yosemite", "--load", tmp_path / "g.json")
    assert rc == 2
    line = one_error_line(err)
    assert "cannot be played there" in line or "not a saved snapsim game" in line


def test_a_yosemite_photo_and_its_payment_are_one_choice_on_screen():
    """A photo paid animal by animal in the step API is one move on screen per way to pay,
    named by the tiles it costs; choosing it pays exactly those tiles."""
    g = new_game("yosemite", seed=0, policies=["greedy", "greedy"])
    for _ in range(22):  # to a camera decision with two ways to pay one photo (found by search)
        g.apply(g.policy_action())
    assert g.phase == "camera"
    moves = choices(g)
    texts = [g.choice_to_string(chosen, done) for chosen, done in moves]
    assert texts == ["take the photo in slot 2, paying 1 bighorn sheep tile, 1 black bear tile",
                     "take the photo in slot 2, paying 2 bighorn sheep tiles, 1 black bear tile",
                     "take no photo"]
    chosen, _ = moves[1]
    assert len(chosen) == 2 and g.decode(chosen[1]).kind == "pay"  # the step API's own steps
    me = g.current_player
    hand = g.observation(me)["hand"]
    for code in chosen:
        g.apply(code)
    after = g.observation(me)["hand"]
    assert {a: hand[a] - after.get(a, 0) for a in hand if hand[a] != after.get(a, 0)} == \
        {"bighorn sheep": 2, "black bear": 1}


def test_hints_and_advice_once_the_deck_has_run_out_draw_from_the_discard_pile(tmp_path,
                                                                               capsys):
    # drawing from an empty deck is legal: the discard pile is shuffled into a new deck
    session = new_session("snapshot", seed=0)
    g, me = session.game, session.seat
    while not (g.phase == "research" and g.current_player == me
               and g.observation(me)["deck_size"] == 0):
        assert not g.is_terminal
        session.apply(g.policy_action(), by_policy=True)
    discards = g.observation(me)["discards"]
    assert discards and "draw" in [g.action_to_string(a) for a in g.legal_action_ids()]
    r = research_advice(situation(g, me), components=g.config.components)
    assert r["reshuffled"] and r["unseen_cards"] == len(discards)
    assert sorted(r["cards"].card) == sorted(discards)  # every discarded card, once
    session.budget = FEW
    rc, out = played(session, "hints", "quit")
    assert rc == 0 and "game over" not in out
    assert f"over the {len(discards)} cards of the discard pile, shuffled into a new deck" in out
    saved = tmp_path / "empty-deck.json"
    save(session, saved)
    rc, out, err = cli(capsys, "advise", "--load", saved, "--rollouts", 4)
    assert rc == 0, err
    assert f"over the {len(discards)} cards of the discard pile" in out
