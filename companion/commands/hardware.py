"""``companion pins``: show and check the pin map."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import UsageError
from companion.hardware.pinmap import LAYOUTS, PinMapError, check_layout, load_default, markdown


def cmd_pins(args: argparse.Namespace) -> int:
    pm = load_default()
    try:
        for _title, opts in LAYOUTS:
            check_layout(pm.layout(**opts))
    except PinMapError as exc:
        raise UsageError(str(exc)) from None
    if args.svg is not None:
        from pathlib import Path

        from companion.hardware.wiring import drawings

        folder = Path(args.svg)
        if not folder.is_dir():
            raise UsageError(f"--svg needs an existing folder, not {args.svg!r}.")
        for name, text in drawings(pm).items():
            (folder / name).write_text(text, "utf-8")
            print(folder / name)
    elif args.markdown:
        print(markdown(pm), end="")
    else:
        for title, opts in LAYOUTS:
            print(f"{title}: {len(pm.layout(**opts))} pins, fits the header")
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = commands.add_parser("pins", help="check the pin map (and print it as Markdown)")
    p.add_argument("--markdown", action="store_true", help="print hardware/pins.md")
    p.add_argument("--svg", metavar="DIR", help="write a wiring diagram of every set-up into DIR "
                   "(hardware/wiring/)")
    p.set_defaults(func=cmd_pins)
