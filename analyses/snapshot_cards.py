"""Card value: attempts, photographs and prestige per die for every animal.

Run from the repository root: python analyses/snapshot_cards.py [--games N] [--seed S]
"""

from snapsim.games.snapshot.report import study_main

if __name__ == "__main__":
    study_main("cards")
