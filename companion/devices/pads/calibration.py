"""Calibrating the pads at the table: each pad's offset and the spread that is left.

The players slap two pads at once with one flat hand (across the guard gap
between two sectors of an island), a dozen times for every pad, or touch a row
of pads with one conductive bar.  Every such **slap** touches several pads at
the same moment, so the differences between their reported times are the pads'
own delays.  With a delay model ``t(slap, pad) = T(slap) + offset(pad) + noise``
the offsets are the least-squares solution over all slaps (:func:`solve`: the
normal equations, eliminated exactly; offsets average zero over the pads), and
the **spread** is the largest difference between two pads of one slap that is
left after the offsets are subtracted.  The spread becomes the timing
uncertainty of the table (decision D28); the offsets are subtracted from every
touch by the pad adapters.

Only pads that are linked to each other through slaps can be compared: the
calibration covers the largest linked group, and :attr:`Calibration.missing`
names the pads outside it.

A result is worth keeping only when it is sound (:func:`assess`): every pad took part
in enough slaps, the slaps fit the model (no pair of pads whose differences stray far
beyond everybody else's: a hand that landed unevenly, not a pad's delay), and the spread
is better than the pad type's declared uncertainty (or the calibration would only make
the referee vaguer).  Otherwise :class:`Refusal` says which rule failed and for which pads;
the screens and the command line say it in one sentence, and nothing is stored.

:class:`CalibrationSession` collects the slaps from pad touches: touches of
different pads less than ``window_ms`` after the first touch of a slap belong to
it (the first touch of each pad only); the next touch after that starts a new
slap.  Pure: touch times in, numbers out (no clock, no I/O).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.inputs.pads import Pad, PadTouch

WINDOW_MS = 300.0
"""Touches of one slap: longer than the slowest modules' spread (220 ms), shorter than
the pause between two slaps."""
MIN_SLAPS = 12
"""Slaps each pad should take part in (the issue's "a dozen times")."""

Slap = Mapping[Pad, float]
"""One slap: the time (ms) each pad it touched reported."""


UNEVEN_RATIO = 3.5
"""A pair of pads whose differences (after the offsets) scatter this many times wider than
the median pair's was not slapped at once (:func:`assess`).  On simulated TTP223 tables
slapped with one flat hand the widest pair scattered at most 3.1 times the median pair
(600 tables of 2, 3 and 4 seats); a pair slapped 50 to 250 ms apart, 5 to 10 times."""
UNEVEN_MIN_MS = 2.0
"""...and by at least this many milliseconds (scatters of a few tenths are all alike)."""


class CalibrationError(ValueError):
    """The slaps cannot calibrate the pads (one sentence)."""


@dataclass(frozen=True)
class Calibration:
    """The result: offsets (ms, averaging zero) of the calibrated pads, the spread (ms)."""

    offsets_ms: dict[Pad, float]
    spread_ms: float
    slaps: int
    counts: dict[Pad, int]
    """Slaps each calibrated pad took part in."""
    residual_ms: dict[Pad, float] = field(default_factory=dict)
    """Each pad's largest distance from its slaps' mean after the offsets."""
    missing: tuple[Pad, ...] = ()
    """Pads expected but not linked to the calibrated ones (no offset measured)."""

    pair_ms: dict[tuple[Pad, Pad], float] = field(default_factory=dict)
    """How widely the differences of each pair of pads slapped together (four times or
    more) scatter after the offsets (:func:`_spread`): the model's residuals, pair by pair."""

    def table(self) -> list[tuple[Pad, float, int]]:
        """(pad, offset, slaps) by seat and target, for the screens."""
        return [(p, self.offsets_ms[p], self.counts.get(p, 0))
                for p in sorted(self.offsets_ms, key=_pad_order)]


def _pad_order(pad: Pad) -> tuple[int, int]:
    return (pad.seat, 99 if pad.target == "g" else int(pad.target))


def _components(pads: Sequence[Pad], slaps: Sequence[Slap]) -> list[set[Pad]]:
    parent = {p: p for p in pads}

    def root(p: Pad) -> Pad:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for slap in slaps:
        members = [p for p in slap if p in parent]
        for other in members[1:]:
            a, b = root(members[0]), root(other)
            if a != b:
                parent[b] = a
    groups: dict[Pad, set[Pad]] = {}
    for p in pads:
        groups.setdefault(root(p), set()).add(p)
    return sorted(groups.values(), key=lambda g: (-len(g), min(_pad_order(p) for p in g)))


def _solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are at most ~50 x 50)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise CalibrationError("The slaps do not link the pads well enough to compare them.")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def solve(slaps: Iterable[Slap], expected: Iterable[Pad] = ()) -> Calibration:
    """Offsets and spread from ``slaps`` (each touching two or more pads).

    ``expected``: every pad of the table (those not linked to the largest group of
    slapped pads are listed in :attr:`Calibration.missing`).
    """
    used = [s for s in slaps if len(s) >= 2]
    if not used:
        raise CalibrationError("No slap touched two pads at once: slap two pads with one hand.")
    pads = sorted({p for s in used for p in s} | set(expected), key=_pad_order)
    group = _components(pads, used)[0]
    if len(group) < 2:
        raise CalibrationError("No slap touched two pads at once: slap two pads with one hand.")
    order = sorted(group, key=_pad_order)
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    lap = [[0.0] * n for _ in range(n)]
    rhs = [0.0] * n
    counts = {p: 0 for p in order}
    member_slaps: list[dict[Pad, float]] = []
    for slap in used:
        members = {p: t for p, t in slap.items() if p in index}
        if len(members) < 2:
            continue
        member_slaps.append(members)
        k = len(members)
        mean = sum(members.values()) / k
        for p, t in members.items():
            i = index[p]
            counts[p] += 1
            rhs[i] += t - mean
            for q in members:
                lap[i][index[q]] += (1.0 if p == q else 0.0) - 1.0 / k
    # The Laplacian is singular (a common shift changes nothing); fix the mean at zero.
    for i in range(n):
        for j in range(n):
            lap[i][j] += 1.0 / n
    offsets = dict(zip(order, _solve_linear(lap, rhs), strict=True))
    spread = 0.0
    residual = {p: 0.0 for p in order}
    diffs: dict[tuple[Pad, Pad], list[float]] = {}
    for members in member_slaps:
        corrected = {p: t - offsets[p] for p, t in members.items()}
        spread = max(spread, max(corrected.values()) - min(corrected.values()))
        mean = sum(corrected.values()) / len(corrected)
        for p, c in corrected.items():
            residual[p] = max(residual[p], abs(c - mean))
        ranked = sorted(corrected, key=_pad_order)
        for i, p in enumerate(ranked):
            for q in ranked[i + 1:]:
                diffs.setdefault((p, q), []).append(corrected[p] - corrected[q])
    missing = tuple(p for p in pads if p not in group)
    pair_ms = {pair: _spread(values) for pair, values in diffs.items() if len(values) >= 4}
    return Calibration(offsets, spread, len(member_slaps), counts, residual, missing, pair_ms)


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def _spread(values: Sequence[float]) -> float:
    """How widely a pair's differences scatter: their interquartile range (robust: a
    single odd slap does not move it; a constant difference, which the offsets may not
    have taken up, does not count)."""
    low, _mid, high = statistics.quantiles(values, n=4, method="inclusive")
    return high - low


@dataclass(frozen=True)
class Refusal:
    """Why a calibration is not stored: ``rule`` is ``"few"`` (``pads`` took part in fewer
    than ``wanted`` slaps, the fewest ``slaps``), ``"uneven"`` (``pads``, two, were not
    slapped at once: their differences scatter ``ratio`` times wider than the table's), or
    ``"worse"`` (the spread is no better than the pad type's declared ``declared_ms``)."""

    rule: str
    pads: tuple[Pad, ...] = ()
    slaps: int = 0
    wanted: int = 0
    ratio: float = 0.0
    spread_ms: float = 0.0
    declared_ms: float = 0.0


def assess(cal: Calibration, *, declared_ms: float, min_slaps: int = MIN_SLAPS
           ) -> Refusal | None:
    """Whether ``cal`` is sound enough to store (``None``) or why not.

    The rules, in the order a table should fix them: every calibrated pad took part in
    ``min_slaps`` slaps; no pair of pads strays from the model (the scatter of its
    differences after the offsets at most :data:`UNEVEN_RATIO` times the median pair's, or
    under :data:`UNEVEN_MIN_MS`); the spread is below ``declared_ms``, the pad type's
    declared uncertainty.
    """
    short = sorted((p for p, n in cal.counts.items() if n < min_slaps),
                   key=lambda p: (cal.counts[p], _pad_order(p)))
    if short:
        return Refusal("few", tuple(short), cal.counts[short[0]], min_slaps)
    if cal.pair_ms:
        typical = _median(list(cal.pair_ms.values()))
        pair, worst = max(cal.pair_ms.items(), key=lambda kv: (kv[1], _pad_order(kv[0][0])))
        ratio = worst / typical if typical > 0 else float("inf")
        if worst >= UNEVEN_MIN_MS and ratio > UNEVEN_RATIO:
            return Refusal("uneven", pair, ratio=ratio)
    if cal.spread_ms >= declared_ms:
        return Refusal("worse", spread_ms=cal.spread_ms, declared_ms=declared_ms)
    return None


class CalibrationSession:
    """Collects slaps from pad touches for the pads of one table.

    Feed every :class:`PadTouch` (in any arrival order within a slap; slaps come
    one after the other).  :attr:`progress` says how far the table is;
    :meth:`result` solves.
    """

    def __init__(self, pads: Iterable[Pad], *, min_slaps: int = MIN_SLAPS,
                 window_ms: float = WINDOW_MS) -> None:
        self.pads = tuple(sorted(set(pads), key=_pad_order))
        if len(self.pads) < 2:
            raise ValueError("A calibration needs at least two pads.")
        self.min_slaps = min_slaps
        self.window_ms = window_ms
        self.slaps: list[dict[Pad, float]] = []
        self.singles = 0
        """Slaps that touched only one pad (no difference to measure)."""
        self._open: dict[Pad, float] = {}
        self._start: float | None = None

    def feed(self, touch: PadTouch) -> None:
        pad = touch.pad
        if pad not in self.pads:
            return
        if self._start is not None and abs(touch.ms - self._start) >= self.window_ms:
            self._close()
        if self._start is None:
            self._start = touch.ms
        self._start = min(self._start, touch.ms)
        if pad not in self._open or touch.ms < self._open[pad]:
            self._open[pad] = touch.ms

    def _close(self) -> None:
        if len(self._open) >= 2:
            self.slaps.append(dict(self._open))
        elif self._open:
            self.singles += 1
        self._open, self._start = {}, None

    def all_slaps(self) -> list[dict[Pad, float]]:
        """The finished slaps and the one still open."""
        return self.slaps + ([dict(self._open)] if len(self._open) >= 2 else [])

    def counts(self) -> dict[Pad, int]:
        out = {p: 0 for p in self.pads}
        for slap in self.all_slaps():
            for p in slap:
                out[p] += 1
        return out

    @property
    def progress(self) -> tuple[int, int]:
        """(pads with ``min_slaps`` slaps, all pads)."""
        return sum(1 for c in self.counts().values() if c >= self.min_slaps), len(self.pads)

    @property
    def ready(self) -> bool:
        """Every pad took part in ``min_slaps`` slaps and all of them are linked."""
        done, total = self.progress
        if done < total:
            return False
        return len(_components(list(self.pads), self.all_slaps())[0]) == total

    def result(self) -> Calibration:
        """Solve with the slaps so far (:class:`CalibrationError` when nothing to solve)."""
        return solve(self.all_slaps(), self.pads)


def pair_plan(pads: Sequence[Pad]) -> list[tuple[Pad, Pad]]:
    """Pairs to slap so that every pad is linked to every other: neighbours on each
    island (sectors of the same pile, across the guard gap), then one pair joining
    consecutive islands (with a conductive bar, or two hands together)."""
    islands: dict[int | str, list[Pad]] = {}
    for p in sorted(pads, key=lambda p: (99 if p.target == "g" else int(p.target), p.seat)):
        islands.setdefault(p.target, []).append(p)
    plan: list[tuple[Pad, Pad]] = []
    previous: Pad | None = None
    for members in islands.values():
        if len(members) > 1:
            plan += list(zip(members, members[1:] + members[:1], strict=True))[
                :len(members) if len(members) > 2 else 1]
        if previous is not None:
            plan.append((previous, members[0]))
        previous = members[-1]
    return plan
