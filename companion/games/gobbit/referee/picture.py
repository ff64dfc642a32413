"""The picture of the referee screens for the docs (``docs/img/referee.png``).

    python -m companion.games.gobbit.referee.picture docs/img/referee.png

Each frame is drawn by the service's own renderer (``companion.ui.screens.render``),
then scaled up for reading.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image

from companion.games.gobbit.referee.model import RefereeModel
from companion.games.gobbit.referee.virtual import VirtualDeckModel, shuffle_order
from companion.games.gobbit.screens import RefereeView
from companion.inputs.events import Button
from companion.inputs.pads import PadTouch
from companion.ui.referee import Screen
from companion.ui.screens import HEIGHT, WIDTH, render

SCALE = 3
GAP = 6


def example_screens() -> list[Screen]:
    """The docs' worked example, one press after the other: H2 slaps H3's pile 7 ms before
    H3 defends it, and H2 also touches H1's pile.  The log; ● opens the dispute, which asks
    the two cards it needs as one pair (◀ had → chameleon) and then their colour (◀ modrá);
    the ruling.  The pads are TTP223 modules, good to ±60 ms (D28): the 7 ms prove
    nothing, the touches are simultaneous and the owner's defence has precedence.  Last,
    the virtual deck's table."""
    model = RefereeModel(3, rules=("gobbit", "ghost", "gorilla"), uncertainty_ms=60.0)
    for touch in (PadTouch(1, "g", 0.0, 3100.0), PadTouch(2, 3, 0.0, 5000.0),
                  PadTouch(2, 1, 0.0, 5003.0), PadTouch(3, 3, 0.0, 5007.0)):
        model.on_pad_event(touch)
    screens = [model.screen()]
    for button in (Button.SELECT, Button.LEFT):
        model.on_button(button)
        screens.append(model.screen())
    model.on_button(Button.LEFT)  # blue
    if model.question is not None:  # H1's card too (H2 touched its pile): a red chameleon
        for button in (Button.SELECT, Button.SELECT):
            model.on_button(button)
    screens.append(model.screen())
    virtual = VirtualDeckModel(4, shuffle_order(48, random.Random(7)),
                               rules=("gobbit", "ghost", "gorilla"))
    for i in range(6):
        virtual.on_button(Button.SELECT, float(i))
    screens.append(virtual.screen())
    return screens


def frame(screen: Screen) -> Image.Image:
    """One screen as the service draws it on the OLED."""
    return render(RefereeView(screen))


def picture(screens: list[Screen]) -> Image.Image:
    """The screens two by two, scaled up, white pixels tinted like an OLED."""
    cols = 2
    rows = (len(screens) + cols - 1) // cols
    w, h = WIDTH * SCALE, HEIGHT * SCALE
    sheet = Image.new("RGB", (cols * w + (cols + 1) * GAP, rows * h + (rows + 1) * GAP),
                      (60, 60, 60))
    for i, screen in enumerate(screens):
        mono = frame(screen).convert("L").resize((w, h), Image.Resampling.NEAREST)
        tinted = Image.merge("RGB", (mono.point(lambda v: v * 200 // 255),
                                     mono.point(lambda v: v * 230 // 255), mono))
        r, c = divmod(i, cols)
        sheet.paste(tinted, (GAP + c * (w + GAP), GAP + r * (h + GAP)))
    return sheet


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/img/referee.png")
    out.parent.mkdir(parents=True, exist_ok=True)
    picture(example_screens()).save(out)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
