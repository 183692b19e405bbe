"""The two-player team game against one pawn each (section of reports/shutterbug).

Run from the repository root:
    python analyses/shutterbug_team.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("shutterbug", "team"))
