"""common.http.url's helpers for both the HTTP client and the browser: Basic credentials
from a URL's userinfo and the default port (pure functions, no traffic)."""

from __future__ import annotations

import base64
from urllib.parse import urlsplit

import pytest

from common.http.url import basic_auth, default_port, split_credentials


def _basic(text: str) -> str:
    return "Basic " + base64.b64encode(text.encode()).decode("ascii")


@pytest.mark.parametrize(
    ("url", "plain"),
    [
        ("http://user:pw@127.0.0.1/", "user:pw"),
        ("http://us%20er:p%40ss%3Aw@127.0.0.1/", "us er:p@ss:w"),
        ("http://user@127.0.0.1/", "user:"),
        ("http://%C3%A9t%C3%A9:%E2%82%AC@127.0.0.1/", "été:€"),
    ],
)
def test_basic_auth_decodes_the_userinfo(url, plain):
    assert basic_auth(urlsplit(url)) == _basic(plain)


def test_split_credentials_moves_the_userinfo_into_the_header():
    assert split_credentials("http://a%20b:c@127.0.0.1:8080/p?q=1") == (
        "http://127.0.0.1:8080/p?q=1",
        _basic("a b:c"),
    )
    assert split_credentials("http://127.0.0.1/") == ("http://127.0.0.1/", None)


def test_the_render_proxy_sends_the_same_credentials_upstream():
    from wf.render.proxy import _proxy_auth

    assert _proxy_auth("http://u%3A1:p%40@127.0.0.1:3128") == [
        f"Proxy-Authorization: {_basic('u:1:p@')}"
    ]
    assert _proxy_auth("http://127.0.0.1:3128") == []


@pytest.mark.parametrize(
    ("url", "port"),
    [
        ("http://127.0.0.1/", 80),
        ("https://127.0.0.1/", 443),
        ("HTTPS://127.0.0.1/", 443),
        ("https://127.0.0.1:8443/", 8443),
        ("http://[::1]:81/", 81),
        ("ws://127.0.0.1/", 80),
    ],
)
def test_default_port(url, port):
    assert default_port(urlsplit(url)) == port
