"""The errors of the DevTools wrapper, apart from it so that the pychrome-backed tab
(wf/render/pychrome_tab.py, imported lazily) and the wrapper (wf/render/cdp.py) share them
without importing each other."""

from __future__ import annotations

from typing import Any

CLOSED: dict[str, Any] = {"error": {"message": "connection closed"}}  # wakes waiting calls


class CDPError(Exception):
    """The browser answered a command with an error."""


class CDPTimeout(CDPError):
    """No answer within the command's timeout."""


class CDPClosed(CDPError):
    """The connection is gone (browser exited, target closed, or we closed it)."""
