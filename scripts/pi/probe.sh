#!/bin/sh
# pi-check's probe: runs inside the booted test copy of the card (never on a family's card:
# `make pi-check` writes it into its own copy, with pi-check-probe.service, and the kernel's
# command line asks for it: systemd.wants=pi-check-probe.service).  It reports on the serial
# console, one "PICHK key value" line each, what a person would look at; the checking is done
# by scripts/pi/vm.py on the host.  Every wait is bounded.
exec > /dev/console 2>&1
say() { echo "PICHK $*"; }
UNIT=companion.service
JOURNAL=/var/lib/companion/game.journal

say probe $(cat /proc/sys/kernel/random/boot_id)
i=0
until [ "$(systemctl is-active multi-user.target)" = active ] || [ $i -ge 1200 ]; do
    sleep 1; i=$((i + 1))
done
say multi-user $(systemctl is-active multi-user.target) \
    $(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target)
[ "$(systemctl is-active multi-user.target)" = active ] || systemctl list-jobs --no-pager | sed 's/^/PICHK job /'
i=0
until systemctl is-active -q $UNIT || [ $i -ge 600 ]; do
    sleep 1; i=$((i + 1))
done
say companion $(systemctl is-active $UNIT) $(systemctl show -p ActiveEnterTimestampMonotonic --value $UNIT)
systemctl show $UNIT -p FragmentPath -p DropInPaths -p User -p WorkingDirectory -p StateDirectory \
    -p ProtectSystem -p DevicePolicy -p DeviceAllow -p NoNewPrivileges -p NRestarts \
    | sed 's/^/PICHK prop /'
say unit-sha256 $(sha256sum < /etc/systemd/system/$UNIT | cut -d' ' -f1)
pid=$(systemctl show -p MainPID --value $UNIT)
grep -E '^(Uid|Gid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):' /proc/$pid/status | sed 's/^/PICHK status /'
say cwd $(readlink /proc/$pid/cwd)
say groups $(for g in $(sed -n 's/^Groups:\s*//p' /proc/$pid/status); do getent group $g | cut -d: -f1; done)
awk '$5 == "/" || $5 == "/var/lib/companion" || $5 == "/etc" || $5 == "/dev" { print "PICHK mount " $5 " " $6 }' \
    /proc/$pid/mountinfo
say security $(systemd-analyze security --no-pager $UNIT 2>&1 | grep -o 'Overall exposure level.*')
# the LAN address the QR code carries, looked up as the service does, as its user and within
# the unit's address families (the unit once lacked AF_NETLINK and the code said 127.0.0.1)
say lan $(timeout 60 systemd-run --wait --pipe --quiet -p User=companion \
    -p "RestrictAddressFamilies=$(systemctl show -p RestrictAddressFamilies --value $UNIT)" \
    /opt/companion/venv/bin/python -c 'from companion.web.server import lan_address; print(lan_address())' \
    2>/dev/null | tail -1 || echo failed)
say root-uuid $(findmnt -no UUID /)
say config-sha256 $(sha256sum < /etc/companion/companion.toml | cut -d' ' -f1)
say wifi $(stat -c '%a %U' /etc/wpa_supplicant/companion-wifi.conf 2>/dev/null || echo none) \
    $(grep -c '^[[:space:]]psk=[0-9a-f]\{64\}$' /etc/wpa_supplicant/companion-wifi.conf 2>/dev/null)
journalctl -b -u companion-import.service -o cat --no-pager | sed 's/^/PICHK import /'
say failed-units $(systemctl --failed --no-legend --plain | cut -d' ' -f1)
say time $(systemd-analyze time 2>&1 | head -1)

# the service's log and its game journal as they change, for an hour at most
journalctl -b -u $UNIT -o short-monotonic -f --no-pager | sed -u 's/^/PICHK log /' &
last=""
i=0
while [ $i -lt 7200 ]; do
    now=$(stat -c '%s %Y %i' $JOURNAL 2>/dev/null)
    if [ "$now" != "$last" ]; then
        last=$now
        say journal-begin $now
        sed 's/^/PICHK J /' $JOURNAL
        say journal-end
    fi
    sleep 0.5
    i=$((i + 1))
done
