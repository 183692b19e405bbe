"""Running the command line in-process, and reading its one-line errors."""

from snapsim.cli import main


def cli(capsys, *argv):
    """Exit code, stdout and stderr of `snapsim ARGV`."""
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_error_line(err: str) -> str:
    """The single `snapsim: error:` line a bad input must give (no traceback)."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one stderr line, got:\n{err}"
    assert lines[0].startswith("snapsim: error:"), lines[0]
    assert "Traceback" not in err
    return lines[0]
