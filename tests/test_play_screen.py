"""The play screen explains itself: running scores, the rule of each kind of move, why a move
is not offered, ShutterBug's map, `help` at the prompt and `undo` (scripted sessions: the
answers fed to the prompt one line at a time, as from a pipe)."""

from snapsim.play import new_session, play


def _session(game, answers, players, seed=3):
    """Play `answers` at the prompt; (the session, everything written and asked)."""
    session = new_session(game, players=players, seed=seed)
    lines, todo = [], iter(answers)

    def read(prompt):
        lines.append(prompt)
        try:
            return next(todo)
        except StopIteration:
            raise EOFError from None

    play(session, read=read, write=lines.append)
    return session, "\n".join(map(str, lines))


def test_snapshot_screen_scores_rules_and_undo():
    session, text = _session("snapshot", ["1", "1", "1", "undo", "quit", ""], players=2)
    assert "score so far: you 0, P2 0 (yours: animals 0, awards 0, cover 0, article 0" in text
    assert "[1-2, auto, hints, undo, save, quit, help]" in text
    assert "(draw: the next card of the deck" in text
    # seed 3: P1 draws the atlantic puffin, lower than the great white shark of its habitat
    assert "(spook: the card is lower than the animals of its habitat" in text
    assert "not available: place: the card is lower than the animals of its habitat" in text
    assert "(reserve: keep the card in front of you" in text
    # undo took back the draw and P2's pass after it: the game is the one before the draw
    assert "undone: 2 step move(s) taken back" in text
    before, _ = _session("snapshot", ["1", "1", "quit", ""], players=2)
    assert session.moves == before.moves
    assert session.game.serialize() == before.game.serialize()


def test_help_lists_every_word_the_prompt_takes():
    _, text = _session("snapshot", ["help", "quit", ""], players=2)
    assert "undo (take back your last move, against built-in players)" in text
    assert "help" in text.split("type the number of a move, or:")[1]


def test_yosemite_screen_scores_and_undo():
    session, text = _session("yosemite", ["1", "1", "undo", "quit", ""], players=2)
    assert "score so far: you 0, P2 0 (yours: photos 0, camping 0, judges 0, landmarks 0" in text
    assert "undone: 1 step move(s) taken back" in text
    assert session.game.current_player == 0 and session.game.phase == "eat fish"


def test_shutterbug_screen_map_and_why_no_photograph():
    session, text = _session("shutterbug", ["1"] * 5 + ["quit", ""], players=4)
    comp = session.game.config.components
    at = session.game.observation(0)["pawns"][0][0]
    here = comp.spaces[comp.space_index(at)]
    line = text.split(f"your pawn at {at} (")[-1].split("\n")[0]
    neighbours = line.split("; next to it: ")[1]
    assert [part.split(" (")[0] for part in neighbours.split("); ")] == [
        comp.spaces[j].name for j in here.adjacent]
    assert "photo tiles within 3 spaces (a turn's move): " in text
    # seed 3: the pawn's third step enters a Jackalope photo tile without a Jackalope tip
    assert ("not available: photograph the Jackalope (quality 3) at Mountain 2: you hold no "
            "tip showing the Jackalope (the first tip must)") in text


def test_yosemite_screen_reminds_each_rule_as_its_moves_appear():
    _, text = _session("yosemite", ["1", "1", "1", "quit", ""], players=2)
    for rule in ("(start: put your pawn on any animal tile of the Park, not the other pawn's",
                 "(eat fish: each fish eaten moves your pawn one space",
                 "(stop eating: keep the fish left on your track",
                 "(A: move one space in any direction and add a fish (at most 5)",
                 "(B: move as the animal tile you stand on allows"):
        assert rule in text, rule


def test_yosemite_says_why_an_explore_option_is_not_offered():
    """On a landmark tile: B needs an animal tile; C needs the landmark's token still there
    (the positions found in greedy games, the reason checked against the Park)."""
    from snapsim.games.yosemite.screen import unavailable
    from snapsim.protocol import new_game

    said = set()
    for seed in range(4):
        g = new_game("yosemite", seed=seed)
        while not g.is_terminal:
            me = g.current_player
            kinds = {g.decode(a).kind for a in g.legal_action_ids().tolist()}
            why = unavailable(g, me, kinds)
            obs = g.observation(me)
            at = obs["pawns"][me]
            tile = obs["park"]["abcde".index(at[0])][int(at[1:]) - 1] if at else ""
            if g.phase == "explore" and tile.endswith("(landmark)"):
                assert "B: you stand on a landmark tile; only an animal tile gives a move (B)" \
                    in why
                name = tile.split(" (")[0]
                assert (obs["landmark_tokens"][name] != "park") == any(
                    w.startswith(f"C: the {name} token has been taken already") for w in why)
                said.update(w[:2] for w in why)
            elif g.phase != "explore":
                assert why == []
            g.apply(g.policy_action())
    assert said == {"B:", "C:"}


def test_shutterbug_screen_reminds_moving_and_stopping():
    _, text = _session("shutterbug", ["1"] * 5 + ["quit", ""], players=4)
    assert "(start: put your pawn on a starting city; several pawns may share one" in text
    assert "(move: one space at a time, 1, 2 or 3 spaces a turn" in text
    assert "(stop: end your movement here" in text


def test_a_game_without_screen_parts_plays_on_the_screen():
    """Pig (installed on its own) gives no reminders, board or reasons: the screen shows its
    moves and scores without them."""
    from snapsim.sim.registry import get_game

    assert get_game("pig").screen is None
    session, text = _session("pig", ["1", "1", "quit", ""], players=2)
    assert "score so far: you " in text and "   1. " in text
    assert "not available" not in text and "map:" not in text and "\n      (" not in text
    assert len(session.moves) >= 2
