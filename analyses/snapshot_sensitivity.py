"""Rule sensitivity: photo target, re-roll cost, experience tokens, reserve limit.

Run from the repository root: python analyses/snapshot_sensitivity.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("sensitivity")
