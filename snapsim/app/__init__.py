"""The workbench: snapsim in the browser (`snapsim app`, the optional extra `snapsim[app]`).

A Streamlit app whose pages call the same layers the command line does: Balance (the verdict
of a component file), Edit and compare, Rebalance, Play and Odds. `main.py` is the script
Streamlit runs; each page is a module with a `render()`; long runs go through `jobs`.
"""

from pathlib import Path

MAIN = Path(__file__).resolve().with_name("main.py")
