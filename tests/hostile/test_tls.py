"""TLS with certificates the test makes itself: self-signed, expired, issued for another
name; a server that speaks plain HTTP on an https URL and one that speaks TLS on http.
The test CA is trusted through SSL_CERT_FILE, so each failure is for the reason named."""

from __future__ import annotations

import socket
import ssl
import subprocess
from pathlib import Path

import pytest

from tests.helpers import ALLOW
from tests.hostile.handlers import raw
from tests.servers import respond, self_signed_context

OK = respond(200, b"over tls\n", {"Content-Type": "text/plain"})


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CA, and leaves signed by it: valid, expired, and for another host name."""
    d = tmp_path_factory.mktemp("pki")
    (d / "index.txt").touch()
    (d / "serial").write_text("01\n")
    (d / "ca.cnf").write_text(
        "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
        "default_md = sha256\npolicy = p\ncopy_extensions = copy\nunique_subject = no\n"
        "[p]\ncommonName = supplied\n"
    )
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl(
        "req",
        "-x509",
        *ec,
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=hostile test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=keyCertSign",
        cwd=d,
    )
    leaves = {
        "valid": ("127.0.0.1", ("-days", "2")),
        "expired": ("127.0.0.1", ("-startdate", "20200101000000Z", "-enddate", "20200102000000Z")),
        "future": ("127.0.0.1", ("-startdate", "20990101000000Z", "-enddate", "20990102000000Z")),
        "wrong-name": ("other.example", ("-days", "2")),
    }
    for name, (host, dates) in leaves.items():
        san = f"IP:{host}" if host[0].isdigit() else f"DNS:{host}"
        _openssl(
            "req",
            *ec,
            "-keyout",
            f"{name}.key",
            "-out",
            f"{name}.csr",
            "-subj",
            f"/CN={host}",
            "-addext",
            f"subjectAltName={san}",
            cwd=d,
        )
        _openssl(
            "ca",
            "-batch",
            "-config",
            "ca.cnf",
            "-cert",
            "ca.pem",
            "-keyfile",
            "ca.key",
            "-in",
            f"{name}.csr",
            "-out",
            f"{name}.pem",
            *dates,
            cwd=d,
        )
    return d


def _context(pki: Path, name: str) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / f"{name}.pem", pki / f"{name}.key")
    return ctx


@pytest.fixture
def trust(pki: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))


def test_valid_certificate_from_the_test_ca_is_accepted(wf, serve, pki, trust):
    # The control case: the CA is trusted, so the failures below are about their leaf.
    srv = serve(OK, tls=_context(pki, "valid"))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "over tls\n", "")


@pytest.mark.parametrize(
    ("leaf", "reason"),
    [
        ("expired", "certificate has expired"),
        ("future", "certificate is not yet valid"),
        ("wrong-name", "IP address mismatch"),
    ],
)
def test_bad_certificate_exits_35(wf, serve, pki, trust, leaf, reason):
    srv = serve(OK, tls=_context(pki, leaf))
    r = wf(*ALLOW, srv.url)
    assert r.code == 35, r.stderr
    assert r.stderr.startswith("wf: (35) TLS error with 127.0.0.1") and reason in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and r.stdout == ""


def test_self_signed_certificate_exits_35(wf, serve, tmp_path):
    srv = serve(OK, tls=self_signed_context(tmp_path, name="127.0.0.1"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 35 and "self-signed certificate" in r.stderr, r.stderr


def test_untrusted_ca_exits_35(wf, serve, pki):
    srv = serve(OK, tls=_context(pki, "valid"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 35 and "unable to get local issuer certificate" in r.stderr, r.stderr


def test_plain_http_server_on_an_https_url_exits_35(wf, eager):
    # It answers the ClientHello as a bad request, at once.
    srv = eager(raw(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", linger=0.5))
    r = wf(*ALLOW, srv.url.replace("http://", "https://"))
    assert r.code == 35, r.stderr
    assert r.stderr.startswith("wf: (35) TLS handshake failed with 127.0.0.1:"), r.stderr
    assert "the server does not speak TLS (wrong port or http:// URL?)" in r.stderr


def test_tls_server_on_an_http_url_exits_7(wf, serve, pki):
    # The server reads the request as a ClientHello, fails and resets: no answer at all.
    srv = serve(OK, tls=_context(pki, "valid"))
    r = wf(*ALLOW, srv.url.replace("https://", "http://"))
    assert r.code == 7 and "failed before any answer" in r.stderr, r.stderr


def test_tls_alert_on_an_http_url_exits_8(wf, eager):
    # A TLS server that answers with an alert record: bytes, but no HTTP status line.
    def alert(conn, _):
        conn.sendall(b"\x15\x03\x03\x00\x02\x02\x46")
        conn.shutdown(socket.SHUT_WR)
        conn.settimeout(2)
        while conn.recv(65536):
            pass

    srv = eager(alert)
    r = wf(*ALLOW, srv.url)
    assert r.code == 8 and "malformed answer" in r.stderr, r.stderr
