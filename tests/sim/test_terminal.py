from __future__ import annotations

import io
import time

from companion.service.config import Config
from companion.sim.terminal import HELP, KEYS, Simulator, sim_config
from companion.ui.views import ListView


def test_sim_config_uses_the_twins(tmp_path):
    cfg = sim_config(Config(), tmp_path)
    assert cfg.display.driver == "terminal" and cfg.service.pin_factory == "mock"
    assert cfg.service.data_dir == str(tmp_path) and cfg.service.shutdown_command == ""


def test_keys_reach_the_service_through_the_mock_pins(tmp_path):
    out = io.StringIO()
    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=out)
    import threading

    th = threading.Thread(target=sim.app.service.run, daemon=True)
    th.start()
    try:
        end = time.monotonic() + 5
        while not isinstance(sim.app.service.last_view, ListView) and time.monotonic() < end:
            time.sleep(0.01)
        assert sim.key("d")  # ▶ on the mock pin
        end = time.monotonic() + 5
        while sim.app.service.last_view.selected != 1 and time.monotonic() < end:
            time.sleep(0.01)
        assert sim.app.service.last_view.selected == 1
        assert sim.key("u") and not sim.dice.plugged
        assert "ODPOJENA" in out.getvalue()
        assert sim.key("u") and sim.dice.plugged
        assert sim.key("q") is False
        assert HELP in out.getvalue()
    finally:
        sim.app.service.stop()
        th.join(5)
        sim.app.close()
        sim.dice.close()


def test_every_key_is_documented_in_the_help_line():
    for key in KEYS:
        if len(key) == 1 and key.isalpha():
            assert f"{key} " in HELP or f"/{key} " in HELP, key


def test_with_the_hub_the_pad_keys_tap_a_simulated_pad_hub_for_six_seats(tmp_path):
    import queue
    from dataclasses import replace

    from companion.hardware.padhub import PadHub
    from companion.inputs.events import PadEvent
    from companion.inputs.pads import Pad, PadTouch

    base = sim_config(Config(), tmp_path)
    cfg = replace(base, pads=replace(base.pads, frontend="hub"),
                  game=replace(base.game, name="gobbit", seats=6))
    sim = Simulator(cfg, seed=3, stream=io.StringIO())
    try:
        assert sim.hub is not None and sim.app.hub_port == sim.hub.path
        sim.app.want_pads(6)
        assert isinstance(sim.app.pads, PadHub)
        keys = sim.pad_keys()
        assert len(keys) == 42 and keys["/"] == Pad(6, "g")
        end = time.monotonic() + 5
        while not sim.app.pads.connected and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.12)  # the hub's baselines settle
        assert sim.key("/")
        touch = None
        while touch is None and time.monotonic() < end + 5:
            try:
                event = sim.app.service.queue.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, PadEvent) and isinstance(event.event, PadTouch):
                touch = event.event
        assert touch is not None and touch.pad == Pad(6, "g")
    finally:
        sim.app.close()
        sim.dice.close()
        sim.hub.close()
