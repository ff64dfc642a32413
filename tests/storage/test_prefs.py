"""The preferences on disk: what a hand-edited settings.json may hold."""

from __future__ import annotations

import json

import pytest

from companion.storage.prefs import Prefs, load_prefs, save_prefs


@pytest.mark.parametrize("contrast", [99999, -1, 256, 12.5, True, "255", None])
def test_a_contrast_the_panel_cannot_take_is_the_default(tmp_path, contrast):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"contrast": contrast, "sound": False}), "utf-8")
    prefs = load_prefs(path, Prefs(contrast=128))
    assert prefs.contrast == 128 and prefs.sound is False  # the rest of the file still counts


@pytest.mark.parametrize("contrast", [0, 48, 200, 255])
def test_a_contrast_the_panel_takes_is_kept(tmp_path, contrast):
    path = tmp_path / "settings.json"
    save_prefs(path, Prefs(contrast=contrast))
    assert load_prefs(path, Prefs()).contrast == contrast
