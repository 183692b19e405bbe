"""Benchmark the exact odds kernels (snapsim.odds). Run from the repo root:

    python benchmarks/odds.py

Prints the cold start of the first photo_table() call (a true compile with an empty numba
cache dir, and a normal start that may load the on-disk cache), warm times for the full photo
table and token table against their targets, a naive pure-Python photo table for the speed-up
ratio, and research_odds on a mid-game deck and on the full deck at an empty table.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from snapsim.odds import photo_table, research_odds, token_table  # noqa: E402

WARM_TARGET_S = 5e-3
SPEEDUP_TARGET = 100.0
MAX_DICE, MAX_TOKENS, MAX_DIFFICULTY = 6, 20, 40

COLD_SNIPPET = """
import time
t0 = time.perf_counter()
from snapsim.odds import photo_table
t1 = time.perf_counter()
photo_table()
t2 = time.perf_counter()
print(f"{t1 - t0:.6f} {t2 - t1:.6f}")
"""


def cold_start(cache_dir: str | None) -> tuple[float, float]:
    """(import seconds, first photo_table() seconds) in a fresh interpreter."""
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", COLD_SNIPPET], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=600).stdout.split()
    return float(out[0]), float(out[1])


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def naive_photo_table() -> list:
    """table[d-1][t][D-1] from itertools enumeration of every face tuple (pure Python)."""
    table = []
    for d in range(1, MAX_DICE + 1):
        counts = Counter(sum(f) for f in itertools.product(range(1, 7), repeat=d))
        total = 6**d
        rows = []
        for t in range(MAX_TOKENS + 1):
            rows.append([sum(c for s, c in counts.items() if s + t >= k) / total
                         for k in range(1, MAX_DIFFICULTY + 1)])
        table.append(rows)
    return table


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:10.3f} ms"


def verdict(ok: bool) -> str:
    return "OK" if ok else "MISSED"


def main() -> None:
    print("snapsim.odds benchmark")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print()

    with tempfile.TemporaryDirectory(prefix="snapsim-numba-cache-") as tmp:
        imp, first = cold_start(tmp)
    print(f"cold, empty numba cache (compile):  import {fmt(imp)}  first photo_table() "
          f"{fmt(first)}")
    imp, first = cold_start(None)
    print(f"cold, normal cache (load or build): import {fmt(imp)}  first photo_table() "
          f"{fmt(first)}")
    imp, first = cold_start(None)
    print(f"cold, normal cache (second start):  import {fmt(imp)}  first photo_table() "
          f"{fmt(first)}")
    print()

    # warm-up in this process, then medians
    photo_table()
    token_table()
    t_photo = median_time(photo_table, 500)
    t_tokens = median_time(token_table, 100)
    size = MAX_DICE * (MAX_TOKENS + 1) * MAX_DIFFICULTY
    print(f"warm photo_table() {MAX_DICE}x{MAX_TOKENS + 1}x{MAX_DIFFICULTY} = {size} cells, "
          f"median of 500: {fmt(t_photo)}   target < 5 ms: {verdict(t_photo < WARM_TARGET_S)}")
    rows = len(token_table())
    print(f"warm token_table() ({rows} rows, DataFrame), median of 100: {fmt(t_tokens)}   "
          f"target < 5 ms: {verdict(t_tokens < WARM_TARGET_S)}")
    print(f"warm both full tables together: {fmt(t_photo + t_tokens)}   target < 5 ms: "
          f"{verdict(t_photo + t_tokens < WARM_TARGET_S)}")

    t_naive = median_time(naive_photo_table, 3)
    ratio = t_naive / t_photo
    print(f"naive pure-Python photo table (itertools), median of 3: {fmt(t_naive)}")
    print(f"speed-up naive / jitted: {ratio:,.0f}x   target >= 100x: "
          f"{verdict(ratio >= SPEEDUP_TARGET)}")
    # the two tables agree
    jit = photo_table()
    naive = naive_photo_table()
    worst = max(abs(jit[d, t, k] - naive[d][t][k]) for d in range(MAX_DICE)
                for t in range(MAX_TOKENS + 1) for k in range(MAX_DIFFICULTY))
    print(f"max |jitted - naive| over the table: {worst:.2e}")
    print()

    full = [(h, d) for h in range(4) for d in range(2, 11)]
    # (a) mid-game: tops 5, 3, 7, 0 (shoreline 5, savannah 3, mountain 7); 3 more cards seen
    # (shoreline 2, savannah 2, rainforest 4); the raccoon still in the deck; 2 free slots
    tops = [5, 3, 7, 0]
    seen = {(0, 5), (1, 3), (2, 7), (0, 2), (1, 2), (3, 4)}
    mid = [c for c in full if c not in seen]
    research_odds(tops, mid[:5], raccoon=True, free_slots=2)  # compile / cache load
    t = time.perf_counter()
    research_odds(tops, mid, raccoon=True, free_slots=2)
    first_mid = time.perf_counter() - t
    t_mid = median_time(lambda: research_odds(tops, mid, raccoon=True, free_slots=2), 5)
    res = research_odds(tops, mid, raccoon=True, free_slots=2)
    print(f"research_odds (a) mid-game, {len(mid)} cards + raccoon, 2 slots: "
          f"first {fmt(first_mid)}, median of 5 {fmt(t_mid)}  "
          f"(p_spook {res.p_spook:.4f}, E[tokens] {res.expected_tokens:.3f})")

    # (b) the full deck (36 + raccoon) at an empty table
    for slots in (0, 2):
        t = time.perf_counter()
        res = research_odds([0, 0, 0, 0], full, raccoon=True, free_slots=slots)
        dt = time.perf_counter() - t
        print(f"research_odds (b) full deck 36 + raccoon, empty table, {slots} slots: "
              f"{fmt(dt)}  (p_spook {res.p_spook:.4f}, E[tokens] {res.expected_tokens:.3f}, "
              f"dropped {res.dropped:.1e})")


if __name__ == "__main__":
    main()
