"""Play: your seat against the built-in players, the legal moves as buttons, the hints (each
move's win chance from rollouts, and Snapshot's exact odds) beside them."""

from __future__ import annotations

import streamlit as st

from .. import play as P
from ..errors import SnapsimError
from ..play.hints import hints
from ..play.wins import Budget
from ..sim.registry import get_game
from . import common

HINT_ROLLOUTS = 200  # rollouts per move: a hint in seconds, the same numbers on any machine


def _advance(session: P.Session) -> None:
    """The other seats move until it is yours or the game is over."""
    g = session.game
    while not g.is_terminal and g.current_player != session.seat:
        P._opponent_move(session, g.current_player)


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
    if st.button("New game", key="pl-new") or "pl-session" not in st.session_state:
        try:
            st.session_state["pl-session"] = P.new_session(game, int(players), int(seat),
                                                           "greedy", int(seed))
        except SnapsimError as exc:
            st.error(str(exc))
            return
    session: P.Session = st.session_state["pl-session"]
    _advance(session)
    g = session.game
    st.code(P.view(session), language=None)
    with st.expander("What happened", expanded=False):
        st.code("\n".join(g.log[-30:]) or "nothing yet", language=None)
    if g.is_terminal:
        st.success("Game over. " + " ".join(f"P{i + 1}: {r:+.0f}"
                                           for i, r in enumerate(g.returns())))
        return
    moves = P.choices(g)
    if show_hints:
        budget = Budget.of(rollouts=HINT_ROLLOUTS)
        st.code(hints(g, session.seat, budget, session.seed, moves), language=None)
    st.markdown("**Your move**")
    for i, (chosen, done) in enumerate(moves):
        if st.button(f"{i + 1}. {g.choice_to_string(chosen, done)}", key=f"pl-move-{i}"):
            for code in chosen:
                session.apply(code, by_policy=False)
            st.rerun()
