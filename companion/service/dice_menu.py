"""The "Kostka" settings: which dice the table uses, and pairing a Pixels die.

The settings line reads "Kostka: naše" / "Kostka: Pixels <name>" / "Kostka: tlačítka";
● opens a list of the three kinds.  "Pixels" scans: the dice heard so far are listed by
name, colour and battery, ● pairs the selected one (the table uses it from then on, and
the choice is kept across restarts); ◀ ▶ move, "Zpět" returns.  What happens to the
dice lives behind :class:`DiceControl` (:mod:`.dice`), so this module only draws and
decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.inputs.events import Button
from companion.ui.controls import pick
from companion.ui.views import ListView

KIND_LINES = (("serial", "Naše kostka"), ("pixels", "Pixels: hledat"),
              ("ble", "Naše bezdrátová"), ("none", "Jen tlačítka"), ("back", "Zpět"))


@dataclass(frozen=True)
class FoundDie:
    """A Pixels die heard while scanning."""

    address: str
    name: str
    colour: str
    battery: int
    charging: bool = False

    @property
    def line(self) -> str:
        charge = "+" if self.charging else ""
        return f"{self.name} · {self.colour} · {self.battery} %{charge}"


class DiceControl(Protocol):
    """What the settings can do with the table's dice."""

    @property
    def kind(self) -> str: ...
    @property
    def pixels_name(self) -> str: ...
    @property
    def scanning(self) -> bool: ...
    def choose(self, kind: str, name: str = "") -> None:
        """Use ``kind`` from now on (and after a restart)."""
        ...
    def scan_start(self) -> None: ...
    def scan_stop(self) -> None: ...
    def scan_results(self) -> Sequence[FoundDie]: ...


def kind_label(kind: str, name: str) -> str:
    """The settings line's value for a dice choice."""
    if kind == "pixels":
        return f"Pixels {name}" if name else "Pixels"
    return {"serial": "naše", "ble": "naše (Bluetooth)", "none": "tlačítka"}.get(kind, kind)


class DiceMenu:
    """The screens under "Kostka" (see the module docstring)."""

    def __init__(self, control: DiceControl) -> None:
        self.control = control
        self.screen = "kinds"
        self.index = 0

    def label(self) -> str:
        return f"Kostka: {kind_label(self.control.kind, self.control.pixels_name)}"

    def open(self) -> None:
        self.screen = "kinds"
        keys = [k for k, _ in KIND_LINES]
        self.index = keys.index(self.control.kind) if self.control.kind in keys else 0

    def close(self) -> None:
        if self.screen == "scan":
            self.control.scan_stop()
        self.screen = "kinds"

    def button(self, name: Button) -> bool:
        """One button; ``True`` when the table leaves "Kostka" (back to the settings)."""
        if self.screen == "scan":
            return self._scan_button(name)
        self.index, item = pick(self.index, KIND_LINES, name)
        if item is None:
            return False
        key = item[0]
        if key == "back":
            return True
        if key == "pixels":
            self.screen, self.index = "scan", 0
            self.control.scan_start()
            return False
        self.control.choose(key)
        return True

    def _rows(self) -> list[FoundDie | None]:
        return [*self.control.scan_results(), None]  # None: "Zpět"

    def _scan_button(self, name: Button) -> bool:
        rows = self._rows()
        self.index, item = pick(min(self.index, len(rows) - 1), rows, name)
        if name != Button.SELECT:
            return False
        self.control.scan_stop()
        if item is not None:
            self.control.choose("pixels", item.name)
            self.screen = "kinds"
            return True
        self.screen = "kinds"
        self.index = 1
        return False

    def view(self) -> ListView:
        if self.screen == "scan":
            rows = self._rows()
            lines = tuple(r.line if r is not None else "Zpět" for r in rows)
            found = len(rows) - 1
            title = "Pixels: hledám…" if self.control.scanning else f"Pixels: {found} nalezeno"
            foot = "● spárovat" if found else "Zapni kostku, zatřes jí."
            return ListView(title, lines, min(self.index, len(lines) - 1), foot)
        return ListView(self.label(), tuple(text for _, text in KIND_LINES), self.index)
