#!/bin/sh
# Writes an SD-card image of the companion for the Raspberry Pi 3, 4 and Zero 2 W, from
# Debian's own packages (hardware/guide/pi-image.md):
#
#     sudo sh scripts/pi-image.sh [-o companion-arm64.img.gz] [--rootfs DIR]
#
# Without --rootfs it first builds the root file system with scripts/pi-rootfs.sh (Debian 12
# arm64 with the companion set up by scripts/setup-pi.sh; about half an hour the first time).
# The card:
#   1  FAT32 "RASPIFIRM" (256 MiB): the Pi's boot firmware, Debian's arm64 kernel and
#      initramfs, the boards' device trees and config.txt (I2C on) as Debian's raspi-firmware
#      makes them, plus companion.toml and wifi.txt for a family to edit on any computer
#   2  ext4 "RASPIROOT": the root file system, the companion installed and enabled
# Nothing is mounted: the partitions are made as files (mkfs.vfat + mtools, mke2fs -d) and
# copied into the image, which is then compressed with gzip (xz would make it about a fifth smaller
# at ten times the time).  Flash it with Raspberry Pi Imager or balenaEtcher (both take .gz as
# it is), or: zcat companion-arm64.img.gz | sudo dd of=/dev/sdX bs=4M conv=fsync.
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
OUT=companion-arm64.img.gz
ROOTFS=""
FAT_MIB=256
START_MIB=4    # the first partition starts at 4 MiB, as on Debian's images
FREE_MIB=512   # room left on the root partition for the journal, logs and updates
export MTOOLS_SKIP_CHECK=1  # mtools on an image file: no floppy geometry to check

say() { echo "pi-image: $*"; }
die() { echo "pi-image: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
    -o) OUT=$2; shift 2 ;;
    --rootfs) ROOTFS=$2; shift 2 ;;
    *) echo "usage: sudo sh scripts/pi-image.sh [-o FILE.img.gz] [--rootfs DIR]" >&2; exit 2 ;;
    esac
done
case "$OUT" in *.img.gz) ;; *) die "the output must end in .img.gz, not $OUT" ;; esac
[ "$(id -u)" = 0 ] || die "run me as root (the root file system's files belong to several users)."
sh "$HERE/scripts/pi/tools.sh"
OUT=$(realpath -m "$OUT")
WORK=$(mktemp -d "${OUT%.img.gz}.work.XXXXXX")
MOVED=""
cleanup() {
    # the firmware and the marker go back where pi-rootfs.sh put them
    if [ -n "$MOVED" ]; then
        mv "$WORK/firmware/"* "$ROOTFS/boot/firmware/" 2>/dev/null || true
        mv "$WORK/.companion-pi-rootfs" "$ROOTFS/" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if [ -z "$ROOTFS" ]; then
    ROOTFS="$WORK/rootfs"
    sh "$HERE/scripts/pi-rootfs.sh" "$ROOTFS"
fi
[ -x "$ROOTFS/opt/companion/venv/bin/companion" ] \
    || die "$ROOTFS has no companion installed; build it with scripts/pi-rootfs.sh."
FW="$ROOTFS/boot/firmware"
if grep -q " $(realpath "$ROOTFS")/" /proc/mounts; then
    die "something is mounted inside $ROOTFS (a chroot still running?); it must not go onto the card."
fi
for f in config.txt cmdline.txt bootcode.bin start4.elf; do
    [ -f "$FW/$f" ] || die "$FW/$f is missing: Debian's raspi-firmware did not run in $ROOTFS."
done

# --- partition 1: FAT -----------------------------------------------------------------------
FAT="$WORK/fat.img"
mkfs.vfat -C -F 32 -n RASPIFIRM "$FAT" $((FAT_MIB * 1024)) >/dev/null
mcopy -i "$FAT" -s -p -m "$FW"/* ::/
mcopy -i "$FAT" -m "$ROOTFS/etc/companion/companion.toml" ::/companion.toml
mcopy -i "$FAT" -m "$HERE/scripts/pi/image/wifi.txt" ::/wifi.txt

# --- partition 2: ext4, without the FAT's files (/boot/firmware is its mount point) ---------
mkdir "$WORK/firmware"
MOVED=yes
mv "$FW/"* "$WORK/firmware/"
[ ! -e "$ROOTFS/.companion-pi-rootfs" ] || mv "$ROOTFS/.companion-pi-rootfs" "$WORK/"
used=$(du -sxm "$ROOTFS" | cut -f1)
ROOT_MIB=$((used + used / 4 + FREE_MIB))
EXT="$WORK/root.img"
mke2fs -q -t ext4 -L RASPIROOT -i 8192 -d "$ROOTFS" "$EXT" "${ROOT_MIB}M" \
    || die "mke2fs could not make the root partition from $ROOTFS."
mv "$WORK/firmware/"* "$FW/"
[ ! -e "$WORK/.companion-pi-rootfs" ] || mv "$WORK/.companion-pi-rootfs" "$ROOTFS/"
MOVED=""

# --- the card ---------------------------------------------------------------------------------
IMG="$WORK/companion-arm64.img"
TOTAL_MIB=$((START_MIB + FAT_MIB + ROOT_MIB))
truncate -s "${TOTAL_MIB}M" "$IMG"
sfdisk --quiet "$IMG" <<EOF
label: dos
unit: sectors
start=$((START_MIB * 2048)), size=$((FAT_MIB * 2048)), type=c, bootable
start=$(((START_MIB + FAT_MIB) * 2048)), size=$((ROOT_MIB * 2048)), type=83
EOF
dd if="$FAT" of="$IMG" bs=1M seek="$START_MIB" conv=notrunc,sparse status=none
dd if="$EXT" of="$IMG" bs=1M seek=$((START_MIB + FAT_MIB)) conv=notrunc,sparse status=none
rm -f "$FAT" "$EXT"
gzip -6 --stdout "$IMG" > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
(cd "$(dirname "$OUT")" && sha256sum "$(basename "$OUT")" > "$(basename "$OUT").sha256")
say "wrote $OUT ($(du -m "$OUT" | cut -f1) MiB; $TOTAL_MIB MiB on the card: FAT $FAT_MIB MiB, root $ROOT_MIB MiB)"
