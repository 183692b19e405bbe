"""Odds: Snapshot's exact odds tables as a calculator (no sampling)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from .. import odds
from ..errors import SnapsimError


def render() -> None:
    st.header("Odds")
    st.caption("Snapshot's exact probabilities, computed, not sampled.")
    photo, explore, tokens = st.tabs(["Photo", "Explore with re-rolls", "Token value"])
    with photo:
        c1, c2 = st.columns(2)
        dice = c1.slider("Dice", 1, 6, 2, key="od-dice")
        tokens_n = c2.slider("Tracking tokens", 0, 10, 1, key="od-tokens")
        rows = [{"difficulty": d, "P(success)": odds.photo_success(dice, tokens_n, d)}
                for d in range(2, 6 * dice + tokens_n + 2)]
        st.markdown("P(dice total + tokens ≥ difficulty)")
        st.dataframe(pd.DataFrame(rows).style.format({"P(success)": "{:.4f}"}),
                     hide_index=True)
    with explore:
        c1, c2, c3 = st.columns(3)
        dice = c1.slider("Explore dice", 1, 3, 1, key="od-edice")
        target = c2.slider("Habitat's explore value", 1, 6, 5, key="od-target")
        rerolls = c3.slider("Re-rolls bought at most", 0, 5, 2, key="od-rerolls")
        try:
            rows = [{"re-rolls": r, "P(success)": odds.explore_success(dice, target, r)}
                    for r in range(rerolls + 1)]
        except SnapsimError as exc:
            st.error(str(exc))
        else:
            st.dataframe(pd.DataFrame(rows).style.format({"P(success)": "{:.4f}"}),
                         hide_index=True)
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
            st.dataframe(table, hide_index=True)
