#!/usr/bin/env python3
"""Screenshots of the phone view for the README: docs/img/web-<game>.png.

Starts a WebView on loopback, publishes each scripted game of
companion.web.samples (a moment, a roll or touches, the move) and photographs
the page in headless Chromium at a phone's size once the last snapshot shows.

    .venv/bin/python scripts/web-screenshots.py [--out docs/img] [--games clovece,napij]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.web.samples import SCRIPTS, SHOWCASE  # noqa: E402
from companion.web.server import WebView, wait_until  # noqa: E402
from tests.web.chromium import PHONE, chromium, screenshot  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"), help="folder of the PNGs")
    parser.add_argument("--games", default="clovece,napij,gobbit,referee",
                        help="comma-separated scripts of companion.web.samples")
    parser.add_argument("--width", type=int, default=PHONE[0])
    parser.add_argument("--height", type=int, default=PHONE[1])
    parser.add_argument("--viewport", action="store_true",
                        help="only what the phone shows at first, not the whole page")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with WebView("127.0.0.1", 0) as view, chromium((args.width, args.height)) as driver:
        driver.get(view.url)
        body = driver.find_element("tag name", "body")
        for name in args.games.split(","):
            seq = view.seq
            view.publish(SCRIPTS[name]()[SHOWCASE.get(name, -1)])
            if not (wait_until(lambda: view.seq > seq)  # noqa: B023
                    and wait_until(lambda: body.get_attribute("data-seq") == str(view.seq))):
                print(f"{name}: the page did not show the snapshot", file=sys.stderr)
                return 1
            driver.execute_script("window.scrollTo(0, 0)")
            time.sleep(1.4)  # let the status highlight fade
            print(screenshot(driver, out / f"web-{name}.png", full=not args.viewport))
    return 0


if __name__ == "__main__":
    sys.exit(main())
