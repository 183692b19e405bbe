"""Policy matchup matrix: how much skill decides a game (section of reports/snapshot).

Run from the repository root:
    python analyses/snapshot_policies.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "policies"))
