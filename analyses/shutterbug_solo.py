"""Solo and cooperative variant win rates (section of reports/shutterbug); both variants come
from other public sources, not from the rulebook.

Run from the repository root:
    python analyses/shutterbug_solo.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("shutterbug", "solo"))
