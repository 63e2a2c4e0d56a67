# mazmorra: `make` builds every sample pack (PDFs in every language); `make test` runs the tests
# (`make test-fast`: the fast tier, while working).
# Both set up a local virtual environment (.venv) on first use.
#
# Builds are incremental. `mazmorra build` writes, for every PDF, a dependency file in
# output/.deps/ naming each YAML, template, catalogue, icon, image and font it was made from, and
# one per pack and language for the stamp below. `make` runs one `mazmorra build --changed-only`
# for every pack and language whose inputs changed; that run rewrites only the decks that read a
# changed file (and lays out only the faces whose inputs changed: output/.cache). `make -j2` gives
# that build two worker processes; with nothing changed, `make` does nothing (the stamps are
# listed from each pack.yaml alone).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
MZ     := $(BIN)/mazmorra
OUT    ?= output

.PHONY: all pdfs setup weblate-judge lock check-ranges test test-fast golden rules-doc kinds-index pack-doc limits-doc validate letter fold a3 calibrate png tts gallery i18n bench bench-instructions clean outputs-failed

all: setup
	@$(MAKE) --no-print-directory pdfs

# Installs are locked: requirements/test.txt pins every package the tool and its tests use, with
# hashes, so every machine gets exactly the versions CI tested (pyproject.toml keeps the compatible
# ranges a wheel install resolves). The checkout itself goes in editable, without resolving anything.
LOCK       := requirements/test.txt
UV_VERSION := 0.13.9

$(VENV)/.installed: $(LOCK) pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes -r $(LOCK)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $@

setup: $(VENV)/.installed

# Weblate's own MaxSizeCheck, the judge of the catalogues' max-size flags (bench/README.md, Weblate):
# its own venv from the system Python, whose PyGObject, Pango and Cairo (Debian: python3-gi
# gir1.2-pango-1.0 python3-gi-cairo python3-cairo) render text as a Weblate server does.
WEBLATE_VENV := .venv-weblate
$(WEBLATE_VENV)/.installed: bench/weblate-judge.txt
	rm -rf $(WEBLATE_VENV)
	/usr/bin/python3 -m venv --system-site-packages $(WEBLATE_VENV)
	$(WEBLATE_VENV)/bin/pip install -q --no-deps -r bench/weblate-judge.txt
	touch $@

weblate-judge: $(WEBLATE_VENV)/.installed

# Evaluated only inside the sub-make, once the tool is installed: every pack's stamps, read from each
# pack.yaml alone (the same list as `mazmorra outputs --stamps`, without the command's start-up).
ifeq ($(MAKECMDGOALS),pdfs)
STAMPS := $(shell $(BIN)/python -m mazmorra.build.incremental $(OUT) 2>/dev/null || echo outputs-failed)
endif

# The content could not even be listed: show why and fail.
outputs-failed:
	@$(MZ) validate; exit 1

pdfs: $(if $(filter outputs-failed,$(STAMPS)),outputs-failed,$(OUT)/.stamps/.built)

# $(OUT)/.stamps/<pack>/<lang>.stamp: that pack in that language is up to date. A stale stamp is
# only touched here (and again once built: it depends on its PDFs too); then ONE `mazmorra build --changed-only` makes every stale pack and language
# (one start-up, one load of each pack, its worker processes as many as make's -jN, else 1). If that
# build fails, the stamps it was to make are removed, so the next `make` tries them again.
$(OUT)/.stamps/%.stamp:
	@mkdir -p $(@D) && touch $@

STALE       = $(patsubst $(OUT)/.stamps/%.stamp,%,$(filter %.stamp,$?))
STALE_PACKS = $(sort $(foreach s,$(STALE),$(firstword $(subst /, ,$(s)))))
STALE_LANGS = $(sort $(foreach s,$(STALE),$(lastword $(subst /, ,$(s)))))
MAKE_J      = $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))
JOBS        = $(if $(filter -j%,$(MAKEFLAGS)),$(if $(MAKE_J),-j $(MAKE_J)),-j 1)

$(OUT)/.stamps/.built: $(STAMPS)
	$(MZ) build $(STALE_PACKS) $(if $(filter 1,$(words $(STALE_LANGS))),--lang $(STALE_LANGS)) --changed-only --out $(OUT) $(JOBS) \
	  || { rm -f $(filter %.stamp,$?); exit 1; }
	@touch $(filter %.stamp,$?) && touch $@

-include $(wildcard $(OUT)/.deps/*/*.d)

validate: setup
	$(MZ) validate

letter: setup
	$(MZ) build --page letter --out $(OUT)/letter

# Home printing (docs/printing.md): fold-and-glue sheets, A3 sheets, the duplex calibration sheet.
fold: setup
	$(MZ) build --layout fold --out $(OUT)/fold

a3: setup
	$(MZ) build --page a3 --out $(OUT)/a3

PAGE ?= a4
calibrate: setup
	$(MZ) calibrate --page $(PAGE) --out $(OUT)/calibration-$(PAGE).pdf

# Exports (docs/exports.md): PNG per face (PROFILE=tgc or mpc for a print shop's exact size),
# Tabletop Simulator decks, the HTML gallery of every pack.
PROFILE ?=
png: setup
	$(MZ) build --no-pdf --png $(if $(PROFILE),--png-profile $(PROFILE)) --out $(OUT)

tts: setup
	$(MZ) build --no-pdf --tts --out $(OUT)

gallery: setup
	$(MZ) build --no-pdf --gallery --draft --out $(OUT)

i18n: setup
	$(MZ) i18n update

# Some tests ask external tools (poppler-utils, qpdf, gettext, chromium: see README); without them
# those tests are skipped, with one line saying what to install. Nothing is installed from here.
test: setup
	$(BIN)/python -m pytest -q

# While working: the fast tier, every test not marked `slow` (nearly two thirds of the tests, in about a
# minute on a shared 2-core machine), in two processes (pytest-xdist). `make test` above is the whole
# suite, the one CI runs; tests/README.md says what the tier leaves out and how a test joins it.
# Compiled and assertion-rewritten modules are kept in __pycache__ (ignored by git) even where
# PYTHONDONTWRITEBYTECODE is set: compiling them all again costs each run seconds of CPU.
test-fast: setup
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -m "not slow" -n 2

# Refresh the lock from pyproject.toml's ranges (README: "Upgrading a dependency"): the newest
# releases the ranges allow, for every platform and Python >= 3.10, with hashes. The tool's own
# lock is resolved first and constrains the test lock, so both pin the same versions.
# UPGRADE="--upgrade-package NAME" moves one package; UPGRADE=--upgrade moves all.
LOCK_VENV := .venv-lock
UPGRADE   ?=
lock:
	test -x $(LOCK_VENV)/bin/uv || { $(PYTHON) -m venv $(LOCK_VENV) && $(LOCK_VENV)/bin/pip install -q uv==$(UV_VERSION); }
	$(LOCK_VENV)/bin/uv pip compile -q pyproject.toml --universal --generate-hashes --python-version 3.10 \
	  $(UPGRADE) -o requirements/runtime.txt
	$(LOCK_VENV)/bin/uv pip compile -q pyproject.toml --extra test --universal --generate-hashes --python-version 3.10 \
	  $(UPGRADE) -c requirements/runtime.txt -o requirements/test.txt

# The wheel installed by pip from pyproject.toml's ranges (today's newest releases, not the lock)
# into a new venv, then every command run from it: do the ranges still hold?
check-ranges: setup
	MAZMORRA_WHEEL_FROM_RANGES=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/smoke/test_wheel.py

# After an intended change to a template or the layout code: rewrite tests/golden/ (then review
# the diff with git).
golden: setup
	$(BIN)/python tests/golden.py --update

# After adding or changing a rule, a reference edition or a kind file a family ships: rewrite
# docs/kinds/<family>-rules.md (the rule ids, what they check and the rulebook passage each comes
# from) and docs/kinds/<kind>.md of those kind files; a test keeps them current.
rules-doc: setup
	$(BIN)/python -m mazmorra.tools.ruletable docs/kinds

# After adding or moving a kind or a game family: rewrite cli/mazmorra/kinds/_index.py, the index of
# kinds by family that lets a build import only its pack's families; a test keeps it current.
kinds-index: setup
	$(BIN)/python -m mazmorra.tools.kindsindex

# After changing pack.yaml's schema (model.PackSpec): rewrite docs/pack-yaml.md; a test keeps it current.
pack-doc: setup
	$(BIN)/python -m mazmorra.tools.packdoc docs/pack-yaml.md

# docs/limits.md: the table of every input limit, from cli/mazmorra/support/limits.py; a test keeps it current.
limits-doc: setup
	$(BIN)/python -m mazmorra.support.limits > docs/limits.md

bench: setup
	$(BIN)/python bench/cold.py --before $(or $(BEFORE),870e1a6) --domdiv
	$(BIN)/python bench/stores.py
	$(BIN)/python bench/stores.py --sample expedicion --stores "svg picture"
	$(BIN)/python bench/run.py
	$(BIN)/python bench/floor.py
	$(BIN)/python bench/designer.py $(if $(BEFORE),--before $(BEFORE))
	$(BIN)/python bench/domdiv.py
	$(BIN)/python bench/generate.py
	$(BIN)/python bench/badinput.py --repeat 1

# The cold build counted in instructions (valgrind): the same figure every run, on a noisy machine too.
bench-instructions: setup
	$(BIN)/python bench/instructions.py --before $(or $(BEFORE),870e1a6) --domdiv

clean:
	rm -rf $(OUT) .mazmorra-tmp
