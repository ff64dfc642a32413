#!/bin/sh
# The Debian packages the arm64 root file system, the SD-card image and their check need on
# this (x86_64 or arm64) Debian machine, installed when missing:
#   qemu-user-static   runs arm64 programs here (binfmt_misc: scripts/pi/binfmt.sh)
#   qemu-system-arm    qemu-system-aarch64: boots the image's kernel on the "virt" machine
#   debootstrap        builds the Debian root file system
#   dosfstools mtools  the card's FAT boot partition, written and read without mounting it
#   fdisk              sfdisk: the card's partition table
#   e2fsprogs          mke2fs -d (the root partition from a folder), e2fsck, debugfs
#   zstd               the cached root file system (the card image is gzip's: always there)
set -eu
need=""
have() { command -v "$1" >/dev/null 2>&1; }
[ -f /usr/lib/binfmt.d/qemu-aarch64.conf ] && have qemu-aarch64-static || need="$need qemu-user-static"
have qemu-system-aarch64 || need="$need qemu-system-arm"
have debootstrap || need="$need debootstrap"
have mkfs.vfat || need="$need dosfstools"
have mcopy || need="$need mtools"
have sfdisk || need="$need fdisk"
have mke2fs && have debugfs && have e2fsck || need="$need e2fsprogs"
have zstd || need="$need zstd"
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "pi-tools: these Debian packages are missing and only root can install them:$need" >&2
    exit 1
fi
echo "pi-tools: installing$need"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
