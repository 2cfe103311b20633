"""ws's entry point: the console script and `python -m ws` (see common/entry.py)."""

from typing import Any

from common.entry import exit_now, run


def json_error(exc: Any, what: str | None) -> dict[str, Any]:
    """ws's --json error document (ws.cli.json_error), the CLI imported on first use."""
    from ws import cli

    return cli.json_error(exc, what)


def main() -> None:
    # A search is short and makes few reference cycles: the collector's passes over the
    # objects that start-up imports create cost more than they would ever free (about 3%
    # of a search's CPU time, measured with tests/bench/bench_ws.py). Reference counting
    # still frees everything else as usual.
    import gc

    gc.disable()
    try:
        run("ws", "ws.cli", json_error)
    except SystemExit as exc:
        exit_now(exc.code)


if __name__ == "__main__":
    main()
