"""A designer's name in a report table keeps the table's shape in report.md."""

from __future__ import annotations

import re

import pandas as pd

from snapsim.report.render import _md_table


def test_a_name_with_a_bar_or_backslash_stays_in_its_column():
    df = pd.DataFrame({"card": ["snow|leopard", "red\\panda", "goat"], "value": [1, 2, 3]})
    lines = _md_table(df, "cards", {}).splitlines()
    for line in lines:  # every row has as many column bars as the header, none escaped
        assert len(re.findall(r"(?<!\\)\|", line.replace("\\\\", ""))) == 3, line
    assert "snow\\|leopard" in lines[2] and "red\\\\panda" in lines[3]
