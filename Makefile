# The two commands of the README. Both create .venv and install what they need,
# so they work on a fresh machine with Python >= 3.10 (3.11 is what CI uses).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
OUT    ?= out

.PHONY: demo test bench clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Stamp files: reinstall when pyproject.toml changes.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[data,report]"
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[test,data,report]"
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/rankwise demo --out $(OUT)

# The report's browser test needs Debian's chromium; install it when missing and possible
# (CI runs as root), otherwise that one test is skipped with a message.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v apt-get >/dev/null 2>&1 && \
	  { command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	    || echo "chromium could not be installed: the browser test will be skipped"; } || true

test: $(VENV)/.test-installed browser
	$(BIN)/python -m pytest

bench: $(VENV)/.test-installed
	$(BIN)/python bench/bench_criteria.py
	$(BIN)/python bench/bench_stats.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache .hypothesis
