"""Restricted play (reserving, offers, tokens, re-rolls) and the Simpler Variants.

Run from the repository root: python analyses/snapshot_restricted.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("restricted")
