# The companion: `make run` and `make test` are the whole set-up on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-long lint typecheck unit bench clean firmware-check flash-dice flash-padhub pi-check \
	hardware hardware-check
.PHONY: cases cases-check

# System packages (fonts, Node), the virtual environment and the project with
# its test extras; redone only when pyproject.toml or the script changes.
$(STAMP): pyproject.toml scripts/system-deps.sh
	@echo "Setting up (only the first time: a minute or two)"
	@echo "[1/3] system packages: fonts, voice, Node…"
	PYTHON=$(PYTHON) sh scripts/system-deps.sh
	@echo "[2/3] the Python environment in $(VENV)…"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "[3/3] the companion and its libraries, one line per package…"
	$(BIN)/python scripts/pip-steps.py -e '.[test]'
	touch $(STAMP)
	@echo "Ready."

run: $(STAMP)
	$(BIN)/companion sim $(SIM)

lint: $(STAMP)
	$(BIN)/ruff check companion tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest over every core (pytest-xdist; tests that share a cache keep to one worker by their
# xdist_group); the tests marked `long` (the big seeded corpora, minutes each) run in
# `make test-long`, which CI runs after `make test`.
PYTEST_XDIST := -n auto --dist loadgroup

unit: $(STAMP)
	$(BIN)/pytest $(PYTEST_XDIST) -m "not long" --ignore=tests/hardware

test-long: $(STAMP)
	$(BIN)/pytest $(PYTEST_XDIST) -m long --ignore=tests/hardware

test: lint typecheck firmware-check unit

# The boards' firmware ships inside the package, one flash image per board
# (firmware/<board>/: main.py and its logic package); their tests,
# tests/firmware/, hold the checks' tooling too.  The Node side of the checks is installed from
# tests/firmware/package-lock.json (npm ci, redone when the lock changes), and the
# firmware tests (tests/firmware/<board>/) must pass under real MicroPython
# (WebAssembly port in Node).  That every firmware file compiles with mpy-cross
# is checked by tests/firmware/test_mpy_cross.py, in `make unit`.
FW_NODE := tests/firmware/node_modules/.package-lock.json

$(FW_NODE): tests/firmware/package.json tests/firmware/package-lock.json $(STAMP)
	cd tests/firmware && npm ci --no-audit --no-fund --loglevel=error
	touch $@

firmware-check: $(STAMP) $(FW_NODE)
	node tests/firmware/run_tests.mjs

# Copy the dice's flash image (and the boards' shared lib/) onto a Pico that runs
# MicroPython (hardware/guide/dice.md); not part of `make test`.  DICE_PORT: mpremote's device
# (default: the first found).
DICE_PORT ?= auto
DICE_BOARD := firmware/dice
FW_LIB := firmware/lib
flash-dice: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[flash]'
	$(BIN)/mpremote connect $(DICE_PORT) \
		exec "import os; [d in os.listdir() or os.mkdir(d) for d in ('dice', 'lib')]" + \
		cp $(sort $(wildcard $(FW_LIB)/*.py)) :lib/ + \
		cp $(sort $(wildcard $(DICE_BOARD)/dice/*.py)) :dice/ + \
		cp $(DICE_BOARD)/main.py :main.py + reset

# The same for the pad hub (hardware/guide/pads.md); PADHUB_PORT: mpremote's device.
PADHUB_PORT ?= auto
PADHUB_BOARD := firmware/padhub
flash-padhub: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[flash]'
	$(BIN)/mpremote connect $(PADHUB_PORT) \
		exec "import os; [d in os.listdir() or os.mkdir(d) for d in ('padhub', 'lib')]" + \
		cp $(sort $(wildcard $(FW_LIB)/*.py)) :lib/ + \
		cp $(sort $(wildcard $(PADHUB_BOARD)/padhub/*.py)) :padhub/ + \
		cp $(PADHUB_BOARD)/main.py :main.py + reset

# Every measured figure, each beside a peer measured in the same run, written to
# benchmarks/RESULTS.md (the quick ones; `benchmarks/results.py --all` runs the long ones too).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[bench]'
	$(BIN)/python benchmarks/results.py

# The companion on the Pi's architecture (root; not part of `make test`): the card's arm64
# root file system built with debootstrap (cached in /var/cache/companion-pi) and
# scripts/setup-pi.sh run in it under qemu-user, the SD-card image of scripts/pi-image.sh,
# and two real boots of that card under qemu-system-aarch64 with a power cut between them
# (POWER_CUT=0: one boot, without the power cut, about 2 minutes less).
# One line per step and a summary; details in /var/tmp/companion-pi-check/pi-check.log.
POWER_CUT ?= 1
pi-check: $(STAMP)
	PI_CHECK_POWER_CUT=$(POWER_CUT) $(BIN)/python scripts/pi-check.py

# The electronics as code (hardware/boards.md): every board's netlist, rules check, schematic
# picture, bill of materials, routed KiCad board, Gerbers, drill and pick-and-place files,
# regenerated from hardware/boards/ (KiCad 6 from Debian, freeroute from PyPI).
hardware: $(STAMP)
	VENV=$(VENV) sh scripts/hardware-deps.sh
	cd hardware && ../$(BIN)/python -m boards.build

# The checks on them: ERC 0 errors, DRC 0 violations and 0 unconnected pads, the outlines'
# sizes, a complete BOM, the pins against pinmap.toml and the firmware, and the committed
# outputs equal to freshly regenerated ones.  Fails (never skips) without KiCad.
hardware-check: $(STAMP)
	VENV=$(VENV) sh scripts/hardware-deps.sh
	HARDWARE_REQUIRE_KICAD=1 $(BIN)/pytest -q tests/hardware

# The printable cases (hardware/cases/README.md): STL files and their manifest into
# hardware/cases/out/, pictures of each part and of the assembly steps into
# hardware/cases/renders/ (both committed); cases-check runs their tests, which fail when
# the committed files disagree with the sources.
CASES_STAMP := $(VENV)/.cases-installed
$(CASES_STAMP): pyproject.toml scripts/cases-deps.sh $(STAMP)
	PYTHON=$(BIN)/python sh scripts/cases-deps.sh
	touch $@

cases: $(CASES_STAMP)
	$(BIN)/python hardware/cases/build.py

cases-check: $(CASES_STAMP)
	$(BIN)/pytest tests/hardware/cases

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
