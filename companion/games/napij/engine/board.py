"""The board of Člověče, napij se! as data: load a TOML file, validate it, describe it.

The format is documented in ``docs/players/boards.md``.  A board is a set of named
fields.  Each field has a *kind* (what is printed on it), a drawing position
``at = [x, y]`` and links to other fields:

* one-way fields (the main track, the transverse shortcuts, the lanes) say
  ``next``; an ``arrow`` adds ``lane`` (where its colour turns in), a
  ``junction`` adds ``branch`` (its second exit);
* two-way fields (the Černá stezka and the paths to the traps) say
  ``links = [a, b]``: ``a`` towards the main track end A of the stezka (or
  towards the stezka, on a trap path), ``b`` the other way; a ``turnoff`` adds
  ``forced`` (the trap path it sends a standing piece into); a ``junction`` on a
  trap path says ``links = [back]`` and ``exits = [first, second]``; a ``trap``
  has ``links = [back]`` only.

:func:`parse_board` checks everything the rules rely on and reports every
problem with the field name, the line of the file and what is wrong.  The
areas (main track, shortcuts, stezka, trap paths, lanes) are derived from the
links, not written down, so they can never disagree with them.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from companion.engines.colours import COLOURS as COLOURS
from companion.files import BOARD_LIMIT, TooBig, read_text_limited, size_words

KINDS = ("normal", "card", "start", "arrow", "junction", "turnoff", "lane", "rolling_pin",
         "home", "trap")
TRAPS = ("zachytka", "bazina", "les")
HOME_FIELDS = 4
RESERVED_IDS = frozenset({"p", "bottle", "new"})
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")

# areas, derived by the validator
MAIN = "main"
SHORTCUT = "shortcut"
STEZKA = "stezka"
TRAP_AREA = "trap"
LANE = "lane"

_ONE_WAY_KEYS: dict[str, tuple[set[str], set[str]]] = {
    "normal": ({"next"}, set()),
    "card": ({"next"}, set()),
    "start": ({"next", "colour"}, set()),
    "arrow": ({"next", "lane", "colour"}, set()),
    "junction": ({"next", "branch"}, set()),
    "lane": ({"next", "colour"}, set()),
    "rolling_pin": ({"next", "colour"}, set()),
    "home": ({"colour"}, {"next"}),
}
_TWO_WAY_KEYS: dict[str, tuple[set[str], set[str]]] = {
    "normal": ({"links"}, set()),
    "card": ({"links"}, set()),
    "turnoff": ({"links", "forced"}, set()),
    "junction": ({"links", "exits"}, set()),
    "trap": ({"links", "trap"}, set()),
}
_COMMON_KEYS = {"kind", "at", "label"}
LABEL_MAX = 24
"""Characters a field's label may have (the words name the field by it on a 128-pixel line)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a board or deck file."""

    line: int | None
    where: str | None
    message: str

    def text(self, source: str) -> str:
        if not source.isprintable():  # a name with control characters is shown quoted
            source = repr(source)
        loc = f"{source}:{self.line}" if self.line else source
        who = f" {self.where}:" if self.where else ""
        return f"{loc}:{who} {self.message}"


class DataFileError(ValueError):
    """A board or deck file with problems; ``problems`` lists every one of them."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        first = problems[0].text(source) if problems else source
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first + more)

    def lines(self) -> list[str]:
        return [p.text(self.source) for p in self.problems]


class BoardError(DataFileError):
    """A board file that cannot be played on."""


@dataclass(frozen=True)
class Field:
    id: str
    kind: str
    at: tuple[float, float]
    colour: int | None = None
    trap: str | None = None
    next: str | None = None
    links: tuple[str, ...] = ()
    lane: str | None = None
    branch: str | None = None
    exits: tuple[str, ...] = ()
    forced: str | None = None
    label: str | None = None

    @property
    def two_way(self) -> bool:
        return bool(self.links)


@dataclass(frozen=True)
class Board:
    """A validated board; field indices (``int``) are positions in ``fields``."""

    name: str
    note: str
    reconstruction: bool
    fields: tuple[Field, ...]
    index: dict[str, int]
    pubs: tuple[tuple[float, float], ...]
    area: tuple[str, ...]
    main: tuple[int, ...]
    """The main track in clockwise order, starting at red's start field."""
    start: tuple[int, ...]
    arrow: tuple[int, ...]
    lane: tuple[tuple[int, ...], ...]
    """Per colour: the lane fields between the arrow and the rolling pin (maybe none)."""
    rolling_pin: tuple[int, ...]
    home: tuple[tuple[int, ...], ...]
    """Per colour: the four home fields, h1 (entered first) … h4 (deepest)."""
    shortcuts: tuple[tuple[int, ...], ...]
    stezka: tuple[int, ...]
    """The Černá stezka from end A to end B (two-way)."""
    stezka_ends: tuple[int, int]
    """The main-track junctions at end A and end B of the stezka."""
    traps: dict[str, int] = field(default_factory=dict)

    def f(self, fid: str) -> Field:
        return self.fields[self.index[fid]]

    def id_of(self, i: int) -> str:
        return self.fields[i].id


# --- locating lines in the source text ------------------------------------------------

class Locator:
    """Finds the line of a field, or of one key of a field, in the TOML source text.

    ``tomllib`` gives no positions, so this scans the text for the three ways a
    field can be written: ``[field.ID]`` (keys on the following lines),
    ``ID = { ... }`` inside ``[field]``, or ``field.ID = { ... }`` at the top.
    """

    def __init__(self, text: str, table: str = "field") -> None:
        self.lines = text.splitlines()
        self.table = table
        self._cache: dict[str, int | None] = {}

    def header(self, name: str) -> int | None:
        pat = re.compile(r"^\s*\[\s*" + re.escape(name) + r"\s*\]")
        for i, line in enumerate(self.lines, 1):
            if pat.match(line):
                return i
        return None

    def item(self, fid: str) -> int | None:
        if fid in self._cache:
            return self._cache[fid]
        q = r'(?:' + re.escape(fid) + r'|"' + re.escape(fid) + r'"|\'' + re.escape(fid) + r'\')'
        t = re.escape(self.table)
        as_header = re.compile(r"^\s*\[\s*" + t + r"\s*\.\s*" + q + r"\s*\]")
        as_dotted = re.compile(r"^\s*" + t + r"\s*\.\s*" + q + r"\s*(?:=|\.)")
        as_key = re.compile(r"^\s*" + q + r"\s*(?:=|\.)")
        section: str | None = None
        found: int | None = None
        for i, line in enumerate(self.lines, 1):
            if as_header.match(line) or as_dotted.match(line):
                found = i
                break
            m = re.match(r"^\s*\[([^\]]*)\]", line)
            if m:
                section = m.group(1).strip()
                continue
            if section == self.table and as_key.match(line):
                found = i
                break
        self._cache[fid] = found
        return found

    def key(self, fid: str, key: str) -> int | None:
        start = self.item(fid)
        if start is None:
            return None
        line = self.lines[start - 1]
        if not re.match(r"^\s*\[", line):
            return start  # inline table: everything is on this line
        pat = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i in range(start, len(self.lines)):
            text = self.lines[i]
            if re.match(r"^\s*\[", text):
                break
            if pat.match(text):
                return i + 1
        return start


def toml_error_line(exc: tomllib.TOMLDecodeError) -> int | None:
    m = re.search(r"at line (\d+)", str(exc))
    return int(m.group(1)) if m else None


def toml_error_text(exc: tomllib.TOMLDecodeError) -> str:
    msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)).strip()
    return f"This is not valid TOML: {msg[0].lower() + msg[1:] if msg else 'syntax error'}."


# --- parsing ----------------------------------------------------------------------------

def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


class _Checker:
    def __init__(self, text: str) -> None:
        self.loc = Locator(text)
        self.problems: list[Problem] = []

    def add(self, fid: str | None, message: str, key: str | None = None,
            line: int | None = None) -> None:
        if line is None and fid is not None:
            line = self.loc.key(fid, key) if key else self.loc.item(fid)
        where = f"field {fid}" if fid else None
        self.problems.append(Problem(line, where, message))

    # ----- per field ------------------------------------------------------------
    def field(self, fid: str, raw: object) -> Field | None:
        if not _ID.match(fid) or fid in RESERVED_IDS:
            self.add(fid, f"The name {fid!r} is not allowed: use a letter followed by letters, "
                          "digits or _, and not p, bottle or new.")
            return None
        if not isinstance(raw, dict):
            self.add(fid, "A field must be a table of keys (kind, at, next, ...).")
            return None
        kind = raw.get("kind")
        if kind not in KINDS:
            self.add(fid, f"kind must be one of {', '.join(KINDS)}, not {kind!r}.", "kind")
            return None
        two_way = "links" in raw
        table = _TWO_WAY_KEYS if two_way else _ONE_WAY_KEYS
        if kind not in table:
            form = "two-way (links)" if two_way else "one-way (next)"
            self.add(fid, f"A {kind} field cannot be {form}.", "links" if two_way else "kind")
            return None
        required, optional = table[kind]
        allowed = required | optional | _COMMON_KEYS
        ok = True
        for key in sorted(set(raw) - allowed):
            self.add(fid, f"Unknown key {key!r} for a {'two-way' if two_way else 'one-way'} "
                          f"{kind} field.", key)
            ok = False
        for key in sorted(required - set(raw)):
            self.add(fid, f"A {kind} field needs the key {key!r}.")
            ok = False
        at = raw.get("at")
        if not (isinstance(at, list) and len(at) == 2 and all(_is_number(v) for v in at)):
            self.add(fid, f"at must be [x, y] with two numbers, not {at!r}.", "at")
            ok = False
        colour: int | None = None
        if "colour" in raw:
            if raw["colour"] not in COLOURS:
                self.add(fid, f"colour must be r, b, g or y, not {raw['colour']!r}.", "colour")
                ok = False
            else:
                colour = COLOURS.index(raw["colour"])
        trap = raw.get("trap")
        if "trap" in raw and trap not in TRAPS:
            self.add(fid, f"trap must be one of {', '.join(TRAPS)}, not {trap!r}.", "trap")
            ok = False
        refs: dict[str, str | None] = {}
        for key in ("next", "lane", "branch", "forced"):
            if key in raw:
                v = raw[key]
                if not isinstance(v, str):
                    self.add(fid, f"{key} must be the name of a field, not {v!r}.", key)
                    ok = False
                else:
                    refs[key] = v
        lists: dict[str, tuple[str, ...]] = {}
        for key in ("links", "exits"):
            if key in raw:
                v = raw[key]
                if not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
                    self.add(fid, f"{key} must be a list of field names, not {v!r}.", key)
                    ok = False
                else:
                    lists[key] = tuple(v)
        label = raw.get("label")
        if label is not None and not isinstance(label, str):
            self.add(fid, "label must be a string.", "label")
        elif isinstance(label, str) and not (0 < len(label.strip()) <= LABEL_MAX
                                             and label == label.strip()
                                             and not set(label) & set('"„“')):
            self.add(fid, f"label must be 1 to {LABEL_MAX} characters without quotes or "
                          "spaces around them.", "label")
            ok = False
        if not ok:
            return None
        links = lists.get("links", ())
        exits = lists.get("exits", ())
        if kind == "junction" and two_way:
            if len(links) != 1:
                self.add(fid, "A junction on a trap path has links = [back] (one field), "
                              f"not {len(links)}.", "links")
                ok = False
            if len(exits) != 2 or exits[0] == exits[1]:
                self.add(fid, "A junction has exactly two different exits.", "exits")
                ok = False
        elif kind == "trap":
            if len(links) != 1:
                self.add(fid, "A trap is a dead end: links = [back] (one field).", "links")
                ok = False
        elif two_way and (len(links) != 2 or links[0] == links[1]):
            self.add(fid, f"links must name two different fields, not {list(links)!r}.", "links")
            ok = False
        if kind == "junction" and not two_way and refs.get("branch") == refs.get("next"):
            self.add(fid, "A junction has exactly two different exits: branch equals next.",
                     "branch")
            ok = False
        if not ok:
            return None
        assert isinstance(at, list)
        return Field(fid, kind, (float(at[0]), float(at[1])), colour, trap if isinstance(trap, str) else None,
                     refs.get("next"), links, refs.get("lane"), refs.get("branch"), exits,
                     refs.get("forced"), label if isinstance(label, str) else None)


def parse_board(text: str, source: str = "board") -> Board:
    """Read and validate a board; raise :class:`BoardError` listing every problem."""
    ck = _Checker(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(source, [Problem(toml_error_line(exc), None, toml_error_text(exc))]) \
            from None
    for key in sorted(set(data) - {"board", "pub", "field"}):
        ck.add(None, f"Unknown table [{key}]: a board has [board], [pub] and [field].",
               line=ck.loc.header(key))
    meta = data.get("board", {})
    if not isinstance(meta, dict):
        ck.add(None, "[board] must be a table.")
        meta = {}
    for key in sorted(set(meta) - {"name", "note", "reconstruction"}):
        ck.add(None, f"Unknown key {key!r} in [board] (known: name, note, reconstruction).",
               line=ck.loc.header("board"))
    name = meta.get("name", "")
    note = meta.get("note", "")
    recon = meta.get("reconstruction", False)
    if not isinstance(name, str) or not isinstance(note, str) or not isinstance(recon, bool):
        ck.add(None, "In [board], name and note are strings and reconstruction is true or false.",
               line=ck.loc.header("board"))
    pubs_raw = data.get("pub")
    pubs: list[tuple[float, float]] = []
    pub_loc = Locator(text, "pub")
    if not isinstance(pubs_raw, dict):
        ck.add(None, "The board needs a [pub] table: where each colour's pub is drawn.")
    else:
        for c in COLOURS:
            entry = pubs_raw.get(c)
            at = entry.get("at") if isinstance(entry, dict) else None
            if not (isinstance(at, list) and len(at) == 2 and all(_is_number(v) for v in at)):
                ck.problems.append(Problem(pub_loc.item(c) or ck.loc.header("pub"), f"pub {c}",
                                           "Each pub needs at = [x, y]."))
                pubs.append((0.0, 0.0))
            else:
                pubs.append((float(at[0]), float(at[1])))
        for c in sorted(set(pubs_raw) - set(COLOURS)):
            ck.problems.append(Problem(pub_loc.item(c), f"pub {c}",
                                       "Unknown colour: the pubs are r, b, g and y."))
    raw_fields = data.get("field")
    if not isinstance(raw_fields, dict) or not raw_fields:
        ck.add(None, "The board needs a [field] table with at least one field.")
        raise BoardError(source, ck.problems)
    fields: list[Field] = []
    for fid, raw in raw_fields.items():
        f = ck.field(fid, raw)
        if f is not None:
            fields.append(f)
    labelled: dict[str, str] = {}
    for f in fields:
        if f.label is not None:
            if f.label in labelled:
                ck.add(f.id, f"label {f.label!r} is the label of {labelled[f.label]} too: the "
                             "words name a field by its label, so each names one.", "label")
            labelled.setdefault(f.label, f.id)
    if ck.problems:
        raise BoardError(source, ck.problems)
    index = {f.id: i for i, f in enumerate(fields)}
    # every link points to an existing field
    for f in fields:
        for key, ref in (("next", f.next), ("lane", f.lane), ("branch", f.branch),
                         ("forced", f.forced)):
            if ref is not None and ref not in index:
                ck.add(f.id, f"{key} points to {ref!r}, which is not a field of this board.", key)
        for key, refs in (("links", f.links), ("exits", f.exits)):
            for ref in refs:
                if ref not in index:
                    ck.add(f.id, f"{key} names {ref!r}, which is not a field of this board.", key)
            if f.id in refs:
                ck.add(f.id, f"{key} names the field itself.", key)
        if f.next == f.id:
            ck.add(f.id, "next points to the field itself.", "next")
    if ck.problems:
        raise BoardError(source, ck.problems)
    board = _Topology(ck, fields, index).build(
        str(name), str(note), bool(recon), tuple(pubs))
    if ck.problems or board is None:
        raise BoardError(source, ck.problems)
    return board


class _Topology:
    """The structural checks: main cycle, colours, shortcuts, stezka, traps, coverage."""

    def __init__(self, ck: _Checker, fields: list[Field], index: dict[str, int]) -> None:
        self.ck = ck
        self.fields = fields
        self.index = index
        self.area: list[str | None] = [None] * len(fields)

    def f(self, fid: str) -> Field:
        return self.fields[self.index[fid]]

    def claim(self, fid: str, area: str) -> bool:
        i = self.index[fid]
        if self.area[i] is not None and self.area[i] != area:
            self.ck.add(fid, f"This field belongs to two parts of the board ({self.area[i]} and "
                             f"{area}).")
            return False
        self.area[i] = area
        return True

    def build(self, name: str, note: str, recon: bool,
              pubs: tuple[tuple[float, float], ...]) -> Board | None:
        ck = self.ck
        starts = [[f for f in self.fields if f.kind == "start" and f.colour == c] for c in range(4)]
        arrows = [[f for f in self.fields if f.kind == "arrow" and f.colour == c] for c in range(4)]
        for c in range(4):
            for what, found in (("start field", starts[c]), ("arrow field", arrows[c])):
                if not found:
                    ck.add(None, f"Colour {COLOURS[c]} has no {what}.")
                for extra in found[1:]:
                    ck.add(extra.id, f"Colour {COLOURS[c]} has a second {what} "
                                     f"(the first is {found[0].id}).")
        # (a coloured kind without a colour, or a colour on another kind, was refused field
        # by field in _Checker.field)
        if ck.problems:
            return None
        main = self.main_track(starts[0][0].id)
        if main is None:
            return None
        main_set = set(main)
        for c in range(4):
            for fid, what in ((starts[c][0].id, "start field"), (arrows[c][0].id, "arrow field")):
                if self.index[fid] not in main_set:
                    ck.add(fid, f"The {what} of {COLOURS[c]} must be on the main track.")
            a = arrows[c][0]
            if a.next != starts[c][0].id:
                ck.add(a.id, f"The arrow field of {COLOURS[c]} must be the field just before its "
                             f"start field {starts[c][0].id}, but its next is {a.next}.", "next")
        lanes, pins, homes = [], [], []
        for c in range(4):
            got = self.lane_of(c, arrows[c][0])
            if got is None:
                continue
            lanes.append(got[0])
            pins.append(got[1])
            homes.append(got[2])
        shortcuts: list[tuple[int, ...]] = []
        stezka_entries: list[Field] = []
        for i in main:
            f = self.fields[i]
            if f.kind != "junction":
                continue
            assert f.branch is not None
            b = self.f(f.branch)
            if b.two_way:
                stezka_entries.append(f)
            else:
                sc = self.shortcut(f, b)
                if sc is not None:
                    shortcuts.append(sc)
        stezka = self.stezka(stezka_entries)
        traps = self.trap_areas(stezka[0] if stezka else ())
        for i, f in enumerate(self.fields):
            if self.area[i] is None:
                if f.kind == "trap" or (f.two_way and f.kind != "turnoff"):
                    ck.add(f.id, "Nothing leads here from a turn-off: traps and their paths "
                                 "are reached only through a turn-off on the Černá stezka.")
                elif f.kind == "turnoff":
                    ck.add(f.id, "A turn-off must lie on the Černá stezka.")
                else:
                    ck.add(f.id, "Nothing leads to this field from the main track.")
        for t in TRAPS:
            found = [f for f in self.fields if f.kind == "trap" and f.trap == t]
            if not found:
                ck.add(None, f"The board has no {t} trap (kind = \"trap\", trap = \"{t}\").")
            for extra in found[1:]:
                ck.add(extra.id, f"The board has a second {t} (the first is {found[0].id}).")
        seen: dict[tuple[float, float], str] = {}
        for f in self.fields:
            if f.at in seen:
                ck.add(f.id, f"It is drawn at the same place as {seen[f.at]} ({f.at[0]:g}, "
                             f"{f.at[1]:g}).", "at")
            else:
                seen[f.at] = f.id
        if ck.problems or stezka is None:
            return None
        area = tuple(a or "" for a in self.area)
        return Board(name, note, recon, tuple(self.fields), dict(self.index), pubs, area,
                     tuple(main), tuple(self.index[s[0].id] for s in starts),
                     tuple(self.index[a[0].id] for a in arrows), tuple(lanes), tuple(pins),
                     tuple(homes), tuple(shortcuts), stezka[0], stezka[1],
                     {t: traps[t] for t in TRAPS})

    def main_track(self, first: str) -> list[int] | None:
        ck = self.ck
        order: list[int] = []
        seen: set[str] = set()
        cur = first
        main_kinds = ("normal", "card", "start", "arrow", "junction")
        while True:
            f = self.f(cur)
            if f.two_way or f.kind not in main_kinds:
                prev = self.fields[order[-1]].id if order else first
                ck.add(prev, f"The main track (followed by next from {first}) runs into {cur}, "
                             f"a {'two-way ' if f.two_way else ''}{f.kind} field; the main "
                             "track must be a cycle of normal, card, start, arrow and junction "
                             "fields.", "next")
                return None
            seen.add(cur)
            order.append(self.index[cur])
            assert f.next is not None
            if f.next == first:
                break
            if f.next in seen:
                ck.add(cur, f"The main track is not a cycle: next leads back to {f.next} "
                            f"without passing the start field {first} again.", "next")
                return None
            cur = f.next
        for i in order:
            self.claim(self.fields[i].id, MAIN)
        return order

    def lane_of(self, c: int, arrow: Field
                ) -> tuple[tuple[int, ...], int, tuple[int, ...]] | None:
        ck = self.ck
        name = COLOURS[c]
        lane: list[int] = []
        assert arrow.lane is not None
        cur: str | None = arrow.lane
        prev = arrow.id
        while cur is not None:
            f = self.f(cur)
            if f.kind != "lane":
                break
            if f.colour != c:
                ck.add(f.id, f"This lane field is on the way of {name} but its colour is "
                             f"{COLOURS[f.colour] if f.colour is not None else 'missing'}.")
                return None
            if len(lane) > 40 or self.index[cur] in lane:
                ck.add(f.id, "The lane runs in a circle.")
                return None
            lane.append(self.index[cur])
            self.claim(cur, LANE)
            prev, cur = cur, f.next
        if cur is None or self.f(cur).kind != "rolling_pin" or self.f(cur).colour != c:
            ck.add(prev, f"The lane of {name} must lead to a rolling pin of {name} (kind = "
                         f"\"rolling_pin\", colour = \"{name}\") just before its home.",
                   "lane" if prev == arrow.id else "next")
            return None
        pin = self.f(cur)
        self.claim(pin.id, LANE)
        home: list[int] = []
        prev, nxt = pin.id, pin.next
        while nxt is not None and len(home) < HOME_FIELDS:
            h = self.f(nxt)
            if h.kind != "home" or h.colour != c:
                break
            home.append(self.index[nxt])
            self.claim(nxt, LANE)
            prev, nxt = nxt, h.next
        if len(home) != HOME_FIELDS:
            ck.add(prev, f"After the rolling pin of {name} come exactly four home fields of "
                         f"{name}; found {len(home)}.", "next")
            return None
        if nxt is not None:
            ck.add(prev, f"The last home field of {name} is the end of the way: remove its next.",
                   "next")
            return None
        return tuple(lane), self.index[pin.id], tuple(home)

    def shortcut(self, junction: Field, first: Field) -> tuple[int, ...] | None:
        ck = self.ck
        path: list[int] = []
        cur: Field = first
        while True:
            if self.area[self.index[cur.id]] == MAIN:
                break
            if cur.two_way or cur.kind not in ("normal", "card"):
                ck.add(cur.id, f"The shortcut from {junction.id} may hold only normal and card "
                               f"fields and must lead back to the main track; {cur.id} is a "
                               f"{'two-way ' if cur.two_way else ''}{cur.kind} field.")
                return None
            if self.index[cur.id] in path:
                ck.add(cur.id, f"The shortcut from {junction.id} runs in a circle.")
                return None
            path.append(self.index[cur.id])
            assert cur.next is not None
            cur = self.f(cur.next)
        if not path:
            ck.add(junction.id, "The branch of a junction must lead into a shortcut, not straight "
                                "back onto the main track.", "branch")
            return None
        for i in path:
            if not self.claim(self.fields[i].id, SHORTCUT):
                return None
        return tuple(path)

    def stezka(self, entries: list[Field]) -> tuple[tuple[int, ...], tuple[int, int]] | None:
        ck = self.ck
        if len(entries) != 2:
            where = ", ".join(e.id for e in entries) or "none"
            ck.add(None, "The board needs exactly one Černá stezka: a two-way path between two "
                         f"junctions of the main track (junctions leading onto two-way fields: "
                         f"{where}).")
            return None
        a_end, b_end = entries
        first = self.f(a_end.branch or "")
        if first.links[0] != a_end.id:
            if first.links[1] == a_end.id:
                ck.add(first.id, f"Write the links of the Černá stezka in one direction: "
                                 f"[towards {a_end.id}, towards {b_end.id}].", "links")
            else:
                ck.add(first.id, f"The first field of the Černá stezka must link back to the "
                                 f"junction {a_end.id}.", "links")
            return None
        path: list[int] = []
        cur = first
        while True:
            if not cur.two_way or cur.kind not in ("normal", "card", "turnoff"):
                ck.add(cur.id, "The Černá stezka may hold only two-way normal, card and turn-off "
                               "fields.")
                return None
            if self.index[cur.id] in path:
                ck.add(cur.id, "The Černá stezka runs in a circle.")
                return None
            path.append(self.index[cur.id])
            nxt = self.f(cur.links[1])
            if self.area[self.index[nxt.id]] == MAIN:
                if nxt.id != b_end.id or b_end.branch != cur.id:
                    ck.add(cur.id, f"The Černá stezka must end at the junction {b_end.id} "
                                   f"whose branch is this field; it leads to {nxt.id}.", "links")
                    return None
                break
            if not nxt.two_way or nxt.links[0] != cur.id:
                ck.add(nxt.id, f"On the Černá stezka, links = [previous, next]: this field must "
                               f"link back to {cur.id} first.", "links")
                return None
            cur = nxt
        for i in path:
            self.claim(self.fields[i].id, STEZKA)
        return tuple(path), (self.index[a_end.id], self.index[b_end.id])

    def trap_areas(self, stezka: tuple[int, ...]) -> dict[str, int]:
        ck = self.ck
        traps: dict[str, int] = {}
        for i in stezka:
            t = self.fields[i]
            if t.kind != "turnoff":
                continue
            assert t.forced is not None
            todo: list[tuple[str, str]] = [(t.forced, t.id)]
            steps = 0
            while todo:
                fid, back = todo.pop()
                steps += 1
                f = self.f(fid)
                if steps > len(self.fields) or not f.two_way or \
                        f.kind not in ("normal", "junction", "trap"):
                    ck.add(fid, f"The way from the turn-off {t.id} to a trap may hold only two-way "
                                "normal fields, junctions and traps.")
                    break
                if f.links[0] != back:
                    ck.add(fid, f"On a trap path, links = [towards the stezka, towards the trap]: "
                                f"this field must link back to {back} first.", "links")
                    break
                if not self.claim(fid, TRAP_AREA):
                    break
                if f.kind == "trap":
                    assert f.trap is not None
                    traps.setdefault(f.trap, self.index[fid])
                elif f.kind == "junction":
                    todo.extend((e, fid) for e in f.exits)
                else:
                    todo.append((f.links[1], fid))
        return traps


# --- loading ------------------------------------------------------------------------------

def default_board_text() -> str:
    return resources.files("companion.games.napij.engine").joinpath("board.toml").read_text("utf-8")


@functools.cache
def default_board() -> Board:
    """The shipped board (a reconstruction; see the comments at the top of board.toml)."""
    return parse_board(default_board_text(), "board.toml")


def read_text(path: str | Path, what: str) -> str:
    """The text of a data file; raise :class:`DataFileError` with one sentence if unreadable."""
    p = Path(path)
    try:
        return read_text_limited(p, BOARD_LIMIT, f"{what} file")
    except TooBig:
        raise DataFileError(str(p), [Problem(None, None, (
            f"The file is larger than the {size_words(BOARD_LIMIT)} a {what} file may have."))]) \
            from None
    except FileNotFoundError:
        raise DataFileError(str(p), [Problem(None, None, f"There is no {what} file here.")]) \
            from None
    except IsADirectoryError:
        raise DataFileError(str(p), [Problem(None, None, f"This is a folder, not a {what} file.")]) \
            from None
    except UnicodeDecodeError:
        raise DataFileError(str(p), [Problem(None, None, "The file is not UTF-8 text.")]) \
            from None
    except OSError as exc:
        raise DataFileError(str(p), [Problem(None, None, f"The file cannot be read ({exc.strerror}).")]) \
            from None
    except ValueError:  # e.g. a NUL byte in the name
        raise DataFileError(repr(str(p))[:60], [Problem(None, None, "That is not a file name.")]) \
            from None


def load_board(path: str | Path) -> Board:
    return parse_board(read_text(path, "board"), str(path))


def summary(board: Board) -> str:
    """One line saying what the board holds."""
    cards = sum(1 for f in board.fields if f.kind == "card")
    junctions = sum(1 for f in board.fields if f.kind == "junction")
    return (f"{len(board.fields)} fields: main track {len(board.main)}, "
            f"{len(board.shortcuts)} shortcuts, Černá stezka {len(board.stezka)}, "
            f"{cards} card fields, {junctions} junctions, traps "
            f"{', '.join(board.id_of(board.traps[t]) for t in TRAPS)}"
            f"{' (a reconstruction)' if board.reconstruction else ''}")
