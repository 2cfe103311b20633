"""wf/extract/kinds/logs.py: a log pasted into a thread's post is cut to its head (small
pages of our own)."""

from __future__ import annotations

from tests.test_wf_extract_kinds import NAV, PROSE, page, post
from wf.extract import extract
from wf.extract.kinds import logs
from wf.extract.kinds.posts_tuning import LOG_KEEP


def _log(n: int, sep: str = "\n") -> str:
    return sep.join(
        f"6:{10 + i // 60:02d}:{i % 60:02d} AM: step {i} of the build ran" for i in range(n)
    )


def _thread(extra: str) -> str:
    posts = "".join(
        post(f"user{n}", f"Jan {n}, 2026", f"Reply number {n}. {PROSE}") for n in range(1, 4)
    )
    first = post("ann", "Jan 1, 2026", f"The deploy fails. {PROSE}").replace(
        "</p></div>", f"</p>{extra}</div>", 1
    )
    return page("", NAV + f"<h1>Deploy fails</h1><div class='posts'>{first}{posts}</div>")


def test_a_log_pasted_in_a_post_is_cut_to_its_head():
    found = extract(_thread(f"<pre><code class='lang-auto'>{_log(60)}</code></pre>"))
    assert found.kind == "thread"
    assert "step 0 of the build ran" in found.text
    assert f"step {LOG_KEEP - 1} of the build ran" in found.text
    assert f"step {LOG_KEEP} of the build ran" not in found.text
    assert f"… ({60 - LOG_KEEP} more lines)" in found.text
    assert "Reply number 3." in found.text


def test_a_log_run_into_one_line_of_inline_code_is_cut_at_an_entry():
    runs = f"<p><code>{_log(30, ' ')}</code> <code>{_log(30, ' ')}</code></p>"
    found = extract(_thread(runs))
    assert "step 0 of the build ran" in found.text
    assert "step 25 of the build ran" not in found.text
    assert "Reply number 3." in found.text


def test_code_that_is_no_log_and_a_short_log_stay_whole():
    code = "\n".join(f"    total = total + values[{i}]  # add the next one" for i in range(60))
    found = extract(_thread(f"<pre><code>{code}</code></pre><pre>{_log(LOG_KEEP)}</pre>"))
    assert "values[59]" in found.text
    assert f"step {LOG_KEEP - 1} of the build ran" in found.text
    assert "more lines" not in found.text


def test_cut_counts_what_went():
    assert logs.cut(_log(5)) is None  # too short to be worth reading
    head, gone = logs.cut(_log(LOG_KEEP + 7)) or ("", 0)
    assert gone == 7 and head.count("\n") == LOG_KEEP - 1
    prose = " ".join([PROSE] * 10)
    assert logs.cut(prose) is None
