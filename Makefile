# wf and ws: every target sets up what it needs on a fresh Debian machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BENCH_VENV := .bench-venv
MUTATION_VENV := .mutation-venv
SCALE_VENV := .scale-venv
SCALE_CACHE := .scale-cache
STAMP := $(VENV)/.installed

.PHONY: install chromium test demo lint man bench mutation scale clean

# The man pages linked where man finds them once .venv/bin is on PATH (man-db looks in
# ../share/man beside each directory of PATH): man wf, man ws.
MAN_LINKS := $(VENV)/share/man/man1/wf.1 $(VENV)/share/man/man1/ws.1

install: $(STAMP) $(MAN_LINKS) chromium

$(VENV)/share/man/man1/%.1: | $(STAMP)
	@mkdir -p $(@D) && ln -sfn ../../../../man/$*.1 $@

$(STAMP): pyproject.toml common/version.py
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "make: Python 3.11+ is needed ($(PYTHON) is older)" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Chromium is only needed for --render; install it from apt when we can.
chromium:
	@if command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || command -v google-chrome-stable >/dev/null; then \
	  :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "make: installing Chromium with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "make: Chromium is missing; install it with: sudo apt-get install chromium" >&2; \
	fi

# As root the suite runs in a network namespace that has only loopback, as make demo
# does, so that the render tests (Chromium only starts there) run too. Already in one
# (.ci/run's, or a shell of your own): no namespace is made inside it.
PYTEST ?= $(BIN)/python -m pytest -q -p no:cacheprovider
LOOPBACK_ONLY := $(BIN)/python -c 'import socket, sys; sys.exit([n for _, n in socket.if_nameindex()] != ["lo"])'
test: install
	@if [ "$$(id -u)" = 0 ] && command -v unshare >/dev/null && ! $(LOOPBACK_ONLY); then \
	  echo "make: the tests run in a network namespace that has only loopback"; \
	  unshare --net sh -c 'ip link set lo up && exec "$$@"' _ $(PYTEST); \
	else \
	  $(PYTEST); \
	fi

# As root the demo runs in a network namespace that has only loopback (Chromium included).
demo: install
	@if [ "$$(id -u)" = 0 ] && command -v unshare >/dev/null; then \
	  unshare --net sh -c 'ip link set lo up && exec "$$@"' _ $(BIN)/python tests/demo.py; \
	else \
	  $(BIN)/python tests/demo.py; \
	fi

# The gate (.ci/run runs it before the tests): every check runs, and any failure fails it.
# mypy's settings (strict, Python 3.11) are in pyproject.toml. The shape of the code is
# gated by a test that make test runs, tests/test_house.py: no file in common/ wf/ ws/ over
# 500 lines, no function over 80, no circle of imports between files, no name with a
# leading underscore used from another module (its allowlists of today's offenders only
# shrink). Run it alone: .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_house.py
LINT_FORMAT := common wf ws tests
lint: install
	@status=0; \
	echo "ruff check common wf ws tests"; $(BIN)/ruff check common wf ws tests || status=1; \
	echo "ruff format --check $(LINT_FORMAT)"; $(BIN)/ruff format --check $(LINT_FORMAT) || status=1; \
	echo "mypy --strict common wf ws"; $(BIN)/mypy --strict common wf ws || status=1; \
	exit $$status

man:
	@for page in man/wf.1 man/ws.1; do echo "=== $$page"; MANWIDTH=80 man -l $$page 2>/dev/null | cat || groff -man -Tutf8 $$page; done

bench: install
	@bash tests/bench/run.sh

# Mutation testing (tests/mutation/run.py; not part of make test: it takes tens of
# minutes). mutmut lives in a venv of its own, never in the project's dependencies. One
# module: make mutation MODULES=common/policy.py. Loopback servers only; as root in a
# namespace that has nothing else, at the lowest priority, and in a PID namespace of its
# own: whatever a mutant leaves running (a regex child, a server) ends with the run.
$(MUTATION_VENV)/.installed: pyproject.toml common/version.py
	$(PYTHON) -m venv $(MUTATION_VENV)
	$(MUTATION_VENV)/bin/pip install --quiet --upgrade pip
	$(MUTATION_VENV)/bin/pip install --quiet -e '.[test]' 'mutmut>=3.8,<4'
	@touch $@

mutation: $(MUTATION_VENV)/.installed
	@if [ "$$(id -u)" = 0 ] && command -v unshare >/dev/null; then \
	  nice -n 19 unshare --net --pid --fork --kill-child --mount-proc sh -c 'ip link set lo up && exec "$$@"' _ $(MUTATION_VENV)/bin/python tests/mutation/run.py $(MODULES); \
	else \
	  nice -n 19 $(MUTATION_VENV)/bin/python tests/mutation/run.py $(MODULES); \
	fi

# The README's "At scale" recipes run for real: a WARC of the extraction sets' pages (in
# .scale-cache/), serial wf --warc, the Dask bag at 1 and 2 worker processes, PySpark in
# local[2] when Java is there; each output checked identical to the serial one. Dask and
# PySpark live in a venv of their own, never in the project's dependencies.
$(SCALE_VENV)/.installed: pyproject.toml common/version.py tests/bench/requirements-scale.txt
	$(PYTHON) -m venv $(SCALE_VENV)
	$(SCALE_VENV)/bin/pip install --quiet --upgrade pip
	$(SCALE_VENV)/bin/pip install --quiet -e . -r tests/bench/requirements-scale.txt
	@if command -v java >/dev/null; then $(SCALE_VENV)/bin/pip install --quiet 'pyspark>=4.0,<5'; fi
	@touch $@

# As root in a network namespace that has only loopback, like the tests: Dask's and Spark's
# processes talk to each other over sockets, and nothing of theirs needs another address.
# Bytecode compiled first: with PYTHONDONTWRITEBYTECODE set (as on some CI hosts) every
# process would compile the modules again, a start-up no installed copy pays.
scale: $(SCALE_VENV)/.installed
	@$(SCALE_VENV)/bin/python -m compileall -q common wf ws
	@if [ "$$(id -u)" = 0 ] && command -v unshare >/dev/null; then \
	  unshare --net sh -c 'ip link set lo up && exec "$$@"' _ sh -c '$(SCALE_VENV)/bin/python tests/bench/scale.py run $(SCALE_CACHE) && $(SCALE_VENV)/bin/python tests/bench/scale.py speed $(SCALE_CACHE)'; \
	else \
	  $(SCALE_VENV)/bin/python tests/bench/scale.py run $(SCALE_CACHE) && $(SCALE_VENV)/bin/python tests/bench/scale.py speed $(SCALE_CACHE); \
	fi

clean:
	rm -rf $(VENV) $(BENCH_VENV) $(MUTATION_VENV) $(SCALE_VENV) $(SCALE_CACHE) .mutation build *.egg-info
