"""make demo: serve the bundled pages in tests/demo/ on 127.0.0.1 and run wf and ws on them.

Works with no internet. When run as root, the Makefile starts this inside a network
namespace that has only loopback, so the headless Chromium of the render step cannot
reach anything else.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent / "demo"
BIN = Path(sys.executable).parent


class Handler(SimpleHTTPRequestHandler):
    """Static files, plus a DuckDuckGo-like html endpoint that answers GET and POST."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if self.path.startswith("/ddg/html"):
            body = (HERE / "ddg.html").read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/ddg/html"):
            self.do_POST()
            return
        super().do_GET()

    def log_message(self, *args: object) -> None:
        pass


def run(title: str, args: list[str], env: dict[str, str]) -> None:
    shown = " ".join(shlex.quote(a) for a in args)
    print(
        f"\n\033[1m# {title}\033[0m"
        if sys.stdout.isatty() and "NO_COLOR" not in os.environ
        else f"\n# {title}"
    )
    print(f"$ {shown}")
    sys.stdout.flush()
    cmd = [str(BIN / args[0]), *args[1:]]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    out = proc.stdout
    lines = out.splitlines()
    if len(lines) > 40:
        out = "\n".join(lines[:40]) + f"\n... ({len(lines) - 40} more lines)\n"
    sys.stdout.write(out)
    if proc.stderr:
        sys.stdout.write("".join(f"  (stderr) {line}\n" for line in proc.stderr.splitlines()))
    print(f"  (exit {proc.returncode})")


def main() -> int:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(HERE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    scratch = tempfile.mkdtemp(prefix="wf-demo-")
    env = {**os.environ, "WF_SCRATCH_DIR": scratch, "WF_ALLOW_HOSTS": "127.0.0.1"}
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ):
        env.pop(name, None)
    print(
        f"Serving the bundled pages of tests/demo/ on {base} (WF_ALLOW_HOSTS=127.0.0.1 lets wf reach them)."
    )
    try:
        run(
            "An article: the main content as light Markdown; menus, cookie banner and footer gone",
            ["wf", f"{base}/article.html"],
            env,
        )
        run(
            "Only the lines that match, with link targets",
            ["wf", f"{base}/article.html", "--filter", "Exit|guide", "--links"],
            env,
        )
        run(
            "Text bodies are printed byte for byte (a Prometheus scrape), here filtered",
            ["wf", f"{base}/metrics.txt", "--filter", "^http_requests_total"],
            env,
        )
        run(
            "The same page as JSON, for agents (every key always present)",
            ["wf", f"{base}/article.html", "--json", "--to", "3"],
            env,
        )
        run(
            "The policy refuses what was not allowed: 127.0.0.2 is loopback too",
            ["wf", f"http://127.0.0.2:{server.server_address[1]}/article.html"],
            env,
        )
        browser = (
            shutil.which("chromium")
            or shutil.which("google-chrome")
            or shutil.which("chromium-browser")
        )
        # if_nameindex asks the kernel about this process's own network namespace
        # (/sys/class/net would show the namespace that mounted sysfs).
        isolated = [name for _, name in socket.if_nameindex()] == ["lo"]
        if browser and isolated:
            run(
                "A JavaScript single-page app, rendered in headless Chromium (auto mode)",
                ["wf", f"{base}/spa.html"],
                env,
            )
        else:
            why = (
                "no Chromium found"
                if not browser
                else "not inside a loopback-only network namespace (run make demo as root)"
            )
            print(
                f"\n# A JavaScript page without rendering ({why}): wf says so and prints what it has"
            )
            run(
                "A JavaScript single-page app, static only",
                ["wf", f"{base}/spa.html", "--render", "never"],
                env,
            )
        ws_env = {**env, "WS_DUCKDUCKGO_URL": f"{base}/ddg/html/"}
        run(
            "ws against a bundled DuckDuckGo results page (WS_DUCKDUCKGO_URL points at it)",
            ["ws", "cron exit codes", "--provider", "duckduckgo"],
            ws_env,
        )
        run(
            "ws for a pipeline: URLs only",
            ["ws", "cron exit codes", "--provider", "duckduckgo", "--urls", "-n", "2"],
            ws_env,
        )
    finally:
        server.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
