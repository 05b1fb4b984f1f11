# Cloud GPU Atlas: everything a newcomer needs is behind `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1
export PYTHONPATH := $(CURDIR)/hooks

.PHONY: help serve build test i18n i18n-sync facts recheck bench audit lighthouse clean
.DEFAULT_GOAL := help

# `make` alone, or `make help`: every target with the words after its `##` (one line each).
help:  ## list the targets and what each does
	@echo "Cloud GPU Atlas. Start with: make serve (the site on http://127.0.0.1:8000/) and make test."
	@sed -n 's/^\([a-z0-9-]*\):[^#]*## *\(.*\)$$/\1\t\2/p' $(MAKEFILE_LIST) | awk -F '\t' '{ printf "  make %-12s %s\n", $$1, $$2 }'

# One language only: `make serve LANG=hi`, `make build LANG=hi`. LANG is also every shell's
# locale (LANG=C.UTF-8), so it counts only when given on the make command line.
ifeq ($(origin LANG),command line)
LANGUAGES := $(shell sed -n 's/^ *- locale: *//p' mkdocs.yml)
ifeq ($(filter $(LANG),$(LANGUAGES)),)
$(error LANG=$(LANG): no such language in mkdocs.yml; use one of: $(LANGUAGES))
endif
ONLY := env LANG=C.UTF-8 ATLAS_LANG=$(LANG)
endif

# The oldest Python that every pin in requirements*.txt allows; tests/test_python_support.py fails
# when a pin's Requires-Python moves past it. Checked before .venv is made, in one line.
PYTHON_MIN := 3.11.5
PYTHON_MIN_WHY := pymdown-extensions==13.1.2 declares Requires-Python >=3.11.5

$(BIN)/python:
	@$(PYTHON) -c 'import sys; need = tuple(map(int, "$(PYTHON_MIN)".split("."))); v = sys.version_info[:3]; sys.exit(0 if v >= need else "$(PYTHON) is Python %d.%d.%d; this project needs Python $(PYTHON_MIN) or newer ($(PYTHON_MIN_WHY)); give another with make PYTHON=python3.13 ..." % v)'
	$(PYTHON) -m venv $(VENV)

# Reinstall only when a requirements file changes.
$(STAMP): requirements.txt requirements-test.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $(STAMP)

# Another port: `make serve PORT=8001`. Like LANG, PORT counts only on the make command line (a
# PORT in the environment is often some other tool's).
ifneq ($(origin PORT),command line)
PORT := 8000
endif

serve: $(STAMP)  ## serve the site with live reload on http://127.0.0.1:8000/ (PORT=8001: another port; LANG=hi: Hindi only)
	@exec $(ONLY) $(BIN)/python scripts/serve.py --dev-addr 127.0.0.1:$(PORT)

build: $(STAMP)  ## build the site into site/ with --strict; a failed build leaves site/ as it was (LANG=hi: Hindi only)
	$(ONLY) $(BIN)/python scripts/build_site.py site

test: $(STAMP)  ## translation checks, then every test (unit, build, browser), one process per core
	$(BIN)/python -m atlas.i18n_check
	$(BIN)/python -m pytest -q -n auto --dist worksteal

i18n: $(STAMP)  ## translation status and checks (fast; exits non-zero on problems)
	$(BIN)/python -m atlas.i18n_check

i18n-sync: $(STAMP)  ## after catching up a translation: make i18n-sync PAGE=guides/storage.md [LANGS=hi]
	$(BIN)/python -m atlas.i18n_check --sync "$(PAGE)" $(if $(LANGS),--lang $(LANGS),)

.PHONY: i18n-diff new-language
i18n-diff: $(STAMP)  ## what changed in English since a translation was synced: make i18n-diff PAGE=guides/storage.md [LANGS=hi]
	$(BIN)/python scripts/i18n_diff.py "$(PAGE)" $(if $(LANGS),--lang $(LANGS),)

# CODE and NAME reach the script through the environment (make exports command-line variables), so
# a name is never read by the shell.
new-language: $(STAMP)  ## add a language in one command: make new-language CODE=ta NAME=தமிழ் (CONTRIBUTING: Add a language)
	$(BIN)/python scripts/new_language.py --from-environment

facts: $(STAMP)  ## coverage of provider facts: per provider and field, cells still unknown, old sources
	$(BIN)/python -m atlas.facts

recheck: $(STAMP)  ## is each quote still at its source? writes recheck-report.json and data/checked.yaml (PROVIDER=aws: one provider)
	$(BIN)/python -m atlas.recheck $(if $(PROVIDER),--provider "$$PROVIDER",)

bench: $(STAMP)  ## build time and memory against bare MkDocs, at 20 and 300 pages, 30 vs 1,000 providers, one language (BEFORE=<commit> adds that commit)
	ROUNDS=$(or $(ROUNDS),5) $(BIN)/python tests/bench.py

audit: $(STAMP)  ## every page in Chromium at 1280 and 375 px: console, requests, axe-core (minutes)
	$(BIN)/python tests/audit.py

lighthouse: $(STAMP)  ## Lighthouse (mobile) on every kind of page in every language, served with gzip: a table and a verdict (minutes; needs Node 20, installs lighthouse@12.2.3 into .lighthouse/)
	RUNS=$(or $(RUNS),1) $(BIN)/python tests/lighthouse.py

clean:  ## remove the built site and test caches (not .venv)
	rm -rf site .site.new-* .site.old-* .pytest_cache
