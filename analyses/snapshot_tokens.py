"""Token economy and push-your-luck by policy (section of reports/snapshot).

Run from the repository root: python analyses/snapshot_tokens.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("tokens")
