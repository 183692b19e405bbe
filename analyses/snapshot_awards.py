"""Awards and assignments: claim timing, score share, assignment balance.

Run from the repository root: python analyses/snapshot_awards.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("awards")
