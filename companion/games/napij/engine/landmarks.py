"""Words that point at exactly one field of the printed board, and the resolver that reads them
back (pure, Czech).

The printed board has no field numbers, and most of what is printed on it repeats (twelve
card fields, seven junctions), so "1 pole za kartou" does not say which field.  Here a field
is named by a *distinctive* landmark, one a player finds at once on the board: a colour's
start field (by the colour's pub) or arrow field, a junction named by where it leads and the
side of the board it is on ("rozcestí ke zkratce na modré straně"), or any field the board
file gives a ``label`` (a family names what their print shows).  A main-track field that is
not a landmark is counted from the nearest one, at most :data:`MAX_COUNT` fields, forwards or
backwards ("na 2. poli za modrou šipkou", "na 1. poli před rozcestím ke stezce na červené
straně"); where no landmark is that near, the field is counted from the start field of the
side of the board it is on, the nearest start field behind it ("na 13. poli od červeného
stanoviště"; "od svého stanoviště" when that is the piece's own).  Off the main track a field is named by what it
is on: the pub, the home of the piece's colour ("na 2. poli domku"), its rolling pin and
lane, a shortcut by the side it leaves from ("na 3. poli zkratky z modré strany"), the Černá
stezka counted from its nearer end ("na 4. poli Černé stezky od zelené strany"), its
turn-offs ("na odbočce k záchytce"), the paths to the traps and the traps.

Every phrase comes in three cases (:class:`Case`): where a piece stands (``AT``: "na modré
šipce"), where it comes from (``FROM``: "z modré šipky") and where it goes (``TO``: "na modrou
šipku", "do hospody").  ``own`` forms ("na svém stanovišti") are the piece owner's own.

:func:`resolve` reads a phrase back to the fields it can mean, with a grammar of its own (it
looks landmarks up by their words and counts along the board), so a test can check over whole
games that every phrase means exactly one field.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import StrEnum

from companion.games.napij.engine.board import LANE, MAIN, SHORTCUT, STEZKA, TRAP_AREA, Board
from companion.games.napij.engine.state import PUB, Rules

MAX_COUNT = 3
"""A landmark names fields at most this many fields away from it."""

PUB_FIELD = -1
"""What :func:`resolve` returns for the pub (not a field of the board)."""


class Case(StrEnum):
    AT = "at"  # locative: where a piece stands ("na modré šipce")
    FROM = "from"  # genitive: where it comes from ("z modré šipky")
    TO = "to"  # accusative: where it goes ("na modrou šipku")


# the colour adjectives: neuter (stanoviště) and feminine (šipka, strana), per case
NEUT = {"at": ("červeném", "modrém", "zeleném", "žlutém"),
        "from": ("červeného", "modrého", "zeleného", "žlutého"),
        "to": ("červené", "modré", "zelené", "žluté"),
        "ins": ("červeným", "modrým", "zeleným", "žlutým")}
FEM = {"at": ("červené", "modré", "zelené", "žluté"),
       "from": ("červené", "modré", "zelené", "žluté"),
       "to": ("červenou", "modrou", "zelenou", "žlutou"),
       "ins": ("červenou", "modrou", "zelenou", "žlutou")}
OWN_NEUT = {"at": "svém", "from": "svého", "to": "své", "ins": "svým"}
OWN_FEM = {"at": "své", "from": "své", "to": "svou", "ins": "svou"}
# nouns by case: locative, genitive, accusative, instrumental
NOUN = {"start": ("stanovišti", "stanoviště", "stanoviště", "stanovištěm"),
        "arrow": ("šipce", "šipky", "šipku", "šipkou"),
        "junction": ("rozcestí", "rozcestí", "rozcestí", "rozcestím"),
        "card": ("kartě", "karty", "kartu", "kartou"),
        "turnoff": ("odbočce", "odbočky", "odbočku", "odbočkou"),
        "normal": ("poli", "pole", "pole", "polem")}
CASES = ("at", "from", "to", "ins")
TRAP_AT = {"zachytka": "v záchytce", "bazina": "v bažině", "les": "v lese"}
TRAP_FROM = {"zachytka": "ze záchytky", "bazina": "z bažiny", "les": "z lesa"}
TRAP_TO = {"zachytka": "do záchytky", "bazina": "do bažiny", "les": "do lesa"}
TRAP_DAT = {"zachytka": "záchytce", "bazina": "bažině", "les": "lesu"}
TRAP_GEN = {"zachytka": "záchytky", "bazina": "bažiny", "les": "lesa"}
SIDE_AT = ("na červené straně", "na modré straně", "na zelené straně", "na žluté straně")
SIDE_FROM = ("z červené strany", "z modré strany", "ze zelené strany", "ze žluté strany")
SIDE_OD = ("od červené strany", "od modré strany", "od zelené strany", "od žluté strany")


def _z(word: str) -> str:
    """The preposition "z" before ``word`` ("ze" before s, z, š, ž)."""
    return "ze" if word[:1].lower() in "szšž" else "z"


def _prep(case: str, word: str) -> str:
    return f"{_z(word)} {word}" if case == "from" else f"na {word}"


def _ordinal(case: str, n: int, what: str) -> str:
    """``na 2. poli X`` / ``z 2. pole X`` / ``na 2. pole X``."""
    noun = "poli" if case == "at" else "pole"
    return f"{'z' if case == 'from' else 'na'} {n}. {noun} {what}"


@dataclass(frozen=True)
class Mark:
    """A distinctive landmark on the main track."""

    field: int
    kind: str
    """``start``, ``arrow``, ``junction`` (named by where it leads and its side) or ``label``."""
    colour: int | None = None
    """The colour of a start or arrow field."""
    name: str = ""
    """A junction's words after "rozcestí" ("ke zkratce na modré straně"), or a label."""
    noun: str = "normal"
    """A labelled field's noun (its kind: pole, karta, rozcestí...)."""

    def words(self, case: str, owner: int | None) -> str:
        """The landmark in ``case`` (``at``/``from``/``to`` with the preposition, ``ins``
        without: "modrou šipkou")."""
        k = CASES.index(case)
        if self.kind in ("start", "arrow"):
            assert self.colour is not None
            own = self.colour == owner
            adj = (OWN_NEUT if self.kind == "start" else OWN_FEM)[case] if own else \
                (NEUT if self.kind == "start" else FEM)[case][self.colour]
            text = f"{adj} {NOUN[self.kind][k]}"
        elif self.kind == "junction":
            text = f"{NOUN['junction'][k]} {self.name}"
        else:
            text = f"{NOUN[self.noun][k]} „{self.name}“"
        return text if case == "ins" else _prep(case, text)


@dataclass(frozen=True)
class Gazetteer:
    """The landmarks of a board and what a phrase needs to find its fields."""

    marks: tuple[Mark, ...]
    """Every distinctive landmark on the main track (each names one field)."""
    named: dict[int, Mark]
    """field -> its landmark."""
    pos: dict[int, int]
    """main-track field -> its place in ``board.main`` (red's start is 0)."""
    side: dict[int, int]
    """main-track field -> the colour whose side of the board it is on."""
    shortcut_side: tuple[int | None, ...]
    """per shortcut: the side of the junction it leaves from (None: not distinctive)."""
    forms: dict[int | None, dict[str, tuple[int, ...]]]
    """owner -> a landmark's words in any case -> the fields they can mean (the resolver's
    dictionary: every start, arrow, junction and label, distinctive or not)."""


def _side(board: Board, pos: dict[int, int]) -> dict[int, int]:
    """main field -> the colour of the nearest start field at or behind it."""
    n = len(board.main)
    starts = [(pos[board.start[c]], c) for c in range(4)]
    out = {}
    for f, k in pos.items():
        out[f] = min(starts, key=lambda sc: (k - sc[0]) % n)[1]
    return out


def _leads_to(board: Board, junction: int) -> str:
    """``ke stezce`` or ``ke zkratce``: where a main-track junction's branch goes."""
    branch = board.fields[junction].branch
    assert branch is not None
    return "ke stezce" if board.area[board.index[branch]] == STEZKA else "ke zkratce"


def _traps_ahead(board: Board, field: int) -> tuple[str, ...]:
    """The traps a trap-path field (or a turn-off) leads to, in board order."""
    f = board.fields[field]
    if f.kind == "trap":
        return (f.trap or "zachytka",)
    if f.kind == "junction" and f.exits:
        return tuple(t for e in f.exits for t in _traps_ahead(board, board.index[e]))
    nxt = f.forced if f.kind == "turnoff" else (f.links[1] if len(f.links) > 1 else None)
    if nxt is None:
        return ()
    return _traps_ahead(board, board.index[nxt])


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " a " + words[-1]


def traps_dat(board: Board, field: int) -> str:
    """``záchytce``, ``bažině a lesu``: the traps a turn-off or path leads to (dative)."""
    return _and([TRAP_DAT[t] for t in _traps_ahead(board, field)])


@functools.lru_cache(maxsize=8)
def gazetteer(rules: Rules) -> Gazetteer:
    board = rules.board
    pos = {f: k for k, f in enumerate(board.main)}
    side = _side(board, pos)
    candidates: list[Mark] = []
    for c in range(4):
        candidates.append(Mark(board.start[c], "start", c))
        candidates.append(Mark(board.arrow[c], "arrow", c))
    for f in board.main:
        field = board.fields[f]
        if field.label and field.kind not in ("start", "arrow"):
            noun = field.kind if field.kind in NOUN else "normal"
            candidates.append(Mark(f, "label", name=field.label, noun=noun))
        elif field.kind == "junction":
            candidates.append(Mark(f, "junction",
                                   name=f"{_leads_to(board, f)} {SIDE_AT[side[f]]}"))
    forms: dict[int | None, dict[str, set[int]]] = {}
    for owner in (None, 0, 1, 2, 3):
        words = forms[owner] = {}
        for m in candidates:
            for case in CASES:
                words.setdefault(m.words(case, owner), set()).add(m.field)
    marks = tuple(m for m in candidates if all(
        forms[owner][m.words(case, owner)] == {m.field}
        for owner in (None, 0, 1, 2, 3) for case in CASES))
    junction_side = {}
    for f in board.main:
        if board.fields[f].kind == "junction":
            branch = board.fields[f].branch
            assert branch is not None
            junction_side[board.index[branch]] = side[f]
    sides = [junction_side.get(sc[0]) for sc in board.shortcuts]
    shortcut_side = tuple(s if sides.count(s) == 1 else None for s in sides)
    return Gazetteer(marks, {m.field: m for m in marks}, pos, side, shortcut_side,
                     {o: {k: tuple(sorted(v)) for k, v in w.items()} for o, w in forms.items()})


# --- the words of a place -----------------------------------------------------------------------

@dataclass(frozen=True)
class MainWords:
    """How a main-track field is named: its landmark, and how far and which way from it
    (``count`` 0: the landmark itself); or, without a landmark near, its distance from the
    owner's start field (``mark`` None)."""

    mark: Mark
    count: int
    ahead: bool = False
    """The field lies before the landmark ("před"), not after it ("za")."""
    far: bool = False
    """No landmark within :data:`MAX_COUNT`: counted from the start field of the board's side
    the field is on ("na 13. poli od červeného stanoviště")."""


@functools.lru_cache(maxsize=1024)
def main_words(rules: Rules, field: int) -> MainWords:
    """The nearest distinctive landmark of a main-track field, within :data:`MAX_COUNT`
    fields (ties: one behind the field, then a start or arrow field before a label, before a
    junction)."""
    gz = gazetteer(rules)
    if field in gz.named:
        return MainWords(gz.named[field], 0)
    n = len(rules.board.main)
    k = gz.pos[field]
    best: tuple[tuple[int, bool, int], MainWords] | None = None
    for m in gz.marks:
        behind = (k - gz.pos[m.field]) % n
        before = (gz.pos[m.field] - k) % n
        for count, ahead in ((behind, False), (before, True)):
            if 1 <= count <= MAX_COUNT:
                key = (count, ahead, ("start", "arrow", "label", "junction").index(m.kind))
                if best is None or key < best[0]:
                    best = (key, MainWords(m, count, ahead))
    if best is not None:
        return best[1]
    side = gz.side[field]  # counted from the start field of this side of the board
    return MainWords(Mark(rules.board.start[side], "start", side), (k - gz.pos[
        rules.board.start[side]]) % n, far=True)


def _main_phrase(rules: Rules, w: MainWords, case: str, owner: int | None) -> str:
    if w.count == 0:
        return w.mark.words(case, owner)
    if w.far:
        assert w.mark.colour is not None
        whose = "svého" if w.mark.colour == owner else NEUT["from"][w.mark.colour]
        return _ordinal(case, w.count, f"od {whose} stanoviště")
    return _ordinal(case, w.count, f"{'před' if w.ahead else 'za'} {w.mark.words('ins', owner)}")


def phrase(rules: Rules, node: int, case: Case | str, owner: int | None) -> str:
    """The words of the place ``node`` (``PUB``: the owner's pub) in ``case``, for a piece of
    ``owner`` (whose start, arrow, lane, home are "své"; ``None``: nobody's, the bottle's)."""
    case = str(case)
    if node == PUB:
        return {"at": "v hospodě", "from": "z hospody", "to": "do hospody"}[case]
    g = rules.graph
    board = rules.board
    field = g.field[node]
    f = board.fields[field]
    area = board.area[field]
    if area == MAIN:
        return _main_phrase(rules, main_words(rules, field), case, owner)
    if f.kind == "trap":
        trap = f.trap or "zachytka"
        return {"at": TRAP_AT, "from": TRAP_FROM, "to": TRAP_TO}[case][trap]
    if g.home_rank[node] >= 0:
        return _ordinal(case, g.home_rank[node] + 1, "domku")
    if f.kind == "rolling_pin":
        return {"at": "na válečku", "from": "z válečku", "to": "na váleček"}[case]
    if area == LANE:
        assert f.colour is not None
        lane = board.lane[f.colour]
        if len(lane) == 1:
            return {"at": "na cestě k domku", "from": "z cesty k domku",
                    "to": "na cestu k domku"}[case]
        return _ordinal(case, lane.index(field) + 1, "cesty k domku")
    if area == SHORTCUT:
        gz = gazetteer(rules)
        for s, sc in enumerate(board.shortcuts):
            if field in sc:
                side = gz.shortcut_side[s]
                which = SIDE_FROM[side] if side is not None else f"č. {s + 1}"
                return _ordinal(case, sc.index(field) + 1, f"zkratky {which}")
    if area == STEZKA:
        if f.kind == "turnoff":
            at = f"odbočce k {traps_dat(board, field)}"
            return {"at": f"na {at}", "from": f"z odbočky k {traps_dat(board, field)}",
                    "to": f"na odbočku k {traps_dat(board, field)}"}[case]
        gz = gazetteer(rules)
        i = board.stezka.index(field)
        from_a, from_b = i + 1, len(board.stezka) - i
        end = board.stezka_ends[0] if from_a <= from_b else board.stezka_ends[1]
        return _ordinal(case, min(from_a, from_b),
                        f"Černé stezky {SIDE_OD[gz.side[end]]}")
    if area == TRAP_AREA:
        if f.kind == "junction":
            gen = _and([TRAP_GEN[t] for t in _traps_ahead(board, field)])
            return {"at": f"na rozcestí u {gen}", "from": f"z rozcestí u {gen}",
                    "to": f"na rozcestí u {gen}"}[case]
        first, length = _segment(board, field)
        to = traps_dat(board, field)
        if length == 1:
            return {"at": f"na cestě k {to}", "from": f"z cesty k {to}",
                    "to": f"na cestu k {to}"}[case]
        return _ordinal(case, first, f"cesty k {to}")
    return f"na poli {f.id}"  # pragma: no cover - the validator gives every field an area


def _segment(board: Board, field: int) -> tuple[int, int]:
    """A trap-path field's place on its path (1 = next to the turn-off or junction it leaves
    from) and the path's length."""
    back = _fields_to(board, field, 0, ("turnoff", "junction"))
    return back + 1, back + _fields_to(board, field, 1, ("trap", "junction")) + 1


def _fields_to(board: Board, field: int, way: int, ends: tuple[str, ...]) -> int:
    """How many path fields lie between ``field`` and the first of ``ends`` along its
    ``links[way]``."""
    count = 0
    f = board.fields[field]
    while True:
        f = board.fields[board.index[f.links[way]]]
        if f.kind in ends:
            return count
        count += 1


def landmark_count(text: str) -> int:
    """How many fields a phrase counts from a landmark (0: none; the start-field fallback
    and the stezka count are not landmark counts)."""
    m = re.search(r"(\d+)\. (?:poli|pole) (?:za|před) ", text)
    return int(m.group(1)) if m else 0


# --- the resolver ------------------------------------------------------------------------------

_ORD = r"(?:na|z|ze) (\d+)\. (?:poli|pole)"
_COLOUR_FEM = {w: c for c, w in enumerate(FEM["from"])}


def resolve(rules: Rules, text: str, owner: int | None) -> frozenset[int]:
    """The fields a phrase of :func:`phrase` can mean for a piece of ``owner`` (empty: none;
    :data:`PUB_FIELD` for the pub).  Independent of how :func:`phrase` chooses its words: it
    reads the grammar, finds landmarks by their words and counts along the board."""
    board = rules.board
    gz = gazetteer(rules)
    t = text.strip()
    forms = gz.forms[owner]
    if t in ("v hospodě", "z hospody", "do hospody"):
        return frozenset({PUB_FIELD})
    if t in forms:
        return frozenset(forms[t])
    n = len(board.main)
    m = re.fullmatch(_ORD + r" (za|před) (.+)", t)
    if m and m.group(3) in forms:
        d = int(m.group(1)) * (1 if m.group(2) == "za" else -1)
        return frozenset(board.main[(gz.pos[f] + d) % n] for f in forms[m.group(3)])
    m = re.fullmatch(_ORD + r" od (\w+) stanoviště", t)
    if m and (m.group(2) in NEUT["from"] or m.group(2) == "svého" and owner is not None):
        c = owner if m.group(2) == "svého" else NEUT["from"].index(m.group(2))
        assert c is not None
        return frozenset({board.main[(gz.pos[board.start[c]] + int(m.group(1))) % n]})
    for table in (TRAP_AT, TRAP_FROM, TRAP_TO):
        for trap, words in table.items():
            if t == words:
                return frozenset({board.traps[trap]}) if trap in board.traps else frozenset()
    m = re.fullmatch(_ORD + r" domku", t)
    if m and owner is not None:
        r = int(m.group(1)) - 1
        return frozenset({board.home[owner][r]}) if 0 <= r < 4 else frozenset()
    if t in ("na válečku", "z válečku", "na váleček") and owner is not None:
        return frozenset({board.rolling_pin[owner]})
    if t in ("na cestě k domku", "z cesty k domku", "na cestu k domku") and owner is not None:
        return frozenset(board.lane[owner]) if len(board.lane[owner]) == 1 else frozenset()
    m = re.fullmatch(_ORD + r" cesty k domku", t)
    if m and owner is not None:
        i = int(m.group(1)) - 1
        lane = board.lane[owner]
        return frozenset({lane[i]}) if 0 <= i < len(lane) else frozenset()
    m = re.fullmatch(_ORD + r" zkratky (?:z|ze) (\w+) strany", t)
    if m and m.group(2) in _COLOUR_FEM:
        c = _COLOUR_FEM[m.group(2)]
        i = int(m.group(1)) - 1
        out = set()
        for f in board.main:
            field = board.fields[f]
            if field.kind == "junction" and gz.side[f] == c and field.branch is not None:
                b = board.index[field.branch]
                for sc in board.shortcuts:
                    if sc[0] == b and 0 <= i < len(sc):
                        out.add(sc[i])
        return frozenset(out)
    m = re.fullmatch(_ORD + r" Černé stezky od (\w+) strany", t)
    if m and m.group(2) in _COLOUR_FEM:
        c = _COLOUR_FEM[m.group(2)]
        k = int(m.group(1))
        out = set()
        size = len(board.stezka)
        if gz.side[board.stezka_ends[0]] == c and 1 <= k <= size:
            out.add(board.stezka[k - 1])
        if gz.side[board.stezka_ends[1]] == c and 1 <= k <= size:
            out.add(board.stezka[size - k])
        return frozenset(out)
    m = re.fullmatch(r"(?:na odbočce|z odbočky|na odbočku) k (.+)", t)
    if m:
        return frozenset(f for f in board.stezka if board.fields[f].kind == "turnoff"
                         and traps_dat(board, f) == m.group(1))
    m = re.fullmatch(r"(?:na|z) rozcestí u (.+)", t)
    if m:
        return frozenset(f for f, field in enumerate(board.fields)
                         if board.area[f] == TRAP_AREA and field.kind == "junction"
                         and _and([TRAP_GEN[x] for x in _traps_ahead(board, f)]) == m.group(1))
    m = re.fullmatch(r"(?:(?:na|z) (\d+)\. (?:poli|pole) cesty|na cestě|z cesty|na cestu) "
                     r"k (.+)", t)
    if m:
        out = set()
        for f, field in enumerate(board.fields):
            if board.area[f] != TRAP_AREA or field.kind in ("junction", "trap"):
                continue
            first, length = _segment(board, f)
            if traps_dat(board, f) != m.group(2):
                continue
            if m.group(1) is None and length == 1 or \
                    m.group(1) is not None and int(m.group(1)) == first and length > 1:
                out.add(f)
        return frozenset(out)
    return frozenset()
