"""A forked child dies with its parent: the worker under its supervisor, a regex
matcher or a PDF reader under the worker. Its own module, so that a child imports only
this (and _ctypes) to set it up."""

from __future__ import annotations

import os
import signal
from typing import Any


def die_with(parent: int) -> None:
    """PR_SET_PDEATHSIG(SIGKILL) for this process, a child of ``parent`` (its pid, taken
    before the fork): the worker under its supervisor, a regex matcher or a PDF reader
    under the worker. Without it a worker killed past its grace (SIGKILL, which no handler
    sees) left its matcher running a backtracking regex at full CPU for ever. The signal
    comes when the *thread* that forked ends (the kernel's rule), which is what a PDF
    reader kept per thread wants; the worker sets it from its main thread."""
    try:
        _prctl()(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the prctl took effect
        os._exit(1)


def _prctl() -> Any:
    """libc's prctl, called through _ctypes: the ctypes package around it costs the
    worker 1.5 to 3 ms of start-up (its classes, struct, the library wrappers) for this
    one call with int arguments and an int result. ctypes is the fallback where the
    private module differs."""
    try:
        import _ctypes

        class Int(_ctypes._SimpleCData):  # type: ignore[type-arg]
            _type_ = "i"

        class Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL
            _restype_ = Int

        # dlopen(NULL): the program itself, libc with it (typeshed wants a path).
        libc = _ctypes.dlopen(None, os.RTLD_NOW)  # type: ignore[arg-type]
        return Function(_ctypes.dlsym(libc, "prctl"))
    except (ImportError, AttributeError, TypeError, OSError):
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
