"""`snapsim odds photo|explore|spook|tokens`: tables that agree with the API, and one-line errors.

The last test (the full 37-card deck) is deliberately here, not in test_odds.py: this file is
not marked `kernel`, so the NUMBA_DISABLE_JIT=1 rerun in CI does not walk the full deck.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from snapsim.cli import main
from snapsim.games.snapshot.components import load_components
from snapsim.odds import explore_odds, photo_success, research_odds, token_table

ROOT = Path(__file__).resolve().parents[1]
TOL = 1e-12
JSON_TOL = 1e-9  # pandas' to_json writes 10 decimals


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def all_cards():
    comp = load_components()
    return [(a.habitat, a.difficulty) for a in comp.animals]


# ---------------------------------------------------------------- default tables


@pytest.mark.parametrize("kind, header", [
    ("photo", "P(photograph)"),
    ("explore", "Explore"),
    ("spook", "Research odds"),
    ("tokens", "next token"),
])
def test_default_tables(capsys, kind, header):
    rc, out, err = run(capsys, "odds", kind)
    assert rc == 0
    assert err == ""
    lines = out.splitlines()
    assert header in lines[0]
    assert len(lines) > 3


def test_photo_table_wide_by_dice(capsys):
    rc, out, _ = run(capsys, "odds", "photo", "--dice", "1-3", "--difficulty", "2-12")
    assert rc == 0
    lines = out.splitlines()
    assert lines[1].split() == ["difficulty", "1", "dice", "2", "dice", "3", "dice"]
    row7 = next(line.split() for line in lines[2:] if line.split()[0] == "7")
    assert [float(x) for x in row7[1:]] == pytest.approx(
        [round(photo_success(d, 0, 7), 4) for d in (1, 2, 3)], abs=1e-9)


# ---------------------------------------------------------------- csv and json agree with the API


def test_photo_csv_matches_api(capsys):
    rc, out, err = run(capsys, "odds", "photo", "--dice", "1-4", "--tokens", "0-3",
                       "--difficulty", "1-25", "--format", "csv")
    assert rc == 0 and err == ""
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == ["dice", "tokens", "difficulty", "p_success"]
    assert len(df) == 4 * 4 * 25
    want = [photo_success(r.dice, r.tokens, r.difficulty) for r in df.itertuples()]
    np.testing.assert_allclose(df.p_success, want, rtol=0, atol=TOL)


def test_explore_csv_matches_api(capsys):
    rc, out, _ = run(capsys, "odds", "explore", "--dice", "1-3", "--target", "2-6",
                     "--rerolls", "0-3", "--reroll-cost", "3", "--format", "csv")
    assert rc == 0
    df = pd.read_csv(io.StringIO(out))
    assert len(df) == 3 * 5 * 4
    for r in df.itertuples():
        o = explore_odds(r.dice, r.target, r.rerolls, 3)
        assert r.p_success == pytest.approx(o.success, abs=TOL)
        assert r.expected_rerolls == pytest.approx(o.expected_rerolls, abs=TOL)
        assert r.expected_tokens_paid == pytest.approx(o.expected_paid, abs=TOL)


def test_tokens_csv_matches_api(capsys):
    rc, out, _ = run(capsys, "odds", "tokens", "--target", "3,5", "--explore-dice", "1-2",
                     "--animal-dice", "1-3", "--difficulty", "2-10", "--tokens", "0-2",
                     "--rerolls", "1", "--format", "csv")
    assert rc == 0
    df = pd.read_csv(io.StringIO(out))
    want = token_table((3, 5), (1, 2), (1, 2, 3), tuple(range(2, 11)), (0, 1, 2), rerolls=1)
    assert list(df.columns) == list(want.columns)
    pd.testing.assert_frame_equal(df, want, check_exact=False, rtol=0, atol=TOL)


@pytest.mark.parametrize("kind", ["photo", "explore", "tokens"])
def test_json_parses(capsys, kind):
    rc, out, _ = run(capsys, "odds", kind, "--format", "json")
    assert rc == 0
    payload = json.loads(out)
    assert payload["rows"] and isinstance(payload["rows"][0], dict)


SMALL_UNSEEN = "shoreline:2-6;mountain:3,5,9;rainforest:8;raccoon"


def test_spook_csv_matches_api(capsys):
    rc, out, _ = run(capsys, "odds", "spook", "--top", "shoreline=4", "--top", "mountain=7",
                     "--unseen", SMALL_UNSEEN, "--reserve-slots", "1", "--format", "csv")
    assert rc == 0
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == ["draws_before_spook", "p_no_reserve", "p_1_reserve_slots"]
    cards = [(0, d) for d in range(2, 7)] + [(2, 3), (2, 5), (2, 9), (3, 8)]
    plain = research_odds([4, 0, 7, 0], cards, raccoon=True)
    slots = research_odds([4, 0, 7, 0], cards, raccoon=True, free_slots=1)
    for col, want in (("p_no_reserve", plain.spook_pmf), ("p_1_reserve_slots", slots.spook_pmf)):
        got = df[col].to_numpy()
        np.testing.assert_allclose(got[:len(want)], want, rtol=0, atol=TOL)
        assert not got[len(want):].any()


@pytest.fixture(scope="module")
def example_direct():
    """research_odds for `--top mountain=7 --seen shoreline:2-4 --raccoon`, called directly."""
    seen = {(0, 2), (0, 3), (0, 4), (2, 7)}
    cards = [c for c in all_cards() if c not in seen]
    assert len(cards) == 32
    tops = [0, 0, 7, 0]
    return (len(cards) + 1, research_odds(tops, cards, raccoon=True),
            research_odds(tops, cards, raccoon=True, free_slots=2))


def test_spook_example_json_matches_research_odds(capsys, example_direct):
    n_unseen, plain, slots = example_direct
    rc, out, err = run(capsys, "odds", "spook", "--top", "mountain=7", "--seen",
                       "shoreline:2-4", "--raccoon", "--reserve-slots", "2", "--format", "json")
    assert rc == 0 and err == ""
    payload = json.loads(out)
    assert payload["unseen_cards"] == n_unseen == 33
    assert payload["p_next_draw_spooks"] == pytest.approx(plain.next_draw, abs=TOL)
    assert payload["p_next_draw_spooks"] == pytest.approx(5 / 33, abs=TOL)  # mountain 2-6
    assert payload["expected_tokens_drawing_to_spook"] == pytest.approx(plain.expected_tokens,
                                                                        abs=TOL)
    assert payload["p_deck_runs_out_first"] == pytest.approx(plain.stopped.sum(), abs=TOL)
    rows = pd.DataFrame(payload["rows"])
    n = len(rows)
    np.testing.assert_allclose(rows.p_no_reserve, np.pad(plain.spook_pmf,
                                                         (0, n - len(plain.spook_pmf))),
                               rtol=0, atol=JSON_TOL)
    np.testing.assert_allclose(rows.p_2_reserve_slots, np.pad(slots.spook_pmf,
                                                              (0, n - len(slots.spook_pmf))),
                               rtol=0, atol=JSON_TOL)
    assert rows.p_no_reserve.sum() == pytest.approx(plain.p_spook, abs=1e-8)


def test_spook_example_table_matches_research_odds(capsys, example_direct):
    _, plain, slots = example_direct
    rc, out, _ = run(capsys, "odds", "spook", "--top", "mountain=7", "--seen", "shoreline:2-4",
                     "--raccoon", "--reserve-slots", "2")
    assert rc == 0
    lines = out.splitlines()
    assert f"p_next_draw_spooks: {plain.next_draw:.6g}" in out
    header = next(i for i, line in enumerate(lines) if line.split()[:1] == ["draws_before_spook"])
    first = lines[header + 1].split()
    assert float(first[1]) == pytest.approx(round(plain.spook_pmf[0], 4), abs=1e-9)
    assert float(first[2]) == pytest.approx(round(slots.spook_pmf[0], 4), abs=1e-9)


def test_spook_stopping_rule_matches_research_odds(capsys):
    cards = [(0, d) for d in range(2, 7)] + [(2, 3), (2, 5), (2, 9), (3, 8)]
    rc, out, _ = run(capsys, "odds", "spook", "--top", "shoreline=4", "--top", "mountain=7",
                     "--unseen", SMALL_UNSEEN, "--max-placed", "3", "--max-risk", "0.3",
                     "--reserve-slots", "2", "--format", "json")
    assert rc == 0
    payload = json.loads(out)
    rule = research_odds([4, 0, 7, 0], cards, raccoon=True, free_slots=2, max_placed=3,
                         max_risk=0.3)
    assert payload["rule_expected_tokens"] == pytest.approx(rule.expected_tokens, abs=TOL)
    assert payload["rule_p_spook"] == pytest.approx(rule.p_spook, abs=TOL)


def test_seen_unique_prefix_is_accepted(capsys):
    # "sh" matches only Shoreline (a unique prefix); "s" matches Shoreline and Savannah
    args = ("odds", "spook", "--top", "mountain=7", "--raccoon", "--format", "json", "--seen")
    rc1, out1, _ = run(capsys, *args, "sh:2")
    rc2, out2, _ = run(capsys, *args, "shoreline:2")
    assert rc1 == rc2 == 0
    assert json.loads(out1) == json.loads(out2)


# ---------------------------------------------------------------- bad command lines


BAD = [
    ("odds", "photo", "--dice", "0"),
    ("odds", "photo", "--dice", "7"),
    ("odds", "photo", "--tokens", "-1"),  # argparse takes "-1" as the value; the API rejects it
    ("odds", "photo", "--dice", "2.5"),
    ("odds", "photo", "--dice", "3-1"),
    ("odds", "photo", "--format", "xml"),
    ("odds", "explore", "--target", "7"),
    ("odds", "explore", "--reroll-cost", "0"),
    ("odds", "spook", "--top", "foo=3"),
    ("odds", "spook", "--top", "mountain"),
    ("odds", "spook", "--top", "mountain=11"),
    ("odds", "spook", "--seen", "mountain:11"),
    ("odds", "spook", "--seen", "s:2"),  # ambiguous: Shoreline, Savannah
    ("odds", "spook", "--seen", "unicorn"),
    # a small --unseen keeps these fast: the CLI walks the deck before it checks these options
    ("odds", "spook", "--unseen", "shoreline:2-4", "--reserve-slots", "9"),
    ("odds", "spook", "--unseen", "shoreline:2-4", "--max-placed", "-1"),
    ("odds", "spook", "--unseen", "shoreline:2-4", "--max-risk", "-0.5"),
    ("odds", "spook", "--unseen", "shoreline:2-4", "--max-risk", "1.5"),
    ("odds", "spook", "--unseen", "shoreline:2-4", "--max-risk", "nan"),
    ("odds", "spook", "--components", "/nonexistent.toml"),
    ("odds", "frobnicate"),
    ("odds",),
    (),
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) or "<none>" for a in BAD])
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    rc, out, err = run(capsys, *argv)
    assert rc == 2, (rc, out[:200])
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("snapsim: error:")
    assert "Traceback" not in err


def test_bad_messages_say_what_is_wrong(capsys):
    assert "tokens" in run(capsys, "odds", "photo", "--tokens", "-1")[2]
    assert "ambiguous" in run(capsys, "odds", "spook", "--seen", "s:2")[2]
    assert "difficulty 11" in run(capsys, "odds", "spook", "--seen", "mountain:11")[2]
    assert "HABITAT=DIFFICULTY" in run(capsys, "odds", "spook", "--top", "mountain")[2]
    assert "nonexistent.toml" in run(capsys, "odds", "spook", "--components",
                                     "/nonexistent.toml")[2]


# ---------------------------------------------------------------- module entry point


def test_python_dash_m_entry_point():
    good = subprocess.run([sys.executable, "-m", "snapsim", "odds", "photo", "--dice", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert good.returncode == 0, good.stderr
    assert "2 dice" in good.stdout
    assert good.stderr == ""
    bad = subprocess.run([sys.executable, "-m", "snapsim", "odds", "photo", "--dice", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1
    assert bad.stderr.startswith("snapsim: error:")


# ---------------------------------------------------------------- the full deck (not `kernel`)


@pytest.mark.slow  # the whole deck (a minute); the small decks' tests check the same sums
def test_full_deck_with_raccoon_at_an_empty_table():
    res = research_odds([0, 0, 0, 0], all_cards(), raccoon=True)
    assert res.spooked.shape == (38, 1)
    total = res.spooked.sum() + res.stopped.sum() + res.dropped
    assert total == pytest.approx(1.0, abs=1e-9)
    assert 0.0 <= res.dropped < 1e-12
    assert res.next_draw == 0.0  # nothing can spook and the raccoon fits anywhere
    assert res.p_spook > 0.99  # drawing on through 37 cards almost surely spooks


def test_spook_default_shows_only_the_no_reserve_column(capsys):
    rc, out, _ = run(capsys, "odds", "spook", "--unseen", SMALL_UNSEEN, "--format", "csv")
    assert rc == 0
    assert list(pd.read_csv(io.StringIO(out)).columns) == ["draws_before_spook", "p_no_reserve"]


def test_raccoon_flag_adds_the_raccoon_to_an_unseen_list(capsys):
    rc, out, _ = run(capsys, "odds", "spook", "--unseen", "shoreline:2-4", "--raccoon",
                     "--format", "json")
    assert rc == 0 and json.loads(out)["unseen_cards"] == 4


def test_tokens_table_with_no_situation_that_fits_is_an_error(capsys):
    rc, out, err = run(capsys, "odds", "tokens", "--explore-dice", "1", "--animal-dice", "6")
    assert rc == 2 and out == "" and "fits in 6 dice" in err
