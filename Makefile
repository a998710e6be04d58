# The two commands in the README: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: install serve test bench-check lint corpus-magic corpus-magic-quick serve-magic serve-magic-quick bench bench-scale bench-replicas clean

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

# Magic: The Gathering (docs/magic.md). var/corpus-magic/ = the bundled games + the game of
# docs/corpora/magic-the-gathering/game.toml, its 86 Comprehensive Rules editions (2003-2023) copied byte for
# byte from MAGIC_DOCS; var/corpus-magic-quick/ the same with the seven of quick.txt (2020-2023). MAGIC_DOCS is
# corpora/magic-the-gathering in the shared folder the tests find ($$RULINGS_SHARED, else a "shared" folder
# beside this checkout or beside the repository it was cloned from), unless given.
# Each corpus builds into a store of its own (var/store-magic, var/store-magic-quick): `make serve` keeps
# serving the bundled games, on PORT; serve-magic serves on MAGIC_PORT.
SHARED_DIR ?= $(shell $(BIN)/python tests/shared.py 2>/dev/null)
MAGIC_DOCS ?= $(if $(SHARED_DIR),$(SHARED_DIR)/corpora/magic-the-gathering)
MAGIC_PORT ?= 5001
MAGIC = docs/corpora/magic-the-gathering
define magic_corpus
	@test -d "$(MAGIC_DOCS)" || { echo "error: no folder of Magic editions$(if $(MAGIC_DOCS), at $(MAGIC_DOCS), found): set RULINGS_SHARED=<the shared folder> or MAGIC_DOCS=<its corpora/magic-the-gathering>" >&2; exit 3; }
	$(BIN)/python -m rulings.ingest.assemble var/$(1) --game $(MAGIC)=$(MAGIC_DOCS) $(2)
endef

corpus-magic: install
	$(call magic_corpus,corpus-magic)

corpus-magic-quick: install
	$(call magic_corpus,corpus-magic-quick,--only $(MAGIC)/quick.txt)

serve-magic: corpus-magic
	$(BIN)/rulings --corpus var/corpus-magic build
	$(BIN)/rulings --corpus var/corpus-magic serve --host $(HOST) --port $(MAGIC_PORT)

serve-magic-quick: corpus-magic-quick
	$(BIN)/rulings --corpus var/corpus-magic-quick build
	$(BIN)/rulings --corpus var/corpus-magic-quick serve --host $(HOST) --port $(MAGIC_PORT)

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
