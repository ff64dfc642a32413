"""The table's voice for every game, and the voice mode for a player who cannot see the panel.

The shell calls :meth:`Narrator.after` after every input and tick (only while
the voice is on; this module is imported only then).  It compares what the
table shows now with what it showed before and says what changed, in the
words the table reads (the event lines and screens, written once; the voice
turns their signs into words, :mod:`companion.devices.speech`):

* **the game** (whenever the voice is on): what a sighted table needs - the
  event lines that matter (a capture, a piece reaching its goal or home, the
  cards, the drinks and their reasons, the winner; a host marks a plain step,
  a throw, a try for a six, a move that captured nothing, a drink answered, as
  minor: :meth:`~.hosts.host.BaseHost.note`), whose turn it is once the table
  has waited :data:`TURN_PAUSE` seconds on it (the turn screen's heading, once
  the screen names that player: not while a card or a drink is on show), and
  the ruling of a game with a judge, as the game's facts give it
  (:meth:`~.hosts.facts.Facts.settled_ruling`).  In the voice mode the table hears
  everything: every event line (also a deck's flips), whose turn it is at once, and a
  ruling with how the first touch was decided (a gap inside the pads' uncertainty is
  said as "současně").  A host may say some of its game in its own words (drinks,
  debts, a play said before it is taken, with its throw); the event lines it said so
  are not said again (:meth:`~.hosts.facts.Facts.unsaid`).
* **the voice mode** ("Hlasový režim" in the settings, for the table or for one
  seat): every new screen's heading and selected row, the row ◀ ▶ move to, the
  lines of a message (a rules page at a time), the notices that are not a step
  of the game; a short ● that changes nothing on a turn screen repeats the last
  sentence, a long ◀ reads the whole situation (the game's facts tell it:
  :meth:`~.hosts.facts.Facts.whole_game`; off the game's screens, the whole
  screen).  With a seat chosen, the game's screens are read only when they are
  that seat's (its turn, a choice asked of it; the menus always: the screen says
  whose it is, :meth:`companion.ui.views.View.whose`); the other players' turns,
  throws and moves are said as above, in full, and the notices on anybody's turn.

Announcements never pile up: each has a kind, a newer one cuts the older of its
kind, and a ruling (like a drink duty, which a host says itself) goes first
(:meth:`companion.devices.voice.Ranked.say_as`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.devices.voice import Announcer, Ranked
from companion.engines.czech import PLAYER
from companion.inputs.events import Button, ButtonPress, DiceLink, DiceNotice, Input, VoiceLink
from companion.service.hosts.base import EventLines
from companion.service.hosts.facts import Facts
from companion.service.shell import turn_colour
from companion.ui.reading import Reading, read, sentence
from companion.ui.views import whose_screen

if TYPE_CHECKING:
    from companion.service.shell import Shell

EVENT, SCREEN, TURN, RULING, REPEAT = "event", "screen", "turn", "ruling", "repeat"
"""The kinds of announcement (a newer one cuts the older of its kind)."""
PRIORITY = {EVENT: 0, SCREEN: 0, TURN: 0, REPEAT: 0, RULING: 2}
"""A ruling goes before everything waiting (a host's own words, a drink duty, are 1)."""
NOTICES = (DiceLink, DiceNotice, VoiceLink)
"""Inputs whose event lines are news about the box, not the game (said in the voice mode;
a dice notice the shell says itself)."""
TURN_PAUSE = 10.0
"""Seconds the table waits on a turn before the default voice says whose it is."""


def fresh(before: tuple[str, ...], now: tuple[str, ...]) -> tuple[str, ...]:
    """The lines of ``now`` that ``before`` did not have (both are the latest lines of one
    list, oldest first: the longest end of ``before`` that starts ``now`` is the overlap)."""
    if now == before:
        return ()
    for k in range(len(before) + 1):
        tail = before[k:]
        if now[:len(tail)] == tail:
            return now[len(tail):]
    return now


def say(voice: Announcer, text: str, kind: str) -> None:
    """Say ``text`` as an announcement of ``kind`` (an announcer without kinds: plainly).
    The game's event lines are a story told in order: none cuts another (a move said
    right after its throw keeps the throw); the others cut the older of their kind."""
    if not text:
        return
    if isinstance(voice, Ranked):
        voice.say_as(text, kind="" if kind == EVENT else kind, priority=PRIORITY[kind])
    else:
        voice.say(text, cut=kind == SCREEN)


class Narrator:
    """What the table says after each step (see the module docstring)."""

    def __init__(self) -> None:
        self.lines: tuple[str, ...] | None = None
        """The event lines last seen (``None``: nothing seen yet, nothing is news)."""
        self.turn: int | None = None
        self.ruling: object = None
        self.reading: Reading | None = None
        self.last = ""
        """The last sentence said about the game (a short ● repeats it)."""
        self.tuned: tuple[int, int] | None = None
        self.turn_since: float | None = None
        """When the turn said last began (the default voice says it after a pause)."""
        self.turn_told = False

    def forget(self) -> None:
        """The voice was off: what happened meanwhile is not news when it comes back."""
        self.lines, self.turn, self.reading = None, None, None
        self.turn_since, self.turn_told = None, False

    def reads(self, shell: Shell, facts: Facts | None, view: object = None) -> bool:
        """Whether the voice mode reads the screens now: for the table always; for one seat
        off the game's screens and on the game's screens of that seat (its turn, or what it
        is asked out of turn), never another player's (``view``: the screen shown, which
        names whose it is; else the colour on turn)."""
        mode = shell.ctx.prefs.voice_mode
        if not mode:
            return False
        if mode == "table" or shell.mode != "play":
            return True
        whose = whose_screen(view)
        if whose is None:
            whose = turn_colour(facts)
        return whose is None or str(whose) == mode

    def _say(self, shell: Shell, text: str, kind: str) -> None:
        say(shell.ctx.announcer, text, kind)
        if shell.mode == "play":
            self.last = text

    def _tune(self, shell: Shell) -> None:
        p = shell.ctx.prefs
        voice = shell.ctx.announcer
        if (p.speech_rate, p.volume) != self.tuned and isinstance(voice, Ranked):
            voice.tune(words_per_minute=p.speech_rate, amplitude=p.volume)
            self.tuned = (p.speech_rate, p.volume)

    def after(self, shell: Shell, event: Input | None, now: float | None = None) -> None:
        """Say what changed since the last call (``event``: the input just handled, if any;
        ``now``: the table's time, for whose turn after a pause)."""
        self._tune(shell)
        facts = shell.facts()
        lines = facts.events if facts is not None else ()
        notice = isinstance(event, NOTICES)
        new = fresh(self.lines, lines) if self.lines is not None else ()
        view = shell.view()
        reads = self.reads(shell, facts, view)
        everything = bool(shell.ctx.prefs.voice_mode)
        if facts is not None:
            new = facts.unsaid(new)
        if not everything:
            new = self._told(shell, facts, lines, new)
        spoke = ruled = False
        settled = facts.settled_ruling(everything) if facts is not None else None
        if settled is not None and settled[0] != self.ruling:
            if self.ruling is not None or self.lines is not None:
                self._say(shell, settled[1], RULING)
                spoke = ruled = True
            self.ruling = settled[0]
        if facts is not None:
            new = facts.after_ruling(new, settled[1] if ruled and settled is not None else None)
        if new and (not notice or shell.ctx.prefs.voice_mode):
            self._say(shell, sentence(*new), EVENT)
            spoke = True
        turn = turn_colour(facts)
        reading = read(view)
        named = turn is not None and PLAYER[turn] in reading.heading
        if turn is not None and not named:
            turn = self.turn  # a card or a drink on show: the turn is said once it is gone
        if turn != self.turn:
            self.turn_since, self.turn_told = now, reads  # a screen read says it itself
        if shell.mode == "play" and turn is not None and named and not reads \
                and not self.turn_told:
            waited = now is None or self.turn_since is None or now - self.turn_since >= TURN_PAUSE
            if everything or waited:  # the voice mode at once, the default after a pause
                self._say(shell, reading.heading, TURN)
                spoke, self.turn_told = True, True
        if reads:
            old = self.reading
            if old is None or reading.key != old.key:
                # a ruling just said: its verdict screen's title, not its sentences again
                self._say(shell, reading.heading if ruled else reading.new_screen(), SCREEN)
                spoke = True
            elif reading.row != old.row and reading.row:
                self._say(shell, sentence(reading.row), SCREEN)
                spoke = True
            elif (isinstance(event, ButtonPress) and event.name == Button.SELECT and not event.long
                  and shell.mode == "play" and not spoke and not new and self.last):
                say(shell.ctx.announcer, self.last, REPEAT)
        self.lines, self.turn, self.reading = lines, turn, reading

    @staticmethod
    def _told(shell: Shell, facts: Facts | None, lines: tuple[str, ...],
              new: tuple[str, ...]) -> tuple[str, ...]:
        """The new lines the default voice says: not the steps a host marked minor, nor the
        deck's flips (:meth:`~.hosts.facts.Facts.told`)."""
        if facts is not None:
            new = facts.told(new)
        kept = getattr(shell.hosts.get(shell.game), "lines", None)
        if not new or not isinstance(kept, EventLines) or kept.lines() != lines:
            return new
        minor = kept.minor()[len(lines) - len(new):]  # the new lines are the latest
        return tuple(x for x, plain in zip(new, minor, strict=True) if not plain)

    def whole(self, shell: Shell) -> None:
        """A long ◀: the whole situation of the game (or the whole screen off the game)."""
        facts = shell.facts() if shell.mode == "play" else None
        text = facts.whole_game() if facts is not None else ""
        say(shell.ctx.announcer, text or read(shell.view()).whole, SCREEN)
