"""`snapsim app`: the workbench in the browser (Streamlit, the optional extra snapsim[app])."""

from __future__ import annotations

import os
import subprocess
import sys

from ..errors import InputError

INSTALL = "the workbench needs the optional extra: pip install 'snapsim[app]'"


def _app(args) -> int:
    try:
        import streamlit  # noqa: F401
    except ImportError:
        raise InputError(INSTALL) from None
    from ..app import MAIN
    from ..app.common import OUT_ENV
    from ..sim.checks import out_folder, whole

    whole(args.port, "--port", 1, 65535)
    out_folder(args.out)  # refused now, not when a page first writes there
    env = {**os.environ, OUT_ENV: os.path.abspath(args.out)}
    cmd = [sys.executable, "-m", "streamlit", "run", str(MAIN),
           "--server.port", str(args.port), "--server.address", args.host,
           "--server.headless", "true" if args.no_browser else "false",
           "--browser.gatherUsageStats", "false", "--browser.serverAddress", args.host,
           "--client.toolbarMode", "minimal"]
    print(f"snapsim workbench at http://{args.host}:{args.port} (Ctrl-C stops it)", flush=True)
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0


def add(sub) -> None:
    p = sub.add_parser("app", help="the workbench in the browser: balance, edit and compare, "
                                   "rebalance, play and odds (needs snapsim[app])")
    p.add_argument("--port", type=int, default=8501, help="port to serve on (default: 8501)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only; "
                        "0.0.0.0 serves every network it is on)")
    p.add_argument("--no-browser", action="store_true",
                   help="do not open a browser (default: open one at the address)")
    p.add_argument("--out", default="snapsim-workbench",
                   help="folder for the pages' runs and uploads, the same folders the "
                        "commands write (default: ./snapsim-workbench)")
    p.set_defaults(run=_app)
