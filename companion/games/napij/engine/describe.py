"""Czech sentences for Člověče, napij se!: what happened, why not, who must drink (pure).

Every sentence is written for this product, not copied from the rules sources,
and whole, so that the Czech endings agree; the words follow
docs/dev/words.md (hospoda, stanoviště, domek, váleček, rozcestí, odbočka,
záchytka, bažina, les, karta, láhev, napít se, dluh, imunita).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engines.czech import COLOUR_NAME as COLOUR_NAME
from companion.engines.czech import MARK_NAME as MARK_NAME
from companion.engines.czech import PLAYER as PLAYER
from companion.engines.czech import PLAYER_ACC as PLAYER_GEN
from companion.engines.czech import PLAYER_DAT as PLAYER_DAT
from companion.engines.czech import PLAYER_LOWER as PLAYER_LOWER
from companion.engines.czech import WITH_PLAYER as WITH_PLAYER
from companion.games.napij.engine.events import (
    AtJunction,
    AtTurnOff,
    BottleDeclared,
    BottleMoved,
    BottlePlaced,
    BottlePushed,
    Captured,
    CardChainStopped,
    CardDrawn,
    CardNoEffect,
    ChoiceNeeded,
    DeckShuffled,
    DrawDue,
    Entered,
    EnteredHome,
    Event,
    How,
    ImmunityEnded,
    ImmunityGranted,
    Moved,
    MustDrink,
    Offered,
    OfferNeeded,
    OwingThrow,
    Postponed,
    Released,
    ReturnedToPub,
    Settled,
    Swapped,
    ThrowAgain,
    Thrown,
    Trapped,
    TryFailed,
    TurnForfeited,
    TurnPassed,
    VoidThrow,
    Won,
)
from companion.games.napij.engine.reasons import CardWhy, ForfeitWhy, Reason, Why
from companion.games.napij.engine.state import Debt, DrinkReason, Rules

VALUE_ACC = ("jedničku", "dvojku", "trojku", "čtyřku", "pětku", "šestku")
TIMES = {1: "jednou", 2: "dvakrát", 3: "třikrát", 4: "čtyřikrát", 5: "pětkrát",
         6: "šestkrát", 7: "sedmkrát", 8: "osmkrát", 9: "devětkrát", 10: "desetkrát"}

KIND_NAME = {
    "normal": "pole",
    "card": "karta",
    "start": "stanoviště",
    "arrow": "pole se šipkou",
    "junction": "rozcestí",
    "turnoff": "odbočka",
    "lane": "cesta k domku",
    "rolling_pin": "váleček",
    "home": "domek",
    "trap": "past",
}
TRAP_NAME = {"zachytka": "záchytka", "bazina": "bažina", "les": "les"}
TRAP_FROM = {"zachytka": "ze záchytky", "bazina": "z bažiny", "les": "z lesa"}
TRAP_CAUGHT = {"zachytka": "skončila na záchytce", "bazina": "zapadla do bažiny",
               "les": "zabloudila v lese"}


def _field(rules: Rules | None, node: int) -> str:
    if rules is None:
        return f"č. {node}"
    return rules.board.id_of(rules.graph.field[node])


def _trap(rules: Rules | None, node: int) -> str:
    if rules is None:
        return "zachytka"
    trap = rules.board.fields[rules.graph.field[node]].trap
    return trap or "zachytka"


def describe_event(event: Event, rules: Rules | None = None) -> str:
    """One Czech line for one event (``rules`` adds field names and card texts)."""
    e = event
    if isinstance(e, DeckShuffled):
        return "Balíček karet je zamíchaný a leží obrázky dolů."
    if isinstance(e, Thrown):
        return f"{PLAYER[e.colour]} hodil {VALUE_ACC[e.value - 1]}."
    if isinstance(e, ThrowAgain):
        return f"Padla šestka, {PLAYER_LOWER[e.colour]} hází znovu."
    if isinstance(e, TryFailed):
        left = 3 - e.tries
        more = "ještě dva pokusy" if left == 2 else "ještě jeden pokus"
        return f"Šestka nepadla, {PLAYER_LOWER[e.colour]} má {more}."
    if isinstance(e, VoidThrow):
        return f"{PLAYER[e.colour]} hodil dřív, než vypil, co dlužil, a jeho hod neplatí."
    if isinstance(e, BottleDeclared):
        return f"{PLAYER[e.colour]} hraje v tomto tahu lahví."
    if isinstance(e, BottlePlaced):
        return f"Láhev stojí na poli {_field(rules, e.node)}."
    if isinstance(e, BottleMoved):
        return (f"{PLAYER[e.colour]} posunul láhev z pole {_field(rules, e.frm)} "
                f"na pole {_field(rules, e.to)}.")
    if isinstance(e, BottlePushed):
        return f"{PLAYER[e.colour]} odsunul láhev na pole {_field(rules, e.to)}."
    if isinstance(e, Entered):
        if rules is not None and e.to == rules.graph.start[e.colour]:
            return f"{PLAYER[e.colour]} nasadil figurku na stanoviště."
        return f"{PLAYER[e.colour]} nasadil figurku a táhl s ní rovnou na pole {_field(rules, e.to)}."
    if isinstance(e, Released):
        return (f"{PLAYER[e.colour]} vysvobodil figurku {TRAP_FROM[_trap(rules, e.frm)]} "
                f"na pole {_field(rules, e.to)}.")
    if isinstance(e, Moved):
        if not e.values:
            return (f"Karta posunula figurku {PLAYER_GEN[e.colour]} z pole "
                    f"{_field(rules, e.frm)} na pole {_field(rules, e.to)}.")
        return (f"{PLAYER[e.colour]} táhl z pole {_field(rules, e.frm)} "
                f"na pole {_field(rules, e.to)}.")
    if isinstance(e, Captured):
        if e.how is How.BOTTLE:
            return f"Láhev vyhodila figurku {PLAYER_GEN[e.colour]}."
        if e.how is How.CARD:
            return f"{PLAYER[e.by]} kartou vyhodil {PLAYER_GEN[e.colour]}."
        return f"{PLAYER[e.by]} vyhodil {PLAYER_GEN[e.colour]}."
    if isinstance(e, ReturnedToPub):
        if e.cause == "rolling-pin":
            return (f"{PLAYER[e.colour]} dostal válečkem a jeho figurka utíká zpět "
                    "do hospody.")
        return f"Figurka {PLAYER_GEN[e.colour]} se podle karty vrací do hospody."
    if isinstance(e, EnteredHome):
        return f"{PLAYER[e.colour]} dovedl figurku do domku."
    if isinstance(e, Trapped):
        return f"Figurka {PLAYER_GEN[e.colour]} {TRAP_CAUGHT[_trap(rules, e.node)]}."
    if isinstance(e, AtJunction):
        return f"Figurka {PLAYER_GEN[e.colour]} stojí na rozcestí a příště si vybere cestu."
    if isinstance(e, AtTurnOff):
        return (f"Figurka {PLAYER_GEN[e.colour]} stojí na odbočce a příště musí jít tam, "
                "kam ukazuje šipka.")
    if isinstance(e, DrawDue):
        when = " mimo pořadí" if e.out_of_turn else ""
        return (f"{PLAYER[e.colour]} si{when} bere vrchní kartu z balíčku; zadejte, "
                "jaké má číslo.")
    if isinstance(e, CardDrawn):
        when = " mimo pořadí" if e.out_of_turn else ""
        text = f"{PLAYER[e.colour]} si{when} bere kartu číslo {e.card}."
        if rules is not None and e.card in rules.deck.by_number:
            text += " " + rules.deck.card(e.card).text
        return text
    if isinstance(e, CardNoEffect):
        return CARD_WHY[e.why]
    if isinstance(e, ChoiceNeeded):
        return f"{PLAYER[e.colour]} vybírá figurku soupeře, které se karta týká."
    if isinstance(e, OfferNeeded):
        return f"{PLAYER[e.colour]} vybírá, kterému spoluhráči nabídne, co stojí na kartě."
    if isinstance(e, Offered):
        deal = _OFFER.get(_effect(rules, e.card), " to, co stojí na kartě")
        return (f"{PLAYER[e.colour]} nabízí {PLAYER_DAT[e.to]}{deal}; "
                f"{PLAYER_LOWER[e.to]} vybere figurku, nebo odmítne.")
    if isinstance(e, Swapped):
        return f"{PLAYER[e.colour]} si vyměnil místo {WITH_PLAYER[e.other]}."
    if isinstance(e, ImmunityGranted):
        return f"Figurka {PLAYER_GEN[e.colour]} je na čtyři kola chráněná."
    if isinstance(e, ImmunityEnded):
        return f"Figurce {PLAYER_GEN[e.colour]} skončila imunita."
    if isinstance(e, CardChainStopped):
        return "V tomto tahu už bylo karet dost, další se nebere."
    if isinstance(e, MustDrink):
        return describe_duty(e)
    if isinstance(e, Settled):
        if e.reason is None:
            return f"{PLAYER[e.colour]} se napil a už nic nedluží."
        words = debt_reason(Debt(e.colour, 1, e.reason, e.about, e.card))
        return f"{PLAYER[e.colour]} se napil ({words})."
    if isinstance(e, Postponed):
        return postponed_text(e)
    if isinstance(e, OwingThrow):
        return f"{PLAYER[e.colour]} hází, i když ještě dluží: hod nebude platit."
    if isinstance(e, TurnForfeited):
        return FORFEIT_WHY[e.why]
    if isinstance(e, TurnPassed):
        return f"Na tahu je {PLAYER_LOWER[e.next]}."
    if isinstance(e, Won):
        return f"{PLAYER[e.colour]} vyhrává, všechny jeho figurky jsou doma!"
    raise TypeError(f"unknown event {event!r}")


def postponed_text(e: Postponed) -> str:
    """A drink left for later, and when it must be drunk: before the next throw (the turn
    to come, or this one not begun yet), or before the next turn (incurred during it)."""
    when = "před svým příštím tahem" if e.next_turn else "než zase hodí"
    words = debt_reason(Debt(e.colour, 1, e.reason, e.about, e.card))
    return f"{PLAYER[e.colour]} se napije později ({words}), nejpozději {when}."


_OFFER = {"offer_knock_out": ", že ho smí vyhodit",
          "offer_swap": " výměnu místa"}
"""What an offering card offers, by its effect."""


def _effect(rules: Rules | None, card: int) -> str:
    if rules is None or card not in rules.deck.by_number:
        return ""
    return rules.deck.card(card).effect.value


CARD_WHY = {
    CardWhy.OFF_MAIN: "Figurky mimo hlavní cestu se karta netýká, a tak se nic neděje.",
    CardWhy.OVERSHOOT: "Karta by figurku poslala za domek, a tak figurka zůstává stát.",
    CardWhy.BLOCKED: "Pole, kam karta posílá, je obsazené, a tak figurka zůstává stát.",
    CardWhy.NO_TARGET: "Na hlavní cestě není žádná figurka soupeře, které by se karta týkala.",
    CardWhy.IMMUNE: "Figurku chrání imunita, a tak zůstává na místě.",
    CardWhy.IN_LINE: "Figurka už stojí hned za nejbližší figurkou soupeře, a tak zůstává.",
    CardWhy.DECLINED: "Spoluhráč nabídku odmítl, a tak se nic neděje.",
    CardWhy.BLANK: "Úkol prázdné karty si určete sami.",
}

FORFEIT_WHY = {
    ForfeitWhy.NO_MOVE: "Hozená čísla nejde použít všechna, a tak tah propadá.",
    ForfeitWhy.SIX_UNUSABLE: "Šestku nemůže použít žádná figurka, tah propadá a dál se nehází.",
    ForfeitWhy.TRIES: "Ani na třetí pokus nepadla šestka, a tak tah propadá.",
}


REASON_WORDS = {
    DrinkReason.START: "přípitek na začátek",
    DrinkReason.KNOCKED_OUT: "vyhozená figurka",
    DrinkReason.BOTTLE: "střet s lahví",
    DrinkReason.PUB: "figurka zpět v hospodě",
    DrinkReason.CARD: "karta",
    DrinkReason.GLASS: "karta: dopij sklenici",
    DrinkReason.EVERYBODY: "karta: pijí všichni",
    DrinkReason.HOME: "přípitek na figurku v domku",
    DrinkReason.WINNER: "přípitek vítězi",
    DrinkReason.DROPPED_DICE: "spadlá kostka",
    DrinkReason.DELAY: "zdržování",
    DrinkReason.CHEATING: "švindl",
    DrinkReason.UPSET: "rozčilování",
}
"""Why a drink is owed, as a short noun phrase (the debt of a duty with no more to say)."""

BY_PLAYER = ("červeným", "modrým", "zeleným", "žlutým")
"""Instrumental without a preposition: vyhození modrým (knocked out by blue)."""


def debt_reason(d: Debt) -> str:
    """Why one debt is owed, in a few words a tipsy player reads at a glance: "karta č. 23",
    "spadlá kostka", "vyhození modrým", "přípitek: zelený doma"."""
    r = d.reason
    if r is None:
        return "dluh z dřívějška"
    if d.card is not None and r is DrinkReason.KNOCKED_OUT:
        return f"vyhození kartou č. {d.card}"
    if d.card is not None and r in (DrinkReason.CARD, DrinkReason.EVERYBODY, DrinkReason.PUB):
        return f"karta č. {d.card}"
    if r is DrinkReason.GLASS:
        return "sklenice" if d.card is None else f"karta č. {d.card}: sklenice"
    if r is DrinkReason.KNOCKED_OUT and d.about is not None:
        return f"vyhození {BY_PLAYER[d.about]}"
    if r is DrinkReason.BOTTLE:
        return "odsunutá láhev" if d.about is None else "vyhození lahví"
    if r is DrinkReason.PUB:
        return "váleček"
    if r is DrinkReason.HOME and d.about is not None:
        return f"přípitek: {PLAYER_LOWER[d.about]} doma"
    return REASON_WORDS[r]


def debts_text(debts: Sequence[Debt], *, counts: bool = True) -> str:
    """A player's debts in one line, oldest first, each with why and how many:
    ``"karta č. 23 a spadlá kostka"``, ``"2× švindl a zdržování"``; equal reasons once
    (``counts=False``: without the numbers, to be said aloud after the total)."""
    drinks: dict[str, int] = {}
    for d in debts:
        words = debt_reason(d)
        drinks[words] = drinks.get(words, 0) + d.drinks
    parts = [words if n == 1 or not counts else f"{n}× {words}" for words, n in drinks.items()]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " a " + parts[-1]


def describe_duty(e: MustDrink) -> str:
    """Who must drink and why, in one sentence."""
    who = PLAYER[e.colour]
    times = "" if e.drinks == 1 else f" {TIMES.get(e.drinks, f'{e.drinks}krát')}"
    r = e.reason
    about = PLAYER_DAT[e.about] if e.about is not None else "vítězi"
    if r is DrinkReason.START:
        return f"{who} se musí napít na začátek hry."
    if r is DrinkReason.KNOCKED_OUT and e.card is not None:
        return f"{who} se musí napít, protože mu vyhodili figurku kartou č. {e.card}."
    if r is DrinkReason.KNOCKED_OUT:
        return f"{who} se musí napít, protože mu vyhodili figurku."
    if r is DrinkReason.BOTTLE:
        return f"{who} se musí napít za střet s lahví."
    if r is DrinkReason.PUB:
        return f"{who} se musí napít, protože se mu figurka vrátila do hospody."
    if r is DrinkReason.CARD:
        return f"{who} se musí napít{times}, protože mu to ukládá karta."
    if r is DrinkReason.GLASS:
        return f"{who} musí dopít sklenici."
    if r is DrinkReason.EVERYBODY:
        return f"{who} se musí napít spolu s ostatními."
    if r is DrinkReason.HOME:
        return f"{who} musí připít {about} na figurku v domku."
    if r is DrinkReason.WINNER:
        return f"{who} musí připít {about} na počest vítězství."
    if r is DrinkReason.DROPPED_DICE:
        return f"{who} se musí napít, protože shodil kostku."
    if r is DrinkReason.DELAY:
        return f"{who} se musí napít za zbytečné zdržování."
    if r is DrinkReason.CHEATING:
        return f"{who} se musí napít za švindlování."
    if r is DrinkReason.UPSET:
        return f"{who} se musí napít, protože se rozčiluje."
    raise ValueError(f"unknown reason {r!r}")


EXPLAIN = {
    Why.LEGAL: "Tenhle tah je v pořádku.",
    Why.GAME_OVER: "Hra už skončila.",
    Why.NOT_PLAYING: "Tahle barva ve hře není.",
    Why.THROW_FIRST: "Nejdřív se hází kostkou a po každé šestce se hází znovu.",
    Why.NOT_THROW_PHASE: "Teď se nehází, nejdřív je potřeba táhnout.",
    Why.CHOICE_PENDING: "Nejdřív se musí vybrat, koho se karta týká.",
    Why.NO_CHOICE_PENDING: "Teď se nic nevybírá.",
    Why.NOT_YOUR_CHOICE: "Tahle nabídka patří jinému hráči.",
    Why.SHUFFLE_FIRST: "Nejdřív je potřeba zamíchat balíček karet.",
    Why.NOT_SHUFFLE_PHASE: "Balíček se míchá jen jednou, na začátku hry.",
    Why.BAD_SHUFFLE: "Zamíchaný balíček musí obsahovat každou kartu právě jednou.",
    Why.DRAW_PENDING: "Nejdřív je potřeba zadat kartu, kterou si hráč vzal z balíčku.",
    Why.NO_DRAW_PENDING: "Teď si nikdo kartu nebere.",
    Why.NOT_A_CARD: "Karta s takovým číslem v balíčku není.",
    Why.BAD_VALUE: "Kostka má jen čísla od jedné do šesti.",
    Why.NO_PIECE: "Tam žádná tvoje figurka nestojí.",
    Why.PUB_NEEDS_SIX: "Z hospody se figurka dostane jen šestkou.",
    Why.TRAP_NEEDS_SIX: "Ze záchytky, z bažiny i z lesa figurku vysvobodí jen šestka.",
    Why.START_HELD_BY_OWN: "Na stanovišti stojí tvoje figurka, a tak teď nasadit nejde.",
    Why.OWN_PIECE_ON_TARGET: "Figurka by skončila na poli, kde už stojí tvoje vlastní figurka.",
    Why.IMMUNE_ON_TARGET: "Na cílovém poli stojí figurka chráněná imunitou.",
    Why.OVERSHOOTS_HOME: "Figurka by přešla konec domku, do domku se musí trefit přesně.",
    Why.CANNOT_JUMP_IN_HOME: "V domku se figurky nepřeskakují.",
    Why.OVERSHOOTS_TRAP: ("Hod je větší než počet polí, která zbývají na záchytku, do bažiny "
                          "nebo do lesa."),
    Why.CANNOT_MOVE: "Figurka stojí v domku a před ní už žádné volné pole není.",
    Why.NOT_A_THROWN_VALUE: "Takové číslo v tomto tahu nepadlo, dělit se smí jen hozená čísla.",
    Why.VALUES_UNUSED: "Musíš použít všechna hozená čísla.",
    Why.TOGETHER_NEEDS_ALL: ("Jedna figurka může vzít buď jedno hozené číslo, nebo součet "
                             "všech hodů."),
    Why.PIECE_TWICE: "Při dělení hodu dostane každá figurka jen jedno číslo.",
    Why.EXIT_NEEDED: "Figurka stojí na rozcestí, a tak musíš říct, kterým směrem půjde.",
    Why.BAD_EXIT: "Tímto směrem z tohoto pole cesta nevede.",
    Why.BOTTLE_DECLARED: "V tomto tahu hraješ lahví, a tak vlastní figurkou táhnout nesmíš.",
    Why.BOTTLE_NOT_DECLARED: "Lahví se dá hrát jen tehdy, když to hráč ohlásí před hodem.",
    Why.BOTTLE_NOT_PLACED: "Láhev ještě na plánu není.",
    Why.BOTTLE_NEEDS_PIECE_IN_PLAY: "Lahví smí hrát jen hráč, který má figurku ve hře.",
    Why.BOTTLE_TOO_LATE: "Láhev se ohlašuje před prvním hodem tahu.",
    Why.BAD_CHOICE: "Této figurky se karta týkat nemůže.",
    Why.NOTHING_OWED: "Tento hráč nic nedluží.",
    Why.NOTHING_ANNOUNCED: "Takové napití teď nikdo neohlásil.",
    Why.NOT_A_CALLED_DUTY: "Takovou povinnost napít se hráči vyhlásit nemohou.",
}


def explain(reason: Reason) -> str:
    """Why an action is not legal, in one Czech sentence."""
    return EXPLAIN[reason.why]


HEADLINE_ORDER: tuple[type, ...] = (
    Won, Captured, EnteredHome, ReturnedToPub, Trapped, CardDrawn, DrawDue, VoidThrow,
    TurnForfeited, Entered, Released, BottleMoved, BottlePushed, Swapped, Offered, OfferNeeded,
    Moved, TryFailed, ThrowAgain, Thrown, Settled, MustDrink, BottlePlaced, DeckShuffled)
"""The events of one action, the most telling first: the one a headline names."""


def headline(events: list[Event], rules: Rules | None = None) -> str:
    """The one line the turn screen shows after an action: the most telling event."""
    for kind in HEADLINE_ORDER:
        for e in events:
            if isinstance(e, kind):
                return describe_event(e, rules)
    return describe_event(events[0], rules) if events else ""

