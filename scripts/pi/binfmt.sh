#!/bin/sh
# qemu-user's aarch64 handler in the kernel's binfmt_misc, so that arm64 programs run here
# (in a chroot: the handler is registered with the F flag, the emulator opened once, now):
#
#     sh scripts/pi/binfmt.sh on     # prints "present" or "added" (binfmt_misc mounted: "added mount")
#     sh scripts/pi/binfmt.sh off [mount]   # removes the handler (and unmounts binfmt_misc)
#
# The callers (pi-check, pi-rootfs.sh) call "off" only for what "on" said it added.  The handler
# is qemu-user-static's own definition (/usr/lib/binfmt.d/qemu-aarch64.conf).
set -eu
MISC=/proc/sys/fs/binfmt_misc
CONF=/usr/lib/binfmt.d/qemu-aarch64.conf
case "${1:-}" in
on)
    mounted=""
    if [ ! -e "$MISC/register" ]; then
        if ! grep -qw binfmt_misc /proc/filesystems; then
            echo "binfmt: this kernel has no binfmt_misc, so arm64 programs cannot run here." >&2
            exit 1
        fi
        mount -t binfmt_misc binfmt_misc "$MISC"
        mounted=" mount"
    fi
    if [ -e "$MISC/qemu-aarch64" ]; then
        if ! head -1 "$MISC/qemu-aarch64" | grep -qx enabled; then
            echo "binfmt: a qemu-aarch64 handler is registered but disabled; enable it (echo 1 > $MISC/qemu-aarch64) or remove it (echo -1 > $MISC/qemu-aarch64)." >&2
            exit 1
        fi
        # someone's handler: it must open the emulator itself (F), since a chroot has none
        if ! grep -q '^flags:.*F' "$MISC/qemu-aarch64"; then
            echo "binfmt: the registered qemu-aarch64 handler lacks the F flag, so it cannot run programs in a chroot; remove it (echo -1 > $MISC/qemu-aarch64) and run again." >&2
            exit 1
        fi
        echo "present$mounted"
        exit 0
    fi
    if [ ! -f "$CONF" ]; then
        echo "binfmt: $CONF is missing; install qemu-user-static." >&2
        exit 1
    fi
    cat "$CONF" > "$MISC/register"
    echo "added$mounted"
    ;;
off)
    [ -e "$MISC/qemu-aarch64" ] && echo -1 > "$MISC/qemu-aarch64"
    if [ "${2:-}" = mount ] && [ -z "$(ls "$MISC" | grep -vx -e register -e status)" ]; then
        umount "$MISC"
    fi
    ;;
*)
    echo "usage: sh scripts/pi/binfmt.sh on | off [mount]" >&2
    exit 2
    ;;
esac
