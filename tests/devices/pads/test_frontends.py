"""The declared pad types: plain data the configuration reads at start."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

from companion.devices.pads.frontends import PAD_TYPES
from companion.service.config import PadsConfig


def test_every_pad_type_is_declared_by_a_key_of_the_pads_section_with_its_figure():
    keys = {f.name: f.default for f in dataclasses.fields(PadsConfig)}
    for name, kind in PAD_TYPES.items():
        assert kind.name == name and kind.frontend in ("gpio", "hub", "mpr121")
        assert keys[kind.config_key] == kind.uncertainty_ms
        assert 0 <= kind.floor_ms <= kind.uncertainty_ms and kind.source


def test_reading_the_configuration_does_not_load_the_timing_book():
    code = ("import sys, companion.service.config; "
            "print(sorted(m for m in sys.modules if m == 'companion.devices.pads.timing'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_mpr121s_declared_figure_is_what_its_settings_give():
    from companion.devices.pads.mpr121 import DEFAULT_SETTINGS

    assert PAD_TYPES["mpr121"].uncertainty_ms == DEFAULT_SETTINGS.uncertainty_ms() == 8.0
