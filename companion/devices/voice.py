"""The voice: announcements spoken in Czech, never blocking the game.

The port is :class:`Announcer`: ``say(text)`` queues an announcement and
returns at once; a worker thread speaks the queue in order.  ``say(text,
cut=True)`` makes the new announcement the only one that matters: what is
playing stops and what waits is dropped (a turn announced while the previous
one is still being read out).  The queue is short (``max_pending``): when it
is full the oldest waiting announcement is dropped as stale.

Twins, like the other hardware adapters:

* :class:`EspeakAnnouncer` (the Pi): espeak-ng's Czech voice (``-v cs``) on
  standard output, streamed to ALSA's ``aplay`` (a USB speaker or an I2S
  amplifier, hardware/guide/audio.md);
* :class:`WavAnnouncer` (tests, ``companion demo``): the same espeak-ng audio,
  every announcement in order, concatenated into one WAV file; it plays in
  (optionally sped-up) real time, so cutting works as on the Pi;
* :class:`SilentAnnouncer`: keeps the texts, makes no sound.

Every announcement has a kind and a priority (:meth:`say_as`; ``say`` is the
plain kind with priority :data:`HOST`): a newer announcement of a kind cuts the
older one of the same kind (playing or waiting), and a higher priority goes
before lower ones waiting (a drink duty, a referee's ruling before a screen
being read).  The espeak-ng twins read the text through
:func:`companion.devices.speech.speakable` (signs and numbers as words) at the
volume and speed :meth:`tune` sets.

When espeak-ng or the sound card is missing the game goes on: the announcer's
:attr:`~Announcer.status` turns unavailable and its ``on_status`` callbacks
run once (again only when it changes, e.g. the speaker is plugged back in).
Callbacks run on the voice's thread; a service posts them to its own loop.
"""

from __future__ import annotations

import logging
import struct
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import subprocess  # started only to speak: not imported before the first frame

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
APLAY = "aplay"
VOICE = "cs"
WORDS_PER_MINUTE = 165
MAX_PENDING = 4
AMPLITUDE = 100
"""espeak-ng's ``-a`` (0-200): the volume of the voice."""
HOST = 1
"""The priority of a plain ``say``: what a host or the shell says itself (a drink duty)."""
MAX_CHARS = 1000
"""An announcement is a sentence or two; longer text is cut here (espeak-ng reads it whole)."""
CHUNK = 4096


class VoiceUnavailable(Exception):
    """The voice cannot be heard: ``reason`` is a short code, the message one sentence."""

    def __init__(self, reason: str, sentence: str) -> None:
        super().__init__(sentence)
        self.reason = reason


@dataclass(frozen=True)
class VoiceStatus:
    """What the service may log or show (once): whether announcements can be heard."""

    available: bool = True
    reason: str = ""
    """``""``, ``"no-espeak"``, ``"espeak-failed"``, ``"no-aplay"`` or ``"no-sound-card"``."""
    detail: str = ""
    """One sentence for the log."""

    def describe(self) -> str:
        return "The voice works." if self.available else self.detail


@dataclass
class Announcement:
    """One ``say``: its text and what became of it (times on the announcer's clock)."""

    text: str
    seq: int
    queued_at: float
    first_sample_at: float | None = None
    """When espeak-ng's first audio sample was ready for the sound card."""
    samples: int = 0
    """Samples handed to the sound card (the WAV twin: written)."""
    cut: bool = False
    """Stopped while playing by a newer announcement (or by close)."""
    dropped: bool = False
    """Never played: cut while waiting, or stale in a full queue."""
    done: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)
    kind: str = ""
    """A newer announcement of the same (non-empty) kind cuts this one."""
    priority: int = HOST
    """Higher goes first among those waiting, and is not cut by a lower one."""
    stopped: bool = False
    """Cut by a newer one of its kind (the voice stops it as soon as it can)."""

    @property
    def latency(self) -> float | None:
        """Seconds from ``say`` to the first audio sample, if there was one."""
        return None if self.first_sample_at is None else self.first_sample_at - self.queued_at


StatusListener = Callable[[VoiceStatus], None]


class Announcer(Protocol):
    """The voice port."""

    on_status: list[StatusListener]

    @property
    def status(self) -> VoiceStatus: ...

    def say(self, text: str, *, cut: bool = False) -> None:
        """Queue ``text`` (never blocks); ``cut``: stop what plays and drop what waits."""

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued was spoken; False on timeout."""

    def close(self) -> None:
        """Stop now: what plays is cut, what waits is dropped."""


@runtime_checkable
class Ranked(Protocol):
    """An announcer that knows kinds and priorities, volume and speed (the twins here)."""

    def say_as(self, text: str, *, kind: str, priority: int = 0) -> None:
        """Queue ``text``: a newer one of ``kind`` cuts the older; higher priority first."""

    def tune(self, *, words_per_minute: int | None = None,
             amplitude: int | None = None) -> None:
        """Speak at this speed and volume from the next announcement on."""


SPOKEN_KEPT = 256
"""What the silent twin remembers (the latest; a test needs far fewer): the service runs it
for days when the voice is off, so it must not keep every sentence of every game."""


class SilentAnnouncer:
    """The silent twin: remembers what it was asked to say, in order (the latest
    :data:`SPOKEN_KEPT` to :data:`SPOKEN_KEPT` × 2)."""

    def __init__(self) -> None:
        self.on_status: list[StatusListener] = []
        self.spoken: list[str] = []
        self.kinds: list[tuple[str, int]] = []
        """The kind and priority of each of :attr:`spoken` (``say``: ``("", HOST)``)."""
        self.words_per_minute = WORDS_PER_MINUTE
        self.amplitude = AMPLITUDE
        self._status = VoiceStatus()

    @property
    def status(self) -> VoiceStatus:
        return self._status

    def say(self, text: str, *, cut: bool = False) -> None:
        self.say_as(text, kind="", priority=HOST)

    def say_as(self, text: str, *, kind: str, priority: int = 0) -> None:
        text = " ".join(text.split())
        if text:
            self.spoken.append(text)
            self.kinds.append((kind, priority))
            if len(self.spoken) > 2 * SPOKEN_KEPT:  # cut now and then: a list for the tests
                del self.spoken[:-SPOKEN_KEPT], self.kinds[:-SPOKEN_KEPT]

    def tune(self, *, words_per_minute: int | None = None,
             amplitude: int | None = None) -> None:
        if words_per_minute is not None:
            self.words_per_minute = words_per_minute
        if amplitude is not None:
            self.amplitude = amplitude

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        return None


class _Speech:
    """One espeak-ng process reading ``text`` and writing a WAV stream on its standard output."""

    def __init__(self, command: list[str], text: str) -> None:
        import subprocess

        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        except FileNotFoundError:
            raise VoiceUnavailable(
                "no-espeak", f"{command[0]} is not installed, so the announcements cannot be "
                "heard (scripts/system-deps.sh installs espeak-ng).") from None
        except OSError as exc:
            raise VoiceUnavailable(
                "no-espeak", f"{command[0]} cannot be started ({exc.strerror}).") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._out: IO[bytes] = self.proc.stdout
        try:
            self.proc.stdin.write(text.encode("utf-8"))
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.rate = 0

    def _read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            more = self._out.read(n - len(data))
            if not more:
                break
            data += more
        return data

    def open(self) -> int:
        """Read the WAV header up to the data; return the sample rate (16-bit mono expected)."""
        head = self._read(12)
        if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            self.fail()
        while True:
            chunk = self._read(8)
            if len(chunk) < 8:
                self.fail()
            kind, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
            if kind == b"data":
                break  # espeak-ng streams: the data size is a placeholder
            body = self._read(size + (size & 1))
            if kind == b"fmt ":
                channels, rate = struct.unpack("<HI", body[2:8])
                bits = struct.unpack("<H", body[14:16])[0]
                if (channels, bits) != (1, 16):
                    raise VoiceUnavailable("espeak-failed",
                                           f"espeak-ng speaks {channels} x {bits} bits, not mono 16 bits.")
                self.rate = rate
        if not self.rate:
            self.fail()
        return self.rate

    def fail(self) -> None:
        self.kill()
        err = self.proc.stderr.read().decode("utf-8", "replace").strip() if self.proc.stderr else ""
        first = err.splitlines()[0] if err else f"exit code {self.proc.returncode}"
        raise VoiceUnavailable("espeak-failed", f"espeak-ng gave no audio ({first}).")

    def chunks(self) -> Iterator[bytes]:
        """The samples as they come (whole samples only)."""
        carry = b""
        while True:
            data = self._out.read1(CHUNK) if hasattr(self._out, "read1") else self._out.read(CHUNK)
            if not data:
                return
            data = carry + data
            cut = len(data) & ~1
            carry = data[cut:]
            if cut:
                yield data[:cut]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self) -> None:
        self.kill()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


class _EspeakVoice:
    """The queue, the worker thread, cutting and the status, shared by the espeak-ng twins."""

    def __init__(self, *, espeak: str = ESPEAK, voice: str = VOICE,
                 words_per_minute: int = WORDS_PER_MINUTE, max_pending: int = MAX_PENDING,
                 clock: Callable[[], float] = time.perf_counter, history: int = 256) -> None:
        if max_pending < 1:
            raise ValueError("max_pending must be at least 1.")
        self.espeak = espeak
        self.voice = voice
        self.words_per_minute = words_per_minute
        self.amplitude = AMPLITUDE
        self.max_pending = max_pending
        self.clock = clock
        self.on_status: list[StatusListener] = []
        self.history: deque[Announcement] = deque(maxlen=history)
        """The latest announcements, in the order they were said."""
        self._status = VoiceStatus()
        self._cond = threading.Condition()
        self._pending: deque[Announcement] = deque()
        self._current: Announcement | None = None
        self._procs: list[subprocess.Popen[bytes]] = []
        self._cut_below = 0  # announcements with a smaller seq stop
        self._seq = 0
        self._closing = False
        self._thread: threading.Thread | None = None
        """The voice's thread, started with the first announcement (not before the first
        frame: a new thread's start waits until it runs)."""

    # --- the caller's side ---------------------------------------------------------------

    @property
    def status(self) -> VoiceStatus:
        return self._status

    def say(self, text: str, *, cut: bool = False) -> None:
        self._queue(text, cut=cut, kind="", priority=HOST)

    def say_as(self, text: str, *, kind: str, priority: int = 0) -> None:
        self._queue(text, cut=False, kind=kind, priority=priority)

    def tune(self, *, words_per_minute: int | None = None,
             amplitude: int | None = None) -> None:
        if words_per_minute is not None:
            self.words_per_minute = max(80, min(450, int(words_per_minute)))
        if amplitude is not None:
            self.amplitude = max(0, min(200, int(amplitude)))

    def _queue(self, text: str, *, cut: bool, kind: str, priority: int) -> None:
        from companion.devices.speech import (
            speakable,  # loaded with the first announcement, not at start
        )

        text = speakable(" ".join(text.split()))[:MAX_CHARS]
        if not text:
            return
        with self._cond:
            if self._closing:
                return
            self._seq += 1
            item = Announcement(text, self._seq, self.clock(), kind=kind, priority=priority)
            if cut:
                self._drop_pending()
                self._cut_below = item.seq
                self._stop_processes()
            elif kind:
                self._cut_kind(kind, priority)
            while len(self._pending) >= self.max_pending:
                lowest = min(self._pending, key=lambda a: a.priority)
                self._pending.remove(lowest)  # the oldest of the least urgent
                lowest.dropped = True
                lowest.done.set()
            at = len(self._pending)
            while at > 0 and self._pending[at - 1].priority < priority:
                at -= 1  # before everything less urgent that waits
            self._pending.insert(at, item)
            self.history.append(item)
            self._cond.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
                self._thread.start()

    def _cut_kind(self, kind: str, priority: int) -> None:
        """A newer announcement of ``kind``: the older ones of that kind waiting are dropped,
        the one playing stops (unless it is more urgent than the newer one)."""
        for old in [a for a in self._pending if a.kind == kind]:
            self._pending.remove(old)
            old.dropped = True
            old.done.set()
        current = self._current
        if current is not None and current.kind == kind and current.priority <= priority:
            current.stopped = True
            self._stop_processes()

    def wait(self, timeout: float | None = None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and self._current is None,
                                       timeout)

    def close(self) -> None:
        with self._cond:
            if self._closing:
                return
            self._closing = True
            self._drop_pending()
            self._cut_below = self._seq + 1
            self._stop_processes()
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=10)

    def _drop_pending(self) -> None:
        for item in self._pending:
            item.dropped = True
            item.done.set()
        self._pending.clear()

    def _stop_processes(self) -> None:
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()

    # --- the worker's side ---------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._pending) or self._closing)
                if self._closing:
                    return
                item = self._pending.popleft()
                self._current = item
            try:
                self._speak(item)
            except VoiceUnavailable as exc:
                self._set_status(VoiceStatus(False, exc.reason, str(exc)))
            except Exception:  # the voice must never take the game down
                log.exception("announcement %r failed", item.text)
            else:
                if self._status.available is False and (item.samples or not self._is_cut(item)):
                    self._set_status(VoiceStatus())
            finally:
                with self._cond:
                    self._procs.clear()
                    self._current = None
                    item.done.set()
                    self._cond.notify_all()

    def _is_cut(self, item: Announcement) -> bool:
        return item.seq < self._cut_below or item.stopped

    def _start(self, proc: subprocess.Popen[bytes], item: Announcement) -> bool:
        """Register a process of ``item``; False (and the process killed) if it is cut already."""
        with self._cond:
            self._procs.append(proc)
            if self._is_cut(item):
                proc.kill()
                return False
        return True

    def _synthesize(self, item: Announcement) -> _Speech | None:
        """espeak-ng reading ``item``, its header read; None when the item was cut meanwhile."""
        speech = _Speech([self.espeak, "-v", self.voice, "-s", str(self.words_per_minute),
                          "-a", str(self.amplitude), "--stdout"], item.text)
        if not self._start(speech.proc, item):
            speech.close()
            return None
        try:
            speech.open()
        except VoiceUnavailable:
            if self._is_cut(item):
                speech.close()
                return None
            speech.close()
            raise
        return speech

    def _speak(self, item: Announcement) -> None:
        raise NotImplementedError

    def _set_status(self, status: VoiceStatus) -> None:
        if status == self._status:
            return
        self._status = status
        if status.available:
            log.info("the voice works again")
        else:
            log.warning("%s The game goes on without the voice.", status.detail)
        for listener in self.on_status:
            listener(status)


ASOUND_CARDS = Path("/proc/asound/cards")


def has_sound_card(cards: Path = ASOUND_CARDS) -> bool | None:
    """Whether ALSA lists a sound card (``None``: this system does not say, not Linux)."""
    try:
        text = cards.read_text("utf-8", "replace")
    except FileNotFoundError:
        return False if Path("/proc/version").exists() else None  # Linux without ALSA cards
    except OSError:
        return None
    return "no soundcards" not in text and bool(text.strip())


class EspeakAnnouncer(_EspeakVoice):
    """The Pi's voice: espeak-ng's Czech voice streamed to ALSA's ``aplay``.

    ``device`` is aplay's ``-D`` (e.g. ``plughw:CARD=Device`` for a USB
    speaker; None: ALSA's default).  ``aplay`` may name another program that
    takes raw audio on its standard input the same way.
    """

    def __init__(self, *, aplay: str = APLAY, device: str | None = None,
                 espeak: str = ESPEAK, voice: str = VOICE,
                 words_per_minute: int = WORDS_PER_MINUTE, max_pending: int = MAX_PENDING,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.aplay = aplay
        self.device = device
        super().__init__(espeak=espeak, voice=voice, words_per_minute=words_per_minute,
                         max_pending=max_pending, clock=clock)
        if aplay == APLAY and not device and has_sound_card() is False:
            # known at once, not at the first announcement (which still tries: a USB speaker
            # plugged in later is heard, and the status turns available again)
            self._status = VoiceStatus(False, "no-sound-card",
                                       "No sound card plays the announcements (ALSA lists "
                                       "none).")

    def _player(self, rate: int) -> subprocess.Popen[bytes]:
        import subprocess

        command = [self.aplay, "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(rate)]
        if self.device:
            command += ["-D", self.device]
        try:
            return subprocess.Popen([*command, "-"], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except FileNotFoundError:
            raise VoiceUnavailable(
                "no-aplay", f"{self.aplay} is not installed, so the announcements cannot be "
                "heard (the alsa-utils package has it).") from None

    def _speak(self, item: Announcement) -> None:
        speech = self._synthesize(item)
        if speech is None:
            return
        player: subprocess.Popen[bytes] | None = None
        try:
            for chunk in speech.chunks():
                if player is None:
                    item.first_sample_at = self.clock()
                    player = self._player(speech.rate)
                    if not self._start(player, item):
                        break
                assert player.stdin is not None
                try:
                    player.stdin.write(chunk)
                except (BrokenPipeError, ValueError):
                    break
                item.samples += len(chunk) // 2
            if player is None:
                return
            try:
                assert player.stdin is not None
                player.stdin.close()
            except BrokenPipeError:
                pass
            player.wait()
            if self._is_cut(item):
                item.cut = True
                return
            if player.returncode != 0:
                err = player.stderr.read().decode("utf-8", "replace").strip() if player.stderr else ""
                last = err.splitlines()[-1] if err else f"exit code {player.returncode}"
                raise VoiceUnavailable(  # aplay's own summary comes after ALSA's details
                    "no-sound-card", f"No sound card plays the announcements ({last}).")
        finally:
            speech.close()
            if player is not None:
                if player.poll() is None:
                    player.kill()
                    player.wait()
                if player.stderr is not None:
                    player.stderr.close()


class WavAnnouncer(_EspeakVoice):
    """The WAV twin: espeak-ng's real audio of every announcement, in order, in one WAV file.

    It plays like a sound card, ``speed`` times faster than real time (1.0:
    real time), so an announcement cut after ``t`` seconds keeps the first
    ``t * speed`` seconds of its audio.  The file is complete after
    :meth:`close` (call :meth:`wait` first to keep everything queued).
    """

    def __init__(self, path: str | Path, *, speed: float = 1.0, espeak: str = ESPEAK,
                 voice: str = VOICE, words_per_minute: int = WORDS_PER_MINUTE,
                 max_pending: int = MAX_PENDING,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive.")
        self.path = Path(path)
        self.speed = speed
        self.rate = 0
        self._wav: wave.Wave_write | None = None
        super().__init__(espeak=espeak, voice=voice, words_per_minute=words_per_minute,
                         max_pending=max_pending, clock=clock)

    def _speak(self, item: Announcement) -> None:
        speech = self._synthesize(item)
        if speech is None:
            return
        try:
            audio = bytearray()
            for chunk in speech.chunks():
                if item.first_sample_at is None:
                    item.first_sample_at = self.clock()
                audio += chunk
                if self._is_cut(item):
                    break
        finally:
            speech.close()
        samples = len(audio) // 2
        start = time.monotonic()
        with self._cond:  # "play": wait out the audio's time, unless a newer one cuts it
            self._cond.wait_for(lambda: self._is_cut(item),
                                samples / speech.rate / self.speed)
            if self._is_cut(item):
                heard = int((time.monotonic() - start) * self.speed * speech.rate)
                if heard < samples:
                    item.cut = True
                    samples = heard
        self._write(bytes(audio[: samples * 2]), speech.rate)
        item.samples = samples

    def _write(self, pcm: bytes, rate: int) -> None:
        if self._wav is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._wav = wave.open(str(self.path), "wb")
            self._wav.setnchannels(1)
            self._wav.setsampwidth(2)
            self._wav.setframerate(rate)
            self.rate = rate
        elif rate != self.rate:
            raise VoiceUnavailable("espeak-failed",
                                   f"espeak-ng changed its sample rate from {self.rate} to {rate}.")
        self._wav.writeframes(pcm)

    def close(self) -> None:
        super().close()
        if self._wav is None:  # nothing was heard: still a valid, empty WAV
            self._write(b"", 22050)
        assert self._wav is not None
        self._wav.close()


def create_announcer(kind: str, *, wav_file: str | Path = "companion.wav",
                     device: str | None = None) -> Announcer:
    """The announcer a configuration names: ``espeak`` (the Pi), ``wav`` or ``silent``."""
    if kind == "espeak":
        return EspeakAnnouncer(device=device)
    if kind == "wav":
        return WavAnnouncer(wav_file)
    if kind == "silent":
        return SilentAnnouncer()
    raise ValueError(f"Unknown voice {kind!r}: write espeak, wav or silent.")
