"""First-player advantage with confidence intervals (section of reports/yosemite).

Run from the repository root: python analyses/yosemite_first.py [--games N] [--seed S]
"""

from snapsim.games.yosemite.report import study_main

if __name__ == "__main__":
    study_main("first")
