"""Shell completion of both tools (common/clickopts.py's --completion, the completion
protocol in common/run.py, no supervisor for it in common/entry.py), as real processes."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from common import entry
from tests.helpers import VENV_BIN, subprocess_env, tool_path


def run(tool: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool_path(tool), *args],
        capture_output=True,
        text=True,
        env=subprocess_env(**env),
        timeout=30,
    )


@pytest.mark.parametrize("tool", ["wf", "ws"])
@pytest.mark.parametrize(
    ("shell", "needle"),
    [
        ("bash", "complete -o nosort -F _{tool}_completion {tool}"),
        ("zsh", "#compdef {tool}"),
        ("fish", "complete --no-files --command {tool}"),
    ],
)
def test_the_script_for_each_shell_names_the_program(tool, shell, needle):
    r = run(tool, "--completion", shell)
    assert (r.returncode, r.stderr) == (0, "")
    assert needle.format(tool=tool) in r.stdout
    # The script calls the tool back with the variable run_cli answers.
    assert f"_{tool.upper()}_COMPLETE={shell}_complete" in r.stdout


def test_an_unknown_shell_is_a_usage_error():
    r = run("wf", "--completion", "tcsh")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("wf: (2) ") and "tcsh" in r.stderr and r.stderr.count("\n") == 1


def test_ws_provider_completes_the_provider_names():
    words = {"COMP_WORDS": "ws --provider d", "COMP_CWORD": "2"}
    r = run("ws", _WS_COMPLETE="bash_complete", **words)
    assert (r.returncode, r.stdout, r.stderr) == (
        0,
        "plain,duckduckgo\nplain,duckduckgo-lite\n",
        "",
    )
    r = run("ws", _WS_COMPLETE="bash_complete", COMP_WORDS="ws --provider ", COMP_CWORD="2")
    assert r.stdout.split() == [
        f"plain,{name}"
        for name in ("auto", "duckduckgo", "duckduckgo-lite", "searxng", "brave", "mojeek")
    ]


def test_wf_options_and_render_modes_complete():
    r = run("wf", _WF_COMPLETE="bash_complete", COMP_WORDS="wf --ren", COMP_CWORD="1")
    assert r.stdout.split() == ["plain,--render", "plain,--render-stop"]
    r = run("wf", _WF_COMPLETE="bash_complete", COMP_WORDS="wf --render a", COMP_CWORD="2")
    assert r.stdout.split() == ["plain,auto", "plain,always"]


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("--sel", ["--select"]),
        ("--rem", ["--remove"]),
        ("--im", ["--images"]),
        ("--wait", ["--wait-for", "--wait"]),
        ("--acc", ["--accept-markdown"]),
        ("--no-acc", ["--no-accept-markdown"]),
        ("--rob", ["--robots"]),
        ("--per", ["--per-host"]),
        ("--del", ["--delay"]),
    ],
)
def test_wf_steering_options_complete(typed, offered):
    r = run("wf", _WF_COMPLETE="bash_complete", COMP_WORDS=f"wf {typed}", COMP_CWORD="1")
    assert r.stdout.split() == [f"plain,{option}" for option in offered]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_bash_script_completes_in_bash():
    script = (
        'eval "$(ws --completion bash)"; COMP_WORDS=(ws --provider d); COMP_CWORD=2; '
        '_ws_completion ws; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    env = subprocess_env(PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    r = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert (r.returncode, r.stdout, r.stderr) == (0, "duckduckgo\nduckduckgo-lite\n", "")


def test_completion_needs_no_supervisor(monkeypatch):
    # Like --help: no fork for the script, nor for a shell asking for candidates.
    assert entry._completion("wf", ["--completion", "bash"])
    assert entry._completion("ws", ["--completion=zsh"])
    assert not entry._completion("wf", ["https://example.com/"])
    monkeypatch.setenv("_WF_COMPLETE", "bash_complete")
    assert entry._completion("wf", [])
    assert not entry._completion("ws", ["q"])
