#!/bin/sh
# What `make cases` and `make cases-check` need: the project's [cases] extras from PyPI
# (manifold3d, trimesh, rtree, sexpdata, matplotlib: wheels, nothing to compile, no system
# packages), installed once. PYTHON: the virtual environment's interpreter.
set -eu
PYTHON=${PYTHON:-.venv/bin/python}
"$PYTHON" -c 'import manifold3d, trimesh, rtree, sexpdata, matplotlib' >/dev/null 2>&1 || \
    "$PYTHON" -m pip install --quiet --disable-pip-version-check -e '.[cases]'
