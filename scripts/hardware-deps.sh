#!/bin/sh
# Installs what `make hardware` and `make hardware-check` need, once:
#   kicad, kicad-footprints   KiCad 6 (Debian 12): the pcbnew Python module (for /usr/bin/python3)
#                             and the footprint libraries the boards are made of
#   kicad-symbols             KiCad's symbol libraries (for anyone opening the boards in KiCad)
#   fonts-dejavu-core         the font of the boards' PNG pictures
# and the project's `hardware` extra (freeroute, the autorouter) into the virtual environment.
# Fails when pcbnew still does not import afterwards: the checks must not pass without KiCad.
set -eu
VENV=${VENV:-.venv}
need=""
/usr/bin/python3 -c 'import pcbnew' >/dev/null 2>&1 || need="$need kicad"
[ -d /usr/share/kicad/footprints/Connector_JST.pretty ] || need="$need kicad-footprints"
[ -d /usr/share/kicad/symbols ] || need="$need kicad-symbols"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "hardware-deps: please install these Debian packages:$need" >&2
        exit 1
    fi
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends $need
fi
if ! /usr/bin/python3 -c 'import pcbnew' >/dev/null 2>&1; then
    echo "hardware-deps: KiCad's pcbnew module does not import in /usr/bin/python3" >&2
    exit 1
fi
"$VENV/bin/python" -c 'import freeroute' >/dev/null 2>&1 || \
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e '.[hardware]'
# the printable cases' libraries (hardware/cases/, tested under tests/hardware/cases)
PYTHON="$VENV/bin/python" sh scripts/cases-deps.sh
