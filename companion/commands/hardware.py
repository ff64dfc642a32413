"""``companion pins``: show and check the pin map."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import UsageError
from companion.hardware.pinmap import LAYOUTS, PinMapError, check_layout, markdown

from .common import DEFAULT_CONFIG, load_config


def cmd_pins(args: argparse.Namespace) -> int:
    """The pin map of the configuration (``--config``, else the installed one, else the
    defaults) with its ``[pins]`` overrides, checked against the header."""
    pm = load_config(args, DEFAULT_CONFIG).pins
    try:
        for _title, opts in LAYOUTS:
            check_layout(pm.layout(**opts))
    except PinMapError as exc:
        raise UsageError(str(exc)) from None
    if args.markdown:
        print(markdown(pm), end="")
    else:
        for title, opts in LAYOUTS:
            print(f"{title}: {len(pm.layout(**opts))} pins, fits the header")
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = commands.add_parser("pins", help="check the pin map (and print it as Markdown)")
    p.add_argument("--markdown", action="store_true", help="print hardware/pins.md")
    p.set_defaults(func=cmd_pins)
