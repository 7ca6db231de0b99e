# Developer and CI entry points. Everything runs inside .venv; nothing is
# installed globally. `make test` re-installs only when pyproject.toml changes.
# make install takes the test tools and the cluster extra (dask.distributed): CI runs
# the LocalCluster tests, which skip where dask is absent.

PYTHON ?= $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
# Another Python gets its own venv: make test PYTHON=python3.12 VENV=.venv-3.12
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.install.stamp
BENCH_STAMP := $(VENV)/.bench.stamp
# The optional compiled build (docs/solver.md): its own venv, never .venv.
CVENV  := .venv-compiled
CBIN   := $(CVENV)/bin
CSTAMP := $(CVENV)/.install.stamp
CBUILD := build/compiled
CWHEEL := $(CBUILD)/.wheel.stamp
SOURCES := $(shell find sunlog grammar -name '*.py' -o -name '*.lark' -o -name '*.json' 2>/dev/null)

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: install demo test test-slow test-all lint bench compiled test-compiled bench-compiled \
	wheels clean

$(VENV):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test,cluster]'
	touch $@

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

install: $(STAMP)

demo: install
	$(BIN)/sunlog --version
	$(BIN)/sunlog check samples/*.sun
	@echo '# samples/invalid holds one log per kind of error: check reports each and exits 1'
	$(BIN)/sunlog check samples || test $$? -eq 1
	$(BIN)/sunlog show samples/won-sun.sun --at 60
	$(BIN)/sunlog moves samples/won-sun.sun --at 60

# SUNLOG_BUILD tells tests/test_build.py which build this venv must run.
test: install
	SUNLOG_BUILD=pure $(BIN)/python -m pytest -m 'not slow'

test-slow: install
	$(BIN)/python -m pytest -m slow

test-all: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(BENCH_STAMP)
	@if [ -f bench/run_all.py ]; then \
		$(BIN)/python bench/run_all.py; \
	else \
		echo "bench/run_all.py does not exist yet: nothing to run"; \
	fi

# `make compiled`: a wheel whose engine, solver and policies are compiled by mypyc
# (pyproject.toml's mypyc hook), installed with the test tools into .venv-compiled. It
# needs a C compiler and the Python headers; .venv and `make install` stay pure Python.
# The wheel is built from a copy of the tree, since mypyc leaves its .so files beside
# the sources it compiles. A module that fails to compile fails the build.
$(CWHEEL): pyproject.toml README.md LICENSE $(SOURCES)
	rm -rf $(CBUILD)
	mkdir -p $(CBUILD)/src $(CBUILD)/dist
	tar -cf - --exclude=__pycache__ --exclude='*.so' pyproject.toml README.md LICENSE sunlog \
		grammar | tar -xf - -C $(CBUILD)/src
	test -d $(CVENV) || $(PYTHON) -m venv $(CVENV)
	$(CBIN)/python -m pip install --quiet --upgrade pip
	HATCH_BUILD_HOOK_ENABLE_MYPYC=1 $(CBIN)/python -m pip wheel --no-deps \
		--wheel-dir $(CBUILD)/dist $(CBUILD)/src
	touch $@

$(CSTAMP): $(CWHEEL)
	$(CBIN)/python -m pip install --quiet --force-reinstall --no-deps $(CBUILD)/dist/sunlog-*.whl
	$(CBIN)/python -m pip install --quiet "$$(ls $(CBUILD)/dist/sunlog-*.whl)[test,cluster,bench]"
	$(CBIN)/sunlog --version
	@$(CBIN)/sunlog --version | grep -q ' (compiled)$$' \
		|| { echo "make compiled: the installed sunlog is not the compiled build" >&2; exit 1; }
	touch $@

compiled: $(CSTAMP)

# The quick lane against the compiled build. PYTHONSAFEPATH keeps the current directory
# off sys.path, so `python -m pytest` and the tests' `python -m sunlog` import the
# installed wheel, not the sources in ./sunlog.
test-compiled: $(CSTAMP)
	SUNLOG_BUILD=compiled PYTHONSAFEPATH=1 $(CBIN)/python -m pytest -m 'not slow'

bench-compiled: $(CSTAMP)
	PYTHONSAFEPATH=1 $(CBIN)/python bench/run_all.py

# `make wheels`: what a release uploads, in dist/: the sdist, the pure wheel (any platform)
# and the compiled wheel of this machine's Python and platform (the one `make compiled`
# installs). A release builds the compiled wheels of every platform with cibuildwheel
# ([tool.cibuildwheel] in pyproject.toml); docs/solver.md says which wheel pip picks.
wheels: $(CWHEEL) $(STAMP)
	rm -rf dist
	mkdir -p dist
	$(BIN)/python -m build --sdist --outdir dist .
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist .
	cp $(CBUILD)/dist/sunlog-*.whl dist/
	@ls -1 dist

clean:
	rm -rf .venv .venv-3.* $(CVENV) build dist *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
