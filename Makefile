# The companion: `make run` and `make test` are the whole set-up on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

# System packages (fonts, Node), the virtual environment and the project with
# its test extras; redone only when pyproject.toml or the script changes.
$(STAMP): pyproject.toml scripts/system-deps.sh
	PYTHON=$(PYTHON) sh scripts/system-deps.sh
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion watch clovece --seed 7 --delay 0.3

lint: $(STAMP)
	$(BIN)/ruff check companion tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[bench]'
	$(BIN)/python benchmarks/engine_vs_ludopy.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
