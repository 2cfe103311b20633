"""What a URL argument may name: never a file on this machine. A path or a file: URL in
its place exits 3 with a line that says how to read the file (--input)."""

from __future__ import annotations

# What a path on this machine starts with. wf never opens one given as a URL (a list of
# URLs from a page, read with `wf -`, must not reach local files): it says how to.
_LOCAL_PREFIXES = ("/", "./", "../", "~/")


def refuse_local_path(target: str) -> None:
    """Raise InvalidURL (3) naming --input when `target` is a local path or a file: URL,
    where the URL parser's own complaint (no host in http:///...) would leave one guessing."""
    from urllib.parse import unquote, urlsplit

    text = target.strip()
    if text.lower().startswith("file:"):
        # "file:8080/x" is the host "file" and its port, as "localhost:8080/x" is.
        if text[5:].split("/", 1)[0].split("?", 1)[0].isdigit():
            return
        try:
            parts = urlsplit(text)
        except ValueError:
            parts = None
        # The path, as --input reads it: a file on another host has none on this one.
        local = parts is not None and (parts.hostname or "localhost") == "localhost"
        path = unquote(parts.path) if local and parts is not None and parts.path else None
    # "//host/path" is a link without its scheme, not a path: the URL parser's error stands.
    elif text.startswith(_LOCAL_PREFIXES) and not text.startswith("//"):
        path = text
    else:
        return
    from common.errors import InvalidURL

    if not path:
        raise InvalidURL(f"{text[:200]} is a file: URL, not an http(s) URL")
    raise InvalidURL(
        f"{text[:200]} is a local file, not an http(s) URL: read it with wf --input {_shell(path)}"
    )


def _shell(path: str) -> str:
    """The path as a shell reads it back ("/tmp/my page.html" quoted, "~/" left out of the
    quotes for the shell to expand): the hint is a command to paste."""
    import shlex

    home, rest = ("~/", path[2:200]) if path.startswith("~/") else ("", path[:200])
    return home + shlex.quote(rest) if rest else home
