"""How the napij se screens are read aloud (the voice mode; :mod:`companion.ui.reading` imports
this module when a napij view is first read: each view names its reader)."""

from __future__ import annotations

from companion.games.napij.views import NapijView
from companion.ui.reading import Reading, sentence


def read_napij(v: NapijView) -> Reading:
    """A napij screen read aloud: its banner, or who, the throws, what to do and the rows."""
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
