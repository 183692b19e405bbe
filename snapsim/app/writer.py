"""A finished run's folder written by a process of its own, at the lowest CPU priority.

A comparison's folder (its figures and HTML report, the files `snapsim compare` writes) takes
longer than its verdict. Written on a thread of the server, it held the interpreter's lock and
a core while the designer's next comparison ran; in its own process, niced, the next
comparison runs first and the folder is written on what CPU is left.

    python -m snapsim.app.writer RESULT.pickle FOLDER
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path


def write_folder(result: object, out: Path) -> None:
    """`result.write(out, force=True)` in a niced process of its own; returns when it is
    written. A failure is raised here with the process's last line."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(suffix=".pickle", dir=out.parent) as f:
        pickle.dump(result, f)
        f.flush()
        done = subprocess.run([sys.executable, "-m", __name__, f.name, str(out)],
                              capture_output=True, text=True)
    if done.returncode:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"the writer exited with {done.returncode}")


def main(argv: list[str]) -> None:
    os.nice(19)
    with open(argv[0], "rb") as f:
        result = pickle.load(f)
    result.write(Path(argv[1]), force=True)


if __name__ == "__main__":
    main(sys.argv[1:])
