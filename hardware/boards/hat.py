"""The table HAT: a Raspberry Pi HAT (65 x 56.5 mm) with the OLED's connector, three
buttons, the buzzer's driver, the MAX98357A amplifier module and the two cables that
leave the box (the dice's and the pad hub's), each with its fuse, back-feed diode,
series resistors and ESD array.

It is wired for the I2S set-up of companion/devices/pinmap.toml ([audio_i2s] and
[audio_i2s_moves]): the amplifier on GPIO18/19/21, the buzzer moved to GPIO12; the
three-button scheme; the dice and the pad hub share the Pi's UART (GPIO14/15), one
plugged at a time (Gobbit needs no dice).  No HAT ID EEPROM: ID_SD/ID_SC stay open.
"""

from __future__ import annotations

from .netlist import NC, Circuit

WIDTH, HEIGHT = 65.0, 56.5
HOLES = ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5))
# The header's pin 1 in board millimetres (x right, y down; the header along the top edge).
HEADER_PIN1 = (8.37, 4.77)

# pinmap.toml entry -> the net this board puts on that GPIO
PINMAP_NETS = {
    ("display", "sda"): "I2C_SDA",
    ("display", "scl"): "I2C_SCL",
    ("buttons", "left"): "BTN_LEFT",
    ("buttons", "select"): "BTN_SELECT",
    ("buttons", "right"): "BTN_RIGHT",
    ("audio_i2s", "bclk"): "I2S_BCLK",
    ("audio_i2s", "lrclk"): "I2S_LRCLK",
    ("audio_i2s", "din"): "I2S_DIN",
    ("audio_i2s_moves", "buzzer"): "BUZZER",
    ("dice_uart", "tx"): "UART_TX",
    ("dice_uart", "rx"): "UART_RX",
    ("padhub_uart", "tx"): "UART_TX",
    ("padhub_uart", "rx"): "UART_RX",
}

GPIO_NETS = {2: "I2C_SDA", 3: "I2C_SCL", 5: "BTN_LEFT", 6: "BTN_SELECT", 13: "BTN_RIGHT",
             18: "I2S_BCLK", 19: "I2S_LRCLK", 21: "I2S_DIN", 12: "BUZZER", 14: "UART_TX",
             15: "UART_RX"}


def circuit() -> Circuit:
    c = Circuit("hat", "Table HAT (Raspberry Pi HAT, 65 x 56.5 mm)")
    header: dict[str | int, str] = {}
    from .parts import PI_HEADER_NAMES
    for num, name in PI_HEADER_NAMES.items():
        if name in ("5V", "3V3", "GND"):
            header[num] = name
        elif name.startswith("GPIO") and int(name[4:]) in GPIO_NETS:
            header[num] = GPIO_NETS[int(name[4:])]
        else:
            header[num] = NC
    c.add("J1", "pi_header", header, note="Raspberry Pi 40-pin header (socket)")
    for i in range(4):
        c.add(f"H{i + 1}", "hole_m25")
    # OLED (in the lid, inside the box): 3.3 V, the Pi's own I2C pull-ups
    c.add("J2", "xh4", {1: "GND", 2: "3V3", 3: "I2C_SCL", 4: "I2C_SDA"},
          note="OLED: 1 GND, 2 VCC 3V3, 3 SCL, 4 SDA")
    # buttons to ground through 1 kOhm (the Pi's pull-ups)
    for n, (net, label) in enumerate([("BTN_LEFT", "◀"), ("BTN_SELECT", "●"),
                                      ("BTN_RIGHT", "▶")], start=1):
        c.add(f"R{n}", "r_1k", {1: net, 2: f"SW{n}_A"})
        c.add(f"SW{n}", "tact", {1: f"SW{n}_A", 2: "GND"}, note=f"button {label}")
    # buzzer: GPIO12 -> 470 R -> NPN base (10 k to GND); buzzer from 5 V to the collector,
    # the flyback diode across it
    c.add("R4", "r_470", {1: "BUZZER", 2: "BUZ_BASE"})
    c.add("R5", "r_10k", {1: "BUZ_BASE", 2: "GND"})
    c.add("Q1", "npn", B="BUZ_BASE", E="GND", C="BUZ_LOW")
    c.add("LS1", "buzzer", {1: "5V", 2: "BUZ_LOW"}, note="passive magnetic transducer, 5 V")
    c.add("D1", "d_4148", K="5V", A="BUZ_LOW")
    # MAX98357A module: I2S in, 5 V, speaker on the module's own terminal
    c.add("U1", "max98357_mod", {1: "I2S_LRCLK", 2: "I2S_BCLK", 3: "I2S_DIN", 4: NC, 5: NC,
                                 6: "GND", 7: "5V"}, note="MAX98357A breakout, GAIN open (9 dB)")
    c.add("C1", "c_100n", {1: "5V", 2: "GND"}, note="U1's decoupling")
    # the two cables that leave the box: 5 V through a PTC and a Schottky (no back-feed
    # into the Pi), TX/RX through 1 kOhm, an ESD array on every line at the connector
    for who, j, f, d, u, cap, rtx, rrx in [
            ("DICE", "J3", "F1", "D2", "U2", "C2", "R6", "R7"),
            ("HUB", "J4", "F2", "D3", "U3", "C3", "R8", "R9")]:
        c.add(f, "ptc_500", {1: "5V", 2: f"5V_{who}_F"})
        c.add(d, "schottky", A=f"5V_{who}_F", K=f"5V_{who}")
        c.add(rtx, "r_1k", {1: "UART_TX", 2: f"{who}_TX"})
        c.add(rrx, "r_1k", {1: "UART_RX", 2: f"{who}_RX"})
        c.add(u, "usblc6", IO1=f"{who}_TX", IO2=f"{who}_RX", VBUS=f"5V_{who}", GND="GND")
        c.add(cap, "c_100n", {1: f"5V_{who}", 2: "GND"}, note=f"{u}'s decoupling")
        c.add(j, "xh4", {1: "GND", 2: f"5V_{who}", 3: f"{who}_TX", 4: f"{who}_RX"},
              note=("dice" if who == "DICE" else "pad hub")
              + ": 1 GND, 2 5V out, 3 TX (Pi -> it), 4 RX (it -> Pi)")
    c.add("TP1", "testpoint", {1: "5V"}, note="5 V")
    c.add("TP2", "testpoint", {1: "3V3"}, note="3.3 V")
    c.add("TP3", "testpoint", {1: "GND"}, note="GND")
    c.notes += [
        "No HAT ID EEPROM: ID_SD and ID_SC (header pins 27, 28) are left open.",
        "The dice's and the hub's connectors share the Pi's UART: plug one at a time.",
    ]
    return c


# Where each part sits: centre of its body in board millimetres (x right, y down from the
# top-left corner), rotation in degrees, "B" for the bottom side.
PLACEMENT: dict[str, tuple[float, float, float]] = {
    "J2": (32.5, 12.5, 0),
    "SW1": (18.0, 47.0, 0), "SW2": (32.5, 47.0, 0), "SW3": (47.0, 47.0, 0),
    "R1": (18.0, 41.5, 0), "R2": (32.5, 41.5, 0), "R3": (47.0, 41.5, 0),
    "U1": (60.5, 25.0, 0), "C1": (56.0, 13.0, 0),
    "LS1": (49.5, 29.0, 0),
    "Q1": (43.0, 17.0, 0), "R4": (43.0, 12.5, 0), "R5": (40.5, 20.5, 0), "D1": (48.5, 12.5, 0),
    "J3": (5.5, 19.0, 90), "F1": (17.0, 12.0, 0), "D2": (22.0, 15.5, 0), "U2": (12.0, 19.0, 0),
    "C2": (12.0, 23.0, 0), "R6": (17.0, 17.5, 0), "R7": (17.0, 20.5, 0),
    "J4": (5.5, 36.0, 90), "F2": (17.0, 29.0, 0), "D3": (22.0, 32.5, 0), "U3": (12.0, 36.0, 0),
    "C3": (12.0, 40.0, 0), "R8": (17.0, 34.5, 0), "R9": (17.0, 37.5, 0),
    "TP1": (27.0, 28.0, 0), "TP2": (31.5, 28.0, 0), "TP3": (36.0, 28.0, 0),
}

CORNER = 3.0


# routed 0.5 mm wide (the rest 0.25 mm)
POWER_NETS = ("5V", "5V_DICE_F", "5V_DICE", "5V_HUB_F", "5V_HUB")


def placement() -> dict[str, dict]:
    """The job's placement: the header by its pins, the holes at the HAT's positions."""
    spec: dict[str, dict] = {ref: {"x": x, "y": y, "rot": r} for ref, (x, y, r) in PLACEMENT.items()}
    x1, y1 = HEADER_PIN1
    # the socket sits under the HAT (flipped), mating with the Pi's pins
    spec["J1"] = {"pins": {"1": [x1, y1], "2": [x1, y1 - 2.54], "3": [x1 + 2.54, y1]}, "side": "B"}
    for i, (x, y) in enumerate(HOLES, start=1):
        spec[f"H{i}"] = {"x": x, "y": y}
    return spec


def silk_texts() -> list[dict]:
    return [
        {"text": "1", "x": 6.6, "y": 4.77, "size": 1.0},
        {"text": "OLED", "x": 23.5, "y": 11.5, "size": 1.0},
        {"text": "GND VCC SCL SDA", "x": 32.5, "y": 16.6, "size": 0.8},
        {"text": "DICE", "x": 5.5, "y": 10.8, "size": 1.0},
        {"text": "PAD HUB", "x": 5.5, "y": 27.6, "size": 1.0},
        {"text": "1 GND 2 5V 3 TX 4 RX", "x": 7.0, "y": 44.2, "size": 0.6},
        {"text": "<", "x": 18.0, "y": 53.5, "size": 1.5},
        {"text": "O", "x": 32.5, "y": 53.5, "size": 1.5},
        {"text": ">", "x": 47.0, "y": 53.5, "size": 1.5},
        {"text": "MAX98357A", "x": 63.6, "y": 25.0, "size": 0.9, "rot": 90},
        {"text": "5V  3V3  GND", "x": 31.5, "y": 31.0, "size": 0.8},
        {"text": "companion table HAT", "x": 32.5, "y": 35.0, "size": 1.0},
    ]
