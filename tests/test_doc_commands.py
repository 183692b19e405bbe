"""Every fenced command in README.md and docs/ runs, so the documentation cannot drift from
the code. New blocks are picked up by themselves; they only have to follow these rules.

How a page runs (one test per page, its blocks in order, in a fresh scratch folder that
holds the repository's examples/ and analyses/):

- ```bash (or sh, shell, console) blocks: each command line (continuations joined, comments
  dropped, `&&` splitting one line into commands) must exit with 0. `snapsim ...` and
  `python -m snapsim ...` run in this process; `python SCRIPT ...` runs the script.
- ```python blocks run in one namespace per page, like notebook cells.
- A block titled with a file name (```toml title="sweep.toml"```, also shown so by the site)
  is written into the scratch folder before the page's commands run; any other block
  (```text output, an untitled ```toml format) is shown, not run.
- Sizes shrink, nothing else changes: every number of games above SMALL becomes SMALL
  (`--games N`, any `--...-games N`, `games=N` or any `..._games=N` in Python, `games = N`
  in a titled file), and a command that plays games without saying how many gets
  `--games SMALL`; rebalance's `--budget MINUTES` becomes `--games SMALL`, and a
  `rebalance(...)` call in Python that gives neither games nor budget gets `games=SMALL`.
  A search's verification is a size too: `rebalance` and `tune` without `--verify-games`
  get `--verify-games SMALL`, a `rebalance(...)` call without `verify_games=` gets
  `verify_games=SMALL` (their default plays 20,000 games per side whatever the search's
  size).
- The pages share one cache of finished runs, as one reader running them in one folder
  would: a seeded run that an earlier page played (README's report, say) answers the same
  run on a later page.
- Stand-ins for what a test cannot do, each checked instead of skipped: `pip install` names
  only extras pyproject.toml declares; `python -m pytest` and `mkdocs build` are the
  commands CI runs (.ci/run; the site build is tests/test_docs.py's); a server for other
  machines (`dask scheduler`, `dask worker`) knows every flag given (its --help), and the
  address it would have, tcp://SCHEDULER:PORT, becomes a local cluster (local:1); so does
  `snapsim app`, which serves until stopped;
  `snapsim play` reads `quit` then Enter (saving to --save) when it saves, else `auto`.

So a new command works here if it runs from a fresh folder, given what earlier blocks of its
page made (a file it reads comes from an earlier command or a titled block), and says its
size with --games (or games=).
"""

from __future__ import annotations

import io
import re
import runpy
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from snapsim.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SMALL = 20  # games: enough for every command's minimum, few enough to run every page
SHELL = {"bash", "sh", "shell", "console"}
PLAYS = {"simulate", "compare", "ladder", "report", "tune", "rebalance"}  # take --games
VERIFIES = {"tune", "rebalance"}  # take --verify-games
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```",
                   re.M | re.S)


@dataclass
class Block:
    page: Path
    line: int
    kind: str
    title: str | None
    body: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    out = []
    for m in FENCE.finditer(text):
        info = m.group("info").strip()
        kind = info.split()[0] if info else ""
        title = re.search(r'title="([^"]+)"', info)
        indent = len(m.group("indent"))
        body = "\n".join(line[indent:] for line in m.group("body").splitlines())
        out.append(Block(page, text.count("\n", 0, m.start()) + 1, kind,
                         title.group(1) if title else None, body))
    return out


def commands(body: str) -> list[str]:
    """The command lines of a shell block: continuations joined, comments dropped."""
    lines = body.replace("\\\n", " ").splitlines()
    out = []
    for line in lines:
        words = shlex.split(line, comments=True)
        if words:
            out += [" ".join(shlex.quote(w) for w in part)
                    for part in _split_and(words)]
    return out


def _split_and(words: list[str]) -> list[list[str]]:
    parts, part = [], []
    for w in words:
        if w == "&&":
            parts.append(part)
            part = []
        else:
            part.append(w)
    return [p for p in [*parts, part] if p]


def shrink_text(text: str) -> str:
    """Games counts in a Python block or a titled file, at most SMALL; a rebalance call that
    does not say its size gets SMALL games."""
    def small(m):
        n = int(m.group(2).replace("_", ""))
        return f"{m.group(1)}{min(n, SMALL)}"

    def sized(m):
        call = text[m.end():text.find(")", m.end())]
        games = "" if re.search(r"\b(games|budget)=", call) else f", games={SMALL}"
        verify = "" if "verify_games=" in call else f", verify_games={SMALL}"
        return f"{m.group(0)}{games}{verify}"

    text = re.sub(r"\brebalance\(\s*(\"[^\"]*\"|'[^']*')", sized, text)
    return re.sub(r"(\b(?:[a-z]+_)*games\s*=\s*)([\d_]+)", small, text)


def shrink_args(words: list[str]) -> list[str]:
    """A snapsim command's sizes at most SMALL games (see the module's rules)."""
    out, i = [], 0
    while i < len(words):
        w = words[i]
        if re.fullmatch(r"--([a-z]+-)*games", w) and i + 1 < len(words) and \
                words[i + 1].isdigit():
            out += [w, str(min(int(words[i + 1]), SMALL))]
            i += 2
            continue
        if w == "--budget" and i + 1 < len(words):
            out += ["--games", str(SMALL)]
            i += 2
            continue
        out.append(re.sub(r"tcp://SCHEDULER:\d+", "local:1", w))
        i += 1
    command = out[0] if out else ""
    if command in PLAYS and "--games" not in out and not (command == "report" and len(out) > 1
                                                          and out[1] == "sweep"):
        out += ["--games", str(SMALL)]
    if command in VERIFIES and "--verify-games" not in out:
        out += ["--verify-games", str(SMALL)]
    return out


def _play_input(words: list[str]) -> str:
    return "quit\n\n" if "--save" in words else "auto\n"


def run_snapsim(words: list[str], monkeypatch, capsys, where: str) -> None:
    argv = shrink_args(words)
    if argv and argv[0] == "play":
        monkeypatch.setattr(sys, "stdin", io.StringIO(_play_input(argv)))
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, f"{where}: snapsim {' '.join(argv)} exited {rc}:\n{err[-2000:]}"


def run_script(words: list[str], monkeypatch, capsys, where: str) -> None:
    script = words[0]
    assert Path(script).is_file(), f"{where}: no script {script}"
    monkeypatch.setattr(sys, "argv", [script, *shrink_args(["script", *words[1:]])[1:]])
    try:
        runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    assert code == 0, f"{where}: python {' '.join(words)} exited {code}:\n{err[-2000:]}"


def check_pip(words: list[str], where: str) -> None:
    """`pip install .` or `.[extra,...]`: this project, and extras it declares; or one of
    its example packages that CI installs (`pip install -e examples/pig`)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    targets = [w for w in words[words.index("install") + 1:] if not w.startswith("-")]
    assert targets, where
    ci = (ROOT / ".ci" / "run").read_text()
    for target in targets:
        if target.startswith("examples/"):
            assert (ROOT / target / "pyproject.toml").is_file(), f"{where}: no {target}"
            assert f"pip install -e {target}" in ci, f"{where}: CI does not install {target}"
            continue
        m = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", target)
        assert m, f"{where}: pip installs {target!r}, not this project"
        for extra in filter(None, (m.group(1) or "").split(",")):
            assert extra in extras, f"{where}: no extra {extra!r} in pyproject.toml"


def check_ci(words: list[str], where: str) -> None:
    """The test and site commands are the ones CI runs."""
    ci = (ROOT / ".ci" / "run").read_text()
    text = " ".join(w for w in words if w not in ("python", "-m"))
    assert text in ci.replace("python -m ", ""), f"{where}: {' '.join(words)} is not in .ci/run"


def check_server(words: list[str], where: str) -> None:
    """A server (started on other machines, or the workbench, which serves until stopped):
    the program and every flag it is given exist."""
    helptext = subprocess.run([*words[:2], "--help"], capture_output=True, text=True,
                              timeout=120).stdout
    assert "Usage" in helptext or "usage" in helptext, f"{where}: {words[:2]} has no --help"
    for flag in (w for w in words[2:] if w.startswith("--")):
        assert flag in helptext, f"{where}: {' '.join(words[:2])} has no {flag}"


def run_command(line: str, monkeypatch, capsys, where: str) -> None:
    words = shlex.split(line)
    if words[:3] == ["python", "-m", "snapsim"]:
        words = ["snapsim", *words[3:]]
    if words[:2] == ["snapsim", "app"]:  # a server that runs until stopped
        check_server(words, where)
    elif words[0] == "snapsim":
        run_snapsim(words[1:], monkeypatch, capsys, where)
    elif words[:3] == ["python", "-m", "pip"]:
        check_pip(words, where)
    elif words[:3] in (["python", "-m", "pytest"], ["python", "-m", "mkdocs"]) or \
            words[0] == "mkdocs":
        check_ci(words, where)
    elif words[0] == "dask":
        check_server(words, where)
    elif words[0] == "python":
        run_script(words[1:], monkeypatch, capsys, where)
    else:
        pytest.fail(f"{where}: no rule runs {words[0]!r}; see this module's docstring")


@pytest.mark.usefixtures("module_run_cache")  # the pages share one cache (module's rules)
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_fenced_command_of_the_page_runs(page, tmp_path, monkeypatch, capsys):
    found = blocks(page)
    if not any(b.kind in SHELL | {"python"} for b in found):
        pytest.skip("no commands on this page")
    for name in ("examples", "analyses"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    for b in found:
        if b.title:
            (tmp_path / b.title).write_text(shrink_text(b.body))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    namespace: dict = {"__name__": "__doc__"}
    for b in found:
        if b.kind in SHELL:
            for line in commands(b.body):
                run_command(line, monkeypatch, capsys, b.where)
        elif b.kind == "python" and not b.title:
            exec(compile(shrink_text(b.body), b.where, "exec"), namespace)  # noqa: S102


def test_the_rules_shrink_sizes_and_nothing_else():
    assert shrink_args(["simulate", "snapshot", "--games", "20000", "--seed", "1"]) == \
        ["simulate", "snapshot", "--games", str(SMALL), "--seed", "1"]
    assert shrink_args(["report", "snapshot", "--quick", "--strong-games", "1000"]) == \
        ["report", "snapshot", "--quick", "--strong-games", str(SMALL), "--games", str(SMALL)]
    assert shrink_args(["report", "sweep", "runs/sweep"]) == ["report", "sweep", "runs/sweep"]
    assert shrink_args(["simulate", "x", "--scheduler", "tcp://SCHEDULER:8786"])[-3:] == \
        ["local:1", "--games", str(SMALL)]
    assert shrink_args(["simulate", "x", "--games", "5"])[-1] == "5"
    assert shrink_text("games=100_000, seed=7") == f"games={SMALL}, seed=7"
    assert shrink_text("games = 20000\nseed = 1") == f"games = {SMALL}\nseed = 1"
    assert shrink_text('r = snapsim.rebalance("snapshot", players=4)') == \
        f'r = snapsim.rebalance("snapshot", games={SMALL}, verify_games={SMALL}, players=4)'
    assert shrink_text('snapsim.rebalance("pig", games=50, verify_games=900)') == \
        f'snapsim.rebalance("pig", games={SMALL}, verify_games={SMALL})'
    assert shrink_text('snapsim.rebalance("pig", verify_games=9)') == \
        f'snapsim.rebalance("pig", games={SMALL}, verify_games=9)'
    assert shrink_args(["rebalance", "yosemite", "--budget", "30"]) == \
        ["rebalance", "yosemite", "--games", str(SMALL), "--verify-games", str(SMALL)]
    assert shrink_args(["tune", "pig", "--verify-games", "5000", "--games", "9"]) == \
        ["tune", "pig", "--verify-games", str(SMALL), "--games", "9"]
    assert commands("a b \\\n  c  # note\n# only a comment\nd && e") == ["a b c", "d", "e"]


def test_every_page_with_commands_is_found():
    with_commands = {p.name for p in PAGES if any(b.kind in SHELL for b in blocks(p))}
    assert {"README.md", "index.md", "play.md", "ladder.md", "agents.md"} <= with_commands
