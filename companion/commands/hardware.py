"""``companion pins``: show and check the pin map (and draw it); ``companion doctor``: check the
box's parts one by one (:mod:`companion.commands.doctor`)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.commandline import DEFAULT_CONFIG, load_config
from companion.devices.pinmap import LAYOUTS, PinMapError, check_layout, markdown
from companion.errors import UsageError
from companion.games import playable


def cmd_pins(args: argparse.Namespace) -> int:
    """The pin map of the configuration (``--config``, else the installed one, else the
    defaults) with its ``[pins]`` overrides, checked against the header."""
    pm = load_config(args, DEFAULT_CONFIG, games=playable()).pins
    try:
        for _title, opts in LAYOUTS:
            check_layout(pm.layout(**opts))
    except PinMapError as exc:
        raise UsageError(str(exc)) from None
    if args.svg is not None:
        from pathlib import Path

        from companion.devices.wiring import drawings

        folder = Path(args.svg)
        try:
            if not folder.is_dir():
                raise UsageError(f"--svg needs an existing folder, not {args.svg[:80]!r}.")
            for name, text in drawings(pm).items():
                (folder / name).write_text(text, "utf-8")
                print(folder / name)
        except OSError as exc:
            raise UsageError(f"cannot write the diagrams into {args.svg[:80]!r}: "
                             f"{exc.strerror or exc}.") from None
    elif args.markdown:
        print(markdown(pm), end="")
    else:
        for title, opts in LAYOUTS:
            print(f"{title}: {len(pm.layout(**opts))} pins, fits the header")
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = commands.add_parser("pins", help="check the pin map (and print it as Markdown)")
    p.add_argument("--markdown", action="store_true", help="print hardware/guide/pins.md")
    p.add_argument("--svg", metavar="DIR", help="write a wiring diagram of every set-up into DIR "
                   "(hardware/guide/wiring/)")
    p.set_defaults(func=cmd_pins)
    p = commands.add_parser(
        "firmware", help="say where the boards' firmware is (to flash a Pico by hand)",
        description="Print the folder that holds the boards' MicroPython firmware (the dice, "
        "the pad hub and their shared lib/), as installed with the companion.")
    p.add_argument("--path", action="store_true", help="print only the folder's path")
    p.add_argument("board", nargs="?", choices=("dice", "padhub", "lib"),
                   help="one board's folder instead of the whole firmware")
    p.set_defaults(func=cmd_firmware)
    add_doctor(commands)


def cmd_firmware(args: argparse.Namespace) -> int:
    from companion.dice.simboard import FIRMWARE_DIR

    folder = FIRMWARE_DIR / args.board if args.board else FIRMWARE_DIR
    if not folder.is_dir():
        raise UsageError(f"The firmware is missing from {folder}; reinstall the companion.")
    if args.path:
        print(folder)
        return 0
    print(f"The boards' firmware is in {folder}:")
    for board in sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"):
        print(f"  {board}/")
    print("Flash a Pico with `make flash-dice` or `make flash-padhub` from a checkout, or copy a "
          "board's main.py, its package and lib/ with mpremote (hardware/guide/dice.md).")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.commands.doctor import cmd_doctor as run

    return run(args)


def add_doctor(commands: Any) -> None:
    from companion.commandline import count_arg

    p = commands.add_parser("doctor", help="check the box's parts one by one (service stopped)",
                            description="Check the Pi's interfaces, the panel, every button, the "
                            "buzzer, the dice, the pads and the voice on the real box, one "
                            "sentence each (stop the service first).")
    p.add_argument("--only", metavar="PARTS",
                   help="check only these, comma-separated: pins, i2c, panel, buttons, buzzer, "
                   "dice, pads, voice")
    p.add_argument("--seats", type=count_arg(2, 6), default=None,
                   help="the pads of how many seats to check (default: game.seats)")
    p.set_defaults(func=cmd_doctor)
