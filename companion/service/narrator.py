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
  in Gobbit the ruling (the virtual deck's as it settles, referee mode's (real
  cards) as its verdict screen shows it).  In the voice mode the table hears
  everything: every event line (also the virtual deck's flips), whose turn it
  is at once, and a ruling with how the first touch was decided (a gap inside
  the pads' uncertainty is said as "současně").  A host may say some of its game in its own words (napij se:
  drinks, debts, a play said before it is taken, with its throw); the event
  lines it said so are marked (``NapijFacts.said``) and not said again.
* **the voice mode** ("Hlasový režim" in the settings, for the table or for one
  seat): every new screen's heading and selected row, the row ◀ ▶ move to, the
  lines of a message (a rules page at a time), the notices that are not a step
  of the game; a short ● that changes nothing on a turn screen repeats the last
  sentence, a long ◀ reads the whole situation (every colour's pieces, every
  Gobbit pile, the referee's latest touches and cards; off the game's screens,
  the whole screen).  With a seat chosen, the game's screens are read only when
  they are that seat's (its turn, a choice asked of it; the menus always); the
  other players' turns, throws and moves are said as above, in full, and the
  notices on anybody's turn.

Announcements never pile up: each has a kind, a newer one cuts the older of its
kind, and a ruling (like a drink duty, which a host says itself) goes first
(:meth:`companion.devices.voice.Ranked.say_as`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from companion.devices.voice import Announcer, Ranked
from companion.engines.czech import PLAYER
from companion.games.clovece.screens import CloveceTurnView
from companion.games.napij.views import NapijView
from companion.inputs.events import Button, ButtonPress, DiceLink, DiceNotice, Input, VoiceLink
from companion.service.hosts.base import EventLines
from companion.service.hosts.facts import CloveceFacts, Facts, GobbitFacts, NapijFacts, RefereeFacts
from companion.service.shell import turn_colour
from companion.ui.reading import Reading, read, sentence

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
FLIP = re.compile(r"^Hráč \d+ otočil ")
"""A flip of Gobbit's virtual deck (its event line, :func:`companion.games.gobbit.engine.describe.
describe_event`): shown on the panel, said only in the voice mode."""
COUNT = ("žádná", "jedna", "dvě", "tři", "čtyři")
PIECES = ("figurek", "figurka", "figurky", "figurky", "figurky")


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


def ruling_words(facts: GobbitFacts, calls: bool = True) -> str:
    """A settled ruling of the virtual deck: how each contested place was decided (with
    ``calls``: the voice mode), then what it does to the piles and why a foul was one (the
    verdict screen's sentences)."""
    from companion.games.gobbit.engine.describe import (
        call_sentences,
        ruling_sentences,
        why_sentence,
    )
    from companion.games.gobbit.engine.judge import Kind

    ruling = facts.ruling
    if ruling is None:
        return ""
    how = [s for c in ruling.calls for s in call_sentences(ruling, c.target)] if calls else []
    tops = dict(facts.judged_tops)
    why = [why_sentence(v, tops) for v in ruling.verdicts if v.kind in (Kind.FOUL, Kind.MISTAKE)]
    return " ".join([*how, *ruling_sentences(ruling), *why])


def screen_colour(view: object) -> int | None:
    """The colour whose screen ``view`` is (a Člověče turn, a napij se player's throw, play or
    choice), or ``None`` when it is nobody's own."""
    if isinstance(view, CloveceTurnView):
        return view.colour
    if isinstance(view, NapijView) and view.banner is None:
        return view.mark
    return None


def settled_ruling(facts: Facts | None, calls: bool = True) -> tuple[object, str] | None:
    """The ruling to say, with what tells it from the one said before: the virtual deck's
    settled ruling (``calls``: with how each place was decided), or the ruling on referee
    mode's verdict screen (real cards)."""
    if isinstance(facts, GobbitFacts) and facts.ruling is not None and not facts.provisional:
        return facts.ruling, ruling_words(facts, calls)
    if isinstance(facts, RefereeFacts) and facts.ruling:
        return (facts.ruling_of, facts.ruling), " ".join(facts.ruling)
    return None


def clovece_situation(facts: CloveceFacts) -> str:
    """Where every colour's pieces are ("Červený: dvě figurky v domečku, jedna na 12. poli
    od startu, jedna v cíli 2; modrý: ...")."""
    from companion.games.clovece.engine.describe import field_where
    from companion.games.clovece.engine.rules import HOUSE

    parts: list[str] = []
    for colour, pieces in enumerate(facts.pos.pieces):
        if pieces is None:
            continue
        house = sum(1 for p in pieces if p == HOUSE)
        words = []
        if house:
            words.append(f"{COUNT[house]} {PIECES[house]} v domečku")
        for p in sorted((p for p in pieces if p != HOUSE), reverse=True):
            where = field_where(p)
            words.append(f"jedna {where} od startu" if where.startswith("na ") and p
                         else f"jedna {where}")
        who = PLAYER[colour] if not parts else PLAYER[colour].lower()
        parts.append(f"{who}: {', '.join(words)}")
    turn = f"Na tahu je {PLAYER[facts.pos.turn].lower()}."
    return "; ".join(parts) + ". " + turn


def napij_situation(facts: NapijFacts) -> str:
    from companion.games.napij.engine.places import piece_places

    s = facts.state
    parts: list[str] = []
    for colour, pieces in enumerate(s.pieces):
        if pieces is None:
            continue
        parts.append(f"{PLAYER[colour]}: {', '.join(piece_places(s, colour))}")
    return "; ".join(parts) + f". Na tahu je {PLAYER[s.turn].lower()}."


def gobbit_situation(facts: GobbitFacts) -> str:
    st = facts.state
    parts = []
    for seat in st.seats:
        deck, pile = len(st.decks[seat - 1]), len(st.piles[seat - 1])
        parts.append(f"Hráč {seat}: balíček {deck}, kupička {pile}")
    turn = "" if st.over else f" Otáčí hráč {st.turn}."
    ruling = ruling_words(facts) if not facts.provisional else ""
    last = f" Poslední verdikt: {ruling}" if ruling else ""
    return "; ".join(parts) + f"; hřbitov {len(st.graveyard)}." + turn + last


def situation(facts: Facts | None) -> str:
    """The whole game in one text (a long ◀ in the voice mode), or "" when unknown."""
    if isinstance(facts, CloveceFacts):
        return clovece_situation(facts)
    if isinstance(facts, NapijFacts):
        return napij_situation(facts)
    if isinstance(facts, GobbitFacts):
        return gobbit_situation(facts)
    if isinstance(facts, RefereeFacts):
        return facts.summary
    return ""


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
        whose = screen_colour(view)
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
        if isinstance(facts, NapijFacts) and new and len(facts.said) == len(lines):
            said = facts.said[len(lines) - len(new):]  # the new lines are the latest
            new = tuple(x for x, done in zip(new, said, strict=True) if not done)
        if not everything:
            new = self._told(shell, facts, lines, new)
        spoke = ruled = False
        settled = settled_ruling(facts, calls=everything)
        if settled is not None and settled[0] != self.ruling:
            if self.ruling is not None or self.lines is not None:
                self._say(shell, settled[1], RULING)
                spoke = ruled = True
            self.ruling = settled[0]
        if isinstance(facts, RefereeFacts):
            new = ()  # the rulings the table confirmed: said as they were shown
        if ruled and settled is not None and isinstance(facts, GobbitFacts):  # said with it
            new = tuple(x for x in new if x not in settled[1])
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
        virtual deck's flips."""
        if isinstance(facts, GobbitFacts):
            return tuple(x for x in new if not FLIP.match(x))
        kept = getattr(shell.hosts.get(shell.game), "lines", None)
        if not new or not isinstance(kept, EventLines) or kept.lines() != lines:
            return new
        minor = kept.minor()[len(lines) - len(new):]  # the new lines are the latest
        return tuple(x for x, plain in zip(new, minor, strict=True) if not plain)

    def whole(self, shell: Shell) -> None:
        """A long ◀: the whole situation of the game (or the whole screen off the game)."""
        text = situation(shell.facts()) if shell.mode == "play" else ""
        say(shell.ctx.announcer, text or read(shell.view()).whole, SCREEN)
