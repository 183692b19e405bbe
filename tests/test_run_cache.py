"""The cache of finished runs (sim/cache.py): a run asked for again is read back whole and
equal to the one played; anything that makes another table is another key; a damaged file
is played again, never an error; the cache stays within its size, least recently used out.
Each test has its own cache folder (conftest.py)."""

from __future__ import annotations

import dataclasses
import json
import os

import pandas as pd
import pytest

from snapsim.cli import main
from snapsim.sim import cache, get_game

GAMES = 40


def config(**knobs):
    return get_game("yosemite").make_config(**knobs)


def run(**change):
    """One small Yosemite run through the cache; `change` replaces its settings."""
    settings = {"config": config(), "policies": ["greedy"], "games": GAMES, "seed": 5,
                **change}
    return cache.simulate("yosemite", **settings)


def edited():
    """The bundled components with one judge's points changed in memory (the same file
    path: the key reads the content)."""
    comps = config().components
    return config(components=dataclasses.replace(comps, judge_points=(5, 4, 4, 4, 4)))


def stored() -> list:
    return sorted(cache.cache_dir().glob("*.parquet"))


def test_a_second_identical_run_is_read_back_equal_to_the_one_played():
    first = run()
    again = run()
    assert (first.attrs["from_cache"], again.attrs["from_cache"]) == (False, True)
    pd.testing.assert_frame_equal(first, again)  # values, dtypes and column order
    assert again.attrs["provenance"] == first.attrs["provenance"]
    with cache.off():  # and what the cache holds is what playing gives
        played = run()
    assert played.attrs["from_cache"] is False
    pd.testing.assert_frame_equal(played, again)
    assert len(stored()) == 1


@pytest.mark.parametrize("change", [
    {"seed": 6}, {"games": GAMES + 1}, {"policies": ["random"]},
    {"policies": ["greedy", "random"]}, {"policies": ["greedy:fish_value=2"]},
    {"start_fish": 3}, {"edited": True}, {"rotate_seats": False},
])
def test_a_changed_setting_is_another_run(change):
    run()
    if "start_fish" in change:
        change = {"config": config(start_fish=change["start_fish"])}
    elif "edited" in change:
        change = {"config": edited()}
    other = run(**change)
    assert other.attrs["from_cache"] is False
    assert len(stored()) == 2


def test_a_change_of_source_or_version_is_never_served(monkeypatch):
    run()
    monkeypatch.setattr(cache, "source_hash", lambda: "another source")
    assert run().attrs["from_cache"] is False
    assert len(stored()) == 2


@pytest.mark.parametrize("damage", ["garbage", "empty", "truncated", "another run"])
def test_a_damaged_file_is_played_again_and_replaced(damage):
    first = run()
    path, = stored()
    if damage == "another run":  # a whole, readable file of another key under this name
        run(seed=9)
        other_path = next(p for p in stored() if p != path)
        os.replace(other_path, path)
    else:
        data = path.read_bytes()
        path.write_bytes({"garbage": b"not parquet" * 50, "empty": b"",
                          "truncated": data[: len(data) // 2]}[damage])
    again = run()
    assert again.attrs["from_cache"] is False
    pd.testing.assert_frame_equal(first, again)
    assert run().attrs["from_cache"] is True  # stored whole again


def test_the_least_recently_used_runs_go_first(monkeypatch):
    run(seed=1)
    run(seed=2)
    oldest, newest = sorted(stored(), key=lambda p: p.stat().st_mtime)
    os.utime(oldest, (1, 1))  # seed 1 used long ago...
    os.utime(newest, (2, 2))
    run(seed=1)  # ...until now: seed 2 is the least recently used
    size = max(p.stat().st_size for p in stored())
    monkeypatch.setenv(cache.SIZE_ENV, str(2.5 * size / 2**20))  # room for two runs
    run(seed=3)
    assert len(stored()) == 2
    assert run(seed=2).attrs["from_cache"] is False
    assert run(seed=3).attrs["from_cache"] is True


def test_writes_look_at_every_stored_file_only_when_the_cache_may_be_full(monkeypatch):
    # a rebalance writes a thousand small runs: a look at every file after each made it
    # quadratic in the cache's size
    looks = []
    real = cache._entries
    monkeypatch.setattr(cache, "_entries", lambda: looks.append(1) or real())
    for seed in range(1, 6):
        run(seed=seed)
    assert len(looks) == 1 and len(stored()) == 5  # the first write's look; the rest fit
    size = max(p.stat().st_size for p in stored())
    monkeypatch.setenv(cache.SIZE_ENV, str(2.5 * size / 2**20))  # room for two runs
    run(seed=6)  # what this process wrote passes the limit: it looks, and evicts
    assert len(looks) == 2 and len(stored()) == 2
    assert run(seed=6).attrs["from_cache"] is True
    monkeypatch.setattr(cache, "LOOK_EVERY", 1)  # and it looks again after enough writes
    monkeypatch.setenv(cache.SIZE_ENV, "100")
    run(seed=7)
    assert len(looks) == 3


def test_many_at_once_reads_what_it_has_and_plays_the_rest():
    jobs = [(config(start_fish=n), ["greedy"] * 2) for n in (2, 3)]
    alone = run(config=config(start_fish=3), policies=["greedy"] * 2)
    both = cache.simulate_many("yosemite", jobs, GAMES, 5)
    assert [df.attrs["from_cache"] for df in both] == [False, True]
    pd.testing.assert_frame_equal(both[1], alone)
    assert [df.attrs["from_cache"] for df in cache.simulate_many("yosemite", jobs, GAMES,
                                                                 5)] == [True, True]


def test_cache_info_and_clear(capsys, monkeypatch):
    run()
    assert main(["cache", "info"]) == 0
    assert capsys.readouterr().out.startswith("1 cached runs, ")
    assert main(["cache", "clear"]) == 0
    assert capsys.readouterr().out.startswith("removed 1 cached runs")
    assert stored() == []
    monkeypatch.setenv(cache.SIZE_ENV, "lots")
    assert main(["cache", "info"]) == 2
    assert capsys.readouterr().err.startswith("snapsim: error: SNAPSIM_CACHE_MB='lots'")
    monkeypatch.delenv(cache.SIZE_ENV)
    for kind in ("info", "clear"):  # a file where the folder should be: said, not "0 runs"
        not_folder = cache.cache_dir().parent / "a-file"
        not_folder.write_text("mine")
        monkeypatch.setenv(cache.DIR_ENV, str(not_folder))
        assert main(["cache", kind]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "which is not a folder" in err
        assert not_folder.read_text() == "mine"


def report(folder, *extra) -> dict:
    assert main(["report", "yosemite", "--games", "60", "--studies", "first",
                 "--strong", "none", "--quiet", "--out", str(folder), *extra]) == 0
    return json.loads((folder / "provenance.json").read_text())


def tables(folder) -> dict:
    return {p.relative_to(folder): p.read_text() for p in sorted(folder.rglob("*.csv"))}


def test_the_same_report_into_another_folder_reads_its_runs_back(tmp_path):
    """The same report is copied whole (test_cache_everywhere); one that differs only in how
    its findings are classed plays the same runs, read back; --no-cache plays them all."""
    first = report(tmp_path / "a")
    copied = report(tmp_path / "b")
    again = report(tmp_path / "c", "--smallest-effect", "rate=3")
    unplayed = report(tmp_path / "d", "--no-cache")
    runs = first["run_cache"]["runs"]
    assert runs > 0
    assert first["run_cache"] == {"runs": runs, "from_cache": 0}
    assert copied == {**first, "report_from_cache": True}
    assert again["run_cache"] == {"runs": runs, "from_cache": runs}
    assert all(c["from_cache"] for c in again["configurations"])
    assert unplayed["run_cache"] == {"runs": runs, "from_cache": 0}
    assert "report_from_cache" not in again and "report_from_cache" not in unplayed
    assert tables(tmp_path / "a") == tables(tmp_path / "b") == tables(tmp_path / "d")


def test_kept_files_named_outside_their_folder_are_not_read_back():
    """A stored set of files (a report, a guide) is written into an output folder by name: a
    damaged or planted entry naming a place outside it is a miss, never written."""
    cache.store_files("k-good", {"report.md": b"a", "sections/0-x.json": b"{}"})
    assert cache.load_files("k-good") == {"report.md": b"a", "sections/0-x.json": b"{}"}
    for bad in ("../evil.txt", "/etc/evil", "sections/../../evil", ""):
        cache.store_files("k-bad", {"report.md": b"a", bad: b"x"})
        assert cache.load_files("k-bad") is None, bad
