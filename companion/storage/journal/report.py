"""What a load of the journal found, in Czech words for the table."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.storage.journal.lines import Record

_ACTIONS = {
    "roll": "hod {v}", "throw": "hod {v}", "move": "tah", "play": "tah kartou",
    "draw": "tažená karta", "shuffle": "zamíchání", "bottle": "láhev", "choose": "volba figurky",
    "offer": "nabídka", "decline": "odmítnutí", "drank": "napití", "duty": "povinnost pít",
    "deal": "rozdání", "flip": "otočená karta", "discard": "odhozená karta",
    "touches": "plácnutí", "finish": "konec hry",
}
_COLOURS = {"r": "červený", "g": "zelený", "y": "žlutý", "b": "modrý"}
WORDS_SHOWN = 4
"""At most this many lost actions are named; the rest are counted."""


def records_cz(n: int) -> str:
    if n == 1:
        return "1 záznam"
    if 2 <= n <= 4:
        return f"{n} záznamy"
    return f"{n} záznamů"


def without_records(n: int) -> str:
    """ "bez 1 záznamu", "bez 11 záznamů" """
    return "bez 1 záznamu" if n == 1 else f"bez {n} záznamů"


def action_words(record: Record) -> str:
    """A record in a few Czech words ("hod 5", "tah"), without the game's state."""
    text = _ACTIONS.get(str(record.get("t")), "akce").format(v=record.get("v", "?"))
    colour = _COLOURS.get(str(record.get("c", "")))
    src = record.get("src")
    if colour:
        text = f"{colour}: {text}"
    elif src == "computer":
        text += " (PC)"
    return text


def lost_sentence(lost: int, known: list[Record]) -> str:
    """ "Ztratily se poslední 3 akce: hod 5, tah, …; zahrajte je znovu." """
    if lost == 1:
        head = "Ztratila se poslední akce"
    elif 2 <= lost <= 4:
        head = f"Ztratily se poslední {lost} akce"
    else:
        head = f"Ztratilo se posledních {lost} akcí"
    words = [action_words(r) for r in known[:WORDS_SHOWN]]
    unknown = lost - len(known)
    if len(known) > WORDS_SHOWN:
        words.append(f"a {len(known) - WORDS_SHOWN} další")
    if unknown > 0:
        words.append(f"{unknown} nečitelná" if unknown == 1 else f"{unknown} nečitelné")
    again = "zahrajte ji znovu" if lost == 1 else "zahrajte je znovu"
    return f"{head}: {', '.join(words)}; {again}." if words else f"{head}; {again}."


@dataclass(frozen=True)
class LoadReport:
    """What :meth:`Journal.load` found and did (all zero for a clean journal)."""

    recovered: int = 0  # records loaded
    lost: int = 0  # records that were confirmed once and could not be recovered
    torn: bool = False  # an unfinished last record (never confirmed) was cut off
    damaged: bool = False  # damage before the end: the file was kept and rewritten
    copy: Path | None = None  # where the damaged file was kept
    repaired: bool = True  # the file on disk is clean again (False: appends are refused)
    error: str = ""  # Czech: why the journal cannot be written now ("Nelze uložit: …")
    lost_records: tuple[Record, ...] = field(default=(), compare=False)
    """The lost records that still checked out (after a gap), for the words."""
    from_checkpoint: bool = False  # the game resumed from a checkpoint (earlier history gone)
    header_lost: bool = False  # the game's header was damaged in both files
    unusable: bool = False  # nothing certain was left: the game cannot be resumed
    note: str = ""
    """One Czech sentence on what was not resumed and why, and where the whole journal is
    kept (a record or a format this version does not know, a header it cannot play)."""

    @property
    def clean(self) -> bool:
        return not (self.torn or self.damaged or self.note) and self.repaired

    @property
    def message(self) -> str:
        """One to three Czech sentences for the screen; "" for a clean journal."""
        parts = [self.note] if self.note else []
        kept = f" Poškozený deník je uložen jako {self.copy.name}." if self.copy else ""
        if self.unusable:
            parts.append("Deník je poškozený a hru z něj nejde obnovit." + kept)
        elif self.damaged:
            if self.header_lost:
                parts.append("Začátek deníku byl poškozený: hra obnovena z uloženého stavu.")
            if self.lost:
                parts.append(lost_sentence(self.lost, list(self.lost_records)) + kept)
            elif not self.header_lost:
                parts.append(f"Deník byl poškozený: obnoveno {records_cz(self.recovered)}, "
                             "nic se neztratilo.")
        elif self.torn:
            parts.append("Poslední neúplný záznam zahozen.")
        if self.error:
            parts.append(self.error)
        return " ".join(parts)
