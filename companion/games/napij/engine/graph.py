"""The board compiled for movement: *nodes* are the places a piece can be, with its heading.

A piece on a one-way field needs nothing but the field.  On the two-way Černá
stezka it also needs its heading (``+`` towards end B, ``-`` towards end A).  On
a trap path it needs whether it goes in (towards the trap) or out, and the
heading it will take on the stezka when it comes back (the seed: it goes on in
the direction it had entered the stezka).  A piece in a trap keeps that heading
too.  So a field becomes one, two or four nodes; the notation writes a node as
the field name plus ``+``/``-`` and ``i``/``o`` where needed (``c5+``,
``zp2-i``, ``zach+``).

Every node has, per colour, ``through`` (where a piece passing it goes next:
only an arrow depends on the colour) and ``exits`` (where a piece standing on
it may go with its next move: two for a junction, the forced trap path for a
turn-off).  Pure data, built once per board.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.napij.engine.board import LANE, MAIN, SHORTCUT, STEZKA, TRAP_AREA, Board

IN, OUT = 1, 2


@dataclass(frozen=True)
class Graph:
    board: Board
    field: tuple[int, ...]
    """node -> physical field index."""
    heading: tuple[int, ...]
    """node -> +1 / -1 on the stezka and in the trap area, 0 elsewhere."""
    direction: tuple[int, ...]
    """node -> IN / OUT on a trap path, 0 elsewhere."""
    text: tuple[str, ...]
    by_text: dict[str, int]
    one: tuple[int, ...]
    """physical field -> its node, for fields that have exactly one (-1 otherwise)."""
    through: tuple[tuple[int, ...], ...]
    """[colour][node] -> the next node of a piece passing this node, -1 at a dead end."""
    exits: tuple[tuple[tuple[int, ...], ...], ...]
    """[colour][node] -> the nodes a piece standing here may move to first."""
    release: tuple[int, ...]
    """node -> for a trap node, where a six puts the freed piece (-1 elsewhere)."""
    main_next: tuple[int, ...]
    """node -> the next main-track node (main nodes only; the bottle's way)."""
    main_prev: tuple[int, ...]
    on_main: tuple[bool, ...]
    is_trap: tuple[bool, ...]
    is_card: tuple[bool, ...]
    home_rank: tuple[int, ...]
    """node -> 0..3 for home fields h1..h4, -1 elsewhere."""
    kind: tuple[str, ...]
    start: tuple[int, ...]
    """colour -> node of its start field."""
    behind_start: tuple[int, ...]
    """colour -> the main node just before its start (where the bottle is first placed)."""
    pin: tuple[int, ...]
    home: tuple[tuple[int, ...], ...]
    lane_entry: tuple[int, ...]
    """colour -> the first node after its arrow (lane field or rolling pin)."""
    zachytka: tuple[int, int]
    """the záchytka's nodes (heading +1, heading -1)."""
    colour_of_field: tuple[int | None, ...]

    @property
    def nodes(self) -> int:
        return len(self.field)

    def node_of(self, fid: str) -> int:
        """The node of a field that has only one (one-way fields)."""
        return self.one[self.board.index[fid]]


def compile_graph(board: Board) -> Graph:
    fields = board.fields
    idx = board.index
    nodes: list[tuple[int, int, int]] = []  # (field, heading, direction)
    key: dict[tuple[int, int, int], int] = {}

    def add(f: int, h: int, d: int) -> int:
        key[(f, h, d)] = len(nodes)
        nodes.append((f, h, d))
        return key[(f, h, d)]

    one = [-1] * len(fields)
    for i, f in enumerate(fields):
        area = board.area[i]
        if area in (MAIN, SHORTCUT, LANE):
            one[i] = add(i, 0, 0)
        elif area == STEZKA or f.kind == "trap":
            add(i, 1, 0)
            add(i, -1, 0)
        elif area == TRAP_AREA:
            for h in (1, -1):
                for d in (IN, OUT):
                    add(i, h, d)
        else:  # pragma: no cover - the validator assigns every field an area
            raise ValueError(f"field {f.id} has no area")

    def node_in(fid: str, h: int) -> int:
        """A piece arriving at ``fid`` going in (or along a one-way track)."""
        i = idx[fid]
        area = board.area[i]
        if area in (MAIN, SHORTCUT, LANE):
            return one[i]
        if area == STEZKA or fields[i].kind == "trap":
            return key[(i, h, 0)]
        return key[(i, h, IN)]

    def node_out(fid: str, h: int) -> int:
        """A piece arriving at ``fid`` on its way out of a trap area."""
        i = idx[fid]
        if board.area[i] == STEZKA:
            return key[(i, h, 0)]
        return key[(i, h, OUT)]

    n = len(nodes)
    through = [[-1] * n for _ in range(4)]
    exits: list[list[tuple[int, ...]]] = [[()] * n for _ in range(4)]
    release = [-1] * n
    text = [""] * n
    for node, (i, h, d) in enumerate(nodes):
        f = fields[i]
        sign = "+" if h > 0 else "-" if h < 0 else ""
        text[node] = f.id + sign + ("i" if d == IN else "o" if d == OUT else "")
        area = board.area[i]
        for c in range(4):
            ex: tuple[int, ...]
            if area in (MAIN, SHORTCUT, LANE):
                if f.kind == "arrow" and f.colour == c:
                    assert f.lane is not None
                    t = node_in(f.lane, 0)
                else:
                    t = node_in(f.next, 0) if f.next is not None else -1
                if f.kind == "junction":
                    assert f.branch is not None
                    b = fields[idx[f.branch]]
                    if b.two_way:
                        bh = 1 if b.links[0] == f.id else -1
                        ex = (t, key[(idx[b.id], bh, 0)])
                    else:
                        ex = (t, one[idx[b.id]])
                else:
                    ex = (t,) if t >= 0 else ()
            elif area == STEZKA:
                nb = f.links[1] if h > 0 else f.links[0]
                t = one[idx[nb]] if board.area[idx[nb]] == MAIN else key[(idx[nb], h, 0)]
                if f.kind == "turnoff":
                    assert f.forced is not None
                    ex = (node_in(f.forced, h),)
                else:
                    ex = (t,)
            elif f.kind == "trap":
                t = -1
                ex = ()
                release[node] = node_out(f.links[0], h)
            else:  # trap path or trap junction
                if d == IN:
                    t = node_in(f.exits[0] if f.kind == "junction" else f.links[1], h)
                else:
                    t = node_out(f.links[0], h)
                if f.kind == "junction":
                    ex = (node_in(f.exits[0], h), node_in(f.exits[1], h))
                else:
                    ex = (t,)
            through[c][node] = t
            exits[c][node] = ex
    main_next = [-1] * n
    main_prev = [-1] * n
    on_main = [False] * n
    for k, i in enumerate(board.main):
        node = one[i]
        on_main[node] = True
        main_next[node] = one[board.main[(k + 1) % len(board.main)]]
        main_prev[node] = one[board.main[k - 1]]
    home_rank = [-1] * n
    for c in range(4):
        for r, i in enumerate(board.home[c]):
            home_rank[one[i]] = r
    start = tuple(one[i] for i in board.start)
    behind = tuple(main_prev[s] for s in start)
    zach = board.traps["zachytka"]
    lane_entry = []
    for c in range(4):
        arrow = fields[board.arrow[c]]
        assert arrow.lane is not None
        lane_entry.append(node_in(arrow.lane, 0))
    return Graph(
        board=board,
        field=tuple(f for f, _, _ in nodes),
        heading=tuple(h for _, h, _ in nodes),
        direction=tuple(d for _, _, d in nodes),
        text=tuple(text),
        by_text={t: k for k, t in enumerate(text)},
        one=tuple(one),
        through=tuple(tuple(t) for t in through),
        exits=tuple(tuple(e) for e in exits),
        release=tuple(release),
        main_next=tuple(main_next),
        main_prev=tuple(main_prev),
        on_main=tuple(on_main),
        is_trap=tuple(fields[f].kind == "trap" for f, _, _ in nodes),
        is_card=tuple(fields[f].kind == "card" for f, _, _ in nodes),
        home_rank=tuple(home_rank),
        kind=tuple(fields[f].kind for f, _, _ in nodes),
        start=start,
        behind_start=behind,
        pin=tuple(one[i] for i in board.rolling_pin),
        home=tuple(tuple(one[i] for i in h) for h in board.home),
        lane_entry=tuple(lane_entry),
        zachytka=(key[(zach, 1, 0)], key[(zach, -1, 0)]),
        colour_of_field=tuple(f.colour for f in fields),
    )


def distance_home(g: Graph, colour: int) -> tuple[int, ...]:
    """Fewest steps from every node to the colour's deepest home field, choosing the best
    exit wherever a piece may choose (an optimistic measure for computer players).
    Unreachable nodes get a large number."""
    n = g.nodes
    big = 10_000
    dist = [big] * n
    target = g.home[colour][-1]
    dist[target] = 0
    preds: list[list[int]] = [[] for _ in range(n)]
    for a in range(n):
        succ = set(g.exits[colour][a])
        if g.through[colour][a] >= 0:
            succ.add(g.through[colour][a])
        if g.release[a] >= 0:
            succ.add(g.release[a])
        for b in succ:
            preds[b].append(a)
    frontier = [target]
    while frontier:
        nxt: list[int] = []
        for b in frontier:
            for a in preds[b]:
                if dist[a] == big:
                    dist[a] = dist[b] + 1
                    nxt.append(a)
        frontier = nxt
    return tuple(dist)
