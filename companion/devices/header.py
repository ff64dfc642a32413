"""The Raspberry Pi 40-pin header: which physical pin carries which BCM GPIO."""

from __future__ import annotations

PHYSICAL_TO_BCM: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
    33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}
"""Physical header pin -> BCM GPIO number (the other pins are power and ground)."""

BCM_TO_PHYSICAL: dict[int, int] = {bcm: phys for phys, bcm in PHYSICAL_TO_BCM.items()}

POWER_AND_GROUND: dict[int, str] = {
    1: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3", 20: "GND",
    25: "GND", 30: "GND", 34: "GND", 39: "GND",
}

RESERVED: dict[int, str] = {0: "ID EEPROM (ID_SD)", 1: "ID EEPROM (ID_SC)"}
"""BCM GPIOs no device of ours may use: the HAT ID EEPROM bus."""

assert len(PHYSICAL_TO_BCM) + len(POWER_AND_GROUND) == 40
