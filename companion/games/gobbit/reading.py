"""How Gobbit's referee panels are read aloud (the voice mode; :mod:`companion.ui.reading`
imports this module when a panel is first read: each view names its reader)."""

from __future__ import annotations

from companion.games.gobbit.screens import RefereeView
from companion.ui.reading import Reading, of_list, sentence


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


def read_referee(view: RefereeView) -> Reading:
    """A panel read aloud: its title and every line, or as a list when a line is selected."""
    s = view.screen
    if s.selected is None:
        body = sentence(rows_text(s.lines))
        return Reading(("referee", s.title, s.lines), s.title, body, sentence(s.title, body))
    return of_list(s.title, s.lines, s.selected, key=("referee", s.title, len(s.lines)))
