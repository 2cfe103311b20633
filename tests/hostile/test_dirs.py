"""Directories wf does not own, and no HOME at all (issue 10, items 4 and 5).

A local user may create wf's names first in shared places ($TMPDIR, /dev/shm) and fill
them with symlinks, a forged keep-alive state file or a symlinked lock. Nothing planted
may steer wf: no file outside our own directories is removed or created, no process is
killed. The planted files belong to another uid (os.chown), so those cases need root, as
in CI. Without a usable HOME, the conveniences (auto-save, the save of a binary body, the
circuit breaker's state, keep-alive) are left out with one note, and the fetch succeeds.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from common import paths
from common.errors import RenderError
from tests.fixtures.render.server import browser_skip_reason, wait_until
from tests.helpers import ALLOW, FAKE_CDP, fake_browser, saved_files, tool_path
from tests.hostile import proc
from tests.servers import respond
from wf.render import keeper as keeper_mod
from wf.render import procs as procs_mod
from wf.render import profiles as profiles_mod

NOBODY = 65534
ROOT_ONLY = pytest.mark.skipif(
    os.geteuid() != 0, reason="planting files as another uid needs root (CI runs as root)"
)
BIG = "".join(
    f"line {i} of a page that is longer than the auto-save threshold\n" for i in range(20_000)
).encode()
TEXT = {"Content-Type": "text/plain; charset=utf-8"}
SPA = (Path(__file__).resolve().parents[1] / "fixtures" / "render" / "spa.html").read_bytes()

# Answers on its DevTools pipe like Chromium; FAKE_MODE=exit fails the launch.
FAKE = textwrap.dedent(
    f"""\
    [ "$FAKE_MODE" = exit ] && {{ echo "fake browser: cannot start" >&2; exit 3; }}
    mkdir -p "$dir"
    {FAKE_CDP}
    """
)


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return fake_browser(tmp_path, monkeypatch, FAKE)


@pytest.fixture
def victims() -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Harmless processes (sleep) that must still be alive at the end of a case."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*, uid: int | None = None) -> subprocess.Popen[bytes]:
        p = subprocess.Popen(["sleep", "120"], user=uid, start_new_session=True)
        started.append(p)
        return p

    yield start
    for p in started:
        p.kill()
        p.wait()


@pytest.fixture
def tmpdir_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A shared temporary dir like /tmp (1777) for this test, with no runtime dir set."""
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("TMPDIR", str(shared))
    monkeypatch.setattr("tempfile.tempdir", None)  # gettempdir() reads TMPDIR again
    monkeypatch.delenv("WF_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(paths, "_fallback", None, raising=False)
    return shared


def plant(path: Path, *, uid: int = NOBODY, mode: int = 0o777) -> Path:
    """A directory made by someone else."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(mode)
    os.chown(path, uid, uid)
    return path


def forged_state(victim: int, *, port: int = 9) -> str:
    return json.dumps(
        {
            "keeper_pid": victim,
            "keeper": {"uid": 0, "start": 1, "exe": "/usr/bin/sleep"},
            "browser_pid": victim,
            "browser": {"uid": 0, "start": 1, "exe": "/usr/bin/sleep"},
            "port": port,
            "ws_path": "/devtools/browser/x",
            "profile": "/",
        }
    )


def run_with_foreign_shm(argv: list[str], env: dict[str, str]) -> proc.Run:
    """Run a tool where /dev/shm/wf-render-<uid> was made first by another user: a fresh
    /dev/shm in a private mount namespace, so the real one is not touched."""
    script = (
        f"mount -t tmpfs -o mode=1777,size=16m tmpfs /dev/shm && mkdir -m 700 /dev/shm/wf-render-{os.geteuid()} "
        f'&& chown {NOBODY}:{NOBODY} /dev/shm/wf-render-{os.geteuid()} && exec "$@"'
    )
    r = proc.run(
        ["unshare", "--mount", "sh", "-c", script, "sh", tool_path(argv[0]), *argv[1:]], env=env
    )
    if "mount:" in r.stderr or "unshare:" in r.stderr:
        pytest.skip(f"cannot mount here: {r.stderr.strip()}")
    return r


def tree(root: Path) -> list[tuple[str, int, int]]:
    """Every entry under root (links not followed): name, owner, mode."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            st = os.lstat(os.path.join(dirpath, name))
            out.append((os.path.relpath(os.path.join(dirpath, name), root), st.st_uid, st.st_mode))
    return sorted(out)


# ---------------------------------------------------------------- whose directory


@ROOT_ONLY
@pytest.mark.parametrize("kind", ["foreign", "symlink", "world-writable"])
def test_a_runtime_dir_that_is_not_ours_is_passed_over_for_a_fresh_private_one(
    tmpdir_env: Path, tmp_path: Path, kind: str
) -> None:
    usual = tmpdir_env / f"wf-runtime-{os.geteuid()}"
    if kind == "foreign":
        plant(usual, mode=0o700)
    elif kind == "symlink":
        usual.symlink_to(plant(tmp_path / "theirs"))
    else:
        usual.mkdir(mode=0o777)
        usual.chmod(0o777)
    before = tree(tmpdir_env)
    got = paths.runtime_dir()
    assert got != usual and got.parent == tmpdir_env and got.name.startswith(usual.name + "-")
    st = os.lstat(got)
    assert (
        stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o700
    )
    assert paths.runtime_fallback() and str(usual) in paths.runtime_fallback()  # type: ignore[operator]
    assert paths.runtime_dir() == got  # one per process
    assert [e for e in tree(tmpdir_env) if not e[0].startswith(got.name)] == before
    # Keep-alive needs a directory other processes find: off, with the reason.
    with pytest.raises(RenderError, match="keep-alive is off: cannot use the runtime dir"):
        keeper_mod.keepalive_dir()


def test_our_own_runtime_dir_is_used_and_kept_private(tmpdir_env: Path) -> None:
    usual = tmpdir_env / f"wf-runtime-{os.geteuid()}"
    usual.mkdir(mode=0o755)
    assert paths.runtime_dir() == usual and paths.runtime_fallback() is None
    assert stat.S_IMODE(usual.stat().st_mode) == 0o700


@ROOT_ONLY
def test_an_explicit_dir_that_is_not_ours_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = plant(tmp_path / "theirs", mode=0o755)
    for var, get in (
        ("WF_SCRATCH_DIR", paths.scratch_dir),
        ("WF_STATE_DIR", paths.state_dir),
        ("WF_RUNTIME_DIR", paths.runtime_dir),
    ):
        monkeypatch.setenv(var, str(theirs))
        with pytest.raises(paths.DirUnusable) as info:
            get()
        assert str(theirs) in info.value.message and var in info.value.message
        assert f"owned by uid {NOBODY}" in info.value.message and info.value.code == 23


@ROOT_ONLY
def test_a_foreign_runtime_dir_in_tmp_is_not_an_internal_error(
    serve, tmp_path: Path, fake: Path
) -> None:
    """platformdirs raised PermissionError when another user owned $TMPDIR/runtime-<uid>."""
    shared = plant(tmp_path / "shared-tmp", uid=0, mode=0o1777)
    for name in (f"runtime-{os.geteuid()}", f"wf-runtime-{os.geteuid()}"):
        plant(shared / name, mode=0o700)
    srv = serve(respond(200, SPA, {"Content-Type": "text/html; charset=utf-8"}))
    env = proc.env(
        TMPDIR=str(shared), WF_RENDER="always", WF_RENDER_BROWSER=str(fake), FAKE_MODE="exit"
    )
    for var in ("WF_RUNTIME_DIR", "XDG_RUNTIME_DIR"):
        env.pop(var, None)
    r = run_with_foreign_shm(["wf", *ALLOW, srv.url], env)
    # man/wf.1: --render always "exits 70 when no browser works" (the fake one exits).
    assert r.code == 70 and "internal error" not in r.stderr, r.stderr
    assert "fake browser: cannot start" in r.stderr  # it got as far as launching
    notes = [
        ln for ln in r.stderr.splitlines() if ln.startswith("wf: note: using a private runtime dir")
    ]
    assert len(notes) == 1 and f"wf-runtime-{os.geteuid()}" in notes[0], r.stderr
    left = sorted(p.name for p in shared.iterdir())
    assert left == [f"runtime-{os.geteuid()}", f"wf-runtime-{os.geteuid()}"]  # ours removed at exit


@ROOT_ONLY
def test_a_foreign_dev_shm_dir_does_not_send_profiles_anywhere_unchecked(
    tmpdir_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shm = tmp_path / "shm"
    shm.mkdir()
    monkeypatch.setattr(profiles_mod, "SHM", str(shm))
    plant(shm / f"wf-render-{os.geteuid()}", mode=0o700)  # made first by someone else
    usual = plant(tmpdir_env / f"wf-runtime-{os.geteuid()}", mode=0o700)  # and this one too
    root = profiles_mod.profile_root()
    assert not root.is_relative_to(shm) and not root.is_relative_to(usual)
    assert root.parent == paths.runtime_dir() and root.parent.parent == tmpdir_env
    for d in (root, root.parent):
        st = os.lstat(d)
        assert st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o700
    assert os.listdir(usual) == [] and os.listdir(shm / f"wf-render-{os.geteuid()}") == []


@ROOT_ONLY
def test_a_foreign_config_dir_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings someone else could have written are not taken (ws: exit 2)."""
    theirs = plant(tmp_path / "wsconfig", mode=0o777)
    (theirs / "ws.toml").write_text('provider = "brave"\n')
    monkeypatch.setenv("WS_CONFIG_DIR", str(theirs))
    r = proc.run(["ws", "--providers"], env=proc.env())
    assert r.code == 2 and r.stderr.startswith(f"ws: (2) cannot use the config dir {theirs}"), (
        r.stderr
    )
    assert "WS_CONFIG_DIR" in r.stderr
    theirs.chmod(0o755)
    os.chown(theirs, 0, 0)
    assert paths.config_dir("ws") == theirs  # root's and not writable by others: fine


@ROOT_ONLY
def test_no_profile_dir_of_ours_is_not_a_launch_failure(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from common.policy import Policy
    from wf.render import RenderOptions, RenderSession

    monkeypatch.setenv("WF_RUNTIME_DIR", str(plant(tmp_path / "theirs", mode=0o700)))
    for _ in range(3):
        with (
            RenderSession(
                RenderOptions(mode="always", timeout=5, browser=str(fake)),
                policy=Policy(allow_hosts=frozenset({"127.0.0.1"})),
            ) as s,
            pytest.raises(RenderError, match="cannot use the .* dir .*theirs.*WF_RUNTIME_DIR"),
        ):
            s.render("http://127.0.0.1:1/", deadline=time.monotonic() + 5)
    assert not (tmp_path / "state" / "render-circuit.json").exists()  # the breaker stays shut


# ---------------------------------------------------------------- clean-up never follows a link


@ROOT_ONLY
def test_sweeping_a_stale_profile_never_follows_a_planted_symlink(
    tmpdir_env: Path, tmp_path: Path
) -> None:
    victim = plant(tmpdir_env / "wfc-victim", mode=0o700)  # the shape of our short TMPDIR
    (victim / "precious").write_text("keep me")
    elsewhere = plant(tmp_path / "elsewhere", uid=0, mode=0o700)
    (elsewhere / "precious").write_text("keep me too")
    root = tmp_path / "profiles"
    root.mkdir(mode=0o700)
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = root / f"{profiles_mod.PROFILE_PREFIX}{dead.pid}-abc"
    (stale / "data").mkdir(parents=True, mode=0o700)
    (stale / "tmp").symlink_to(victim)
    (stale / "data" / "link").symlink_to(elsewhere)
    (stale / "data" / "file-link").symlink_to(elsewhere / "precious")
    theirs = plant(root / f"{profiles_mod.PROFILE_PREFIX}{dead.pid}-xyz", mode=0o700)
    procs_mod.sweep_stale_profiles(root)
    assert not stale.exists() and not os.path.lexists(stale)
    assert (victim / "precious").read_text() == "keep me"
    assert (elsewhere / "precious").read_text() == "keep me too"
    assert theirs.exists()  # a profile we did not make is not ours to remove


def test_remove_tree_unlinks_a_symlink_in_its_place(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "precious").write_text("x")
    link = tmp_path / "profile"
    link.symlink_to(target)
    profiles_mod.remove_tree(link)
    assert not os.path.lexists(link) and (target / "precious").exists()


# ---------------------------------------------------------------- locks, state files and pids


@pytest.fixture
def keepalive_root(tmp_path: Path) -> Path:
    root = keeper_mod.keepalive_dir()  # WF_RUNTIME_DIR from conftest: a private dir of ours
    assert root.is_relative_to(tmp_path)
    return root


def _stop_keeper(root: Path) -> None:
    state = keeper_mod.read_state(root)
    if state is not None:
        os.kill(int(state["keeper_pid"]), signal.SIGTERM)  # type: ignore[call-overload]
        assert wait_until(lambda: not procs_mod.running(int(state["keeper_pid"])), timeout=5)  # type: ignore[call-overload]


@pytest.mark.parametrize("forgery", ["ours-with-a-stranger-pid", "owned-by-another-uid", "symlink"])
def test_a_forged_keeper_state_file_kills_nothing(
    fake: Path, keepalive_root: Path, tmp_path: Path, victims, forgery: str
) -> None:
    if forgery != "ours-with-a-stranger-pid" and os.geteuid() != 0:
        pytest.skip("planting files as another uid needs root")
    mine = victims()
    other = victims(uid=NOBODY) if os.geteuid() == 0 else mine
    state = keepalive_root / keeper_mod.STATE
    forged = [forged_state(mine.pid), forged_state(other.pid)]
    if forgery == "symlink":
        elsewhere = tmp_path / "elsewhere.json"
        elsewhere.write_text(forged[0])
        state.symlink_to(elsewhere)
    else:
        state.write_text(forged[0])
        if forgery == "owned-by-another-uid":
            os.chown(state, NOBODY, NOBODY)
    shared = keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 10)
    try:
        assert shared.launched.pid not in (mine.pid, other.pid)  # a keeper of its own
        assert mine.poll() is None and other.poll() is None
        if forgery == "symlink":
            assert (tmp_path / "elsewhere.json").read_text() == forged[0]
    finally:
        shared.release()
        _stop_keeper(keepalive_root)
    # A recorded identity that no longer matches (a reused pid) is not acted on either.
    keepalive_root.mkdir(mode=0o700, exist_ok=True)  # a retired keeper removed it
    state.unlink(missing_ok=True)
    state.write_text(forged[1])
    keeper_mod.stop_keeper(json.loads(forged[1]))
    time.sleep(0.1)
    assert mine.poll() is None and other.poll() is None


def test_the_state_file_records_who_to_signal(fake: Path, keepalive_root: Path) -> None:
    shared = keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 10)
    try:
        state = keeper_mod.read_state(keepalive_root)
        assert state is not None
        for who in ("keeper", "browser"):
            pid, recorded = state[f"{who}_pid"], state[who]
            assert recorded == procs_mod.identity(pid)  # type: ignore[arg-type]
            assert procs_mod.is_ours(pid, recorded)
            assert not procs_mod.is_ours(pid, {**recorded, "start": recorded["start"] + 1})  # type: ignore[dict-item,operator]
        st = os.lstat(keepalive_root / keeper_mod.STATE)
        assert st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o600
    finally:
        shared.release()
    assert wait_until(lambda: keeper_mod.read_state(keepalive_root) is None, timeout=5)


def test_a_symlinked_lock_creates_nothing(fake: Path, keepalive_root: Path, tmp_path: Path) -> None:
    target = tmp_path / "created-through-the-link"
    (keepalive_root / keeper_mod.LAUNCH_LOCK).symlink_to(target)
    with pytest.raises(RenderError, match="cannot open the lock"):
        keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 5)
    assert not target.exists()


@ROOT_ONLY
def test_a_foreign_lock_file_is_refused(fake: Path, keepalive_root: Path) -> None:
    lock = keepalive_root / keeper_mod.LAUNCH_LOCK
    lock.write_text("")
    os.chown(lock, NOBODY, NOBODY)
    with pytest.raises(RenderError, match="not a file of ours"):
        keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 5)


@ROOT_ONLY
def test_a_planted_runtime_dir_steers_nothing(serve, tmp_path: Path, fake: Path, victims) -> None:
    """The whole attack through a real wf: a runtime dir made first by another user, with
    a forged keep-alive state naming a victim, a symlinked lock and a stale profile whose
    tmp link points at a directory of the victim's."""
    shared = plant(tmp_path / "shared-tmp", uid=0, mode=0o1777)
    planted = plant(shared / f"wf-runtime-{os.geteuid()}", mode=0o777)
    victim, stranger = victims(), victims(uid=NOBODY)
    keep = plant(planted / "render-keepalive", mode=0o777)
    (keep / keeper_mod.STATE).write_text(forged_state(victim.pid))
    (keep / "other.json").write_text(forged_state(stranger.pid))
    (keep / keeper_mod.LAUNCH_LOCK).symlink_to(tmp_path / "root-made-this")
    precious = plant(shared / "wfc-precious", mode=0o700)
    (precious / "file").write_text("keep")
    stale = plant(planted / "render" / f"{profiles_mod.PROFILE_PREFIX}1-abc", mode=0o777)
    (stale / "tmp").symlink_to(precious)
    for p in planted.rglob("*"):
        os.chown(p, NOBODY, NOBODY, follow_symlinks=False)
    before = tree(planted)
    srv = serve(respond(200, SPA, {"Content-Type": "text/html; charset=utf-8"}))
    env = proc.env(
        TMPDIR=str(shared),
        WF_RENDER="always",
        WF_RENDER_KEEPALIVE="1",
        WF_RENDER_BROWSER=str(fake),
        FAKE_MODE="exit",
    )
    for var in ("WF_RUNTIME_DIR", "XDG_RUNTIME_DIR"):
        env.pop(var, None)
    r = run_with_foreign_shm(["wf", *ALLOW, srv.url], env)
    assert victim.poll() is None and stranger.poll() is None
    assert tree(planted) == before
    assert (precious / "file").read_text() == "keep"
    assert not (tmp_path / "root-made-this").exists()
    assert r.code == 70, r.stderr  # --render always and no browser that works
    assert "keep-alive is off" in r.stderr and str(planted) in r.stderr


# ------------------------------------------------- another user's HOME (root runs wf)


def foreign_home_env(tmp_path: Path, home: Path) -> dict[str, str]:
    env = no_home_env(tmp_path)
    env["HOME"] = str(home)
    return env


@ROOT_ONLY
@pytest.mark.parametrize("how", ["symlink", "their-dir"])
def test_another_users_home_cannot_steer_the_scratch_dir(serve, tmp_path: Path, how: str) -> None:
    """Root runs wf with nobody's HOME. nobody made ~/.cache a link to a directory of
    root's (wf created wf/ there and saved into it), or owns ~/.cache (and could swap
    root's wf/ in it for a link between the check and the use). Either way nothing is
    created through or inside it: the auto-save is left out with one note naming why."""
    home = plant(tmp_path / "alice", mode=0o755)
    victim = tmp_path / "roots-own"
    victim.mkdir(mode=0o700)
    cache = home / ".cache"
    if how == "symlink":
        cache.symlink_to(victim)
        os.lchown(cache, NOBODY, NOBODY)
    else:
        plant(cache, mode=0o755)
    before = tree(tmp_path)
    srv = serve(respond(200, BIG, TEXT))
    r = proc.run(["wf", *ALLOW, srv.url], env=foreign_home_env(tmp_path, home))
    assert r.code == 0, r.stderr
    assert "was not saved" in r.text.splitlines()[0]
    one_note(r, "auto-save failed", str(cache), f"owned by uid {NOBODY}", "WF_SCRATCH_DIR")
    assert [e for e in tree(tmp_path) if not e[0].startswith("shared-tmp")] == before
    # An explicit --save is the usage error it is without a HOME.
    s = proc.run(["wf", *ALLOW, "--save", srv.url], env=foreign_home_env(tmp_path, home))
    assert s.code == 23 and s.stderr.startswith("wf: (23) cannot use the scratch dir "), s.stderr
    assert [e for e in tree(tmp_path) if not e[0].startswith("shared-tmp")] == before


@ROOT_ONLY
def test_a_link_of_ours_in_the_path_is_followed(serve, tmp_path: Path) -> None:
    """The control: a link root made itself (its own ~/.cache on another disk) is fine."""
    home = tmp_path / "root-home"
    home.mkdir(mode=0o700)
    elsewhere = tmp_path / "disk"
    elsewhere.mkdir(mode=0o755)
    (home / ".cache").symlink_to(elsewhere)
    srv = serve(respond(200, BIG, TEXT))
    r = proc.run(["wf", *ALLOW, srv.url], env=foreign_home_env(tmp_path, home))
    assert r.code == 0 and "auto-save failed" not in r.stderr, r.stderr
    assert len(saved_files(elsewhere / "wf")) == 1


def test_every_directory_wf_creates_is_0700(serve, tmp_path: Path) -> None:
    """--cache under a HOME with nothing in it: ~/.cache, ~/.cache/wf and its http/ are
    all made 0700 (the parents were 0755, issue 25 item 7)."""
    home = tmp_path / "fresh-home"
    home.mkdir(mode=0o700)
    srv = serve(respond(200, b"hello\n", {**TEXT, "Cache-Control": "max-age=60"}))
    r = proc.run(["wf", *ALLOW, "--cache", srv.url], env=foreign_home_env(tmp_path, home))
    assert r.code == 0, r.stderr
    made = [home / ".cache", home / ".cache" / "wf", home / ".cache" / "wf" / "http"]
    assert [stat.S_IMODE(os.lstat(d).st_mode) for d in made] == [0o700] * 3
    assert len(list(made[2].glob("*.wfc"))) == 1


@ROOT_ONLY
@pytest.mark.parametrize(
    ("how", "why"),
    [
        ("their-link-in-sticky", f"is a link owned by uid {NOBODY}, not by us or root"),
        ("their-dir-in-sticky", f"is owned by uid {NOBODY}, not by us or root"),
        ("world-writable-parent", "is writable by others (mode 0777)"),
        ("file-as-parent", "is not a directory"),
    ],
)
def test_each_parent_is_checked_not_only_the_last(
    tmpdir_env: Path, tmp_path: Path, how: str, why: str
) -> None:
    """$TMPDIR (sticky, 1777) holding a link or a directory of nobody's on the way, a
    parent anyone can write, a file where a parent should be: refused by name, nothing
    created anywhere."""
    root_own = tmp_path / "roots-own"
    root_own.mkdir(mode=0o700)
    step = tmpdir_env / "step"
    if how == "their-link-in-sticky":
        step.symlink_to(root_own)
        os.lchown(step, NOBODY, NOBODY)
    elif how == "their-dir-in-sticky":
        plant(step, mode=0o755)
    elif how == "world-writable-parent":
        step.mkdir()
        step.chmod(0o777)
    else:
        step.write_text("x")
    before = tree(tmp_path)
    with pytest.raises(paths.DirUnusable) as info:
        paths.ensure_dir(step / "wf" / "http", "WF_CACHE_DIR", what="cache dir")
    assert f"{step} {why}" in info.value.message, info.value.message
    assert tree(tmp_path) == before


# ------------------------------------------------- ws's result cache, planted


@ROOT_ONLY
@pytest.mark.parametrize("planted", ["dir-and-file", "file", "dir-writable"])
def test_ws_never_reads_a_cache_entry_another_user_could_have_written(
    serve, tmp_path: Path, planted: str
) -> None:
    """nobody made $WS_CACHE_DIR first and planted an entry (or planted just the file, or
    the directory lets others write): ws printed the forged result as cached. load()
    now checks what store() and the health file check: a miss, the engine is asked."""
    from tests.test_ws_cache import Engine, entries

    engine = Engine(serve)
    assert engine.ws().code == 0 and engine.count == 1
    (entry,) = entries(tmp_path)
    data = json.loads(entry.read_text())
    data["results"][0]["title"] = "FORGED"
    entry.write_text(json.dumps(data))
    folder = entry.parent
    if planted in ("dir-and-file", "file"):
        os.chown(entry, NOBODY, NOBODY)
    if planted == "dir-and-file":
        os.chown(folder, NOBODY, NOBODY)
        folder.chmod(0o755)
    if planted == "dir-writable":
        folder.chmod(0o777)
    r = engine.ws()
    assert r.code == 0, r.stderr
    assert "FORGED" not in r.stdout and "cached" not in r.stdout.splitlines()[0]
    assert engine.count == 2
    # Where the fresh answer could be stored (the directory is ours), it replaced the file.
    doc = json.loads(engine.ws("--json").stdout)
    assert "FORGED" not in json.dumps(doc)
    assert doc["cached"] is (planted == "file")


# ---------------------------------------------------------------- no HOME


def no_home_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """HOME that nobody, not even root, can create; no XDG_* and no WF_*_DIR."""
    shared = tmp_path / "shared-tmp"
    shared.mkdir(exist_ok=True)
    env = proc.env(HOME="/proc/nohome", TMPDIR=str(shared), **extra)
    for var in list(env):
        if var.startswith("XDG_") or (var.startswith(("WF_", "WS_")) and var.endswith("_DIR")):
            del env[var]
    return env


def one_note(r: proc.Run, *words: str) -> None:
    lines = r.stderr.splitlines()
    notes = [ln for ln in lines if ln.startswith("wf: note: ") and all(w in ln for w in words)]
    assert len(notes) == 1, r.stderr


def test_no_home_big_page_prints_the_preview_with_one_note(serve, tmp_path: Path) -> None:
    srv = serve(respond(200, BIG, TEXT))
    r = proc.run(["wf", *ALLOW, srv.url], env=no_home_env(tmp_path))
    assert r.code == 0, r.stderr
    assert (
        r.text.startswith("[wf: page too large to inline")
        and "was not saved" in r.text.splitlines()[0]
    )
    assert "line 0 of a page" in r.text and len(r.stdout) < len(BIG) // 10
    one_note(r, "auto-save failed", "/proc/nohome", "WF_SCRATCH_DIR")
    j = proc.run(["wf", *ALLOW, "--json", srv.url], env=no_home_env(tmp_path))
    data = json.loads(j.stdout)
    assert j.code == 0 and data["truncated"] and data["saved_to"] is None
    assert any("auto-save failed" in n for n in data["notes"])


def test_no_home_binary_body_is_reported_not_saved(serve, tmp_path: Path) -> None:
    # A zip archive: PDFs are read, not saved (tests/test_wf_pdf.py).
    body = b"PK\x03\x04" + bytes(range(256)) * 4
    srv = serve(respond(200, body, {"Content-Type": "application/zip"}))
    r = proc.run(["wf", *ALLOW, srv.url], env=no_home_env(tmp_path))
    assert r.code == 0, r.stderr
    assert r.text.startswith(
        f"[wf: binary content (application/zip, {len(body)} bytes) not saved: "
    )
    one_note(r, "not saved", "WF_SCRATCH_DIR")


@pytest.mark.parametrize("args", [("--save",), ("--save-path", "out.txt")])
def test_no_home_explicit_save_is_still_exit_23(
    serve, tmp_path: Path, args: tuple[str, ...]
) -> None:
    srv = serve(respond(200, b"hello\n", TEXT))
    r = proc.run(["wf", *ALLOW, *args, srv.url], env=no_home_env(tmp_path))
    assert r.code == 23 and r.stdout == b""
    assert (
        r.stderr.startswith("wf: (23) cannot create the scratch dir /proc/nohome/")
        and r.stderr.count("\n") == 1
    )
    assert "WF_SCRATCH_DIR" in r.stderr


def test_no_home_javascript_page_with_a_failing_browser(serve, tmp_path: Path, fake: Path) -> None:
    """A launch failure is counted in the state dir, which cannot exist: no breaker, a note."""
    srv = serve(respond(200, SPA, {"Content-Type": "text/html; charset=utf-8"}))
    env = no_home_env(tmp_path, WF_RENDER="auto", WF_RENDER_BROWSER=str(fake), FAKE_MODE="exit")
    r = proc.run(["wf", *ALLOW, srv.url], env=env)
    assert r.code == 0, r.stderr
    one_note(r, "no launch circuit breaker", "/proc/nohome", "WF_STATE_DIR")
    assert "fake browser: cannot start" in r.stderr


@pytest.mark.browser
@pytest.mark.skipif(browser_skip_reason() is not None, reason=browser_skip_reason() or "")
def test_no_home_javascript_page_with_chromium(serve, tmp_path: Path) -> None:
    srv = serve(respond(200, SPA, {"Content-Type": "text/html; charset=utf-8"}))
    r = proc.run(
        ["wf", *ALLOW, srv.url],
        env=no_home_env(tmp_path, WF_RENDER="auto", WF_RENDER_KEEPALIVE="0"),
        limit=60,
    )
    assert r.code == 0, r.stderr
    assert "internal error" not in r.stderr and not r.leftovers
