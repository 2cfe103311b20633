"""wf's entry point (the console script and `python -m wf`): the backstop, then the CLI.

The supervisor forks before click and the rest of the CLI are imported, so the worker has
as few pages as possible to copy on write (see common/watchdog.py)."""

from __future__ import annotations

import sys
from typing import Any

from common import watchdog


def _json_error(exc: Any, what: str | None) -> dict[str, Any]:
    from wf.cli import _json_error as json_error

    return json_error(exc, what)


def main() -> None:
    watchdog.supervise("wf", sys.argv[1:], _json_error)
    from wf.cli import main as run

    run()


if __name__ == "__main__":
    main()
