#!/usr/bin/env bash
# make bench: peers go into .bench-venv (never into the project); each benchmark prints
# its figures side by side with its peer in one run. The render benchmark starts Chromium,
# so it runs inside a network namespace that has nothing but loopback.
set -uo pipefail
cd "$(dirname "$0")/../.."
BV=.bench-venv
if [ ! -x "$BV/bin/python" ] || [ tests/bench/requirements.txt -nt "$BV/.installed" ] || [ tests/bench/requirements-ws.txt -nt "$BV/.installed" ]; then
  python3 -m venv "$BV"
  "$BV/bin/pip" install --quiet --upgrade pip
  "$BV/bin/pip" install --quiet -r tests/bench/requirements.txt -r tests/bench/requirements-ws.txt && touch "$BV/.installed"
fi
# The project as users get it from `pip install .`: a regular install, compiled at install
# time. An editable one adds its import finder (about 25 ms) to every start-up we time.
# The first install brings the runtime dependencies (pychrome, google-re2, ...); the second
# makes sure the code timed is the code in this tree.
"$BV/bin/pip" install --quiet . && "$BV/bin/pip" install --quiet --no-deps --force-reinstall . || exit 1
status=0
run() { echo; echo "=== $*"; "$@" || status=1; }
run "$BV/bin/python" tests/bench/bench_startup.py
[ -f tests/bench/bench_extract.py ] && run "$BV/bin/python" tests/bench/bench_extract.py
[ -f tests/bench/bench_kinds.py ] && run "$BV/bin/python" tests/bench/bench_kinds.py
[ -f tests/bench/bench_select.py ] && run "$BV/bin/python" tests/bench/bench_select.py
[ -f tests/bench/bench_outside.py ] && run "$BV/bin/python" tests/bench/bench_outside.py
[ -f tests/bench/bench_pdf.py ] && run "$BV/bin/python" tests/bench/bench_pdf.py
[ -f tests/bench/fuzz_pdf.py ] && run "$BV/bin/python" tests/bench/fuzz_pdf.py --cases 300
[ -f tests/bench/bench_ws.py ] && run "$BV/bin/python" tests/bench/bench_ws.py
# wf --cache as a cron job sees it: a local server only (127.0.0.1).
[ -f tests/bench/cron_cache.py ] && run "$BV/bin/python" tests/bench/cron_cache.py --wf "$BV/bin/wf"
if [ -f tests/bench/bench_render.py ]; then
  if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
    run unshare --net sh -c 'ip link set lo up && exec "$@"' _ "$BV/bin/python" tests/bench/bench_render.py
  else
    echo "=== render benchmark skipped: it needs root for a loopback-only network namespace (unshare --net)"
  fi
fi
exit $status
