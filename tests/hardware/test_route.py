"""The grid router (hardware/boards/route.py) on made-up pads, without KiCad: every net
routed, and no two nets' copper closer than the clearance it was given."""

from __future__ import annotations

import math

from boards.route import Router


class Square:
    """A square surface pad (front layer) or a round through-hole pad."""

    def __init__(self, net: str | None, x: float, y: float, half: float = 0.4, drill: float = 0.0):
        self.net, self.center, self.half, self.drill = net, (x, y), half, drill
        self.layers = (0, 1) if drill else (0,)
        self.bbox = (x - half, y - half, x + half, y + half)

    def hit(self, x: float, y: float, margin: float) -> bool:
        dx = max(abs(x - self.center[0]) - self.half, 0.0)
        dy = max(abs(y - self.center[1]) - self.half, 0.0)
        return math.hypot(dx, dy) <= max(margin, 0.0)


def _seg_dist(a, b, c, d) -> float:
    def point(p, q, r):
        (px, py), (qx, qy), (rx, ry) = p, q, r
        L = (rx - qx) ** 2 + (ry - qy) ** 2
        t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - qx) * (rx - qx) + (py - qy) * (ry - qy)) / L))
        return math.hypot(px - (qx + t * (rx - qx)), py - (qy + t * (ry - qy)))

    return min(point(a, c, d), point(b, c, d), point(c, a, b), point(d, a, b))


def crossing_board() -> tuple[Router, list[Square]]:
    # two nets whose straight lines would cross, a third in the way, and a pad of no net
    pads = [Square("A", 2, 5), Square("A", 18, 5), Square("B", 10, 1.5), Square("B", 10, 8.5),
            Square("C", 6, 5, drill=0.5, half=0.8), Square("C", 14, 8), Square(None, 10, 5)]
    return Router(20, 10, pads, track=0.25, clearance=0.15, edge=0.3), pads


def test_every_net_is_routed_from_pad_to_pad() -> None:
    router, _ = crossing_board()
    assert router.route_all() == []
    for net in ("A", "B", "C"):
        assert router.segments(net)
    assert router.via_points("A") or router.via_points("B")  # one of the crossing nets changes layer


def test_tracks_of_different_nets_keep_the_clearance() -> None:
    router, pads = crossing_board()
    router.route_all()
    segs = [(net, layer, a, b) for net in router.nets for layer, a, b in router.segments(net)]
    need = 0.25 + 0.15 - 1e-6
    for i, (n1, l1, a1, b1) in enumerate(segs):
        for n2, l2, a2, b2 in segs[i + 1:]:
            if n1 != n2 and l1 == l2:
                assert _seg_dist(a1, b1, a2, b2) >= need, (n1, n2)
        for pad in pads:
            if pad.net != n1 and l1 in pad.layers:
                for t in (0.0, 0.25, 0.5, 0.75, 1.0):
                    x, y = a1[0] + t * (b1[0] - a1[0]), a1[1] + t * (b1[1] - a1[1])
                    assert not pad.hit(x, y, 0.125 + 0.15 - 1e-6), (n1, pad.net)


def test_a_walled_in_pad_is_reported_not_routed() -> None:
    pads = [Square("A", 2, 2), Square("A", 8, 2)]
    pads += [Square(None, 8 + dx, 2 + dy, half=0.3) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
             if (dx, dy) != (0, 0)]
    router = Router(10, 4, pads, track=0.25, clearance=0.15, edge=0.3)
    assert router.route_all(rounds=2) == ["A"]


def test_a_wide_power_net_keeps_the_clearance_from_thin_ones() -> None:
    pads = [Square("P", 2, 5), Square("P", 18, 5), Square("S", 10, 2), Square("S", 10, 8),
            Square("T", 2, 6.25), Square("T", 18, 6.25)]
    router = Router(20, 10, pads, track=0.25, clearance=0.15, edge=0.3, wide=["P"], wide_track=0.5)
    assert router.route_all() == []
    assert (router.width("P"), router.width("S")) == (0.5, 0.25)
    segs = [(net, layer, a, b) for net in router.nets for layer, a, b in router.segments(net)]
    for i, (n1, l1, a1, b1) in enumerate(segs):
        for n2, l2, a2, b2 in segs[i + 1:]:
            if n1 != n2 and l1 == l2:
                need = (router.width(n1) + router.width(n2)) / 2 + 0.15 - 1e-6
                assert _seg_dist(a1, b1, a2, b2) >= need, (n1, n2)
