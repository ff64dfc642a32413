"""companion.dice.pixels.virtual: the virtual die answers and advertises as the protocol says."""

from __future__ import annotations

import pytest

from companion.dice.pixels import messages as m
from companion.dice.pixels.adapter import scan
from companion.dice.pixels.bumble_port import Air
from companion.dice.pixels.virtual import VirtualPixel, parse_script, seeded_faces
from companion.dice.sim import SimulatedDice
from tests.dice.pixels.support import until


def connect(air: Air, die: VirtualPixel) -> tuple[object, list[object]]:
    port = air.central()
    seen = scan(port, 0.2)
    got: list[object] = []
    link = air.loop.run(port.connect(seen[0].address, lambda b: got.append(m.parse(b)),
                                     lambda r: got.append(("lost", r))))
    return link, got


def test_it_advertises_its_state_and_battery(air: Air) -> None:
    die = VirtualPixel(air, "Kostka A", colorway=m.Colorway.AURORA_SKY, battery=64)
    seen = scan(air.central(), 0.2)
    assert len(seen) == 1
    a = seen[0].advert
    assert (a.name, a.colorway, a.battery_level, a.roll_state, a.kind) == (
        "Kostka A", m.Colorway.AURORA_SKY, 64, m.RollState.ON_FACE, m.DieType.D6)
    assert a.uuids == m.DIE_UUIDS
    die.close()


@pytest.mark.parametrize("legacy", [False, True])
def test_it_answers_who_are_you_in_either_layout(air: Air, legacy: bool) -> None:
    die = VirtualPixel(air, "Kostka", legacy=legacy)
    link, got = connect(air, die)
    assert link.uuids == (m.LEGACY_UUIDS if legacy else m.DIE_UUIDS)  # type: ignore[attr-defined]
    air.loop.run(link.write(bytes(m.WhoAreYou())))  # type: ignore[attr-defined]
    assert until(lambda: got)
    i_am = got[0]
    assert isinstance(i_am, m.IAmADie) and i_am.legacy is legacy
    assert len(bytes(i_am)) == (22 if legacy else 108)
    assert i_am.name == ("" if legacy else "Kostka")
    die.close()


def test_it_notifies_a_throw_and_acknowledges_a_blink(air: Air) -> None:
    die = VirtualPixel(air, "Kostka")
    link, got = connect(air, die)
    assert die.roll(4) == 4
    assert until(lambda: len(got) >= 4)
    assert [g.state for g in got[:4]] == [  # type: ignore[attr-defined]
        m.RollState.HANDLING, m.RollState.ROLLING, m.RollState.ROLLING, m.RollState.ROLLED]
    assert got[3] == m.RollStateMessage(m.RollState.ROLLED, 3)
    blink = m.Blink(2, 1000, 0xFF, 1 << 3, 0, 0)
    air.loop.run(link.write(bytes(blink)))  # type: ignore[attr-defined]
    assert until(lambda: m.BlinkAck() in got)
    assert die.blinks == [blink]
    air.loop.run(link.write(bytes(m.RequestBatteryLevel())))  # type: ignore[attr-defined]
    assert until(lambda: any(isinstance(g, m.BatteryLevel) for g in got))
    die.close()


def test_sleep_and_range_cut_the_link_and_stop_advertising(air: Air) -> None:
    die = VirtualPixel(air, "Kostka")
    link, got = connect(air, die)
    die.sleep()
    assert until(lambda: any(isinstance(g, tuple) for g in got))
    assert scan(air.central(), 0.15) == []
    die.wake()
    assert scan(air.central(), 0.15) != []
    die.away()
    assert scan(air.central(), 0.15) == []
    die.back()
    assert scan(air.central(), 0.15) != []
    die.close()


def test_seeded_faces_are_the_simulated_dice_s() -> None:
    with SimulatedDice(seed=3) as sim:
        theirs = [sim.roll() for _ in range(12)]
    faces = seeded_faces(3)
    assert [next(faces) for _ in range(12)] == theirs


def test_scripts() -> None:
    steps = parse_script("roll, roll:6, crooked, handle, sleep, wake, away, back, battery:9, wait:0")
    assert [s.action for s in steps] == ["roll", "roll", "crooked", "handle", "sleep", "wake",
                                         "away", "back", "battery", "wait"]
    for bad in ("", "roll:7", "fly", "battery:101", "wait:x"):
        with pytest.raises(ValueError):
            parse_script(bad)


def test_a_bad_name_or_face_is_refused(air: Air) -> None:
    with pytest.raises(ValueError):
        VirtualPixel(air, "x" * 32)
    die = VirtualPixel(air, "Kostka")
    with pytest.raises(ValueError):
        die.roll(7)
    with pytest.raises(ValueError):
        die.set_battery(101)
    die.close()
