"""How long the workbench's Edit page takes from pressing Compare to the verdict, and where
the time goes.

A designer changes one value and presses Compare: the standard side is read from the run
cache (played once, before the timings), the variant's side is played. Each repeat changes
the atlantic puffin's prestige to a value not played before and reports

- the whole page: the Edit page driven headless (streamlit.testing.v1.AppTest) from the click
  to the verdict on the page (the page's script reruns, the job thread, its polling), the
  values compared back to back as a designer does, each click while the previous
  comparison's folder is being written;
- the comparison alone (`snapsim.compare`, as the page calls it), split into the games
  (played, or read from the run cache), the measures' paired differences, the balance verdict
  and the rest (each part timed around its function in snapsim.report.compare).

    python benchmarks/workbench_compare.py [--games 1000] [--players 4] [--repeats 3]
                                          [--writer process|thread]
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from common import Parser, bounded

# where a comparison's time goes: the function of snapsim.report.compare each part is
PARTS = {"simulate": "games", "measure_rows": "paired differences",
         "change_verdict": "balance verdict"}


@contextmanager
def timed_parts():
    """Seconds spent in each of PARTS while the block runs (the functions wrapped)."""
    from snapsim.report import compare

    spent: dict[str, float] = defaultdict(float)
    kept = {name: getattr(compare, name) for name in PARTS}

    def wrap(name, call):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                spent[PARTS[name]] += time.perf_counter() - start
        return timed

    for name, call in kept.items():
        setattr(compare, name, wrap(name, call))
    try:
        yield spent
    finally:
        for name, call in kept.items():
            setattr(compare, name, call)


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=bounded(int, 10, 200_000), default=1000,
                    help="paired games per side (default: 1000, the page's default)")
    ap.add_argument("--players", type=bounded(int, 2, 5), default=4,
                    help="players (default: 4, the page's default)")
    ap.add_argument("--repeats", type=bounded(int, 1, 20), default=3,
                    help="values changed and compared (default: 3)")
    ap.add_argument("--writer", choices=("process", "thread"), default="process",
                    help="what writes a comparison's folder: a niced process (the page's "
                         "way) or a thread of the server (as before; default: process)")
    args = ap.parse_args()
    os.environ["SNAPSIM_APP_OUT"] = tempfile.mkdtemp(prefix="workbench-")
    from streamlit.testing.v1 import AppTest

    import snapsim
    from snapsim.app import MAIN, jobs, writer
    from snapsim.app.common import sha_of
    from snapsim.sim.component_files import export_bytes

    grid = f"ed-snapshot-{sha_of(None, 'snapshot')}-animals"
    folder = Path(os.environ["SNAPSIM_APP_OUT"])

    def variant(prestige: int) -> Path:
        path = folder / f"puffin-{prestige}.csv"
        path.write_bytes(export_bytes("snapshot", "csv").replace(
            b"atlantic puffin,Shoreline,4,2,", f"atlantic puffin,Shoreline,4,{prestige},"
                                                .encode()))
        return path

    def pages(values) -> list[float]:
        """Click to verdict of each value in turn, back to back: each click comes right
        after the previous verdict, while that comparison's folder is being written."""
        at = AppTest.from_file(str(MAIN), default_timeout=600)
        at.run()
        at.sidebar.radio(key="page").set_value("Edit and compare").run()
        at.selectbox(key="ed-players").set_value(args.players).run()
        at.number_input(key="ed-games").set_value(args.games).run()
        out = []
        for prestige in values:
            at.session_state[grid] = {"edited_rows": {2: {"prestige": str(prestige)}},
                                      "added_rows": [], "deleted_rows": []}
            at.run()
            start = time.perf_counter()
            at.button(key="ed-compare").click().run()
            out.append(time.perf_counter() - start)
            assert any(f"prestige 2 → {prestige}" in c.value for c in at.code), at.exception
        return out

    def alone(prestige: int) -> tuple[float, dict[str, float]]:
        with timed_parts() as parts:
            start = time.perf_counter()
            snapsim.compare("snapshot", variants=[str(variant(prestige))],
                            players=args.players, games=args.games, seed=1)
            return time.perf_counter() - start, dict(parts)

    if args.writer == "thread":  # the folder written on a thread of the server, as before
        writer.write_folder = lambda result, out: result.write(out, force=True)
    start = time.perf_counter()
    fresh = iter(random.sample(range(3, 1000), 1 + 2 * args.repeats))  # values not played
    alone(next(fresh))  # the kernels compiled, the standard side played into the run cache
    print(f"warm-up (kernels, the standard side into the cache): "
          f"{time.perf_counter() - start:.1f} s")
    for _ in range(args.repeats):
        total, parts = alone(next(fresh))
        rest = total - sum(parts.values())
        print(f"the comparison alone: {total:.1f} s ("
              + ", ".join(f"{what} {s:.1f} s" for what, s in parts.items())
              + f", the rest {rest:.1f} s)")
    seconds = pages([next(fresh) for _ in range(args.repeats)])
    print(f"the page, click to verdict, back to back (folders written by a {args.writer}): "
          + ", ".join(f"{s:.1f} s" for s in seconds))
    for job in list(jobs._JOBS.values()):  # the last folder written before the end
        job.done.wait()
    print(f"snapshot, {args.players} players, {args.games:,} paired games per side, seed 1, "
          f"{os.cpu_count()} cores")


if __name__ == "__main__":
    main()
