"""A screen read aloud: what a player who cannot see the panel hears of a view.

Every view the OLED draws is read the same way: its **heading** (the title, or
on a turn screen whose turn it is, the throw and what to do), its **row** (the
selected line of a list; on a turn screen the selected move in words; on a
message the whole text, a rules page at a time) and, for a long press of ◀,
the **whole** screen (every row of a list).  The words are the screen's own;
the voice turns their signs into words (:mod:`companion.hardware.speech`).

``key`` says which screen it is: a change of key is a new screen (heading and
row read), the same key with another row is ◀ ▶ moving (the row read).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .clovece_screens import CloveceTurnView, CloveceWinView
from .napij_views import NapijView
from .picture import AnyView, Picture
from .screens import DICE_LOST, DICE_MISSING
from .views import ListView, MessageView, RefereeView


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


def rows_text(lines: tuple[str, ...]) -> str:
    """A referee screen's lines as one text: a line that goes on in lower case is a wrapped
    sentence (joined with a space); one that starts anew with a capital, a digit or a seat
    (the touch log's ``H4→H1 +7 ms`` rows) is a row of its own (after a comma)."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and out[-1] not in ".!?:;," and (line[0].isupper() or line[0].isdigit()):
            out += ","
        out = f"{out} {line}" if out else line
    return out


def _of_list(title: str, items: tuple[str, ...], selected: int | None, footer: str = "",
             key: Hashable = None) -> Reading:
    row = ""
    if selected is not None and 0 <= selected < len(items):
        row = items[selected]
        if len(items) > 1:
            row = f"{row}, řádek {selected + 1} z {len(items)}"
    whole = sentence(title, *items, footer)
    return Reading(key if key is not None else ("list", title), title, row, whole)


def read_turn(v: CloveceTurnView) -> Reading:
    who = f"{v.player} (PC)" if v.computer else v.player
    status = v.prompt
    if v.dice == "lost":
        status = DICE_LOST
    elif v.dice == "missing" and v.manual_roll is not None:
        status = DICE_MISSING
    if v.roll is not None:
        throw = f"Hod PC: {v.roll}" if v.roll_virtual else f"Hod: {v.roll}"
    elif v.manual_roll is not None:
        throw = f"Hod tlačítky: {v.manual_roll}"
    else:
        throw = f"Pokus {v.tries + 1} ze 3" if v.tries_shown else ""
    heading = sentence(who, throw, status)
    row = v.words
    if len(v.choices) > 1 and v.words:
        row = f"Tah {v.selected + 1} z {len(v.choices)}: {v.words}"
    key: Hashable = ("turn", v.colour, v.roll, v.manual_roll is not None, len(v.choices),
                     v.tries if v.tries_shown else -1, v.dice)
    if v.manual_roll is not None:
        row = ""  # the number is the row: ◀ ▶ change it, the heading says it
        key = ("turn", v.colour, None, True, v.manual_roll)
    return Reading(key, heading, row, sentence(heading, row, v.event))


def read_napij(v: NapijView) -> Reading:
    if v.banner is not None:
        b = v.banner
        said = sentence(b.title, ", ".join(b.lines), v.prompt)
        return Reading(("banner", b.title, b.lines), said, "", said)
    throws = ", ".join(str(n) for n in v.throws)
    who = f"{v.player} (PC)" if v.computer else v.player
    heading = sentence(who, f"hody {throws}" if throws else v.note, v.prompt)
    texts = tuple(r.text for r in v.rows)
    if v.selected is not None and 0 <= v.selected < len(texts):
        row = texts[v.selected]
        if len(texts) > 1:
            row = f"{row}, řádek {v.selected + 1} z {len(texts)}"
    elif v.moves:
        row = " ".join(sentence(m.text) for m in v.moves)
    else:
        row = sentence(" ".join(texts))  # a card's text: wrapped lines of sentences
    key = ("napij", v.player, v.throws, v.note, v.prompt,
           texts if v.selected is None else len(texts), tuple(m.text for m in v.moves))
    whole = sentence(heading, *(m.text for m in v.moves), *texts, v.event)
    return Reading(key, heading, row, whole)


def read(view: AnyView) -> Reading:
    """How ``view`` is read aloud."""
    if isinstance(view, CloveceTurnView):
        return read_turn(view)
    if isinstance(view, ListView):
        return _of_list(view.title, view.items, view.selected, view.footer)
    if isinstance(view, MessageView):
        body = sentence(" ".join(view.lines))  # wrapped lines of sentences
        return Reading(("message", view.title, view.lines), view.title, body,
                       sentence(view.title, body, view.footer))
    if isinstance(view, CloveceWinView):
        heading = f"Vyhrává {view.player}!"
        return Reading(("win", view.colour), heading, view.footer,
                       sentence(heading, view.footer))
    if isinstance(view, RefereeView):
        s = view.screen
        if s.selected is None:
            body = sentence(rows_text(s.lines))
            return Reading(("referee", s.title, s.lines), s.title, body, sentence(s.title, body))
        return _of_list(s.title, s.lines, s.selected, key=("referee", s.title, len(s.lines)))
    if isinstance(view, NapijView):
        return read_napij(view)
    if isinstance(view, Picture):
        return Reading(("picture", view.title), view.title, "", view.title)
    return Reading(("view", type(view).__name__), "")
