"""Solo and cooperative variant win rates (section of reports/shutterbug); both variants come
from other public sources, not from the rulebook.

Run from the repository root: python analyses/shutterbug_solo.py [--games N] [--seed S]
"""

from snapsim.games.shutterbug.report import study_main

if __name__ == "__main__":
    study_main("solo")
