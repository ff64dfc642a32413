"""``companion run`` (the table service), ``companion sim`` (make run) and ``companion demo``."""

from __future__ import annotations

import argparse
import logging
import os
import signal
from pathlib import Path
from typing import Any

from companion.commandline import (
    DEFAULT_CONFIG,
    count_arg,
    folder,
    load_config,
    output_file,
    seconds_arg,
)
from companion.errors import UsageError
from companion.games import playable

log = logging.getLogger(__name__)

SIM_DATA = ".companion-sim"
SIM_WEB = "127.0.0.1:0"
"""Where ``companion sim`` serves the phone view unless told otherwise (loopback, a free port)."""


def _sigterm_to_quit(service: Any) -> None:
    def handler(signum: int, frame: Any) -> None:
        service.stop()
    signal.signal(signal.SIGTERM, handler)


def cmd_run(args: argparse.Namespace) -> int:
    from companion.service.app import build_app

    cfg = load_config(args, DEFAULT_CONFIG, games=playable())
    app = build_app(cfg, games=playable())
    _sigterm_to_quit(app.service)
    log.info("companion service started (display %s, dice %s)", cfg.display.driver,
             app.dice.serial_port or "none")
    return app.run()


def _phone(address: str | None, data: Path | None = None) -> Any:
    """A started phone view on ``HOST:PORT`` (``None``: none asked for); one sentence when
    the address is wrong or cannot be listened on.  With ``data`` (the data folder) its
    token and a port chosen for it are kept there: the same address at the next start."""
    if address is None:
        return None
    from companion.service.phone import KEPT_NAME, Phone, parse_address

    host, port = parse_address(address)
    return Phone(host, port, keep=data / KEPT_NAME if data is not None else None).start()


def cmd_sim(args: argparse.Namespace) -> int:
    from companion.sim.terminal import Simulator, sim_config

    data = folder(args.data_dir, "--data-dir")
    cfg = sim_config(load_config(args, games=playable()), data)
    if args.profile == "bonnet":
        from companion.service.pi_profiles import with_bonnet

        cfg = with_bonnet(cfg)
    if args.pads:
        from dataclasses import replace

        cfg = replace(cfg, pads=replace(cfg.pads, frontend=args.pads))
    if args.dice:
        from dataclasses import replace

        from companion.service.dice import CHOICE_FILE, DiceChoice, save_choice

        cfg = replace(cfg, dice=replace(cfg.dice, kind=args.dice))
        # said on the command line: this start uses it, whatever the table chose before
        save_choice(data / CHOICE_FILE, DiceChoice(args.dice, cfg.dice.pixels_name))
    if not args.verbose:
        # the terminal shows the OLED: log lines go to a file instead of over the picture
        root = logging.getLogger()
        for h in list(root.handlers):
            root.removeHandler(h)
        logging.basicConfig(filename=str(Path(args.data_dir) / "companion.log"),
                            level=logging.INFO, force=True,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    phone = _phone(None if args.no_web else args.web, data)
    try:
        if phone is not None:
            log.info("phone view: %s", phone.shown_url)
        announcer = None
        if args.wav is not None:  # the voice into a WAV file (real time), not the speaker
            from collections import deque

            from companion.devices.voice import WavAnnouncer

            announcer = WavAnnouncer(output_file(args.wav, "--wav"))
            announcer.history = deque(maxlen=None)  # every sentence, for the .txt beside it
        sim = Simulator(cfg, seed=args.seed, phone=phone, announcer=announcer)
        _sigterm_to_quit(sim.app.service)
        try:
            return sim.run()
        except KeyboardInterrupt:
            return 0
        finally:
            if announcer is not None:  # what was said, beside the audio (cut short: marked)
                lines = [a.text + (" [přerušeno]" if a.cut else "")
                         for a in announcer.history if not a.dropped]
                Path(args.wav).with_suffix(".txt").write_text(
                    "".join(f"{line}\n" for line in lines), "utf-8")
    finally:
        if phone is not None:
            phone.close()


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.sim.demo import run_demo

    games = [info.name for info in playable()]
    if args.game not in games:
        raise UsageError(f"The demo plays {', '.join(games)}, not {args.game!r}.")
    gif = output_file(args.gif, "--gif")
    wav = output_file(args.wav, "--wav") if args.wav is not None else None
    if args.linger and args.web is None:
        raise UsageError("--linger keeps the phone view open after the demo: give --web too.")
    if not args.verbose:  # the demo prints its result line and nothing else unless asked
        logging.getLogger().setLevel(logging.ERROR)
    cfg = load_config(args, games=playable())
    phone = _phone(args.web)
    try:
        if phone is not None:
            print(f"web: {phone.url}", flush=True)  # the first line: open it before the game
        result = run_demo(cfg, seed=args.seed, gif=gif, players=args.players,
                          max_rolls=args.max_rolls, frame_seconds=args.frame_ms / 1000,
                          game=args.game, wav=wav, phone=phone, dice=args.dice)
        spoken = f"  announcements: {result['said']}  wav: {result['wav']}" if wav else ""
        print(f"winner: {result['winner']}  rolls: {result['rolls']}  "
              f"frames: {result['frames']}  gif: {result['gif']}{spoken}", flush=True)
        if phone is not None and args.linger:
            _linger(args.linger)
    finally:
        if phone is not None:
            phone.close()
    return 0


def _linger(seconds: float) -> None:
    """Keep serving the last moment for ``seconds`` (Ctrl-C or SIGTERM ends it sooner)."""
    import threading

    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: done.set())
    try:
        done.wait(seconds)
    except KeyboardInterrupt:
        pass


def register(commands: Any, games: dict[str, Any]) -> None:
    p = commands.add_parser("run", help="run the table service (the default command)",
                            description="Run the table service with the configuration file "
                            f"(--config, default {DEFAULT_CONFIG}).")
    p.set_defaults(func=cmd_run)

    p = commands.add_parser("sim", help="the service with simulated hardware in this terminal")
    p.add_argument("--data-dir", default=os.environ.get("COMPANION_SIM_DATA", SIM_DATA),
                   help=f"where the simulated table keeps its game (default {SIM_DATA})")
    p.add_argument("--seed", type=count_arg(), default=None,
                   help="seed of the simulated dice (default: random)")
    p.add_argument("--pads", choices=("gpio", "hub", "mpr121"), default=None,
                   help="Gobbit's pads: GPIO touch modules on mock pins, a simulated pad hub "
                   "(up to 6 seats) or simulated MPR121 chips on I2C (up to 6 seats) (default: "
                   "the configuration's pads.frontend)")
    p.add_argument("--profile", choices=("bonnet",), default=None,
                   help="set the table up as setup-pi.sh's profile does: bonnet = the no-solder "
                   "box (the OLED Bonnet's joystick and buttons A, B; no buzzer; a Pixels die; "
                   "MPR121 pads)")
    p.add_argument("--dice", choices=("serial", "pixels", "none"), default=None,
                   help="the table's dice: our dice on a pty, a virtual Pixels die over an "
                   "in-process Bluetooth link, or none (default: the configuration's, or the "
                   "table's own choice)")
    p.add_argument("--web", default=SIM_WEB, metavar="HOST:PORT",
                   help="serve the phone view there; its URL is shown under the screen "
                   f"(default {SIM_WEB}: this computer only, any free port)")
    p.add_argument("--no-web", action="store_true", help="no phone view")
    p.add_argument("--wav", default=None, metavar="FILE",
                   help="the voice into this WAV file (every announcement, in real time, as "
                   "the speaker would play it) instead of the sound card, and its sentences "
                   "beside it (FILE with .txt)")
    p.set_defaults(func=cmd_sim)

    p = commands.add_parser("demo", help="a headless computer-only game recorded as a GIF "
                            "(and its announcements as a WAV)")
    p.add_argument("--game", default="clovece", metavar="GAME",
                   help="the game to play: any the companion knows, as in the set-up "
                   "(default: clovece)")
    p.add_argument("--seed", type=count_arg(), default=1,
                   help="seed of the dice and the computer's throws (default: 1)")
    p.add_argument("--gif", required=True, help="where to write the animated GIF")
    p.add_argument("--wav", default=None,
                   help="where to write every spoken announcement, in order, as one WAV")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=4,
                   help="players, all played by the computer (default: 4)")
    p.add_argument("--max-rolls", type=count_arg(1, 100_000), default=10_000,
                   help="stop after this many rolls (default: 10000)")
    p.add_argument("--dice", choices=("serial", "pixels"), default="serial",
                   help="the dice the computer throws: our dice on a pty or a virtual Pixels "
                   "die over an in-process Bluetooth link (the same GIF for a seed; default: "
                   "serial)")
    p.add_argument("--frame-ms", type=count_arg(10, 10_000), default=200,
                   help="how long each frame shows in the GIF (default: 200)")
    p.add_argument("--web", default=None, metavar="HOST:PORT",
                   help="serve the phone view of the game there (port 0: any free one); the "
                   "first line printed is 'web: URL'")
    p.add_argument("--linger", type=seconds_arg(), default=0.0, metavar="SECONDS",
                   help="with --web: keep serving the last moment this long after the game "
                   "(default: 0)")
    p.set_defaults(func=cmd_demo)
