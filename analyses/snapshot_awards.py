"""Awards and assignments: claim timing, score share, assignment balance.

Run from the repository root:
    python analyses/snapshot_awards.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "awards"))
