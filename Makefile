# The two commands of the README: `make run` (the main job) and `make test` (every check).
# Each creates .venv in the checkout and installs the project into it first.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test bench clean browser

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "skirmish needs Python 3.11 or newer: run make PYTHON=python3.11 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,ray]'
	touch $@ $(STAMP)

run: $(STAMP)
	@mkdir -p out
	$(BIN)/skirmish play --agents tactician,tactician --seed 1 --save out/game.json --picture out/game.png

# The browser tests drive Debian's chromium (Playwright must not fetch a browser of its own);
# SKIRMISH_NO_BROWSER=1 skips them where no browser can be installed.
browser:
	@if [ "$$SKIRMISH_NO_BROWSER" = 1 ]; then \
		echo "SKIRMISH_NO_BROWSER=1: the browser tests are skipped"; \
	elif [ ! -x $(CHROMIUM) ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends chromium; \
	fi

test: $(TEST_STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/geometry.py
	$(BIN)/python benchmarks/simulate.py

clean:
	rm -rf $(VENV) out .pytest_cache .ruff_cache .hypothesis
