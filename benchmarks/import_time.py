"""How long `import snapsim` takes, and what it pulls in. Run from the repo root:

    python benchmarks/import_time.py [--rounds 7] [--top 12]

Each round is a fresh interpreter timing the import itself (interpreter start-up excluded);
the best round is printed against the 0.3 s target, then the `python -X importtime` entries
with the largest cumulative times, and whether any heavy library came along.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

TARGET_S = 0.3
HEAVY = ("numba", "numpy", "pandas", "pyarrow", "matplotlib", "scipy", "dask", "tqdm")
TIMED = ("import sys, time, json\n"
         "t = time.perf_counter()\n"
         "import snapsim\n"
         "dt = time.perf_counter() - t\n"
         f"print(json.dumps([dt, [m for m in {HEAVY!r} if m in sys.modules]]))\n")


def one_round() -> tuple[float, list[str]]:
    out = subprocess.run([sys.executable, "-c", TIMED], capture_output=True, text=True,
                         check=True)
    seconds, heavy = json.loads(out.stdout)
    return seconds, heavy


def importtime(top: int) -> list[tuple[int, int, str]]:
    """(self us, cumulative us, module) of the `top` slowest imports under `import snapsim`."""
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", "import snapsim"],
                         capture_output=True, text=True, check=True).stderr
    rows = []
    for line in err.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            rows.append((int(parts[0]), int(parts[1]), parts[2].rstrip()))
    return sorted(rows, key=lambda r: r[1], reverse=True)[:top]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args(argv)
    times, heavy = zip(*(one_round() for _ in range(args.rounds)), strict=True)
    best = min(times)
    print(f"import snapsim: best {best * 1000:.1f} ms of {args.rounds} fresh interpreters "
          f"(median {sorted(times)[len(times) // 2] * 1000:.1f} ms); target < "
          f"{TARGET_S * 1000:.0f} ms: {'met' if best < TARGET_S else 'MISSED'}")
    print(f"heavy libraries imported: {', '.join(heavy[0]) or 'none'}")
    print(f"\npython -X importtime, top {args.top} by cumulative time:")
    print(f"{'self ms':>8} {'cumul. ms':>9}  module")
    for own, cumulative, name in importtime(args.top):
        print(f"{own / 1000:8.1f} {cumulative / 1000:9.1f}  {name}")


if __name__ == "__main__":
    main()
