"""Debian's Chromium driven headless through chromium-driver (Selenium), for the page tests
and ``scripts/web-screenshots.py``.

The flags keep Chromium off the network (this machine's network is closed, and a
browser that phones home floods refused connections) and out of the sandbox
(tests run as root).  Selenium is handed both paths, so Selenium Manager never
runs (it would try to download a driver).
"""

from __future__ import annotations

import base64
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio")
PHONE = (412, 915)
"""A phone in portrait (CSS pixels)."""


def paths() -> tuple[str, str] | None:
    """(chromium, chromedriver) when both are installed (``scripts/system-deps.sh``)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@contextmanager
def chromium(size: tuple[int, int] = PHONE, scale: float = 2.0) -> Iterator[Any]:
    """A headless Chromium showing pages at ``size`` CSS pixels (``scale`` device pixels
    each), as a Selenium WebDriver; its profile lives in a temporary directory."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    found = paths()
    if found is None:
        raise RuntimeError("Chromium and chromium-driver are not installed "
                           "(scripts/system-deps.sh installs them).")
    browser, driver_path = found
    profile = tempfile.mkdtemp(prefix="companion-chromium-")
    options = Options()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": scale, "mobile": True})
        driver.set_page_load_timeout(20)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot(driver: Any, path: str | Path, full: bool = True) -> Path:
    """Save a PNG of the page (``full``: the whole page, not just the viewport)."""
    params: dict[str, Any] = {"format": "png"}
    if full:
        metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        params.update(captureBeyondViewport=True, clip={
            "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", params)
    out = Path(path)
    out.write_bytes(base64.b64decode(shot["data"]))
    return out
