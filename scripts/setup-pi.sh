#!/bin/sh
# Set up the companion on a Raspberry Pi, from a checkout:
#
#     sudo sh scripts/setup-pi.sh [--profile NAME]... [--only-profiles]
#
# For 64-bit (arm64) Raspberry Pi OS Bookworm and plain Debian 12 "bookworm" arm64 (Debian's
# own Raspberry Pi images, or the card scripts/pi-image.sh writes).  It installs the Debian
# packages (fonts, I2C tools, espeak-ng, aplay, polkit; lgpio where the archive has it),
# switches on the Pi's interfaces (I2C, and the profiles' UART, SPI off, I2S: below), creates the unprivileged user "companion" (in the
# groups gpio, i2c, dialout and audio), installs the project into /opt/companion/venv with the
# pinned, hash-checked dependencies of scripts/requirements-pi.txt (scripts/lock-pi.sh writes
# it), writes /etc/companion/companion.toml if missing, installs the udev rules (the dice as
# /dev/companion-dice; on plain Debian the GPIO chips for the gpio group), lets the service
# power the Pi off ("Vypnout" in the menu) through a polkit rule, and enables and (re)starts
# the hardened systemd service.  Run it again to update.
#
# Where systemd is not running (a chroot, an image being built) everything is installed and
# enabled, and the service starts at the next boot; nothing here needs udev or a running
# systemd.  Plain Debian differs from Raspberry Pi OS in three places, each handled below:
# lgpio comes from PyPI (Raspberry Pi's archive has python3-lgpio, Debian's has not), there is
# no raspi-config (I2C is switched on in Debian's raspi-firmware config.txt and by loading
# i2c-dev), and there is no "gpio" group (made here, with a udev rule for /dev/gpiochip*).
set -eu

VENV=/opt/companion/venv
CONFIG=/etc/companion/companion.toml
UNIT=/etc/systemd/system/companion.service
FIRMWARE_CUSTOM=/etc/default/raspi-firmware-custom  # Debian: appended to config.txt
MODULES_LOAD=/etc/modules-load.d/companion.conf
TABLE_GROUPS="gpio i2c dialout audio"
PACKAGES="python3 python3-venv python3-pip xfonts-base fonts-terminus-otb fonts-dejavu-core
    i2c-tools espeak-ng alsa-utils polkitd"

say() { echo "setup-pi: $*"; }

# --- what kind of system this is -------------------------------------------------------------

systemd_running() { [ -d /run/systemd/system ]; }  # sd_booted(3)
udev_running() { [ -S /run/udev/control ]; }
raspberry_pi_os() {  # SETUP_PI_OS=raspios|debian: a test's stand-in (make pi-check)
    case "${SETUP_PI_OS:-}" in raspios) return 0 ;; debian) return 1 ;; esac
    command -v raspi-config >/dev/null 2>&1
}
apt_has() { [ -n "$(apt-cache madison "$1" 2>/dev/null)" ]; }

# --- Debian packages -------------------------------------------------------------------------

LGPIO_FROM=pypi
install_packages() {
    apt-get update -qq
    extra=""
    if apt_has python3-lgpio; then  # Raspberry Pi's archive
        extra="python3-lgpio"
        LGPIO_FROM=debian
    fi
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        $PACKAGES $extra
}

# --- the Pi's interfaces ---------------------------------------------------------------------
# One function per interface the table uses, each for Raspberry Pi OS (raspi-config) and for
# plain Debian (a line in config.txt through Debian's raspi-firmware, a kernel module);
# the UART, SPI and I2S come with the profiles (apply_profiles, below).

# a line for the firmware's config.txt on plain Debian; the raspi-firmware hook writes it
# into /boot/firmware/config.txt at every kernel or firmware update (and just below)
firmware_line() {
    touch "$FIRMWARE_CUSTOM"
    grep -qxF "$1" "$FIRMWARE_CUSTOM" || echo "$1" >> "$FIRMWARE_CUSTOM"
}

# a kernel module loaded at every boot (and now, where this is the running system)
kernel_module() {
    touch "$MODULES_LOAD"
    grep -qxF "$1" "$MODULES_LOAD" || echo "$1" >> "$MODULES_LOAD"
    if systemd_running; then
        modprobe "$1" || say "could not load the kernel module $1 now; it loads at the next boot"
    fi
}

enable_i2c() {
    if raspberry_pi_os; then
        raspi-config nonint do_i2c 0      # 0 = enable
    else
        firmware_line "dtparam=i2c_arm=on"
        kernel_module i2c-dev
    fi
}

# rewrite /boot/firmware/config.txt from Debian's raspi-firmware with the lines above
apply_firmware_config() {
    raspberry_pi_os && return 0
    hook=/etc/kernel/postinst.d/z50-raspi-firmware
    if [ -x "$hook" ] && ls /boot/vmlinuz-* >/dev/null 2>&1; then
        DEB_MAINT_PARAMS=configure "$hook"
    else
        say "Debian's raspi-firmware is not installed: add $(tr '\n' ' ' < "$FIRMWARE_CUSTOM")to the firmware's config.txt yourself"
    fi
}

enable_interfaces() {
    enable_i2c
}

# The profiles for the Pi's own interfaces (companion/service/pi_profiles.py says what each
# writes): gpio-pads (four seats of GPIO pads: SPI, the UART and the serial console off),
# uart-dice and uart-padhub (the UART on GPIO14/15 on, the serial console off; a Pi 5's
# uart0 and /dev/ttyAMA0), i2s (the MAX98357A overlay with no-sdmode, voice.i2s = true),
# bonnet (the no-solder box: the OLED Bonnet's controls, no buzzer, a USB speaker, a Pixels
# die, MPR121 pads; I2C at 400 kHz; hardware/no-solder.md).
# Chosen with --profile NAME (again for more; "none" takes them out), or else by what the
# configuration wires.  Idempotent: the same profiles again change nothing.
PROFILES=""
apply_profiles() {
    os=debian
    raspberry_pi_os && os=raspios
    set --
    for p in $PROFILES; do set -- "$@" --profile "$p"; done
    "$VENV/bin/python" -m companion.commands.pi_profiles --os "$os" \
        --config "$CONFIG" --boot "${SETUP_PI_BOOT:-boot/firmware}" \
        ${SETUP_PI_MODEL:+--model "$SETUP_PI_MODEL"} "$@" && return 0
    # profiles asked for by name stop here; ones the configuration chose do not stop an update
    [ -z "$PROFILES" ] || exit 2
    say "the Pi's interfaces are left as they are; the rest of the set-up goes on"
}

# --- the user and its devices ----------------------------------------------------------------

setup_user() {
    # plain Debian has no gpio group: made here, and a udev rule gives it /dev/gpiochip*
    # (Raspberry Pi OS's own rules do the same there)
    if ! getent group gpio >/dev/null || [ -f /etc/udev/rules.d/60-companion-gpio.rules ]; then
        getent group gpio >/dev/null || groupadd --system gpio
        install -m 0644 "$HERE/scripts/60-companion-gpio.rules" /etc/udev/rules.d/60-companion-gpio.rules
    fi
    id companion >/dev/null 2>&1 || useradd --system --home-dir /var/lib/companion \
        --no-create-home --shell /usr/sbin/nologin companion
    for g in $TABLE_GROUPS; do
        if getent group "$g" >/dev/null; then
            usermod -aG "$g" companion
        else
            say "there is no group $g here; the service runs without it"
        fi
    done
    install -m 0644 "$HERE/scripts/99-companion-dice.rules" /etc/udev/rules.d/99-companion-dice.rules
    if udev_running; then
        udevadm control --reload-rules && udevadm trigger || true
    fi
}

# --- the project -----------------------------------------------------------------------------

# scripts/requirements-pi.txt without its lgpio entry (name line and its hash lines), for a
# system that has Debian's python3-lgpio
without_lgpio() {
    awk '/^[A-Za-z0-9]/ { skip = ($0 ~ /^lgpio==/) } !skip'
}

install_project() {
    # the venv sees the system site-packages: Raspberry Pi OS's python3-lgpio
    [ -x "$VENV/bin/python" ] || python3 -m venv --system-site-packages "$VENV"
    filtered=""
    if [ "$LGPIO_FROM" = debian ]; then
        filtered=$(mktemp)
        without_lgpio < "$HERE/scripts/requirements-pi.txt" > "$filtered"
    fi
    # the dependencies exactly as locked (every file's sha256 checked, wheels only; lgpio's
    # aarch64 wheel from PyPI unless Debian's is installed), then the project itself without
    # pulling anything more
    $VENV/bin/pip install --quiet --disable-pip-version-check --require-hashes \
        --only-binary=:all: -r "${filtered:-$HERE/scripts/requirements-pi.txt}"
    [ -z "$filtered" ] || rm -f "$filtered"
    $VENV/bin/pip install --quiet --disable-pip-version-check --no-deps \
        --no-build-isolation --upgrade "$HERE"
}

install_config() {
    install -d -m 0755 /etc/companion
    if [ ! -f "$CONFIG" ]; then
        install -m 0644 "$HERE/examples/companion.toml" "$CONFIG"
    fi
    # earlier versions powered off through sudo, which NoNewPrivileges=yes forbids
    sed -i 's|^shutdown_command = "sudo -n /usr/bin/systemctl poweroff"|shutdown_command = "systemctl poweroff"|' \
        "$CONFIG"
    # check the config now, with the same one-sentence errors the service would give
    "$VENV/bin/python" -c "import sys; from companion.games import playable; from companion.service.config import load; load(sys.argv[1], playable())" \
        "$CONFIG"

    # "Vypnout": logind powers off for the companion user by this polkit rule (no sudo)
    rm -f /etc/sudoers.d/companion
    install -d -m 0755 /etc/polkit-1/rules.d
    install -m 0644 "$HERE/scripts/50-companion.rules" /etc/polkit-1/rules.d/50-companion.rules
}

# --- the service -----------------------------------------------------------------------------

install_service() {
    install -m 0644 "$HERE/scripts/companion.service" "$UNIT"
    systemctl enable companion.service  # works without a running systemd too
    if systemd_running; then
        systemctl daemon-reload
        systemctl restart companion.service  # once: the new version starts (or the first one)
        say "done; logs: journalctl -u companion -f"
    else
        say "done; systemd is not running here (a chroot or an image being built): the service starts at the next boot"
    fi
}

usage() {
    echo "usage: sudo sh scripts/setup-pi.sh [--profile NAME]... [--only-profiles]" >&2
    echo "  profiles: gpio-pads, uart-dice, uart-padhub, i2s, bonnet, none (hardware/guide/build.md," >&2
    echo "  hardware/no-solder.md)" >&2
    exit 2
}

main() {
    only_profiles=""
    while [ $# -gt 0 ]; do
        case "$1" in
        --profile) [ $# -ge 2 ] || usage; PROFILES="$PROFILES $2"; shift 2 ;;
        --profile=*) PROFILES="$PROFILES ${1#--profile=}"; shift ;;
        --only-profiles) only_profiles=1; shift ;;
        *) usage ;;
        esac
    done
    [ "$(id -u)" = 0 ] || { echo "setup-pi: run me with sudo" >&2; exit 1; }
    HERE=$(cd "$(dirname "$0")/.." && pwd)
    if [ -n "$only_profiles" ]; then
        [ -x "$VENV/bin/python" ] || { echo "setup-pi: the companion is not installed yet: run me without --only-profiles first" >&2; exit 1; }
        apply_profiles
        apply_firmware_config
        return 0
    fi
    [ "$(dpkg --print-architecture)" = arm64 ] || say "this is not arm64 Debian; the locked wheels are for aarch64 (64-bit Raspberry Pi OS or Debian)"
    install_packages
    enable_interfaces
    setup_user
    install_project
    install_config
    apply_profiles
    apply_firmware_config
    install_service
}

# the tests source this file with SETUP_PI_LIBRARY=1 to call one function
[ "${SETUP_PI_LIBRARY:-}" = 1 ] || main "$@"
