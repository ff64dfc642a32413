"""Every Czech word of the referee's screens, in one place (our own words).

The judge's sentences (rulings, calls, why) are in :mod:`companion.games.gobbit.engine.describe`;
these are the screens' own: titles, the questions the referee asks, the answers, and the
legends that say on every screen what ◀ ● ▶ do there.  Kept together so that a voice can
say them later and a reviewer can read them at once.
"""

from __future__ import annotations

from companion.games.gobbit.engine.cards import CHAMELEON, GORILLA, MOSQUITO, SNAKE

# --- the buttons' legends (the bottom line of every referee screen) -------------------------

LOG_KEYS = "●spor ▶závod"
LOG_KEYS_NO_RACE = "●spor"
VERDICT_KEYS = "◀karty ●platí ▶více"
VERDICT_KEYS_ONE_PAGE = "◀karty ●platí"
EDITOR_KEYS = "◀hotovo ●změnit ▶dál"
EMPTY_KEYS = "● zpět"
MORE = "další…"
AGAIN = "od začátku"

# --- titles ---------------------------------------------------------------------------------

LOG_TITLE = "Rozhodčí"
LOG_TITLE_RIGHT = "Gobbit"
DISPUTE_TITLE = "Spor o kupičku H{pile}"
DISPUTE_SHORT_TITLE = "Spor o H{pile}"
RACE_TITLE = "Závod o hřbitov"
DISPUTE_EMPTY_TITLE = "Spor"
GRAVEYARD_TITLE = "Dotek hřbitova"
CALL_TITLE = "Kdo byl první"
ORDER_TITLE = "Pořadí doteků"
OTHERS_TITLE = "Další doteky"
WHY_TITLE = "Proč"
CARDS_TITLE = "Karty na stole"

# --- lines ----------------------------------------------------------------------------------

NOBODY_YET = "Zatím se nikdo nedotkl žádné podložky."
NOTHING_TO_RULE = "Zatím není o čem rozhodovat."
NO_RACE = "Na hřbitov v poslední chvíli nikdo nesáhl."
CARDS_MAKE_NO_SENSE = "Zadané karty nedávají smysl, oprav je."
PADS_UNPLUGGED = "Podložky odpojené!"
STUCK = "Zaseknutá: {pad}"
FIRST_BY = "{first} první o {gap}"
"""Who touched the disputed place first, by how much (``H2 první o 40 ms``)."""
TOGETHER = "{seats} současně"
"""Touches closer than the pads can tell apart (D28): ``H2 a H3 současně``."""
ALONE = "Sáhl jen {first}"
UNKNOWN_CARD = "?"
"""A seat whose top card nobody entered for this moment."""
GRAVEYARD_LINE = "Hřbitov: {state}"
GRAVEYARD_YES, GRAVEYARD_NO = "je", "není"
NO_CONDITION = "Expert: bez podmínky"
GORILLA_LINE = "Gorila: {who}"
GORILLA_NOBODY = "ne"
GORILLA_SEAT = "útočí H{seat}"
RACE_LINE = "Gobbit: {state}"
RACE_YES, RACE_NO = "platil", "neplatil"
NO_CARD = "bez karty"
GHOST = "duch"

# --- the questions the ruling needs -----------------------------------------------------------

PAIR_TITLE = "H{attacker} → H{pile}: co leží?"
PAIR_LEAD = "(karty stejné barvy)"
PAIR_OTHER = "jiné karty"
PAIR_COLOUR_TITLE = "Barva obou karet"
SEAT_TITLE = "Vrchní karta H{seat}"
RACE_QUESTION_TITLE = "Platil Gobbit?"
RACE_QUESTION_LEAD = ("komár každé barvy", "a hřbitov na stole")
NO, YES = "ne", "ano"
CONDITION_TITLE = "Podmínka Expert"
CONDITION_NONE = "bez podmínky"
GORILLA_TITLE = "Útočí gorila?"
GORILLA_NOBODY_ANSWER = "nikdo"

ANIMAL = {SNAKE: "had", CHAMELEON: "chameleon", MOSQUITO: "komár", GORILLA: "gorila"}
COLOUR_NOUN = {"b": "modrá", "r": "červená", "y": "žlutá"}
"""A colour for two cards at once (``Barva obou karet: modrá``)."""
COLOUR_ADJ = {"b": "modrý", "r": "červený", "y": "žlutý"}
"""A colour for one animal (had, chameleon and komár are all masculine)."""

# --- the whole situation, said aloud (a held ◀ in the voice mode) ---------------------------

SAID_TOUCHES = "Poslední doteky: {touches}."
SAID_TOUCH = "hráč {seat} na {place}"
SAID_OWN_PILE = "svou kupičku"
SAID_PILE = "kupičku hráče {seat}"
SAID_GRAVEYARD = "hřbitov"
SAID_LATER = "{touch} o {gap} později"
SAID_CARDS = "Vrchní karty: {cards}."
SAID_CARD = "hráč {seat} {card}"
SAID_UNKNOWN = "nezadaná"
SAID_NO_CARDS = "Vrchní karty zatím nikdo nezadal."
SAID_GRAVEYARD_YES, SAID_GRAVEYARD_NO = "Na stole je hřbitov.", "Hřbitov na stole není."
SAID_LAST_RULING = "Poslední verdikt: {ruling}"
SAID_NO_RULING = "Zatím žádný verdikt."
SAID_REAL_CARDS = "Kolik má kdo karet a kdo otáčí, hlídáte s opravdovými kartami sami."

# --- the calibration ----------------------------------------------------------------------------

CAL_TITLE = "Kalibrace"
CAL_DONE_TITLE = "Kalibrace hotová"
CAL_OFFSETS_TITLE = "Posun podložek ms"
CAL_REFUSED_TITLE = "Neuloženo · ±{before} ms"
"""A calibration not stored: the uncertainty in force stays (it is in the title)."""
CAL_START = "Plácni dlaní přes dvě sousední podložky naráz, každou {slaps}×."
CAL_SLAPS = "Plácnutí"
CAL_PADS_DONE = "Hotové podložky"
CAL_KEYS_READY = "●uložit ◀zrušit"
CAL_KEYS_COLLECT = "●hotovo ◀zrušit"
CAL_SPREAD = "Rozptyl"
CAL_BEFORE = "Dosud"
CAL_RESULT_KEYS = "Uloženo. ●zpět ▶více"
CAL_RESULT_KEYS_ONE_PAGE = "Uloženo. ●zpět"
CAL_KEYS_MORE = "◀konec ●dál plácat"
CAL_KEYS_AGAIN = "◀konec ●znovu"
CAL_KEYS_BACK = "● zpět"
# Why a calibration is not stored, and what to do (one sentence, at most three lines):
CAL_NO_PAIR = "Nic nezasáhlo dvě podložky naráz: plácni přes dvě."
CAL_MISSING = "Podložky {pads} nejsou spojené: plácni i přes ně."
CAL_FEW_ONE = "Podložka {pad} má jen {slaps} plácnutí z {wanted}: plácni přes ni ještě."
CAL_FEW_MANY = "Málo plácnutí mají {pads}: plácni přes ně ještě."
CAL_UNEVEN = "Podložky {a} a {b} se dotkly nestejně; zkus plochou dlaní znovu."
CAL_WORSE = "±{spread} ms není lepší než ±{declared} ms: plácni plochou dlaní znovu."
CAL_NOT_SAVED = "Kalibraci se nepodařilo uložit."
