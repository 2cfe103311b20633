"""Click options both tools share. Only the CLIs import this module; the core never sees click."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

F = Callable[..., Any]


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


class SizeType(click.ParamType):
    name = "SIZE"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            return value
        try:
            return parse_size(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def positive_seconds(ctx: Any, param: Any, value: float | None) -> float | None:
    if value is not None and not 0 < value <= 86400:
        raise click.BadParameter("must be more than 0 and at most 86400 seconds", ctx, param)
    return value


def shared_options(*, timeout_env: str, default_timeout: float = 30.0) -> Callable[[F], F]:
    """--json, --timeout, --allow-private, --allow-host, --user-agent."""

    def decorate(f: F) -> F:
        options = [
            click.option(
                "--json",
                "as_json",
                is_flag=True,
                help="Print one JSON object (JSON Lines for several).",
            ),
            click.option(
                "--timeout",
                type=float,
                envvar=timeout_env,
                default=default_timeout,
                show_default=True,
                callback=positive_seconds,
                metavar="SECONDS",
                help=f"Total deadline for the whole operation [env {timeout_env}].",
            ),
            click.option(
                "--allow-private",
                is_flag=True,
                default=None,
                help="Allow loopback, private, CGNAT and unique-local addresses [env WF_ALLOW_PRIVATE=1].",
            ),
            click.option(
                "--allow-host",
                "allow_hosts",
                multiple=True,
                metavar="HOST",
                help="Allow exactly this host name or address, without a port (repeatable) [env WF_ALLOW_HOSTS=a,b].",
            ),
            click.option(
                "--user-agent",
                metavar="UA",
                help="User-Agent header (default: a current desktop Chrome).",
            ),
        ]
        for option in reversed(options):
            f = option(f)
        return f

    return decorate
