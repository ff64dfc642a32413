"""Czech words and sentences for Gobbit (pure functions).

Written for this product in our own words (never copied from the rules
booklet), as whole sentences with the words of docs/dev/words.md:
had, chameleon, komár, gorila, kupička, balíček, hřbitov, útok, obrana, faul,
duch.
"""

from __future__ import annotations

from companion.engines.czech import PLAYER_ACC, PLAYER_LOWER
from companion.games.gobbit.engine.cards import CHAMELEON, GORILLA, MOSQUITO, SNAKE, Card, Condition
from companion.games.gobbit.engine.judge import (
    GRAVEYARD,
    TO_GRAVEYARD,
    Call,
    Kind,
    Ruling,
    Target,
    Verdict,
    Why,
)
from companion.games.gobbit.engine.rules import (
    BecameGhost,
    ConditionChanged,
    Dealt,
    DeckCardBuried,
    Event,
    Flipped,
    FlippedOutOfTurn,
    Fouled,
    GameEnded,
    GobbitWon,
    GorillaAttack,
    GorillaDiscarded,
    Judged,
    LeftGame,
    PileMoved,
    Reason,
    Refused,
    StrayDiscarded,
)

ANIMAL = {SNAKE: "had", CHAMELEON: "chameleon", MOSQUITO: "komár", GORILLA: "gorila"}
ANIMAL_ACC = {SNAKE: "hada", CHAMELEON: "chameleona", MOSQUITO: "komára", GORILLA: "gorilu"}
_TABLE_COLOUR = {"b": 1, "r": 0, "y": 3}  # card colour letter -> the table's colour number
COLOUR_ADJ = {k: PLAYER_LOWER[i] for k, i in _TABLE_COLOUR.items()}
COLOUR_ADJ_ACC = {k: PLAYER_ACC[i] for k, i in _TABLE_COLOUR.items()}
COLOUR_SHORT = {"b": "modr.", "r": "červ.", "y": "žl."}

CONDITION_LABEL = {
    Condition.EXPLODE: "Komáři vybuchují",
    Condition.ANY_COLOUR: "Barva neplatí",
    Condition.REVERSED: "Obrácený řetězec",
    Condition.SNAKES_EAT_MOSQUITOES: "Hadi jedí komáry",
    Condition.DIFFERENT_COLOURS: "Jen různé barvy",
    Condition.ALL_GHOSTS: "Všichni jako duch",
}
"""Short labels (at most 21 characters) for the OLED."""

CONDITION_SENTENCE = {
    Condition.EXPLODE: "Na komáry teď nesmí nikdo sáhnout.",
    Condition.ANY_COLOUR: "Zvířata se teď žerou bez ohledu na barvu.",
    Condition.REVERSED: ("Řetězec je obrácený: komár sežere chameleona a chameleon hada "
                         "stejné barvy."),
    Condition.SNAKES_EAT_MOSQUITOES: "Had teď sežere i komára stejné barvy.",
    Condition.DIFFERENT_COLOURS: "Bojují jen zvířata různých barev.",
    Condition.ALL_GHOSTS: "Každý může jako duch útočit na dvojice stejných karet.",
}


def card_name(card: Card | None, short: bool = False) -> str:
    """``modrý had``; ``short`` abbreviates the colour (``červ. chameleon``); ``-`` no card."""
    if card is None:
        return "-"
    if card.colour is None:
        return ANIMAL[card.species]
    colour = COLOUR_SHORT[card.colour] if short else COLOUR_ADJ[card.colour]
    return f"{colour} {ANIMAL[card.species]}"


def card_acc(card: Card) -> str:
    """The card as the object of a sentence: ``modrého hada``, ``gorilu``."""
    if card.colour is None:
        return ANIMAL_ACC[card.species]
    return f"{COLOUR_ADJ_ACC[card.colour]} {ANIMAL_ACC[card.species]}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def kind_word(verdict: Verdict) -> str:
    """One short word (at most 8 letters) for what a touch was."""
    kind, decisive = verdict.kind, verdict.decisive
    if verdict.tied and not decisive:
        return "současně"  # simultaneous with the decisive touch, which had precedence (D28)
    if kind is Kind.ATTACK:
        return "útok" if decisive else "pozdě"
    if kind is Kind.DEFENCE:
        return "obrana" if decisive else "pozdě"
    if kind is Kind.FOUL:
        return "faul"
    if kind is Kind.MISTAKE:
        return "omyl"
    if kind is Kind.RACE:
        return "první" if decisive else "závod"
    return "nic"


def why_sentence(verdict: Verdict, tops: dict[int, Card | None] | None = None) -> str:
    """Why a touch was a foul, a ghost's mistake or was not counted (one sentence)."""
    seat = verdict.touch.seat
    target = verdict.touch.target
    why = verdict.why
    tops = tops or {}
    if verdict.kind in (Kind.ATTACK, Kind.DEFENCE, Kind.RACE) and not verdict.decisive:
        if verdict.tied:
            return "Dotek platí a přišel současně s jiným, přednost ale měl ten druhý."
        return "Dotek platí, ale někdo jiný byl rychlejší."
    if why is Why.CANNOT_EAT:
        own = tops.get(seat)
        victim = tops.get(target) if isinstance(target, int) else None
        if own is not None and victim is not None:
            return f"{_cap(card_name(own))} nesmí sežrat {card_acc(victim)}."
        return f"Hráč {seat} útočil na zvíře, které jeho zvíře nesmí sežrat."
    if why is Why.NO_CARD:
        return f"Hráč {seat} nemá otočenou kartu, a tak nemá čím útočit."
    if why is Why.EMPTY:
        return f"Hráč {seat} sáhl na místo, kde neleží otočená karta."
    if why is Why.NOT_THREATENED:
        return f"Hráč {seat} se bránil, ale jeho zvíře nic neohrožovalo."
    if why is Why.GRAVEYARD:
        return f"Hráč {seat} sáhl na hřbitov bez důvodu."
    if why is Why.EXPLODING:
        return f"Hráč {seat} sáhl na komára, ale komáři teď vybuchují."
    if why is Why.NOT_A_PAIR:
        return "Duch smí útočit jen na dvojici stejných karet."
    if why is Why.RACE_ONLY:
        return "Při Gobbitu se útok ani obrana nepočítají."
    if why is Why.GHOST_IN_RACE:
        return "Duch se závodu o hřbitov neúčastní."
    if why is Why.GHOST_NOTHING:
        return "Duch sáhl tam, kde nemůže nic získat."
    if why is Why.REPEAT:
        return f"Hráč {seat} tam už jednou sáhl, počítá se první dotek."
    if why is Why.CHAIN:
        own = tops.get(seat)
        victim = tops.get(target) if isinstance(target, int) else None
        if own is not None and victim is not None:
            return f"{_cap(card_name(own))} smí sežrat {card_acc(victim)}."
        return f"Hráč {seat} smí podle potravního řetězce útočit."
    if why is Why.GORILLA:
        return "Gorila smí napadnout kteroukoli kupičku."
    if why is Why.PAIR:
        return "Na dvojici stejných karet smí útočit duch."
    if why is Why.THREATENED:
        return f"Zvíře hráče {seat} bylo v ohrožení, obrana platí."
    return f"Hráč {seat} sáhl na hřbitov jako první."


def ruling_sentences(ruling: Ruling) -> list[str]:
    """The ruling as Czech sentences, one per moved pile, foul and race."""
    if ruling.gobbit is not None:
        w = ruling.gobbit
        tied = next((c for c in ruling.calls if c.target == GRAVEYARD and c.simultaneous), None)
        if tied is not None:  # the pads cannot tell them apart: the lower seat wins (D28, D2)
            seats = sorted({v.touch.seat for v in ruling.verdicts
                            if v.kind is Kind.RACE and (v.tied or v.decisive)})
            names = ", ".join(str(n) for n in seats[:-1]) + f" a {seats[-1]}"
            return [f"Gobbit! Hráči {names} sáhli na hřbitov současně, "
                    f"přednost má nižší číslo: vyhrává hráč {w}.",
                    f"Všichni si berou své kupičky a hráč {w} začíná."]
        return [f"Gobbit! Na hřbitov sáhl první hráč {w}.",
                f"Všichni si berou své kupičky a hráč {w} začíná."]
    out: list[str] = []
    if ruling.race:
        out.append("Platí Gobbit: počítá se jen dotek hřbitova.")
    winning = {v.touch.target: v for v in ruling.verdicts if v.decisive}
    for seat, dest in sorted(ruling.piles.items()):
        v = winning.get(seat)
        if dest == TO_GRAVEYARD:
            if v is not None and v.why is Why.GORILLA:
                out.append(f"Gorila poslala kupičku hráče {seat} na hřbitov.")
            elif v is not None and v.why is Why.PAIR:
                out.append(f"Kupička hráče {seat} byla dvojice a jde na hřbitov.")
            else:
                out.append(f"Hráč {seat} fauloval, jeho kupička jde na hřbitov.")
        elif dest == seat:
            if v is not None and v.kind is Kind.MISTAKE:
                out.append(f"Duch se spletl, hráč {seat} si bere svou kupičku.")
            else:
                out.append(f"Hráč {seat} se ubránil a bere si svou kupičku.")
        elif seat in ruling.fouls:
            out.append(f"Hráč {seat} fauloval, ale jeho kupičku dřív získal hráč {dest}.")
        else:
            out.append(f"Hráč {dest} bere kupičku hráče {seat}.")
    for seat in ruling.fouls:
        if seat not in ruling.piles and seat not in ruling.buried:
            out.append(f"Hráč {seat} fauloval.")
    for seat in ruling.buried:
        out.append(f"Hráč {seat} fauloval bez otočených karet, "
                   "vrchní kartu balíčku dá na hřbitov.")
    if not out:
        out.append("Žádná kupička se nehýbe.")
    return out


def ms_text(ms: float) -> str:
    """Milliseconds for people, to a tenth, Czech decimal comma: ``7``, ``7,4``, ``0,8``."""
    text = f"{abs(ms):.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return text.replace(".", ",")


def call_sentences(ruling: Ruling, target: Target) -> list[str]:
    """How the first touch on ``target`` was decided (D28), honest about the sensors.

    A gap inside the pads' timing uncertainty is "simultaneous" and D2's precedence
    decides (said in a second sentence); a clear gap is given with its margin.
    """
    call = ruling.call(target)
    if call is None or call.rival is None or call.gap_ms is None:
        return []
    gap, within = ms_text(call.gap_ms), ms_text(call.uncertainty_ms)
    if call.simultaneous:
        if call.uncertainty_ms > 0:
            first = f"{gap} ms – pod přesností čidel (±{within} ms): současně."
        else:
            first = "Doteky přišly přesně ve stejnou chvíli."
        return [first, _precedence_sentence(ruling, call)]
    seat = call.first.seat
    margin = call.margin_ms
    if call.uncertainty_ms > 0 and margin is not None:
        return [f"{gap} ms – nad přesností čidel (±{within} ms) o {ms_text(margin)} ms: "
                f"první byl hráč {seat}."]
    return [f"Hráč {seat} byl první o {gap} ms."]


def _precedence_sentence(ruling: Ruling, call: Call) -> str:
    if call.target == GRAVEYARD:
        return "Při současném sáhnutí na hřbitov vyhrává hráč s nižším číslem."
    verdict = next((v for v in ruling.verdicts if v.touch == call.first), None)
    if verdict is not None and verdict.kind in (Kind.DEFENCE, Kind.MISTAKE):
        return "Při současných dotecích má přednost majitel kupičky."
    return ("Při současných útocích má přednost hráč, který sedí od kupičky nejblíž "
            "po směru hodinových ručiček.")


def describe_event(event: Event) -> str:
    """One Czech sentence for one engine event."""
    if isinstance(event, Dealt):
        return f"Karty jsou rozdané, první otáčí hráč {event.first}."
    if isinstance(event, Flipped):
        return f"Hráč {event.seat} otočil {card_acc(event.card)}."
    if isinstance(event, FlippedOutOfTurn):
        return f"Hráč {event.seat} otočil kartu mimo pořadí a musí ji dát na hřbitov."
    if isinstance(event, GorillaAttack):
        return f"Gorila! Hráč {event.seat} smí napadnout všechny kupičky."
    if isinstance(event, GorillaDiscarded):
        return f"Gorila byla poslední kartou hráče {event.seat} a jde na hřbitov."
    if isinstance(event, StrayDiscarded):
        return f"Hráč {event.seat} dal kartu otočenou mimo pořadí na hřbitov."
    if isinstance(event, Fouled):
        return f"Hráč {event.seat} fauloval."
    if isinstance(event, PileMoved):
        if event.dest == TO_GRAVEYARD:
            return f"Kupička hráče {event.seat} jde na hřbitov."
        if event.dest == event.seat:
            return f"Hráč {event.seat} si bere svou kupičku."
        return f"Hráč {event.dest} bere kupičku hráče {event.seat}."
    if isinstance(event, DeckCardBuried):
        return f"Hráč {event.seat} dal vrchní kartu balíčku na hřbitov."
    if isinstance(event, GobbitWon):
        return f"Gobbit! Vyhrál hráč {event.seat} a začíná nové kolo."
    if isinstance(event, BecameGhost):
        return f"Hráč {event.seat} už nemá karty a stává se duchem."
    if isinstance(event, LeftGame):
        return f"Hráč {event.seat} už nemá karty a vypadává ze hry."
    if isinstance(event, ConditionChanged):
        if event.condition is None:
            return "Žádná podmínka varianty Expert teď neplatí."
        return f"Nová podmínka: {CONDITION_SENTENCE[event.condition]}"
    if isinstance(event, GameEnded):
        return game_over_sentence(event.winners)
    if isinstance(event, Judged):
        return " ".join(ruling_sentences(event.ruling))
    raise TypeError(f"unknown event {event!r}")


def game_over_sentence(winners: tuple[int, ...]) -> str:
    if not winners:
        return "Konec hry: nikdo už nemá žádné karty."
    if len(winners) == 1:
        return f"Konec hry, vyhrává hráč {winners[0]}."
    names = ", ".join(str(w) for w in winners[:-1]) + f" a {winners[-1]}"
    return f"Konec hry, remíza hráčů {names}."


def refusal_sentence(reason: Reason) -> str:
    """Why the rules refuse an action, in one Czech sentence (the engine's :class:`Reason`)."""
    why, seat = reason.why, reason.seat
    if why is Refused.NOT_DEALT:
        return "Karty ještě nejsou rozdané."
    if why is Refused.DEALT:
        return "Karty už jsou rozdané, podruhé se nerozdává."
    if why is Refused.BAD_DEAL:
        return f"Zamíchaný balíček musí obsahovat každou z {reason.cards} karet právě jednou."
    if why is Refused.NO_SEAT:
        return f"Hráč {seat} u tohoto stolu nesedí."
    if why is Refused.STRAY_FIRST:
        return f"Hráč {seat} musí nejdřív dát kartu otočenou mimo pořadí na hřbitov."
    if why is Refused.EMPTY_DECK:
        return f"Hráč {seat} už nemá v balíčku žádnou kartu, kterou by otočil."
    if why is Refused.NO_STRAY:
        return f"Hráč {seat} neotočil žádnou kartu mimo pořadí, nemá co dát na hřbitov."
    if why is Refused.CAN_STILL_FLIP:
        return f"Hráč {seat} ještě může otáčet, hra tedy pokračuje."
    if why is Refused.GAME_OVER:
        return "Hra už skončila."
    raise ValueError(f"unknown reason {why!r}")
