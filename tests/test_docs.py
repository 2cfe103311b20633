"""The exit-code table in the code and in both man pages agree; every option is documented."""

from __future__ import annotations

import os
import re
import socket
import subprocess

import pytest

from common.errors import ERROR_CLASSES, EXIT_TABLE
from tests.helpers import ROOT, man_forwarded_signals, tool_path


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


_PROBE = (
    "import os, socket; "
    "print(os.readlink('/proc/self/ns/net'), [n for _, n in socket.if_nameindex()])"
)


def _make_test(prefix: list[str]) -> str:
    """What `make test` runs, as the last line it prints: the namespace and interfaces of
    the command that would run pytest (the prerequisites taken as made)."""
    import sys

    from tests.helpers import VENV_BIN

    r = subprocess.run(
        [
            *prefix,
            "make",
            "-s",
            "-C",
            str(ROOT),
            "-o",
            ".venv/.installed",
            "-o",
            "chromium",
            "test",
            f"BIN={VENV_BIN}",
            f'PYTEST={sys.executable} -c "{_PROBE}"',
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()[-1]


@pytest.mark.skipif(os.geteuid() != 0, reason="make test makes a namespace only as root")
def test_make_test_runs_in_a_loopback_only_namespace_made_once():
    import shutil

    if shutil.which("unshare") is None or shutil.which("make") is None:
        pytest.skip("needs unshare and make")
    # The probe replaces pytest through $(PYTEST): without it make would run the suite.
    recipe = (ROOT / "Makefile").read_text().split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    assert "$(PYTEST)" in recipe, "make test runs pytest as $(PYTEST)"
    # In a namespace that has more than loopback (a veth pair, down, in a namespace of its
    # own: it reaches nothing), make test makes one that has only loopback.
    outer = subprocess.run(
        [
            "unshare",
            "--net",
            "sh",
            "-c",
            "ip link add v0 type veth peer name v1 && readlink /proc/self/ns/net",
        ],
        capture_output=True,
        text=True,
    )
    if outer.returncode != 0:
        pytest.skip(f"no veth pair here: {outer.stderr.strip()}")
    script = (
        "ip link set lo up && ip link add v0 type veth peer name v1 && "
        'readlink /proc/self/ns/net >&2 && exec "$@"'
    )
    made = _make_test(["unshare", "--net", "sh", "-c", script, "_"])
    ns, interfaces = made.split(" ", 1)
    assert interfaces == "['lo']", made
    # Already in one (as .ci/run and this suite are): not another inside it.
    here = os.readlink("/proc/self/ns/net")
    if [n for _, n in socket.if_nameindex()] == ["lo"]:
        assert _make_test([]) == f"{here} ['lo']"


def test_a_url_without_a_scheme_gets_http_as_the_man_page_says():
    from common.http.url import normalise_url

    page = " ".join((ROOT / "man" / "wf.1").read_text().split())
    assert r"A URL without a scheme gets \fBhttp://\fR" in page
    assert r"\fBwf example.com/a\fR fetches \fBhttp://example.com/a\fR" in page
    assert normalise_url("example.com/a") == "http://example.com/a"


def test_the_readme_says_how_to_reach_the_tools_and_their_man_pages():
    import shutil

    readme = (ROOT / "README.md").read_text()
    assert 'export PATH="$PWD/.venv/bin:$PATH"' in readme
    assert "`man -l man/wf.1`" in readme and "`man -l man/ws.1`" in readme
    # make install links the pages where man finds them from PATH alone.
    from tests.helpers import VENV_BIN

    if shutil.which("man") is None or not (VENV_BIN.parent / "share" / "man").is_dir():
        pytest.skip("no man, or a venv that make install did not make")
    env = {k: v for k, v in os.environ.items() if k != "MANPATH"}
    env["PATH"] = f"{VENV_BIN}:/usr/bin:/bin"
    found = subprocess.run(["man", "-w", "wf", "ws"], capture_output=True, text=True, env=env)
    assert found.stdout.split() == [str(ROOT / "man" / "wf.1"), str(ROOT / "man" / "ws.1")]


@pytest.mark.parametrize("page", ["wf.1", "ws.1"])
def test_the_signals_the_supervisor_passes_on_are_the_man_page_s(page):
    import signal

    from common.watchdog import _FORWARDED

    names = man_forwarded_signals(page)
    assert {getattr(signal, name) for name in names} == set(_FORWARDED)


_VARIABLE = re.compile(r"\b(?:WF|WS)_[A-Z0-9_]*[A-Z0-9]\b|\bSEARXNG_URL\b")


def _read_in(folder: str) -> set[str]:
    return {
        name
        for path in (ROOT / folder).rglob("*.py")
        for name in _VARIABLE.findall(path.read_text())
    }


def _environment_section(page: str) -> set[str]:
    """The variables a page's ENVIRONMENT sections (.SH or .SS) name."""
    text = (ROOT / "man" / page).read_text()
    for font in ("\\fB", "\\fR", "\\fI"):
        text = text.replace(font, " ")
    sections = re.split(r"\n\.S[HS] ", text)
    return {
        name
        for section in sections
        if section.upper().startswith("ENVIRONMENT")
        for name in _VARIABLE.findall(section)
    }


def test_every_variable_read_is_in_a_man_page_s_environment_and_back():
    wf_page, ws_page = _environment_section("wf.1"), _environment_section("ws.1")
    read = _read_in("common") | _read_in("wf") | _read_in("ws")
    # Each tool's own variables in its own page; the shared ones in one page at least.
    assert _read_in("wf") - wf_page == set()
    assert _read_in("ws") - ws_page == set()
    assert read - (wf_page | ws_page) == set()
    # And no page documents a variable nothing reads.
    assert (wf_page | ws_page) - read == set()


# One case per variable, both ways, so that a failure names the variable and the page.
_DOCUMENTED = {page: _environment_section(page) for page in ("wf.1", "ws.1")}
_READ = {tool: _read_in(tool) for tool in ("common", "wf", "ws")}


@pytest.mark.parametrize(
    ("page", "name"), sorted((p, n) for p, names in _DOCUMENTED.items() for n in names)
)
def test_each_variable_a_page_documents_is_read(page, name):
    tool = page.removesuffix(".1")
    # A page documents its own tool's variables and the shared ones of common/.
    assert name in _READ[tool] | _READ["common"], f"man/{page} documents {name}; nothing reads it"


@pytest.mark.parametrize(
    ("tool", "name"), sorted((t, n) for t, names in _READ.items() for n in names)
)
def test_each_variable_read_is_documented_where_it_belongs(tool, name):
    pages = {"wf": ["wf.1"], "ws": ["ws.1"], "common": ["wf.1", "ws.1"]}[tool]
    assert any(name in _DOCUMENTED[p] for p in pages), f"{tool}/ reads {name}; no page says so"
