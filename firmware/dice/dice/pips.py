"""The pips: seven LEDs laid out like a die face.

Index of each LED (a list of seven pins, each with ``value(0 | 1)``)::

    0 . 1
    2 3 4
    5 . 6
"""

PATTERNS = {
    0: (),
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}

# A pip running around the rim while the dice is shaken.
SPIN = (0, 1, 4, 6, 5, 2)
ALL = (0, 1, 2, 3, 4, 5, 6)


def mask(value):
    """The set of LED indexes lit for a face 1..6 (0 = all off)."""
    if value not in PATTERNS:
        raise ValueError("a face is 1..6")
    return PATTERNS[value]


def light(leds, lit):
    """Switch the LEDs so that exactly the indexes in ``lit`` are on."""
    for index, led in enumerate(leds):
        led.value(1 if index in lit else 0)


def show(leds, value):
    """Show a face 1..6 (0 clears)."""
    light(leds, mask(value))


def spin_frame(step):
    """The LEDs lit at animation step ``step`` of the shaking spinner."""
    return (SPIN[step % len(SPIN)],)
