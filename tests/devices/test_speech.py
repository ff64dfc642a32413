"""The speech normaliser: the screen's signs and numbers said as Czech words."""

from __future__ import annotations

import pytest

from companion.devices.speech import (
    cardinal,
    cardinal_gen,
    ordinal,
    ordinal_nouns,
    raw_left,
    speakable,
    unspoken,
)


@pytest.mark.parametrize(("text", "said"), [
    ("Figurka na 12. poli", "Figurka na dvanáctém poli"),
    ("Přední figurka z 27. na 30. pole, vyhodí modrého.",
     "Přední figurka ze dvacátého sedmého na třicáté pole, vyhodí modrého."),
    ("Šestka nepadla, 2. pokus ze 3.", "Šestka nepadla, druhý pokus ze tří."),
    ("Červený (PC) hodil 4.", "Červený (počítač) hodil čtyři."),
    ("Hráč 2 byl první o 80 ms.", "Hráč dva byl první o osmdesát milisekund."),
    ("o 1 ms", "o jednu milisekundu"),
    ("7,4 ms – pod přesností čidel (±8 ms): současně.",
     "sedm celých čtyři milisekundy, pod přesností čidel (plus minus osm milisekund): "
     "současně."),
    ("H2 první o 40 ms", "hráč dva první o čtyřicet milisekund"),
    ("Spor o kupičku H3", "Spor o kupičku hráče tři"),
    ("◀▶ vyber, ● ok", "tlačítka vlevo a vpravo vyber, tlačítko uprostřed dobře"),
    ("38.→cíl 3", "třicáté osmé na cíl tři"),
    ("10: z hospody → na 2. pole", "deset: z hospody na druhé pole"),
    ("Plácni přes dvě podložky, každou 3×.", "Plácni přes dvě podložky, každou třikrát."),
    ("karta č. 23", "karta číslo dvacet tři"),
    ("Jas: 100 %", "Jas: sto procent"),
    ("Cíl hry 1/2", "Cíl hry jedna ze dvou"),
    ("Sám táhne po: 1,5 s", "Sám táhne po: jedna celá pět sekundy"),
    ("na 21. poli", "na dvacátém prvním poli"),
    ("z 4. na 9. pole", "ze čtvrtého na deváté pole"),
    # two of a feminine unit, a unit ending its sentence, the referee's rows and touches
    ("Hráč 2 byl první o 2 ms.", "Hráč dva byl první o dvě milisekundy."),
    ("o 1 ms.", "o jednu milisekundu."),
    ("±2 ms", "plus minus dvě milisekundy"),
    ("H4→H1 +2,0 s, H1→H3 +7 ms", "hráč čtyři na kupičku hráče jedna plus dvě celé nula "
                                   "sekundy, hráč jedna na kupičku hráče tři plus sedm milisekund"),
    ("Pořadí doteků 3/6. 1. H3 faul 0 ms", "Pořadí doteků tři ze šesti. první hráč tři faul nula "
                                            "milisekund"),
])
def test_signs_ordinals_and_numbers_are_said_in_their_case(text, said):
    assert speakable(text) == said
    assert raw_left(speakable(text)) == []


def test_a_full_stop_after_a_number_ends_the_sentence_and_is_no_ordinal():
    assert speakable("Modrý hodil 6. Zelený hází.") == "Modrý hodil šest. Zelený hází."


def test_number_words():
    assert cardinal(0) == "nula" and cardinal(42) == "čtyřicet dva" and cardinal(215) == \
        "dvě stě patnáct" and cardinal(2000) == "dva tisíce"
    assert cardinal_gen(3) == "tří" and cardinal_gen(24) == "dvaceti čtyř"
    assert ordinal(1, "loc", "n") == "prvním" and ordinal(3, "gen", "m") == "třetího"
    assert ordinal(39, "acc", "n") == "třicáté deváté"


def test_unknown_signs_are_named_and_never_reach_espeak():
    assert unspoken("Hra ☃ konec") == {"☃"}
    assert unspoken("● ◀ ▶ × ± → č. 5. 80 ms") == set()
    said = speakable("Hra ☃ konec 5.")
    assert "☃" not in said and raw_left(said) == []
    assert "5." in raw_left("Hra 5. kolo")


def test_every_ordinal_names_the_noun_it_is_said_with():
    assert ordinal_nouns("Z 20. na 25. pole, na 2. poli") == [
        ("pole", "gen", "n"), ("pole", "acc", "n"), ("poli", "loc", "n")]
    assert ordinal_nouns("1. H2 útok") == [("H", "nom", "m")]
    assert ordinal_nouns("Spor 2/6. vrchní karta") == []  # a page, said "dva ze šesti"
    assert ordinal_nouns("38.→cíl 3") == [("", "nom", "n")]  # no noun known: neuter
