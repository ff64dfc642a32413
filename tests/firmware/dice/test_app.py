"""dice.app: samples in, pips and frames out."""

from dice import app, link, protocol

from tests.firmware.dice.support import Clock, FakePin, ScriptedEntropy, decode_frames, lit
from tests.firmware.support import FakeStream

BOOT = "00C0FFEE"
REST = (0, 0, 1000)


class TraceSensor:
    """An accelerometer playing back a list of samples (then lying still)."""

    def __init__(self, samples=()):
        self.samples = list(samples)
        self.fail_next = 0

    def read_mg(self):
        if self.fail_next:
            self.fail_next -= 1
            raise OSError(5)
        return self.samples.pop(0) if self.samples else REST


def shake(ms):
    return [(2500, -300, 800) if i % 2 else (-1800, 600, -900) for i in range(ms // 10)]


def make(samples, entropy_bytes=(4,)):
    stream = FakeStream()
    leds = [FakePin() for _ in range(7)]
    status = FakePin()
    dice_link = link.Link(stream, "pico-9", "1.0.0", BOOT)
    dice = app.App(TraceSensor(samples), leds, dice_link, ScriptedEntropy(entropy_bytes), status_led=status)
    return dice, stream, leds, status


def run(dice, clock, ms):
    for _ in range(ms // 10):
        dice.step(clock.now)
        clock.advance(10)


def kinds(stream):
    return [frame[1] for frame in decode_frames(protocol, stream.take())]


def test_a_throw_sends_one_fair_roll_and_shows_it():
    # entropy: 254 is rejected, 4 gives face 5
    dice, stream, leds, status = make(shake(300) + [REST] * 100, entropy_bytes=(254, 4, 0, 0))
    clock = Clock()
    run(dice, clock, 2000)
    frames = decode_frames(protocol, stream.take())
    rolls = [f for f in frames if f[1] == "ROLL"]
    assert rolls[0] == ("D1", "ROLL", [BOOT, "1", "5"])
    assert all(f == rolls[0] for f in rolls)  # re-sent while unacknowledged, never renumbered
    assert frames[0][1] == "HELLO"
    assert lit(leds) == (0, 1, 3, 5, 6)  # five pips
    assert status.level == 1  # waiting for the companion's ack


def test_the_ack_clears_the_status_led():
    dice, stream, _leds, status = make(shake(300), entropy_bytes=(0, 0, 0, 0))
    clock = Clock()
    run(dice, clock, 1000)
    stream.incoming.extend(protocol.encode(protocol.COMPANION, "ACK", (BOOT, 1)))
    run(dice, clock, 20)
    assert status.level == 0 and dice.link.outbox == []


def test_shaking_spins_the_pips():
    dice, _stream, leds, _status = make(shake(1000))
    clock = Clock()
    seen = set()
    for _ in range(80):
        dice.step(clock.now)
        clock.advance(10)
        if len(lit(leds)) == 1:
            seen.add(lit(leds)[0])
    assert len(seen) >= 4


def test_a_drop_is_sent_and_flashed():
    fall = [(0, 0, 30)] * 40  # 400 ms weightless
    dice, stream, leds, _status = make([REST] * 10 + fall + [(900, 2500, 1500)], entropy_bytes=(0,) * 8)
    clock = Clock()
    run(dice, clock, 520)
    frames = decode_frames(protocol, stream.take())
    assert [f for f in frames if f[1] == "DROP"][0] == ("D1", "DROP", [BOOT, "1", "400"])
    run(dice, clock, 20)
    assert len(lit(leds)) in (0, 7)  # blinking all pips


def test_sensor_errors_are_counted_not_fatal():
    dice, stream, _leds, _status = make(shake(300), entropy_bytes=(0,) * 8)
    dice.accel.fail_next = 3
    clock = Clock()
    run(dice, clock, 2000)
    assert dice.sensor_errors == 3
    assert "ROLL" in kinds(stream)


class Cell:
    """A cell whose voltage a test sets (None: on USB)."""

    def __init__(self, mv):
        self.mv = mv

    def __call__(self):
        return self.mv


def make_with_cell(mv):
    from dice import battery

    stream = FakeStream()
    leds = [FakePin() for _ in range(7)]
    cell = Cell(mv)
    slept = []
    dice_link = link.Link(stream, "pico-9", "1.0.0", BOOT, cell)
    dice = app.App(TraceSensor(), leds, dice_link, ScriptedEntropy((4, 0, 0, 0)), battery=cell,
                   guard=battery.Guard(), power_off=lambda: slept.append(True))
    return dice, stream, leds, cell, slept


def test_a_low_cell_blinks_the_corners_and_tells_the_companion_at_once():
    dice, stream, leds, cell, slept = make_with_cell(3900)
    clock = Clock()
    run(dice, clock, 1500)
    stream.take()
    cell.mv = 3450
    run(dice, clock, 600)  # the next check is within a second
    frames = decode_frames(protocol, stream.take())
    beats = [f for f in frames if f[1] == "BEAT"]
    assert beats and beats[0][2] == [BOOT, "3450"]
    seen = set()
    for _ in range(60):
        dice.step(clock.now)
        clock.advance(10)
        seen.add(lit(leds))
    assert (0, 1, 5, 6) in seen  # the corners blink
    assert not slept


def test_an_empty_cell_darkens_the_die_and_puts_it_to_sleep():
    from dice import battery

    dice, stream, leds, cell, slept = make_with_cell(3900)
    clock = Clock()
    run(dice, clock, 1000)
    dice.roll(clock.now)
    cell.mv = 3250
    run(dice, clock, 1000 * (battery.CONFIRM + 1))
    assert slept == [True]
    assert lit(leds) == ()
    beats = [f for f in decode_frames(protocol, stream.take()) if f[1] == "BEAT"]
    assert beats[-1][2] == [BOOT, "3250"]  # the companion heard why
    stream.take()
    run(dice, clock, 2000)
    assert stream.take() == b""  # asleep: nothing more
    assert slept == [True]


def test_a_die_on_usb_never_sleeps():
    dice, stream, leds, cell, slept = make_with_cell(None)
    clock = Clock()
    run(dice, clock, 8000)
    assert not slept and dice.guard.state == 0
