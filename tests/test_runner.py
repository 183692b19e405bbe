"""Batch running: the same seed gives the same table on every backend and chunking; runs
streamed to disk resume after a real kill or Ctrl-C, refuse a mismatched or foreign folder,
recompute damaged chunks; sweeps write hive folders that load back as one table; every
user mistake is one line and exit code 2."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest
from cli_helpers import cli, one_error_line
from numba import njit
from numba.core.errors import TypingError

import snapsim
from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.sim.kernel import as_floats, as_uints, bit_count, low_bit, pointer, shifted

GAME = "snapshot"
LINEUP = ["greedy", "cautious", "aggressive", "random"]
EQ = dict(check_dtype=False, check_categorical=False, check_exact=True)



def assert_same_rows(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """Same rows in the same order with identical values (dtypes may differ after Parquet)."""
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True), **EQ)


def folder_state(folder: Path) -> dict:
    """Every file under `folder`: (size, mtime in ns, sha256)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns,
                                          hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(folder.rglob("*")) if p.is_file()}


def run_files(chunks: int) -> list[str]:
    return sorted(["manifest.json"] + [f"chunk-{i:06d}.parquet" for i in range(chunks)])


def manifest(folder: Path) -> dict | None:
    try:
        return json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None


def is_worker(p: psutil.Process) -> bool:
    """A live child other than multiprocessing's resource tracker (it lives as long as we do)."""
    try:
        return p.status() != psutil.STATUS_ZOMBIE and \
            "resource_tracker" not in " ".join(p.cmdline())
    except psutil.Error:
        return False


def wait_no_children(timeout: float = 20.0) -> list:
    """Worker processes a backend started are gone once the call returns (allow a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        alive = [p for p in psutil.Process().children(recursive=True) if is_worker(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


# ---------------------------------------------------------------- same results everywhere


@pytest.fixture(scope="module")
def reference():
    """1,200 mixed-line-up games in one chunk on one thread: the table every backend must give."""
    return snapsim.simulate(GAME, policies=LINEUP, games=1200, seed=11, threads=1,
                            chunk_size=5000)


@pytest.mark.parametrize("options", [
    dict(threads=2),
    dict(threads=1, chunk_size=7),
    dict(threads=2, chunk_size=100),
    dict(threads=2, chunk_size=333),
    dict(workers=2, chunk_size=300),
    pytest.param(dict(scheduler="local:2", chunk_size=300), marks=pytest.mark.slow),  # 10-15 s
], ids=["2-threads", "1-thread-chunk-7", "2-threads-chunk-100", "2-threads-chunk-333",
        "process-pool-2", "dask-local-2"])
def test_every_backend_and_chunking_gives_the_same_table(reference, options):
    df = snapsim.simulate(GAME, policies=LINEUP, games=1200, seed=11, **options)
    assert df.equals(reference)
    assert len(df) == 1200 * 4
    if "workers" in options or "scheduler" in options:
        alive = wait_no_children()
        assert not alive, f"worker processes outlived the call: {alive}"


@pytest.mark.parametrize("count", [0, 1, 2, 5, 7, 100])
def test_run_blocks_splits_the_games_into_one_block_per_thread(count):
    import numba

    from snapsim.sim.kernel import run_blocks

    for threads in range(1, numba.config.NUMBA_NUM_THREADS + 1):
        blocks = []
        with numba_threads(threads):
            run_blocks(lambda lo, hi, out: out.append((lo, hi)), count, blocks)
        games = [g for lo, hi in sorted(blocks) for g in range(lo, hi)]
        assert games == list(range(count))  # every game once, in blocks of consecutive games
        assert len(blocks) == min(threads, count)
        assert all(hi > lo for lo, hi in blocks)


def test_run_blocks_runs_its_blocks_side_by_side_and_passes_on_a_blocks_error():
    import threading

    import numba

    from snapsim.sim.kernel import run_blocks

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread on this machine")
    meet = threading.Barrier(2, timeout=30)  # passed only when both blocks run at once
    with numba_threads(2):
        run_blocks(lambda lo, hi: meet.wait(), 2)

        def fail(lo, hi):
            if lo > 0:
                raise ValueError("block failed")

        with pytest.raises(ValueError, match="block failed"):
            run_blocks(fail, 10)


@njit
def _write_through_views(st, mem):
    """Writes through every kind of raw view a kernel makes: a pointer assigned alone and
    unpacked from a tuple, a shifted one, float and uint64 readings of int64 memory; the
    views are not read again, so numba would drop writes it took for a local object's."""
    p = pointer(st)
    p[0] = 1
    a, b = pointer(st), pointer(mem)
    n = 1
    a[n] = 2
    b[n] = 3
    q = shifted(p, 2)
    q[0] = 4
    f = as_floats(shifted(b, 2))
    f[0] = 0.5
    u = as_uints(shifted(pointer(mem), 3))
    u[0] = np.uint64(1) << np.uint64(63)


@pytest.mark.kernel
def test_a_kernels_writes_through_its_raw_views_reach_the_arrays():
    st, mem = np.zeros(4, np.int64), np.zeros(4, np.int64)
    _write_through_views(st, mem)
    assert st.tolist() == [1, 2, 4, 0]
    assert mem[1] == 3 and mem[2:3].view(np.float64)[0] == 0.5
    assert mem[3:4].view(np.uint64)[0] == 1 << 63


@njit
def _read_through(view, i):
    return pointer(view)[i]


@pytest.mark.kernel
def test_a_raw_view_needs_a_c_contiguous_array():
    table = np.arange(12).reshape(3, 4)
    assert _read_through(table, 5) == 5  # flat: row-major
    with pytest.raises((ValueError, TypingError)):
        _read_through(table[:, 1], 1)  # a column: not contiguous


@contextlib.contextmanager
def numba_threads(n: int):
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def test_another_seed_gives_another_table(reference):
    df = snapsim.simulate(GAME, policies=LINEUP, games=1200, seed=12, threads=2)
    assert not df.equals(reference)


def test_run_to_a_folder_loads_back_row_for_row(reference, tmp_path):
    out = tmp_path / "run"
    res = snapsim.run(GAME, out, policies=LINEUP, games=1200, seed=11, chunk_size=250,
                      threads=2)
    assert (res.chunks_total, res.chunks_done, res.computed, res.complete) == (5, 5, 5, True)
    assert sorted(p.name for p in out.iterdir()) == run_files(5)
    assert manifest(out)["complete"] is True
    assert_same_rows(snapsim.load(out), reference)
    # the summary streamed from the chunks equals the one from the whole table
    want = reference.groupby("seat")[["won", "score"]].sum()
    assert res.by_seat["n"].tolist() == [1200] * 4
    assert res.by_seat["won"].tolist() == pytest.approx(want["won"].tolist())
    assert res.by_seat["score"].tolist() == want["score"].tolist()
    assert res.by_policy["n"].sum() == 1200 * 4
    # resuming a finished run computes nothing and changes nothing
    before = folder_state(out)
    again = snapsim.run(GAME, out, policies=LINEUP, games=1200, seed=11, chunk_size=250,
                        resume=True)
    assert (again.computed, again.complete) == (0, True)
    assert {k: v for k, v in folder_state(out).items() if k != "manifest.json"} == \
        {k: v for k, v in before.items() if k != "manifest.json"}


# ---------------------------------------------------------------- kill, Ctrl-C and resume

CHUNK = 250
KILL_SEED = 5


def simulate_argv(out: Path, games: int) -> list[str]:
    return ["simulate", GAME, "--games", str(games), "--chunk-size", str(CHUNK),
            "--seed", str(KILL_SEED), "--out", str(out), "--quiet", "--threads", "1"]


@contextlib.contextmanager
def children_take_sigint():
    """A child inherits an ignored SIGINT (e.g. pytest started in the background) and then
    Python never raises KeyboardInterrupt; give it a handler, which exec resets to default."""
    old = signal.getsignal(signal.SIGINT)
    if old == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if old == signal.SIG_IGN:
            signal.signal(signal.SIGINT, old)


def interrupt_mid_run(tmp_path: Path, sig: int, name: str):
    """Start the CLI, wait for at least one finished chunk, send `sig` while it still runs.
    Retries with more games if the run was already over; returns (folder, games, rc, stderr,
    chunks listed after the signal)."""
    games = 40 * CHUNK
    for attempt in range(3):
        out = tmp_path / f"{name}-{attempt}"
        total = -(-games // CHUNK)
        with children_take_sigint():
            proc = subprocess.Popen([sys.executable, "-m", "snapsim", *simulate_argv(out, games)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 300  # a cold numba cache compiles for about a minute
            while proc.poll() is None and time.monotonic() < deadline:
                m = manifest(out)
                if m and m["chunks"]:
                    break
                time.sleep(0.02)
            if proc.poll() is None and time.monotonic() >= deadline:
                pytest.fail("no chunk finished within 300 s")
            if proc.poll() is None:
                proc.send_signal(sig)
            _, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        done = manifest(out)["chunks"] if manifest(out) else []
        if len(done) == total:  # every chunk finished before the signal landed: retry
            games *= 4
            continue
        assert proc.returncode in (-sig, 130), f"rc {proc.returncode}:\n{err}"
        assert 1 <= len(done) < total
        return out, games, proc.returncode, err, done
    pytest.fail("every run finished before the signal arrived")


_REFERENCES: dict[int, pd.DataFrame] = {}


def uninterrupted(games: int) -> pd.DataFrame:
    if games not in _REFERENCES:
        _REFERENCES[games] = snapsim.simulate(GAME, games=games, seed=KILL_SEED)
    return _REFERENCES[games]


def resume_and_check(capsys, out: Path, games: int, done_before: int) -> None:
    total = -(-games // CHUNK)
    rc, text, err = cli(capsys, *simulate_argv(out, games), "--resume")
    assert rc == 0, err
    m = re.search(r"\((\d+) chunks, (\d+) computed now\)", text)
    assert m, text
    assert int(m.group(1)) == total
    assert int(m.group(2)) == total - done_before  # only the missing chunks ran
    assert manifest(out)["complete"] is True
    assert sorted(p.name for p in out.iterdir()) == run_files(total)
    assert_same_rows(snapsim.load(out), uninterrupted(games))


def test_sigkill_mid_run_then_resume_equals_an_uninterrupted_run(tmp_path, capsys):
    out, games, rc, _, done = interrupt_mid_run(tmp_path, signal.SIGKILL, "kill")
    assert rc == -signal.SIGKILL  # really killed, mid-run
    resume_and_check(capsys, out, games, len(done))


def test_ctrl_c_keeps_chunks_says_resume_and_resume_finishes(tmp_path, capsys):
    out, games, rc, err, done = interrupt_mid_run(tmp_path, signal.SIGINT, "int")
    assert rc == 130, err
    line = [s for s in err.splitlines() if s.strip()]
    assert len(line) == 1 and "Traceback" not in err, err
    assert "--resume" in line[0] and "kept" in line[0] and str(out) in line[0]
    resume_and_check(capsys, out, games, len(done))


# ---------------------------------------------------------------- refused folders


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A finished 400-game run made by the CLI (4 chunks, seed 1)."""
    out = tmp_path_factory.mktemp("small") / "run"
    assert main(["simulate", GAME, "--games", "400", "--chunk-size", "100", "--seed", "1",
                 "--out", str(out), "--quiet"]) == 0
    return out


SMALL = ("simulate", GAME, "--games", "400", "--chunk-size", "100", "--quiet")


@pytest.mark.parametrize("change, setting, values", [
    (["--seed", "2"], "seed", ["1", "2"]),
    (["--seed", "1", "--set", "photo_target=8"], "photo_target", ["8"]),
    (["--seed", "1", "--policies", ",".join(LINEUP)], "policies", ["greedy", "cautious"]),
], ids=["seed", "knob", "line-up"])
def test_resume_with_other_settings_is_refused_and_changes_nothing(small_run, capsys, change,
                                                                   setting, values):
    capsys.readouterr()
    before = folder_state(small_run)
    rc, _, err = cli(capsys, *SMALL, "--out", small_run, "--resume", *change)
    assert rc == 2
    line = one_error_line(err)
    assert "resume" in line and setting in line
    assert folder_state(small_run) == before
    # clear: the line names the differing setting, not a dump of every setting
    text = line.replace(str(small_run), "DIR")
    assert len(text) < 250, f"{len(text)}-character line does not say clearly what differs:" \
                            f"\n{text}"
    for value in values:  # ... and both values as the user wrote them
        assert value in text.split(setting, 1)[1], text


def test_existing_run_folder_without_resume_is_refused(small_run, capsys):
    capsys.readouterr()
    before = folder_state(small_run)
    rc, _, err = cli(capsys, *SMALL, "--seed", "1", "--out", small_run)
    assert rc == 2
    assert "--resume" in one_error_line(err)
    assert folder_state(small_run) == before
    with pytest.raises(InputError):
        snapsim.run(GAME, small_run, games=400, chunk_size=100, seed=1)


@pytest.mark.parametrize("resume", [False, True], ids=["run", "resume"])
def test_folder_with_foreign_files_is_refused(tmp_path, capsys, resume):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    before = folder_state(out)
    rc, _, err = cli(capsys, *SMALL, "--out", out, *(["--resume"] if resume else []))
    assert rc == 2
    assert str(out) in one_error_line(err)
    assert folder_state(out) == before  # no manifest written, nothing removed


# ---------------------------------------------------------------- damaged chunks


def test_corrupt_partial_or_foreign_chunks_are_recomputed_not_loaded(tmp_path):
    out = tmp_path / "run"
    kw = dict(games=2000, chunk_size=200, seed=3, threads=2)
    assert snapsim.run(GAME, out, **kw).computed == 10
    want = snapsim.simulate(GAME, games=2000, seed=3)
    assert_same_rows(snapsim.load(out), want)
    chunk = [out / f"chunk-{i:06d}.parquet" for i in range(10)]
    data = chunk[1].read_bytes()
    chunk[1].write_bytes(data[: len(data) // 2])  # (a) partial file
    chunk[4].write_bytes(b"not parquet at all " * 500)  # (b) garbage
    shutil.copyfile(chunk[2], chunk[7])  # (c) valid Parquet, wrong rows (games 400-599)
    damaged = {1, 4, 7}
    untouched = {i: folder_state(out)[chunk[i].name] for i in range(10) if i not in damaged}
    res = snapsim.run(GAME, out, resume=True, **kw)
    assert (res.computed, res.chunks_done, res.complete) == (3, 10, True)
    after = folder_state(out)
    assert {i: after[chunk[i].name] for i in untouched} == untouched  # only those recomputed
    assert_same_rows(snapsim.load(out), want)


def test_missing_chunk_and_stale_temp_file_on_resume(tmp_path):
    out = tmp_path / "run"
    kw = dict(games=400, chunk_size=100, seed=3)
    snapsim.run(GAME, out, **kw)
    (out / "chunk-000002.parquet").unlink()
    (out / ".tmp-abc.parquet").write_bytes(b"half a chunk")
    res = snapsim.run(GAME, out, resume=True, **kw)
    assert (res.computed, res.complete) == (1, True)
    assert not list(out.glob(".tmp-*"))
    assert_same_rows(snapsim.load(out), snapsim.simulate(GAME, **kw))


# ---------------------------------------------------------------- sweeps


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_sweep_grid_writes_hive_folders_and_equals_single_runs(tmp_path, capsys):
    root = tmp_path / "sweep"
    f = write(tmp_path / "grid.toml", f"""
games = 300
seed = 4
players = 3
chunk_size = 100
out = {json.dumps(str(root))}
[grid]
photo_target = [7, 8]
reroll_cost = [1, 3]
""")
    rc, out, err = cli(capsys, "sweep", f, "--quiet")
    assert rc == 0, err
    points = [(pt, rr) for pt in (7, 8) for rr in (1, 3)]
    for pt, rr in points:
        m = manifest(root / f"photo_target={pt}" / f"reroll_cost={rr}")
        assert m is not None and m["complete"]
    df = snapsim.load(root)
    assert {"photo_target", "reroll_cost"} <= set(df.columns)
    assert len(df) == 4 * 300 * 3
    eight = snapsim.load(root, photo_target=8)
    assert len(eight) == 2 * 300 * 3 and set(eight.photo_target) == {8}
    tables = []
    for pt, rr in points:
        got = df[(df.photo_target == pt) & (df.reroll_cost == rr)]
        want = snapsim.simulate(GAME, players=3, games=300, seed=4, photo_target=pt,
                                reroll_cost=rr)
        assert_same_rows(got.drop(columns=["photo_target", "reroll_cost"]), want)
        tables.append(want)
    assert not tables[0].equals(tables[3])  # the knobs do change the games
    # a finished sweep resumes with nothing to do; without --resume it is refused
    before = folder_state(root)
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--resume")
    assert rc == 0, err
    rc, _, err = cli(capsys, "sweep", f, "--quiet")
    assert rc == 2 and "--resume" in one_error_line(err)
    assert set(folder_state(root)) == set(before)


def test_sweep_lineup_grid_with_different_player_counts(tmp_path, capsys):
    """Line-ups of different lengths: each point plays as many seats as its line-up."""
    root = tmp_path / "lineups"
    lineups = [["greedy", "random"], ["greedy", "cautious", "random"]]
    f = write(tmp_path / "lineups.toml", f"""
games = 200
seed = 9
chunk_size = 100
[grid]
lineup = {json.dumps(lineups)}
""")
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", root)
    assert rc == 0, err
    df = snapsim.load(root)
    assert len(df) == 200 * 2 + 200 * 3
    for i, lineup in enumerate(lineups):
        got = snapsim.load(root, lineup=i)
        want = snapsim.simulate(GAME, players=len(lineup), policies=lineup, games=200, seed=9)
        assert_same_rows(got.drop(columns=["lineup"]), want)


def test_sweep_over_players_and_lineups_loads(tmp_path, capsys):
    root = tmp_path / "players"
    f = write(tmp_path / "players.toml", """
games = 100
seed = 2
[grid]
players = [2, 3]
lineup = [["greedy"], ["random"]]
""")
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", root)
    assert rc == 0, err
    assert (root / "players=3" / "lineup=1" / "manifest.json").exists()
    df = snapsim.load(root)
    assert len(df) == 100 * (2 + 2 + 3 + 3)
    got = snapsim.load(root, players=3, lineup=1)
    want = snapsim.simulate(GAME, players=3, policies=["random"], games=100, seed=2)
    assert_same_rows(got.drop(columns=["lineup"]), want)


GOOD = 'games = 10\n[grid]\nphoto_target = [7]\n'
BAD_SWEEPS = {
    "unknown_key": 'games = 10\nfoo = 1\n[grid]\nphoto_target = [7]\n',
    "unknown_grid_knob": 'games = 10\n[grid]\nbogus = [7]\n',
    "unknown_set_knob": 'games = 10\n[set]\nbogus = 1\n[grid]\nphoto_target = [7]\n',
    "empty_grid": 'games = 10\n[grid]\n',
    "no_grid": 'games = 10\n',
    "grid_not_list": 'games = 10\n[grid]\nphoto_target = 7\n',
    "grid_empty_list": 'games = 10\n[grid]\nphoto_target = []\n',
    "grid_wrong_type": 'games = 10\n[grid]\nphoto_target = ["x"]\n',
    "games_not_number": 'games = "many"\n[grid]\nphoto_target = [7]\n',
    "rotate_not_bool": 'games = 10\nrotate_seats = 3\n[grid]\nphoto_target = [7]\n',
    "set_wrong_type": 'games = 10\n[set]\nraccoon = "yes"\n[grid]\nphoto_target = [7]\n',
    "out_not_text": 'games = 10\nout = 5\n[grid]\nphoto_target = [7]\n',
    "policies_not_list": 'games = 10\npolicies = "greedy"\n[grid]\nphoto_target = [7]\n',
    "invalid_toml": 'games = = 10\n[grid\n',
    "lineup_length": 'games = 10\nplayers = 3\n[grid]\nlineup = [["greedy", "random"]]\n',
    "lineup_not_lists": 'games = 10\n[grid]\nlineup = ["greedy"]\n',
}


@pytest.mark.parametrize("case", sorted(BAD_SWEEPS) + ["missing_file"])
def test_bad_sweep_file_is_one_line_naming_the_file(tmp_path, capsys, case):
    f = tmp_path / f"{case}.toml"
    if case != "missing_file":
        f.write_text(BAD_SWEEPS[case])
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", tmp_path / "out") \
        if case != "out_not_text" else cli(capsys, "sweep", f, "--quiet")
    assert rc == 2, err
    assert f.name in one_error_line(err)
    assert not (tmp_path / "out").exists()


def test_good_sweep_file_for_the_bad_cases_runs(tmp_path, capsys):
    f = write(tmp_path / "good.toml", GOOD)
    rc, _, err = cli(capsys, "sweep", f, "--quiet", "--out", tmp_path / "out")
    assert rc == 0, err


# ---------------------------------------------------------------- load and backend errors


def test_load_errors(small_run, tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        snapsim.load(tmp_path / "nowhere")
    with pytest.raises(InputError, match="bogus"):
        snapsim.load(small_run, bogus=1)


@pytest.mark.parametrize("option", [["--scheduler", "bogus"], ["--scheduler", "local:0"],
                                    ["--workers", "0"], ["--threads", "0"]],
                         ids=["scheduler-bogus", "scheduler-local-0", "workers-0", "threads-0"])
def test_bad_backend_option_is_one_line(capsys, option):
    rc, _, err = cli(capsys, "simulate", GAME, "--games", "20", "--quiet", *option)
    assert rc == 2
    assert option[0].lstrip("-") in one_error_line(err)


@pytest.mark.parametrize("option", [["--scheduler", "bogus"], ["--workers", "0"]],
                         ids=["scheduler-bogus", "workers-0"])
def test_bad_backend_option_leaves_no_run_folder_behind(tmp_path, capsys, option):
    """Fixing the typo and running the same command again must just work (no --resume)."""
    out = tmp_path / "run"
    rc, _, err = cli(capsys, *SMALL, "--out", out, *option)
    assert rc == 2
    one_error_line(err)
    rc, _, err = cli(capsys, *SMALL, "--out", out)
    assert rc == 0, err


@njit
def _bits(m):
    return bit_count(m), low_bit(m)


@pytest.mark.kernel
@pytest.mark.parametrize("m", [1, 2, 3, 0b1011000, (1 << 36) | (1 << 5), (1 << 62) | 1,
                               (1 << 63) - 1, 0x5555_5555_5555_5555])
def test_bit_helpers_count_and_find_the_lowest_card_of_a_mask(m):
    ones = [i for i in range(64) if m >> i & 1]
    assert _bits(np.int64(m)) == (len(ones), ones[0])


def test_batches_run_their_blocks_on_the_same_threads_call_after_call():
    # a report or a rebalance plays a thousand batches: starting threads for each cost seconds
    import threading

    import numba

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one numba thread: a batch runs in the calling thread")

    def blocks() -> set[int]:
        return {t.ident for t in threading.enumerate() if t.name.startswith("snapsim-block")}

    snapsim.simulate("yosemite", policies=["greedy"], games=400, seed=1, threads=2)
    first = blocks()
    snapsim.simulate("yosemite", policies=["greedy"], games=400, seed=2, threads=2)
    assert len(first) >= 2 and blocks() == first  # (more where an earlier run used more)
