"""Where files go: scratch (saved bodies), state, runtime and config, from platformdirs,
each overridable by environment (WF_SCRATCH_DIR, WF_STATE_DIR, WF_RUNTIME_DIR,
WF_CONFIG_DIR; WS_CONFIG_DIR for ws). platformdirs is imported only when a path is asked for."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _dir(env: str, kind: str, app: str, *, create: bool) -> Path:
    override = os.environ.get(env, "").strip()
    if override:
        path = Path(override).expanduser()
    else:
        import platformdirs

        path = Path(getattr(platformdirs, f"user_{kind}_dir")(app, appauthor=False))
        if kind == "runtime" and not path.parent.is_dir():
            # No XDG runtime dir (cron, root without a login session): a private temp dir.
            path = Path(tempfile.gettempdir()) / f"{app}-runtime-{os.getuid()}"
    if create:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def scratch_dir(*, create: bool = True) -> Path:
    """Saved bodies and full views (``--save``, auto-save, binary answers)."""
    return _dir("WF_SCRATCH_DIR", "cache", "wf", create=create)


def state_dir(*, create: bool = True) -> Path:
    return _dir("WF_STATE_DIR", "state", "wf", create=create)


def runtime_dir(*, create: bool = True) -> Path:
    path = _dir("WF_RUNTIME_DIR", "runtime", "wf", create=create)
    if create:
        os.chmod(path, 0o700)
    return path


def config_dir(tool: str = "wf", *, create: bool = False) -> Path:
    return _dir(f"{tool.upper()}_CONFIG_DIR", "config", tool, create=create)
