"""``companion dice-sim`` (a simulated dice on a pty) and ``companion dice-read`` (watch a dice)."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import select
import sys
import tempfile
import termios
import threading
import time
import tty
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any, TextIO

from companion.commandline import count_arg, name_problem, seconds_arg, shown
from companion.dice.reader import DiceEvent, DiceReader, DiceRoll
from companion.dice.sim import SimulatedDice
from companion.dice.simboard import FirmwareNotFound
from companion.errors import UsageError

KEYS_HELP = "keys: r roll, 1-6 roll that face, d drop, u unplug, p plug back, n line noise, q quit"
SCRIPT_HELP = "roll, roll:1-6, drop, unplug, replug, noise, wait:SECONDS"


@dataclass(frozen=True)
class Step:
    action: str  # roll, drop, unplug, replug, noise, wait
    value: float | None = None


def parse_script(text: str) -> list[Step]:
    """``"roll,roll:6,drop,wait:0.5"`` -> steps; a bad step is a UsageError."""
    steps: list[Step] = []
    for raw in text.split(","):
        word = raw.strip().lower()
        if not word:
            continue
        name, _, arg = word.partition(":")
        if name == "roll" and not arg:
            steps.append(Step("roll"))
        elif name == "roll" and arg in ("1", "2", "3", "4", "5", "6"):
            steps.append(Step("roll", int(arg)))
        elif name in ("drop", "unplug", "replug", "noise") and not arg:
            steps.append(Step(name))
        elif name == "wait":
            try:
                seconds = float(arg)
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= 3600:
                raise UsageError(f"Bad wait '{raw.strip()}': give seconds, e.g. wait:0.5.")
            steps.append(Step("wait", seconds))
        else:
            raise UsageError(f"Unknown script step '{raw.strip()}'; use {SCRIPT_HELP}.")
    if not steps:
        raise UsageError(f"The script is empty; use {SCRIPT_HELP}.")
    return steps


NOISE = b"\x00\xff$D1,ROLL,garbage*\r\nATZ\r\n\x1b[0m"


class SimSession:
    """Runs steps and keys against a SimulatedDice, printing what happens."""

    def __init__(self, sim: SimulatedDice, out: TextIO) -> None:
        self.sim = sim
        self.out = out

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def do(self, step: Step) -> None:
        sim = self.sim
        if step.action == "roll":
            face = sim.roll(None if step.value is None else int(step.value))
            self.say(f"roll {face} (seq {sim.sent[-1][1]})")
        elif step.action == "drop":
            sim.drop()
            self.say(f"drop (seq {sim.sent[-1][1]})")
        elif step.action == "unplug":
            sim.unplug()
            self.say(f"unplugged: {sim.path} is gone")
        elif step.action == "replug":
            sim.replug()
            self.say(f"plugged back: {sim.path} -> {sim.pts_path}")
        elif step.action == "noise":
            sim.noise(NOISE)
            self.say(f"line noise ({len(NOISE)} bytes)")
        elif step.action == "wait":
            time.sleep(step.value or 0.0)

    def key(self, char: str) -> bool:
        """Handle one key; False means quit."""
        if char in ("q", "\x04"):
            return False
        actions = {"r": Step("roll"), "d": Step("drop"), "u": Step("unplug"), "p": Step("replug"),
                   "n": Step("noise")}
        if char and char in "123456":
            self.do(Step("roll", int(char)))
        elif char in actions:
            self.do(actions[char])
        elif char.strip():
            self.say(KEYS_HELP)
        return True


@contextlib.contextmanager
def _cbreak(stream: TextIO) -> Iterator[bool]:
    """Single keys without Enter when ``stream`` is a terminal."""
    try:
        fd = stream.fileno()
        is_tty = os.isatty(fd)
    except (OSError, ValueError, AttributeError):
        is_tty = False
    if not is_tty:
        yield False
        return
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _keys(stream: TextIO, stop: threading.Event) -> Iterator[str]:
    """Characters from ``stream`` as they come (unbuffered), until end of input."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        yield from iter(lambda: stream.read(1), "")
        return
    while not stop.is_set():
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        data = os.read(fd, 64)
        if not data:
            return
        yield from data.decode(errors="replace")


DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def cmd_dice_sim(args: argparse.Namespace) -> int:
    if not DEVICE_ID.fullmatch(args.device_id):
        raise UsageError(f"--device-id must be 1 to 16 of A-Z a-z 0-9 _ -, not "
                         f"{shown(args.device_id)}.")
    steps = parse_script(args.script) if args.script is not None else None
    link = args.link or os.path.join(tempfile.gettempdir(), "companion-dice")
    problem = name_problem(link)
    if problem is not None:
        raise UsageError(f"--link must name a path for the dice, not {problem}.")
    parent = os.path.dirname(os.path.abspath(link))
    if not os.path.isdir(parent):
        raise UsageError(f"The folder {parent} for the dice's path does not exist.")
    try:
        sim = SimulatedDice(seed=args.seed, device_id=args.device_id, link_path=link,
                            battery_mv=args.battery)
    except FileExistsError:
        raise UsageError(f"{link} exists and is not a symlink; choose another --link.") from None
    except (FirmwareNotFound, ValueError) as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"Cannot create the simulated dice at {link}: {exc.strerror}.") from None
    out = sys.stdout
    session = SimSession(sim, out)
    try:
        session.say(f"simulated dice at {sim.path} (pty {sim.pts_path}); boot {sim.boot_id}")
        if steps is not None:
            for step in steps:
                session.do(step)
                if step.action != "wait" and args.interval:
                    time.sleep(args.interval)
            deadline = time.monotonic() + args.wait_ack
            while sim.unacked and time.monotonic() < deadline:
                time.sleep(0.02)
        else:
            session.say(KEYS_HELP)
            stop = threading.Event()
            with _cbreak(sys.stdin):
                for char in _keys(sys.stdin, stop):
                    if not session.key(char):
                        break
        unacked = sim.unacked
        note = " (is a reader connected?)" if unacked else ""
        session.say(f"sent {len(sim.sent)} event(s); {unacked} not acknowledged{note}")
    finally:
        sim.close()
    if steps is not None and unacked:
        print(f"companion: {unacked} of {len(sim.sent)} events were not acknowledged "
              f"within --wait-ack {args.wait_ack:g} s; is a reader connected?", file=sys.stderr)
        return 1
    return 0


def _describe(event: DiceEvent) -> str:
    name = type(event).__name__.removeprefix("Dice").lower()
    values = " ".join(f"{f.name}={getattr(event, f.name)}" for f in fields(event)
                      if f.compare)  # (a roll's boot id is the journal's, not the event's)
    return f"{name} {values}".rstrip()


def pixels_port() -> Any:
    """The Bluetooth port ``dice-read --pixels`` listens through: BlueZ (bleak)."""
    from companion.dice.pixels.bleak_port import BleakPort

    return BleakPort()


class RollPrinter:
    """dice-read's listener: prints each event on its line, counts the rolls and sets ``done``
    after ``limit`` of them (never when ``limit`` is None)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.rolls = 0
        self.done = threading.Event()

    def __call__(self, event: Any) -> None:
        print(_describe(event), flush=True)
        if isinstance(event, DiceRoll):
            self.rolls += 1
            if self.limit is not None and self.rolls >= self.limit:
                self.done.set()


def _read_pixels(args: argparse.Namespace) -> int:
    """``dice-read --pixels [NAME]``: what a Pixels die sends, as the table's events."""
    from companion.dice.pixels.adapter import PixelsDice, scan
    from companion.dice.pixels.port import PortError

    port = pixels_port()
    on_event = RollPrinter(args.rolls)
    done = on_event.done

    try:
        try:
            heard = scan(port, 1.0)  # Bluetooth missing or off: one sentence, now
        except PortError as exc:
            raise UsageError(str(exc)) from None
        names = ", ".join(sorted({s.advert.name for s in heard})) or "none yet"
        print(f"Pixels dice heard: {names}; reading {args.pixels or 'the first one'}",
              flush=True)
        dice = PixelsDice(port, on_event, name=args.pixels)
        dice.start()
        try:
            finished = done.wait(args.timeout)
        finally:
            dice.stop()
        st = dice.stats
        print(f"stats: rolls={st.rolls} crooked={st.crooked} duplicates={st.duplicates} "
              f"connections={st.connections} lost={st.lost}", flush=True)
    finally:
        try:
            port.loop.run(port.close(), timeout=5)
        finally:
            if getattr(port, "owns_loop", False):
                port.loop.stop()
    if args.rolls is not None and not finished:
        print(f"companion: only {on_event.rolls} of {args.rolls} rolls arrived in {args.timeout:g} s.",
              file=sys.stderr)
        return 1
    return 0


def ble_port() -> Any:
    """The Bluetooth port ``dice-read ble://`` reads our wireless die through: BlueZ (bleak)."""
    from companion.dice.ble.bleak_port import BleakNusPort

    return BleakNusPort()


def _not_a_serial_port(port: str) -> None:
    """A folder or a regular file given as the dice's port: one sentence (a URL, a device or
    a path that does not exist yet is the reader's to open)."""
    import stat

    if "://" in port:
        return
    try:
        mode = os.stat(port).st_mode
    except OSError:
        return
    kind = "a folder" if stat.S_ISDIR(mode) else "a regular file" if stat.S_ISREG(mode) else ""
    if kind:
        raise UsageError(f"The dice's port {shown(port)} is {kind}, not a serial device.")


def cmd_dice_read(args: argparse.Namespace) -> int:
    if args.rolls is not None and args.rolls < 1:
        raise UsageError("--rolls must be at least 1.")
    if args.pixels is not None:
        if args.port:
            raise UsageError("Give the dice's port or --pixels, not both.")
        if len(args.pixels.encode()) > 31:
            raise UsageError("--pixels NAME is a die's name of at most 31 bytes.")
        return _read_pixels(args)
    if not args.port:
        raise UsageError("Give the dice's port (e.g. /dev/companion-dice), or --pixels for a "
                         "Pixels die.")
    if "://" not in args.port and not os.path.exists(args.port):  # a URL is pyserial's
        raise UsageError(f"There is no dice port {args.port}: plug the dice in, or give its "
                         "port (e.g. /dev/companion-dice).")
    _not_a_serial_port(args.port)
    on_event = RollPrinter(args.rolls)
    done = on_event.done

    factory = None
    from companion.dice.ble import URL

    if args.port.startswith(URL):  # our wireless die: ble:// (any) or ble://NAME
        from companion.dice.ble.stream import BleSerial

        name, port = args.port[len(URL):], ble_port()

        def factory() -> Any:
            return BleSerial.open(port, name)
    try:
        reader = DiceReader(args.port, on_event, baudrate=args.baudrate, serial_factory=factory)
    except ValueError as exc:
        raise UsageError(f"{exc}.") from None
    reader.start()
    try:
        finished = done.wait(args.timeout)
    finally:
        reader.stop()
    stats = reader.stats
    counted = ", ".join(f"{f.name}={getattr(stats, f.name)}" for f in fields(stats) if getattr(stats, f.name))
    print(f"stats: {counted or 'nothing received'}", flush=True)
    if stats.open_failures and not stats.connects:
        what = ("is Bluetooth on and the die switched on and near" if factory is not None
                else "is it plugged in, and may this user open it")
        raise UsageError(f"The dice on {shown(args.port)} could not be opened in "
                         f"{args.timeout:g} s ({stats.open_failures} tries): {what}?")
    if args.rolls is not None and not finished:
        print(f"companion: only {on_event.rolls} of {args.rolls} rolls arrived in {args.timeout:g} s.",
              file=sys.stderr)
        return 1
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    sim = commands.add_parser(
        "dice-sim",
        help="a simulated electronic dice on a pty (keys or a script)",
        description="Open a pty that speaks the dice protocol, print its path and roll from "
        f"keys ({KEYS_HELP}) or from --script.",
    )
    sim.add_argument("--script", metavar="STEPS", help=f"comma-separated steps: {SCRIPT_HELP}")
    sim.add_argument("--seed", type=count_arg(), help="seed of the fair rolls (default: os.urandom)")
    sim.add_argument("--link", metavar="PATH",
                     help="the stable symlink the reader opens (default: $TMPDIR/companion-dice)")
    sim.add_argument("--device-id", default="sim", help="the device id in the hello (default: sim)")
    sim.add_argument("--battery", type=count_arg(0, 10_000), metavar="MV",
                     help="battery millivolts in heartbeats")
    sim.add_argument("--interval", type=seconds_arg(60), default=0.2, metavar="S",
                     help="pause after each scripted step (default: 0.2)")
    sim.add_argument("--wait-ack", type=seconds_arg(3600), default=5.0, metavar="S",
                     help="after the script, wait this long for the acknowledgements (default: 5)")
    sim.set_defaults(func=cmd_dice_sim)

    read = commands.add_parser(
        "dice-read",
        help="print the events of a dice (a device path or a pyserial URL, or a Pixels die)",
        description="Read a dice with the companion's reader and print its events; with "
        "--pixels, a Pixels die over Bluetooth (BlueZ, on the Pi); ble:// (or ble://NAME), our "
        "wireless dice over Bluetooth.",
    )
    read.add_argument("port", nargs="?", default="",
                      help="e.g. /dev/companion-dice, the path dice-sim printed, or ble:// for "
                      "our wireless dice (ble://NAME: the one of that name or address)")
    read.add_argument("--pixels", nargs="?", const="", default=None, metavar="NAME",
                      help="read a Pixels die over Bluetooth instead: the one named NAME "
                      "(default: the first one heard)")
    read.add_argument("--baudrate", type=count_arg(1), default=115200,
                      help="serial speed of a UART dice (default: 115200; USB ignores it)")
    read.add_argument("--rolls", type=count_arg(1), metavar="N", help="stop after N rolls")
    read.add_argument("--timeout", type=seconds_arg(), metavar="S", help="give up after S seconds")
    read.set_defaults(func=cmd_dice_read)
