"""Seat advantage by player count and fairer starting-token schedules (section of reports/snapshot).

Run from the repository root: python analyses/snapshot_seats.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("seats")
