"""Calibrating the pads at the table: the referee's screens around a calibration session.

The players slap two neighbouring pads at once with one flat hand (across the
guard gap), each pad about a dozen times, or touch a row of pads with a
conductive bar; the screen counts the slaps and the pads that are done.  ●
ends it: the offsets and the spread are computed
(:mod:`companion.devices.pads.calibration`) and judged (:func:`~companion.devices.pads.calibration.assess`):
only a sound result that is better than the pad type's declared uncertainty is handed
to ``save`` (the host stores it in the data folder and it takes effect at once) and
shown as a small table: each pad's offset in milliseconds, two pads a line, then the
spread that becomes the judge's uncertainty (decision D28).  Otherwise one sentence says
why and what to do, the uncertainty in force stays (in the title), ● goes on slapping
(when pads lacked slaps) or starts again, ◀ leaves.  ◀ while slapping leaves unsaved.

With the pad hub, the first screen names the pads whose channel the hub's latest raw
counts show saturated, shorted, open or silent (:class:`~companion.inputs.pads.PadChannels`),
so a builder fixes the wiring before slapping.

Inputs: :meth:`CalibrationModel.on_pad_event` and :meth:`~CalibrationModel.on_button`;
output: :meth:`~CalibrationModel.screen`; :attr:`~CalibrationModel.done` when the
table may go back to the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from companion.devices.pads.calibration import (
    MIN_SLAPS,
    Calibration,
    CalibrationError,
    CalibrationSession,
    Refusal,
    assess,
)
from companion.devices.pads.timing import PadTiming
from companion.games.gobbit.engine.describe import ms_text
from companion.games.gobbit.referee import words as W
from companion.inputs.events import Button
from companion.inputs.pads import Pad, PadChannels, PadSignal, PadTouch
from companion.ui.referee import BODY_LINES, WIDTH, Screen, paginate, row, title_with, wrap


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


def _names(pads: Sequence[Pad]) -> str:
    keys = [p.key for p in pads]
    if len(keys) > 2:
        return ", ".join(keys[:2]) + " a další"
    return " a ".join(keys)


def refusal_sentence(refusal: Refusal) -> str:
    """Why a calibration is not stored and what to do, in one Czech sentence."""
    if refusal.rule == "few":
        if len(refusal.pads) == 1:
            return W.CAL_FEW_ONE.format(pad=refusal.pads[0].key, slaps=refusal.slaps,
                                        wanted=refusal.wanted)
        return W.CAL_FEW_MANY.format(pads=_names(refusal.pads))
    if refusal.rule == "uneven":
        a, b = refusal.pads
        return W.CAL_UNEVEN.format(a=a.key, b=b.key)
    return W.CAL_WORSE.format(spread=ms_text(refusal.spread_ms),
                              declared=ms_text(refusal.declared_ms))


class CalibrationModel:
    """One calibration of ``pads``; ``save(calibration)`` stores it and returns the budget in
    force.  ``before_ms``: the uncertainty in force now; ``declared_ms``: the pad type's
    declared one, which a calibration must beat to be stored."""

    def __init__(self, pads: Iterable[Pad], save: Callable[[Calibration], PadTiming], *,
                 before_ms: float, declared_ms: float | None = None,
                 min_slaps: int = MIN_SLAPS, channels: PadChannels | None = None) -> None:
        self.pads = tuple(pads)
        self.session = CalibrationSession(self.pads, min_slaps=min_slaps)
        self.save = save
        self.before_ms = before_ms
        self.declared_ms = before_ms if declared_ms is None else declared_ms
        self.step = Step.COLLECT
        self.result: Calibration | None = None
        self.saved: PadTiming | None = None
        self.problem = ""
        self.keep_slaps = False
        """After a refusal: ● goes on with the slaps so far (some pads lacked slaps)."""
        self.page = 0
        self.done = False
        self.channels = channels
        """The pad hub's latest report on its channels (None: GPIO pads, or none yet)."""

    def on_pad_event(self, event: PadSignal) -> None:
        if isinstance(event, PadChannels):
            self.channels = event
        elif self.step is Step.COLLECT and isinstance(event, PadTouch):
            self.session.feed(event)

    def on_button(self, button: Button) -> None:
        if self.step is Step.COLLECT:
            if button == Button.SELECT:
                self.finish()
            elif button == Button.LEFT:
                self.done = True  # nothing saved
        elif self.step is Step.RESULT:
            if button == Button.RIGHT:
                self.page = (self.page + 1) % len(self._pages())
            elif button == Button.SELECT:
                self.done = True
        elif button == Button.SELECT:  # after a refusal: slap on, or again
            if not self.keep_slaps:
                self.session = CalibrationSession(self.pads, min_slaps=self.session.min_slaps)
            self.step, self.problem = Step.COLLECT, ""
        elif button == Button.LEFT:
            self.done = True

    def _refuse(self, sentence: str, keep_slaps: bool = False) -> None:
        self.step, self.problem, self.keep_slaps = Step.FAILED, sentence, keep_slaps

    def finish(self) -> None:
        """Compute, judge, save and show; a result that is not sound says why instead."""
        try:
            cal = self.session.result()
        except CalibrationError:
            self._refuse(W.CAL_NO_PAIR, keep_slaps=True)
            return
        if cal.missing:
            self._refuse(W.CAL_MISSING.format(pads=_names(cal.missing)), keep_slaps=True)
            return
        refusal = assess(cal, declared_ms=self.declared_ms, min_slaps=self.session.min_slaps)
        if refusal is not None:
            self.result = cal
            self._refuse(refusal_sentence(refusal), keep_slaps=refusal.rule == "few")
            return
        self.result = cal
        try:
            self.saved = self.save(cal)
        except OSError:
            self._refuse(W.CAL_NOT_SAVED, keep_slaps=True)
            return
        self.step, self.page = Step.RESULT, 0

    # --- screens -----------------------------------------------------------------------------

    def screen(self) -> Screen:
        if self.step is Step.COLLECT:
            return self._collect_screen()
        if self.step is Step.FAILED:
            keys = W.CAL_KEYS_MORE if self.keep_slaps else W.CAL_KEYS_AGAIN
            title = W.CAL_REFUSED_TITLE.format(before=ms_text(self.before_ms))
            return Screen(title, (*wrap(self.problem)[:BODY_LINES - 1], keys))
        pages = self._pages()
        return pages[self.page % len(pages)]

    def _collect_screen(self) -> Screen:
        done, total = self.session.progress
        slaps = len(self.session.all_slaps())
        if not slaps and self.channels is not None and self.channels.problems:
            text = channel_lines(self.channels)
        elif not slaps:
            text = wrap(W.CAL_START.format(slaps=self.session.min_slaps))
        else:
            text = [row(W.CAL_SLAPS, str(slaps)), row(W.CAL_PADS_DONE, f"{done}/{total}")]
        footer = W.CAL_KEYS_READY if self.session.ready else W.CAL_KEYS_COLLECT
        return Screen(title_with(W.CAL_TITLE, f"{done}/{total}"), (*text[:3], footer))

    def _pages(self) -> list[Screen]:
        cal, saved = self.result, self.saved
        assert cal is not None and saved is not None
        summary = [row(W.CAL_SPREAD, f"±{ms_text(saved.uncertainty_ms)} ms"),
                   row(W.CAL_BEFORE, f"±{ms_text(self.before_ms)} ms"),
                   row(W.CAL_SLAPS, str(cal.slaps))]
        sections = [(W.CAL_DONE_TITLE, [[line] for line in summary]),
                    (W.CAL_OFFSETS_TITLE, [[line] for line in offset_lines(cal)])]
        pages = paginate(sections, lines=BODY_LINES - 1)
        keys = W.CAL_RESULT_KEYS if len(pages) > 1 else W.CAL_RESULT_KEYS_ONE_PAGE
        return [Screen(p.title, (*p.lines, keys)) for p in pages]
