"""The pin map: one data file (``pinmap.toml``), loaded, checked and documented.

A *layout* is what one table set-up wires at once: the display, the three
buttons, the buzzer and, by choice, the dice UART, the two extra buttons, the
slap pads of a 2-, 3- or 4-seat table (or the pad hub's UART, for up to
6 seats) and an I2S amplifier for the voice (which moves the parts on the PCM
pins elsewhere); or, in the no-solder box, the OLED Bonnet's joystick and buttons
(``[bonnet]``, no buzzer) and the MPR121 pads' optional IRQ line (``[mpr121]``).
:func:`check_layout` proves a
layout fits the 40-pin header: every pin a real GPIO, none twice, none reserved.

Every part also has its power and ground on the header and what sits in series
with its lines (``[parts]``, :class:`Part`); :func:`markdown` writes all of it
into hardware/guide/pins.md and :mod:`companion.devices.wiring` draws it.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.devices.header import BCM_TO_PHYSICAL, POWER_AND_GROUND, RESERVED
from companion.inputs.pads import Pad as Pad
from companion.inputs.pads import PadNameError, table_pads


class PinMapError(ValueError):
    """A pin map that does not fit the header; the message is one sentence."""


BONNET_BUTTONS = ("left", "select", "right", "menu", "help")
"""The bonnet's controls the companion reads, by the wired buttons' names."""
BONNET_PINS = (*BONNET_BUTTONS, "up", "down")

I2S_PINS = {"bclk": 18, "lrclk": 19, "din": 21, "pcm_in": 20}
"""The Pi's PCM (I2S) pins on the header: bit clock, frame clock, data out, and data in
(not wired: the I2S overlay's pin group takes all four)."""

BUZZER_KINDS = ("passive", "active")
SUPPLIES = ("3V3", "5V")


@dataclass(frozen=True)
class Part:
    """What a part of the box needs on the header besides its signals: its supply pin (a
    physical pin, ``None``: it takes none), its ground pin, and what sits in series with
    its signal lines."""

    what: str
    gnd: int
    vcc: int | None = None
    supply: str = ""
    series: str = ""


def part_of(name: str) -> str:
    """The part a layout name belongs to (``pads.4.2>g`` -> ``pads``)."""
    head = name.split(".")[0]
    return "buttons" if head == "buttons_extra" else head


@dataclass(frozen=True)
class PinMap:
    display: dict[str, int]
    buttons: dict[str, int]
    buttons_extra: dict[str, int]
    buzzer: int
    dice_uart: dict[str, int]
    pads: dict[int, dict[Pad, int]] = field(default_factory=dict)
    audio_i2s: dict[str, int] = field(default_factory=lambda: _shipped_i2s_part(0))
    """The I2S amplifier's pins (the SoC's PCM pins: fixed).  A pin map built
    without them (a configuration's overrides) keeps the shipped file's."""
    audio_i2s_moves: dict[str, int] = field(default_factory=lambda: _shipped_i2s_part(1))
    """Layout name -> its pin when the I2S amplifier takes the PCM pins."""
    padhub_uart: dict[str, int] = field(default_factory=lambda: _shipped_padhub_uart())
    """The pad hub's serial line to the Pi's UART (a pin map built without it keeps the
    shipped file's)."""
    buzzer_kind: str = field(default_factory=lambda: _shipped_buzzer_kind())
    """What the buzzer pin drives: "passive" (tones) or "active" (on/off)."""
    parts: dict[str, Part] = field(default_factory=lambda: _shipped_parts())
    """Power, ground and series parts per part (``[parts]``)."""
    bonnet: dict[str, int] = field(default_factory=lambda: _shipped_section("bonnet"))
    """The OLED Bonnet's controls (``[bonnet]``): left, select, right, menu, help, and the
    joystick's up and down (wired, unused)."""
    mpr121: dict[str, int] = field(default_factory=lambda: _shipped_section("mpr121"))
    """The MPR121 touch controllers' IRQ line (``[mpr121] irq``)."""

    def button_pins(self, five: bool, bonnet: bool = False) -> dict[str, int]:
        """Button name -> pin: the bonnet's five controls, or the wired three (five)."""
        if bonnet:
            return {k: self.bonnet[k] for k in BONNET_BUTTONS}
        pins = dict(self.buttons)
        if five:
            pins.update(self.buttons_extra)
        return pins

    def moved_for_i2s(self) -> PinMap:
        """This map with the parts on the PCM pins moved as ``[audio_i2s_moves]`` says (the
        configuration's ``voice.i2s``)."""
        buzzer = self.buzzer
        tables = {"display": dict(self.display), "buttons": dict(self.buttons),
                  "buttons_extra": dict(self.buttons_extra), "dice_uart": dict(self.dice_uart),
                  "padhub_uart": dict(self.padhub_uart)}
        for name, pin in self.audio_i2s_moves.items():
            section, _, key = name.partition(".")
            if name == "buzzer":
                buzzer = pin
            elif section in tables and key in tables[section]:
                tables[section][key] = pin
        return PinMap(tables["display"], tables["buttons"], tables["buttons_extra"], buzzer,
                      tables["dice_uart"], self.pads, dict(self.audio_i2s),
                      dict(self.audio_i2s_moves), tables["padhub_uart"], self.buzzer_kind,
                      dict(self.parts), dict(self.bonnet), dict(self.mpr121))

    def layout(self, seats: int = 0, extra_buttons: bool = False,
               dice_uart: bool = False, i2s_audio: bool = False,
               padhub_uart: bool = False, bonnet: bool = False,
               mpr121_irq: bool = False) -> dict[str, int]:
        """Name -> BCM pin of everything wired in one set-up (checked by :func:`check_layout`).

        ``bonnet``: the OLED Bonnet's controls instead of the wired buttons and no buzzer;
        ``mpr121_irq``: the MPR121 touch controllers' IRQ line."""
        used: dict[str, int] = {}
        used.update({f"display.{k}": v for k, v in self.display.items()})
        if bonnet:
            if set(self.bonnet) != set(BONNET_PINS):
                raise PinMapError("The pin map has no OLED Bonnet layout.")
            used.update({f"bonnet.{k}": v for k, v in self.bonnet.items()})
        else:
            used.update({f"buttons.{k}": v for k, v in self.buttons.items()})
            used["buzzer"] = self.buzzer
        if mpr121_irq:
            if "irq" not in self.mpr121:
                raise PinMapError("The pin map has no IRQ pin for the MPR121s.")
            used["mpr121.irq"] = self.mpr121["irq"]
        if extra_buttons and not bonnet:
            used.update({f"buttons_extra.{k}": v for k, v in self.buttons_extra.items()})
        if dice_uart:
            used.update({f"dice_uart.{k}": v for k, v in self.dice_uart.items()})
        if padhub_uart:
            if not self.padhub_uart:
                raise PinMapError("The pin map has no UART pins for the pad hub.")
            used.update({f"padhub_uart.{k}": v for k, v in self.padhub_uart.items()})
        if seats:
            if seats not in self.pads:
                raise PinMapError(f"The pin map has no pads for {seats} seats.")
            used.update({f"pads.{seats}.{p.key}": v for p, v in self.pads[seats].items()})
        if i2s_audio:
            if not self.audio_i2s:
                raise PinMapError("The pin map has no I2S audio pins.")
            for name, pin in self.audio_i2s_moves.items():
                if name in used:  # only the parts of this set-up move
                    used[name] = pin
            used.update({f"audio_i2s.{k}": v for k, v in self.audio_i2s.items()})
        return used


def _pins(section: Any, name: str) -> dict[str, int]:
    if not isinstance(section, dict):
        raise PinMapError(f"[{name}] must be a table of name = pin.")
    out: dict[str, int] = {}
    for key, value in section.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise PinMapError(f"{name}.{key} must be a BCM pin number, not {value!r}.")
        out[key] = value
    return out


def from_dict(data: dict[str, Any]) -> PinMap:
    """Build a pin map from parsed TOML; raise :class:`PinMapError` naming the bad key."""
    for key in ("display", "buttons", "buzzer"):
        if key not in data:
            raise PinMapError(f"The pin map lacks [{key}].")
    section = data["buzzer"]
    if not isinstance(section, dict):
        raise PinMapError("[buzzer] must be a table of pin and kind.")
    kind = section.get("kind", "passive")
    if kind not in BUZZER_KINDS:
        raise PinMapError(f"buzzer.kind must be \"passive\" or \"active\", not {kind!r}.")
    buzzer = _pins({k: v for k, v in section.items() if k != "kind"}, "buzzer")
    if set(buzzer) != {"pin"}:
        raise PinMapError("[buzzer] must hold exactly a pin and, if it likes, a kind.")
    buttons = _pins(data["buttons"], "buttons")
    missing = {"left", "select", "right"} - set(buttons)
    if missing:
        raise PinMapError(f"buttons.{sorted(missing)[0]} is missing.")
    pads: dict[int, dict[Pad, int]] = {}
    for seats_text, section in dict(data.get("pads", {})).items():
        if not str(seats_text).isdigit() or not 2 <= int(seats_text) <= 4:
            raise PinMapError(f"[pads.{seats_text}] must name 2, 3 or 4 seats.")
        seats = int(seats_text)
        try:
            table = {Pad.parse(k): v for k, v in _pins(section, f"pads.{seats}").items()}
        except PadNameError as exc:
            raise PinMapError(str(exc)) from None
        expected = set(table_pads(seats))
        if set(table) != expected:
            missing_pads = sorted(p.key for p in expected - set(table))
            extra = sorted(p.key for p in set(table) - expected)
            what = (f"lacks pad {missing_pads[0]}" if missing_pads
                    else f"has a pad {extra[0]} that no seat can use")
            raise PinMapError(f"[pads.{seats}] {what}.")
        pads[seats] = table
    audio_i2s = _pins(data.get("audio_i2s", {}), "audio_i2s")
    if audio_i2s and audio_i2s != I2S_PINS:
        fixed = ", ".join(f"{k} = {v}" for k, v in I2S_PINS.items())
        raise PinMapError(f"[audio_i2s] must be the Pi's PCM pins, which are fixed: {fixed}.")
    moves = _pins(data.get("audio_i2s_moves", {}), "audio_i2s_moves")
    hub_uart = _pins(data.get("padhub_uart", {}), "padhub_uart")
    if hub_uart and set(hub_uart) != {"tx", "rx"}:
        raise PinMapError("[padhub_uart] must hold exactly tx and rx.")
    bonnet = _pins(data.get("bonnet", {}), "bonnet")
    if bonnet and set(bonnet) != set(BONNET_PINS):
        raise PinMapError(f"[bonnet] must hold exactly {', '.join(BONNET_PINS)}.")
    mpr = _pins(data.get("mpr121", {}), "mpr121")
    if set(mpr) - {"irq"}:
        raise PinMapError("[mpr121] holds only irq.")
    pm = PinMap(
        display=_pins(data["display"], "display"),
        buttons=buttons,
        buttons_extra=_pins(data.get("buttons_extra", {}), "buttons_extra"),
        buzzer=buzzer["pin"],
        dice_uart=_pins(data.get("dice_uart", {}), "dice_uart"),
        pads=pads,
        audio_i2s=audio_i2s,
        audio_i2s_moves=moves,
        padhub_uart=hub_uart,
        buzzer_kind=kind,
        parts=_parts(data.get("parts", {})),
        bonnet=bonnet,
        mpr121=mpr,
    )
    movable = pm.layout(extra_buttons=True, dice_uart=True)
    for name in moves:
        if name not in movable:
            raise PinMapError(f"audio_i2s_moves.{name} is not a part the I2S set-up can move.")
    return pm


def _parts(section: Any) -> dict[str, Part]:
    if not isinstance(section, dict):
        raise PinMapError("[parts] must be a table of parts.")
    out: dict[str, Part] = {}
    for name, p in section.items():
        if not isinstance(p, dict):
            raise PinMapError(f"[parts.{name}] must be a table.")
        gnd, vcc, supply = p.get("gnd"), p.get("vcc"), p.get("supply", "")
        if not isinstance(gnd, int) or POWER_AND_GROUND.get(gnd) != "GND":
            raise PinMapError(f"parts.{name}.gnd = {gnd!r} is not a ground pin of the header.")
        if vcc is not None:
            if not isinstance(vcc, int) or supply not in SUPPLIES:
                raise PinMapError(f"parts.{name} must name its supply, \"3V3\" or \"5V\", and its "
                                  "vcc pin.")
            if POWER_AND_GROUND.get(vcc) != supply:
                raise PinMapError(f"parts.{name}.vcc = {vcc!r} is not a {supply} pin of the "
                                  "header.")
        out[name] = Part(str(p.get("what", name)), gnd, vcc, supply, str(p.get("series", "")))
    return out


def _shipped() -> dict[str, Any]:
    text = (Path(__file__).parent / "pinmap.toml").read_text("utf-8")  # package data
    return tomllib.loads(text)


@functools.cache
def _shipped_i2s() -> tuple[dict[str, int], dict[str, int]]:
    data = _shipped()
    return (_pins(data.get("audio_i2s", {}), "audio_i2s"),
            _pins(data.get("audio_i2s_moves", {}), "audio_i2s_moves"))


def _shipped_i2s_part(index: int) -> dict[str, int]:
    return dict(_shipped_i2s()[index])  # a copy: pin maps never share their tables


@functools.cache
def _shipped_padhub_uart_pins() -> tuple[tuple[str, int], ...]:
    return tuple(_pins(_shipped().get("padhub_uart", {}), "padhub_uart").items())


def _shipped_padhub_uart() -> dict[str, int]:
    return dict(_shipped_padhub_uart_pins())  # a copy: pin maps never share their tables


@functools.cache
def _shipped_section_items(name: str) -> tuple[tuple[str, int], ...]:
    return tuple(_pins(_shipped().get(name, {}), name).items())


def _shipped_section(name: str) -> dict[str, int]:
    return dict(_shipped_section_items(name))  # a copy: pin maps never share their tables


def _shipped_buzzer_kind() -> str:
    return str(_shipped()["buzzer"].get("kind", "passive"))


@functools.cache
def _shipped_parts_items() -> tuple[tuple[str, Part], ...]:
    return tuple(_parts(_shipped().get("parts", {})).items())


def _shipped_parts() -> dict[str, Part]:
    return dict(_shipped_parts_items())


def load_default() -> PinMap:
    return from_dict(_shipped())


def check_layout(used: dict[str, int]) -> None:
    """Raise :class:`PinMapError` unless every pin is a free, real GPIO used once."""
    owner: dict[int, str] = {}
    for name, pin in used.items():
        if pin not in BCM_TO_PHYSICAL:
            raise PinMapError(f"{name} = {pin} is not a GPIO of the 40-pin header.")
        if pin in RESERVED:
            raise PinMapError(f"{name} = {pin} is reserved for the {RESERVED[pin]}.")
        if pin in owner:
            raise PinMapError(f"{name} and {owner[pin]} both use GPIO{pin}.")
        owner[pin] = name


LAYOUTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Dice games, dice on USB, five buttons", {"extra_buttons": True}),
    ("Dice games, dice on UART, five buttons", {"extra_buttons": True, "dice_uart": True}),
    ("Slap pads, 2 seats, five buttons, dice UART free", {"seats": 2, "extra_buttons": True,
                                                       "dice_uart": True}),
    ("Slap pads, 3 seats, five buttons, dice UART free", {"seats": 3, "extra_buttons": True,
                                                       "dice_uart": True}),
    ("Slap pads, 4 seats, three buttons", {"seats": 4}),
    ("Slap pads, up to 6 seats on the pad hub (UART), five buttons",
     {"extra_buttons": True, "padhub_uart": True}),
    ("Dice games, dice on USB, five buttons, I2S amplifier (buzzer and menu moved)",
     {"extra_buttons": True, "i2s_audio": True}),
    ("Dice games, dice on UART, five buttons, I2S amplifier (buzzer and menu moved)",
     {"extra_buttons": True, "dice_uart": True, "i2s_audio": True}),
    ("Slap pads, 2 seats, five buttons, dice UART free, I2S amplifier (buzzer and menu moved)",
     {"seats": 2, "extra_buttons": True, "dice_uart": True, "i2s_audio": True}),
    ("No solder: OLED Bonnet, Pixels die or buttons, USB speaker, MPR121 pads on I2C",
     {"bonnet": True}),
    ("No solder: OLED Bonnet, MPR121 pads with their IRQ line wired", {"bonnet": True,
                                                                       "mpr121_irq": True}),
)
"""The set-ups the product supports; each must pass :func:`check_layout`."""


def series_of(pm: PinMap, name: str) -> str:
    """What sits in series with layout line ``name`` (the PCM input: nothing, not wired)."""
    if name == "audio_i2s.pcm_in":
        return "not wired (the I2S overlay takes it)"
    part = pm.parts.get(part_of(name))
    return part.series if part is not None and part.series else "–"


def parts_in(pm: PinMap, used: dict[str, int]) -> list[tuple[str, Part]]:
    """The parts a layout wires, in the order of ``[parts]``."""
    wanted = {part_of(name) for name in used}
    return [(name, part) for name, part in pm.parts.items() if name in wanted]


def markdown(pm: PinMap) -> str:
    """hardware/guide/pins.md, generated from the pin map (a test keeps the file in step)."""
    lines = [
        "# Pin map (generated)",
        "",
        "Generated from `companion/devices/pinmap.toml` by `companion pins --markdown`;",
        "do not edit by hand (a test fails when this file and the data disagree).",
        "Pins are BCM GPIO numbers; header pins are the physical pins 1-40. Each set-up",
        "lists its signal lines (with the part in series on each, hardware/guide/build.md) and",
        "then every part's supply and ground. The same, drawn: [wiring/](wiring/).",
        "",
    ]
    for title, opts in LAYOUTS:
        used = pm.layout(**opts)
        lines += [f"## {title}", "", "| what | GPIO | header pin | in series |", "|---|---|---|---|"]
        for name, pin in sorted(used.items(), key=lambda kv: BCM_TO_PHYSICAL[kv[1]]):
            lines.append(f"| {name} | {pin} | {BCM_TO_PHYSICAL[pin]} | {series_of(pm, name)} |")
        lines += ["", "| part | supply | header pin | ground pin |", "|---|---|---|---|"]
        for name, part in parts_in(pm, used):
            supply = f"{part.supply} | {part.vcc}" if part.vcc is not None else "none | –"
            lines.append(f"| {name} | {supply} | {part.gnd} |")
        lines.append("")
    lines += ["## Reserved", ""]
    lines += [f"* GPIO{pin} (pin {BCM_TO_PHYSICAL[pin]}): {what}" for pin, what in RESERVED.items()]
    return "\n".join(lines) + "\n"
