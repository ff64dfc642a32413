"""``companion run`` (the table service), ``companion sim`` (make run) and ``companion demo``."""

from __future__ import annotations

import argparse
import logging
import os
import signal
from pathlib import Path
from typing import Any

from companion.errors import UsageError
from companion.service.config import Config, ConfigError, load

log = logging.getLogger(__name__)

DEFAULT_CONFIG = "/etc/companion/companion.toml"
SIM_DATA = ".companion-sim"


def _config(args: argparse.Namespace, default: str | None = None) -> Config:
    path = getattr(args, "config", None) or default
    if path is None:
        return Config()
    if path == default and not Path(path).exists():
        return Config()
    try:
        return load(path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _sigterm_to_quit(service: Any) -> None:
    def handler(signum: int, frame: Any) -> None:
        service.stop()
    signal.signal(signal.SIGTERM, handler)


def cmd_run(args: argparse.Namespace) -> int:
    from companion.service.app import App

    cfg = _config(args, DEFAULT_CONFIG)
    app = App(cfg)
    _sigterm_to_quit(app.service)
    log.info("companion service started (display %s, dice %s)", cfg.display.driver,
             app.dice_port or "none")
    return app.run()


def cmd_sim(args: argparse.Namespace) -> int:
    from companion.sim.terminal import Simulator, sim_config

    cfg = sim_config(_config(args), Path(args.data_dir))
    Path(args.data_dir).mkdir(parents=True, exist_ok=True)
    if not args.verbose:
        # the terminal shows the OLED: log lines go to a file instead of over the picture
        root = logging.getLogger()
        for h in list(root.handlers):
            root.removeHandler(h)
        logging.basicConfig(filename=str(Path(args.data_dir) / "companion.log"),
                            level=logging.INFO, force=True,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    sim = Simulator(cfg, seed=args.seed)
    _sigterm_to_quit(sim.app.service)
    try:
        return sim.run()
    except KeyboardInterrupt:
        return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.sim.demo import run_demo

    if args.game != "clovece":
        raise UsageError(f"The demo plays clovece only, not {args.game!r}.")
    result = run_demo(_config(args), seed=args.seed, gif=Path(args.gif), players=args.players,
                      max_rolls=args.max_rolls, frame_seconds=args.frame_ms / 1000)
    print(f"winner: {result['winner']}  rolls: {result['rolls']}  "
          f"frames: {result['frames']}  gif: {result['gif']}")
    return 0


def register(commands: Any, games: dict[str, Any]) -> None:
    p = commands.add_parser("run", help="run the table service (the default command)")
    p.set_defaults(func=cmd_run)

    p = commands.add_parser("sim", help="the service with simulated hardware in this terminal")
    p.add_argument("--data-dir", default=os.environ.get("COMPANION_SIM_DATA", SIM_DATA),
                   help=f"where the simulated table keeps its game (default {SIM_DATA})")
    p.add_argument("--seed", type=int, default=None, help="seed of the simulated dice")
    p.set_defaults(func=cmd_sim)

    p = commands.add_parser("demo", help="a headless computer-only game recorded as a GIF")
    p.add_argument("--game", default="clovece")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gif", required=True, help="where to write the animated GIF")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    p.add_argument("--max-rolls", type=int, default=10_000)
    p.add_argument("--frame-ms", type=int, default=200)
    p.set_defaults(func=cmd_demo)
