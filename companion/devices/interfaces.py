"""The Pi's own interfaces (UART, SPI, I2C, I2S...), read from the device tree: which header
pins each enabled one has taken, so that a pad, a button or the buzzer is never put on one.

The kernel publishes the device tree it booted with under ``/proc/device-tree`` (readable by
every user).  A device node whose ``status`` is ``okay`` (or absent) is enabled; the pins it
uses are the ones its ``pinctrl-0`` groups name (``brcm,pins`` on the BCM283x/BCM2711 GPIO
controller, ``pins = "gpio14"`` on the Pi 5's RP1) and the GPIOs its ``*-gpios`` properties
point at (SPI's chip selects, an I2S amplifier's ``sdmode-gpios``).  Only the header's GPIO
controller counts (GPIO 0-27), and the controller's own groups are not a device.

A TTP223 module's output is push-pull: on a pin the UART or SPI drives, the two outputs fight.
:func:`conflicts` names every layout line on a pin an enabled interface has taken, except the
interfaces a line expects (the display's I2C, the amplifier's I2S, the UART of the dice or the
pad hub).  :func:`serial_problems` checks the serial line of a UART-wired board: not the kernel
console, not the Pi 5's debug connector.

Nothing here needs a Pi: every function takes the root of the file system (``/`` on the box,
a folder of fakes in tests); where there is no device tree there are no claims.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HEADER_GPIOS = range(28)
GPIO_CONTROLLERS = ("brcm,bcm2835-gpio", "brcm,bcm2711-gpio", "brcm,bcm7211-gpio",
                    "raspberrypi,rp1-gpio")
"""The ``compatible`` strings of the GPIO controller that owns the 40-pin header."""


@dataclass(frozen=True)
class Claim:
    """GPIO ``pin`` taken by the enabled device-tree node ``node``."""

    pin: int
    node: str
    kind: str
    """"uart", "spi", "i2c", "i2s", "pwm", "1-wire" or "" (another device)."""

    @property
    def interface(self) -> str:
        return INTERFACE_NAMES.get(self.kind, f"the device {self.node.rsplit('/', 1)[-1]}")


INTERFACE_NAMES = {"uart": "the serial port (UART)", "spi": "SPI", "i2c": "I2C",
                   "i2s": "I2S audio", "pwm": "hardware PWM", "1-wire": "1-Wire"}
HOW_TO_TURN_OFF = {
    "uart": "turn the serial port off (sudo raspi-config nonint do_serial_hw 1) and reboot",
    "spi": "remove dtparam=spi=on from /boot/firmware/config.txt and reboot",
    "i2c": "the display needs I2C on GPIO2/3 only: move the part off GPIO2/3",
    "i2s": ("remove the I2S overlay (dtoverlay=max98357a) from /boot/firmware/config.txt and "
            "reboot, or set voice.i2s = true so the buzzer and the menu button move"),
    "pwm": "remove the pwm overlay from /boot/firmware/config.txt and reboot",
    "1-wire": "remove the w1-gpio overlay from /boot/firmware/config.txt and reboot",
}
EXPECTED = {"display.": "i2c", "audio_i2s.": "i2s", "dice_uart.": "uart", "padhub_uart.": "uart"}
"""Layout lines that belong to an interface: theirs is no conflict."""


def _kind(node: str, compatible: str) -> str:
    name = node.rsplit("/", 1)[-1].split("@")[0]
    if name in ("serial", "uart") or "uart" in compatible:
        return "uart"
    if name == "spi" or ",spi" in compatible:
        return "spi"
    if name == "i2c" or "i2c" in compatible:
        return "i2c"
    if name in ("i2s", "max98357a") or "i2s" in compatible or "max98357" in compatible:
        return "i2s"
    if name == "pwm" or ",pwm" in compatible:
        return "pwm"
    if "w1" in name or "w1-gpio" in compatible:
        return "1-wire"
    return ""


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _strings(data: bytes | None) -> list[str]:
    return [s.decode("ascii", "replace") for s in (data or b"").split(b"\0") if s]


def _cells(data: bytes | None) -> list[int]:
    data = data or b""
    return [int.from_bytes(data[i:i + 4], "big") for i in range(0, len(data) - len(data) % 4, 4)]


@dataclass
class _Node:
    path: str
    folder: Path
    names: frozenset[str]
    parent: _Node | None
    _props: dict[str, bytes | None] | None = None

    def prop(self, name: str) -> bytes | None:
        """A property's bytes (read once, only when asked: a Pi's tree has thousands)."""
        if self._props is None:
            self._props = {}
        if name not in self._props:
            self._props[name] = _read(self.folder / name) if name in self.names else None
        return self._props[name]

    @property
    def enabled(self) -> bool:
        node: _Node | None = self
        while node is not None:
            status = _strings(node.prop("status"))
            if status and status[0] not in ("okay", "ok"):
                return False
            node = node.parent
        return True


def _walk(root: Path) -> list[_Node]:
    """Every node of the tree, listed (one directory read each); properties are read later."""
    base = root / "proc" / "device-tree"
    if not base.is_dir():
        return []
    nodes: list[_Node] = []
    stack: list[tuple[Path, str, _Node | None]] = [(base, "", None)]
    while stack:
        folder, path, parent = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        names = frozenset(e.name for e in entries if not e.is_dir(follow_symlinks=False))
        node = _Node(path or "/", folder, names, parent)
        nodes.append(node)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append((Path(entry.path), f"{path}/{entry.name}", node))
    return nodes


def _pins_of_group(group: _Node, below: list[_Node]) -> set[int]:
    """The header GPIOs a pin-control group (with its sub-nodes ``below``) names."""
    pins: set[int] = set()
    for node in [group, *below]:
        pins.update(_cells(node.prop("brcm,pins")))
        for text in _strings(node.prop("pins")):
            if text.startswith("gpio") and text[4:].isdigit():
                pins.add(int(text[4:]))
    return {p for p in pins if p in HEADER_GPIOS}


def claims(root: Path | str = "/") -> list[Claim]:
    """Every header GPIO an enabled device-tree node has taken (empty without a device tree)."""
    nodes = _walk(Path(root))
    controllers = [n for n in nodes if "gpio-controller" in n.names and
                   any(c in GPIO_CONTROLLERS for c in _strings(n.prop("compatible")))]
    if not controllers:
        return []
    controller_handles = {h for c in controllers for h in _cells(c.prop("phandle"))}
    prefixes = tuple(c.path + "/" for c in controllers)
    inside = [n for n in nodes if n.path.startswith(prefixes)]
    skip = {n.path for n in inside} | {c.path for c in controllers}
    groups: dict[int, set[int]] = {}
    for group in inside:
        if "phandle" in group.names:
            below = [n for n in inside if n.path.startswith(group.path + "/")]
            for handle in _cells(group.prop("phandle")):
                groups[handle] = _pins_of_group(group, below)
    out: list[Claim] = []
    seen: set[tuple[int, str]] = set()
    for node in nodes:
        gpio_props = [n for n in node.names if n == "gpios" or n.endswith("-gpios")]
        if node.path in skip or ("pinctrl-0" not in node.names and not gpio_props):
            continue
        if not node.enabled:
            continue
        pins: set[int] = set()
        for handle in _cells(node.prop("pinctrl-0")):
            pins |= groups.get(handle, set())
        for prop in gpio_props:
            cells = _cells(node.prop(prop))
            for i in range(0, len(cells) - 2, 3):  # <&gpio pin flags>
                if cells[i] in controller_handles and cells[i + 1] in HEADER_GPIOS:
                    pins.add(cells[i + 1])
        if not pins:
            continue
        kind = _kind(node.path, " ".join(_strings(node.prop("compatible"))))
        for pin in sorted(pins):
            if (pin, node.path) not in seen:
                seen.add((pin, node.path))
                out.append(Claim(pin, node.path, kind))
    return out


def conflicts(used: dict[str, int], taken: list[Claim]) -> list[str]:
    """One sentence per layout line (``name -> GPIO``) on a pin an enabled interface has taken
    that the line does not expect."""
    from companion.devices.header import BCM_TO_PHYSICAL

    by_pin: dict[int, list[Claim]] = {}
    for claim in taken:
        by_pin.setdefault(claim.pin, []).append(claim)
    out = []
    for name, pin in sorted(used.items(), key=lambda kv: kv[1]):
        expected = next((kind for prefix, kind in EXPECTED.items() if name.startswith(prefix)), None)
        for claim in by_pin.get(pin, []):
            if claim.kind == expected:
                continue
            how = HOW_TO_TURN_OFF.get(claim.kind, "remove the overlay that enables it and reboot")
            out.append(f"{describe(name)} is on GPIO{pin} (header pin {BCM_TO_PHYSICAL[pin]}), "
                       f"which {claim.interface} has taken ({claim.node} in the device tree): "
                       f"{how}.")
            break
    return out


def describe(name: str) -> str:
    """A layout line for a person: ``pads.4.2>g`` -> ``Pad 2>g``."""
    if name.startswith("pads."):
        return f"Pad {name.split('.', 2)[2]}"
    if name == "buzzer":
        return "The buzzer"
    section, _, key = name.partition(".")
    if section in ("buttons", "buttons_extra"):
        return f"The {key} button"
    return f"{section.replace('_', ' ').capitalize()} {key}"


def interface_enabled(kind: str, taken: list[Claim]) -> bool:
    return any(c.kind == kind for c in taken)


def model(root: Path | str = "/") -> str:
    """The Pi's model from the device tree ("" when unknown)."""
    data = _read(Path(root) / "proc" / "device-tree" / "model")
    return data.split(b"\0")[0].decode("ascii", "replace") if data else ""


def serial_problems(port: str, what: str, root: Path | str = "/") -> list[str]:
    """Why ``port`` (a board's serial line, ``what`` names it) cannot carry the board: the
    kernel's console on it, or a Pi 5's debug connector behind ``/dev/serial0``."""
    base = Path(root)
    real = _device_name(base, port)
    if real is None or not real.startswith(("ttyS", "ttyAMA")):
        return []  # a USB serial port or a pty: none of the Pi's UARTs
    out = []
    cmdline = _read(base / "proc" / "cmdline") or b""
    for word in cmdline.decode("ascii", "replace").split():
        if word.startswith("console="):
            console = word[len("console="):].split(",")[0]
            if _device_name(base, f"/dev/{console}") == real:
                out.append(f"The Linux console is on {port}, where {what} is wired: turn the "
                           "serial console off (sudo raspi-config nonint do_serial_cons 1) and "
                           "reboot.")
    if "Raspberry Pi 5" in model(base) and real == "ttyAMA10":
        out.append(f"On a Raspberry Pi 5, {port} is the debug connector, not GPIO14/15: use "
                   "/dev/ttyAMA0 for " + what + " and enable it (dtparam=uart0=on).")
    return out


def _device_name(root: Path, port: str) -> str | None:
    """The name of the device ``port`` (a path under /dev) finally is, symlinks followed
    inside ``root``."""
    if not port.startswith("/dev/"):
        return None
    path = root / port.lstrip("/")
    for _ in range(8):
        if not path.is_symlink():
            break
        target = Path(os.readlink(path))
        path = target if target.is_absolute() and str(target).startswith(str(root)) else (
            root / str(target).lstrip("/") if target.is_absolute() else path.parent / target)
    return path.name
