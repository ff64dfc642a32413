#!/usr/bin/env python3
"""What a recorded voice holds: length, sentences, loudness (the README's demo WAV numbers).

    scripts/wav-stats.py clovece.wav napij.wav gobbit.wav

For each WAV (16-bit mono, as the voice's WAV twin writes it): its length, the sentences in
the ``.txt`` beside it (``companion demo --wav`` and ``companion sim --wav`` write one), the
peak and RMS level in dBFS, how many samples reach full scale (clipped), and the stretches of
speech (sound separated by at least 0.25 s under -40 dBFS).
"""

from __future__ import annotations

import array
import math
import sys
import wave
from pathlib import Path

QUIET = 328  # -40 dBFS
GAP_WINDOWS = 25  # 10 ms windows: 0.25 s of quiet ends a stretch of speech


def db(level: float) -> float:
    return 20 * math.log10(level / 32768) if level else float("-inf")


def stats(path: Path) -> str:
    with wave.open(str(path)) as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            return f"{path.name}: not 16-bit mono"
        rate, n = w.getframerate(), w.getnframes()
        samples = array.array("h", w.readframes(n))
    if not samples:
        return f"{path.name}: empty"
    peak = max(abs(x) for x in samples)
    rms = math.sqrt(sum(x * x for x in samples) / len(samples))
    clipped = sum(1 for x in samples if abs(x) >= 32767)
    win = max(1, rate // 100)
    stretches, quiet, inside = 0, 0, False
    for i in range(0, len(samples), win):
        if max(abs(x) for x in samples[i:i + win]) > QUIET:
            stretches += not inside
            inside, quiet = True, 0
        elif inside:
            quiet += 1
            inside = quiet < GAP_WINDOWS
    txt = path.with_suffix(".txt")
    sentences = len(txt.read_text("utf-8").splitlines()) if txt.exists() else None
    said = f"{sentences} sentences, " if sentences is not None else ""
    return (f"{path.name}: {n / rate / 60:.1f} min ({n / rate:.0f} s), {said}"
            f"{stretches} stretches of speech, peak {db(peak):.1f} dBFS ({clipped} samples at "
            f"full scale), RMS {db(rms):.1f} dBFS")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for name in argv:
        print(stats(Path(name)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
