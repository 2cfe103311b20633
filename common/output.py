"""The process's streams: result text and JSON on stdout, one-line diagnostics on
stderr, the progress line of a batch, and what a closed pipe leaves behind. No click here:
common/run.py runs the command line and maps its outcome to an exit code.

This is the one place that knows the environment the streams lead to, all of it in one
``Environment`` (as httpie's): the streams, whether stderr is a terminal that can redraw a
line (``interactive``), NO_COLOR, --quiet and the progress line on screen. A test replaces
it with ``use``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from common.errors import WriteError


class Environment:
    """Where output goes and what it may do there. A stream left None is the process's
    own (sys.stdout, sys.stderr) as it is when written to, which a test runner swaps;
    ``environ`` None is os.environ. (A plain class: dataclasses costs ws's --help and
    start-up an import it does not otherwise need.)"""

    def __init__(
        self,
        stdout: IO[bytes] | None = None,
        stderr: IO[bytes] | None = None,
        environ: Mapping[str, str] | None = None,
        quiet: bool = False,
    ) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.environ = environ
        # --quiet: no notes and no progress line; error lines (and a -v trace) still print.
        self.quiet = quiet
        # The progress line on screen (without its line end), or None. Writers take the
        # lock to erase it, write their line and draw it again, so that lines from a
        # batch's threads and the progress line never mix on the terminal.
        self.status: str | None = None

    def stream(self, name: str) -> IO[bytes]:
        """The binary stream behind "stdout" or "stderr" (None when the process has none)."""
        given = self.stdout if name == "stdout" else self.stderr
        if given is not None:
            return given
        stream = getattr(sys, name)
        binary: IO[bytes] = getattr(stream, "buffer", stream)
        return binary

    def is_terminal(self, name: str) -> bool:
        try:
            return os.isatty(self.stream(name).fileno())
        except (OSError, ValueError, AttributeError):
            return False

    def variables(self) -> Mapping[str, str]:
        return os.environ if self.environ is None else self.environ

    def no_color(self) -> bool:
        """NO_COLOR set and not empty (no-color.org), or a terminal that cannot redraw."""
        env = self.variables()
        return bool(env.get("NO_COLOR")) or env.get("TERM") == "dumb"


_environment = Environment()


def environment() -> Environment:
    """The environment output goes to now."""
    return _environment


def use(env: Environment) -> Environment:
    """Send output to ``env`` from now on; returns the one it replaces (to put back)."""
    global _environment
    previous, _environment = _environment, env
    return previous


def _stream(name: str) -> IO[bytes]:
    return _environment.stream(name)


def write(text: str) -> None:
    """Write result text to stdout as UTF-8, whatever the locale. A reader that went away
    (EPIPE) is the caller's to handle; any other failure to write is exit 23."""
    write_pieces((text,))


# Characters encoded at a time: a page's text never exists twice over as bytes, and one
# astral character would make a whole-text copy four bytes a character.
_SLICE = 1 << 20


def write_pieces(pieces: Iterable[str]) -> None:
    """write("".join(pieces)) without the joined copy, each piece encoded a slice at a
    time."""
    out = _stream("stdout")
    if out is None:  # started with stdout closed
        raise WriteError("cannot write the result: stdout is closed")
    try:
        if _environment.status is not None and _environment.is_terminal("stdout"):
            # The page would land after the progress line on the same screen.
            with _lock:
                shown = _environment.status
                _draw(b"\r\x1b[K" if shown else b"")
                _write_all(out, pieces)
                _draw(shown.encode("utf-8", "replace") if shown else b"")
            return
        _write_all(out, pieces)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise WriteError(f"cannot write the result to stdout: {exc.strerror or exc}") from None


def _write_all(out: IO[bytes], pieces: Iterable[str]) -> None:
    for piece in pieces:
        for start in range(0, len(piece), _SLICE):
            out.write(piece[start : start + _SLICE].encode("utf-8", "surrogateescape"))
    out.flush()


def write_json(obj: Any) -> None:
    """One JSON document on one line (JSON Lines friendly)."""
    write_pieces(_json_pieces(obj))


def json_line(obj: Any) -> str:
    """What write_json writes for ``obj``, as one string (the library's ``to_json``)."""
    return "".join(_json_pieces(obj))


# A top-level string longer than this (a page's text) is escaped a slice at a time.
_LONG_STRING = 1 << 16


def _json_pieces(obj: Any) -> Iterator[str]:
    """json.dumps(obj) and a line end, in pieces: an object's long string values are
    escaped a slice at a time (JSON escapes each character on its own), so that neither
    the escaped copy of a page's text nor the whole document is ever one string."""
    if not (
        isinstance(obj, Mapping)
        and all(isinstance(key, str) for key in obj)
        and any(isinstance(value, str) and len(value) > _LONG_STRING for value in obj.values())
    ):
        yield json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        yield "\n"
        return
    before = "{"
    for key, value in obj.items():
        yield before + json.dumps(key, ensure_ascii=False) + ":"
        before = ","
        if isinstance(value, str) and len(value) > _LONG_STRING:
            yield '"'
            for start in range(0, len(value), _SLICE):
                yield json.dumps(value[start : start + _SLICE], ensure_ascii=False)[1:-1]
            yield '"'
        else:
            yield json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    yield "}\n"


def diag(tool: str, message: str, *, limit: int | None = None) -> None:
    """One diagnostic line on stderr, starting with the tool's name. Messages quote server
    data (URLs, headers, engine names): common.text's policy cleans it (no escape sequence
    reaches the terminal, no line end splits the line) and caps it, so that a 200 KB field
    is still one short line (a note NOTE_CHARS, an error line common.run.ERROR_CHARS)."""
    from common.text import NOTE_CHARS, cap, one_line

    env = _environment
    line = cap(one_line(message), limit or NOTE_CHARS)
    if env.quiet and not line.startswith(_ALWAYS_SHOWN):
        return
    data = f"{tool}: {line}\n".encode("utf-8", "replace")
    with _lock:
        if env.status is not None:  # above the progress line, which is drawn again below it
            data = b"\r\x1b[K" + data + env.status.encode("utf-8", "replace")
        _draw(data)


# Under --quiet only these lines are written: errors name their exit code, "(6) ...", and
# a -v trace line starts "* " (asked for explicitly).
_ALWAYS_SHOWN = ("(", "* ")
_lock = threading.Lock()


def interactive(environ: Mapping[str, str] | None = None) -> bool:
    """Whether stderr is someone watching: a terminal that can redraw a line (not
    TERM=dumb), NO_COLOR unset or empty (no-color.org), and not --quiet. A progress line
    is drawn only then; a pipe, a file, cron and an agent's harness see nothing of it.
    ``environ`` stands in for the environment's variables."""
    env = _environment
    if environ is not None:
        env = Environment(env.stdout, env.stderr, environ, env.quiet)
    return not env.quiet and not env.no_color() and env.is_terminal("stderr")


def status(text: str | None) -> None:
    """Draw ``text`` as the one updating line at the bottom of stderr (call only when
    ``interactive()``), or erase it with None. The line is cut to the terminal's width:
    a line that wrapped could not be erased with a carriage return."""
    env = _environment
    with _lock:
        if text is None:
            if env.status is not None:
                _draw(b"\r\x1b[K")
            env.status = None
            return
        from common.text import cap, one_line

        try:
            width = os.get_terminal_size(env.stream("stderr").fileno()).columns or 80
        except (OSError, ValueError, AttributeError):
            width = 80  # not a terminal, or 0 columns: not known
        env.status = cap(one_line(text), max(width - 1, 10))
        _draw(b"\r\x1b[K" + env.status.encode("utf-8", "replace"))


def clear_line() -> None:
    """Erase the current line of a watched stderr: what another process (the worker the
    supervisor just killed) left there, its progress line say."""
    if interactive():
        _draw(b"\r\x1b[K")


def _draw(data: bytes) -> None:
    err = _stream("stderr")
    try:
        err.write(data)
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
