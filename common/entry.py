"""The entry point both tools share (console scripts and ``python -m``): the watchdog's
supervisor first, then the command line.

The supervisor forks before click and the rest of the CLI are imported, so the worker has
as few pages as possible to copy on write (see common/watchdog.py)."""

from __future__ import annotations

import sys
from importlib import import_module
from typing import NoReturn

from common import watchdog
from common.run import error_line, main_exit


def run(tool: str, cli: str, json_error: watchdog.JsonError) -> None:
    """Run ``cli``'s ``main`` (a module name: ``wf.cli``) as ``tool``, supervised.
    ``json_error`` builds the tool's --json error document; it imports the CLI only when
    it is first called (in the worker, once the command line is loaded)."""
    if not _completion(tool, sys.argv[1:]):
        watchdog.supervise(tool, sys.argv[1:], json_error, error_line)
    try:
        module = import_module(cli)
        watchdog.prepare()
        module.main()
    except KeyboardInterrupt:
        # Ctrl-C while the command line is still being set up, before run_cli catches it.
        from common.errors import Interrupted

        error_line(tool, Interrupted("interrupted"))
        main_exit(Interrupted.code)


def exit_now(code: object) -> NoReturn:
    """End the process with ``code`` (a SystemExit's) without the interpreter's teardown.

    Tearing down every module and freeing every object of a run costs more than a short
    command's own work (15 ms of CPU time of a search's 125, measured with
    tests/bench/bench_ws.py); the system frees it all at once. What teardown would do
    that matters is done here: the atexit handlers run and stdout and stderr are flushed.
    A code that is not a number, or a thread that is not a daemon (teardown waits for
    those), takes the usual way out."""
    import atexit
    import os
    import threading

    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    if not isinstance(code, int) or any(not t.daemon for t in others):
        raise SystemExit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass  # a closed pipe was reported (or not worth a line) before the exit
    os._exit(code)


def _completion(tool: str, argv: list[str]) -> bool:
    """A completion script or a shell asking for candidates: no work worth a supervisor
    (and the answer comes back faster without the fork), as for --help."""
    import os

    if os.environ.get(f"_{tool.upper()}_COMPLETE"):
        return True
    return any(arg == "--completion" or arg.startswith("--completion=") for arg in argv)
