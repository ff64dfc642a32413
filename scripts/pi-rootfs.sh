#!/bin/sh
# Builds the card's arm64 root file system in a folder, with the companion set up by
# scripts/setup-pi.sh exactly as on a Pi:
#
#     sudo sh scripts/pi-rootfs.sh DIR
#
# 1. Debian 12 "bookworm" arm64 by debootstrap (minbase, systemd, Debian's arm64 kernel,
#    raspi-firmware and the Wi-Fi firmware; Debian's packages only), cached as a tarball in
#    $PI_CACHE (default /var/cache/companion-pi) and reused while the recipe below is the same;
# 2. unpacked into DIR, given what a card needs (fstab by labels, host name, network, the
#    import of companion.toml and the Wi-Fi file from the FAT partition: scripts/pi/image/);
# 3. scripts/setup-pi.sh run unchanged inside it (qemu-user through binfmt_misc; no systemd,
#    no udev there), then the downloads, logs and the machine id cleared for a card.
#
# scripts/pi-image.sh writes the SD-card image from DIR; `make pi-check` checks both.
# Prints one line per step; details go to stdout of the commands (redirect as you like).
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
PI_CACHE=${PI_CACHE:-/var/cache/companion-pi}
export PI_CACHE
SUITE=bookworm
MIRROR=${PI_MIRROR:-http://deb.debian.org/debian}
COMPONENTS=main,non-free-firmware
INCLUDE=systemd-sysv,udev,dbus,kmod,ifupdown,isc-dhcp-client,wpasupplicant,iproute2,netbase,systemd-timesyncd,dosfstools,zstd,initramfs-tools
BOOT_PACKAGES="linux-image-arm64 raspi-firmware firmware-brcm80211"
MARK=.companion-pi-rootfs

say() { echo "pi-rootfs: $*"; }
die() { echo "pi-rootfs: $*" >&2; exit 1; }

[ $# = 1 ] || { echo "usage: sudo sh scripts/pi-rootfs.sh DIR" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "run me as root (debootstrap, chroot and mounts need it)."
ROOT=$1

sh "$HERE/scripts/pi/tools.sh"
BINFMT=$(sh "$HERE/scripts/pi/binfmt.sh" on)
cleanup() {
    case "$BINFMT" in
    added*) sh "$HERE/scripts/pi/binfmt.sh" off "${BINFMT#added }" ;;
    esac
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# --- 1. the Debian base, cached ---------------------------------------------------------------
RECIPE="$SUITE arm64 minbase $COMPONENTS $INCLUDE $BOOT_PACKAGES $MIRROR update_initramfs-once"
KEY=$(printf '%s' "$RECIPE" | sha256sum | cut -c1-12)
BASE="$PI_CACHE/base-$SUITE-arm64-$KEY.tar.zst"
mkdir -p "$PI_CACHE"
if [ -f "$BASE" ]; then
    say "base: reusing $BASE"
else
    tmp="$PI_CACHE/base.building"
    rm -rf "$tmp"
    mkdir -p "$PI_CACHE/apt"
    debootstrap --arch=arm64 --variant=minbase --components="$COMPONENTS" --include="$INCLUDE" \
        --cache-dir="$PI_CACHE/apt" "$SUITE" "$tmp" "$MIRROR" \
        || die "debootstrap failed (its log: $tmp/debootstrap/debootstrap.log)."
    # the kernel, the Pi's firmware and the Wi-Fi firmware next, with the initramfs made once
    # (by the kernel's own hook; the triggers of the firmware packages would make it again,
    # which under emulation costs as much as all the rest)
    conf="$tmp/etc/initramfs-tools/update-initramfs.conf"
    sed -i 's/^update_initramfs=.*/update_initramfs=no/' "$conf"
    echo "deb $MIRROR $SUITE $(echo "$COMPONENTS" | tr , ' ')" > "$tmp/etc/apt/sources.list"
    sh "$HERE/scripts/pi/chroot.sh" "$tmp" apt-get update -qq \
        || die "apt-get update failed in the new root file system."
    # shellcheck disable=SC2086
    sh "$HERE/scripts/pi/chroot.sh" "$tmp" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends $BOOT_PACKAGES \
        || die "the kernel and the Pi's firmware could not be installed."
    sed -i 's/^update_initramfs=.*/update_initramfs=yes/' "$conf"
    ls "$tmp"/boot/initrd.img-* >/dev/null 2>&1 || die "no initramfs was made for the kernel."
    rm -rf "$tmp/var/lib/apt/lists/"* "$tmp/var/cache/apt/archives/"*.deb
    tar --create --zstd --xattrs --acls --numeric-owner --one-file-system -C "$tmp" \
        --file "$BASE.tmp" .
    mv "$BASE.tmp" "$BASE"
    rm -rf "$tmp"
    say "base: built Debian $SUITE arm64 with debootstrap, cached as $BASE"
fi

# --- 2. unpacked, made a card's ---------------------------------------------------------------
if [ -e "$ROOT" ]; then
    [ -f "$ROOT/$MARK" ] || [ -z "$(ls -A "$ROOT")" ] \
        || die "$ROOT exists and is not a root file system this script made; choose an empty folder."
    rm -rf "$ROOT"
fi
mkdir -p "$ROOT"
tar --extract --zstd --xattrs --acls --numeric-owner --same-permissions -C "$ROOT" --file "$BASE"
touch "$ROOT/$MARK"
IMG="$HERE/scripts/pi/image"
cat > "$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main non-free-firmware
deb $MIRROR $SUITE-updates main non-free-firmware
deb http://deb.debian.org/debian-security $SUITE-security main non-free-firmware
EOF
echo companion > "$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tcompanion\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    > "$ROOT/etc/hosts"
install -m 0644 "$IMG/fstab" "$ROOT/etc/fstab"
mkdir -p "$ROOT/boot/firmware"
# Debian's raspi-firmware writes config.txt and cmdline.txt from these (root by label; the
# console on the screen only: the UART's pins are the table's, hardware/guide/pads.md)
cat "$IMG/raspi-firmware" >> "$ROOT/etc/default/raspi-firmware"
install -m 0644 "$IMG/interfaces-eth0" "$ROOT/etc/network/interfaces.d/eth0"
install -m 0644 "$IMG/interfaces-wlan0" "$ROOT/etc/network/interfaces.d/wlan0"
install -m 0755 "$IMG/companion-import" "$ROOT/usr/local/sbin/companion-import"
install -m 0644 "$IMG/companion-import.service" "$ROOT/etc/systemd/system/companion-import.service"
say "card: fstab by label, host name companion, network, the import of the FAT partition's files"

# --- 3. the companion, by setup-pi.sh -----------------------------------------------------------
SRC=/usr/src/companion-setup
rm -rf "$ROOT$SRC"
mkdir -p "$ROOT$SRC"
# the checkout's files (committed or not, without what git ignores: .venv, caches)
command -v git >/dev/null 2>&1 && git -C "$HERE" rev-parse >/dev/null 2>&1 \
    || die "$HERE is not a git checkout, so which files are the project's is not known."
git -C "$HERE" ls-files -z --cached --others --exclude-standard \
    | tar -C "$HERE" --null --files-from=- --ignore-failed-read -cf - 2>/dev/null \
    | tar -C "$ROOT$SRC" -xf -
[ -f "$ROOT$SRC/scripts/setup-pi.sh" ] || die "could not copy the checkout into the root file system."
sh "$HERE/scripts/pi/chroot.sh" "$ROOT" systemctl enable companion-import.service
sh "$HERE/scripts/pi/chroot.sh" "$ROOT" sh "$SRC/scripts/setup-pi.sh" \
    || die "scripts/setup-pi.sh failed inside the arm64 root file system."
rm -rf "$ROOT$SRC"

# a card's first boot makes its own machine id; no downloads, logs or DNS of this machine
: > "$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id" "$ROOT/etc/resolv.conf"
rm -rf "$ROOT/var/lib/apt/lists/"* "$ROOT/var/cache/apt/"*.bin "$ROOT/root/.cache"
find "$ROOT/var/log" -type f -exec truncate -s 0 {} +
say "companion: set up by scripts/setup-pi.sh in $ROOT"
