"""A small two-layer maze router whose output keeps the fab's clearances by construction.

Track centres run on a square grid (``pitch``, 0.25 mm) along its rows and columns; a cell
carries at most one net, and the cells around a net's copper (its pads, tracks and vias,
out to the distance the rules ask) are reserved for that net, so no other net's track or
via can come closer than the clearance.  Each net is routed pad by pad as a growing tree
(A* from every cell the tree already holds to the nearest pad not yet reached); a net
that cannot be routed moves to the front of the order and every net is routed again
(rip-up and retry), a bounded number of times.

Pure Python: the pads come as objects with ``net`` (a name or None), ``layers`` (a subset
of ``(0, 1)``: front, back), ``drill`` (hole radius, 0 for a surface pad), ``bbox``
(x0, y0, x1, y1) and ``hit(x, y, margin)``: whether (x, y) lies within ``margin`` of the
pad's copper (all in mm).
"""

from __future__ import annotations

import heapq
import math

FREE, BLOCKED = -1, -2


class Router:
    def __init__(self, width, height, pads, *, pitch=0.25, track=0.25, clearance=0.2,
                 via=0.6, via_drill=0.3, edge=0.3, hole_to_hole=0.5, via_cost=10.0,
                 wide=(), wide_track=0.5):
        self.pitch = pitch
        self.nx = int(width / pitch) + 1
        self.ny = int(height / pitch) + 1
        self.pads = pads
        self.half = track / 2
        self.halves = (track / 2, wide_track / 2)  # a thin and a wide (power) track's half width
        self.wide = set(wide)
        self.clear = clearance
        self.via_r = via / 2
        self.via_cost = via_cost
        n = self.nx * self.ny
        self.nets = sorted({p.net for p in pads if p.net})
        self.net_id = {name: i for i, name in enumerate(self.nets)}
        # static maps: per layer, which net a track centre may use each cell for
        # per width class (thin, wide), per layer: which net a track centre may use each cell for
        self.static = [[[FREE] * n, [FREE] * n], [[FREE] * n, [FREE] * n]]
        self.via_static = [FREE] * n
        self.pad_cells: list[list[int]] = []
        self.narrow: list[bool] = []
        # a segment between two cells passes a round pad a hair closer than the cells do
        track_margins = [clearance + h + 0.02 for h in self.halves]
        via_margin = clearance + self.via_r + 0.02
        for i in range(n):  # the edge: copper keeps ``edge`` from the outline
            x, y = self.xy(i)
            d = min(x, y, width - x, height - y)
            for w, h in enumerate(self.halves):
                if d < edge + h:
                    self.static[w][0][i] = self.static[w][1][i] = BLOCKED
            if d < edge + self.via_r:
                self.via_static[i] = BLOCKED
        for pad in pads:
            k = self.net_id.get(pad.net, BLOCKED) if pad.net else BLOCKED
            cells = []
            x0, y0, x1, y1 = pad.bbox
            m = max(via_margin, track_margins[1],
                    pad.drill + hole_to_hole + via_drill / 2 if pad.drill else 0) + pitch
            for i in self.cells_in(x0 - m, y0 - m, x1 + m, y1 + m):
                x, y = self.xy(i)
                for w, margin in enumerate(track_margins):
                    if pad.hit(x, y, margin - 1e-3):
                        for layer in pad.layers:
                            self.static[w][layer][i] = self._merge(self.static[w][layer][i], k)
                if pad.hit(x, y, via_margin - 1e-3):
                    self.via_static[i] = self._merge(self.via_static[i], k)
                if pad.hit(x, y, 0.05):
                    self.via_static[i] = BLOCKED  # no via in a pad
                if pad.drill and math.hypot(x - pad.center[0], y - pad.center[1]) < (
                        pad.drill + hole_to_hole + via_drill / 2):
                    self.via_static[i] = BLOCKED
                if k >= 0 and pad.hit(x, y, 0):
                    cells.append(i)
            self.narrow.append(k >= 0 and not cells)
            if k >= 0 and not cells:  # a pad narrower than the grid: its nearest cell, and a stub
                cx, cy = pad.center
                cells.append(self.index(round(cx / pitch), round(cy / pitch)))
            self.pad_cells.append(cells)
        self.tracks: dict[str, list[tuple[int, int, int]]] = {}
        self.vias: dict[str, list[int]] = {}
        self.stubs: dict[str, list] = {}

    # -- the grid ---------------------------------------------------------------------------
    def xy(self, i):
        return (i % self.nx) * self.pitch, (i // self.nx) * self.pitch

    def index(self, gx, gy):
        return gy * self.nx + gx

    def cells_in(self, x0, y0, x1, y1):
        gx0, gy0 = max(0, int(x0 / self.pitch)), max(0, int(y0 / self.pitch))
        gx1, gy1 = min(self.nx - 1, int(x1 / self.pitch) + 1), min(self.ny - 1, int(y1 / self.pitch) + 1)
        for gy in range(gy0, gy1 + 1):
            for gx in range(gx0, gx1 + 1):
                yield gy * self.nx + gx

    @staticmethod
    def _merge(old, k):
        if old == FREE:
            return k
        return old if old == k else BLOCKED

    def _around(self, i, radius):
        gx, gy = i % self.nx, i // self.nx
        r = int(radius / self.pitch)
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                if math.hypot(dx, dy) * self.pitch < radius - 1e-9:
                    x, y = gx + dx, gy + dy
                    if 0 <= x < self.nx and 0 <= y < self.ny:
                        yield y * self.nx + x

    # -- routing ----------------------------------------------------------------------------
    def route_all(self, rounds=8):
        order = sorted(self.nets, key=self._net_size)
        failed: list[str] = []
        for _ in range(rounds):
            self._reset()
            failed = [net for net in order if not self._route_net(net)]
            if not failed:
                break
            order = failed + [n for n in order if n not in failed]
        return failed

    def _net_size(self, net):
        pts = [p.center for p in self.pads if p.net == net]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (max(xs) - min(xs) + max(ys) - min(ys), len(pts), net)

    def _reset(self):
        self.own = [[list(layer) for layer in w] for w in self.static]
        self.via_own = list(self.via_static)
        self.tracks = {}
        self.vias = {}
        self.stubs: dict[str, list] = {}

    def _reserve_track(self, layer, i, k, half):
        for w, other in enumerate(self.halves):
            for j in self._around(i, half + other + self.clear):
                self.own[w][layer][j] = self._merge(self.own[w][layer][j], k)
        for j in self._around(i, half + self.clear + self.via_r):
            self.via_own[j] = self._merge(self.via_own[j], k)

    def _reserve_via(self, i, k):
        for w, other in enumerate(self.halves):
            for layer in (0, 1):
                for j in self._around(i, self.via_r + self.clear + other):
                    self.own[w][layer][j] = self._merge(self.own[w][layer][j], k)
        for j in self._around(i, 2 * self.via_r + self.clear + 0.15):
            self.via_own[j] = self._merge(self.via_own[j], k)

    def _route_net(self, net):
        k = self.net_id[net]
        pads = [(p, c) for p, c in zip(self.pads, self.pad_cells, strict=True) if p.net == net]
        self.stubs[net] = [(p.layers[0], self.xy(c[0]), p.center)
                           for p, c, narrow in zip(self.pads, self.pad_cells, self.narrow, strict=True)
                           if p.net == net and narrow]
        tree: set[tuple[int, int]] = set()
        first, cells = pads[0]
        tree |= {(layer, i) for layer in first.layers for i in cells}
        todo = pads[1:]
        paths = []
        while todo:
            # the pad nearest to the tree's first pad goes next
            todo.sort(key=lambda pc: math.dist(pc[0].center, first.center))
            pad, cells = todo.pop(0)
            targets = {(layer, i) for layer in pad.layers for i in cells}
            if targets & tree:
                continue
            path = self._astar(tree, targets, k, pad.center, int(net in self.wide))
            if path is None:
                return False
            paths.append(path)
            tree |= set(path)
            for layer, i in path:
                self._reserve_track(layer, i, k, self.halves[int(net in self.wide)])
            for (l1, i1), (l2, _) in zip(path, path[1:], strict=False):
                if l1 != l2:
                    self._reserve_via(i1, k)
            tree |= targets
        segs, vias = [], []
        for path in paths:
            for (l1, i1), (l2, i2) in zip(path, path[1:], strict=False):
                if l1 != l2:
                    vias.append(i1)
                else:
                    segs.append((l1, i1, i2))
        self.tracks[net] = segs
        self.vias[net] = vias
        return True

    def _astar(self, sources, targets, k, goal, wide):
        gx, gy = goal[0] / self.pitch, goal[1] / self.pitch
        nx = self.nx
        own, via_own = self.own[wide], self.via_own

        def h(i):
            return abs(i % nx - gx) + abs(i // nx - gy)

        dist: dict[tuple[int, int], float] = {}
        prev: dict[tuple[int, int], tuple[int, int] | None] = {}
        heap = []
        for s in sources:
            dist[s] = 0.0
            prev[s] = None
            heapq.heappush(heap, (h(s[1]), 0.0, s))
        n = nx * self.ny
        while heap:
            _, d, node = heapq.heappop(heap)
            if d > dist.get(node, math.inf):
                continue
            if node in targets:
                path = [node]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1]
            layer, i = node
            x = i % nx
            steps = []
            if x > 0:
                steps.append((layer, i - 1, 1.0))
            if x < nx - 1:
                steps.append((layer, i + 1, 1.0))
            if i >= nx:
                steps.append((layer, i - nx, 1.0))
            if i + nx < n:
                steps.append((layer, i + nx, 1.0))
            if via_own[i] in (FREE, k) and own[1 - layer][i] in (FREE, k):
                steps.append((1 - layer, i, self.via_cost))
            for nl, j, cost in steps:
                if own[nl][j] not in (FREE, k):
                    continue
                nd = d + cost + (0.2 if nl == 1 else 0.0)  # a little dearer on the back
                if nd < dist.get((nl, j), math.inf):
                    dist[(nl, j)] = nd
                    prev[(nl, j)] = node
                    heapq.heappush(heap, (nd + h(j), nd, (nl, j)))
        return None

    def width(self, net):
        return 2 * self.halves[int(net in self.wide)]

    def segments(self, net):
        """The net's tracks as merged straight segments: (layer, (x1, y1), (x2, y2))."""
        out = []
        for layer, a, b in self.tracks.get(net, []):
            out.append((layer, self.xy(a), self.xy(b)))
        merged: list = []
        for seg in out:
            if merged:
                layer, a, b = merged[-1]
                if layer == seg[0] and b == seg[1] and _collinear(a, b, seg[2]):
                    merged[-1] = (layer, a, seg[2])
                    continue
            merged.append(seg)
        return merged

    def via_points(self, net):
        return [self.xy(i) for i in self.vias.get(net, [])]


def _collinear(a, b, c):
    return abs((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])) < 1e-9
