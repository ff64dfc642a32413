"""The real boot of `make pi-check`: the card under qemu-system-aarch64, proven from its console.

The test copy of the card (scripts/pi/card.py prepares it: the family's two files on the FAT
partition replaced by the test's, the probe and a game's set-up written into the root file
system) boots on qemu's ``virt`` machine with the kernel and initramfs from its own FAT
partition and the card's own cmdline.txt (the console moved to the virt machine's UART), with
systemd as PID 1.  Its second serial port (a PCI 16550, ``/dev/ttyS0`` in the guest, which
the unit's ``DeviceAllow=char-ttyS`` admits) is a qemu chardev on the pty of the companion's
simulated dice, running here with the dice firmware's own code.

What is proven comes from the serial console only: the probe (scripts/pi/probe.sh) prints
``PICHK key value`` lines; :class:`Console` collects them, every line of the console goes to
a log file.  Every wait is bounded.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
PREFIX = "PICHK "
MEMORY = "512"  # MiB: the Pi Zero 2 W's
CPU = "cortex-a53"  # the Pi 3's and the Zero 2 W's core


class Failed(Exception):
    """One sentence saying what did not happen."""


@dataclass
class Console:
    """qemu's serial console: every line into ``log``, the probe's lines kept in order."""

    log: Path
    lines: list[tuple[float, str]] = field(default_factory=list)
    """(monotonic time, text after PREFIX) of every probe line."""
    dump: list[str] | None = None
    """The game journal's lines of the probe's last complete dump."""
    dumps: int = 0
    closed: bool = False
    _cond: threading.Condition = field(default_factory=threading.Condition)
    _partial: list[str] | None = None

    def feed(self, stream: Any) -> None:
        """Read ``stream`` (qemu's stdout, bytes) to its end; run on a thread."""
        with open(self.log, "a", encoding="utf-8", errors="replace") as out:
            for raw in stream:
                text = raw.decode("utf-8", "replace").rstrip("\r\n").replace("\r", "")
                out.write(text + "\n")
                out.flush()
                at = text.find(PREFIX)
                if at >= 0:
                    self._probe(text[at + len(PREFIX):])
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def _probe(self, text: str) -> None:
        with self._cond:
            self.lines.append((time.monotonic(), text))
            if text.startswith("journal-begin"):
                self._partial = []
            elif text.startswith("J ") and self._partial is not None:
                self._partial.append(text[2:])
            elif text.startswith("journal-end") and self._partial is not None:
                self.dump, self._partial = self._partial, None
                self.dumps += 1
            self._cond.notify_all()

    def wait(self, what: Callable[[], T | None], timeout: float, failure: str) -> T:
        """The first true value of ``what()`` (called with the lock held) within ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = what()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failed(failure)
                if self.closed:
                    raise Failed(failure + " (the machine stopped)")
                self._cond.wait(min(left, 1.0))

    def first(self, key: str, since: int = 0) -> str | None:
        """The value of the first probe line ``key ...`` (from line number ``since`` on)."""
        for _, text in self.lines[since:]:
            if _keyed(text, key):
                return text[len(key):].strip()
        return None

    def all(self, key: str) -> list[str]:
        return [text[len(key):].strip() for _, text in self.lines if _keyed(text, key)]

    def time_of(self, key: str) -> float | None:
        for t, text in self.lines:
            if _keyed(text, key):
                return t
        return None

    def wait_for(self, key: str, timeout: float, failure: str) -> str:
        return self.wait(lambda: self.first(key), timeout, failure)


def _keyed(text: str, key: str) -> bool:
    """Whether a probe line is ``key`` alone or ``key`` then white space (/proc's status
    lines have a tab after their name)."""
    return text == key or (text.startswith(key) and text[len(key)].isspace())


@dataclass
class Machine:
    """One boot of the card under qemu-system-aarch64 (TCG: no KVM for arm64 on x86_64)."""

    disk: Path
    kernel: Path
    initrd: Path
    cmdline: str
    dice_tty: str
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    console: Console | None = None
    started: float = 0.0
    _reader: threading.Thread | None = None

    def argv(self) -> list[str]:
        accel = ["-accel", "tcg,thread=multi", "-cpu", CPU]
        if os.uname().machine == "aarch64" and os.access("/dev/kvm", os.R_OK | os.W_OK):
            accel = ["-accel", "kvm", "-cpu", "host"]
        return ["qemu-system-aarch64", "-M", "virt", *accel, "-smp", "2", "-m", MEMORY,
                "-display", "none", "-monitor", "none", "-serial", "stdio", "-nic", "none",
                "-no-reboot", "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                "-append", self.cmdline,
                "-drive", f"file={self.disk},format=raw,if=none,id=card,cache=writeback",
                "-device", "virtio-blk-pci,drive=card",
                "-chardev", f"serial,id=dice,path={self.dice_tty}",
                "-device", "pci-serial,chardev=dice"]

    def start(self) -> Console:
        self.console = Console(self.log)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(self.argv(), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self._reader = threading.Thread(target=self.console.feed, args=(self.proc.stdout,),
                                        daemon=True)
        self._reader.start()
        return self.console

    def power_off(self) -> None:
        """Pull the plug: qemu is killed, the guest gets no word of it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait(30)
        if self._reader is not None:
            self._reader.join(30)


# --- the game at the table ------------------------------------------------------------------


def journal_records(lines: list[str]) -> list[dict[str, Any]]:
    """The records of a journal printed by the probe, read by the service's own loader."""
    from companion.storage.journal import Journal

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.journal"
        path.write_text("".join(line + "\n" for line in lines), "utf-8")
        return Journal(path).load()


def dice_rolls(records: list[dict[str, Any]]) -> list[int]:
    """The values of the rolls the dice made, in the journal's order."""
    return [int(r["v"]) for r in records if r.get("t") == "roll" and r.get("src") == "dice"]


def waits_for_roll(records: list[dict[str, Any]]) -> bool:
    """Whether the game in ``records`` waits for a throw (not for a move, not over)."""
    from companion.games.clovece.engine.game import GAME
    from companion.engines.game import replay

    if not records:
        return False
    done = replay(GAME, records)
    if done.used < len(records):
        return False
    return GAME.chance(done.state) is not None and not GAME.is_over(done.state)


@dataclass
class Table:
    """The simulated dice and what it rolled into the game on the card."""

    dice: Any  # companion.dice.sim.SimulatedDice
    rolled: list[int] = field(default_factory=list)
    """Every roll the companion acknowledged, in order."""

    def records(self, console: Console) -> list[dict[str, Any]] | None:
        return journal_records(console.dump) if console.dump is not None else None

    def throw(self, console: Console, timeout: float) -> tuple[int, int]:
        """Wait until the game waits for a throw (a roll while a move is awaited would be
        refused as "not counted"), roll, and wait for the acknowledgement: (value, sequence)."""
        console.wait(lambda: waits_for_roll(self.records(console) or []), timeout,
                     "the game on the card did not come to a throw")
        value = self.dice.roll()
        seq = self.dice.sent[-1][1]
        deadline = time.monotonic() + timeout
        while self.dice.acked < seq:
            if time.monotonic() > deadline:
                raise Failed(f"the companion did not acknowledge roll {seq} ({value}) "
                             f"within {timeout:.0f} s")
            time.sleep(0.02)
        return value, seq

    def roll(self, console: Console, timeout: float) -> None:
        """A throw, acknowledged and then in the journal."""
        value, seq = self.throw(console, timeout)
        self.rolled.append(value)
        want = list(self.rolled)
        console.wait(lambda: dice_rolls(self.records(console) or []) == want, timeout,
                     f"roll {seq} ({value}) was acknowledged but is not in the journal")


SERVICE_LOG = re.compile(r"^log \[\s*([0-9.]+)\] (?:\S+ )?\S+\[\d+\]: (.*)$")


def service_log(console: Console) -> list[tuple[float, str]]:
    """(seconds since the kernel started, message) of the companion's journald lines."""
    out = []
    for text in console.all("log"):
        m = SERVICE_LOG.match("log " + text)
        if m:
            out.append((float(m.group(1)), m.group(2)))
    return out
