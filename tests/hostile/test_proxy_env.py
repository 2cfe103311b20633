"""Proxy variables wf and ws cannot use (issue 10, item 7): HTTP_PROXY=socks5://... was
an internal error (urllib3's ProxySchemeUnknown); it is a usage error (exit 2) that names
the variable and the reason, before any connection is made."""

from __future__ import annotations

import pytest

from common.errors import UsageError
from common.http.proxy_env import check_proxy_environment, proxy_for
from tests.helpers import ALLOW, ENGINE_VARIABLES, invoke
from tests.servers import respond


@pytest.mark.parametrize(
    ("var", "value", "scheme"),
    [
        ("HTTP_PROXY", "socks5://127.0.0.1:1080", "socks5"),
        ("http_proxy", "socks5h://user:secret@127.0.0.1:1080", "socks5h"),
        ("HTTPS_PROXY", "socks4://127.0.0.1:1080", "socks4"),
        ("https_proxy", "ftp://127.0.0.1/", "ftp"),
    ],
)
def test_wf_refuses_an_unsupported_proxy_scheme(wf, serve, monkeypatch, var, value, scheme):
    srv = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}))
    monkeypatch.setenv(var, value)
    r = wf(*ALLOW, srv.url)
    assert r.code == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith(f"wf: (2) {var}=") and r.stderr.count("\n") == 1
    assert f"unsupported proxy scheme '{scheme}'" in r.stderr
    assert "secret" not in r.stderr
    assert srv.connections == 0


def test_ws_refuses_an_unsupported_proxy_scheme(serve, monkeypatch):
    srv = serve(respond(200, b"{}", {"Content-Type": "application/json"}))
    for name in ENGINE_VARIABLES:
        monkeypatch.setenv(name, srv.url)
    monkeypatch.setenv("HTTPS_PROXY", "socks5://127.0.0.1:1080")
    r = invoke("ws", ["rust async"])
    assert r.code == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith(
        "ws: (2) HTTPS_PROXY=socks5://127.0.0.1:1080: unsupported proxy scheme 'socks5'"
    )
    assert r.stderr.count("\n") == 1 and srv.connections == 0


def test_the_variable_urllib_would_not_use_is_not_checked():
    # The lower-case variable wins; HTTP_PROXY is ignored under CGI (httpoxy).
    check_proxy_environment({"http_proxy": "http://127.0.0.1:3128", "HTTP_PROXY": "socks5://x:1"})
    check_proxy_environment({"REQUEST_METHOD": "GET", "HTTP_PROXY": "socks5://x:1"})
    check_proxy_environment({"http_proxy": "", "HTTP_PROXY": "socks5://x:1"})
    with pytest.raises(UsageError, match="^HTTP_PROXY="):
        check_proxy_environment({"HTTP_PROXY": "socks5://x:1"})


@pytest.mark.parametrize(
    ("env", "url", "expected"),
    [
        ({"http_proxy": "127.0.0.1:3128"}, "http://a.test/", "http://127.0.0.1:3128"),
        ({"HTTPS_PROXY": "https://127.0.0.1:3129"}, "https://a.test/", "https://127.0.0.1:3129"),
        ({"HTTPS_PROXY": "http://127.0.0.1:3129"}, "http://a.test/", None),
        ({"http_proxy": "http://127.0.0.1:3128", "no_proxy": "a.test"}, "http://a.test/", None),
        (
            {"HTTP_PROXY": "http://127.0.0.1:3128", "NO_PROXY": "b.test"},
            "http://a.test/",
            "http://127.0.0.1:3128",
        ),
    ],
)
def test_proxy_for_follows_urllib(env, url, expected):
    assert proxy_for(url, env) == expected


@pytest.mark.parametrize("value", ["http://:3128", "http://127.0.0.1:99999"])
def test_a_proxy_url_without_a_usable_host_or_port(value):
    with pytest.raises(UsageError, match="invalid proxy URL"):
        check_proxy_environment({"http_proxy": value})
