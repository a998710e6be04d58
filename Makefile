# The two commands in the README: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: install serve test system-deps bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# Builds the bundled corpus, then serves it with waitress on http://$(HOST):$(PORT)/
serve: install
	$(BIN)/rulings build
	$(BIN)/rulings serve --host $(HOST) --port $(PORT)

# Debian's Chromium drives the browser tests (never a downloaded browser).
system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

test: install system-deps
	$(BIN)/pytest

bench: install
	$(BIN)/python bench/build_time.py
	$(BIN)/python bench/versions_latency.py

clean:
	rm -rf var .pytest_cache
