"""Czech sentences for what happened, which move is which and why a piece cannot move.

Pure functions of the position, the roll and the move.  Every sentence is
written for this product (not copied from the rules sources) and whole, so that
the Czech endings agree; the words are those of docs/dev/words.md.

Fields are named the way a player can find them on the *real* board, which has
no numbers: counted from the player's own start field ("start", then "1. pole"
... "39. pole" clockwise), the goal fields as "cíl 1" (nearest) ... "cíl 4"
(deepest), and the house as "domeček".  When a colour has more than one piece
on the track, the words also say which one moves by its place in the row:
"přední" (furthest along), "zadní" (the last), and "prostřední", "druhá",
"třetí" in between.
"""

from __future__ import annotations

from companion.engines.czech import COLOUR_NAME as COLOUR_NAME
from companion.engines.czech import MARK_NAME as MARK_NAME
from companion.engines.czech import PLAYER as PLAYER
from companion.engines.czech import PLAYER_ACC as PLAYER_ACC
from companion.engines.czech import PLAYER_LOWER as PLAYER_LOWER
from companion.games.clovece.engine.rules import (
    GOAL_FIRST,
    HOUSE,
    TRACK_LEN,
    Captured,
    Entered,
    EnteredGoal,
    Event,
    Move,
    Moved,
    PassReason,
    Reason,
    RollAgain,
    Rolled,
    TryFailed,
    TurnPassed,
    Why,
    Won,
)

ROLL_NAME = ("jednička", "dvojka", "trojka", "čtyřka", "pětka", "šestka")
"""The die value as a noun (nominative)."""
ROLL_ACC = ("jedničku", "dvojku", "trojku", "čtyřku", "pětku", "šestku")
"""The die value as the object of a sentence (hodil pětku)."""


def describe_event(event: Event) -> str:
    """One short Czech line for one event."""
    if isinstance(event, Rolled):
        if 1 <= event.value <= 6:
            return f"{PLAYER[event.colour]} hodil {ROLL_ACC[event.value - 1]}."
        return f"{PLAYER[event.colour]} hodil {event.value}."
    if isinstance(event, Entered):
        return f"{PLAYER[event.colour]} nasadil figurku."
    if isinstance(event, Moved):
        return f"{PLAYER[event.colour]} táhl {path_words(event.frm, event.to)}."
    if isinstance(event, Captured):
        return f"{PLAYER[event.colour]} vyhodil {PLAYER_ACC[event.victim]}."
    if isinstance(event, EnteredGoal):
        return f"{PLAYER[event.colour]} má figurku v cíli."
    if isinstance(event, RollAgain):
        return f"Šestka: {PLAYER_LOWER[event.colour]} hází znovu."
    if isinstance(event, TryFailed):
        return f"Šestka nepadla, {event.tries}. pokus ze 3."
    if isinstance(event, TurnPassed):
        if event.reason is PassReason.FORFEIT:
            return "Tah propadá: žádná figurka nemůže táhnout."
        if event.reason is PassReason.TRIES:
            return f"Tři pokusy bez šestky, hraje {PLAYER_LOWER[event.next]}."
        return f"Na tahu je {PLAYER_LOWER[event.next]}."
    if isinstance(event, Won):
        return f"{PLAYER[event.colour]} vyhrává!"
    raise TypeError(f"unknown event {event!r}")


# --- where a piece stands and where it goes, counted from the player's own start ---


def on_track(progress: int) -> bool:
    return 0 <= progress < TRACK_LEN


def field_name(progress: int) -> str:
    """Where a piece stands, nominative: "domeček", "start", "5. pole", "cíl 2"."""
    if progress == HOUSE:
        return "domeček"
    if progress >= GOAL_FIRST:
        return f"cíl {progress - GOAL_FIRST + 1}"
    return "start" if progress == 0 else f"{progress}. pole"


def field_where(progress: int) -> str:
    """Where a piece stands, as a place: "v domečku", "na startu", "na 5. poli", "v cíli 2"."""
    if progress == HOUSE:
        return "v domečku"
    if progress >= GOAL_FIRST:
        return f"v cíli {progress - GOAL_FIRST + 1}"
    return "na startu" if progress == 0 else f"na {progress}. poli"


def path_words(frm: int, to: int) -> str:
    """From where to where, for a sentence: "z domečku na start", "z 5. na 8. pole",
    "ze startu na 6. pole", "z 38. pole do cíle 3", "z cíle 1 do cíle 3"."""
    if frm == HOUSE:
        return "z domečku na start"
    if frm >= GOAL_FIRST:
        return f"z cíle {frm - GOAL_FIRST + 1} do cíle {to - GOAL_FIRST + 1}"
    if to >= GOAL_FIRST:
        source = "ze startu" if frm == 0 else f"z {frm}. pole"
        return f"{source} do cíle {to - GOAL_FIRST + 1}"
    source = "ze startu" if frm == 0 else f"z {frm}."
    return f"{source} na {to}. pole"


def path_label(frm: int, to: int) -> str:
    """The same path in at most ten characters, for a row of the turn screen:
    "na start", "5.→8.", "start→6.", "38.→cíl 3", "cíl 1→3"."""
    if frm == HOUSE:
        return "na start"
    if frm >= GOAL_FIRST:
        return f"cíl {frm - GOAL_FIRST + 1}→{to - GOAL_FIRST + 1}"
    source = "start" if frm == 0 else f"{frm}."
    target = f"cíl {to - GOAL_FIRST + 1}" if to >= GOAL_FIRST else f"{to}."
    return f"{source}→{target}"


_RANKS = {2: ("přední", "zadní"), 3: ("přední", "prostřední", "zadní"),
          4: ("přední", "druhá", "třetí", "zadní")}


def rank_word(pieces: tuple[int, ...], progress: int) -> str:
    """Which of the colour's pieces on the track stands at ``progress``, by its place in the
    row ("přední", "zadní", ...); "" when it is the only one there (or not on the track)."""
    row = sorted((p for p in pieces if on_track(p)), reverse=True)
    if len(row) < 2 or not on_track(progress):
        return ""
    return _RANKS[len(row)][row.index(progress)]


def move_words(pieces: tuple[int, ...], move: Move) -> str:
    """The move as the table reads it, one sentence: which piece, from where to where, and
    whom it sends home ("Přední figurka z 27. na 30. pole, vyhodí modrého.")."""
    rank = rank_word(pieces, move.frm)
    text = path_words(move.frm, move.to)
    text = f"{rank.capitalize()} figurka {text}" if rank else text[0].upper() + text[1:]
    if move.capture is not None:
        text += f", vyhodí {PLAYER_ACC[move.capture]}"
    return text + "."


def piece_words(pieces: tuple[int, ...], progress: int) -> str:
    """A piece named for the table: "Domeček", "Figurka na startu", "Přední figurka
    (27. pole)", "Figurka v cíli 2"."""
    if progress == HOUSE:
        return "Domeček"
    rank = rank_word(pieces, progress)
    if rank:
        return f"{rank.capitalize()} figurka ({field_name(progress)})"
    return f"Figurka {field_where(progress)}"


def throw_line(colour: int, value: int, events: list[Event], computer: bool = False) -> str:
    """The line after a throw: who threw what, and what came of it when no move waits
    ("Červený hodil 2, šestka nepadla."); ``computer``: thrown by the companion itself."""
    who = f"{PLAYER[colour]} (PC)" if computer else PLAYER[colour]
    for e in events:
        if isinstance(e, TurnPassed) and e.reason is PassReason.TRIES:
            return f"{who} hodil {value}, ani třetí pokus nevyšel."
        if isinstance(e, TurnPassed) and e.reason is PassReason.FORFEIT:
            return f"{who} hodil {value}, žádná figurka nemůže táhnout."
    if any(isinstance(e, TryFailed) for e in events):
        return f"{who} hodil {value}, šestka nepadla."
    return f"{who} hodil {value}."


def headline(events: list[Event]) -> str:
    """The one line the turn screen shows after an action: the most telling event."""
    order = (Won, Captured, EnteredGoal, Entered, TurnPassed, TryFailed, Moved, RollAgain)
    for kind in order:
        for e in events:
            if isinstance(e, kind):
                if isinstance(e, TurnPassed) and e.reason is PassReason.DONE:
                    continue
                return describe_event(e)
    return describe_event(events[0]) if events else ""


def explain(reason: Reason) -> str:
    """Why a piece may not move with this roll, in one Czech sentence."""
    roll = ROLL_NAME[reason.roll - 1].capitalize() if 1 <= reason.roll <= 6 else "Hod"
    why = reason.why
    if why is Why.LEGAL:
        return "Tahle figurka táhnout může."
    if why is Why.NO_PIECE:
        return "Na tom místě žádná tvoje figurka nestojí."
    if why is Why.HOUSE_NEEDS_SIX:
        return "Z domečku se dostaneš jen šestkou."
    if why is Why.START_HELD_BY_OWN:
        return "Startovní pole zabírá tvoje figurka, nasazovat teď nelze."
    if why is Why.OWN_PIECE_ON_TARGET:
        return f"{roll} by figurku postavila na tvoji vlastní."
    if why is Why.OVERSHOOTS_GOAL:
        return f"{roll} by figurku poslala za poslední pole cíle."
    if why is Why.CANNOT_JUMP_IN_GOAL:
        return "V cíli se podle zvolené varianty nepřeskakuje."
    if why is Why.SAFE_ON_START:
        other = PLAYER_ACC[reason.other] if reason.other is not None else "soupeře"
        return f"Na svém startu nejde {other} podle varianty vyhodit."
    if why is Why.MUST_ENTER:
        return "Po šestce musíš nejdřív nasadit figurku z domečku."
    if why is Why.MUST_CLEAR_START:
        return "Napřed musíš uvolnit startovní pole."
    if why is Why.MUST_CAPTURE:
        return "Podle varianty musíš vyhodit soupeře jinou figurkou."
    if why is Why.GAME_OVER:
        return "Hra už skončila."
    raise ValueError(f"unknown reason {why!r}")
