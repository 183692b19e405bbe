"""The mutation-testing tool (tests/tools/mutate.py): its mutants, sample and equivalents list.

These tests run no mutant: the generator is checked on a tiny module, and on the real engines
only for well-formed output."""

import importlib.util
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).parent / "tools"
_spec = importlib.util.spec_from_file_location("mutate", TOOLS / "mutate.py")
mutate = importlib.util.module_from_spec(_spec)
sys.modules["mutate"] = mutate  # dataclasses look their module up by name
_spec.loader.exec_module(mutate)

SOURCE = '''\
import numpy as np


def rule(x, y):
    """A docstring is not mutated."""
    if x < 1 and y == 2:
        x += 1
    else:
        y = y - 3
    return x + y


def pick(k):
    if k >= 0:
        return -1
    elif k != 4:
        return 2
    return 0


def format_state(x):
    return x > 0
'''


def by_key(source):
    return {(m.line, m.description): m for m in mutate.candidates(source)}


def test_every_operator_at_every_site_of_the_rule_functions():
    found = [(m.function, m.line, m.description, m.mutated) for m in mutate.candidates(SOURCE)]
    assert sorted(found) == sorted([
        ("rule", 6, "and -> or", "if x < 1 or y == 2:"),
        ("rule", 6, "negate if", "if not (x < 1 and y == 2):"),
        ("rule", 6, "< -> <=", "if x <= 1 and y == 2:"),
        ("rule", 6, "1 -> 0", "if x < 0 and y == 2:"),
        ("rule", 6, "1 -> 2", "if x < 2 and y == 2:"),
        ("rule", 6, "== -> !=", "if x < 1 and y != 2:"),
        ("rule", 6, "2 -> 1", "if x < 1 and y == 1:"),
        ("rule", 6, "2 -> 3", "if x < 1 and y == 3:"),
        ("rule", 6, "drop body", "pass  (the whole body)"),
        ("rule", 6, "drop else", "(else branch removed)"),
        ("rule", 7, "+= -> -=", "x -= 1"),
        ("rule", 7, "1 -> 0", "x += 0"),
        ("rule", 7, "1 -> 2", "x += 2"),
        ("rule", 9, "- -> +", "y = y + 3"),
        ("rule", 9, "3 -> 2", "y = y - 2"),
        ("rule", 9, "3 -> 4", "y = y - 4"),
        ("rule", 10, "+ -> -", "return x - y"),
        ("pick", 14, "negate if", "if not (k >= 0):"),
        ("pick", 14, ">= -> >", "if k > 0:"),
        ("pick", 14, "0 -> -1", "if k >= (-1):"),
        ("pick", 14, "0 -> 1", "if k >= 1:"),
        ("pick", 14, "drop body", "pass  (the whole body)"),
        ("pick", 15, "-1 -> -2", "return -2"),
        ("pick", 15, "-1 -> 0", "return 0"),
        ("pick", 16, "negate if", "elif not (k != 4):"),
        ("pick", 16, "!= -> ==", "elif k == 4:"),
        ("pick", 16, "4 -> 3", "elif k != 3:"),
        ("pick", 16, "4 -> 5", "elif k != 5:"),
        ("pick", 16, "drop body", "pass  (the whole body)"),
        ("pick", 17, "2 -> 1", "return 1"),
        ("pick", 17, "2 -> 3", "return 3"),
        ("pick", 18, "0 -> -1", "return (-1)"),
        ("pick", 18, "0 -> 1", "return 1"),
    ])  # format_state is a formatting helper: no mutants; an elif is no `else` to drop


def test_mutants_rewrite_only_their_span_and_keep_every_line():
    lines = SOURCE.splitlines()
    for m in mutate.candidates(SOURCE):
        out = m.apply(SOURCE)
        compile(out, "mutant", "exec")
        assert out.count("\n") == SOURCE.count("\n") and out != SOURCE
        if not m.description.startswith("drop"):  # one line changes, the mutant's own
            new = out.splitlines()
            assert [i for i, line in enumerate(lines) if new[i] != line] == [m.line - 1], m


def test_dropped_branches_become_pass_and_blank_lines():
    found = by_key(SOURCE)
    body = found[6, "drop body"].apply(SOURCE)
    assert body.splitlines()[5:9] == ["    if x < 1 and y == 2:", "        pass", "    else:",
                                      "        y = y - 3"]
    orelse = found[6, "drop else"].apply(SOURCE)
    assert orelse.splitlines()[5:10] == ["    if x < 1 and y == 2:", "        x += 1", "    ",
                                         "", "    return x + y"]
    elif_body = found[16, "drop body"].apply(SOURCE)
    assert elif_body.splitlines()[15:18] == ["    elif k != 4:", "        pass", "    return 0"]


def test_spans_hold_with_non_ascii_text_multiline_conditions_and_repeats():
    source = ('def f(a, b, n):\n'
              '    if (len("é—") < n and\n'
              '            a > b):\n'
              '        return a + b + 1\n'
              '    return 0\n')
    found = by_key(source)
    assert found[2, "< -> <="].mutated == 'if (len("é—") <= n and'
    negated = found[2, "negate if"].apply(source)
    assert negated.splitlines()[1:3] == ['    if (not (len("é—") < n and', '            a > b)):']
    assert found[3, "> -> >="].mutated == "a >= b):"
    assert found[2, "and -> or"].apply(source).splitlines()[1] == '    if (len("é—") < n or'
    assert found[4, "+ -> - #1"].mutated == "return a - b + 1"
    assert found[4, "+ -> - #2"].mutated == "return a + b - 1"


def test_sample_is_deterministic_and_spread_over_the_source():
    found = mutate.candidates(SOURCE)
    picked = mutate.sample(found, 5, seed=3)
    assert picked == mutate.sample(found, 5, seed=3)
    slices = [found.index(m) * 5 // len(found) for m in picked]
    assert slices == [0, 1, 2, 3, 4]
    assert {m.function for m in picked} == {"rule", "pick"}
    assert any(mutate.sample(found, 5, seed=s) != picked for s in range(4, 8))
    assert mutate.sample(found, 100, seed=0) == found


def write_equivalents(tmp_path, body):
    path = tmp_path / "equivalent_mutants.toml"
    path.write_text(body)
    return mutate.load_equivalents(path)


ENTRY = '''
[[equivalent]]
game = "snapshot"
function = "rule"
line = "y = y - 3"
mutation = "{mutation}"
reason = "synthetic"
'''


def test_equivalents_match_by_text_whatever_the_line_numbers(tmp_path):
    entries = write_equivalents(tmp_path, ENTRY.format(mutation="3 -> 4")
                                + ENTRY.format(mutation="3 -> 5")
                                + ENTRY.replace("snapshot", "yosemite").format(mutation="3 -> 2"))
    shifted = "\n\n# moved down\n" + SOURCE
    for source in (SOURCE, shifted):
        reasons, stale = mutate.match_equivalents("snapshot", mutate.candidates(source), entries)
        assert reasons == {("rule", "y = y - 3", "3 -> 4"): "synthetic"}
        assert [e["mutation"] for e in stale] == ["3 -> 5"]


@pytest.mark.parametrize("body,message", [
    (ENTRY.format(mutation="3 -> 4").replace('reason = "synthetic"', ""), "needs reason"),
    (ENTRY.format(mutation="3 -> 4").replace("snapshot", "chess"), "unknown game 'chess'"),
    ("[[equivalent]\n", "equivalent_mutants.toml"),
])
def test_a_bad_equivalents_file_is_one_clear_error(tmp_path, body, message):
    with pytest.raises(mutate.ToolError, match=message):
        write_equivalents(tmp_path, body)


def test_committed_equivalents_file_is_well_formed():
    for entry in mutate.load_equivalents(mutate.EQUIVALENTS):
        assert entry["game"] in mutate.GAMES


@pytest.mark.parametrize("game", mutate.GAMES)
def test_real_engines_give_well_formed_samples(game):
    text = (mutate.ROOT / mutate.engine_path(game)).read_text()
    found = mutate.candidates(text)
    assert len(found) >= 30 and len({m.key for m in found}) == len(found)
    kinds = {m.description.split(" #")[0] for m in found}
    assert {"negate if", "drop body", "drop else", "+ -> -", "- -> +"} <= kinds
    for m in mutate.sample(found, 40, seed=0):
        out = m.apply(text)
        assert out.count("\n") == text.count("\n") and out != text
        compile(out, game, "exec")


def test_the_copy_must_be_what_runs(tmp_path):
    good = {"snapsim_file": str(tmp_path / "snapsim/__init__.py"), "import_error": None,
            "module_file": str(tmp_path / mutate.engine_path("yosemite"))}
    mutate._check_imported(good, tmp_path, "yosemite")
    with pytest.raises(mutate.ToolError, match="not the copy"):
        mutate._check_imported({**good, "snapsim_file": "/elsewhere/snapsim/__init__.py"},
                               tmp_path, "yosemite")
    with pytest.raises(mutate.ToolError, match="not the mutated copy"):
        mutate._check_imported({**good, "module_file": "/elsewhere/engine.py"}, tmp_path,
                               "yosemite")


@pytest.mark.parametrize("argv", [["chess"], ["--mutants", "0"], ["snapshot", "yosemite",
                                                                   "--tests", "tests/x.py"]])
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        mutate.parse_args(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("mutate: ") and err.count("\n") == 1
