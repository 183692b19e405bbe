"""Card value: attempts, photographs and prestige per die for every animal.

Run from the repository root:
    python analyses/snapshot_cards.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "cards"))
