"""ws's entry point: the console script and `python -m ws` (see common/entry.py)."""

from common.entry import run


def main() -> None:
    run("ws", "ws.cli")


if __name__ == "__main__":
    main()
