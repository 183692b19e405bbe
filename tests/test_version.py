"""The version says what it is: one number in the package, read by pyproject.toml and heading
the changelog; the git commit of a checkout read from its files alone (a pipe, a foreign
project or a hostile ref give none); both in every provenance record and in `snapsim
--version`, which answers without loading the simulators."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import snapsim
from snapsim.sim.provenance import provenance
from snapsim.sim.registry import get_game
from snapsim.version import commit

ROOT = Path(snapsim.__file__).resolve().parents[1]
SHA = "0123456789abcdef0123456789abcdef01234567"
OTHER = "fedcba9876543210fedcba9876543210fedcba98"
HEAVY = ("numba", "numpy", "pandas", "pyarrow", "matplotlib", "scipy", "tqdm")


def test_the_package_pyproject_and_changelog_agree_on_the_version():
    version = snapsim.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    source = ROOT / (module.replace(".", "/") + ".py")
    # what setuptools reads: the literal assigned in that file, found without importing it
    assigned = {t.id: node.value.value for node in ast.parse(source.read_text()).body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                for t in node.targets if isinstance(t, ast.Name)}
    assert assigned[name] == version
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$",
                          (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert releases[0][0] == version, releases[:2]
    numbers = [tuple(map(int, v.split("."))) for v, _ in releases]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    assert ("0.1.0", "2026-11-29") in releases  # the release before this numbering


def checkout(root: Path, head: str, name: str = "snapsim") -> Path:
    """A fake source checkout: pyproject naming the project, .git holding HEAD."""
    (root / ".git" / "refs" / "heads").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n')
    (root / ".git" / "HEAD").write_text(head)
    return root / ".git"


def test_the_commit_is_read_from_a_branch_a_packed_ref_or_a_detached_head(tmp_path):
    git = checkout(tmp_path / "loose", "ref: refs/heads/main\n")
    (git / "refs" / "heads" / "main").write_text(SHA + "\n")
    assert commit(tmp_path / "loose") == SHA
    git = checkout(tmp_path / "packed", "ref: refs/heads/main\n")
    (git / "packed-refs").write_text(f"# pack-refs with: peeled\n{OTHER} refs/heads/other\n"
                                     f"{SHA} refs/heads/main\n")
    assert commit(tmp_path / "packed") == SHA
    checkout(tmp_path / "detached", OTHER + "\n")
    assert commit(tmp_path / "detached") == OTHER


def test_a_worktree_reads_its_own_head_and_the_shared_refs(tmp_path):
    main_git = checkout(tmp_path / "main", "ref: refs/heads/main\n")
    (main_git / "refs" / "heads" / "feature").write_text(OTHER + "\n")
    private = main_git / "worktrees" / "wt"
    private.mkdir(parents=True)
    (private / "HEAD").write_text("ref: refs/heads/feature\n")
    (private / "commondir").write_text("../..\n")
    tree = tmp_path / "wt"
    tree.mkdir()
    (tree / "pyproject.toml").write_text('[project]\nname = "snapsim"\n')
    (tree / ".git").write_text(f"gitdir: {private}\n")
    assert commit(tree) == OTHER


def test_no_commit_where_the_files_do_not_say_one_safely(tmp_path):
    assert commit(tmp_path) is None  # an installed copy: no checkout around it
    git = checkout(tmp_path / "foreign", "ref: refs/heads/main\n", name="someone-else")
    (git / "refs" / "heads" / "main").write_text(SHA + "\n")
    assert commit(tmp_path / "foreign") is None  # snapsim copied into another project
    for k, head in enumerate(("ref: refs/heads/../../../etc/passwd\n", "ref: HEAD\n",
                              "not a commit\n", "ref: refs/heads/missing\n", SHA[:20] + "\n")):
        checkout(tmp_path / f"bad{k}", head)
        assert commit(tmp_path / f"bad{k}") is None, head
    piped = checkout(tmp_path / "piped", "")
    (piped / "HEAD").unlink()
    os.mkfifo(piped / "HEAD")  # opening it would wait for a writer forever

    def waited(signum, frame):
        raise TimeoutError("commit() opened a pipe and waited")

    old = signal.signal(signal.SIGALRM, waited)
    signal.alarm(10)
    try:
        assert commit(tmp_path / "piped") is None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_provenance_carries_the_version_and_the_commit_of_this_checkout():
    spec = get_game("yosemite")
    record = provenance("yosemite", spec.make_config(), [], seed=0, games=1)
    assert record["snapsim"] == snapsim.__version__
    assert record["commit"] == commit()
    if (ROOT / ".git").exists() and shutil.which("git"):
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        assert record["commit"] == head
    json.dumps(record)  # as it is written


def test_version_answers_without_the_simulators():
    code = ("import json, sys\nfrom snapsim.cli import main\nmain(['--version'])\n"
            f"print(json.dumps([m for m in {HEAVY!r} + ('snapsim.cli.common', "
            "'snapsim.sim') if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0].startswith(f"snapsim {snapsim.__version__}")
    assert json.loads(out[1]) == []


@pytest.mark.parametrize("argv", [["--version"], ["--version", "simulate"]])
def test_version_through_main_and_the_parser_agree(capsys, argv):
    from snapsim.cli import build_parser, main, version_text

    assert main(argv) == 0
    assert capsys.readouterr().out == version_text() + "\n"
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == version_text() + "\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_version_into_a_full_disk_is_one_line_exit_2():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "snapsim", "--version"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "snapsim: error: No space left on device; free some space or write " \
                          "elsewhere\n"
