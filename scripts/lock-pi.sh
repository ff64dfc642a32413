#!/bin/sh
# Writes scripts/requirements-pi.txt: the service's Python dependencies (pyproject.toml's
# [project] dependencies and what they pull in), each pinned to one version with the
# sha256 of every file PyPI serves for it, for any platform and Python 3.11 (Raspberry Pi
# OS Bookworm's).  scripts/setup-pi.sh installs from it with --require-hashes, so the Pi
# gets what was reviewed here, not whatever PyPI serves that day.
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
    --generate-hashes --no-header --quiet --output-file scripts/requirements-pi.txt
{
    echo "# The Pi's pinned Python dependencies, with hashes: written by scripts/lock-pi.sh"
    echo "# from pyproject.toml (do not edit by hand); installed by scripts/setup-pi.sh."
    cat scripts/requirements-pi.txt
} > "$TMP/lock" && mv "$TMP/lock" scripts/requirements-pi.txt
echo "lock-pi: wrote scripts/requirements-pi.txt"
