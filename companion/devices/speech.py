"""What the voice reads: the screen's Czech with its symbols and numbers spoken as words.

The OLED's texts are short and full of signs that espeak-ng would spell or skip:
the buttons (● ◀ ▶), arrows, ``×``, ``±``, ``č.``, ordinals written with a dot
("na 12. poli"), milliseconds, percentages, the referee's seats (``H2``).
:func:`speakable` turns one such text into plain Czech words, numbers included,
each in the case its preposition and noun ask for ("na dvanáctém poli", "ze
tří", "o osmdesát milisekund").  :func:`unspoken` names the signs of a text that
the normaliser has no word for (a test runs every sentence of many seeded games
through it); whatever is left after that is dropped rather than spelled.

Pure text functions: the voice's twins (:mod:`.voice`) apply :func:`speakable`
to every announcement before espeak-ng gets it.
"""

from __future__ import annotations

import re

UNITS = ("nula", "jedna", "dva", "tři", "čtyři", "pět", "šest", "sedm", "osm", "devět",
         "deset", "jedenáct", "dvanáct", "třináct", "čtrnáct", "patnáct", "šestnáct",
         "sedmnáct", "osmnáct", "devatenáct")
TENS = ("", "", "dvacet", "třicet", "čtyřicet", "padesát", "šedesát", "sedmdesát",
        "osmdesát", "devadesát")
HUNDREDS = ("", "sto", "dvě stě", "tři sta", "čtyři sta", "pět set", "šest set", "sedm set",
            "osm set", "devět set")
UNITS_GEN = ("nula", "jedné", "dvou", "tří", "čtyř", "pěti", "šesti", "sedmi", "osmi",
             "devíti", "deseti", "jedenácti", "dvanácti", "třinácti", "čtrnácti", "patnácti",
             "šestnácti", "sedmnácti", "osmnácti", "devatenácti")
TENS_GEN = ("", "", "dvaceti", "třiceti", "čtyřiceti", "padesáti", "šedesáti", "sedmdesáti",
            "osmdesáti", "devadesáti")
ORD_UNITS = ("nult", "prvn", "druh", "třet", "čtvrt", "pát", "šest", "sedm", "osm", "devát",
             "desát", "jedenáct", "dvanáct", "třináct", "čtrnáct", "patnáct", "šestnáct",
             "sedmnáct", "osmnáct", "devatenáct")
ORD_TENS = ("", "", "dvacát", "třicát", "čtyřicát", "padesát", "šedesát", "sedmdesát",
            "osmdesát", "devadesát")
SOFT = {"prvn", "třet"}
"""Ordinal stems that decline like ``jarní`` (první, třetí); the others like ``mladý``."""
ZE = ("s", "z", "š", "ž", "tř", "čt", "dv")
"""Words before which "z" is said "ze" (ze tří, ze dvou)."""
TIMES = {1: "jednou", 2: "dvakrát", 3: "třikrát", 4: "čtyřikrát"}

# (case, gender) -> ending of a hard ordinal; soft ones below
HARD = {("nom", "m"): "ý", ("nom", "f"): "á", ("nom", "n"): "é",
        ("gen", "m"): "ého", ("gen", "f"): "é", ("gen", "n"): "ého",
        ("dat", "m"): "ému", ("dat", "f"): "é", ("dat", "n"): "ému",
        ("acc", "m"): "ý", ("acc", "f"): "ou", ("acc", "n"): "é",
        ("loc", "m"): "ém", ("loc", "f"): "é", ("loc", "n"): "ém",
        ("ins", "m"): "ým", ("ins", "f"): "ou", ("ins", "n"): "ým"}
SOFT_END = {"nom": "í", "gen": "ího", "dat": "ímu", "acc": "í", "loc": "ím", "ins": "ím"}

NOUNS: dict[str, tuple[str, tuple[str, ...]]] = {
    # form: (gender, the cases the form can be in)
    "pole": ("n", ("nom", "acc", "gen")), "poli": ("n", ("loc", "dat")),
    "polem": ("n", ("ins",)), "polí": ("n", ("gen",)),
    "místo": ("n", ("nom", "acc")), "místa": ("n", ("gen",)), "místě": ("n", ("loc",)),
    "kolo": ("n", ("nom", "acc")), "kola": ("n", ("gen",)), "kole": ("n", ("loc",)),
    "pokus": ("m", ("nom", "acc")), "pokusu": ("m", ("gen", "loc", "dat")),
    "hod": ("m", ("nom", "acc")), "hodu": ("m", ("gen", "loc", "dat")),
    "tah": ("m", ("nom", "acc")), "tahu": ("m", ("gen", "loc", "dat")),
    "hráč": ("m", ("nom",)), "hráče": ("m", ("gen", "acc")),
    "karta": ("f", ("nom",)), "kartu": ("f", ("acc",)), "karty": ("f", ("gen",)),
    "kartě": ("f", ("loc", "dat")), "strana": ("f", ("nom",)), "straně": ("f", ("loc",)),
    "stranu": ("f", ("acc",)), "strany": ("f", ("gen",)), "figurka": ("f", ("nom",)),
    "figurku": ("f", ("acc",)), "figurky": ("f", ("gen",)), "řada": ("f", ("nom",)),
    "místem": ("n", ("ins",)),
}
GEN_PREP = {"z", "ze", "do", "od", "ode", "u", "kolem", "bez", "podle", "vedle", "místo",
            "během", "kromě", "až do"}
LOC_PREP = {"v", "ve", "o", "po", "při"}
ACC_PREP = {"na", "za", "přes", "pro", "mezi", "nad", "pod", "před"}
DAT_PREP = {"k", "ke", "proti"}
INS_PREP = {"s", "se"}

SYMBOLS = {
    "◀▶": " tlačítka vlevo a vpravo ", "◀ ▶": " tlačítka vlevo a vpravo ",
    "●": " tlačítko uprostřed ", "◀": " tlačítko vlevo ", "▶": " tlačítko vpravo ",
    "±": " plus minus ", "→": " na ", "–": ", ", "—": ", ", "…": ". ", "·": ", ",
    "%": " procent ", "+": " plus ", "„": "", "“": "", "\"": "", "*": "", "#": " číslo ",
    "=": " je ", "&": " a ", "°": " stupňů ", "_": " ", "|": ", ", "[": " ", "]": " ",
    "{": " ", "}": " ", "<": " ", ">": " ", "~": " ", "^": " ",
}
"""Signs and what is said for them (the buttons by where they are on the box)."""
WORDS = {"PC": "počítač", "vyp.": "vypnuto", "č.": "číslo", "tj.": "to jest",
         "např.": "například", "atd.": "a tak dále", "str.": "strana", "OK": "dobře",
         "ok": "dobře", "ms": "milisekund", "min.": "minut"}
"""Abbreviations of the screens and what is said for them."""

ALLOWED = set("aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž"
              "AÁBCČDĎEÉĚFGHIÍJKLMNŇOÓPQRŘSŠTŤUÚŮVWXYÝZŽ .,!?:;-'()/\n")
"""What may reach espeak-ng: Czech letters, spaces and plain punctuation."""

_TOKEN = re.compile(r"H\d+\b|\d+(?:,\d+)?\.?|[^\W\d_]+\.?|\S")


def cardinal(n: int) -> str:
    """A whole number in words, nominative (``42`` -> ``čtyřicet dva``)."""
    if n < 0:
        return "minus " + cardinal(-n)
    if n < 20:
        return UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return TENS[tens] + (" " + UNITS[unit] if unit else "")
    if n < 1000:
        hund, rest = divmod(n, 100)
        return HUNDREDS[hund] + (" " + cardinal(rest) if rest else "")
    if n < 1_000_000:
        thou, rest = divmod(n, 1000)
        head = "tisíc" if thou == 1 else (
            cardinal(thou).replace("dva", "dva") + " tisíce" if thou < 5 else
            cardinal(thou) + " tisíc")
        return head + (" " + cardinal(rest) if rest else "")
    return " ".join(UNITS[int(d)] for d in str(n))


def cardinal_gen(n: int) -> str:
    """A whole number in the genitive (``ze 3`` -> ``ze tří``); large ones stay nominative."""
    if n < 20:
        return UNITS_GEN[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return TENS_GEN[tens] + (" " + UNITS_GEN[unit] if unit else "")
    return cardinal(n)


def ordinal(n: int, case: str = "nom", gender: str = "n") -> str:
    """An ordinal in words, in ``case`` and ``gender`` (``12``, loc, n -> ``dvanáctém``)."""
    if n < 20:
        parts = [ORD_UNITS[n]]
    elif n < 100:
        tens, unit = divmod(n, 10)
        parts = [ORD_TENS[tens]] + ([ORD_UNITS[unit]] if unit else [])
    elif n == 100:
        parts = ["st"]
    else:
        return cardinal(n)
    return " ".join(stem + (SOFT_END[case] if stem in SOFT else HARD[(case, gender)])
                    for stem in parts)


def decimal(text: str) -> tuple[str, str]:
    """``7,4`` in words and the number form of a noun after it ("sing", "few", "many",
    "part")."""
    whole, _, frac = text.partition(",")
    w = int(whole)
    if not frac:
        form = "sing" if w == 1 else "few" if 2 <= w <= 4 else "many"
        return cardinal(w), form
    whole_words = {1: "jedna celá", 2: "dvě celé", 3: "tři celé", 4: "čtyři celé"}.get(
        w, f"{cardinal(w)} celých")
    return f"{whole_words} {cardinal(int(frac))}", "part"


UNIT_FORMS = {
    "ms": {"sing": "milisekunda", "few": "milisekundy", "many": "milisekund",
           "part": "milisekundy"},
    "s": {"sing": "sekunda", "few": "sekundy", "many": "sekund", "part": "sekundy"},
    "%": {"sing": "procento", "few": "procenta", "many": "procent", "part": "procenta"},
}


def _prep_before(tokens: list[str], i: int) -> str:
    for j in range(i - 1, max(-1, i - 3), -1):
        word = tokens[j].lower()
        if word in GEN_PREP | LOC_PREP | ACC_PREP | DAT_PREP | INS_PREP:
            return word
        if re.fullmatch(r"\d+\.?|→|,", word) is None:
            return ""
    return ""


SEAT_ROW = "H"
"""The noun an ordinal before a seat stands for: the referee's order of touches ("1. H2 útok"
is said "první hráč dva útok", masculine as hráč)."""


def _noun_form_after(tokens: list[str],
                     i: int) -> tuple[str, tuple[str, tuple[str, ...]] | None]:
    """The noun (as written) an ordinal at ``i`` goes with and its gender and cases."""
    if i + 1 < len(tokens) and re.fullmatch(r"H\d+", tokens[i + 1]):
        return SEAT_ROW, ("m", ("nom",))
    for j in range(i + 1, min(len(tokens), i + 6)):
        word = tokens[j].lower().rstrip(".")
        if word in NOUNS:
            return word, NOUNS[word]
        if tokens[j] in (".", "!", "?", ";"):
            break
    return "", None


def _ordinal_form(tokens: list[str], i: int) -> tuple[str, str, str]:
    """The noun an ordinal at ``i`` goes with ("" when none is known: then it is said as a
    neuter, nominative unless a preposition asks otherwise), its case and gender."""
    noun, known = _noun_form_after(tokens, i)
    gender, cases = known if known is not None else ("n", ("nom",))
    return noun, _case(_prep_before(tokens, i), cases, own_noun=known is not None), gender


def ordinal_nouns(text: str) -> list[tuple[str, str, str]]:
    """Every ordinal of ``text`` ("12." before a word) with the noun it is said with ("" when
    the normaliser knows none), its case and gender: ``na 12. poli`` -> ``("poli", "loc",
    "n")``.  A test lists those of every sentence the games say."""
    text = text.replace("\u00a0", " ")
    tokens = _TOKEN.findall(text)
    return [_ordinal_form(tokens, i) for i, tok in enumerate(tokens)
            if tok[0].isdigit() and tok.endswith(".") and _is_ordinal(tokens, i)
            and (i == 0 or tokens[i - 1] != "/")]  # "2/6." is a page: "dva ze šesti"


def _case(prep: str, cases: tuple[str, ...], *, own_noun: bool) -> str:
    if prep in GEN_PREP:
        return "gen"
    if prep in LOC_PREP:
        return "loc" if "loc" in cases or not own_noun else cases[0]
    if prep in DAT_PREP:
        return "dat"
    if prep in INS_PREP:
        return "ins"
    if prep in ACC_PREP:
        if "loc" in cases and prep == "na":
            return "loc"
        if "ins" in cases:
            return "ins"
        return "acc"
    return cases[0] if cases else "nom"


def _is_ordinal(tokens: list[str], i: int) -> bool:
    """``12.`` is an ordinal when a word in lower case, an arrow or a closing sign follows,
    or an arrow comes before it (``5.→8.``); a full stop at a sentence's end is not."""
    if not tokens[i].endswith(".") or "," in tokens[i]:
        return False
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    prev = tokens[i - 1] if i > 0 else ""
    if nxt in ("→", ")", "–", ",") or prev == "→" or re.fullmatch(r"H\d+", nxt):
        return True  # "5.→8.", "1. H2 útok" (the order of touches)
    return bool(nxt) and nxt[0].islower()


def speakable(text: str) -> str:
    """``text`` as espeak-ng should read it: every sign and number in Czech words."""
    text = re.sub(r"(\d)\s*×", lambda m: m.group(1) + "×", text)
    text = text.replace("\u00a0", " ").replace("Hod PC", "Hod počítače")
    tokens = _TOKEN.findall(text)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if re.fullmatch(r"\d+", tok) and nxt == "/" and i + 2 < len(tokens) \
                and re.fullmatch(r"\d+\.?", tokens[i + 2]):
            total = tokens[i + 2]
            whole = cardinal_gen(int(total.rstrip(".")))
            z = "ze" if whole.startswith(ZE) else "z"
            out.append(f"{cardinal(int(tok))} {z} {whole}"
                       + ("." if total.endswith(".") else ""))
            i += 3
            continue
        if tok[0].isdigit():
            number = tok.rstrip(".")
            dot = tok.endswith(".")
            if dot and _is_ordinal(tokens, i):
                _, case, gender = _ordinal_form(tokens, i)
                out.append(ordinal(int(number), case, gender))
                i += 1
                continue
            words, form = decimal(number)
            unit = nxt.rstrip(".") if nxt.rstrip(".") in UNIT_FORMS else ""
            dot = dot or (unit != "" and nxt.endswith("."))  # "o 2 ms." ends a sentence
            after = tokens[i + 2] if i + 2 < len(tokens) else ""
            if unit == "s" and after[:1].isalpha() and not re.fullmatch(r"H\d+", after):
                unit = ""  # "s" as the preposition, not seconds (a seat's H2 may follow them)
            if unit:
                prep = _prep_before(tokens, i)
                if form == "sing" and prep in ACC_PREP | {"o"}:
                    words, name = "jednu", UNIT_FORMS[unit]["sing"][:-1] + "u"
                else:
                    name = UNIT_FORMS[unit][form]
                    if words == "dva":
                        words = "dvě"  # milisekunda, sekunda, procento: "dvě"
                out.append(f"{words} {name}" + ("." if dot else ""))
                i += 2
                continue
            if nxt == "×":
                n = int(number) if "," not in number else 0
                out.append(TIMES.get(n, f"{words}krát".replace(" ", "")) + ("." if dot else ""))
                i += 2
                continue
            prep = _prep_before(tokens, i)
            if prep in GEN_PREP and form != "part" and (i == 0 or tokens[i - 1].lower() == prep):
                words = cardinal_gen(int(number))
            out.append(words + ("." if dot else ""))
            i += 1
            continue
        if re.fullmatch(r"H\d+", tok):
            prev = out[-1].lower().split()[-1] if out and out[-1].split() else ""
            seat = cardinal(int(tok[1:]))
            out.append(("hráče " if prev in ("kupičku", "kupičky", "o") else "hráč ") + seat)
            i += 1
            continue
        if tok in WORDS or tok.lower() in ("č.", "vyp."):
            out.append(WORDS.get(tok, WORDS.get(tok.lower(), tok)))
            i += 1
            continue
        if tok == "→" and re.fullmatch(r"H\d+", nxt):
            out.append("na kupičku")  # the referee's "H4→H1": a touch on hráč 1's pile
            i += 1
            continue
        if tok == "→" and nxt.lower() in ("na", "do", "v", "ve", "k", "ke", "za", "mezi"):
            i += 1  # "z hospody → na 2. pole": the arrow is the preposition's
            continue
        if tok == "◀" and nxt == "▶":
            out.append(SYMBOLS["◀▶"])
            i += 2
            continue
        if tok in SYMBOLS:
            out.append(SYMBOLS[tok])
            i += 1
            continue
        if tok.endswith(".") and tok[:-1] in WORDS:
            out.append(WORDS[tok[:-1]] + ".")
            i += 1
            continue
        out.append(tok)
        i += 1
    said = _join(out)
    said = "".join(ch if ch in ALLOWED else " " for ch in said)
    return _tidy(said)


def _join(tokens: list[str]) -> str:
    text = ""
    for tok in tokens:
        if not text or tok in (".", ",", "!", "?", ":", ";", ")") or text.endswith("("):
            text += tok
        else:
            text += " " + tok
    return text


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([.,!?:;)])", r"\1", text)
    text = re.sub(r"([,:;])(?:\s*[,:;])+", r"\1", text)
    text = re.sub(r"\(\s*", "(", text)
    text = re.sub(r"^[\s,.:;]+", "", text)
    text = re.sub(r"\b([zZ]) (?=(?:s|z|š|ž|čt|tř|vš|dv)\w)", r"\1e ", text)
    return text.strip()


def unspoken(text: str) -> set[str]:
    """The signs of ``text`` that :func:`speakable` has no word for (dropped, not said)."""
    known = set(SYMBOLS) | set("".join(SYMBOLS)) | set("×/")
    return {ch for ch in text if ch not in ALLOWED and ch not in known and not ch.isdigit()}


def raw_left(said: str) -> list[str]:
    """What of a spoken text espeak-ng would read as signs: digits, a digit with a dot, any
    character outside Czech letters and plain punctuation (an empty list: clean)."""
    found = re.findall(r"\d+\.?", said)
    found += [ch for ch in said if ch not in ALLOWED]
    return found
