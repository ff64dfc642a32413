"""A player who only listens: it plays from the voice's sentences alone.

The robot stands in for a player who cannot see the panel.  It hears what the
voice's WAV twin really said (:attr:`WavAnnouncer.history`: the texts espeak-ng
read, signs and numbers already words, none that was dropped), never a screen,
a view or the game's state.  Its hands are the table's: the three buttons, the
die it throws, and the clock (it waits when nothing it heard asks for it).

What it understands is what a person at the table would: "hoď kostkou" (throw),
"tah dva ze tří: ..." (one of several moves, read as ▶ moves to it: it listens
to every one, chooses, goes back to it and presses ●), "řádek ..." (a list),
"jediný tah", "tlačítko uprostřed ..." (● is asked for: a move to confirm, a
drink drunk, a card read), "vyhrává" (the game is over).  Every choice between
moves is made from the words heard: a capture first, then a piece reaching its
goal or home, then one leaving the house, then the one that goes furthest.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Protocol

from companion.devices.speech import cardinal, cardinal_gen
from companion.devices.voice import Announcement
from companion.inputs.events import Button, ButtonPress, Input, Rolled

NUMBER = {cardinal(n): n for n in range(1, 40)} | {cardinal_gen(n): n for n in range(2, 40)}
"""The numbers the voice says in a list's position ("tah dva ze tří")."""
OPTION = re.compile(r"\b(?:tah|řádek) (\w+(?: \w+)?) (?:z|ze) (\w+(?: \w+)?)\b", re.IGNORECASE)
QUIET_WAITS = 8
"""Waits in silence before the robot asks for the last sentence again (a short ●)."""
WORD_SCORES = (("vyhodí", 100), ("vyhodil", 100), ("do cíle", 60), ("domek", 50),
               ("domku", 50), ("z domečku na start", 40), ("z hospody", 40), ("karta", 10))
"""What makes a move heard good, in the robot's own judgement."""


class Table(Protocol):
    """What the robot's hands reach: inputs and the passing of time (the shell)."""

    def handle(self, event: Input, now: float) -> None: ...
    def tick(self, now: float) -> None: ...


class Ears(Protocol):
    """What the robot hears: the WAV twin's announcements."""

    history: object

    def wait(self, timeout: float | None = None) -> bool: ...


@dataclass
class Heard:
    """What the robot did and heard (for the test that keeps it honest)."""

    sentences: list[str] = field(default_factory=list)
    throws: int = 0
    choices: int = 0
    """Moves chosen among several, each from their heard words."""
    presses: int = 0
    over: bool = False


def number(words: str) -> int | None:
    return NUMBER.get(words.strip().lower())


def score(words: str) -> int:
    """The robot's judgement of a move it heard."""
    text = words.lower()
    total = sum(points for phrase, points in WORD_SCORES if phrase in text)
    ordinals = re.findall(r"na (\w+)(?: (\w+))? pole", text)
    return total + len(ordinals)


class ListeningRobot:
    def __init__(self, table: Table, ears: Ears, rng: random.Random, *, now: float = 0.0,
                 step: float = 0.5) -> None:
        self.table = table
        self.ears = ears
        self.rng = rng
        self.now = now
        self.step = step
        self.seq = 0
        self.heard = Heard()

    # --- ears ---------------------------------------------------------------------------

    def listen(self) -> list[str]:
        """Everything said since the last listen (waits until the voice is quiet)."""
        self.ears.wait(60)
        items: list[Announcement] = list(self.ears.history)  # type: ignore[call-overload]
        new = [a for a in items if a.seq > self.seq and not a.dropped and a.samples]
        if items:
            self.seq = max(self.seq, items[-1].seq)
        said = [a.text for a in new]
        self.heard.sentences += said
        return said

    # --- hands ----------------------------------------------------------------------------

    def press(self, name: str) -> list[str]:
        self.now += 0.05
        self.heard.presses += 1
        self.table.handle(ButtonPress(Button(name)), self.now)
        return self.listen()

    def wait(self) -> list[str]:
        self.now += self.step
        self.table.tick(self.now)
        return self.listen()

    def throw(self) -> list[str]:
        self.now += 0.05
        self.heard.throws += 1
        self.table.handle(Rolled(self.rng.randint(1, 6)), self.now)
        return self.listen()

    # --- the game -------------------------------------------------------------------------

    def choose(self, first: str) -> list[str]:
        """Several moves: hear each (▶), choose one by its words, go back to it, press ●."""
        options: dict[int, str] = {}
        heard = first
        for _ in range(40):
            m = OPTION.search(heard)
            if m is None:
                break
            at, of = number(m.group(1)), number(m.group(2))
            if at is None or of is None:
                break
            if at in options:
                break
            options[at] = heard[m.end():]
            if len(options) == of:
                break
            said = self.press("right")
            heard = next((s for s in reversed(said) if OPTION.search(s)), "")
        if not options:
            return self.press("select")
        best = max(sorted(options), key=lambda k: score(options[k]))
        for _ in range(len(options) + 1):
            m = OPTION.search(heard)
            if m is not None and number(m.group(1)) == best:
                break
            said = self.press("right")
            heard = next((s for s in reversed(said) if OPTION.search(s)), "")
        self.heard.choices += 1 if len(options) > 1 else 0
        return self.press("select")

    def act(self, said: list[str]) -> list[str]:
        """One action on what was heard last."""
        last = " ".join(said[-2:]).lower()
        if "vyhrává" in last or "vyhrál" in last:
            self.heard.over = True
            return []
        latest = said[-1] if said else ""
        if OPTION.search(latest):
            return self.choose(latest)
        if "hoď kostkou" in last or "hoď znovu" in last:
            return self.throw()
        if "jediný tah" in last or "tlačítko uprostřed" in last:
            return self.press("select")
        return self.wait()

    def play(self, *, max_actions: int = 5000, until_throws: int | None = None) -> Heard:
        """Play until the winner is heard (or ``until_throws`` throws, a round)."""
        said = self.listen()
        quiet = 0
        for _ in range(max_actions):
            if self.heard.over or (until_throws is not None
                                   and self.heard.throws >= until_throws):
                break
            new = self.act(said) if said else []
            said = new or self.wait()  # nothing new heard: the table's time passes
            quiet = 0 if said else quiet + 1
            if quiet >= QUIET_WAITS:  # silence: a short ● says the last sentence again
                said, quiet = self.press("select"), 0
        return self.heard
