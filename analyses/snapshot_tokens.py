"""Token economy and push-your-luck by policy (section of reports/snapshot).

Run from the repository root:
    python analyses/snapshot_tokens.py [--games N] [--seed S] [--out DIR]
"""

import sys

from snapsim.cli.report import study_main

if __name__ == "__main__":
    sys.exit(study_main("snapshot", "tokens"))
