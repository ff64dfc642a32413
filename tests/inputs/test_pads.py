import pytest

from companion.inputs.pads import Pad, PadNameError, PadStuck, PadTouch, table_pads


def test_pad_names_parse_and_reject_garbage():
    assert Pad.parse("3>g") == Pad(3, "g")
    assert Pad.parse("1>2").key == "1>2"
    with pytest.raises(PadNameError):
        Pad.parse("1-2")


def test_signals_name_their_pad():
    assert PadTouch(2, "g", 0.5, 12.0).pad == Pad(2, "g")
    assert PadStuck(1, 3).pad.key == "1>3"


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_table_has_a_pad_for_each_seat_on_every_pile_and_the_graveyard(seats):
    pads = table_pads(seats)
    assert len(pads) == len(set(pads)) == seats * (seats + 1)
    assert Pad(1, "g") in pads and Pad(seats, seats) in pads and Pad(seats + 1, 1) not in pads
