"""Mutation testing of the three rules engines: how many small bugs do the rule tests catch?

    python tests/tools/mutate.py [snapshot yosemite shutterbug] [options]

For each game the tool enumerates every mutation site in the rule functions of
snapsim/games/<game>/engine.py (flip a comparison, change an integer constant by one, drop an
`if` body or an `else` branch, negate an `if` condition, swap `and`/`or`, swap `+`/`-`), draws a
deterministic sample spread over the file, and runs the game's tests against each mutant in a
private copy of the package with the JIT off (the tool sets NUMBA_DISABLE_JIT=1 for every run).
A mutant is killed when a test fails, the run times out, or the engine cannot be imported.
Survivors either need a test or, when provably equivalent to the original, an entry in
equivalent_mutants.toml. See README.md next to this file.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
GAMES = ("snapshot", "yosemite", "shutterbug")
COPIED = ("snapsim", "tests", "pyproject.toml", "conftest.py")
NOT_COPIED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", ".hypothesis",
                                    ".pytest_cache")
EQUIVALENTS = HERE / "equivalent_mutants.toml"
# Pure logging / formatting helpers are not rules: a mutant there changes no game.
NOT_RULES = re.compile(r"(log|fmt|format|describe)_")

COMPARE_FLIPS = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="),
                 ast.GtE: (">=", ">"), ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}
SIGN_SWAPS = {ast.Add: ("+", "-"), ast.Sub: ("-", "+")}
BOOL_SWAPS = {ast.And: ("and", "or"), ast.Or: ("or", "and")}


class ToolError(Exception):
    """The tool itself cannot measure (bad input, failing baseline, wrong import): one line."""


def engine_path(game: str) -> str:
    return f"snapsim/games/{game}/engine.py"


def default_tests(game: str) -> list[str]:
    """The game's rule, play and components tests (slow ones are dropped after the baseline)."""
    return [f"tests/test_{game}_{part}.py" for part in ("rules", "components", "play")]


# ---------------------------------------------------------------- mutants


@dataclass(frozen=True)
class Mutant:
    """One small change: the source span [start, end) becomes `replacement`.

    `function`, `original` (the stripped source line) and `description` identify the mutant
    across unrelated edits that move lines; `line` is only for reading."""

    function: str
    line: int
    description: str
    original: str
    mutated: str
    start: int
    end: int
    replacement: str

    @property
    def key(self) -> tuple[str, str, str]:
        return self.function, self.original, self.description

    def apply(self, text: str) -> str:
        return text[:self.start] + self.replacement + text[self.end:]

    def label(self) -> str:
        return f"{self.function}:{self.line}"


class Source:
    """Source text with character offsets for AST positions (which count UTF-8 bytes) and the
    operator and keyword tokens, which the AST does not locate."""

    def __init__(self, text: str):
        self.text = text
        self.lines = io.StringIO(text).readlines()
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        self.tokens = [(self.offset(*t.start), self.offset(*t.end), t.string)
                       for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type in (tokenize.OP, tokenize.NAME)]
        self.token_starts = [t[0] for t in self.tokens]

    def offset(self, lineno: int, col: int) -> int:
        return self.starts[lineno - 1] + col

    def node_start(self, node: ast.AST) -> int:
        line = self.lines[node.lineno - 1]
        return self.offset(node.lineno, len(line.encode()[:node.col_offset].decode()))

    def node_end(self, node: ast.AST) -> int:
        line = self.lines[node.end_lineno - 1]
        return self.offset(node.end_lineno, len(line.encode()[:node.end_col_offset].decode()))

    def token(self, lo: int, hi: int, string: str) -> tuple[int, int]:
        """Span of the first token `string` in [lo, hi): the operator between two operands."""
        for i in range(bisect.bisect_left(self.token_starts, lo), len(self.tokens)):
            start, end, s = self.tokens[i]
            if start >= hi:
                break
            if s == string:
                return start, end
        raise ValueError(f"no {string!r} between offsets {lo} and {hi}")

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def stripped(self, lineno: int) -> str:
        return self.lines[lineno - 1].strip()


class _Sites:
    """Collects the mutants of one function."""

    def __init__(self, src: Source, function: str):
        self.src = src
        self.function = function
        self.found: list[Mutant] = []
        self.skip: set[int] = set()  # ids of nodes already mutated as part of their parent

    def add(self, start, end, replacement, description, mutated=None, lineno=None):
        src = self.src
        lineno = lineno or src.line_of(start)
        if mutated is None:
            head = src.text[src.starts[lineno - 1]:start] + replacement
            tail = src.text[end:src.starts[src.line_of(end)]]
            mutated = (head + tail).split("\n", 1)[0].strip()
        self.found.append(Mutant(self.function, lineno, description, src.stripped(lineno),
                                 mutated, start, end, replacement))

    def swap_token(self, lo, hi, old, new):
        start, end = self.src.token(lo, hi, old)
        self.add(start, end, new, f"{old} -> {new}")

    def visit(self, node: ast.AST):
        src = self.src
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators, strict=True):
                if type(op) in COMPARE_FLIPS:
                    self.swap_token(src.node_end(left), src.node_start(right),
                                    *COMPARE_FLIPS[type(op)])
                left = right
        elif isinstance(node, ast.BinOp) and type(node.op) in SIGN_SWAPS:
            self.swap_token(src.node_end(node.left), src.node_start(node.right),
                            *SIGN_SWAPS[type(node.op)])
        elif isinstance(node, ast.AugAssign) and type(node.op) in SIGN_SWAPS:
            old, new = SIGN_SWAPS[type(node.op)]
            self.swap_token(src.node_end(node.target), src.node_start(node.value),
                            old + "=", new + "=")
        elif isinstance(node, ast.BoolOp):
            self.swap_bool(node)
        elif _negative_int(node):  # -1 is one constant to a reader, not 1 under a minus
            self.skip.add(id(node.operand))
            self.shift_int(node, -node.operand.value, parenthesise=False)
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            self.shift_int(node, node.value, parenthesise=True)
        elif isinstance(node, ast.If):
            self.mutate_if(node)

    def shift_int(self, node, value, parenthesise):
        """value + 1 and value - 1; a new minus sign gets parentheses (`0 ** 2` -> `(-1) ** 2`)
        unless it replaces one that was there."""
        start, end = self.src.node_start(node), self.src.node_end(node)
        for new in (value + 1, value - 1):
            text = f"({new})" if new < 0 and parenthesise else str(new)
            self.add(start, end, text, f"{value} -> {new}")

    def swap_bool(self, node: ast.BoolOp):
        """One mutant per chain: every `and` of `a and b and c` becomes `or`."""
        src = self.src
        old, new = BOOL_SWAPS[type(node.op)]
        start, end = src.node_start(node), src.node_end(node)
        pieces, at = [], start
        for left, right in zip(node.values, node.values[1:], strict=False):
            kw_start, kw_end = src.token(src.node_end(left), src.node_start(right), old)
            pieces += [src.text[at:kw_start], new]
            at = kw_end
        pieces.append(src.text[at:end])
        self.add(start, end, "".join(pieces), f"{old} -> {new}")

    def mutate_if(self, node: ast.If):
        """Negate the condition, drop the body (-> pass), drop a plain `else` branch; every
        replacement keeps the line count so line numbers in tracebacks stay true."""
        src = self.src
        test_start, test_end = src.node_start(node.test), src.node_end(node.test)
        self.add(test_start, test_end, f"not ({src.text[test_start:test_end]})", "negate if",
                 lineno=node.lineno)
        if not (len(node.body) == 1 and isinstance(node.body[0], ast.Pass)):
            start, end = src.node_start(node.body[0]), src.node_end(node.body[-1])
            self.add(start, end, "pass" + "\n" * src.text.count("\n", start, end), "drop body",
                     mutated="pass  (the whole body)", lineno=node.lineno)
        if node.orelse and not src.text.startswith("elif", src.node_start(node.orelse[0])):
            start, _ = src.token(src.node_end(node.body[-1]), src.node_start(node.orelse[0]),
                                 "else")
            end = src.node_end(node.orelse[-1])
            self.add(start, end, "\n" * src.text.count("\n", start, end), "drop else",
                     mutated="(else branch removed)", lineno=node.lineno)


def _negative_int(node: ast.AST) -> bool:
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int)


def candidates(text: str) -> list[Mutant]:
    """Every mutant of every rule function, in source order, each with a unique key."""
    src = Source(text)
    found: list[Mutant] = []
    for fn in ast.parse(text).body:
        if not isinstance(fn, ast.FunctionDef) or NOT_RULES.match(fn.name):
            continue
        sites = _Sites(src, fn.name)
        sites.skip = {id(n) for s in fn.body for j in ast.walk(s)  # f-string positions are
                      if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}  # unreliable
        for stmt in fn.body:
            for node in ast.walk(stmt):
                if id(node) not in sites.skip:
                    sites.visit(node)
        found += sites.found
    found.sort(key=lambda m: (m.start, m.end, m.description))
    return _disambiguate(found)


def _disambiguate(found: list[Mutant]) -> list[Mutant]:
    """Same function, line text and change twice (e.g. two `+` on one line): number them."""
    counts: dict[tuple, int] = {}
    for m in found:
        counts[m.key] = counts.get(m.key, 0) + 1
    seen: dict[tuple, int] = {}
    out = []
    for m in found:
        if counts[m.key] > 1:
            seen[m.key] = seen.get(m.key, 0) + 1
            m = Mutant(**{**asdict(m), "description": f"{m.description} #{seen[m.key]}"})
        out.append(m)
    return out


def sample(found: list[Mutant], n: int, seed: int) -> list[Mutant]:
    """Stratified draw: one mutant at random from each of n equal slices of the source-ordered
    candidates, so the sample spreads over all rule functions in proportion to their size."""
    if n >= len(found):
        return list(found)
    rng = random.Random(seed)
    return [found[rng.randrange(i * len(found) // n, (i + 1) * len(found) // n)]
            for i in range(n)]


# ---------------------------------------------------------------- equivalent mutants


def load_equivalents(path: Path) -> list[dict]:
    """Entries of [[equivalent]] with game, function, line, mutation and reason."""
    if not path.exists():
        return []
    try:
        entries = tomllib.loads(path.read_text()).get("equivalent", [])
    except tomllib.TOMLDecodeError as exc:
        raise ToolError(f"{path}: {exc}") from None
    for i, e in enumerate(entries, 1):
        missing = [k for k in ("game", "function", "line", "mutation", "reason")
                   if not isinstance(e.get(k), str) or not e[k].strip()]
        if missing:
            raise ToolError(f"{path}: equivalent #{i} needs {', '.join(missing)}")
        if e["game"] not in GAMES:
            raise ToolError(f"{path}: equivalent #{i} names unknown game {e['game']!r}")
    return entries


def match_equivalents(game, found, entries):
    """(reason by mutant key, stale entries that match no candidate of this game)."""
    keys = {m.key for m in found}
    reasons, stale = {}, []
    for e in entries:
        if e["game"] != game:
            continue
        key = (e["function"], e["line"].strip(), e["mutation"])
        if key in keys:
            reasons[key] = e["reason"]
        else:
            stale.append(e)
    return reasons, stale


# ---------------------------------------------------------------- running


@dataclass
class Outcome:
    status: str  # killed, timeout, error, survived
    seconds: float
    detail: str = ""


def copy_checkout(src: Path, dst: Path):
    """The package, the tests and the pytest settings; no caches (numba's or Python's)."""
    for name in COPIED:
        if (src / name).is_dir():
            shutil.copytree(src / name, dst / name, ignore=NOT_COPIED)
        elif (src / name).exists():
            dst.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / name, dst / name)


@dataclass
class Workspace:
    """A frozen copy of the checkout taken once, so engines edited meanwhile cannot mix in."""

    base: Path
    tests: list[str]
    timeout: float
    deselected: list[str] = field(default_factory=list)

    def run(self, game: str, text: str, first_failure: bool, cap: float = 0,
            timeout: float | None = None) -> tuple[dict, str]:
        """Run pytest in a fresh copy whose engine source is `text`: the probe's report with
        pytest's exit status added (or just {"timeout": True}) and pytest's output."""
        with tempfile.TemporaryDirectory(prefix="run-", dir=self.base.parent) as tmp:
            run_dir = Path(tmp)
            copy_checkout(self.base, run_dir)
            (run_dir / engine_path(game)).write_text(text)
            report_file = run_dir / "mutate-report.json"
            env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONDONTWRITEBYTECODE="1",
                       PYTHONPATH=os.pathsep.join([str(run_dir), str(run_dir / "tests/tools")]),
                       MUTATE_ROOT=str(run_dir), MUTATE_REPORT=str(report_file),
                       MUTATE_MODULE=f"snapsim.games.{game}.engine", MUTATE_CAP=str(cap))
            cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-p", "mutate_probe", *(["-x"] if first_failure else []), *self.tests]
            for nodeid in self.deselected:
                cmd += ["--deselect", nodeid]
            output, status = _run(cmd, run_dir, env, timeout or self.timeout)
            if status is None:
                return {"timeout": True}, output
            if not report_file.exists():
                raise ToolError(f"pytest did not load the probe plugin: {_last_line(output)}")
            report = json.loads(report_file.read_text())
            _check_imported(report, run_dir, game)
            return {**report, "status": status}, output


def _run(cmd, cwd, env, timeout) -> tuple[str, int | None]:
    """Output and exit status (None: timed out). Its own process group, so that a timeout also
    ends any worker processes the tests started."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
        return output, proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        return output, None
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise


def _check_imported(report, run_dir, game):
    """The editable install must not win: the copy's snapsim and engine are what ran."""
    root = run_dir.resolve()
    if not report["snapsim_file"] or not Path(report["snapsim_file"]).is_relative_to(root):
        raise ToolError(f"the run imported snapsim from {report['snapsim_file']}, not the copy "
                        f"in {root}; nothing was measured")
    module = report["module_file"]
    if not report["import_error"] and module != str(root / engine_path(game)):
        raise ToolError(f"the run imported the engine from {module}, not the mutated copy")


def _last_line(output: str) -> str:
    lines = [x for x in output.strip().splitlines() if x.strip()]
    return lines[-1].strip() if lines else "(no output)"


BASELINE_TIMEOUTS = 10  # the baseline runs every test, not just up to the first failure


def baseline(ws: Workspace, game: str, text: str, cap: float) -> dict:
    """Run the unmutated copy; stop on any failure; leave tests slower than `cap` out."""
    limit = BASELINE_TIMEOUTS * ws.timeout
    report, output = ws.run(game, text, first_failure=False, cap=cap, timeout=limit)
    if report.get("timeout"):
        raise ToolError(f"{game}: the baseline run took longer than {limit:.0f} s")
    if report["failed"]:
        raise ToolError(f"{game}: baseline tests fail before any mutation "
                        f"({report['failed'][0]}); fix them first")
    if report["status"] != 0:
        raise ToolError(f"{game}: the baseline run ended with pytest exit status "
                        f"{report['status']} ({_last_line(output)})")
    if report["passed"] == 0:
        raise ToolError(f"{game}: no test ran in the baseline ({_last_line(output)})")
    ws.deselected = list(report["slow"])
    return report


def run_mutant(ws: Workspace, game: str, text: str, m: Mutant) -> Outcome:
    mutated = m.apply(text)
    if mutated.count("\n") != text.count("\n"):
        raise ToolError(f"mutant {m.label()} {m.description} changes the line count")
    try:
        compile(mutated, engine_path(game), "exec")
    except SyntaxError as exc:
        raise ToolError(f"mutant {m.label()} {m.description} is not valid Python: {exc}") from None
    t0 = time.perf_counter()
    report, output = ws.run(game, mutated, first_failure=True)
    seconds = round(time.perf_counter() - t0, 2)
    if report.get("timeout"):
        return Outcome("timeout", seconds, f"longer than {ws.timeout:.0f} s")
    if report["import_error"]:
        return Outcome("error", seconds, report["import_error"])
    if report["failed"]:
        return Outcome("killed", seconds, report["failed"][0])
    if report["status"] != 0 or report["passed"] == 0:  # a crash of the test process
        return Outcome("killed", seconds,
                       f"pytest exit status {report['status']}: {_last_line(output)}")
    return Outcome("survived", seconds)


# ---------------------------------------------------------------- one game


def measure(ws: Workspace, game: str, args, entries) -> dict:
    text = (ws.base / engine_path(game)).read_text()
    found = candidates(text)
    chosen = found if args.all else sample(found, args.mutants, args.seed)
    reasons, stale = match_equivalents(game, found, entries)
    result = {"game": game, "engine": engine_path(game), "candidates": len(found),
              "sampled": len(chosen), "seed": args.seed, "tests": ws.tests,
              "stale_equivalents": stale}
    if args.list:
        result["mutants"] = [_row(m, reasons) for m in found]
        result["in_sample"] = [found.index(m) for m in chosen]
        return result

    t0 = time.perf_counter()
    report = baseline(ws, game, text, args.max_test_seconds)
    result["baseline"] = {"passed": report["passed"], "deselected_slow": report["slow"]}
    _progress(f"{game}: baseline {report['passed']} tests pass; {len(report['slow'])} slower "
              f"than {args.max_test_seconds:g} s left out; {len(chosen)} mutants")
    to_run = [m for m in chosen if m.key not in reasons]

    def one(m):
        outcome = run_mutant(ws, game, text, m)
        _progress(f"  {outcome.status:8} {m.label()} {m.description} ({outcome.seconds} s)")
        return outcome

    if args.jobs == 1:  # in this thread, so that Ctrl-C stops the running test at once
        outcomes = dict(zip(to_run, map(one, to_run), strict=True))
    else:
        pool = ThreadPoolExecutor(max_workers=args.jobs)
        try:
            outcomes = dict(zip(to_run, pool.map(one, to_run), strict=True))
        finally:
            pool.shutdown(cancel_futures=True)
    rows = [_row(m, reasons, outcomes.get(m)) for m in chosen]
    killed = sum(r["status"] in ("killed", "timeout", "error") for r in rows)
    counted = sum(r["status"] != "equivalent" for r in rows)
    result.update(mutants=rows, killed=killed, counted=counted,
                  rate=killed / counted if counted else 1.0,
                  wall_s=round(time.perf_counter() - t0, 1))
    return result


def _row(m: Mutant, reasons, outcome: Outcome | None = None) -> dict:
    row = {"function": m.function, "line": m.line, "mutation": m.description,
           "original": m.original, "mutated": m.mutated}
    if m.key in reasons:
        row.update(status="equivalent", detail=reasons[m.key])
    elif outcome is not None:
        row.update(status=outcome.status, detail=outcome.detail, seconds=outcome.seconds)
    return row


def _progress(message: str):
    print(message, file=sys.stderr, flush=True)


def summary(result: dict) -> list[str]:
    rows = result["mutants"]
    by = {s: [r for r in rows if r["status"] == s]
          for s in ("killed", "timeout", "error", "survived", "equivalent")}
    survivors = ", ".join(f"{r['function']}:{r['line']}" for r in by["survived"]) or "none"
    lines = [f"{result['game']}: {result['killed']}/{result['counted']} killed "
             f"({100 * result['rate']:.1f}%), {len(by['equivalent'])} equivalent, "
             f"survivors: {survivors}",
             f"  {len(by['killed'])} by a failing test, {len(by['timeout'])} timeout, "
             f"{len(by['error'])} import error; {result['candidates']} candidates; "
             f"{len(result['baseline']['deselected_slow'])} slow tests left out; "
             f"{result['wall_s']:.0f} s"]
    for r in by["survived"]:
        lines += [f"  survivor {r['function']} line {r['line']}: {r['mutation']}",
                  f"      - {r['original']}", f"      + {r['mutated']}"]
    for r in by["error"]:
        lines.append(f"  import error {r['function']} line {r['line']}: {r['mutation']} "
                     f"({r['detail']})")
    for r in by["equivalent"]:
        lines.append(f"  equivalent {r['function']} line {r['line']}: {r['mutation']} "
                     f"({r['detail']})")
    return lines + _stale(result)


def _stale(result: dict) -> list[str]:
    return [f"  stale equivalent entry (matches nothing): {e['function']}: {e['line']!r} "
            f"{e['mutation']}" for e in result["stale_equivalents"]]


def listing(result: dict) -> list[str]:
    chosen = set(result["in_sample"])
    lines = [f"{result['game']}: {result['candidates']} candidates, {len(chosen)} in the sample "
             f"(*)"]
    for i, r in enumerate(result["mutants"]):
        mark = "*" if i in chosen else " "
        tag = "  [equivalent]" if r.get("status") == "equivalent" else ""
        lines.append(f" {mark} {r['function']}:{r['line']}  {r['mutation']}: "
                     f"{r['original']}  =>  {r['mutated']}{tag}")
    return lines + _stale(result)


# ---------------------------------------------------------------- command line


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"mutate: {message}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv):
    p = _Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="*", default=list(GAMES), metavar="GAME",
                   help=f"any of {', '.join(GAMES)} (default: all)")
    p.add_argument("--mutants", type=int, default=40, help="sample size per game (default 40)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument("--all", action="store_true", help="run every candidate")
    p.add_argument("--list", action="store_true", help="print the candidates, run nothing")
    p.add_argument("--jobs", type=int, default=1, help="mutants run in parallel (default 1)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per mutant (default 120)")
    p.add_argument("--tests", nargs="+", metavar="PATH",
                   help="test files or node ids instead of the game's rules, components and "
                        "play tests")
    p.add_argument("--max-test-seconds", type=float, default=5,
                   help="leave out tests slower than this in the baseline (0: keep all)")
    p.add_argument("--equivalents", type=Path, default=EQUIVALENTS,
                   help="equivalent-mutants file (default: next to this script)")
    p.add_argument("--json", type=Path, metavar="FILE", help="write the full result here")
    p.add_argument("--min-rate", type=float, help="exit 1 if a game's kill rate is below this")
    args = p.parse_args(argv)
    for game in args.games:
        if game not in GAMES:
            p.error(f"unknown game {game!r} (choose from {', '.join(GAMES)})")
    if args.mutants < 1 or args.jobs < 1 or args.timeout <= 0 or args.max_test_seconds < 0:
        p.error("--mutants and --jobs must be at least 1, --timeout positive, "
                "--max-test-seconds not negative")
    if args.tests and len(args.games) != 1:
        p.error("--tests needs exactly one game")
    if args.json and not args.json.parent.is_dir():
        p.error(f"--json: no such directory {args.json.parent}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        entries = load_equivalents(args.equivalents)
        with tempfile.TemporaryDirectory(prefix="snapsim-mutate-") as tmp:
            base = Path(tmp) / "base"
            copy_checkout(ROOT, base)
            results = []
            for game in args.games:
                tests = args.tests or default_tests(game)
                missing = [t for t in tests if not (base / t.split("::")[0]).exists()]
                if missing:
                    raise ToolError(f"no such test file: {missing[0]}")
                ws = Workspace(base, tests, args.timeout)
                result = measure(ws, game, args, entries)
                results.append(result)
                print("\n".join(listing(result) if args.list else summary(result)), flush=True)
    except ToolError as exc:
        print(f"mutate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mutate: interrupted", file=sys.stderr)
        return 130
    if args.json:
        args.json.write_text(json.dumps({"games": results}, indent=1) + "\n")
    if args.list or args.min_rate is None:
        return 0
    return 0 if all(r["rate"] >= args.min_rate for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
