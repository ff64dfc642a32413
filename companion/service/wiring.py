"""What the configuration wires to the Pi's header, and whether the Pi's own interfaces leave
those pins free (hardware/guide/build.md; the checks are :mod:`companion.devices.interfaces`).

The service runs :func:`pin_problems` before it claims a GPIO and refuses to start on the
first problem (one sentence); ``companion doctor`` lists them all.
"""

from __future__ import annotations

from pathlib import Path

from companion.devices.interfaces import Claim, claims, conflicts, serial_problems
from companion.plugin import GamePlugin
from companion.service.config import Config

PI_UARTS = ("/dev/serial0", "/dev/ttyS0", "/dev/ttyAMA0")
"""Serial devices that are the Pi's own UART on GPIO14/15 (a board on it uses those pins)."""


def on_pi_uart(port: str) -> bool:
    return port in PI_UARTS


def serial_dice(cfg: Config) -> bool:
    """Our dice on a serial line (not a Pixels die over Bluetooth, not none)."""
    return cfg.dice.kind == "serial"


def wired_layout(cfg: Config, seats: int = 0) -> dict[str, int]:
    """Name -> GPIO of everything this configuration wires: the display, the buttons, the
    buzzer, the UART board (the dice's or the pad hub's), the I2S amplifier and, with GPIO
    pads, the pads of ``seats`` seats (0: none)."""
    p = cfg.pads
    used = cfg.pins.layout(seats=seats if p.frontend == "gpio" else 0,
                           extra_buttons=cfg.buttons.layout == 5,
                           dice_uart=serial_dice(cfg) and on_pi_uart(cfg.dice.port)
                           and p.frontend != "hub",
                           padhub_uart=p.frontend == "hub" and on_pi_uart(p.hub_port),
                           i2s_audio=cfg.voice.i2s, bonnet=cfg.buttons.bonnet,
                           mpr121_irq=p.frontend == "mpr121" and p.mpr121_irq)
    if not cfg.service.buzzer and "buzzer" in used:
        del used["buzzer"]
    return used


def pin_problems(cfg: Config, root: Path | str = "/", *, seats: int = 0,
                 taken: list[Claim] | None = None) -> list[str]:
    """Every line of the wired layout on a pin an enabled interface has taken, and a UART
    board's line that is the kernel console or a Pi 5's debug connector: one sentence each."""
    taken = claims(root) if taken is None else taken
    out = conflicts(wired_layout(cfg, seats), taken)
    if cfg.pads.frontend == "hub":
        out += serial_problems(cfg.pads.hub_port, "the pad hub", root)
    elif serial_dice(cfg) and cfg.dice.port:
        out += serial_problems(cfg.dice.port, "the dice", root)
    return out


def start_seats(cfg: Config, game: GamePlugin) -> int:
    """The pads a service starting with this configuration and ``game`` on the table wires
    at once (a game played with the slap pads: :attr:`~companion.plugin.GamePlugin.uses_pads`)."""
    if cfg.pads.frontend != "gpio" or not game.uses_pads:
        return 0
    return int(cfg.setup_defaults(game)["seats"])
