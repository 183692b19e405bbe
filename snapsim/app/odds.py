"""Odds: the exact odds tables of the game with an exact advisor (Snapshot's;
`registry.advised_game`) as a calculator (no sampling)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from .. import odds
from ..errors import SnapsimError
from ..sim.registry import advised_game
from . import tables


def render() -> None:
    st.header("Odds")
    st.caption(f"{advised_game().title}'s exact probabilities, computed, not sampled.")
    photo, explore, spook, tokens = st.tabs(["Photo", "Explore with re-rolls", "Spook risk",
                                             "Token value"])
    with photo:
        c1, c2 = st.columns(2)
        dice = c1.slider("Dice", 1, 6, 2, key="od-dice")
        tokens_n = c2.slider("Tracking tokens", 0, 10, 1, key="od-tokens")
        rows = [{"difficulty": d, "p_success": odds.photo_success(dice, tokens_n, d)}
                for d in range(2, 6 * dice + tokens_n + 2)]
        st.markdown("P(dice total + tokens ≥ difficulty)")
        st.dataframe(tables.odds_table(pd.DataFrame(rows)), hide_index=True,
                     height=tables.whole(len(rows)))
    with explore:
        c1, c2, c3 = st.columns(3)
        dice = c1.slider("Explore dice", 1, 3, 1, key="od-edice")
        target = c2.slider("Habitat's explore value", 1, 6, 5, key="od-target")
        rerolls = c3.slider("Re-rolls bought at most", 0, 5, 2, key="od-rerolls")
        try:
            rows = [{"re-rolls": r, "p_success": odds.explore_success(dice, target, r)}
                    for r in range(rerolls + 1)]
        except SnapsimError as exc:
            st.error(str(exc))
        else:
            st.dataframe(tables.odds_table(pd.DataFrame(rows)), hide_index=True,
                         height=tables.whole(len(rows)))
    with spook:
        spook_tab()
    with tokens:
        c1, c2 = st.columns(2)
        target = c1.slider("Explore value", 2, 5, 4, key="od-ttarget")
        lo, hi = c2.slider("Difficulties", 2, 20, (5, 9), key="od-range")
        try:
            table = odds.token_table(targets=(target,), difficulties=range(lo, hi + 1))
        except SnapsimError as exc:
            st.error(str(exc))
        else:
            st.markdown("Where the next tracking token buys the most")
            st.dataframe(tables.odds_table(table), hide_index=True,
                         height=tables.whole(len(table)))


# the tab opens on a mid-turn table (the docs' example, about a second with one free
# reserve slot), not on an empty one: with the whole deck unseen the count takes a minute.
# Each table is computed once per session, whichever tab's widget moved.
EXAMPLE_TOPS = {"shoreline": 4, "mountain": 7}


@st.cache_data(show_spinner=False, max_entries=64)
def _spook(tops: tuple[int, ...], raccoon: bool, slots: int) -> tuple[pd.DataFrame, dict]:
    comp = advised_game().load_components(None)
    cards = [(a.habitat, a.difficulty) for a in comp.animals
             if (a.habitat, a.difficulty) != (a.habitat, tops[a.habitat])]
    counts = odds.unseen_counts(cards, len(comp.habitats),
                                max(a.difficulty for a in comp.cards))
    return odds.spook_table(list(tops), counts, raccoon=raccoon, reserve_slots=slots,
                            raccoon_difficulty=comp.raccoon.difficulty)


def spook_tab() -> None:
    """`snapsim odds spook` as a calculator: each habitat's top card, every other card of the
    bundled deck unseen, drawing on until a spook (card counting, exact)."""
    comp = advised_game().load_components(None)
    st.markdown("The highest difficulty showing in each habitat (0: empty); every other "
                "card is taken to be unseen.")
    tops: list[int] = []
    for col, (h, habitat) in zip(st.columns(len(comp.habitats)), enumerate(comp.habitats),
                                 strict=True):
        options: list[int] = [0] + sorted({a.difficulty for a in comp.animals if a.habitat == h})
        start = EXAMPLE_TOPS.get(habitat.name.lower(), 0)
        tops.append(col.selectbox(habitat.name, options, key=f"od-top-{h}",
                                  index=options.index(start) if start in options else 0))
    c1, c2 = st.columns(2)
    raccoon = c1.checkbox(f"The {comp.raccoon.name} is in the deck", value=True,
                          key="od-raccoon")
    slots = c2.slider("Free reserve slots", 0, 7, 1, key="od-slots")
    with st.spinner("Counting every order of the unseen cards (the fewer cards showing, "
                    "the longer: up to a few minutes for an empty table) ..."):
        table, heads = _spook(tuple(tops), raccoon, slots)
    st.markdown(" · ".join(f"{k.replace('_', ' ')}: {v:.4g}" for k, v in heads.items()))
    st.markdown("P(the first spook comes after exactly k successful draws)")
    st.dataframe(tables.odds_table(table), hide_index=True, height=tables.whole(len(table)))
