# mazmorra: `make` builds every sample pack (PDFs in every language); `make test` runs the tests.
# Both set up a local virtual environment (.venv) on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
MZ     := $(BIN)/mazmorra
PACKS  := $(notdir $(patsubst %/pack.yaml,%,$(wildcard content/*/pack.yaml)))

.PHONY: all setup test test-fast letter clean bench validate i18n $(PACKS)

all: $(PACKS)

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

setup: $(VENV)/.installed

$(PACKS): setup
	$(MZ) build $@

validate: setup
	$(MZ) validate

letter: setup
	$(MZ) build --page letter --out output/letter

i18n: setup
	$(MZ) i18n update

test: setup
	scripts/ensure-tools
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/run.py

clean:
	rm -rf output
