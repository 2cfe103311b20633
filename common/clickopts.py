"""Click options both tools share. Only the CLIs import this module; the core never sees click.

Flags only: the variables behind them (WF_TIMEOUT, WS_TIMEOUT, ...) are read with the rest
of the environment by each tool's options builder, which names the variable in its error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from common.values import MAX_SECONDS, deadline_ok, parse_size

__all__ = [
    "SHELLS",
    "SizeType",
    "completion_option",
    "completion_var",
    "fresh_runs",
    "given",
    "parse_size",
    "positive_seconds",
    "shared_options",
    "verbose_option",
]

F = Callable[..., Any]
T = TypeVar("T")


class SizeType(click.ParamType[int]):
    name = "SIZE"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            return value
        try:
            return parse_size(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def positive_seconds(ctx: Any, param: Any, value: float | None) -> float | None:
    if value is not None and not deadline_ok(value):
        raise click.BadParameter(
            f"must be more than 0 and at most {MAX_SECONDS:g} seconds", ctx, param
        )
    return value


def shared_options(
    *,
    timeout_env: str,
    default_timeout: float = 30.0,
    timeout_help: str = "Total deadline for the whole operation",
    json_help: str = "Print one JSON object (JSON Lines for several).",
) -> Callable[[F], F]:
    """--json, --timeout, --allow-private, --allow-host, --user-agent.

    ``timeout_env`` is named in --help; the tool's options builder reads it when the flag
    is not given (see given)."""

    def decorate(f: F) -> F:
        options = [
            click.option(
                "--json",
                "as_json",
                is_flag=True,
                help=json_help,
            ),
            click.option(
                "--timeout",
                type=float,
                default=default_timeout,
                show_default=True,
                callback=positive_seconds,
                metavar="SECONDS",
                help=f"{timeout_help} [env {timeout_env}].",
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


def given(name: str, value: T) -> T | None:
    """``value`` when the command line set parameter ``name``; None when click filled in
    the default. --help shows the defaults, so click keeps them; but a default must not
    beat the variable behind the flag, which only the tool's options builder reads."""
    from click.core import ParameterSource

    source = click.get_current_context().get_parameter_source(name)
    return None if source in (ParameterSource.DEFAULT, None) else value


# The shells click writes completion scripts for.
SHELLS = ("bash", "zsh", "fish")


def completion_var(tool: str) -> str:
    """The variable click's completion scripts set to ask a tool for completions."""
    return f"_{tool.upper()}_COMPLETE"


def _print_completion(ctx: Any, param: Any, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    from click.shell_completion import ShellComplete, get_completion_class

    from common.output import write

    tool = ctx.info_name
    comp_cls = get_completion_class(value)
    if comp_cls is None:  # click.Choice let only SHELLS through
        raise click.BadParameter(f"no completion for {value}", ctx, param)
    comp = comp_cls(ctx.command, {}, tool, completion_var(tool))
    # ShellComplete.source rather than the class's own: bash's runs `bash --version` first
    # and warns in its own words on stderr; the script it prints is the same.
    write(ShellComplete.source(comp))
    ctx.exit(0)


def completion_option(tool: str) -> Callable[[F], F]:
    """--completion SHELL: print click's completion script for the shell, and exit."""
    return click.option(
        "--completion",
        type=click.Choice(SHELLS),
        callback=_print_completion,
        expose_value=False,
        is_eager=True,
        metavar="SHELL",
        help=f"Print the completion script for bash, zsh or fish and exit "
        f'(bash: eval "$({tool} --completion bash)"; see man {tool}).',
    )


def verbose_option(tool: str, what: str) -> Callable[[F], F]:
    """-v/--verbose: the trace (common.trace) on stderr."""
    return click.option(
        "-v",
        "--verbose",
        is_flag=True,
        help=f"Trace on stderr, lines starting '{tool}: * ': {what}. stdout is unchanged.",
    )


def fresh_runs(reset: Callable[[], None]) -> type[click.Command]:
    """A command class whose every run calls `reset` before click reads its arguments
    (run_cli's make_context): what one run keeps for the error document of its --json
    (wf's pages pending, ws's query) is no later run's, a run whose arguments click
    refuses included, which never reaches the command's own start (tests, embedding)."""

    class Fresh(click.Command):
        def make_context(
            self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
        ) -> click.Context:
            reset()
            return super().make_context(info_name, args, parent, **extra)

    return Fresh
