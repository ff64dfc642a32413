"""The simulator's Pixels die: a virtual die on an in-process bumble radio, made when the
table first asks for Bluetooth (``[dice] kind = "pixels"``, ``--dice pixels``, or pairing
under Nastavení > Kostka), so a simulator that never uses it never loads bumble."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.dice.pixels.bumble_port import Air, BumblePort
    from companion.dice.pixels.virtual import VirtualPixel

NAME = "Kostka Pixels"
"""The virtual die's name (what the scan lists)."""


class SimPixels:
    """A virtual die and the radio it is on; ``step_s``: seconds between a throw's states."""

    def __init__(self, seed: int | None = None, *, step_s: float = 0.0,
                 name: str = NAME) -> None:
        self.seed = seed
        self.step_s = step_s
        self.name = name
        self.air: Air | None = None
        self.die: VirtualPixel | None = None
        self._lock = threading.Lock()

    def port(self) -> BumblePort:
        """The companion's side of the radio (the die is switched on with it)."""
        with self._lock:
            if self.air is None:
                from companion.dice.pixels.bumble_port import Air
                from companion.dice.pixels.virtual import VirtualPixel

                self.air = Air()
                self.die = VirtualPixel(self.air, self.name, seed=self.seed,
                                        step_s=self.step_s)
            return self.air.central()

    @property
    def on(self) -> bool:
        return self.die is not None

    def roll(self) -> int:
        """A fair (seeded) throw; 0 when the die is not switched on."""
        return self.die.roll() if self.die is not None else 0

    def crooked(self) -> None:
        if self.die is not None:
            self.die.crooked()

    def toggle_away(self) -> None:
        """Carry the die out of the radio's range, or back."""
        if self.die is not None:
            (self.die.back if self.die.gone else self.die.away)()

    def toggle_sleep(self) -> None:
        if self.die is not None:
            (self.die.wake if self.die.asleep else self.die.sleep)()

    def status(self) -> str:
        """A word for the simulator's status line."""
        die = self.die
        if die is None:
            return "vypnutá"
        if die.asleep:
            return "spí"
        if die.gone:
            return "mimo dosah"
        return "připojena" if die.connected else "hledá se"

    def close(self) -> None:
        if self.die is not None:
            self.die.close()
        if self.air is not None:
            self.air.close()
        self.die, self.air = None, None
