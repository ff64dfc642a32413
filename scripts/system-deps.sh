#!/bin/sh
# Installs the few Debian packages the project needs outside Python, once:
#   xfonts-base         misc-fixed 5x8, the OLED body font (every Czech letter)
#   fonts-terminus-otb  Terminus 6x12, the OLED heading font
#   fonts-dejavu-core   the fallback font
#   systemd             systemd-analyze, which rates the hardening of scripts/companion.service
#                       in tests/test_hardening.py (installing it in a container starts
#                       nothing: its scripts act only where systemd is running)
#   nodejs, npm         runs the MicroPython WebAssembly port in the firmware checks
#   espeak-ng           the announcer's Czech voice (the WAV twin and its tests use it too)
#   alsa-utils          aplay, the announcer's sound output (tests play to ALSA's null device)
#   python3-venv        `python3 -m venv` on a bare Debian
#   chromium, chromium-driver
#                       the headless browser of the phone view's tests (tests/web/)
#   libzbar0            zbar, the third QR decoder of tests/web/test_qr_photo.py (via pyzbar)
#   fdisk               sfdisk, which lays out the test SD cards of tests/scripts/test_pi_check.py
#                       (`make pi-check` installs it too, but only after `make test` has run)
# Called by `make test` / `make run`; does nothing when everything is present.
set -eu
need=""
[ -f /usr/share/fonts/X11/misc/5x8.pcf.gz ] || need="$need xfonts-base"
[ -f /usr/share/fonts/opentype/terminus/terminus-normal.otb ] || need="$need fonts-terminus-otb"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
command -v espeak-ng >/dev/null 2>&1 || need="$need espeak-ng"
command -v aplay >/dev/null 2>&1 || need="$need alsa-utils"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v chromedriver >/dev/null 2>&1 || need="$need chromium-driver"
ls /usr/lib/*/libzbar.so.0 >/dev/null 2>&1 || need="$need libzbar0"
[ -x /usr/sbin/sfdisk ] || [ -x /sbin/sfdisk ] || need="$need fdisk"
${PYTHON:-python3} -c 'import venv, ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
command -v systemd-analyze >/dev/null 2>&1 || need="$need systemd"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "system-deps: please install these Debian packages:$need" >&2
    exit 1
fi
echo "system-deps: installing$need"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
