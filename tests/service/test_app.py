"""The App's wiring of the pads: the front end from [pads], the timing book, offsets applied."""

from __future__ import annotations

import queue
import time
from dataclasses import replace

from gpiozero.pins.mock import MockFactory

from companion.hardware.display import create_device
from companion.hardware.padhub import PadHub
from companion.hardware.padhub_sim import SimulatedHub
from companion.hardware.pads import SlapPads
from companion.hardware.padtiming import TIMING_FILE, TimingBook
from companion.inputs.events import PadEvent
from companion.inputs.pads import Pad, PadLink, PadTouch
from companion.service.app import App

from .rig import rig_config


def app_for(tmp_path, **pads):
    cfg = rig_config(tmp_path)
    cfg = replace(cfg, pads=replace(cfg.pads, **pads))
    return App(cfg, pin_factory=MockFactory(), device=create_device("dummy"), dice_port="",
               hub_port=pads.get("hub_port"))


def drain(app: App, timeout: float = 5.0, want=lambda e: True) -> list:
    got, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            event = app.service.queue.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(event, PadEvent):
            got.append(event.event)
            if want(got):
                break
    return got


def test_gpio_pads_get_the_stored_offsets_and_every_new_calibration(tmp_path):
    TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE).store({Pad(2, 1): 10.0}, 4.0, 24)
    app = app_for(tmp_path)
    try:
        assert app.pad_timing.current().uncertainty_ms == 4.0
        assert app.ctx.pad_timing is app.pad_timing and app.ctx.defaults["max_seats"] == 4
        app.want_pads(2)
        assert isinstance(app.pads, SlapPads)
        pads = app.pads
        pads.device(Pad(1, 1)).pin.drive_high()
        pads.device(Pad(2, 1)).pin.drive_high()
        first, second = [e for e in drain(app, 1.0, lambda g: len(g) == 2)]
        assert second.ms - first.ms < 0  # edges microseconds apart, pad 2's 10 ms taken off
        app.pad_timing.store({Pad(2, 1): -10.0}, 3.0, 12)  # now it reports on time
        pads.device(Pad(1, 1)).pin.drive_low()
        pads.device(Pad(2, 1)).pin.drive_low()
        time.sleep(0.02)
        pads.device(Pad(2, 1)).pin.drive_high()
        [third] = drain(app, 1.0, lambda g: len(g) == 1)
        assert third.ms - (second.ms + 10.0) >= 0  # its offset is 0 now
    finally:
        app.close()


def test_a_calibration_of_the_other_front_end_falls_back_to_the_declared_figure(tmp_path):
    TimingBook("padhub", path=tmp_path / TIMING_FILE).store({}, 1.2, 24)
    app = app_for(tmp_path, ttp223_fast_ms=45.0)
    try:
        assert app.pad_timing.current().uncertainty_ms == 45.0
        assert "padhub" in app.pad_timing.problem
    finally:
        app.close()


def test_the_hub_front_end_claims_a_pad_hub_for_six_seats(tmp_path):
    with SimulatedHub(seed=2, realtime=False) as hub:
        app = app_for(tmp_path, frontend="hub", hub_port=hub.path)
        try:
            assert app.ctx.defaults["max_seats"] == 6
            assert app.pad_timing.current().uncertainty_ms == 1.0
            app.want_pads(6)
            assert isinstance(app.pads, PadHub) and len(app.pads.pads) == 42
            got = drain(app, 5.0, lambda g: any(isinstance(e, PadLink) and e.up for e in g))
            assert PadLink(True, "sim-hub sim-1.0.0") in got
            hub.run_until(100)
            hub.slap([Pad(6, "g")], 200.0)
            hub.run_until(400)
            touches = drain(app, 5.0, lambda g: any(isinstance(e, PadTouch) for e in g))
            assert [e.pad for e in touches if isinstance(e, PadTouch)] == [Pad(6, "g")]
            app.want_pads(None)
            assert app.pads is None
        finally:
            app.close()
