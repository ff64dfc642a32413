"""A screen read aloud: what a player who cannot see the panel hears of a view.

Every view the OLED draws is read the same way: its **heading** (the title, or
on a turn screen whose turn it is, the throw and what to do), its **row** (the
selected line of a list; on a turn screen the selected move in words; on a
message the whole text, a rules page at a time) and, for a long press of ◀,
the **whole** screen (every row of a list).  The words are the screen's own;
the voice turns their signs into words (:mod:`companion.devices.speech`).

``key`` says which screen it is: a change of key is a new screen (heading and
row read), the same key with another row is ◀ ▶ moving (the row read).

Each kind of view says how it is read in its method ``reading``, which calls its reader:
the shared ones (lists, messages, pictures) are here, a game's own in its folder
(``companion/games/<game>/reading.py``), imported only when the voice first reads such a
screen (with the voice off nothing of this loads).  This module names no game.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.ui.picture import AnyView, Picture
    from companion.ui.views import ListView, MessageView


@dataclass(frozen=True)
class Reading:
    """A view as it is read: ``key`` names the screen, ``heading`` and ``row`` are said on a
    new screen, ``row`` alone when only the selection moved, ``whole`` on a long ◀."""

    key: Hashable
    heading: str
    row: str = ""
    whole: str = ""

    def new_screen(self) -> str:
        return sentence(self.heading, self.row)


def sentence(*parts: str) -> str:
    """Parts joined as one text, each ending as a sentence ends."""
    out = []
    for part in parts:
        part = " ".join(part.split())
        if not part:
            continue
        out.append(part if part[-1] in ".!?:…" else part + ".")
    return " ".join(out)


def of_list(title: str, items: tuple[str, ...], selected: int | None, footer: str = "",
            key: Hashable = None) -> Reading:
    """A titled list read: the title, the selected row ("…, řádek 2 z 5"), every row."""
    row = ""
    if selected is not None and 0 <= selected < len(items):
        row = items[selected]
        if len(items) > 1:
            row = f"{row}, řádek {selected + 1} z {len(items)}"
    whole = sentence(title, *items, footer)
    return Reading(key if key is not None else ("list", title), title, row, whole)


# --- who reads which view ------------------------------------------------------------------


def read(view: AnyView) -> Reading:
    """How ``view`` is read aloud (:meth:`companion.ui.views.View.reading`)."""
    return view.reading()


def read_list(view: ListView) -> Reading:
    return of_list(view.title, view.items, view.selected, view.footer)


def read_message(view: MessageView) -> Reading:
    body = sentence(" ".join(view.lines))  # wrapped lines of sentences
    return Reading(("message", view.title, view.lines), view.title, body,
                   sentence(view.title, body, view.footer))


def read_picture(view: Picture) -> Reading:
    return Reading(("picture", view.title), view.title, "", view.title)
