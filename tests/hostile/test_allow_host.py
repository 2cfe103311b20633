"""--allow-host values the policy could never match, and refusal advice that is true
(issue 10, item 7). `--allow-host 127.0.0.1:8001` and `--allow-host ""` were accepted and
allowed nothing; `--allow-host 127.0.0.1` with a name that is also ::1 was refused with
advice to add the --allow-host that was already there."""

from __future__ import annotations

import pytest

from tests.helpers import ENGINE_VARIABLES, invoke
from tests.servers import respond


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ("127.0.0.1:8001", "--allow-host 127.0.0.1"),
        ("", "--allow-host 127.0.0.1"),
        ("http://127.0.0.1:8001/", "--allow-host 127.0.0.1"),
        ("127.0.0.1 ", "spaces"),
    ],
    ids=["port", "empty", "url", "space"],
)
@pytest.mark.parametrize("tool", ["wf", "ws"])
def test_bad_allow_host_is_a_usage_error(serve, monkeypatch, tool, value, hint):
    srv = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}))
    for name in ENGINE_VARIABLES:
        monkeypatch.setenv(name, srv.url)
    target = srv.url if tool == "wf" else "rust async"
    r = invoke(tool, ["--allow-host", value, target])
    assert r.code == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith(
        f"{tool}: (2) --allow-host takes a host name or address without a port"
    )
    assert hint in r.stderr and r.stderr.count("\n") == 1
    assert srv.connections == 0


def test_bad_allow_hosts_variable_is_a_usage_error(wf, serve):
    srv = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}))
    r = wf(srv.url, env={"WF_ALLOW_HOSTS": f"127.0.0.1:{srv.port}"})
    assert r.code == 2, r.stderr
    assert r.stderr == (
        f"wf: (2) WF_ALLOW_HOSTS takes a host name or address without a port or scheme, "
        f"not '127.0.0.1:{srv.port}': WF_ALLOW_HOSTS 127.0.0.1\n"
    )


def test_refusal_names_the_address_and_advice_that_works(wf, serve, loopback_only):
    # A name with two loopback addresses, as localhost has (127.0.0.1 and ::1).
    loopback_only["dual.test"] = ("127.0.0.1", "::1")
    srv = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}))
    url = f"http://dual.test:{srv.port}/"
    r = wf("--allow-host", "127.0.0.1", url)
    assert r.code == 77 and srv.connections == 0, r.stderr
    assert r.stderr.startswith(
        "wf: (77) refused dual.test (::1): loopback address; allow it with --allow-host ::1, "
        "or --allow-host dual.test (the name, whatever it resolves to), or --allow-private"
    )
    for advice in (["--allow-host", "::1"], ["--allow-host", "dual.test"], ["--allow-private"]):
        r = wf("--allow-host", "127.0.0.1", *advice, url)
        assert (r.code, r.stdout) == (0, "ok\n"), (advice, r.stderr)
