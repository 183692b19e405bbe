"""Play: your seat against the built-in players, the table as your seat sees it, the legal
moves as buttons, each move's win chance as a bar with its interval (the advisor's rollouts)
and Snapshot's exact odds beside them; a position saved and loaded in the format of
`snapsim play ... save`, and advice on a loaded one."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from .. import play as P
from ..errors import SnapsimError
from ..play.advice import advise
from ..sim.registry import get_game
from . import common

HINT_ROLLOUTS = 200  # rollouts per move: a hint in seconds, the same numbers on any machine


def _advance(session: P.Session) -> None:
    """The other seats move until it is yours or the game is over."""
    g = session.game
    while not g.is_terminal and g.current_player != session.seat:
        P._opponent_move(session, g.current_player)


def _cell(value: object) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def table_frames(observation: dict, players: int) -> dict[str, pd.DataFrame]:
    """The observation's boards as tables, whatever the game: a dict of lists (habitats and
    their animals, map spaces and their tiles) as a column per key, a square list of lists
    that is not one per seat (a park) as a grid with rows a, b, ... and columns 1, 2, ..."""
    out = {}
    for name, value in observation.items():
        if isinstance(value, dict) and value and all(isinstance(v, list)
                                                     for v in value.values()):
            depth = max(map(len, value.values()))
            out[name] = pd.DataFrame({k: [_cell(v[i]) if i < len(v) else "" for i in
                                          range(depth)] for k, v in value.items()})
        elif isinstance(value, list) and len(value) not in (0, players) and all(
                isinstance(row, list) and len(row) == len(value) for row in value):
            out[name] = pd.DataFrame([[_cell(c) for c in row] for row in value],
                                     index=[chr(ord("a") + i) for i in range(len(value))],
                                     columns=[str(j + 1) for j in range(len(value))])
    return out


def show_table(session: P.Session) -> None:
    """What your seat sees: the game's table view (its observation only, in words), and the
    boards in it drawn as tables."""
    st.code(P.view(session), language=None)
    seen = session.game.observation(session.seat)
    for name, frame in table_frames(seen, session.players).items():
        st.markdown(f"**{name.replace('_', ' ')}**")
        st.dataframe(frame, hide_index=frame.index.dtype != object)


def show_advice(session: P.Session) -> None:
    """Each move's win chance with its 95% interval as a bar, best first, and the exact
    numbers and recommendation beside them (`snapsim advise`'s, on this position)."""
    a = advise(session, session.seat + 1, rollouts=HINT_ROLLOUTS, seed=session.seed)
    left, right = st.columns([3, 2])
    left.dataframe(
        a.moves.assign(interval=[f"{lo:.0%} to {hi:.0%}" for lo, hi in
                                 zip(a.moves.ci_low, a.moves.ci_high, strict=True)])
        [["move", "text", "win_chance", "interval", "rollouts"]].set_axis(
            ["move no.", "move", "win chance", "95% interval", "rollouts"], axis=1),
        hide_index=True, column_config={"win chance": st.column_config.ProgressColumn(
            format="percent", min_value=0.0, max_value=1.0)})
    right.code("\n".join(s.strip() for s in a.exact + a.recommended) or
               "no exact numbers at this decision", language=None, wrap_lines=True)


def save_and_load(game: str) -> None:
    """Download the game as a save file; upload one to continue it (or advise on it)."""
    session: P.Session = st.session_state["pl-session"]
    path = common.out_root() / "play" / f"{session.game_name}-seed{session.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    P.save(session, path)
    c1, c2 = st.columns(2)
    c1.download_button("Save this position", path.read_bytes(), file_name=path.name,
                       mime="application/json", key="pl-save",
                       help="the file `snapsim play --load` continues and `snapsim advise "
                            "--load` advises on")
    up = c2.file_uploader("Load a saved position", type=["json"], key="pl-load")
    if up is None or st.session_state.get("pl-loaded") == up.file_id:
        return
    try:
        loaded = P.load(common.save_upload(up.name, up.getvalue()), game)
    except SnapsimError as exc:
        st.error(str(exc))
        return
    st.session_state["pl-loaded"] = up.file_id
    st.session_state["pl-session"] = loaded
    st.rerun()


def render() -> None:
    st.header("Play")
    c1, c2, c3, c4 = st.columns(4)
    game = c1.selectbox("Game", common.GAMES, key="pl-game")
    spec = get_game(game)
    counts = list(spec.measures.levers.player_counts)
    players = c2.selectbox("Players", counts, key="pl-players")
    seat = c3.number_input("Your seat", 1, int(players), 1, key="pl-seat")
    seed = c4.number_input("Seed", 0, 2**31, 0, key="pl-seed")
    show_hints = st.checkbox("Hints (win chance of each move, exact odds)", value=True,
                             key="pl-hints")
    session = st.session_state.get("pl-session")
    if st.button("New game", key="pl-new") or session is None or session.game_name != game:
        try:
            st.session_state["pl-session"] = P.new_session(game, int(players), int(seat),
                                                           "greedy", int(seed))
        except SnapsimError as exc:
            st.error(str(exc))
            return
    _advance(st.session_state["pl-session"])
    save_and_load(game)
    session = st.session_state["pl-session"]
    g = session.game
    show_table(session)
    with st.expander("What happened", expanded=False):
        st.code("\n".join(g.log[-30:]) or "nothing yet", language=None)
    if g.is_terminal:
        st.success("Game over. " + " ".join(f"P{i + 1}: {r:+.0f}"
                                           for i, r in enumerate(g.returns())))
        return
    if show_hints:
        show_advice(session)
    st.markdown("**Your move**")
    for i, (chosen, done) in enumerate(P.choices(g)):
        if st.button(f"{i + 1}. {g.choice_to_string(chosen, done)}", key=f"pl-move-{i}"):
            for code in chosen:
                session.apply(code, by_policy=False)
            st.rerun()
