"""A report's fixes section searches only for what its verdict finds not balanced, with the
report's own tolerance as target, over greedy play and the strong line-up at once, and its
key-finding sentence agrees with what the section found."""

from __future__ import annotations

import pytest

import snapsim.report.rebalance as R
from snapsim.report.studies import Problem, Runs, fixes_section

PROBLEM = Problem("first player", "first_player", ("start_fish",), (2,))


class Verdict:
    """A verdict whose first-player status is given per line-up."""

    def __init__(self, status: dict):
        self.status_of = status

    def status(self, measure, players, lineup=None):
        return self.status_of[lineup or "greedy"]

    def line(self, measure, players, lineup=None):
        return f"first player 1.0 pp [0.2, 1.8] ({lineup or 'greedy'})"


def runs(status: dict, **kw) -> Runs:
    ctx = Runs("yosemite", games=400, seed=1, tolerances={"first_player": 3.0}, **kw)
    ctx.headline = lambda: Verdict(status)
    return ctx


@pytest.mark.parametrize("status, words", [
    ({"greedy": "balanced", "strong": "balanced"}, "no fix needed"),
    ({"greedy": "balanced", "strong": "not settled"}, "not settled"),
])
def test_a_measure_not_shown_off_balance_gets_no_search(monkeypatch, status, words):
    def refuse(*a, **k):
        raise AssertionError("searched a measure the verdict does not find off balance")

    monkeypatch.setattr(R, "rebalance", refuse)
    ctx = runs(status)
    s = fixes_section(ctx, 10, [PROBLEM], 5_000)
    (line,) = s.findings
    assert line.startswith(f"first player: {words}: greedy: first player 1.0 pp [0.2, 1.8]")
    assert "strong: first player 1.0 pp" in line
    assert ctx.fix("first player").startswith(f"{words} (greedy: first player 1.0 pp")


def test_a_measure_off_balance_under_one_line_up_is_searched_over_both(monkeypatch):
    seen = {}

    def spy(game, targets, edits, **kw):
        seen.update(targets=targets, edits=edits, **kw)
        return real(game, targets, edits, **kw)

    real = R.rebalance
    monkeypatch.setattr(R, "rebalance", spy)
    ctx = runs({"greedy": "balanced", "strong": "not balanced"})
    s = fixes_section(ctx, 10, [PROBLEM], 5_000)
    assert seen["targets"] == ["first_player=3"]  # the report's own tolerance
    assert seen["lineups"] == ["greedy", "tuned"]
    assert seen["candidates"] == 10  # a 400-game report's: 40 x 400 / 3,000, at least 10
    found = ctx.found["fixes"]["first player"]
    text = ctx.fix("first player")
    if found["status"] == "recommended":
        assert "meets first_player=3 under greedy and tuned-2p, confirmed" in text
    else:
        assert "no fix tried meets first_player=3 under greedy and tuned-2p at once" in text
        assert "smallest verified fix" not in text
    after = [f for f in s.findings if f.startswith("first player: after,")]
    assert [a.split(":")[1].strip() for a in after] == ["after, greedy", "after, tuned-2p"]
    assert all("[" in a for a in after)  # every fix line with its interval
    table = s.tables["fixes"]
    assert set(table.deals) == {"confirmation", "verification"}
    assert set(table.policy) == {"greedy", "tuned-2p"}


def test_the_searches_run_side_by_side_and_a_failure_reaches_the_report(monkeypatch):
    # both off balance: each search starts on its own thread with its own seed (the
    # problem's place added to the report's), and what one raises, the report raises, the
    # first problem's first even when the second fails sooner
    import threading
    import time

    from snapsim.errors import InputError

    started = {}

    def fail(game, targets, edits, seed, **kw):
        started[seed] = threading.current_thread().name
        time.sleep(0.3 if seed == 1 else 0.0)
        raise InputError(f"search {seed} failed")

    monkeypatch.setattr(R, "rebalance", fail)
    ctx = runs({"greedy": "not balanced", "strong": "not balanced"})
    second = Problem("first player again", "first_player", ("start_fish",), (2,))
    with pytest.raises(InputError, match="search 1 failed"):
        fixes_section(ctx, 10, [PROBLEM, second], 5_000)
    assert sorted(started) == [1, 2]
    assert threading.current_thread().name not in started.values()
    assert len(set(started.values())) == 2


def test_the_progress_bar_names_the_searches_and_its_clock_runs_while_they_do(monkeypatch):
    import time

    from snapsim.errors import InputError

    class Bar:
        n, descriptions, refreshes = 0, [], 0

        def set_description(self, text):
            self.descriptions.append(text)

        def refresh(self):
            Bar.refreshes += 1

    def slow(game, targets, edits, seed, **kw):
        time.sleep(2.5)
        raise InputError("stopped")

    monkeypatch.setattr(R, "rebalance", slow)
    ctx = runs({"greedy": "not balanced", "strong": "balanced"})
    ctx.bar = Bar()
    with pytest.raises(InputError, match="stopped"):
        fixes_section(ctx, 10, [PROBLEM], 5_000)
    assert Bar.descriptions == ["yosemite report: fixes (searching first player)"]
    assert Bar.refreshes >= 2  # about once a second
