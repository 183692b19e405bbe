"""Policy matchup matrix: how much skill decides a game (section of reports/snapshot).

Run from the repository root: python analyses/snapshot_policies.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("policies")
