"""Option values both tools read from the environment: sizes, seconds, whole numbers.

The options builders (wf/options.py, ws/config.py) call these at start-up, so a bad value
is exit 2 naming its variable before any traffic. common/clickopts.py applies the same
rules to the flags. No click here: the core reads these too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from common.errors import UsageError

# A deadline longer than a day is a typo, not a plan.
MAX_SECONDS = 86400.0


def parse_size(text: str) -> int:
    """``10M``, ``512k``, ``1G`` or a plain number of bytes."""
    value = text.strip().lower().removesuffix("b").removesuffix("i")
    scale = 1
    if value and value[-1] in "kmg":
        scale = {"k": 1024, "m": 1024**2, "g": 1024**3}[value[-1]]
        value = value[:-1]
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"not a size: {text!r} (use bytes or K, M, G)") from None
    if number <= 0 or number * scale > 2**62:
        raise ValueError(f"size out of range: {text!r}")
    return int(number * scale)


def deadline_ok(value: float) -> bool:
    """A total deadline: more than 0 and at most MAX_SECONDS (nan and inf are neither)."""
    return 0 < value <= MAX_SECONDS


def _raw(environ: Mapping[str, str], name: str) -> str:
    return environ.get(name, "").strip()


def _env_float(environ: Mapping[str, str], name: str) -> tuple[str, float] | None:
    """The variable as written and as a number, or None when it is unset or blank."""
    raw = _raw(environ, name)
    if not raw:
        return None
    try:
        return raw, float(raw)
    except ValueError:
        raise UsageError(f"{name}={raw!r} is not a number of seconds") from None


def env_deadline(environ: Mapping[str, str], name: str, default: float) -> float:
    """A --timeout given as a variable, checked as the flag is."""
    found = _env_float(environ, name)
    if found is None:
        return default
    raw, value = found
    if not deadline_ok(value):
        raise UsageError(f"{name}={raw!r} must be more than 0 and at most {MAX_SECONDS:g} seconds")
    return value


def env_seconds(environ: Mapping[str, str], name: str, default: float, *, zero_ok: bool) -> float:
    """A finite number of seconds, positive (or, with ``zero_ok``, not negative)."""
    found = _env_float(environ, name)
    if found is None:
        return default
    raw, value = found
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
        kind = "non-negative" if zero_ok else "positive"
        raise UsageError(f"{name}={raw!r} must be a {kind} number of seconds")
    return value


def env_size(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = _raw(environ, name)
    if not raw:
        return default
    try:
        return parse_size(raw)
    except ValueError as exc:
        raise UsageError(f"{name}={raw!r}: {exc}") from None


def env_int(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = _raw(environ, name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise UsageError(f"{name}={raw!r} is not a whole number") from None


def env_choice(
    environ: Mapping[str, str], name: str, default: str, choices: tuple[str, ...]
) -> str:
    raw = _raw(environ, name).lower()
    if not raw:
        return default
    if raw not in choices:
        raise UsageError(f"{name}={raw!r} is not one of {', '.join(choices)}")
    return raw


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def env_flag(environ: Mapping[str, str], name: str, default: bool = False) -> bool:
    """An on/off variable: 1, true, yes, on or 0, false, no, off (any case); blank is the
    default and anything else a usage error, so that a typo does not turn a feature off."""
    raw = _raw(environ, name).lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise UsageError(f"{name}={raw!r} is not one of 1, true, yes, on, 0, false, no, off")
