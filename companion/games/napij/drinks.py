"""Drinks at a napij se table: what is announced, and "Účet" (drinks since the box was switched on).

Every drinking duty the engine records (a :class:`~companion.games.napij.engine.state.Debt`
not answered yet) is announced three ways at once: a banner on the OLED, a buzzer
pattern of its own (:data:`companion.devices.buzzer.PATTERNS`, ``drink-<reason>``)
and a spoken Czech sentence.  Duties that one action gives several players for
the same reason (the toast when a piece enters its home, "everybody drinks", the
start of the game) are one announcement.  A void throw and its two penalty drinks
are one announcement too.  Each announcement carries its answers: the actions of
"● vypito" (everyone it names drank what it names) and of "◀ později" (it stays
as a debt; not offered for what is due at once), decision D42 of
docs/players/napij-rules.md.  Every text here is ours.

:class:`Tally` keeps "Účet": the drinks drunk per colour in every game since the
box was switched on, in a small JSON file in the data folder.  "Switched on" is
the kernel's boot id, so the count starts again after a reboot and survives a
restart of the service.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.engines.czech import PLAYER, PLAYER_ACC, PLAYER_DAT, PLAYER_LOWER
from companion.files import SMALL_LIMIT, read_text_limited
from companion.games.napij.engine.actions import Action, Drank, Later
from companion.games.napij.engine.describe import TIMES, debt_reason, debts_text, describe_duty
from companion.games.napij.engine.events import Event, MustDrink, VoidThrow, Won
from companion.games.napij.engine.state import Debt, DrinkReason

log = logging.getLogger(__name__)

BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
TALLY_NAME = "napij-ucet.json"
MAX_GAMES = 200
"""Games kept in the tally file (the oldest are dropped; a box is rarely on that long)."""


@dataclass(frozen=True)
class Announcement:
    """One duty said three ways: the banner's title and lines, the buzzer pattern, the voice."""

    title: str
    lines: tuple[str, ...]
    marks: tuple[int, ...]
    """The colours concerned (their marks are drawn on the banner)."""
    pattern: str
    sentence: str
    drank: tuple[Action, ...] = ()
    """The actions of "● vypito": everyone named drank what is announced."""
    later: tuple[Action, ...] = ()
    """The actions of "◀ později" (empty: the drinks are due now, nothing can wait)."""
    reason: DrinkReason | None = None
    card: int | None = None
    """The card that gave the duties (its screen may carry them)."""


GROUP_CLAUSE = {
    DrinkReason.KNOCKED_OUT: "se musí napít, protože jim vyhodili figurky",
    DrinkReason.BOTTLE: "se musí napít za střet s lahví",
    DrinkReason.PUB: "se musí napít, protože se jim figurky vrátily do hospody",
    DrinkReason.CARD: "se musí napít{times}, protože jim to ukládá karta",
    DrinkReason.GLASS: "musí dopít sklenici",
    DrinkReason.DROPPED_DICE: "se musí napít, protože shodili kostku",
    DrinkReason.DELAY: "se musí napít za zbytečné zdržování",
    DrinkReason.CHEATING: "se musí napít za švindlování",
    DrinkReason.UPSET: "se musí napít, protože se rozčilují",
}
"""The spoken sentence for several players with the same duty (plural verbs)."""


def pattern_of(reason: DrinkReason) -> str:
    """The buzzer pattern of a duty."""
    return f"drink-{reason.value}"


def _names(colours: Sequence[int]) -> str:
    """``"Modrý"``, ``"Modrý a zelený"``, ``"Červený, modrý a žlutý"``."""
    words = [PLAYER[colours[0]]] + [PLAYER_LOWER[c] for c in colours[1:]]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " a " + words[-1]


def _who(colours: Sequence[int], playing: Sequence[int], about: int | None) -> str:
    """The banner's line naming the players: everybody, everybody but one, or by name."""
    if set(colours) == set(playing):
        return "všichni"
    others = [c for c in playing if c not in colours]
    if len(others) == 1 and (about is None or about == others[0]):
        return f"všichni kromě {PLAYER_ACC[others[0]]}"
    return _names(colours)


def why_line(reason: DrinkReason, about: int | None = None, card: int | None = None) -> str:
    """The banner's line saying why: the debt's own words ("karta č. 23", "vyhození modrým")."""
    return debt_reason(Debt(0, 1, reason, about, card))


def _drink(colours: Sequence[int], drinks: int, reason: DrinkReason, about: int | None,
           playing: Sequence[int], card: int | None = None) -> Announcement:
    a = _words(colours, drinks, reason, about, playing, card)
    return Announcement(a.title, a.lines, a.marks, a.pattern, a.sentence,
                        tuple(Drank(c, reason) for c in colours),
                        tuple(Later(c, reason) for c in colours), reason, card)


def _words(colours: Sequence[int], drinks: int, reason: DrinkReason, about: int | None,
           playing: Sequence[int], card: int | None) -> Announcement:
    times = f" {drinks}×" if drinks > 1 else ""
    why = why_line(reason, about, card)
    if reason is DrinkReason.HOME:
        assert about is not None
        title = "Na zdraví!"
        lines = (_who(colours, playing, about), f"{PLAYER[about]} má figurku doma")
        if len(colours) == 1:
            sentence = describe_duty(MustDrink(colours[0], drinks, reason, about))
        else:
            sentence = (f"{_who(colours, playing, about).capitalize()} připíjí "
                        f"{PLAYER_DAT[about]} na figurku v domku.")
        return Announcement(title, lines, tuple(colours), pattern_of(reason), sentence)
    if reason is DrinkReason.WINNER:
        assert about is not None
        lines = (_who(colours, playing, about), f"na počest {PLAYER_ACC[about]}")
        sentence = (f"{PLAYER[about]} vyhrál! {_who(colours, playing, about).capitalize()} "
                    "mu připíjí na počest vítězství.")
        return Announcement("Na vítěze!", lines, tuple(colours), pattern_of(reason), sentence)
    if len(colours) == 1:
        c = colours[0]
        title = f"{PLAYER[c]}: dopij sklenici" if reason is DrinkReason.GLASS else \
            f"{PLAYER[c]}: napij se{times}"
        return Announcement(title, (why,), (c,), pattern_of(reason),
                            describe_duty(MustDrink(c, drinks, reason, about, card)))
    title = "Dopijte sklenice!" if reason is DrinkReason.GLASS else f"Napijte se{times}!"
    who = _who(colours, playing, about)
    if reason in (DrinkReason.START, DrinkReason.EVERYBODY) and who == "všichni":
        sentence = ("Všichni se napijí na začátek hry." if reason is DrinkReason.START
                    else "Karta velí, ať se napijí všichni.")
    else:
        when = "" if drinks == 1 else f" {TIMES.get(drinks, f'{drinks}krát')}"
        clause = GROUP_CLAUSE.get(reason, "se musí napít{times}").format(times=when)
        sentence = f"{who.capitalize()} {clause}."
    return Announcement(title, (who, why), tuple(colours), pattern_of(reason), sentence)


def void_throw(colour: int, value: int, owed: int = 3) -> Announcement:
    """A throw made before the debt was drunk: it does not count, and costs two more; what is
    owed is due at once (no "later"): ● = drank it all."""
    times = TIMES.get(owed, f"{owed}krát")
    return Announcement(
        f"{PLAYER[colour]}: hod neplatí", ("nejdřív pít, pak házet",
                                           f"napij se {owed}× (+2 za hod)"),
        (colour,), "void-throw",
        f"{PLAYER[colour]} hodil dřív, než vypil, co dlužil. Hod neplatí a za švindlování "
        f"a zdržování se napije ještě dvakrát, teď tedy {times}.",
        (Drank(colour),))


def announcements(debts: Iterable[Debt], playing: Sequence[int],
                  events: Iterable[Event] = (), owes: Sequence[int] = (0, 0, 0, 0)
                  ) -> list[Announcement]:
    """What to announce for the duties ``debts`` (new, not answered yet), in the order they
    happened: one announcement per void throw among ``events`` (with its penalty; ``owes``:
    what each colour owes in all) and per group of equal duties (same reason, drinks, player
    concerned and card)."""
    out: list[Announcement] = []
    void = {e.colour: e.value for e in events if isinstance(e, VoidThrow)}
    for c, value in void.items():
        out.append(void_throw(c, value, owes[c] or 3))
    groups: dict[tuple[DrinkReason, int, int | None, int | None], list[int]] = {}
    for d in debts:
        if d.reason is None:
            continue
        if d.colour in void and d.reason in (DrinkReason.CHEATING, DrinkReason.DELAY):
            continue  # said with the void throw
        key = (d.reason, d.drinks, d.about, d.card)
        if d.colour not in groups.setdefault(key, []):
            groups[key].append(d.colour)
    for (reason, drinks, about, card), colours in groups.items():
        out.append(_drink(colours, drinks, reason, about, playing, card))
    return out


def debt_sentence(colour: int, debts: Sequence[Debt]) -> str:
    """The ask before a throw, spoken: how much, why, and that a throw before it is void."""
    owed = sum(d.drinks for d in debts if not d.glass)
    glasses = sum(d.drinks for d in debts if d.glass)
    parts = []
    if owed:
        parts.append(f"napij se {TIMES.get(owed, f'{owed}krát')}")
    if glasses:
        parts.append("dopij sklenici" if glasses == 1 else f"dopij {glasses} sklenice")
    why = debts_text(debts, counts=False).replace("č.", "číslo")
    return (f"{PLAYER[colour]}, než hodíš, {' a '.join(parts)}: {why}. Hod dřív neplatí. "
            "Až to bude, stiskni prostřední tlačítko.")


def winner_sentence(events: Iterable[Event]) -> str | None:
    for e in events:
        if isinstance(e, Won):
            return f"{PLAYER[e.colour]} vyhrál, všechny jeho figurky jsou doma!"
    return None


# --- "Účet": the drinks since the box was switched on -----------------------------------------

def boot_id(path: Path = BOOT_ID) -> str:
    """The kernel's id of this boot ("" where there is none: the tally never starts again)."""
    try:
        return path.read_text("ascii").strip()
    except OSError:
        return ""


class Tally:
    """Drinks drunk per colour in each game since the box was switched on (``Účet``).

    ``record(game, drunk)`` sets a game's count (so a resumed or undone game is
    never counted twice); :meth:`tonight` sums every game.  Without a folder it
    is kept in memory only.
    """

    def __init__(self, folder: Path | None, boot: str | None = None) -> None:
        self.path = folder / TALLY_NAME if folder is not None else None
        self.boot = boot_id() if boot is None else boot
        self.games: dict[str, list[int]] = {}
        self._load()

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            data = json.loads(read_text_limited(self.path, SMALL_LIMIT, "drinks tally"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("the tally %s cannot be read (%s); it starts again", self.path, exc)
            return
        if not isinstance(data, dict) or data.get("boot") != self.boot:
            return  # another boot: the box was switched off meanwhile
        games = data.get("games")
        if isinstance(games, dict):
            for key, value in games.items():
                if isinstance(value, list) and len(value) == 4 and all(
                        isinstance(v, int) and not isinstance(v, bool) and v >= 0
                        for v in value):
                    self.games[str(key)] = list(value)

    def record(self, game: str, drunk: Sequence[int]) -> None:
        """This game's drinks per colour (r, b, g, y) are now ``drunk``."""
        value = [int(v) for v in drunk]
        if self.games.get(game) == value:
            return
        self.games.pop(game, None)
        self.games[game] = value
        while len(self.games) > MAX_GAMES:
            del self.games[next(iter(self.games))]
        self._save()

    def game(self, game: str) -> tuple[int, ...]:
        return tuple(self.games.get(game, [0, 0, 0, 0]))

    def tonight(self) -> tuple[int, ...]:
        """Every game's drinks since the box was switched on, per colour."""
        total = [0, 0, 0, 0]
        for value in self.games.values():
            for c in range(4):
                total[c] += value[c]
        return tuple(total)

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps({"boot": self.boot, "games": self.games}), "utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:  # the count is a courtesy: never stop the game for it
            log.warning("the tally %s cannot be saved (%s)", self.path, exc)
