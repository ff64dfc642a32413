"""The table's own pace on a napij se play screen: what the prompt says, in which order a
computer's plays are shown, and when a play on show has been read (pure).

A person's only legal play waits for ● unless the set-up's "Jediný tah" says otherwise;
a computer seat's play waits for ● unless the settings' "PC potvrdí sám" does (D47 of
docs/players/napij-rules.md).  When a play is to be taken by itself, its pause counts from the
moment its words and strip map have been shown whole (:func:`ready_after`) and the voice
has said it.  A computer's screen names its play "tah 1 ze N": its own choice first, the
other legal plays after it, to look at with ◀ ▶ (read-only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.engines.czech import PLAYER
from companion.games.napij.bot import decide
from companion.games.napij.engine.actions import Play
from companion.games.napij.engine.state import State
from companion.games.napij.screens import schedule
from companion.games.napij.views import NapijView


def computer_order(state: State, plays: Sequence[Play],
                   decided: Callable[[State], object] = decide) -> list[Play]:
    """The legal plays with the computer player's choice first (``decided``: the decision of
    the seat's level; the normal level's by default)."""
    best = decided(state)
    if not isinstance(best, Play) or best not in plays:
        return list(plays)
    return [best, *(p for p in plays if p != best)]


def _seconds(s: float) -> str:
    return f"{s:g}".replace(".", ",")


def prompt_of_play(selected: int, count: int, *, computer: bool, delay: float) -> str:
    """The play screen's prompt: which play of how many is shown, and what ● does.

    A person's: ``"◀▶ tah 2 ze 5, ● ok"``, an only play ``"Jediný tah: táhni, ●"`` (or
    ``"Jediný tah: sám po 3 s"``).  A computer's: ``"PC: tah 1 ze 3, táhni ●"`` (its
    play), ``"Jen ukázka: tah 2 ze 3"`` (another, read-only), or with "PC potvrdí sám"
    ``"PC táhne sám po 3 s"``."""
    if computer:
        if selected:
            return f"Jen ukázka: tah {selected + 1} ze {count}"
        if delay > 0:
            return f"PC táhne sám po {_seconds(delay)} s"
        if count == 1:
            return "PC: jediný tah, táhni ●"
        return f"PC: tah 1 ze {count}, táhni ●"
    if count == 1:
        return f"Jediný tah: sám po {_seconds(delay)} s" if delay > 0 else "Jediný tah: táhni, ●"
    return f"◀▶ tah {selected + 1} ze {count}, ● ok"


def ready_after(view: NapijView) -> float:
    """Seconds until a play screen has shown all its moves' words and strips once."""
    return schedule(view)[1]


def spoken_play(who: int, lines: Sequence[str], computer: bool) -> str:
    """A play said aloud: ``"Červený, jediný tah: 6, z hospody na své stanoviště."``."""
    words = "; ".join(line.replace(" → ", " ") for line in lines)
    whose = f"{PLAYER[who]}, počítač táhne" if computer else f"{PLAYER[who]}, jediný tah"
    return f"{whose}: {words}."
