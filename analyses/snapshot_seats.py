"""Seat advantage by player count and fairer starting-token schedules (section of reports/snapshot).

Run from the repository root:
    python analyses/snapshot_seats.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "seats"))
