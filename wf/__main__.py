"""wf's entry point: the console script and `python -m wf` (see common/entry.py)."""

from common.entry import run


def main() -> None:
    run("wf", "wf.cli")


if __name__ == "__main__":
    main()
