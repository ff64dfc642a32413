"""A fake Raspberry Pi root file system for the interface checks: /proc/device-tree as the
kernel lays it out (a folder per node, a file per property, big-endian cells, NUL-ended
strings), /proc/cmdline and /dev links.

The nodes and pin groups follow the Raspberry Pi kernel's device trees: on a Pi 4 the
BCM2711 GPIO controller's groups (``uart1_gpio14``: ``brcm,pins = <14 15>``, SPI0 on
9-11 with chip selects on 8 and 7 as ``cs-gpios``, ``i2s_alt0`` on 18-21, ``i2c1`` on 2
and 3) and the devices that point at them through ``pinctrl-0``; on a Pi 5 the RP1's
groups, written with ``function``/``pins = "gpio14"`` sub-nodes.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

GPIO = 0x10  # the phandle of the GPIO controller


def cells(*values: int) -> bytes:
    return struct.pack(">" + "I" * len(values), *values)


def strings(*values: str) -> bytes:
    return b"".join(v.encode() + b"\0" for v in values)


def node(root: Path, path: str, **props: bytes) -> Path:
    folder = root / "proc" / "device-tree" / path.strip("/")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "name").write_bytes(strings(folder.name.split("@")[0]))
    for name, data in props.items():
        (folder / name.replace("_", "-").replace("brcm-", "brcm,")).write_bytes(data)
    return folder


def okay(on: bool) -> bytes:
    return strings("okay" if on else "disabled")


def pi4(root: Path, *, uart: bool = False, spi: bool = False, i2s: bool = False,
        sdmode: bool = False, i2c: bool = True, console: bool = False) -> Path:
    """A Pi 4 with the interfaces asked for enabled; returns ``root``."""
    node(root, "/", model=strings("Raspberry Pi 4 Model B Rev 1.4"),
         compatible=strings("raspberrypi,4-model-b", "brcm,bcm2711"))
    node(root, "/soc/gpio@7e200000", compatible=strings("brcm,bcm2711-gpio"),
         gpio_controller=b"", phandle=cells(GPIO))
    groups = {"uart1_gpio14": (0x20, (14, 15)), "uart0_gpio32": (0x21, (32, 33)),
              "spi0_pins": (0x22, (9, 10, 11)), "spi0_cs_pins": (0x23, (8, 7)),
              "i2s_alt0": (0x24, (18, 19, 20, 21)), "i2c1_pins": (0x25, (2, 3))}
    for name, (handle, pins) in groups.items():
        node(root, f"/soc/gpio@7e200000/{name}", brcm_pins=cells(*pins), phandle=cells(handle))
    node(root, "/soc/serial@7e201000", status=okay(True), pinctrl_0=cells(0x21),
         compatible=strings("arm,pl011"))  # Bluetooth's UART: GPIO 32/33, off the header
    node(root, "/soc/serial@7e215040", status=okay(uart), pinctrl_0=cells(0x20),
         compatible=strings("brcm,bcm2835-aux-uart"))
    node(root, "/soc/spi@7e204000", status=okay(spi), pinctrl_0=cells(0x22, 0x23),
         cs_gpios=cells(GPIO, 8, 1, GPIO, 7, 1), compatible=strings("brcm,bcm2835-spi"))
    node(root, "/soc/spi@7e204000/spidev@0", status=okay(True), compatible=strings("spidev"))
    node(root, "/soc/i2s@7e203000", status=okay(i2s), pinctrl_0=cells(0x24),
         compatible=strings("brcm,bcm2835-i2s"))
    node(root, "/soc/i2c@7e804000", status=okay(i2c), pinctrl_0=cells(0x25),
         compatible=strings("brcm,bcm2835-i2c"))
    if i2s:
        extra = {"sdmode_gpios": cells(GPIO, 4, 0)} if sdmode else {}
        node(root, "/max98357a", compatible=strings("maxim,max98357a"), status=okay(True),
             **extra)
    node(root, "/leds/led-act", gpios=cells(GPIO, 42, 0), compatible=strings("gpio-leds"))
    (root / "proc" / "cmdline").write_text(
        ("console=serial0,115200 " if console else "") + "console=tty1 root=PARTUUID=1 rw\n")
    dev = root / "dev"
    dev.mkdir(exist_ok=True)
    if uart:
        (dev / "ttyS0").write_text("")
        os.symlink("ttyS0", dev / "serial0")
    return root


def pi5(root: Path, *, uart0: bool = False) -> Path:
    """A Pi 5: GPIO14/15 are the RP1's UART0 (``dtparam=uart0=on``), /dev/serial0 the debug
    connector (ttyAMA10)."""
    node(root, "/", model=strings("Raspberry Pi 5 Model B Rev 1.0"),
         compatible=strings("raspberrypi,5-model-b", "brcm,bcm2712"))
    rp1 = "/axi/pcie@120000/rp1"
    node(root, f"{rp1}/gpio@d0000", compatible=strings("raspberrypi,rp1-gpio"),
         gpio_controller=b"", phandle=cells(GPIO))
    node(root, f"{rp1}/gpio@d0000/rp1_uart0_14_15", phandle=cells(0x31))
    node(root, f"{rp1}/gpio@d0000/rp1_uart0_14_15/pin_txd", function=strings("uart0"),
         pins=strings("gpio14"))
    node(root, f"{rp1}/gpio@d0000/rp1_uart0_14_15/pin_rxd", function=strings("uart0"),
         pins=strings("gpio15"))
    node(root, f"{rp1}/gpio@d0000/rp1_spi0_gpio9", phandle=cells(0x32), function=strings("spi0"),
         pins=strings("gpio9", "gpio10", "gpio11"))
    node(root, f"{rp1}/serial@30000", status=okay(uart0), pinctrl_0=cells(0x31),
         compatible=strings("arm,pl011-axi"))
    node(root, f"{rp1}/spi@50000", status=okay(False), pinctrl_0=cells(0x32),
         compatible=strings("snps,dw-apb-ssi"))
    (root / "proc" / "cmdline").write_text("console=ttyAMA10,115200 console=tty1\n")
    dev = root / "dev"
    dev.mkdir(exist_ok=True)
    (dev / "ttyAMA10").write_text("")
    (dev / "ttyAMA0").write_text("")
    os.symlink("ttyAMA10", dev / "serial0")
    return root
