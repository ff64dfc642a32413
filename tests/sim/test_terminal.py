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
