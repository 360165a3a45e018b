# contrascan developer targets (GNU make). `make test` and `make demo` set everything up first.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := setup

PYTHON ?= python3.11
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: setup demo test

# The stamp is newer than pyproject.toml once `pip install -e '.[test]'` succeeded; make skips
# the install until pyproject.toml changes. The Weaviate binary step is a no-op when present
# and otherwise reuses a local weaviate-server or runs `go install` (scanner/store/server.py).
setup: $(STAMP)
	$(VENV)/bin/python -m scanner.store.server

$(STAMP): pyproject.toml
	[[ -x $(VENV)/bin/python ]] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -e '.[test]'
	touch $@

demo: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/contrascan demo

test: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/python -m pytest
