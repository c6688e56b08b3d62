# The two commands of the README. Both create .venv and install what they need,
# so they work on a fresh machine with Python >= 3.10 (3.11 is what CI uses).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
OUT    ?= out

.PHONY: demo test test-min bench clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Stamp files: reinstall when pyproject.toml changes.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
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

# The suite runs on both cores of the reference machine (pytest-xdist, a test extra); the
# tests that read one shared demo run (xdist_group "demo") go to the same worker.
test: $(VENV)/.test-installed browser test-min
	$(BIN)/python -m pytest -n 2 --dist loadgroup

# The declared minimum versions are tested: a second environment with exactly those
# (tests/_support/minimums.py reads them from pyproject.toml), rankwise without its
# dependencies, and a smoke subset (criteria, curves, learners, model files, readers, report).
MIN := .venv-min
$(MIN)/.installed: pyproject.toml tests/_support/minimums.py
	rm -rf $(MIN) && $(PYTHON) -m venv $(MIN)
	$(MIN)/bin/python -m pip install --quiet --upgrade pip
	$(MIN)/bin/python tests/_support/minimums.py > $(MIN)/requirements.txt
	$(MIN)/bin/python -m pip install --quiet -r $(MIN)/requirements.txt "pytest>=7" "hypothesis>=6.80"
	$(MIN)/bin/python -m pip install --quiet --no-deps .
	touch $@

test-min: $(MIN)/.installed
	cd tests && ../$(MIN)/bin/python -m pytest -q -p no:cacheprovider --rootdir=.. -c ../pyproject.toml \
	  test_architecture.py metrics criteria/test_criteria_golden.py learners/test_learners_linear.py \
	  learners/test_learners_boost.py io cli/test_cli_readers.py report/test_report.py

bench: $(VENV)/.test-installed
	$(BIN)/python bench/bench_criteria.py
	$(BIN)/python bench/bench_stats.py

clean:
	rm -rf $(VENV) $(MIN) $(OUT) .pytest_cache .hypothesis
