# The two commands in the README: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: install serve test bench-check lint corpus-magic bench bench-scale bench-replicas clean

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

# var/corpus-magic/ = the bundled games + Magic: The Gathering (docs/corpora/magic-the-gathering/game.toml
# and the seven Comprehensive Rules editions copied byte for byte from $(MAGIC_DOCS)).
# Then: rulings --corpus var/corpus-magic build / serve
MAGIC_DOCS ?= ../shared/corpora/magic-the-gathering
corpus-magic: install
	$(BIN)/python -m rulings.ingest.assemble var/corpus-magic --game docs/corpora/magic-the-gathering=$(MAGIC_DOCS)

# The tests only (docs/development.md). Tests driving Debian's Chromium or nginx skip, saying what
# to install, without them; tests reading ../shared skip, saying so, without it. `.ci/run` has both.
test: install
	$(BIN)/pytest

# The benchmark scripts run small, to check they still measure (tests marked `bench`; valgrind for one).
bench-check: install
	$(BIN)/pytest -m bench

# ruff (the lint rules and the formatting) and mypy, as configured in pyproject.toml.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/build_time.py
	$(BIN)/python bench/versions_latency.py
	$(BIN)/python bench/search_quality.py
	$(BIN)/python bench/search_latency.py
	$(BIN)/python bench/page_render.py
	$(BIN)/python bench/page_instructions.py
	$(BIN)/python bench/http_load.py --compare
	$(BIN)/python bench/http_load.py --clients 8 --seconds 20
	$(BIN)/python bench/http_load.py --clients 16 --seconds 20 --rebuild-at 10

# Slow: builds 3, 100, 500 and 1,678 rulebooks of ../shared/scale-corpus (about half an hour).
bench-scale: install
	$(BIN)/python bench/scale.py

# Two replicas behind nginx (Debian's package), loaded through nginx.
bench-replicas: install
	@command -v nginx >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; }
	$(BIN)/python bench/replicas.py

clean:
	rm -rf var .pytest_cache
