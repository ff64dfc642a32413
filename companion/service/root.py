"""The controller the service loop talks to: Člověče or Gobbit, whichever the table plays.

Both controllers share one journal; its header says which game was in play,
so the right one resumes after a restart.  The first item of each set-up
switches to the other game.
"""

from __future__ import annotations

from companion.inputs.events import Input
from companion.ui.views import View

from .journal import Journal
from .referee_table import PadsWanted, RefereeTable
from .table import Table


class Companion:
    def __init__(self, journal: Journal, clovece: Table, gobbit: RefereeTable,
                 start_with: str = "clovece") -> None:
        self.journal = journal
        self.clovece = clovece
        self.gobbit = gobbit
        records = journal.load()
        header = records[0].get("game") if records else None
        if header == "gobbit" and gobbit.mode == "play":
            self.active: Table | RefereeTable = gobbit
        elif header == "clovece" or start_with != "gobbit":
            self.active = clovece
        else:
            self.active = gobbit

    @property
    def game(self) -> str:
        return "gobbit" if self.active is self.gobbit else "clovece"

    @property
    def quit_requested(self) -> bool:
        return self.active.quit_requested

    @property
    def shutdown_requested(self) -> bool:
        return self.active.shutdown_requested

    def handle(self, event: Input, now: float) -> None:
        self.active.handle(event, now)
        self._switch()

    def _switch(self) -> None:
        target = self.active.switch_to
        if target is None:
            return
        self.active.switch_to = None
        self.active = self.gobbit if target == "gobbit" else self.clovece
        if isinstance(self.active, RefereeTable):
            self.active.mode, self.active.selected = "setup", 0
        else:
            self.active.mode, self.active.setup.selected = "setup", 0

    def tick(self, now: float) -> None:
        self.active.tick(now)

    def view(self) -> View:
        return self.active.view()

    def next_deadline(self) -> float | None:
        return self.active.next_deadline()

    def animated(self) -> bool:
        return self.active.animated()

    @property
    def contrast(self) -> int:
        return self.clovece.contrast


__all__ = ["Companion", "PadsWanted"]
