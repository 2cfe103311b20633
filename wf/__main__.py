"""wf's entry point: the console script and `python -m wf` (see common/entry.py)."""

from typing import Any

from common.entry import run


def json_error(exc: Any, what: str | None) -> dict[str, Any]:
    """wf's --json error document (wf.cli.json_error), the CLI imported on first use."""
    from wf import cli

    return cli.json_error(exc, what)


def main() -> None:
    run("wf", "wf.cli", json_error)


if __name__ == "__main__":
    main()
