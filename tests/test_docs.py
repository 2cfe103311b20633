"""The exit-code table in the code and in both man pages agree; every option is documented."""

from __future__ import annotations

import re
import subprocess

import pytest

from common.errors import ERROR_CLASSES, EXIT_TABLE
from tests.helpers import ROOT, tool_path


def _man_exit_table(page: str) -> dict[int, str]:
    text = (ROOT / "man" / page).read_text()
    section = text.split(".SH EXIT STATUS", 1)[1].split("\n.SH ", 1)[0]
    rows = re.findall(r"^\.TP\n\.B (\d+)\n(.+)$", section, flags=re.M)
    return {int(code): meaning.replace("\\-", "-").strip() for code, meaning in rows}


@pytest.mark.parametrize("page", ["wf.1", "ws.1"])
def test_man_page_exit_table_matches_code(page):
    assert _man_exit_table(page) == {code: meaning for code, _kind, meaning in EXIT_TABLE}


def test_every_error_class_has_a_unique_code_and_kind():
    codes = [c.code for c in ERROR_CLASSES]
    kinds = [c.kind for c in ERROR_CLASSES]
    assert len(set(codes)) == len(codes) and len(set(kinds)) == len(kinds)
    # Codes are never renumbered: these are the ones promised to users.
    assert {c.kind: c.code for c in ERROR_CLASSES} == {
        "internal": 1,
        "usage": 2,
        "url": 3,
        "http_4xx": 4,
        "http_5xx": 5,
        "dns": 6,
        "connect": 7,
        "bad_response": 8,
        "write": 23,
        "timeout": 28,
        "tls": 35,
        "redirects": 47,
        "transfer": 56,
        "too_large": 63,
        "no_match": 65,
        "no_results": 66,
        "all_failed": 69,
        "render": 70,
        "unreadable": 71,
        "blocked": 75,
        "policy": 77,
        "interrupted": 130,
        "terminated": 143,
    }


@pytest.mark.parametrize("tool", ["wf", "ws"])
def test_every_option_is_in_the_man_page(tool):
    help_text = subprocess.run([tool_path(tool), "--help"], capture_output=True, text=True).stdout
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", help_text))
    page = (ROOT / "man" / f"{tool}.1").read_text().replace("\\-", "-")
    missing = sorted(o for o in options if o not in page)
    assert options and not missing


def test_version_has_one_source_and_the_metadata_agrees():
    import tomllib
    from importlib.metadata import version

    import wf
    import ws
    from common.version import VERSION

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
    dynamic = pyproject["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "common.version.VERSION"}
    # The installed metadata was built from the same constant (make install reinstalls
    # when common/version.py changes).
    assert wf.__version__ == ws.__version__ == VERSION == version("wf-ws")


def test_the_map_in_contributing_matches_the_tree():
    named = set(
        re.findall(r"`((?:common|wf|ws)/[\w/]+\.py)`", (ROOT / "CONTRIBUTING.md").read_text())
    )
    modules = {
        path.relative_to(ROOT).as_posix()
        for package in ("common", "wf", "ws")
        for path in (ROOT / package).rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    }
    assert sorted(modules - named) == [], "modules missing from CONTRIBUTING.md's map"
    assert sorted(named - modules) == [], "CONTRIBUTING.md names modules that do not exist"


def test_the_map_of_the_suite_names_every_test_file():
    tests = ROOT / "tests"
    named = set(re.findall(r"`((?:hostile/)?test_\w+\.py)`", (tests / "README.md").read_text()))
    files = {path.relative_to(tests).as_posix() for path in tests.rglob("test_*.py")}
    assert sorted(files - named) == [], "test files missing from tests/README.md"
    assert sorted(named - files) == [], "tests/README.md names test files that do not exist"


def test_the_map_of_the_suite_says_where_each_module_of_common_is_tested():
    readme = (ROOT / "tests" / "README.md").read_text()
    rows = dict(re.findall(r"^\| `(common/[\w/]+\.py)` \| (.+) \|$", readme, flags=re.M))
    modules = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "common").rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    }
    assert sorted(modules - rows.keys()) == [], "modules of common/ missing from tests/README.md"
    assert sorted(rows.keys() - modules) == [], "tests/README.md names modules that do not exist"
    tests = ROOT / "tests"
    for module, where in rows.items():
        named = re.findall(r"`((?:hostile/)?test_\w+\.py)`", where)
        assert named and all((tests / name).is_file() for name in named), module
