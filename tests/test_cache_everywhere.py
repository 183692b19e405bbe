"""Every table of games a report asks for goes through the run cache, not only its studies'
runs: the skill ladder's tables, a rebalance's candidates and confirmation, and the game's
extra measures (card values). Asked again, each is read back equal to the one played and
plays no game. Each test has its own cache folder (conftest.py)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from snapsim.analysis.extras import extra_measures
from snapsim.analysis.ladder import ladder
from snapsim.report.rebalance import rebalance
from snapsim.sim import cache, get_game
from snapsim.sim.agents import resolve_policy


def played() -> int:
    return cache.COUNTS["played"]


def test_a_ladder_asked_again_plays_no_game_and_rates_alike():
    kw = dict(policies=["random", "greedy"], games=40, seed=3)
    before = played()
    first = ladder("yosemite", 2, **kw)
    assert played() > before
    before = played()
    again = ladder("yosemite", 2, **kw)
    assert played() == before
    pd.testing.assert_frame_equal(first.ratings, again.ratings, check_exact=True)
    pd.testing.assert_frame_equal(first.results, again.results, check_exact=True)


def test_a_rebalance_asked_again_plays_no_game_and_finds_the_same_patch():
    kw = dict(players=[4], games=120, verify_games=200, candidates=6, lineups=["greedy"],
              seed=2)
    a = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], **kw)
    before = played()
    b = rebalance("shutterbug", ["seat_spread=5"], ["start_tips"], **kw)
    assert played() == before
    assert [e.cand for e in a.outcome.evaluations] == [e.cand for e in b.outcome.evaluations]
    assert a.patch == b.patch
    pd.testing.assert_frame_equal(a.checks_table(), b.checks_table(), check_exact=True)


def test_extra_measures_read_back_equal_to_the_game_s_own():
    spec = get_game("snapshot")
    config = spec.make_config(players=3)
    seats = [resolve_policy("snapshot", "greedy")] * 3
    own = spec.measures.extra(config, seats, 30, 4, None)
    first = extra_measures("snapshot", config, seats, 30, 4)
    before = played()
    again = extra_measures("snapshot", config, seats, 30, 4)
    assert played() == before
    for mine, theirs in ((first, own), (again, own)):
        assert [m[:3] for m in mine] == [m[:3] for m in theirs]
        for (*_, r), (*_, s) in zip(mine, theirs, strict=True):
            np.testing.assert_array_equal(r.num, s.num)
            np.testing.assert_array_equal(r.den, s.den)
    with cache.off():
        before = played()
        extra_measures("snapshot", config, seats, 30, 4)
        assert played() == before + 1  # --no-cache plays it



def test_a_strategy_guide_measured_in_another_process_is_copied_whole_from_the_cache(
        tmp_path):
    """The report's guide is measured in a process of its own into the cache, then copied:
    the same files as measured here with the cache off."""
    from snapsim.games.guide import guide_in_background, write_strategy

    process = guide_in_background("yosemite", 20, 2)
    process.join()
    assert process.exitcode == 0
    assert guide_in_background("yosemite", 20, 2) is None  # kept: nothing to measure
    before = dict(cache.COUNTS)
    write_strategy("yosemite", tmp_path / "a", games=20, seed=2)
    assert (cache.COUNTS["read"], cache.COUNTS["played"]) == (before["read"] + 1,
                                                             before["played"])
    with cache.off():
        assert guide_in_background("yosemite", 20, 2) is None
        write_strategy("yosemite", tmp_path / "b", games=20, seed=2)
    copied, measured = ({p.name: p.read_bytes() for p in (tmp_path / f).glob("strategy*")}
                        for f in "ab")
    assert len(copied) > 1
    built = b"_Built in "  # the guide's own build time, the one thing that may differ
    assert {k: v.split(built)[0] for k, v in copied.items()} == \
        {k: v.split(built)[0] for k, v in measured.items()}


def test_a_report_made_again_into_another_folder_is_copied_whole_and_says_so(tmp_path):
    """The same report (settings, code, game package) into a new folder is the kept one,
    copied: the same files, read once from the cache with no game played, its provenance
    saying it was copied; into the folder of a report of the same run (a study re-run
    alone, which adds to it) it is built, never copied over the other studies."""
    report = get_game("yosemite").report
    kw = dict(games=20, seed=2, progress=False, strong=None)
    report(tmp_path / "a", studies=["first"], **kw)
    before = dict(cache.COUNTS)
    report(tmp_path / "b", studies=["first"], **kw)
    assert (cache.COUNTS["read"], cache.COUNTS["played"]) == (before["read"] + 1,
                                                             before["played"])
    made, copied = ({p.relative_to(tmp_path / f).as_posix(): p.read_bytes()
                     for p in (tmp_path / f).rglob("*") if p.is_file()} for f in "ab")
    assert made.keys() == copied.keys() and len(made) > 3
    assert {k: v for k, v in made.items() if k != "provenance.json"} == \
        {k: v for k, v in copied.items() if k != "provenance.json"}
    first, again = (json.loads(d["provenance.json"]) for d in (made, copied))
    assert "report_from_cache" not in first and again == {**first, "report_from_cache": True}

    report(tmp_path / "b", studies=["length"], **kw)  # a study added to the same run
    assert json.loads((tmp_path / "b" / "provenance.json").read_text())["studies"] == \
        ["first", "length"]
    assert sorted(p.name for p in (tmp_path / "b" / "sections").iterdir()) == \
        ["1-first-player.json", "6-length.json"]
