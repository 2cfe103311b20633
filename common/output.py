"""The one place that knows the process environment: streams, tty, colour, closed pipes,
signals, and the `tool: (N) message` line. Both CLIs run through ``run_cli``."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from common.errors import (
    InternalError,
    Interrupted,
    Terminated,
    ToolError,
    UsageError,
    WriteError,
)


def _stream(name: str) -> IO[bytes]:
    stream = getattr(sys, name)
    return getattr(stream, "buffer", stream)


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


def use_colour(stream: IO[Any] | None = None) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (any value) or TERM=dumb."""
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    stream = stream or sys.stdout
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def diag(tool: str, message: str, *, limit: int | None = None) -> None:
    """One diagnostic line on stderr, starting with the tool's name. Messages quote server
    data (URLs, headers, engine names): common.text's policy cleans it (no escape sequence
    reaches the terminal, no line end splits the line) and caps it, so that a 200 KB field
    is still one short line (a note NOTE_CHARS, an error line ERROR_CHARS)."""
    from common.text import NOTE_CHARS, cap, one_line

    line = cap(one_line(message), limit or NOTE_CHARS)
    err = _stream("stderr")
    try:
        err.write(f"{tool}: {line}\n".encode("utf-8", "replace"))
        err.flush()
    except (BrokenPipeError, ValueError):
        pass


# The last line a script or agent reads: room for every provider's reason in a failed search.
ERROR_CHARS = 2000


def error_line(tool: str, exc: ToolError) -> None:
    diag(tool, f"({exc.code}) {exc.message}", limit=ERROR_CHARS)


def _silence_stdout() -> None:
    # After EPIPE the interpreter would complain when it flushes stdout at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class _SigTerm(BaseException):
    """SIGTERM as KeyboardInterrupt is SIGINT: no `except Exception` or `except ToolError`
    on the way up (a search's fallback chain, a batch, the extractor) can swallow it."""


def _on_signal(signum: int, frame: Any) -> None:
    # Once is enough. A signal sent to the whole process group reaches this process twice
    # (directly, and passed on by the watchdog's supervisor): a second one must not break
    # into the clean-up the first started. The supervisor kills what does not end.
    for sig in _HANDLED:
        signal.signal(sig, signal.SIG_IGN)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise _SigTerm


_HANDLED = (signal.SIGTERM, signal.SIGINT)


def run_cli(
    tool: str,
    command: Any,
    argv: Sequence[str] | None = None,
    *,
    json_error: Callable[[ToolError], dict[str, Any]] | None = None,
) -> int:
    """Run a click command; map every outcome to one stderr line and an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    wants_json = "--json" in args
    previous: dict[int, Any] = {}
    try:
        for sig in _HANDLED:
            previous[sig] = signal.signal(sig, _on_signal)
    except ValueError:  # not the main thread (embedded use)
        pass
    try:
        return _run(tool, command, args, wants_json, json_error)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _run(
    tool: str,
    command: Any,
    args: list[str],
    wants_json: bool,
    json_error: Callable[[ToolError], dict[str, Any]] | None,
) -> int:
    import click

    try:
        try:
            # make_context + invoke rather than main(): main() prints a bare newline on
            # Ctrl-C, and every diagnostic must be one line that starts with the tool name.
            with command.make_context(tool, args) as ctx:
                result = command.invoke(ctx)
        except click.exceptions.Exit as exc:
            return int(exc.exit_code or 0)
        except click.exceptions.Abort:
            raise KeyboardInterrupt from None
        except click.ClickException as exc:
            raise UsageError(_usage_message(tool, exc)) from None
        return int(result or 0)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        return _fail(tool, Interrupted("interrupted"), wants_json, json_error)
    except _SigTerm:
        return _fail(tool, Terminated("terminated by SIGTERM"), wants_json, json_error)
    except ToolError as exc:
        return _fail(tool, exc, wants_json, json_error)
    except Exception as exc:  # a bug: say so, in one line
        where = ""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        bug = InternalError(f"internal error: {type(exc).__name__}: {exc}{where} (this is a bug)")
        return _fail(tool, bug, wants_json, json_error)


def _fail(
    tool: str,
    exc: ToolError,
    wants_json: bool,
    json_error: Callable[[ToolError], dict[str, Any]] | None,
) -> int:
    error_line(tool, exc)
    if wants_json and json_error is not None:
        try:
            write_json(json_error(exc))
        except (BrokenPipeError, WriteError):
            _silence_stdout()
    return exc.code


def _usage_message(tool: str, exc: Any) -> str:
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    message = " ".join(message.split())
    return f"{message} (see {tool} --help)"


def main_exit(code: int) -> None:
    """Flush and exit; a closed stdout at this point is still a success."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        # EPIPE, a full device, no stdout at all: already reported, or nothing left to say.
        _silence_stdout()
    sys.exit(code)
