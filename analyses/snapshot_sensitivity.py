"""Rule sensitivity: photo target, re-roll cost, experience tokens, reserve limit.

Run from the repository root:
    python analyses/snapshot_sensitivity.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "sensitivity"))
