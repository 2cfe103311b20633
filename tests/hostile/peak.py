"""Run a command and write its wait status and peak RSS (KB) to a file:

    python peak.py REPORT COMMAND [ARG]...

Linux keeps a process's peak RSS across exec, so a tool spawned straight from pytest
would report pytest's own size. Forked from this small process instead, the tool starts
from a few MB, and wait4 reports its peak (and that of any child it reaped).
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> None:
    report, argv = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    # Group signals (a Ctrl-C) are the tool's to handle; this process only waits.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    _, status, usage = os.wait4(pid, 0)
    with open(report, "w") as fh:
        fh.write(f"{status} {usage.ru_maxrss}\n")
    os._exit(0)


if __name__ == "__main__":
    main()
