"""companion.dice.pixels.adapter against the virtual die on bumble: the events the service
knows, each roll exactly once through link drops and duplicates, reconnection with a
bounded back-off, the battery said once, the roll's verdict blinked on the die."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.dice.pixels.adapter import (
    AWAY,
    DiceCrooked,
    DiceLowBattery,
    PixelsDice,
    roll_blink,
)
from companion.dice.pixels.bumble_port import Air
from companion.dice.pixels.messages import BatteryState
from companion.dice.pixels.virtual import VirtualPixel
from companion.dice.reader import DiceConnected, DiceDisconnected, DiceRoll
from tests.dice.pixels.support import until


@pytest.fixture
def table(air: Air) -> Iterator[tuple[VirtualPixel, PixelsDice, list[object]]]:
    die = VirtualPixel(air, "Kostka", seed=7)
    events: list[object] = []
    dice = PixelsDice(air.central(), events.append, name="Kostka", backoff=0.02,
                      backoff_max=0.16, scan_window=0.1)
    dice.start()
    assert until(lambda: dice.connected)
    yield die, dice, events
    dice.stop()
    die.close()


def rolls(events: list[object]) -> list[int]:
    return [e.value for e in events if isinstance(e, DiceRoll)]


def test_it_connects_and_delivers_rolls(table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    assert isinstance(events[0], DiceConnected) and events[0].device_id == "Kostka"
    faces = [die.roll() for _ in range(5)]
    assert until(lambda: len(rolls(events)) == 5)
    assert rolls(events) == faces
    assert [e.seq for e in events if isinstance(e, DiceRoll)] == [1, 2, 3, 4, 5]


def test_each_roll_once_through_drops_and_duplicates(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    rng = random.Random(5)
    die.duplicate = True
    faces = []
    for n in range(40):
        if n % 3 == 0:
            die.drop_link_at(rng.randint(1, 3))
        faces.append(die.roll())
        assert until(lambda: len(rolls(events)) == len(faces) and dice.connected)
    assert rolls(events) == faces
    assert dice.stats.lost >= 13 and dice.stats.duplicates > 0


def test_handling_without_a_throw_is_no_roll(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    die.handle()
    die.roll(2)
    assert until(lambda: rolls(events) == [2])


def test_a_crooked_landing_asks_for_another_throw(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    die.crooked()
    assert until(lambda: any(isinstance(e, DiceCrooked) for e in events))
    assert rolls(events) == []


def test_a_low_battery_is_said_once_until_charged(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    for level in (14, 12, 9):
        die.set_battery(level)
    assert until(lambda: any(isinstance(e, DiceLowBattery) for e in events))
    die.set_battery(8)
    die.set_battery(50, BatteryState.CHARGING)
    die.set_battery(13)
    assert until(lambda: len([e for e in events if isinstance(e, DiceLowBattery)]) == 2)
    assert [e.percent for e in events if isinstance(e, DiceLowBattery)] == [14, 13]


def test_sleep_and_range_are_said_and_it_reconnects_with_a_bounded_back_off(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    die.sleep()
    assert until(lambda: DiceDisconnected(AWAY) in events)
    assert until(lambda: len(dice.delays) >= 6, 10)
    assert max(dice.delays) == 0.16 and dice.delays[:4] == [0.02, 0.04, 0.08, 0.16]
    die.wake()
    assert until(lambda: dice.connected)
    die.away()
    assert until(lambda: events.count(DiceDisconnected(AWAY)) == 2)
    die.back()
    assert until(lambda: dice.connected)
    assert die.roll(6) == 6
    assert until(lambda: rolls(events) == [6])


def test_a_throw_while_the_link_is_down_is_read_from_the_die_when_it_is_back(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    die.drop_link_at(3)  # the landing's notification is lost with the link
    die.roll(5)
    assert until(lambda: rolls(events) == [5])


def test_the_verdict_blinks_on_the_die(
        table: tuple[VirtualPixel, PixelsDice, list[object]]) -> None:
    die, dice, events = table
    die.roll(3)
    assert until(lambda: rolls(events) == [3])
    dice.blink_roll(3, True, 1)
    dice.blink_roll(3, False, None)
    assert until(lambda: len(die.blinks) == 2)
    assert die.blinks == [roll_blink(2, True, 1), roll_blink(2, False, None)]
    counted, refused = die.blinks
    assert counted.face_mask == 1 << 2 and counted.colour == 0x0000FF and counted.count == 2
    assert refused.face_mask == 0xFFFFFFFF and refused.colour == 0xFF0000 and refused.count == 3


def test_it_pairs_the_named_die_among_several(air: Air) -> None:
    other = VirtualPixel(air, "Cizí")
    mine = VirtualPixel(air, "Moje", legacy=True)
    events: list[object] = []
    dice = PixelsDice(air.central(), events.append, name="Moje", backoff=0.02, scan_window=0.1)
    dice.start()
    assert until(lambda: dice.connected)
    other.roll(1)
    mine.roll(4)
    assert until(lambda: rolls(events) == [4])
    dice.stop()
    other.close()
    mine.close()


def test_bad_timings_are_refused(air: Air) -> None:
    with pytest.raises(ValueError):
        PixelsDice(air.central(), print, backoff=0)
