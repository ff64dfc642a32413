"""The Pi's own interfaces set up for one table: ``scripts/setup-pi.sh``'s profiles.

A profile is what one kind of wiring needs from the Pi's boot files and from the
configuration (hardware/guide/build.md, hardware/guide/audio.md, hardware/guide/pads.md):

* ``gpio-pads``: a game played with the slap pads, for four seats on GPIO touch pads.  The pads sit on GPIO14/15 (the
  UART) and GPIO7-11 (SPI0), and a TTP223's output is push-pull, so SPI and the UART are
  switched off and the serial console leaves the kernel's command line.
* ``uart-dice`` / ``uart-padhub``: our dice or the pad hub on GPIO14/15.  The UART on
  (``enable_uart=1``; on a Pi 5 ``dtparam=uart0=on``, and the port is ``/dev/ttyAMA0``,
  since ``/dev/serial0`` is its debug connector there), the serial console off, and the
  board's port written into the configuration.
* ``i2s``: the MAX98357A amplifier on the PCM pins: ``dtoverlay=max98357a,no-sdmode`` (without
  ``no-sdmode`` the overlay also takes GPIO4 for a pin the breakout leaves unwired), the
  on-board audio off so the amplifier is ALSA's first card, and ``voice.i2s = true``, which
  moves the buzzer and the menu button off GPIO18/19 (``[audio_i2s_moves]`` of the pin map).
* ``bonnet``: the no-solder box (hardware/no-solder.md): Adafruit's 128x64 OLED Bonnet on the
  header (its joystick and buttons A and B are the five controls, ``buttons.board``), no
  buzzer (the beeps come from the speaker), a USB speaker for the voice (the on-board audio
  off, so the speaker is ALSA's first card), a Pixels die (or the buttons), and the slap pads
  on MPR121 touch controllers sharing the display's I2C bus, run at 400 kHz.

The lines go into one block of their own, marked at both ends, which is rewritten as a whole:
running the same profiles again changes nothing, and other profiles replace the block's lines.
On Raspberry Pi OS the block ends ``/boot/firmware/config.txt`` (after an ``[all]``: the
last value of a setting wins) and the console is taken out of ``cmdline.txt``; on plain
Debian, whose ``raspi-firmware`` writes both files from ``/etc/default``, the block goes into
``/etc/default/raspi-firmware-custom`` (config.txt) and ``/etc/default/raspi-firmware``
(``CONSOLES``), and setup-pi.sh runs Debian's hook to write them.  Debian's own kernel boots
its mainline device trees without Raspberry Pi's overlays, so there the UART on GPIO14/15
cannot be switched off and no MAX98357A overlay exists: ``gpio-pads`` and ``i2s`` refuse with
one sentence.

``python -m companion.service.pi_profiles`` is what setup-pi.sh runs; every path is under
``--root``, so the tests run it on folders of fakes.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.devices.interfaces import model as pi_model
from companion.plugin import GamePlugin, starting_game
from companion.service.config import Config, ConfigError, from_dict, load

PROFILES = ("gpio-pads", "uart-dice", "uart-padhub", "i2s", "bonnet")
BONNET_SETTINGS: dict[str, dict[str, Any]] = {
    "buttons": {"board": "bonnet", "layout": 5},
    "service": {"buzzer": False},
    "dice": {"kind": "pixels"},
    "pads": {"frontend": "mpr121"},
}
"""What the ``bonnet`` profile sets in the configuration (section -> key -> value): one
source for setup-pi.sh and ``companion sim --profile bonnet``."""
PI_UARTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0", "/dev/ttyS1")
"""Serial ports that are the Pi's UART on GPIO14/15 (Raspberry Pi OS's and Debian's names)."""
UART_CONSOLES = ("serial0", "ttyS0", "ttyS1", "ttyAMA0")
"""Kernel consoles on GPIO14/15 (on a Pi 5 ``serial0`` is the debug connector: kept there)."""
BEGIN = "# companion: setup-pi.sh profiles {names} (setup-pi.sh rewrites these lines)"
END = "# companion: end of setup-pi.sh's profiles"


class ProfileError(ValueError):
    """Profiles that cannot be set up here; the message is one sentence."""


@dataclass(frozen=True)
class System:
    """Where the profiles are written: ``root`` ("/" on the Pi), the OS kind and the model."""

    root: Path
    raspios: bool  # Raspberry Pi OS (its own kernel and overlays) or plain Debian
    model: str  # /proc/device-tree/model, "" when unknown
    boot: str = "boot/firmware"  # the FAT partition, relative to root

    @property
    def pi5(self) -> bool:
        return "Raspberry Pi 5" in self.model

    @property
    def uart_port(self) -> str:
        """The device of the UART on GPIO14/15."""
        if not self.raspios:
            return "/dev/ttyS1"  # Debian's kernel on a Pi 3, 4 or Zero 2 W (no serial0 link)
        return "/dev/ttyAMA0" if self.pi5 else "/dev/serial0"


def from_config(cfg: Config, games: Sequence[GamePlugin] = ()) -> list[str]:
    """The profiles a configuration's wiring needs (``games``: the games it may start with;
    the pads are wired for a game played with them)."""
    out = []
    padded = bool(games) and starting_game(games, cfg.game.name).uses_pads
    if padded and cfg.pads.frontend == "gpio" and cfg.game.seats == 4:
        out.append("gpio-pads")
    if cfg.dice.kind == "serial" and cfg.dice.port in PI_UARTS:
        out.append("uart-dice")
    if cfg.pads.frontend == "hub" and cfg.pads.hub_port in PI_UARTS:
        out.append("uart-padhub")
    if cfg.voice.i2s:
        out.append("i2s")
    if cfg.buttons.bonnet:
        out.append("bonnet")
    return out


def with_bonnet(cfg: Config) -> Config:
    """``cfg`` as the ``bonnet`` profile leaves it (:data:`BONNET_SETTINGS`)."""
    changes = {section: replace(getattr(cfg, section), **values)
               for section, values in BONNET_SETTINGS.items()}
    return replace(cfg, **changes)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def check(profiles: list[str], system: System) -> None:
    """One sentence when the profiles do not go together or cannot be set up on this system."""
    for name in profiles:
        if name not in PROFILES:
            raise ProfileError(f"There is no profile {name!r}; the profiles are "
                               f"{', '.join(PROFILES)} (or none).")
    chosen = set(profiles)
    if "gpio-pads" in chosen and chosen & {"uart-dice", "uart-padhub"}:
        raise ProfileError("Four seats of GPIO pads take GPIO14/15, the UART's pins: put the "
                           "dice or the pad hub on USB, or use the pad hub for the pads.")
    if {"uart-dice", "uart-padhub"} <= chosen:
        raise ProfileError("The dice and the pad hub cannot share the Pi's one UART: put one "
                           "of them on USB.")
    if {"gpio-pads", "bonnet"} <= chosen:
        raise ProfileError("The OLED Bonnet's joystick sits on GPIO 4, 17, 22, 23 and 27, where "
                           "four seats of GPIO pads are: use MPR121 pads with the bonnet.")
    if {"gpio-pads", "i2s"} <= chosen:
        raise ProfileError("Four seats of GPIO pads use GPIO 12, 16, 19, 20 and 21, which the I2S "
                           "amplifier needs: speak through a USB speaker instead (hardware/guide/audio.md).")
    if not system.raspios and "gpio-pads" in chosen:
        raise ProfileError("Debian's own kernel keeps the UART on GPIO14/15, where four seats of "
                           "GPIO pads sit, and has no overlay to turn it off: use Raspberry Pi OS "
                           "or the pad hub.")
    if not system.raspios and "i2s" in chosen:
        raise ProfileError("Debian's own kernel has no overlay for the MAX98357A amplifier: use "
                           "Raspberry Pi OS or a USB speaker (hardware/guide/audio.md).")


def firmware_lines(profiles: list[str], system: System) -> list[str]:
    """config.txt's lines for the profiles (on plain Debian the UART is always on already)."""
    lines: list[str] = []
    chosen = set(profiles)
    if "gpio-pads" in chosen:
        lines += ["dtparam=spi=off", "enable_uart=0"]
        if system.pi5:
            lines.append("dtparam=uart0=off")
    if chosen & {"uart-dice", "uart-padhub"}:
        lines.append("enable_uart=1")
        if system.pi5:
            lines.append("dtparam=uart0=on")
    if "i2s" in chosen:
        lines += ["dtoverlay=max98357a,no-sdmode", "dtparam=audio=off"]
    if "bonnet" in chosen:
        # the display and the MPR121 pads share I2C-1: a frame's chunk holds a pad read up
        # four times less at 400 kHz; both chips take fast mode
        lines.append("dtparam=i2c_arm_baudrate=400000")
        if "i2s" not in chosen:
            lines.append("dtparam=audio=off")  # the USB speaker is ALSA's first card
    return lines


def console_off(profiles: list[str]) -> bool:
    return bool(set(profiles) & {"gpio-pads", "uart-dice", "uart-padhub"})


def with_block(text: str, names: list[str], lines: list[str], opener: str = "") -> str:
    """``text`` with the profiles' block (``opener`` first, then ``lines``) at its end, an
    earlier block taken out; no lines: no block."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith(BEGIN.split("{", 1)[0]):
            inside = True
        elif inside and line == END:
            inside = False
        elif not inside:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    if lines:
        if kept:
            kept.append("")
        kept += [BEGIN.format(names=" ".join(names)), *([opener] if opener else []), *lines, END]
    return "\n".join(kept) + "\n" if kept else ""


def without_uart_console(cmdline: str, pi5: bool) -> str:
    """The kernel's command line without a console on GPIO14/15."""
    words = cmdline.split()
    on_uart = {c for c in UART_CONSOLES if not (pi5 and c == "serial0")}
    kept = [w for w in words if not (w.startswith("console=")
                                      and w[len("console="):].split(",")[0] in on_uart)]
    return " ".join(kept) + "\n" if kept != words else cmdline


def set_toml(text: str, section: str, key: str, literal: str) -> str:
    """``text`` (a TOML file with plain ``[section]`` tables) with ``section.key = literal``:
    the line replaced in place (its comment kept), or added at the section's end, or the
    section added at the end of the file."""
    lines = text.splitlines()
    header = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
    assignment = re.compile(rf"^(\s*{re.escape(key)}\s*=\s*)(\"[^\"]*\"|[^#\s]+)(.*)$")
    current = ""
    section_at = end_of_section = -1
    for i, line in enumerate(lines):
        m = header.match(line)
        if m:
            current = m.group(1).strip()
            if current == section:
                section_at = end_of_section = i
            continue
        if current == section:
            a = assignment.match(line)
            if a:
                lines[i] = a.group(1) + literal + a.group(3)
                return "\n".join(lines) + "\n"
            if line.strip():
                end_of_section = i
    if section_at >= 0:
        lines.insert(end_of_section + 1, f"{key} = {literal}")
    else:
        while lines and not lines[-1].strip():
            lines.pop()
        lines += ["", f"[{section}]", f"{key} = {literal}"]
    return "\n".join(lines) + "\n"


def config_changes(profiles: list[str], system: System) -> list[tuple[str, str, str]]:
    """(section, key, TOML literal) the profiles write into companion.toml."""
    chosen = set(profiles)
    port = f'"{system.uart_port}"'
    out: list[tuple[str, str, str]] = []
    if "gpio-pads" in chosen:
        out.append(("pads", "frontend", '"gpio"'))
    if "uart-dice" in chosen:
        out += [("dice", "kind", '"serial"'), ("dice", "port", port)]
    if "uart-padhub" in chosen:
        out += [("pads", "frontend", '"hub"'), ("pads", "hub_port", port)]
    if "i2s" in chosen:
        out.append(("voice", "i2s", "true"))
    if "bonnet" in chosen:
        out += [(section, key, _literal(value)) for section, values in BONNET_SETTINGS.items()
                for key, value in values.items()]
    return out


def _write(path: Path, text: str, changed: list[str], what: str) -> None:
    old = path.read_text() if path.exists() else ""
    if text != old:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        changed.append(what)


def apply(system: System, profiles: list[str], config: Path,
          games: Sequence[GamePlugin] = ()) -> list[str]:
    """Writes the profiles' boot lines and configuration; returns what changed (file names)."""
    check(profiles, system)
    names = sorted(set(profiles), key=PROFILES.index)
    root = system.root
    changed: list[str] = []
    lines = firmware_lines(names, system)
    if system.raspios:
        config_txt = root / system.boot / "config.txt"
        _write(config_txt, with_block(config_txt.read_text() if config_txt.exists() else "",
                                      names, lines, opener="[all]"), changed, "config.txt")
        cmdline = root / system.boot / "cmdline.txt"
        if console_off(names) and cmdline.exists():
            _write(cmdline, without_uart_console(cmdline.read_text(), system.pi5), changed,
                   "cmdline.txt")
    else:
        custom = root / "etc/default/raspi-firmware-custom"
        _write(custom, with_block(custom.read_text() if custom.exists() else "", names, lines),
               changed, "/etc/default/raspi-firmware-custom")
        default = root / "etc/default/raspi-firmware"
        consoles = ['CONSOLES="tty0"'] if console_off(names) else []
        _write(default, with_block(default.read_text() if default.exists() else "", names,
                                   consoles), changed, "/etc/default/raspi-firmware")
    text = config.read_text()
    for section, key, literal in config_changes(names, system):
        text = set_toml(text, section, key, literal)
    if text != config.read_text():
        try:
            from_dict(tomllib.loads(text), str(config), games)
        except (ConfigError, tomllib.TOMLDecodeError) as exc:
            raise ProfileError(f"With the profiles, {config} would not be accepted: {exc}") from None
        config.write_text(text)
        changed.append(str(config))
    return changed


def main(argv: list[str] | None = None, games: Sequence[GamePlugin] = ()) -> int:
    """setup-pi.sh's command (``python -m companion.commands.pi_profiles``, which hands the
    games in)."""
    parser = argparse.ArgumentParser(prog="python -m companion.commands.pi_profiles",
                                     description="setup-pi.sh's profiles for the Pi's interfaces.")
    parser.add_argument("--root", default="/")
    parser.add_argument("--boot", default="boot/firmware")
    parser.add_argument("--os", choices=("raspios", "debian"), required=True)
    parser.add_argument("--model", default=None, help="the Pi's model (default: its device tree)")
    parser.add_argument("--config", required=True)
    parser.add_argument("--profile", action="append", default=[],
                        help="a profile (again for more); 'none' takes the block out; without "
                             "any, the configuration's wiring chooses")
    args = parser.parse_args(argv)
    root = Path(args.root)
    system = System(root, args.os == "raspios",
                    pi_model(root) if args.model is None else args.model, args.boot)
    config = root / args.config.lstrip("/")
    try:
        if args.profile:
            profiles = [p for p in args.profile if p != "none"]
            chosen_by = "chosen"
        else:
            profiles = from_config(load(config, games), games)
            chosen_by = f"from {args.config}"
            if not profiles:
                print(f"setup-pi: no profile {chosen_by} (no UART board, no GPIO pads for four "
                      "seats, no I2S, no OLED Bonnet); the Pi's interfaces are left as they are")
                return 0
        changed = apply(system, profiles, config, games)
    except (ProfileError, ConfigError) as exc:
        print(f"setup-pi: {exc}", file=sys.stderr)
        return 2
    shown = ", ".join(profiles) or "none"
    if changed:
        print(f"setup-pi: profiles {shown} ({chosen_by}) changed {', '.join(changed)}; "
              "reboot for the Pi's interfaces to follow")
    else:
        print(f"setup-pi: profiles {shown} ({chosen_by}): nothing to change")
    if set(profiles) & {"uart-dice", "uart-padhub"}:
        print(f"setup-pi: the UART on GPIO14/15 is {system.uart_port}")
    return 0

