# contrascan developer targets (GNU make). `make demo` and `make test` set everything up first.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := setup

PYTHON ?= python3.11
VENV := .venv
STAMP := $(VENV)/.installed
CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/contrascan

# The heavy dependencies (torch, spaCy, sentence-transformers, the models) live in a virtualenv
# cached outside the checkout and keyed by the dependency lists of pyproject.toml, so a fresh
# clone on the same machine reuses it. Environments unused for 14 days are removed; one in use
# by another checkout (another branch's dependency list) is never removed under it. The checkout's own .venv holds only contrascan itself
# (editable) and a .pth line that puts the cached site-packages on its path.
DEPS_KEY := $(shell $(PYTHON) -c "import hashlib, json, sys, tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print(hashlib.sha256(json.dumps([p['dependencies'], p.get('optional-dependencies', {}), sys.version_info[:2]], sort_keys=True).encode()).hexdigest()[:16])")
DEPS := $(CACHE)/deps-$(DEPS_KEY)

.PHONY: setup browser demo demo-attached test serve review-screenshots clean-venv

# The Weaviate binary step is a no-op when present and otherwise reuses a local
# weaviate-server or runs `go install` (scanner/store/binary.py). The pair judge step is a
# no-op when cached and otherwise trains it from scanner/data/judge_pairs (a few minutes on two
# cores, deterministic; scanner/pair_judge/training.py).
setup: $(STAMP)
	touch $(DEPS)/.used
	$(VENV)/bin/python -m scanner.store.server
	HF_HUB_OFFLINE=1 $(VENV)/bin/python -m scanner.pair_judge
	@$(MAKE) --no-print-directory browser

# Debian's chromium + chromium-driver for the review page's browser tests, installed only where
# apt-get exists and this runs as root (elsewhere those tests skip and say why). Never a
# browser download: the packages come from the Debian mirror.
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600 chromium chromium-driver
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [[ "$$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then \
	  echo "installing chromium and chromium-driver (apt-get)"; \
	  { $(APT_INSTALL) || { apt-get update && $(APT_INSTALL); }; } >/dev/null \
	    || echo "chromium could not be installed: the browser tests will skip"; \
	else echo "no chromium/chromedriver, and no root apt-get to install them: the browser tests will skip"; fi

$(DEPS)/.complete: pyproject.toml
	mkdir -p $(CACHE)
	flock $(CACHE)/deps.lock bash -euo pipefail -c '\
	  if [[ ! -f $(DEPS)/.complete ]]; then \
	    rm -rf $(DEPS); $(PYTHON) -m venv $(DEPS); \
	    $(PYTHON) -c "import tomllib; p = tomllib.load(open(\"pyproject.toml\", \"rb\"))[\"project\"]; print(\"\n\".join(p[\"dependencies\"] + [d for ds in p.get(\"optional-dependencies\", {}).values() for d in ds]))" > $(DEPS)/requirements.txt; \
	    $(DEPS)/bin/python -m pip install -r $(DEPS)/requirements.txt; \
	    touch $(DEPS)/.complete; \
	  fi; \
	  touch $(DEPS)/.used; \
	  find $(CACHE) -maxdepth 2 -path "$(CACHE)/deps-*/.used" -mtime +14 -printf "%h\n" \
	    | xargs -r rm -rf'

$(STAMP): pyproject.toml $(DEPS)/.complete
	[[ -x $(VENV)/bin/python ]] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -c "import site, sys; open(site.getsitepackages()[0] + '/contrascan-deps.pth', 'w').write(sys.argv[1] + '\n')" \
	  "$$($(DEPS)/bin/python -c 'import site; print(site.getsitepackages()[0])')"
	$(VENV)/bin/python -m pip install --quiet --no-deps -e .
	touch $@

demo: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/contrascan demo

# The attach path: the demo memories written through langchain-weaviate, scanned where they lie
demo-attached: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/contrascan source demo

test: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/python -m pytest

# The HTTP sidecar on 127.0.0.1:8765 over the embedded Weaviate; `make serve ARGS="--port 9000"`
serve: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/contrascan serve $(ARGS)

# Screenshots of the review inbox and of one item, under results/review/<UTC time>/
review-screenshots: setup
	HF_HUB_OFFLINE=1 $(VENV)/bin/python -m scanner.review.screenshots $(ARGS)

clean-venv:
	rm -rf $(VENV)
