"""Game length distribution (section of reports/yosemite).

Run from the repository root:
    python analyses/yosemite_length.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("yosemite", "length"))
