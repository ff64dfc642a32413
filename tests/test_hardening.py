"""The deployed box: the hardened systemd unit, power-off through polkit, pinned dependencies.

``systemd-analyze security --offline`` rates the unit where systemd-analyze exists
(scripts/system-deps.sh installs it; the test skips, saying why, where it is missing).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
UNIT = SCRIPTS / "companion.service"
TARGET = 3.0  # "OK" in systemd-analyze's words; today's exposure is in docs/dev/faults.md


def unit_settings() -> dict[str, list[str]]:
    """Every ``Key=value`` of the [Service] section, repeated keys kept in order."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def exposure(unit: Path) -> float:
    proc = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager",
                           str(unit)], capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", proc.stdout + proc.stderr)
    assert found, proc.stdout[-2000:] + proc.stderr[-2000:]
    return float(found.group(1))


needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed "
                                          "(scripts/system-deps.sh installs Debian's systemd)")


@needs_analyze
def test_systemd_analyze_rates_the_unit_ok(tmp_path):
    assert exposure(UNIT) <= TARGET


@needs_analyze
def test_the_rating_can_fail(tmp_path):
    """The same check on the unit without its hardening: the 'EXPOSED' the issue measured."""
    bare = [line for line in UNIT.read_text().splitlines()
            if not re.match(r"(NoNewPrivileges|CapabilityBoundingSet|Protect|Private|Restrict|"
                            r"SystemCall|DevicePolicy|DeviceAllow|IPAddress|UMask|Lock|"
                            r"MemoryDeny|RemoveIPC|KeyringMode|AmbientCapabilities)", line)]
    (tmp_path / "companion.service").write_text("\n".join(bare) + "\n")
    assert exposure(tmp_path / "companion.service") > 8.0


def test_the_unit_keeps_what_the_table_needs():
    s = unit_settings()
    assert s["NoNewPrivileges"] == ["yes"] and s["CapabilityBoundingSet"] == [""]
    allowed = {v.split()[0] for v in s["DeviceAllow"]}
    # GPIO, I2C, the dice (USB, UART, Bluetooth serial), sound
    assert {"char-gpiochip", "char-i2c", "char-ttyACM", "char-ttyAMA", "char-ttyS",
            "char-rfcomm", "char-alsa"} <= allowed
    assert all(v.split()[1] == "rw" for v in s["DeviceAllow"])
    assert s["DevicePolicy"] == ["closed"] and "PrivateDevices" not in s
    # AF_NETLINK: the kernel's view of the interfaces (glibc's if_nameindex, getifaddrs)
    assert set(s["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6",
                                                            "AF_NETLINK"}
    assert "192.168.0.0/16" in s["IPAddressAllow"][0] and s["IPAddressDeny"] == ["any"]
    # the device groups are the user's own (setup-pi.sh): naming one the system lacks would
    # stop the service (tests/scripts/test_setup_pi.py)
    assert "SupplementaryGroups" not in s
    assert s["StateDirectory"] == ["companion"] and s["ProtectSystem"] == ["strict"]
    assert "ProcSubset" not in s  # gpiozero reads /proc/cpuinfo and /proc/device-tree
    assert s["UMask"] == ["0077"]
    assert s["User"] == ["companion"]


def test_power_off_needs_no_sudo():
    config = tomllib.loads((ROOT / "examples" / "companion.toml").read_text())
    assert config["service"]["shutdown_command"] == "systemctl poweroff"
    setup = (SCRIPTS / "setup-pi.sh").read_text()
    assert "scripts/50-companion.rules" in setup and "/etc/polkit-1/rules.d/" in setup
    assert "NOPASSWD" not in setup and "rm -f /etc/sudoers.d/companion" in setup


POLKIT_CHECK = """
const fs = require("fs");
const rules = [];
const polkit = {addRule: (f) => rules.push(f),
                Result: {YES: "yes", NO: "no", NOT_HANDLED: null}};
eval(fs.readFileSync(process.argv[1], "utf8"));
const ask = (user, id) => rules.map((f) => f({id}, {user})).find((r) => r) || null;
console.log(JSON.stringify([
  ask("companion", "org.freedesktop.login1.power-off"),
  ask("companion", "org.freedesktop.login1.power-off-multiple-sessions"),
  ask("companion", "org.freedesktop.login1.power-off-ignore-inhibit"),
  ask("companion", "org.freedesktop.login1.reboot"),
  ask("pi", "org.freedesktop.login1.power-off"),
]));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_polkit_rule_lets_only_the_service_power_off():
    proc = subprocess.run(["node", "-e", POLKIT_CHECK, str(SCRIPTS / "50-companion.rules")],
                          capture_output=True, text=True, timeout=60, check=True)
    assert proc.stdout.strip() == '["yes","yes",null,null,null]'


def lock() -> dict[str, tuple[str, int]]:
    """name -> (pinned version, number of hashes) of scripts/requirements-pi.txt."""
    out: dict[str, tuple[str, int]] = {}
    name = ""
    for line in (SCRIPTS / "requirements-pi.txt").read_text().splitlines():
        pin = re.match(r"([A-Za-z0-9_.-]+)==([^\s;\\]+)", line)
        if pin:
            name = pin.group(1).lower().replace("_", "-").replace(".", "-")
            out[name] = (pin.group(2), 0)
        elif "--hash=sha256:" in line:
            version, n = out[name]
            out[name] = (version, n + 1)
    return out


def test_every_dependency_of_the_service_is_pinned_with_hashes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = lock()
    for spec in project["dependencies"]:
        req = Requirement(spec)
        key = req.name.lower().replace("_", "-").replace(".", "-")
        assert key in pinned, f"{req.name} is not in scripts/requirements-pi.txt: run scripts/lock-pi.sh"
        version, hashes = pinned[key]
        assert req.specifier.contains(version), f"{req.name}=={version} does not meet {req}"
    assert all(n >= 1 for _, n in pinned.values()), pinned


def test_setup_installs_only_what_is_locked():
    setup = (SCRIPTS / "setup-pi.sh").read_text().replace("\\\n", " ")
    installs = [line for line in setup.splitlines() if "pip install" in line]
    assert installs
    for line in installs:
        assert ("--require-hashes" in line and "requirements-pi.txt" in line) or "--no-deps" in line, line


RESTRICTED = r"""
import ctypes, errno, socket, sys
lib = ctypes.CDLL("libseccomp.so.2")
lib.seccomp_init.restype = ctypes.c_void_p
class Cmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("a", ctypes.c_uint64), ("b", ctypes.c_uint64)]
ctx = lib.seccomp_init(ctypes.c_uint32(0x7FFF0000))  # allow the rest
nr = lib.seccomp_syscall_resolve_name(b"socket")
allowed = {getattr(socket, name) for name in sys.argv[1].split()}
for family in range(1, 46):  # as systemd's RestrictAddressFamilies: EAFNOSUPPORT
    if family not in allowed:
        cmp = Cmp(0, 4, family, 0)  # argument 0 == family
        assert lib.seccomp_rule_add_array(ctypes.c_void_p(ctx),
            ctypes.c_uint32(0x00050000 | errno.EAFNOSUPPORT), nr, 1, ctypes.byref(cmp)) == 0
assert lib.seccomp_load(ctypes.c_void_p(ctx)) == 0
try:
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    print("unrestricted")
except OSError as exc:
    assert exc.errno == errno.EAFNOSUPPORT, exc
from companion.web.server import lan_address
print(lan_address())
"""


@pytest.mark.parametrize("families", ["unit", "without AF_NETLINK"])
def test_the_qr_codes_lan_address_is_found_within_the_units_address_families(families):
    """The address families the unit allows, enforced as systemd does (a seccomp filter on
    socket()): the LAN address for the QR code is the one found without the filter, also
    where netlink is refused (the unit before AF_NETLINK was added carried 127.0.0.1)."""
    import ctypes.util
    import sys

    from companion.web.server import lan_address

    if ctypes.util.find_library("seccomp") is None:
        pytest.skip("libseccomp is not installed")
    free = lan_address()
    if free == "127.0.0.1":
        pytest.skip("this machine has no LAN address")
    allowed = unit_settings()["RestrictAddressFamilies"][0]
    if families != "unit":
        allowed = allowed.replace("AF_NETLINK", "")
    done = subprocess.run([sys.executable, "-c", RESTRICTED, allowed], capture_output=True,
                          text=True, timeout=60, cwd=SCRIPTS.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [free]
