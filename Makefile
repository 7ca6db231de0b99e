# Developer and CI entry points. Everything runs inside .venv; nothing is
# installed globally. `make test` re-installs only when pyproject.toml changes.

PYTHON ?= $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.install.stamp
BENCH_STAMP := $(VENV)/.bench.stamp

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: install demo test test-slow test-all lint bench clean

$(VENV):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
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

test: install
	$(BIN)/python -m pytest -m 'not slow'

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

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
