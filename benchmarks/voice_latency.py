"""Voice latency: ``say(text)`` -> its first audio sample ready for the sound card.

Through the announcer: the text goes through the queue to the voice's worker
thread, which starts espeak-ng (Czech voice) and reads its WAV stream; the
moment the first samples after the header are in hand is
``Announcement.first_sample_at``.  One announcement at a time (each waits
for the previous to finish), so no queueing is counted.  Two sinks for those
samples:

* ``wav``    the WAV twin (the samples go to a file; ``speed`` high, so the
             "playing" does not make the run long);
* ``aplay``  the Pi's announcer into ``aplay -D null`` (only where aplay is
             installed; ALSA's null device needs no sound card).

* ``clovece`` what the Člověče table does (through the shell and its narrator,
             the event lines): a throw comes in, the host journals it, the narrator
             says the throw line: timed from the input to the first sample;
* ``gobbit`` the same for the virtual deck's flip (● pressed: the flip is
             journaled and said);
* ``napij``  what the napij se host does: a table duty comes in (the dice
             fell), the host journals it (fsync), builds the announcement and
             says it through the WAV twin: timed from the input to the first
             sample (the host's drink sentences are among the texts too).

The peer, measured in the same run, alternating with the announcer: a bare
``espeak-ng -v cs --stdout`` process started from this thread, timed from
``Popen`` to its first samples after the header: the floor that starting
espeak-ng and its first synthesis cost on this machine.
Target: median <= 300 ms.

    .venv/bin/python benchmarks/voice_latency.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.devices.voice import WORDS_PER_MINUTE, EspeakAnnouncer, WavAnnouncer
from companion.games import playable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_latency import percentile  # noqa: E402  (the same percentile as the other benchmarks)

TEXTS = (
    "Červený hází.",
    "Modrý hodil šestku a hází znovu.",
    "Zelený bere figurku žlutému.",
    "Žlutý vyhrál!",
    "Kostka spadla ze stolu, hoď znovu.",
    "Na tahu je červený.",
)
TARGET_MS = 300.0


def napij_texts() -> tuple[str, ...]:
    """Sentences the napij se host says: a few drinks, a void throw, a debt ask, a toast."""
    from companion.games.napij.drinks import announcements, debt_sentence
    from companion.games.napij.engine.events import VoidThrow
    from companion.games.napij.engine.state import Debt, DrinkReason

    debts = [Debt(1, 1, DrinkReason.KNOCKED_OUT, 2), Debt(2, 2, DrinkReason.CARD, card=28),
             Debt(0, 1, DrinkReason.CHEATING), Debt(0, 1, DrinkReason.DELAY),
             *(Debt(c, 1, DrinkReason.HOME, 3) for c in (0, 1, 2))]
    return (*(a.sentence for a in announcements(debts, (0, 1, 2, 3), [VoidThrow(0, 4)],
                                                (3, 1, 2, 1))),
            debt_sentence(2, [Debt(2, 2, DrinkReason.CARD, card=28)]))


class NapijTable:
    """A napij se host speaking through ``voice``: each ``drop()`` is a dropped die."""

    def __init__(self, folder: Path, voice: WavAnnouncer) -> None:
        import random

        from companion.games.napij.host import NapijHost
        from companion.service.hosts.base import HostContext
        from companion.storage.journal import Journal
        from companion.storage.prefs import Prefs

        self.voice = voice
        ctx = HostContext(Journal(folder / "g.journal"), Prefs(), rng=random.Random(1),
                          announcer=voice, data=folder, defaults={"players": 2})
        self.host = NapijHost(ctx)
        self.host.start(0.0)
        voice.wait(60)

    def drop(self) -> float:
        """Seconds from the dropped die coming in to the first sample of its announcement."""
        from companion.inputs.events import ButtonPress, Dropped

        while self.host.turn.shown is not None:
            self.host.handle(ButtonPress("select"), 0.0)  # the last banner: drunk
        t0 = time.perf_counter()
        self.host.handle(Dropped(), 0.0)
        if not self.voice.wait(timeout=60):
            raise SystemExit("voice_latency: the announcer did not finish")
        item = self.voice.history[-1]
        if item.first_sample_at is None:
            raise SystemExit(f"voice_latency: no audio ({self.voice.status.describe()})")
        return item.first_sample_at - t0


class ShellTable:
    """A table through the shell, speaking through ``voice``: each ``act()`` is one input
    that the narrator announces (a throw without a six in Člověče, a flip in Gobbit)."""

    def __init__(self, folder: Path, voice: WavAnnouncer, game: str) -> None:
        import random

        from companion.service.hosts.base import DiceStatus, HostContext
        from companion.service.shell import Shell
        from companion.storage.journal import Journal
        from companion.storage.prefs import Prefs

        self.folder, self.voice, self.game = folder, voice, game
        # the voice mode for the table says every step (the default voice leaves a plain
        # throw out: it would say nothing here)
        self.ctx = HostContext(Journal(folder / f"{game}.journal"), Prefs(voice_mode="table"),
                               rng=random.Random(1), dice=DiceStatus(configured=True, up=True),
                               announcer=voice, data=folder,
                               defaults={"players": 2, "seats": 2})
        self.shell = Shell(self.ctx, start_with=game, games=playable())
        self.now = 0.0
        self.new_game()

    def new_game(self) -> None:
        from companion.inputs.events import ButtonPress

        self.shell.mode = self.shell.mode.SETUP
        self.shell.setup_index = 0
        if self.game == "gobbit" and "balíček" not in self.shell._setup_lines()[0][1]:
            self.shell.handle(ButtonPress("select"), self.now)
        self.shell.setup_index = len(self.shell._setup_lines()) - 1
        self.shell.handle(ButtonPress("select"), self.now)
        self.voice.wait(60)

    def act(self) -> float:
        """Seconds from the input coming in to the first sample of what it made the voice
        say."""
        from companion.inputs.events import ButtonPress, Rolled

        host = self.shell.host
        if self.game == "gobbit" and (host.virtual is None or host.virtual.state.over):
            self.new_game()
        last = self.voice.history[-1].seq if self.voice.history else 0
        self.now += 0.1
        event = Rolled(2) if self.game == "clovece" else ButtonPress("select")
        t0 = time.perf_counter()
        self.shell.handle(event, self.now)
        if not self.voice.wait(timeout=60):
            raise SystemExit("voice_latency: the announcer did not finish")
        said = [a for a in self.voice.history if a.seq > last]
        if not said or said[0].first_sample_at is None:
            raise SystemExit(f"voice_latency: {self.game} said nothing "
                             f"({self.voice.status.describe()})")
        return said[0].first_sample_at - t0


def bare_espeak(text: str) -> float:
    """Seconds from starting espeak-ng to its first samples after the WAV header."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(["espeak-ng", "-v", "cs", "-s", str(WORDS_PER_MINUTE), "--stdout"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(text.encode())
    proc.stdin.close()
    got = b""
    while len(got) <= 44:
        more = proc.stdout.read1(4096)
        if not more:
            raise SystemExit("voice_latency: espeak-ng gave no audio")
        got += more
    t1 = time.perf_counter()
    proc.stdout.read()
    proc.wait()
    return t1 - t0


def through(voice: WavAnnouncer | EspeakAnnouncer, text: str) -> float:
    voice.say(text)
    if not voice.wait(timeout=60):
        raise SystemExit("voice_latency: the announcer did not finish")
    item = voice.history[-1]
    if item.latency is None:
        raise SystemExit(f"voice_latency: no audio ({voice.status.describe()})")
    return item.latency


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=10, help="rounds over the texts")
    args = ap.parse_args()
    if shutil.which("espeak-ng") is None:
        raise SystemExit("voice_latency: espeak-ng is not installed (scripts/system-deps.sh)")
    sinks: dict[str, WavAnnouncer | EspeakAnnouncer] = {}
    texts = TEXTS + napij_texts()
    with tempfile.TemporaryDirectory() as tmp:
        sinks["wav"] = WavAnnouncer(Path(tmp) / "bench.wav", speed=1000)
        if shutil.which("aplay"):
            sinks["aplay"] = EspeakAnnouncer(device="null")
        napij_voice = WavAnnouncer(Path(tmp) / "napij.wav", speed=1000)
        table = NapijTable(Path(tmp), napij_voice)
        shells = {game: ShellTable(Path(tmp), WavAnnouncer(Path(tmp) / f"{game}.wav",
                                                           speed=1000), game)
                  for game in ("clovece", "gobbit")}
        times: dict[str, list[float]] = {"peer": [], **{name: [] for name in sinks},
                                         "clovece": [], "gobbit": [], "napij": []}
        for text in texts[:2]:  # warm-up: the voice's files into the page cache
            bare_espeak(text)
            for voice in sinks.values():
                through(voice, text)
        for _ in range(args.rounds):
            for text in texts:
                times["peer"].append(bare_espeak(text))
                for name, voice in sinks.items():
                    times[name].append(through(voice, text))
                times["napij"].append(table.drop())
                for game, shell_table in shells.items():
                    times[game].append(shell_table.act())
        for voice in (*sinks.values(), napij_voice, *(t.voice for t in shells.values())):
            voice.close()
    n = len(times["peer"])
    print(f"say -> first audio sample, {n} announcements per path (Czech voice, "
          f"{WORDS_PER_MINUTE} words/min):")
    med = {}
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        med[name] = statistics.median(ms)
        label = {"peer": "bare espeak-ng --stdout (peer)", "wav": "announcer, WAV twin",
                 "aplay": "announcer, aplay -D null",
                 "clovece": "clovece shell: throw -> sample",
                 "gobbit": "gobbit shell: flip -> sample",
                 "napij": "napij host: drop -> sample"}[name]
        print(f"  {label:32s} median {med[name]:7.1f} ms   p90 {percentile(ms, 0.9):7.1f} ms")
    if "aplay" not in sinks:
        print("  (aplay is not installed here: the Pi's sink was not measured)")
    for name in (*sinks, "clovece", "gobbit", "napij"):
        verdict = "met" if med[name] <= TARGET_MS else "NOT met"
        print(f"{name}: {med[name] / med['peer']:.2f}x the bare process, "
              f"{med[name] - med['peer']:+.1f} ms; target median <= {TARGET_MS:.0f} ms: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
