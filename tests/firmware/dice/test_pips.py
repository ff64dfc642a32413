"""dice.pips: the seven LEDs show the faces like a real die."""

from dice import pips

from tests.firmware.dice.support import FakePin, lit, raises


def test_each_face_lights_as_many_pips_as_it_shows():
    for face in range(1, 7):
        assert len(pips.mask(face)) == face


def test_faces_look_the_same_turned_upside_down():
    # LED i sits opposite LED 6 - i
    for face in range(1, 7):
        assert sorted(6 - index for index in pips.mask(face)) == sorted(pips.mask(face))


def test_show_switches_exactly_the_pattern():
    leds = [FakePin(1) for _ in range(7)]
    pips.show(leds, 5)
    assert lit(leds) == (0, 1, 3, 5, 6)
    pips.show(leds, 2)
    assert lit(leds) == (0, 6)
    pips.show(leds, 0)
    assert lit(leds) == ()


def test_no_face_seven():
    raises(ValueError, pips.mask, 7)


def test_spinner_walks_the_rim():
    seen = [pips.spin_frame(step)[0] for step in range(6)]
    assert sorted(seen) == [0, 1, 2, 4, 5, 6]
    assert pips.spin_frame(6) == pips.spin_frame(0)
