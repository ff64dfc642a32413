#!/usr/bin/env python3
"""Screenshots of the phone view for the README, through the real table service:
docs/img/web-<game>.png.

Each game is played by the service itself (App on mock pins, the pty dice, a display
that draws nowhere) with its phone view on a free loopback port, and headless Chromium
photographs the page at a phone's size:

* clovece, napij: the seeded computer-only game of ``companion demo`` (the same game
  for the same seed), the page showing its last moment;
* gobbit: the virtual deck at four seats, flipped until an attack is possible, then the
  attack and the owner's defence 7.4 ms later, closer than the pads can tell apart
  (the ruling says so).

    .venv/bin/python scripts/web-screenshots.py [--out docs/img] [--games clovece,napij,gobbit]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.gobbit.engine.judge import eats  # noqa: E402
from companion.inputs.events import PadEvent  # noqa: E402
from companion.inputs.pads import PadTouch  # noqa: E402
from companion.service.config import Config  # noqa: E402
from companion.service.phone import Phone  # noqa: E402
from companion.sim.demo import run_demo  # noqa: E402
from companion.ui.views import ListView  # noqa: E402
from companion.web.server import wait_until  # noqa: E402
from tests.service.rig import Rig  # noqa: E402
from tests.web.chromium import PHONE, chromium, screenshot  # noqa: E402

DEMO = {"clovece": {"seed": 4, "players": 4, "max_rolls": 60},
        "napij": {"seed": 2, "players": 4, "max_rolls": 40}}
"""The demo games photographed: ``companion demo --game G --seed S --players P
--max-rolls R`` plays the same ones."""


def demo_game(game: str, work: Path) -> Phone:
    """Play the demo game; its phone view (returned, still serving) shows the last moment."""
    phone = Phone().start()
    run_demo(Config(), gif=work / f"{game}.gif", game=game, phone=phone, **DEMO[game])
    return phone


def gobbit_game(work: Path) -> tuple[Phone, Callable[[], None]]:
    """A virtual deck at four seats, an attack and a defence inside the pads' uncertainty."""
    rig = Rig(work, web=True, game="gobbit", players=4, dice=False)
    phone = rig.app.phone
    assert phone is not None and wait_until(lambda: phone.url is not None, 10)
    rig.wait(lambda v: isinstance(v, ListView) and v.items[0] == "Hra: Gobbit (rozhodčí)")
    rig.press("select")  # the virtual deck
    rig.wait(lambda v: isinstance(v, ListView) and v.items[0] == "Hra: Gobbit (balíček)")
    rig.press("left")
    rig.wait(lambda v: isinstance(v, ListView) and v.selected == len(v.items) - 1)
    rig.press("select")
    host: Any = rig.app.controller.host
    assert wait_until(lambda: getattr(host, "virtual", None) is not None, 5)
    attack = None
    for _ in range(60):
        state = host.virtual.state
        tops = {s: state.top(s) for s in state.seats}
        attack = next(((a, b) for a in state.seats for b in state.seats
                       if a != b and tops[a] is not None and tops[b] is not None
                       and eats(tops[a], tops[b])), None)
        if attack is not None and len(host.virtual.actions) >= 6:
            break
        n = len(host.virtual.actions)
        rig.press("select")
        assert wait_until(lambda n=n: len(host.virtual.actions) > n, 3)  # type: ignore[misc]
    assert attack is not None, "no attack came up"
    attacker, victim = attack
    ms = 61_000.0
    rig.app.service.post(PadEvent(PadTouch(attacker, victim, ms, ms)))
    rig.app.service.post(PadEvent(PadTouch(victim, victim, ms + 7.4, ms + 7.4)))
    assert wait_until(lambda: host.virtual.last_ruling is not None
                      and not host.virtual.moment, 10)
    return phone, rig.stop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"), help="folder of the PNGs")
    parser.add_argument("--games", default="clovece,napij,gobbit",
                        help="comma-separated: clovece, napij, gobbit")
    parser.add_argument("--width", type=int, default=PHONE[0])
    parser.add_argument("--height", type=int, default=PHONE[1])
    parser.add_argument("--viewport", action="store_true",
                        help="only what the phone shows at first, not the whole page")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games = args.games.split(",")
    unknown = [g for g in games if g not in ("clovece", "napij", "gobbit")]
    if unknown:
        print(f"web-screenshots: no game {', '.join(unknown)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="companion-shots-") as tmp, \
            chromium((args.width, args.height)) as driver:
        for name in games:
            work = Path(tmp) / name
            work.mkdir()
            stop: Callable[[], None] = lambda: None  # noqa: E731
            if name == "gobbit":
                phone, stop = gobbit_game(work)
            else:
                phone = demo_game(name, work)
            try:
                view = phone.view
                assert view is not None and phone.url is not None
                driver.get(phone.url)
                body = driver.find_element("tag name", "body")
                time.sleep(0.5)  # the last moment reaches the server
                if not (wait_until(lambda: view.seq >= 1)  # noqa: B023
                        and wait_until(lambda: body.get_attribute("data-seq")  # noqa: B023
                                       == str(view.seq), 10)):  # noqa: B023
                    print(f"{name}: the page did not show the game", file=sys.stderr)
                    return 1
                driver.execute_script("window.scrollTo(0, 0)")
                time.sleep(1.4)  # let the status highlight fade
                print(screenshot(driver, out / f"web-{name}.png", full=not args.viewport))
            finally:
                stop()
                phone.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
