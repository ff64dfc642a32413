"""Calibrating the pads at the table: the referee's screens around a calibration session.

The players slap two neighbouring pads at once with one flat hand (across the
guard gap), each pad about a dozen times, or touch a row of pads with a
conductive bar; the screen counts the slaps and the pads that are done.  ●
ends it: the offsets and the spread are computed
(:mod:`companion.hardware.padcal`), handed to ``save`` (the host stores them in
the data folder and they take effect at once) and shown as a small table: each
pad's offset in milliseconds, two pads a line, then the spread that becomes the
judge's uncertainty (decision D28).  ◀ leaves without saving.

With the pad hub, the first screen names the pads whose channel the hub's latest raw
counts show saturated, shorted, open or silent (:class:`~companion.inputs.pads.PadChannels`),
so a builder fixes the wiring before slapping.

Inputs: :meth:`CalibrationModel.on_pad_event` and :meth:`~CalibrationModel.on_button`;
output: :meth:`~CalibrationModel.screen`; :attr:`~CalibrationModel.done` when the
table may go back to the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum

from companion.engines.gobbit.describe import ms_text
from companion.hardware.padcal import MIN_SLAPS, Calibration, CalibrationError, CalibrationSession
from companion.hardware.padtiming import PadTiming
from companion.inputs.pads import Pad, PadChannels, PadSignal, PadTouch
from companion.ui.referee import WIDTH, Screen, paginate, row, title_with, wrap


class Step(StrEnum):
    COLLECT = "collect"
    RESULT = "result"
    FAILED = "failed"


def signed_ms(ms: float) -> str:
    """``+3,2`` / ``-0,4`` / ``+0,0``: an offset to a tenth of a millisecond."""
    tenth = round(ms, 1) + 0.0  # no "-0,0"
    return f"{tenth:+.1f}".replace(".", ",")


def offset_lines(cal: Calibration) -> list[str]:
    """The offsets, two pads a line: ``1>2  +3,2   2>2  -1,0``."""
    cells = [f"{pad.key:<4}{signed_ms(ms):>6}" for pad, ms, _n in cal.table()]
    lines = []
    for i in range(0, len(cells), 2):
        pair = cells[i:i + 2]
        lines.append((pair[0] + " " + pair[1]) if len(pair) == 2 else pair[0])
    assert all(len(line) <= WIDTH for line in lines)
    return lines


CHANNEL_WORDS = {"saturated": "nenabíjí se", "shorted": "zkrat na 3,3 V",
                 "open": "bez podložky", "silent": "bez odpovědi"}
"""A pad hub channel's problem in the table's words (:data:`companion.inputs.pads.CHANNEL_PROBLEMS`)."""


def channel_lines(channels: PadChannels, room: int = 3) -> list[str]:
    """``Vadné kanály:`` and a pad a line (``2>3 nenabíjí se``), at most ``room`` lines."""
    lines = [f"{p.pad.key} {CHANNEL_WORDS.get(p.problem, p.problem)}" for p in channels.problems]
    if len(lines) > room - 1:
        lines = lines[:room - 2] + [f"… a další {len(lines) - (room - 2)}"]
    return ["Vadné kanály:", *lines]


class CalibrationModel:
    """One calibration of ``pads``; ``save(calibration)`` stores it and returns the budget in force."""

    def __init__(self, pads: Iterable[Pad], save: Callable[[Calibration], PadTiming], *,
                 before_ms: float, min_slaps: int = MIN_SLAPS,
                 channels: PadChannels | None = None) -> None:
        self.session = CalibrationSession(pads, min_slaps=min_slaps)
        self.save = save
        self.before_ms = before_ms
        self.step = Step.COLLECT
        self.result: Calibration | None = None
        self.saved: PadTiming | None = None
        self.problem = ""
        self.page = 0
        self.done = False
        self.channels = channels
        """The pad hub's latest report on its channels (None: GPIO pads, or none yet)."""

    def on_pad_event(self, event: PadSignal) -> None:
        if isinstance(event, PadChannels):
            self.channels = event
        elif self.step is Step.COLLECT and isinstance(event, PadTouch):
            self.session.feed(event)

    def on_button(self, button: str) -> None:
        if self.step is Step.COLLECT:
            if button == "select":
                self.finish()
            elif button == "left":
                self.done = True  # nothing saved
        elif self.step is Step.RESULT and button == "right":
            self.page = (self.page + 1) % len(self._pages())
        elif button in ("select", "left"):
            self.done = True

    def finish(self) -> None:
        """Compute, save and show; too few slaps or pads left out say so instead."""
        try:
            cal = self.session.result()
        except CalibrationError:
            self.step, self.problem = Step.FAILED, ("Žádné plácnutí nezasáhlo dvě podložky "
                                                    "naráz, nic se neuložilo.")
            return
        if cal.missing:
            names = " ".join(p.key for p in cal.missing[:6]) + (" …" if len(cal.missing) > 6 else "")
            self.step, self.problem = Step.FAILED, (
                f"Tyto podložky se s ostatními nepropojily: {names}. Plácni i přes ně, "
                "nic se neuložilo.")
            return
        self.result = cal
        try:
            self.saved = self.save(cal)
        except OSError:
            self.step, self.problem = Step.FAILED, "Kalibraci se nepodařilo uložit."
            return
        self.step, self.page = Step.RESULT, 0

    # --- screens -----------------------------------------------------------------------------

    def screen(self) -> Screen:
        if self.step is Step.COLLECT:
            return self._collect_screen()
        if self.step is Step.FAILED:
            return Screen("Kalibrace", tuple(wrap(self.problem)[:3]) + ("● zpět",))
        pages = self._pages()
        return pages[self.page % len(pages)]

    def _collect_screen(self) -> Screen:
        done, total = self.session.progress
        slaps = len(self.session.all_slaps())
        if not slaps and self.channels is not None and self.channels.problems:
            text = channel_lines(self.channels)
        elif not slaps:
            text = wrap("Plácni dlaní přes dvě sousední podložky naráz, "
                        f"každou {self.session.min_slaps}×.")
        else:
            text = [row("Plácnutí", str(slaps)),
                    row("Hotové podložky", f"{done}/{total}")]
        footer = "●uložit ◀zrušit" if self.session.ready else "●hotovo ◀zrušit"
        return Screen(title_with("Kalibrace", f"{done}/{total}"), (*text[:3], footer))

    def _pages(self) -> list[Screen]:
        cal, saved = self.result, self.saved
        assert cal is not None and saved is not None
        summary = [row("Rozptyl", f"±{ms_text(saved.uncertainty_ms)} ms"),
                   row("Dosud", f"±{ms_text(self.before_ms)} ms"),
                   row("Plácnutí", str(cal.slaps)), "Uloženo. ●zpět ▶více"]
        sections = [("Kalibrace hotová", [[line] for line in summary]),
                    ("Posun podložek ms", [[line] for line in offset_lines(cal)])]
        return paginate(sections)
