"""Nothing overwritten, nothing lost, nothing left behind: report folders, interrupted runs,
worker processes, file permissions, manifests and seeds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

import snapsim
from snapsim.cli import main
from snapsim.errors import InputError
from snapsim.sim.kernel import game_rngs, mix_seed
from snapsim.sim.locks import LOCK, exclusive
from snapsim.sim.store import WRITTEN

GAME = "snapshot"


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# ---------------------------------------------------------------- report folders


def report(*extra) -> int:
    """The cheapest real report: Yosemite's first-player study, 300 games per configuration."""
    return main(["report", "yosemite", "--quick", "--quiet", "--studies", "first", *extra])


def test_report_refuses_another_runs_folder_unless_forced(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert report() == 0
    out = tmp_path / "yosemite-quick-report"  # --quick's own folder, never reports/
    first = json.loads((out / "provenance.json").read_text())
    assert first["seed"] == 1 and first["games"] == 300
    capsys.readouterr()

    assert report("--seed", "2", "--out", str(out)) == 2
    assert "another run (seed 1, not 2)" in one_error_line(capsys)
    assert json.loads((out / "provenance.json").read_text()) == first  # untouched

    # the same run again (one more study alone) is welcome and merges
    assert main(["report", "yosemite", "--quick", "--quiet", "--studies", "length"]) == 0
    assert json.loads((out / "provenance.json").read_text())["studies"] == ["first", "length"]

    assert report("--seed", "2", "--out", str(out), "--force") == 0
    forced = json.loads((out / "provenance.json").read_text())
    assert forced["seed"] == 2 and forced["studies"] == ["first"]
    # the old run's other section is gone, not carried into the new report
    assert [p.stem for p in (out / "sections").glob("*.json")] == \
        [p.stem for p in (out / "sections").glob("*first*.json")]


def test_report_refuses_a_folder_of_other_files(tmp_path, capsys):
    keep = tmp_path / "notes.txt"
    keep.write_text("mine")
    assert report("--out", str(tmp_path)) == 2
    assert "holds 'notes.txt', which snapsim did not write" in one_error_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_quick_report_stays_out_of_a_checkouts_reports_folder(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    target = tmp_path / "reports" / "yosemite"
    assert report("--out", str(target)) == 2
    assert "--quick does not write into" in one_error_line(capsys)
    assert not target.exists()


# ---------------------------------------------------------------- interrupted runs


def drop_chunks(folder: Path, keep: int) -> None:
    """Put a run folder in the state an interruption after `keep` chunks leaves."""
    manifest = json.loads((folder / "manifest.json").read_text())
    for entry in manifest["chunks"][keep:]:
        (folder / entry["file"]).unlink()
    manifest["chunks"] = manifest["chunks"][:keep]
    manifest["complete"] = False
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_load_refuses_an_interrupted_run_and_says_how_to_resume(tmp_path):
    out = tmp_path / "run"
    snapsim.run(GAME, out, games=30, seed=4, chunk_size=10)
    drop_chunks(out, keep=1)
    with pytest.raises(InputError, match=r"interrupted run: 2 of 3 chunks missing.*--resume"):
        snapsim.load(out)
    assert sorted(snapsim.load(out, allow_partial=True).game.unique()) == list(range(10))
    res = snapsim.run(GAME, out, games=30, seed=4, chunk_size=10, resume=True)
    assert res.computed == 2
    full = snapsim.load(out)
    want = snapsim.simulate(GAME, games=30, seed=4)
    assert full[["game", "seat", "score"]].equals(want[["game", "seat", "score"]])


def test_load_refuses_a_sweep_with_an_unfinished_point(tmp_path):
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('game = "snapshot"\ngames = 20\nseed = 2\nchunk_size = 10\n'
                     "[grid]\nphoto_target = [7, 8]\n")
    root = tmp_path / "out"
    snapsim.sim.run_sweep(snapsim.sim.read_sweep(sweep), out=root)
    drop_chunks(root / "photo_target=8", keep=0)
    with pytest.raises(InputError, match=r"interrupted sweep: 2 of 4 chunks missing in 1 of 2 "
                                         r"points \(first: photo_target=8\)"):
        snapsim.load(root)
    partial = snapsim.load(root, allow_partial=True)
    assert set(partial.photo_target) == {7} and len(partial) == 20 * 4


# ---------------------------------------------------------------- workers


def spawned_workers(parent: int) -> list[psutil.Process]:
    out = []
    for child in psutil.Process(parent).children():
        try:
            if "spawn_main" in " ".join(child.cmdline()) and \
                    "resource_tracker" not in " ".join(child.cmdline()):
                out.append(child)
        except psutil.Error:
            pass
    return out


def gone(p: psutil.Process) -> bool:
    try:
        return p.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_sigkill_of_a_workers_run_leaves_no_worker_behind(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "snapsim", "simulate", GAME, "--games",
                             "100000000", "--chunk-size", "200", "--workers", "2", "--out",
                             str(out), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300  # a cold numba cache compiles for a while
        while proc.poll() is None and not list(out.glob("chunk-*.parquet")):
            assert time.monotonic() < deadline, "no chunk finished within 300 s"
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()[1]
        workers = spawned_workers(proc.pid)  # both have finished a chunk or are running one
        assert len(workers) == 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while not all(gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [w.pid for w in workers if not gone(w)] == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------- files and manifests


def test_run_files_honour_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        snapsim.run(GAME, tmp_path / "run", games=4, chunk_size=2)
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "run").iterdir()}
    assert modes == {"chunk-000000.parquet": 0o640, "chunk-000001.parquet": 0o640,
                     "manifest.json": 0o640}


def test_numpy_numbers_in_a_runs_settings_are_written_and_resumable(tmp_path):
    out = tmp_path / "run"
    snapsim.run(GAME, out, games=4, seed=np.int64(3), photo_target=np.int64(8))
    identity = json.loads((out / "manifest.json").read_text())["identity"]
    assert identity["seed"] == 3 and identity["config"]["photo_target"] == 8
    res = snapsim.run(GAME, out, games=4, seed=3, photo_target=8, resume=True)
    assert res.complete and res.computed == 0


# ---------------------------------------------------------------- seeds


def splitmix64(state: int) -> tuple[int, int]:
    """Reference splitmix64 on Python integers: (new state, output)."""
    m = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & m
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return state, z ^ (z >> 31)


def reference_mix_seed(key: int, index: int) -> int:
    state = key ^ ((index * 0xD1B54A32D192ED03) & ((1 << 64) - 1))
    state, _ = splitmix64(state)
    return splitmix64(state)[1]


INDICES = [0, 1, 2, 2047, 2048, 2049, 1_000_003, 2**40 + 7]
KEY = 0xFEDCBA9876543210


def test_compiled_seeds_are_exact_modulo_2_64():
    assert [int(mix_seed(np.uint64(KEY), i)) for i in INDICES] == \
        [reference_mix_seed(KEY, i) for i in INDICES]


def test_interpreted_seeds_equal_the_compiled_ones_without_overflow_warnings():
    code = ("import json, numpy as np\n"
            "from snapsim.sim.kernel import game_rngs\n"
            f"print(json.dumps([[int(x) for x in game_rngs(np.uint64({KEY}), np.uint64(5), i)]"
            f" for i in {INDICES}]))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    compiled = [[int(x) for x in game_rngs(np.uint64(KEY), np.uint64(5), i)] for i in INDICES]
    assert json.loads(out.stdout) == compiled


# ---------------------------------------------------------------- one writer, whole outputs


HERE = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}  # this tree's


def snapsim_process(*argv, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "snapsim", *map(str, argv)], env=HERE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def snapsim_run(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snapsim", *map(str, argv)], env=HERE,
                          capture_output=True, text=True, timeout=600, **kw)


def wait_for(path: Path, proc: subprocess.Popen, seconds: float = 300) -> None:
    """Until `path` exists (the process has taken its folder), or fail."""
    deadline = time.monotonic() + seconds  # a cold numba cache compiles for a while
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path} did not appear within {seconds} s"
        time.sleep(0.02)


def test_a_second_writer_of_a_run_folder_is_refused_while_the_first_goes_on(tmp_path):
    out = tmp_path / "run"
    argv = ("simulate", "yosemite", "--games", 10**8, "--chunk-size", 200, "--out", out,
            "--threads", 1, "--quiet")  # one core: the second process starts beside it
    first = snapsim_process(*argv, "--seed", 1)
    try:
        wait_for(out / "manifest.json", first)  # writing chunks, its lock held
        second = snapsim_run(*argv, "--seed", 2)
        assert first.poll() is None, first.communicate()  # still writing
    finally:
        first.kill()  # SIGKILL: its finished chunks stay, and so does its lock file
        first.wait()
    assert second.returncode == 2
    line = [s for s in second.stderr.splitlines() if s.strip()]
    assert len(line) == 1 and f"being written by another snapsim run (process {first.pid})" \
        in line[0], second.stderr
    loaded = snapsim.load(out, allow_partial=True)  # the first run's: nothing of the second
    games = int(loaded.game.max()) + 1
    want = snapsim.simulate("yosemite", games=games, seed=1, chunk_size=200)
    assert loaded.equals(want[loaded.columns])
    assert json.loads((out / "manifest.json").read_text())["identity"]["seed"] == 1
    with exclusive(out):  # a dead writer's lock file holds nobody back
        pass
    assert not (out / LOCK).exists()  # and is gone; a chunk it was writing when killed is
    # left as a .tmp- file, which the next run in the folder deletes (tests/test_runner.py)
    assert {p.name for p in out.iterdir() if p.name.startswith(".") and
            not p.name.startswith(".tmp-")} == set()


@pytest.mark.slow  # the lock of the run folder's and rebalance's second-writer tests
def test_two_comparisons_into_one_folder_one_is_refused(tmp_path):
    out = tmp_path / "cmp"
    argv = ("compare", "yosemite", "--variant-set", "start_fish=4", "--games", 400,
            "--out", out, "--quiet")
    first = snapsim_process(*argv, "--seed", 1)
    try:
        wait_for(out / ".snapsim.lock", first)
        second = snapsim_run(*argv, "--seed", 2, "--force")
        assert first.wait(timeout=300) == 0, first.communicate()
    finally:
        first.kill()
    assert second.returncode == 2 and "being written by another snapsim run" in second.stderr
    assert json.loads((out / "provenance.json").read_text())["seed"] == 1


def test_a_killed_comparison_leaves_nothing_that_blocks_its_rerun(tmp_path):
    out = tmp_path / "cmp"
    argv = ["compare", "yosemite", "--variant-set", "start_fish=4", "--games", 300,
            "--out", out, "--quiet"]
    proc = snapsim_process(*argv)
    try:
        deadline = time.monotonic() + 300
        while not list(out.glob(".staging-*/*")):  # killed while writing its files
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        proc.kill()
    assert [p.name for p in out.iterdir() if not p.name.startswith(".")] == []  # no half
    assert main([str(a) for a in argv]) == 0  # the rerun is not refused
    names = {p.name for p in out.iterdir()}
    assert {"index.html", "report.md", "provenance.json"} <= names
    assert [n for n in names if n.startswith(".")] == [WRITTEN]  # the stale staging folder is
    # gone; the list of the files snapsim wrote is kept


def test_a_chunk_of_another_run_is_recomputed_on_resume_and_refused_by_load(tmp_path, capsys):
    mine, other = tmp_path / "mine", tmp_path / "other"
    argv = ("simulate", "yosemite", "--games", 30, "--chunk-size", 10, "--quiet")
    assert main([*map(str, argv), "--seed", "1", "--out", str(mine)]) == 0
    assert main([*map(str, argv), "--seed", "2", "--out", str(other)]) == 0
    want = snapsim.load(mine)
    (mine / "chunk-000001.parquet").write_bytes((other / "chunk-000001.parquet").read_bytes())
    with pytest.raises(InputError, match=r"chunk-000001.parquet is not a chunk of the run"):
        snapsim.load(mine)
    capsys.readouterr()
    assert main([*map(str, argv), "--seed", "1", "--out", str(mine), "--resume"]) == 0
    assert "1 computed now" in capsys.readouterr().out
    assert snapsim.load(mine).equals(want)


def test_load_never_merges_unrelated_runs(tmp_path, monkeypatch):
    snapsim.run("snapshot", tmp_path / "a", games=4, seed=1)
    snapsim.run("yosemite", tmp_path / "b", games=4, seed=1)
    with pytest.raises(InputError, match="not a snapsim run or sweep folder"):
        snapsim.load(tmp_path)  # two runs side by side are two runs, not one table
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="give a run or sweep folder"):
        snapsim.load("")  # not "every Parquet file below here"
    # a sweep folder loads the points its sweep.json names, all of one game
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('game = "yosemite"\ngames = 4\n[grid]\nstart_fish = [2, 3]\n')
    snapsim.sim.run_sweep(snapsim.sim.read_sweep(sweep), out=tmp_path / "sw")
    point = tmp_path / "sw" / "start_fish=3"
    for f in point.iterdir():
        f.unlink()
    snapsim.run("snapshot", point, games=4, seed=0)  # another game's run put in its place
    with pytest.raises(InputError, match="snapshot run inside a yosemite sweep"):
        snapsim.load(tmp_path / "sw")


def test_simulate_replaces_its_own_rows_only(tmp_path, capsys):
    out = tmp_path / "rows.parquet"
    argv = ["simulate", "yosemite", "--games", "6", "--quiet", "--out", str(out)]
    assert main(argv) == 0 and main(argv) == 0  # the same command again: its own rows
    before = out.read_bytes()
    capsys.readouterr()
    assert main([*argv, "--seed", "3"]) == 2
    assert "holds another run's rows (yosemite, seed 0, 6 games; seed 0, not 3)" in \
        one_error_line(capsys)
    assert out.read_bytes() == before
    assert main([*argv, "--seed", "3", "--force"]) == 0
    assert snapsim.load(out).attrs["provenance"]["seed"] == 3


# ---------------------------------------------------------------- operating-system errors


def limited(size: int):
    """A child's file-size limit: writing past `size` bytes fails with EFBIG, as a full disk
    fails with ENOSPC (the signal that would kill the process is ignored, as a shell may)."""
    import resource

    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return apply


@pytest.mark.parametrize("argv, made", [
    (["components", "export", "snapshot", "--out", "x.toml"], "x.toml"),
    (["simulate", "yosemite", "--games", "300", "--quiet", "--out", "runs/x.parquet"], "runs"),
    (["simulate", "yosemite", "--games", "300", "--quiet", "--out", "run"], None),
    # a report's writers in the slow set (10-15 s each): the same atomic writes as export's
    pytest.param(["compare", "yosemite", "--variant-set", "start_fish=4", "--games", "20",
                  "--quiet", "--no-restricted", "--out", "cmp"], "cmp", marks=pytest.mark.slow),
    pytest.param(["ladder", "yosemite", "--games", "4", "--quiet", "--out", "lad"], "lad",
                 marks=pytest.mark.slow),
], ids=["export", "parquet", "run", "compare", "ladder"])
def test_a_full_disk_is_one_line_and_leaves_no_partial_file(tmp_path, monkeypatch, argv,
                                                             made):
    (tmp_path / "warm").mkdir()
    monkeypatch.chdir(tmp_path / "warm")
    assert main(argv) == 0  # unlimited, here: the kernels are in the cache now
    (tmp_path / "full").mkdir()
    proc = snapsim_run(*argv, cwd=tmp_path / "full", preexec_fn=limited(2000))
    lines = [s for s in proc.stderr.splitlines() if s.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert lines[0].startswith("snapsim: error: ") and "File too large" in lines[0], lines[0]
    left = [p for p in (tmp_path / "full").rglob("*") if p.is_file()]
    if made is None:  # a run keeps the chunks it finished (here none fit) and its manifest
        assert all(p.stat().st_size > 0 for p in left)
    else:
        assert left == [], left  # no empty or half-written file, no temporary, no lock


def test_standard_output_on_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "snapsim", "odds", "photo"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300, env=HERE)
    lines = [s for s in proc.stderr.splitlines() if s.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert lines[0].startswith("snapsim: error: No space left on device"), lines[0]


def test_the_numba_cache_fallback_tries_to_write_instead_of_asking_os_access(tmp_path):
    # root passes os.access for /proc, where nothing can be created
    assert not snapsim._writable("/proc/snapsim-cache")
    assert snapsim._writable(str(tmp_path / "new" / "cache"))
    assert list((tmp_path / "new" / "cache").iterdir()) == []  # the probe is removed
