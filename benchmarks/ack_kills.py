"""Acknowledged means journaled: the service killed at every point between a dice frame and the
journal's fsync (and the acknowledgement after it), on a seeded schedule.

The simulated dice (the firmware's own link code on a pty) lives in this process for the whole
run and keeps its outbox, as the real dice does while the Pi restarts.  Each trial forks a
child that runs the real table service (``App``: mock pins, dummy display, the dice's pty) on
one data folder: a Člověče game of four computer seats that throw with the real dice (so every
roll is wanted or, between throws, "not counted").  The child kills itself (SIGKILL) at one
point of the path of a roll, the ``k``-th time it gets there (seeded):

    read      the reader's core decoded the frame            posted    handed to the loop
    handling  the shell takes it                             write     before the journal's write
    primary   the primary file written and fsynced           mirror    both files fsynced
    settle    before the loop settles the receipt            ack       before the ACK is written
    acked     the ACK written

Meanwhile this process throws the dice every 60-160 ms (seeded).  Once the child is gone, the
checker reads the journal (both files, as a restart would) and the dice's state: every roll the
dice saw acknowledged must be in the journal exactly once (its mark: the dice's boot and the
roll's number, with the record it became or noted as not counted), and no roll twice.  A new
data folder (a new game) every ``--per-game`` trials.

    .venv/bin/python benchmarks/ack_kills.py [--trials 2000] [--seed 1] [--broken]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games import playable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

POINTS = ("read", "posted", "handling", "write", "primary", "mirror", "settle", "ack", "acked")


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def child(data: Path, dice_path: str, point: str, nth: int, broken: bool) -> None:
    """The service, killed at ``point`` the ``nth`` time a roll gets there (never returns);
    ``broken``: as before the fix (a re-sent roll taken again, a roll that did not count
    acknowledged without a word in the journal), to show that the check sees it."""
    from gpiozero.pins.mock import MockFactory

    from companion.devices.display import create_device
    from companion.dice import link, reader
    from companion.inputs.events import ButtonPress, Receipt, Rolled
    from companion.service import loop, shell
    from companion.service.app import build_app
    from companion.service.config import Config
    from companion.storage import journal as journal_pkg

    hits = [0]
    import logging

    if os.environ.get("ACK_KILLS_LOG"):
        logging.disable(logging.NOTSET)
        logging.basicConfig(filename=str(data / "child.log"), level=logging.INFO,
                            format=f"%(asctime)s {os.getpid()} {point}#{nth} %(name)s %(message)s")

    def at(name: str) -> None:
        if name == point:
            hits[0] += 1
            if hits[0] >= nth:
                die()

    base = Config()
    cfg = replace(
        base,
        display=replace(base.display, driver="dummy"),
        game=replace(base.game, name="clovece", players=4, computer=("r", "b", "g", "y"),
                     computer_dice=True, auto_move_delay=0.0, computer_confirm_delay=0.05),
        service=replace(base.service, data_dir=str(data), pin_factory="mock",
                        shutdown_command=""),
        voice=replace(base.voice, enabled=False),
        web=replace(base.web, enabled=False),
    )
    handling = [False]
    feed = reader.ReaderCore.feed

    def feed_at(self: Any, data: bytes, now: float) -> Any:
        events, out = feed(self, data, now)
        if any(isinstance(e, reader.DiceRoll) for e in events):
            at("read")
        return events, out

    reader.ReaderCore.feed = feed_at  # type: ignore[method-assign]
    post = loop.Service.post

    def post_at(self: Any, event: Any) -> None:
        post(self, event)
        if isinstance(event, Rolled):
            at("posted")

    loop.Service.post = post_at  # type: ignore[method-assign]
    handle = shell.Shell.handle

    def handle_at(self: Any, event: Any, now: float) -> None:
        if isinstance(event, Rolled):
            at("handling")
            handling[0] = True
        before = len(self.ctx.journal.marks) if isinstance(event, Rolled) else 0
        try:
            handle(self, event, now)
        finally:
            handling[0] = False
            if isinstance(event, Rolled):
                logging.getLogger("harness").info(
                    "roll seq %d: marks %d -> %d, taken %s", event.seq, before,
                    len(self.ctx.journal.marks), event.receipt and event.receipt.taken)

    shell.Shell.handle = handle_at  # type: ignore[method-assign]
    write = journal_pkg.OSStorage.write

    def write_at(self: Any, path: Path, offset: int, data: bytes) -> None:
        primary = not path.name.endswith(journal_pkg.MIRROR_SUFFIX)
        if handling[0] and primary:
            at("write")
        write(self, path, offset, data)
        if handling[0]:
            at("primary" if primary else "mirror")

    journal_pkg.OSStorage.write = write_at  # type: ignore[method-assign]
    settle = Receipt.settle

    def settle_at(self: Any) -> None:
        at("settle")
        settle(self)

    Receipt.settle = settle_at  # type: ignore[method-assign]
    send = link.LinkReader._send

    def send_at(self: Any, frames: list[bytes]) -> None:
        acks = any(b",ACK," in f for f in frames)
        if acks:
            at("ack")
        send(self, frames)
        if acks:
            at("acked")

    link.LinkReader._send = send_at  # type: ignore[method-assign]
    if broken:
        journal_pkg.Journal.seen = lambda self, mark: False  # type: ignore[method-assign]
        shell.Shell._void = lambda self, mark, event: None  # type: ignore[method-assign]
    app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"),
                    dice_port=dice_path)

    def start_a_game() -> None:
        if app.controller.mode is shell.Mode.SETUP:
            app.service.post(ButtonPress("left"))
            app.service.post(ButtonPress("select"))

    app.service.on_idle.append(start_a_game)
    app.run()
    os._exit(0)


def marks_of(data: Path) -> list[tuple[str, int]]:
    """Every input mark in the journal's files, as a restart reads them."""
    from companion.storage.journal import Journal, recover

    j = Journal(data / "game.journal")
    j.load()  # a repair, as the restart would do
    found = recover(j.storage.read(j.path), j.storage.read(j.mirror))
    return [(str(m.get("boot")), int(m.get("seq", -1))) for _, m in found.marks]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-game", type=int, default=60, help="trials on one data folder")
    ap.add_argument("--timeout", type=float, default=8.0, help="seconds a trial may take")
    ap.add_argument("--broken", action="store_true",
                    help="the service as before the fix (the check must find violations)")
    args = ap.parse_args()
    import logging

    logging.disable(logging.CRITICAL)
    # everything the child needs is imported before the first fork
    import gpiozero.pins.mock  # noqa: F401

    import companion.service.app  # noqa: F401
    from companion.dice.sim import SimulatedDice

    rng = random.Random(args.seed)
    dice = SimulatedDice(seed=args.seed, device_id="kills")
    acknowledged: set[int] = set()
    """Rolls an ACK took out of the dice's outbox (not those its full outbox dropped)."""
    link = dice._link  # noqa: SLF001 - the checker watches what the dice is told
    real = link.receive

    def receive(line: bytes, now: int) -> None:
        before = {seq for seq, _ in link.outbox}
        real(line, now)
        acknowledged.update(before - {seq for seq, _ in link.outbox})

    link.receive = receive
    root = Path(tempfile.mkdtemp(prefix="ack-kills-"))
    killed: Counter[str] = Counter()
    unreached: Counter[str] = Counter()
    violations: dict[tuple[str, int], str] = {}
    seen_rolls: set[int] = set()
    data = root / "game-0"
    first_seq = 0  # rolls from here on belong to this data folder
    t0 = time.monotonic()
    try:
        for trial in range(args.trials):
            if trial % args.per_game == 0:
                data = root / f"game-{trial // args.per_game}"
                data.mkdir()
                # rolls still unacknowledged belong to the last game: only later ones count here
                first_seq = max((seq for _, seq, _ in dice.sent), default=0) + 1
            point = POINTS[trial % len(POINTS)]
            nth = rng.randint(1, 3)
            pid = os.fork()
            if pid == 0:
                try:
                    child(data, dice.path, point, nth, args.broken)
                finally:
                    os._exit(3)
            deadline = time.monotonic() + args.timeout
            status = None
            while status is None:
                got, st = os.waitpid(pid, os.WNOHANG)
                if got:
                    status = st
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    status = os.waitpid(pid, 0)[1]
                    unreached[point] += 1
                    break
                if (data / "game.journal").exists() and dice.unacked < 24:
                    dice.roll(rng.randint(1, 6))  # (never so many that its outbox of 32 drops)
                time.sleep(rng.uniform(0.06, 0.16))
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                killed[point] += 1
            # the checker: the child is gone; the journal as a restart reads it
            with dice._lock:  # noqa: SLF001
                done = set(acknowledged)
            rolls = [seq for kind, seq, _ in dice.sent if kind == "ROLL" and
                     seq >= first_seq and seq in done]
            marks = Counter(seq for boot, seq in marks_of(data) if boot == dice.boot_id)
            seen_rolls.update(rolls)
            for seq in rolls:
                if marks[seq] != 1:
                    violations.setdefault((data.name, seq), (
                        f"trial {trial} ({point}, #{nth}): acknowledged roll {seq} is in the "
                        f"journal {marks[seq]} times"))
            for seq, n in marks.items():
                if n > 1:
                    violations.setdefault((data.name, seq), f"trial {trial}: roll {seq} "
                                                            f"journaled {n} times")
            if (trial + 1) % 100 == 0:
                print(f"  {trial + 1} trials, {len(seen_rolls)} acknowledged rolls checked, "
                      f"{len(violations)} violations ({time.monotonic() - t0:.0f} s)", flush=True)
    finally:
        dice.close()
    print(f"ack_kills: {args.trials} trials ({dict(killed)} killed at each point; "
          f"not reached within {args.timeout:g} s: {dict(unreached) or 0})")
    print(f"  acknowledged rolls checked after each kill: {len(seen_rolls)}; rolls the dice sent: "
          f"{sum(1 for k, _, _ in dice.sent if k == 'ROLL')}; dropped by its full outbox "
          f"(never acknowledged, counted as lost by the reader): {link.lost}")
    print(f"  violations (an acknowledged roll missing, or a roll journaled twice): "
          f"{len(violations)}")
    for v in list(violations.values())[:10]:
        print("   ", v)
    return 1 if violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
