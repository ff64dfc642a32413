"""``companion pads calibrate`` and ``companion pads show``: the slap pads' timing budget.

``calibrate`` opens the configured pads (GPIO or the pad hub, ``[pads]``), counts
the players' slaps (two neighbouring pads at once with one flat hand, each pad a
dozen times) until every pad has its share, then prints each pad's offset and the
spread left after the offsets, and stores them in the data folder, where the
service reads them (the judge's uncertainty, decision D28), but only when the
result is sound and better than the pad type's declared uncertainty (the rules of
companion.devices.pads.calibration.assess, the same as on the table's screen); otherwise
one sentence says why and what to do, nothing is stored and the command exits 1.
"--simulate SEED" slaps simulated pads instead (seeded per-pad delays: modules
like the TTP223 on mock pins, or the simulated hub), for a try without hardware;
"--clumsy" slaps them the way an uneven hand does.
"""

from __future__ import annotations

import argparse
import queue
import time
from typing import Any

from companion.commandline import DEFAULT_CONFIG, count_arg, load_config, seconds_arg
from companion.errors import UsageError
from companion.games import find_game, playable

CALIBRATE_TEXT = (
    "Slap two neighbouring pads at once with one flat hand, every pad a dozen times: the "
    "command measures each pad's offset and the spread left after the offsets, prints them, "
    "and stores them in the data folder for the referee when they are sound (enough slaps "
    "per pad, no pair of pads scattering far wider than the others) and better than the pad "
    "type's declared uncertainty; otherwise it says why, keeps the figure in force and exits "
    "1.")


def _book(cfg: Any) -> Any:
    from companion.devices.pads.timing import TIMING_FILE, TimingBook

    p = cfg.pads
    return TimingBook(p.pad_type, path=cfg.data_path / TIMING_FILE, overrides=p.declared_ms(),
                      use_calibration=p.use_calibration)


def _describe(cfg: Any) -> str:
    if cfg.pads.frontend == "hub":
        return f"the pad hub on {cfg.pads.hub_port}"
    if cfg.pads.frontend == "mpr121":
        return f"MPR121 touch controllers on I2C bus {cfg.display.i2c_port}"
    return f"{cfg.pads.module} modules on GPIO"


class _Source:
    """Where the touches come from: the real pads, or a simulated table slapping itself."""

    def __init__(self, cfg: Any, seats: int, offsets: Any, simulate: int | None, rounds: int,
                 events: queue.Queue[Any], clumsy: bool = False) -> None:
        from companion.devices.pads.calibration import pair_plan
        from companion.inputs.pads import table_pads

        self.events = events
        self.closers: list[Any] = []
        self.simulated_until: float | None = None
        pads = table_pads(seats)
        hub = cfg.pads.frontend == "hub"
        mpr121 = cfg.pads.frontend == "mpr121"
        if simulate is None:
            if mpr121:
                from companion.devices.pads.mpr121 import Mpr121Pads, open_bus

                try:
                    bus = open_bus(cfg.display.i2c_port)
                except OSError as exc:
                    raise UsageError(f"The I2C bus /dev/i2c-{cfg.display.i2c_port} cannot be "
                                     f"opened ({exc.__class__.__name__}).") from None
                try:
                    self.closers.append(Mpr121Pads.for_seats(seats, events.put, bus,
                                                             offsets=offsets, close_bus=True))
                except OSError as exc:
                    bus.close()
                    raise UsageError(str(exc)) from None
            elif hub:
                from companion.devices.pads.hub import PadHub

                self.closers.append(PadHub.for_seats(seats, events.put, cfg.pads.hub_port,
                                                     baudrate=cfg.pads.hub_baudrate,
                                                     offsets=offsets))
            else:
                from companion.devices.pads.gpio import SlapPads
                from companion.service.app import make_pin_factory

                try:
                    self.closers.append(SlapPads.from_pinmap(
                        cfg.pins, seats, events.put, offsets=offsets,
                        pin_factory=make_pin_factory(cfg.service.pin_factory)))
                except Exception as exc:
                    if exc.__class__.__module__.startswith("gpiozero"):
                        raise UsageError("No GPIO pins can be used here: try --simulate SEED, "
                                         "or set service.pin_factory = \"mock\".") from None
                    raise
            return
        from companion.devices.pads.sim import CLUMSY, FLAT, PadModel, run_plan

        plan = pair_plan(pads)
        hand = CLUMSY if clumsy else FLAT
        if mpr121:
            from companion.devices.pads.mpr121 import DEFAULT_SETTINGS, Mpr121Pads, mpr121_pads
            from companion.devices.pads.mpr121_sim import Mpr121Table, SimulatedMpr121Bus

            where = mpr121_pads(seats)
            bus = SimulatedMpr121Bus.for_pads(where, seed=simulate)
            chip_reader = Mpr121Pads(where, events.put, bus, offsets=offsets, start=False,
                                     ticks=lambda: bus.now_ms / 1000.0,
                                     ticks_diff=lambda a, b: float(a - b))
            self.closers.append(chip_reader)
            model = PadModel.seeded(pads, simulate, latency=(0.5, 5.0), jitter=(0.0, 0.3))
            chips = Mpr121Table(chip_reader, bus, poll_ms=DEFAULT_SETTINGS.poll_ms, model=model,
                                seed=simulate)
            run_plan(chips, plan, rounds, every_ms=400.0, hand=hand, seed=simulate)
        elif hub:
            from companion.devices.pads.hub import PadHub
            from companion.devices.pads.hub_sim import SimulatedHub

            model = PadModel.seeded(pads, simulate, latency=(0.5, 5.0), jitter=(0.0, 0.3))
            sim = SimulatedHub(seed=simulate, realtime=False, model=model)
            self.closers.append(sim)
            reader = PadHub.for_seats(seats, events.put, sim.path, offsets=offsets,
                                      reconnect_interval=0.05)
            self.closers.insert(0, reader)
            deadline = time.monotonic() + 5
            while not reader.connected and time.monotonic() < deadline:
                time.sleep(0.01)
            sim.run_until(100)
            run_plan(sim, plan, rounds, every_ms=400.0, hand=hand, seed=simulate)
        else:
            from companion.devices.pads.gpio import SlapPads
            from companion.devices.pads.sim import ClockedMockFactory, SimulatedTable

            factory = ClockedMockFactory()
            gpio = SlapPads.from_pinmap(cfg.pins, seats, events.put, pin_factory=factory,
                                        offsets=offsets)
            self.closers.append(gpio)
            table = SimulatedTable(gpio, factory, PadModel.ttp223(pads, simulate), seed=simulate)
            run_plan(table, plan, rounds, every_ms=400.0, hand=hand, seed=simulate)
        self.simulated_until = time.monotonic() + 10.0  # the hub's frames may still be on the way

    def close(self) -> None:
        for part in self.closers:
            part.close()


def refusal_text(refusal: Any) -> str:
    """Why a calibration is not stored and what to do (English, for the command line)."""
    keys = [p.key for p in refusal.pads]
    if refusal.rule == "few":
        if len(keys) == 1:
            return (f"pad {keys[0]} took part in only {refusal.slaps} of the {refusal.wanted} "
                    "slaps asked: slap across it more")
        return (f"pads {' '.join(keys)} took part in fewer than {refusal.wanted} slaps: "
                "slap across them more")
    if refusal.rule == "uneven":
        return (f"pads {keys[0]} and {keys[1]} were touched unevenly (their differences "
                f"scatter {refusal.ratio:.1f} times wider than the other pairs'): slap them "
                "again with one flat hand across both")
    return (f"the spread after the offsets, ±{refusal.spread_ms:.2f} ms, is no better than the "
            f"pad type's declared ±{refusal.declared_ms:.2f} ms: slap again with one flat hand "
            "across both pads")


def cmd_calibrate(args: argparse.Namespace) -> int:
    from companion.devices.pads.calibration import CalibrationError, CalibrationSession, assess
    from companion.errors import RefusedError
    from companion.inputs.pads import PadTouch, table_pads

    cfg = load_config(args, DEFAULT_CONFIG, games=playable())
    seats = args.seats or int(cfg.setup_defaults(find_game("gobbit"))["seats"])
    if not 2 <= seats <= cfg.pads.max_seats:
        raise UsageError(f"--seats must be 2 to {cfg.pads.max_seats} with {_describe(cfg)}, "
                         f"not {seats}.")
    book = _book(cfg)
    before = book.current()
    session = CalibrationSession(table_pads(seats), min_slaps=args.slaps)
    events: queue.Queue[Any] = queue.Queue()
    total = len(session.pads)
    if args.simulate is None:
        print(f"Calibrating the {total} pads of a {seats}-seat table ({_describe(cfg)}).")
        print(f"Slap two neighbouring pads at once with one flat hand, every pad {args.slaps} "
              "times, about once a second; Ctrl-C ends early.")
    source = _Source(cfg, seats, before.offsets_ms, args.simulate, args.slaps, events,
                     args.clumsy)
    deadline = time.monotonic() + args.timeout
    shown = 0
    try:
        while not session.ready:
            limit = source.simulated_until if source.simulated_until is not None else deadline
            if time.monotonic() > limit:
                break
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(event, PadTouch):
                session.feed(event)
            slaps = len(session.slaps)
            if args.simulate is None and slaps > shown:
                shown = slaps
                done, _ = session.progress
                print(f"slap {slaps}: {' '.join(p.key for p in session.slaps[-1])}"
                      f"  ({done}/{total} pads done)")
    except KeyboardInterrupt:
        print()
    finally:
        source.close()
    try:
        cal = session.result()
    except CalibrationError as exc:
        raise UsageError(str(exc)) from None
    if cal.missing:
        raise UsageError("These pads were never slapped together with the others: "
                         f"{' '.join(p.key for p in cal.missing)}; slap them too.")
    print(f"{total} pads, {cal.slaps} slaps ({_describe(cfg)}).")
    print("pad   offset ms  slaps  residual ms")
    for pad, ms, n in cal.table():
        print(f"{pad.key:<5} {ms:+9.2f}  {n:5d}  {cal.residual_ms[pad]:11.2f}")
    floor = book.kind.floor_ms
    within = max(cal.spread_ms, floor)
    print(f"Spread after the offsets: ±{within:.2f} ms (in force before: ±{before.uncertainty_ms:.2f} ms,"
          f" {'calibrated' if before.calibrated else 'declared'}).")
    refusal = assess(cal, declared_ms=book.declared.uncertainty_ms, min_slaps=args.slaps)
    kept = (f"the uncertainty in force stays ±{before.uncertainty_ms:.2f} ms "
            f"({'calibrated' if before.calibrated else 'declared'})")
    if refusal is not None:
        raise RefusedError(f"Not saved: {refusal_text(refusal)}; {kept}.")
    if args.dry_run:
        print("Not saved (--dry-run).")
        return 0
    try:
        book.path.parent.mkdir(parents=True, exist_ok=True)
        book.store(cal.offsets_ms, cal.spread_ms, cal.slaps, time.strftime("%Y-%m-%dT%H:%M:%S"))
    except OSError as exc:
        raise UsageError(f"The calibration cannot be saved in {book.path} "
                         f"({exc.strerror or exc}).") from None
    print(f"Saved to {book.path}: the judge now takes touches less than {within:.2f} ms apart "
          "as simultaneous.")
    return 0


def show_raw(cfg: Any, seats: int, simulate: int | None, timeout: float) -> int:
    """``companion pads show --raw``: the pad hub's raw charge counts, pad by pad, and the
    channels that look saturated, shorted, open or silent (hardware/guide/pads.md)."""
    from companion.devices.pads.hub import PadHub
    from companion.devices.pads.raw import microseconds
    from companion.inputs.pads import PadChannels

    if cfg.pads.frontend != "hub":
        raise UsageError("--raw reads the pad hub's charge counts; GPIO touch modules have none "
                         "(pads.frontend is \"gpio\").")
    events: queue.Queue[Any] = queue.Queue()
    closers: list[Any] = []
    port = cfg.pads.hub_port
    if simulate is not None:
        from companion.devices.pads.hub_sim import SimulatedHub

        sim = SimulatedHub(seed=simulate)
        closers.append(sim)
        port = sim.path
    hub = PadHub.for_seats(seats, events.put, port, baudrate=cfg.pads.hub_baudrate,
                           reconnect_interval=0.05)
    closers.insert(0, hub)
    deadline = time.monotonic() + timeout
    report = None
    try:
        while report is None and time.monotonic() < deadline:
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(event, PadChannels):
                report = event
        checks = hub.channel_checks()
        name = hub.hub_name
    finally:
        for part in closers:
            part.close()
    if report is None:
        raise UsageError(f"The pad hub on {port} sent no raw counts in {timeout:g} s: is it "
                         "connected and flashed (hardware/guide/pads.md)?")
    print(f"Pad hub {name} on {port}: the raw charge counts of {len(checks)} pads.")
    print("pad   ch  count     µs  pad pF  baseline")
    for c in checks:
        raw = c.raw
        assert raw is not None
        pf = f"{c.pad_pf:7.1f}" if c.pad_pf is not None else "      -"
        count = str(raw.count) if raw.count <= raw.limit else f">{raw.limit}"
        print(f"{c.pad.key:<5} {c.channel:2d} {count:>6} {microseconds(raw.count):6.1f} {pf}"
              f"  {raw.baseline:8d}")
    wrong = [c for c in checks if c.problem]
    if wrong:
        print(f"{len(wrong)} channel{'s' if len(wrong) > 1 else ''} look{'' if len(wrong) > 1 else 's'} "
              "wrong:")
        for c in wrong:
            print(c.sentence)
    else:
        print("No channel looks saturated, shorted, open or silent.")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from companion.devices.pads.frontends import PAD_TYPES

    cfg = load_config(args, DEFAULT_CONFIG, games=playable())
    if args.raw:
        return show_raw(cfg, args.seats or int(cfg.setup_defaults(find_game("gobbit"))["seats"]), args.simulate, args.timeout)
    book = _book(cfg)
    timing = book.current()
    kind = PAD_TYPES[timing.pad_type]
    print(f"Pads: {_describe(cfg)} ({timing.pad_type}).")
    if timing.calibrated:
        print(f"Uncertainty: ±{timing.uncertainty_ms:.2f} ms, calibrated {timing.measured or ''} "
              f"from {timing.slaps} slaps ({book.path}).")
        for pad, ms in sorted(timing.offsets_ms.items(), key=lambda kv: (kv[0].seat,
                                                                          str(kv[0].target))):
            print(f"{pad.key:<5} {ms:+9.2f} ms")
    else:
        print(f"Uncertainty: ±{timing.uncertainty_ms:.2f} ms, declared ({kind.source}).")
        if book.problem:
            print(book.problem)
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = commands.add_parser("pads", help="the slap pads' timing: calibrate, show",
                            description="The slap pads' timing budget (docs/players/gobbit-rules.md, D28).")
    sub = p.add_subparsers(dest="pads_command", metavar="COMMAND", required=True,
                           parser_class=type(p))
    c = sub.add_parser("calibrate", help="measure each pad's offset and the spread, and save them",
                       description=CALIBRATE_TEXT)
    c.add_argument("--seats", type=count_arg(2, 6), default=None,
                   help="seats of the table (default: the configuration's gobbit.seats)")
    c.add_argument("--slaps", type=count_arg(1, 1000), default=12,
                   help="slaps every pad should take part in (default: 12)")
    c.add_argument("--timeout", type=seconds_arg(), default=900.0,
                   help="give up after this many seconds (default: 900)")
    c.add_argument("--simulate", type=count_arg(), default=None, metavar="SEED",
                   help="slap simulated pads with per-pad delays drawn from SEED")
    c.add_argument("--clumsy", action="store_true",
                   help="with --simulate: slap the way an uneven hand does (to see a refusal)")
    c.add_argument("--dry-run", action="store_true", help="print, but do not save")
    c.set_defaults(func=cmd_calibrate)
    s = sub.add_parser("show", help="the uncertainty and offsets in force (--raw: the hub's "
                       "charge counts)")
    s.add_argument("--raw", action="store_true",
                   help="read the pad hub's raw charge counts and name saturated or open channels")
    s.add_argument("--seats", type=count_arg(2, 6), default=None,
                   help="with --raw: the seats whose pads to show (default: gobbit.seats)")
    s.add_argument("--simulate", type=count_arg(), default=None, metavar="SEED",
                   help="with --raw: read a simulated pad hub")
    s.add_argument("--timeout", type=seconds_arg(60.0), default=5.0,
                   help="with --raw: how long to wait for the hub's report (default: 5)")
    s.set_defaults(func=cmd_show)

