#!/bin/sh
# Set up the companion on a Raspberry Pi (Raspberry Pi OS Bookworm), from a checkout:
#
#     sudo sh scripts/setup-pi.sh
#
# It installs the Debian packages (fonts, lgpio, I2C tools, espeak-ng, aplay, polkit), enables I2C,
# creates the unprivileged user "companion" (groups gpio, i2c, dialout, audio), installs the
# project into /opt/companion/venv with the pinned, hash-checked dependencies of
# scripts/requirements-pi.txt (scripts/lock-pi.sh writes it), writes
# /etc/companion/companion.toml if missing, installs the udev rule that names the dice
# /dev/companion-dice, lets the service power the Pi off ("Vypnout" in the menu) through a
# polkit rule, and starts the hardened systemd service.  Run it again to update.
set -eu
[ "$(id -u)" = 0 ] || { echo "setup-pi: run me with sudo" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")/.." && pwd)

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    python3 python3-venv python3-pip python3-lgpio \
    xfonts-base fonts-terminus-otb fonts-dejavu-core i2c-tools espeak-ng alsa-utils polkitd

if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_i2c 0      # 0 = enable
fi

id companion >/dev/null 2>&1 || useradd --system --home-dir /var/lib/companion \
    --shell /usr/sbin/nologin companion
for g in gpio i2c dialout audio; do
    getent group "$g" >/dev/null && usermod -aG "$g" companion
done

# lgpio comes from Debian, so the venv sees the system site-packages
[ -x /opt/companion/venv/bin/python ] || python3 -m venv --system-site-packages /opt/companion/venv
# the dependencies exactly as locked (every file's sha256 checked, wheels only), then the
# project itself without pulling anything more
/opt/companion/venv/bin/pip install --quiet --disable-pip-version-check --require-hashes \
    --only-binary=:all: -r "$HERE/scripts/requirements-pi.txt"
/opt/companion/venv/bin/pip install --quiet --disable-pip-version-check --no-deps \
    --no-build-isolation --upgrade "$HERE"

install -d -m 0755 /etc/companion
if [ ! -f /etc/companion/companion.toml ]; then
    install -m 0644 "$HERE/examples/companion.toml" /etc/companion/companion.toml
fi
# earlier versions powered off through sudo, which NoNewPrivileges=yes forbids
sed -i 's|^shutdown_command = "sudo -n /usr/bin/systemctl poweroff"|shutdown_command = "systemctl poweroff"|' \
    /etc/companion/companion.toml
# check the config now, with the same one-sentence errors the service would give
/opt/companion/venv/bin/python -c "import sys; from companion.service.config import load; load(sys.argv[1])" \
    /etc/companion/companion.toml

install -m 0644 "$HERE/hardware/99-companion-dice.rules" /etc/udev/rules.d/99-companion-dice.rules
udevadm control --reload-rules && udevadm trigger || true

# "Vypnout": logind powers off for the companion user by this polkit rule (no sudo)
rm -f /etc/sudoers.d/companion
install -d -m 0755 /etc/polkit-1/rules.d
install -m 0644 "$HERE/scripts/50-companion.rules" /etc/polkit-1/rules.d/50-companion.rules

install -m 0644 "$HERE/scripts/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable --now companion.service
systemctl restart companion.service
echo "setup-pi: done; logs: journalctl -u companion -f"
