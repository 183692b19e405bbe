"""The script `snapsim app` serves: a page chosen in the sidebar, rendered by its module."""

import streamlit as st

from snapsim.app import balance, common, edit, odds, play, rebalance

PAGES = {"Balance": balance, "Edit and compare": edit, "Rebalance": rebalance, "Play": play,
         "Odds": odds}

st.set_page_config(page_title="snapsim workbench", layout="wide")
st.sidebar.title("snapsim workbench")
if common.GOTO in st.session_state:
    st.session_state["page"] = st.session_state.pop(common.GOTO)
page = st.sidebar.radio("Page", list(PAGES), key="page")
PAGES[page].render()
