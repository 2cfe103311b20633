"""The process runner both CLIs go through: signals, every outcome mapped to an exit
code, the one error line, and the JSON error object under --json."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from common import watchdog
from common.errors import (
    InternalError,
    Interrupted,
    Terminated,
    ToolError,
    UsageError,
    WriteError,
)
from common.output import diag, silence_stdout, write_json

# The last line a script or agent reads: room for every provider's reason in a failed search.
ERROR_CHARS = 2000


def error_line(tool: str, exc: ToolError) -> None:
    from common.errors import next_step
    from common.text import cap

    step = next_step(tool, exc)
    # The message is capped, never the next step after it.
    diag(
        tool,
        f"({exc.code}) {cap(exc.message, ERROR_CHARS - 10 - len(step))}{step}",
        limit=ERROR_CHARS,
    )


class _SigTerm(BaseException):
    """SIGTERM as KeyboardInterrupt is SIGINT: no `except Exception` or `except ToolError`
    on the way up (a search's fallback chain, a batch, the extractor) can swallow it."""


def _on_signal(signum: int, frame: Any) -> None:
    # Once is enough. A signal sent to the whole process group reaches this process twice
    # (directly, and passed on by the watchdog's supervisor): a second one must not break
    # into the clean-up the first started. The supervisor kills what does not end.
    global _signalled
    _signalled = True
    for sig in _HANDLED:
        signal.signal(sig, signal.SIG_IGN)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise _SigTerm


_HANDLED = (signal.SIGTERM, signal.SIGINT)
# A signal was handled in this run (its line written).
_signalled = False


def run_cli(
    tool: str,
    command: Any,
    argv: Sequence[str] | None = None,
    *,
    json_error: Callable[[ToolError], dict[str, Any]] | None = None,
) -> int:
    """Run a click command; map every outcome to one stderr line and an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    instruction = os.environ.get(f"_{tool.upper()}_COMPLETE")
    if instruction:
        # A shell's completion script asking for candidates (common.clickopts.completion_option).
        from click.shell_completion import shell_complete

        return shell_complete(command, {}, tool, f"_{tool.upper()}_COMPLETE", instruction)
    # After "--", --json is a query or a URL (the watchdog's supervise reads it alike): a
    # failure answered with a JSON document nobody asked for.
    wants_json = "--json" in (args[: args.index("--")] if "--" in args else args)
    # Each run starts and ends without --quiet and untraced (in-process callers run
    # several): the CLI turns either on from its flags.
    from common import output, trace

    output.environment().quiet = False
    trace.enable(tool, False)
    global _signalled
    _signalled = False
    previous: dict[signal.Signals, Any] = {}
    try:
        for sig in _HANDLED:
            previous[sig] = signal.signal(sig, _on_signal)
    except ValueError:  # not the main thread (embedded use)
        pass
    try:
        return _run(tool, command, args, wants_json, json_error)
    finally:
        output.environment().quiet = False
        trace.enable(tool, False)
        # A watchdog worker ends right after this. The copy of a signal its supervisor
        # passes on can come in after the one sent to the group was handled (a loaded
        # machine schedules the supervisor late): with the handlers back it would write
        # the line a second time (KeyboardInterrupt) or kill the worker by SIGTERM, which
        # the supervisor reports again. In-process callers get their handlers back.
        if not (_signalled and watchdog.supervised()):
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
        silence_stdout()
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
            silence_stdout()
    return exc.code


def _usage_message(tool: str, exc: Any) -> str:
    import click

    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    message = " ".join(message.split())
    if isinstance(exc, click.NoSuchOption):
        # Most often a query or URL that starts with '-': say how to give one.
        what = "a query" if tool == "ws" else "a URL"
        return f"{message} ({what} that starts with '-' goes after --: {tool} -- ARG; see {tool} --help)"
    return f"{message} (see {tool} --help)"


def main_exit(code: int) -> None:
    """Flush and exit; a closed stdout at this point is still a success."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        # EPIPE, a full device, no stdout at all: already reported, or nothing left to say.
        silence_stdout()
    sys.exit(code)
