"""With and without the raccoon (section of reports/snapshot).

Run from the repository root:
    python analyses/snapshot_raccoon.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "raccoon"))
