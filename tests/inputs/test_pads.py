import pytest

from companion.inputs.pads import Pad, PadNameError, PadStuck, PadTouch


def test_pad_names_parse_and_reject_garbage():
    assert Pad.parse("3>g") == Pad(3, "g")
    assert Pad.parse("1>2").key == "1>2"
    with pytest.raises(PadNameError):
        Pad.parse("1-2")


def test_signals_name_their_pad():
    assert PadTouch(2, "g", 0.5, 12.0).pad == Pad(2, "g")
    assert PadStuck(1, 3).pad.key == "1>3"
