"""Restricted play (reserving, offers, tokens, re-rolls) and the Simpler Variants.

Run from the repository root:
    python analyses/snapshot_restricted.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "restricted"))
