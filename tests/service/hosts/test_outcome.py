"""companion.service.hosts.outcome: what a host's step gives back, and an input's dice mark."""

from companion.inputs.events import ButtonPress, DiceLink, Dropped, Receipt, Rolled
from companion.service.hosts.base import Request
from companion.service.hosts.outcome import NOTHING, REFUSED, Beep, Outcome, asking, input_mark


def test_a_dice_event_waiting_for_its_acknowledgement_has_a_mark():
    assert input_mark(Rolled(4, 7, receipt=Receipt(), boot="B1")) == {
        "src": "dice", "boot": "B1", "seq": 7}
    assert input_mark(Dropped(8, receipt=Receipt(), boot="B1")) == {
        "src": "dice", "boot": "B1", "seq": 8}


def test_an_input_nobody_acknowledges_has_no_mark():
    assert input_mark(Rolled(4, 7)) is None  # no receipt: typed in, or a test's roll
    assert input_mark(Rolled(4, 7, receipt=Receipt())) is None  # no boot: no board to name
    assert input_mark(ButtonPress("select")) is None
    assert input_mark(DiceLink(True)) is None


def test_the_plain_outcomes():
    assert NOTHING.counted and not NOTHING.journaled and NOTHING.beep is None
    assert not REFUSED.counted and REFUSED.beep is Beep.ILLEGAL
    assert asking(None) == NOTHING
    assert asking(Request.SETUP) == Outcome(request=Request.SETUP)
