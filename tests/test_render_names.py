"""A designer's name in a report table keeps the table's shape in report.md."""

from __future__ import annotations

import json
import re

import pandas as pd

from snapsim.report.render import SECTIONS, Section, _md_table


def test_a_name_with_a_bar_or_backslash_stays_in_its_column():
    df = pd.DataFrame({"card": ["snow|leopard", "red\\panda", "goat"], "value": [1, 2, 3]})
    lines = _md_table(df, "cards", {}).splitlines()
    for line in lines:  # every row has as many column bars as the header, none escaped
        assert len(re.findall(r"(?<!\\)\|", line.replace("\\\\", ""))) == 3, line
    assert "snow\\|leopard" in lines[2] and "red\\\\panda" in lines[3]



def test_a_section_file_lists_its_claims_in_one_order_whatever_order_they_came(tmp_path):
    """Two runs of the same report write the same bytes: claims tested in another order
    (a set's iteration) are saved in name order."""
    p = {"a: y": 0.02, "b: x": 0.01, "c: z": 0.03}
    texts = []
    for n, order in enumerate((["b: x", "a: y", "c: z"], ["c: z", "b: x", "a: y"])):
        s = Section("9-ladder", 9, "Skill ladder", claims={name: p[name] for name in order})
        s.save(tmp_path / str(n))
        texts.append((tmp_path / str(n) / SECTIONS / "9-ladder.json").read_text())
    assert texts[0] == texts[1]
    assert json.loads(texts[0])["claims"] == p and list(json.loads(texts[0])["claims"]) == \
        ["a: y", "b: x", "c: z"]
