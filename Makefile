# mazmorra: `make` builds every sample pack (PDFs in every language); `make test` runs the tests.
# Both set up a local virtual environment (.venv) on first use.
#
# Builds are incremental: every PDF has a dependency file in output/.deps/ listing each YAML,
# template, catalogue, icon, image and font it was made from, so `make` rebuilds only what a
# change touches, and `make -j2` builds decks and languages in parallel.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
MZ     := $(BIN)/mazmorra
OUT    ?= output

.PHONY: all pdfs setup test validate letter i18n bench clean outputs-failed

all: setup
	@$(MAKE) --no-print-directory pdfs

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

setup: $(VENV)/.installed

# Evaluated only inside the sub-make, once the tool is installed.
ifeq ($(MAKECMDGOALS),pdfs)
OUTPUTS := $(shell $(MZ) outputs --out $(OUT) 2>/dev/null || echo outputs-failed)
endif

# The content could not even be listed: show why and fail.
outputs-failed:
	@$(MZ) validate; exit 1

pdfs: $(OUTPUTS)

# $(OUT)/<pack>/<lang>/<deck>.pdf
$(OUT)/%.pdf:
	$(MZ) build $(word 1,$(subst /, ,$*)) --lang $(word 2,$(subst /, ,$*)) --deck $(word 3,$(subst /, ,$*)) --out $(OUT)

-include $(wildcard $(OUT)/.deps/*/*/*.d)

validate: setup
	$(MZ) validate

letter: setup
	$(MZ) build --page letter --out $(OUT)/letter

i18n: setup
	$(MZ) i18n update

test: setup
	scripts/ensure-tools
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/run.py

clean:
	rm -rf $(OUT) .mazmorra-tmp
