#!/bin/sh
# Run one command in an arm64 root file system (qemu-user through binfmt_misc: scripts/pi/binfmt.sh):
#
#     sh scripts/pi/chroot.sh ROOT COMMAND [ARG...]
#
# It mounts what programs need (/proc, /sys, /dev, /dev/pts, a fresh /run and /tmp), the
# host's DNS settings, and, with PI_CACHE=DIR, the download caches kept between runs outside
# the root (DIR/apt: Debian's packages, DIR/pip: PyPI's files), runs the command with a clean
# environment, and unmounts everything again however the command ends.  Programs inside trust
# the certificate authorities this machine trusts (pip: PIP_CERT, others: SSL_CERT_FILE), for
# a network whose TLS goes through a proxy of its own; nothing of it stays in the root.  No daemon is started
# (policy-rc.d forbids it), so nothing outlives the command.
set -eu
ROOT=$(cd "$1" && pwd)
shift
[ "$ROOT" != / ] || { echo "chroot: refusing to use / as the root" >&2; exit 2; }
MOUNTED=""
cleanup() {
    # whatever the command left running in the root (a daemon a package started) ends with it
    for p in /proc/[0-9]*; do
        if [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ]; then
            kill -9 "${p#/proc/}" 2>/dev/null || true
        fi
    done
    for m in $MOUNTED; do  # the last one mounted first
        umount "$m" 2>/dev/null || umount -l "$m"
    done
    rm -f "$ROOT/usr/sbin/policy-rc.d"
    if [ -n "${RESOLV_SAVED:-}" ]; then
        mv "$RESOLV_SAVED" "$ROOT/etc/resolv.conf"
    else
        rm -f "$ROOT/etc/resolv.conf"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
bind() {  # bind SOURCE TARGET [ro]
    mkdir -p "$2"
    mount --bind "$1" "$2"
    MOUNTED="$2 $MOUNTED"
    if [ "${3:-}" = ro ]; then
        mount -o remount,bind,ro "$2"
    fi
}
fs() {  # fs TYPE TARGET [OPTIONS]
    mkdir -p "$2"
    mount -t "$1" -o "${3:-defaults}" "$1" "$2"
    MOUNTED="$2 $MOUNTED"
}
fs proc "$ROOT/proc"
fs sysfs "$ROOT/sys" ro
bind /dev "$ROOT/dev"
bind /dev/pts "$ROOT/dev/pts"
fs tmpfs "$ROOT/run" mode=0755
fs tmpfs "$ROOT/tmp" mode=1777
if [ -n "${PI_CACHE:-}" ]; then
    mkdir -p "$PI_CACHE/apt" "$PI_CACHE/pip"
    bind "$PI_CACHE/apt" "$ROOT/var/cache/apt/archives"
    bind "$PI_CACHE/pip" "$ROOT/root/.cache/pip"
fi
RESOLV_SAVED=""
if [ -e "$ROOT/etc/resolv.conf" ] || [ -L "$ROOT/etc/resolv.conf" ]; then
    RESOLV_SAVED="$ROOT/etc/resolv.conf.pi-chroot"
    mv "$ROOT/etc/resolv.conf" "$RESOLV_SAVED"
fi
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
CA=""
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/run/host-ca-certificates.crt"  # /run: a tmpfs
    CA=/run/host-ca-certificates.crt
fi
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
status=0
chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=dumb ${CA:+PIP_CERT=$CA SSL_CERT_FILE=$CA} "$@" || status=$?
exit "$status"
