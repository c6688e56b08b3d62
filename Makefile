# The two commands of the README. Both create .venv and install what they need,
# so they work on a fresh machine with Python >= 3.10 (3.11 is what CI uses).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
OUT    ?= out

.PHONY: demo test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Stamp files: reinstall when pyproject.toml changes.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[data]"
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[test,data]"
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/rankwise demo --out $(OUT)

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

bench: $(VENV)/.test-installed
	$(BIN)/python bench/bench_criteria.py
	$(BIN)/python bench/bench_stats.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache .hypothesis
