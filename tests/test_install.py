"""snapsim as users install it: a read-only install imports and runs, `import snapsim` is light,
and the package says what it is (version, commit, licence, type hints).

Read-only is simulated for real: the package is copied into a folder made read-only with
chmod -R a-w, HOME is read-only too, and no cache folder is given. Root ignores file
permissions, so under root (as in CI containers) the child runs as the unprivileged user
`nobody` through setpriv (subprocess's own `user=` cannot execute an interpreter kept under
root's 0700 home, where setpriv can); the test is skipped only without setpriv or `nobody`.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import snapsim
from snapsim.cli import main, version_text

PACKAGE = Path(snapsim.__file__).resolve().parent
HEAVY = ("numba", "numpy", "pandas", "pyarrow", "matplotlib", "scipy", "dask", "tqdm")


def unprivileged() -> tuple[list[str], tuple[int, int] | None]:
    """(command prefix, (uid, gid)) that drop root, which would write anyway, to `nobody`
    with setpriv (util-linux); nothing to drop for another user."""
    if os.geteuid() != 0:
        return [], None
    setpriv = shutil.which("setpriv")
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        nobody = None
    if setpriv is None or nobody is None:
        pytest.skip("running as root without setpriv or a `nobody` user, so a read-only "
                    "install cannot be simulated")
    ids = (nobody.pw_uid, nobody.pw_gid)
    return [setpriv, f"--reuid={ids[0]}", f"--regid={ids[1]}", "--clear-groups"], ids


def tree(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


@pytest.fixture
def read_only_install():
    """(site folder holding a read-only copy of snapsim, read-only HOME, private TMPDIR)."""
    as_user, ids = unprivileged()
    root = Path(tempfile.mkdtemp(prefix="snapsim-ro-"))
    try:
        os.chmod(root, 0o755)
        site, home, tmp = root / "site", root / "home", root / "tmp"
        shutil.copytree(PACKAGE, site / "snapsim", ignore=shutil.ignore_patterns("__pycache__"))
        home.mkdir()
        tmp.mkdir()
        if ids:
            os.chown(tmp, *ids)
        for folder in (site, home):
            for p in [folder, *folder.rglob("*")]:
                p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        yield site, home, tmp, as_user
    finally:
        for p in [root, *root.rglob("*")]:
            if not p.is_symlink():
                p.chmod(p.stat().st_mode | stat.S_IWUSR)
        shutil.rmtree(root)


def test_read_only_install_imports_and_runs(read_only_install):
    site, home, tmp, as_user = read_only_install
    before = tree(site)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NUMBA_", "XDG_", "PYTHON"))}
    env.update(PYTHONPATH=str(site), HOME=str(home), TMPDIR=str(tmp))

    def python(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([*as_user, sys.executable, *args], env=env, cwd=home,
                              capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return done

    # cached (cache=True) kernels compiled in a read-only install; the small odds kernels
    # exercise the same cache fallback as the game engines without minutes of compiling
    api = python("-c", "import json, snapsim, snapsim.odds as o\n"
                       "print(json.dumps([snapsim.__file__, o.photo_success(2, 2, 8)]))")
    where, p = json.loads(api.stdout)
    assert Path(where).parent == site / "snapsim"  # the copy, not the tree
    assert abs(p - 26 / 36) < 1e-12  # 2 dice + 2 tokens >= 8: 26 of 36 rolls
    cli = python("-m", "snapsim", "odds", "photo", "--dice", "2", "--difficulty", "7",
                 "--format", "csv")
    assert cli.stdout.splitlines()[0].startswith("dice")
    assert python("-m", "snapsim", "--version").stdout.strip() == \
        f"snapsim {snapsim.__version__}"  # no git checkout around the copy
    assert tree(site) == before  # nothing written into the install
    assert list(tmp.iterdir()) == []  # the private kernel cache went with its process


def test_import_snapsim_leaves_the_heavy_libraries_for_later():
    code = ("import json, sys, snapsim\n"
            f"before = [m for m in {HEAVY!r} if m in sys.modules]\n"
            "snapsim.simulate\n"
            "print(json.dumps([before, 'pandas' in sys.modules, sorted(snapsim.__all__)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    before, pandas_after, public = json.loads(out.stdout)
    assert before == []
    assert pandas_after  # the first use brings them in
    assert public == ["advise", "compare", "ladder", "load", "rebalance", "run", "simulate"]
    assert set(public) <= set(dir(snapsim))
    with pytest.raises(AttributeError, match="no attribute 'simulated'"):
        snapsim.simulated  # noqa: B018


def test_version_names_the_commit_of_a_checkout(capsys):
    assert main(["--version"]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == version_text()
    if (PACKAGE.parent / ".git").exists() and shutil.which("git"):
        head = subprocess.run(["git", "-C", str(PACKAGE.parent), "rev-parse", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        if head:
            assert printed == f"snapsim {snapsim.__version__} (git {head[:12]})"
            return
    assert printed == f"snapsim {snapsim.__version__}"


def test_licence_and_type_hints_ship():
    assert (PACKAGE / "py.typed").is_file()
    meta = importlib.metadata.metadata("snapsim")
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
