#!/bin/sh
# Writes scripts/requirements-pi.txt: the service's Python dependencies (pyproject.toml's
# [project] dependencies, scripts/requirements-pi.in's lgpio for aarch64, and what they pull
# in), each pinned to one version with the sha256 of every file PyPI serves for it, for any
# platform and Python 3.11 (Bookworm's, Raspberry Pi OS and Debian alike).
# scripts/setup-pi.sh installs from it with --require-hashes, so the Pi gets what was
# reviewed here, not whatever PyPI serves that day.  Versions already in the file are kept
# (uv keeps an output file's pins) unless a dependency no longer allows them.
#
# It also writes scripts/requirements-pi-demo.txt (scripts/requirements-pi-demo.in: what
# `make pi-check` adds beside the card's venv to make the demo GIF under arm64).
#
#     sh scripts/lock-pi.sh        # after changing the dependencies; commit the result
#
# It uses uv (pip cannot lock for another platform), installed into a throwaway venv.
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
${PYTHON:-python3} -m venv "$TMP/venv"
"$TMP/venv/bin/pip" install --quiet --disable-pip-version-check uv
cd "$HERE"
"$TMP/venv/bin/uv" pip compile pyproject.toml --universal --python-version 3.11 \
    --generate-hashes --no-header --quiet --output-file scripts/requirements-pi.txt \
    scripts/requirements-pi.in
{
    echo "# The Pi's pinned Python dependencies, with hashes: written by scripts/lock-pi.sh"
    echo "# from pyproject.toml and scripts/requirements-pi.in (do not edit by hand);"
    echo "# installed by scripts/setup-pi.sh."
    cat scripts/requirements-pi.txt
} > "$TMP/lock" && mv "$TMP/lock" scripts/requirements-pi.txt
"$TMP/venv/bin/uv" pip compile scripts/requirements-pi-demo.in --no-deps --universal \
    --python-version 3.11 --generate-hashes --no-header --quiet \
    --output-file scripts/requirements-pi-demo.txt
{
    echo "# make pi-check's demo extras for arm64, pinned with hashes: written by scripts/lock-pi.sh"
    echo "# from scripts/requirements-pi-demo.in (do not edit by hand)."
    cat scripts/requirements-pi-demo.txt
} > "$TMP/lock" && mv "$TMP/lock" scripts/requirements-pi-demo.txt
echo "lock-pi: wrote scripts/requirements-pi.txt and scripts/requirements-pi-demo.txt"
