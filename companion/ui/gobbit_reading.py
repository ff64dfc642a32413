"""How Gobbit's referee panels are read aloud (the voice mode; :mod:`companion.ui.reading`
imports this module when a panel is first read: each view names its reader)."""

from __future__ import annotations

from .gobbit_screens import RefereeView
from .reading import Reading, of_list, sentence


def read_referee(view: RefereeView) -> Reading:
    """A panel read aloud: its title and every line, or as a list when a line is selected."""
    s = view.screen
    if s.selected is None:
        body = sentence(" ".join(s.lines))
        return Reading(("referee", s.title, s.lines), s.title, body, sentence(s.title, body))
    return of_list(s.title, s.lines, s.selected, key=("referee", s.title, len(s.lines)))
