"""Seconds of speech per throw: what the table's voice asks to say over seeded games.

Each game is played through the shell (the hosts, the narrator, the journal), on a virtual
clock, with the voice on, as a newcomer's table plays it: Člověče with two people and a
computer seat, napij se with three people and a computer seat, Gobbit's virtual deck with
three players.  A robot stands in for the people (it throws when a throw is wanted, presses
● on what waits for it, picks a play at random; in Gobbit it flips, and after a flip that
shows an animal that may eat another one its player slaps that pile most times, the victim
now and then defends, and once in a while a hand slaps without a reason).  Every sentence
the voice is asked to say is kept, and each distinct sentence is spoken once by espeak-ng
(the Czech voice at the settings' default rate, the announcer's own words for numbers and
signs) into a WAV whose length is its seconds of speech.  A throw is a journaled throw of
the dice (Člověče, napij se) or a flipped card (Gobbit).

Two modes, measured in the same run: the default voice (``Hlas`` on) and the voice mode
(``Hlasový režim: stůl``, which reads every screen).  The default must stay under 2 s of
speech a throw on average, for each game.  The sum is what was asked: a newer announcement
may cut an older one at the table, so the table hears at most this much.

    .venv/bin/python benchmarks/speech_per_throw.py [--games 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from companion.devices.speech import speakable
from companion.devices.voice import WORDS_PER_MINUTE, SilentAnnouncer
from companion.games import playable
from companion.games.gobbit.engine.judge import eats
from companion.games.gobbit.engine.rules import condition
from companion.inputs.events import ButtonPress, PadEvent, Rolled
from companion.inputs.pads import PadTouch
from companion.service.hosts.base import DiceStatus, Expect, Expecting, HostContext
from companion.service.shell import Mode, Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
TARGET_S = 2.0
TABLES = {
    "clovece": {"players": 3, "computer": ("g",), "first": "red"},
    "napij": {"players": 4, "computer": ("y",), "first": "lot"},
    "gobbit": {"seats": 3},
}
"""The newcomer's tables: who plays (the configuration's set-up defaults)."""
THROWS = {"clovece": "roll", "napij": "throw", "gobbit": "flip"}
MAX_STEPS = 20_000


class Recorder(SilentAnnouncer):
    """The silent twin that keeps every sentence it was asked to say."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def say_as(self, text: str, *, kind: str, priority: int = 0) -> None:
        text = " ".join(text.split())
        if text:
            self.said.append(text)
        super().say_as(text, kind=kind, priority=priority)


@dataclass
class Tally:
    throws: int = 0
    sentences: list[str] = field(default_factory=list)


def play(folder: Path, game: str, seed: int, voice_mode: str) -> Tally:
    """One seeded game with the voice on; the throws and every sentence asked for."""
    voice = Recorder()
    rng = random.Random(seed)
    ctx = HostContext(Journal(folder / "g.journal"),
                      Prefs(voice=True, voice_mode=voice_mode, auto_delay=1.0),
                      rng=random.Random(seed), dice=DiceStatus(configured=True, up=True),
                      defaults=dict(TABLES[game]), announcer=voice)  # type: ignore[arg-type]
    shell = Shell(ctx, start_with=game, games=playable())
    now = 100.0
    shell.begin(now)

    def do(event: object, dt: float = 0.5) -> None:
        nonlocal now
        now += dt
        shell.handle(event, now)  # type: ignore[arg-type]

    def tick(dt: float) -> None:
        nonlocal now
        now += dt
        shell.tick(now)

    if game == "gobbit":
        do(S)  # the game line: Gobbit (balíček), the virtual deck
    shell.setup_index = len(shell._setup_lines()) - 1
    do(S)
    assert shell.mode is Mode.PLAY
    for _ in range(MAX_STEPS):
        host = shell.host
        if game == "gobbit":
            model = getattr(host, "virtual", None)
            if model is None or model.state.over:
                break
            do(S, 1.5)  # a flip
            st = model.state
            prey = [(a, v) for a in st.seats for v in st.seats if a != v
                    and st.top(a) is not None and st.top(v) is not None
                    and eats(st.top(a), st.top(v), condition(st))]  # type: ignore[arg-type]
            if prey and rng.random() < 0.8:  # a hungry animal: its player slaps (mostly)
                attacker, victim = rng.choice(prey)
                ms = now * 1000
                do(PadEvent(PadTouch(attacker, victim, ms, ms)), 0.0)
                if rng.random() < 0.3:  # the victim defends, a moment late or in time
                    gap = rng.choice((-40, 4, 30, 80))
                    do(PadEvent(PadTouch(victim, victim, ms + gap, ms + gap)), 0.0)
                tick(2.0)
                do(R)
            elif rng.random() < 0.05:  # now and then a hand slaps without a reason: a foul
                seat = rng.choice(st.seats)
                ms = now * 1000
                do(PadEvent(PadTouch(seat, rng.choice(st.seats), ms, ms)), 0.0)
                tick(2.0)
                do(R)
            continue
        expect = host.expects() if isinstance(host, Expecting) else None
        if expect is Expect.OVER:
            break
        if expect is None or expect is Expect.WAIT:
            deadline = host.next_deadline()
            tick(max(0.25, (deadline or now) - now + 0.01))
        elif expect is Expect.ROLL:
            do(Rolled(rng.randint(1, 6)), 2.0)
        elif expect is Expect.CHOOSE:
            for _ in range(rng.randrange(3)):
                do(rng.choice((L, R)), 0.3)
            do(S, 1.0)
        else:
            do(S, 1.0)
    throws = sum(1 for r in ctx.journal.load() if r.get("t") == THROWS[game])
    return Tally(throws, voice.said)


class Seconds:
    """Seconds of speech of a sentence, spoken once by espeak-ng into a WAV."""

    def __init__(self, espeak: str, rate: int = WORDS_PER_MINUTE) -> None:
        self.espeak, self.rate = espeak, rate
        self.known: dict[str, float] = {}

    def __call__(self, text: str) -> float:
        if text not in self.known:
            wav = subprocess.run([self.espeak, "-v", "cs", "-s", str(self.rate), "--stdout"],
                                 input=speakable(text).encode("utf-8"), capture_output=True,
                                 check=True).stdout
            rate = int.from_bytes(wav[24:28], "little")
            self.known[text] = (len(wav) - 44) / (2 * rate)
        return self.known[text]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3, help="seeded games of each game and mode")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        print("espeak-ng is not installed (scripts/system-deps.sh installs it).", file=sys.stderr)
        return 2
    seconds = Seconds(espeak)
    worst = 0.0
    print(f"{'game':8} {'mode':12} {'games':>5} {'throws':>6} {'sentences':>9} "
          f"{'speech s':>9} {'s/throw':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in TABLES:
            for mode, label in (("", "default"), ("table", "voice mode")):
                throws, said, total = 0, 0, 0.0
                for g in range(args.games):
                    folder = Path(tmp) / f"{game}-{mode}-{g}"
                    folder.mkdir()
                    tally = play(folder, game, args.seed + g, mode)
                    throws += tally.throws
                    said += len(tally.sentences)
                    total += sum(seconds(s) for s in tally.sentences)
                per = total / max(1, throws)
                if not mode:
                    worst = max(worst, per)
                print(f"{game:8} {label:12} {args.games:5d} {throws:6d} {said:9d} "
                      f"{total:9.0f} {per:8.2f}", flush=True)
    verdict = "OK" if worst < TARGET_S else "over the target"
    print(f"default voice: at most {worst:.2f} s of speech a throw (target < {TARGET_S:g} s): "
          f"{verdict}")
    return 0 if worst < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
