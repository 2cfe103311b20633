"""The process's streams: result text and JSON on stdout, one-line diagnostics on
stderr, and what a closed pipe leaves behind. No click here: common/run.py runs the
command line and maps its outcome to an exit code."""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from common.errors import WriteError


def _stream(name: str) -> IO[bytes]:
    stream = getattr(sys, name)
    binary: IO[bytes] = getattr(stream, "buffer", stream)
    return binary


def write(text: str) -> None:
    """Write result text to stdout as UTF-8, whatever the locale. A reader that went away
    (EPIPE) is the caller's to handle; any other failure to write is exit 23."""
    out = _stream("stdout")
    if out is None:  # started with stdout closed
        raise WriteError("cannot write the result: stdout is closed")
    try:
        out.write(text.encode("utf-8", "surrogateescape"))
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise WriteError(f"cannot write the result to stdout: {exc.strerror or exc}") from None


def write_json(obj: Any) -> None:
    """One JSON document on one line (JSON Lines friendly)."""
    write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


def diag(tool: str, message: str, *, limit: int | None = None) -> None:
    """One diagnostic line on stderr, starting with the tool's name. Messages quote server
    data (URLs, headers, engine names): common.text's policy cleans it (no escape sequence
    reaches the terminal, no line end splits the line) and caps it, so that a 200 KB field
    is still one short line (a note NOTE_CHARS, an error line common.run.ERROR_CHARS)."""
    from common.text import NOTE_CHARS, cap, one_line

    line = cap(one_line(message), limit or NOTE_CHARS)
    err = _stream("stderr")
    try:
        err.write(f"{tool}: {line}\n".encode("utf-8", "replace"))
        err.flush()
    except (BrokenPipeError, ValueError):
        pass


def silence_stdout() -> None:
    # After EPIPE the interpreter would complain when it flushes stdout at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
