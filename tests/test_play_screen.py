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
