"""Where a game's batch time goes: the compiled kernels sampled under gdb, by function.

    python benchmarks/profile.py yosemite [--players 2] [--policy greedy] [--samples 400]

Starts a long one-thread batch run in a child process, measures its games per second, then
stops it `--samples` times (every `--interval` seconds) under gdb and reads each backtrace.
Prints, for every compiled function of the project seen, the share of samples in which it is
running (self: the innermost of them, time in library calls included) and in which it is on
the stack (inclusive), and those shares as microseconds per game.
numba's reference counting (NRT_incref / NRT_decref) shows up as functions of its own, with
the callers that pay most for it. Needs gdb (Debian: apt install gdb); Linux only.
"""

from __future__ import annotations

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

from common import Parser, bounded

CHILD = textwrap.dedent("""
    import json, sys, time, numba, snapsim
    from snapsim.errors import InputError
    numba.set_num_threads(1)
    game, players, policy = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    run = lambda n: snapsim.simulate(game, players=players, policies=policy.split(","), games=n,
                                     seed=1, threads=1)
    try:
        run(4)  # compile or load the kernels
    except InputError as e:  # the players or the policy refused: its one line
        sys.exit(str(e))
    n = 200
    t = time.process_time()
    while time.process_time() - t < 1.0:
        run(n)
        n *= 2
    t = time.process_time()
    run(n)
    print(json.dumps(n / (time.process_time() - t)), flush=True)
    while True:  # sampled until killed
        run(10 * n)
""")

# runs inside gdb: interrupt the inferior every INTERVAL seconds, keep each backtrace's names
SAMPLER = textwrap.dedent("""
    import gdb, json, os, signal, threading
    pid = gdb.selected_inferior().pid
    gdb.execute("handle SIGINT stop print nopass")
    stacks = []
    for _ in range(int(os.environ["SAMPLES"])):
        threading.Timer(float(os.environ["INTERVAL"]), lambda: os.kill(pid, signal.SIGINT)).start()
        try:
            gdb.execute("continue", to_string=True)
        except gdb.error:
            break
        stacks.append(gdb.execute("bt 24", to_string=True))
    with open(os.environ["OUT"], "w") as f:
        json.dump(stacks, f)
    gdb.execute("detach")
""")

FRAME = re.compile(r"^#\d+\s+(?:0x[0-9a-f]+ in )?([\w:.$]+?)(?:\[abi|<|\s*\(|$)")
REFCOUNT = ("NRT_incref", "NRT_decref")


def function_names(backtrace: str) -> list[str]:
    """The project's compiled functions (and numba's reference counting) in a backtrace,
    innermost first: `snapsim::games::yosemite::policies::plans` as `policies.plans`."""
    names = []
    for line in backtrace.splitlines():
        m = FRAME.match(line.strip())
        if m is None:
            continue
        parts = m.group(1).split("::")
        if parts[0] == "snapsim":
            names.append(".".join(parts[-2:]))
        elif parts[0] in REFCOUNT:
            names.append(parts[0])
    return names


def summarize(stacks: list[str], per_game_us: float, top: int) -> None:
    own, within, payers = collections.Counter(), collections.Counter(), collections.Counter()
    n = 0
    for bt in stacks:
        names = function_names(bt)
        if not names:
            continue
        n += 1
        own[names[0]] += 1
        within.update(set(names))
        if names[0] in REFCOUNT and len(names) > 1:
            payers[names[1]] += 1
    if n == 0:
        raise SystemExit("profile: gdb read no backtraces; is ptrace allowed here?")
    compiled = list(within)
    print(f"{n} samples; {per_game_us:.1f} us per game")
    print(f"{'function':<44}{'self %':>8}{'incl %':>8}{'self us':>9}{'incl us':>9}")
    for name in sorted(compiled, key=lambda k: -within[k])[:top]:
        print(f"{name:<44}{100 * own[name] / n:8.1f}{100 * within[name] / n:8.1f}"
              f"{per_game_us * own[name] / n:9.2f}{per_game_us * within[name] / n:9.2f}")
    if payers:
        print("reference counting, by the function that pays for it:")
        for name, k in payers.most_common(8):
            print(f"  {name:<42}{100 * k / n:8.1f} %")


def main(argv=None) -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=("snapshot", "yosemite", "shutterbug"))
    ap.add_argument("--players", type=bounded(int, 1, 6), default=None,
                    help="players per game (default: 4, Yosemite 2)")
    ap.add_argument("--policy", default="greedy",
                    help="policy in every seat (default: greedy)")
    ap.add_argument("--samples", type=bounded(int, 1, 10_000), default=400,
                    help="backtraces to take, 1-10,000 (default: 400)")
    ap.add_argument("--interval", type=bounded(float, 0.001, 1.0), default=0.01,
                    help="seconds between samples, 0.001-1 (default: 0.01)")
    ap.add_argument("--top", type=bounded(int, 1, 1000), default=30,
                    help="functions listed, most often on the stack first (default: 30)")
    args = ap.parse_args(argv)
    if shutil.which("gdb") is None:
        ap.error("needs gdb on the PATH (Debian: apt install gdb)")
    players = args.players or (2 if args.game == "yosemite" else 4)
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp, open(os.path.join(tmp, "stderr"), "w+") as errors:
        child = subprocess.Popen([sys.executable, "-W", "ignore", "-c", CHILD, args.game,
                                  str(players), args.policy], stdout=subprocess.PIPE,
                                 text=True, stderr=errors, env=env)
        try:
            line = child.stdout.readline()
            if not line:  # the batch refused its input (players, policy) or failed
                child.wait()
                errors.seek(0)
                ap.error((errors.read().strip().splitlines() or ["the run failed"])[-1])
            per_game_us = 1e6 / json.loads(line)
            time.sleep(0.5)
            script, out = os.path.join(tmp, "sampler.py"), os.path.join(tmp, "stacks.json")
            with open(script, "w") as f:
                f.write(SAMPLER)
            subprocess.run(["gdb", "-p", str(child.pid), "-batch", "-x", script],
                           env=dict(os.environ, SAMPLES=str(args.samples), OUT=out,
                                    INTERVAL=str(args.interval)),
                           capture_output=True, check=True,
                           timeout=60 + args.samples * (args.interval + 1.0))
            with open(out) as f:
                stacks = json.load(f)
        finally:
            child.kill()
            child.wait()
    summarize(stacks, per_game_us, args.top)


if __name__ == "__main__":
    main()
