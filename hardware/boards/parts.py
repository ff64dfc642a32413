"""The parts the boards are made of: footprint, order codes, price and each pin's name and kind.

Pin kinds, as the electrical rules check reads them (:mod:`boards.erc`):
``I`` input, ``O`` output, ``B`` bidirectional, ``P`` passive, ``W`` power input (needs a
source on its net), ``S`` power source, ``N`` no internal connection (may stay open).

Order codes and unit prices are LCSC's catalogue as remembered for quantities of about
ten (USD), not fetched live: check each code in the cart before ordering (hardware/boards.md).
Parts that an assembly service does not place (modules, the Pico, the cell) say who sells
them in ``distributor``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KICAD_FP = "/usr/share/kicad/footprints"


@dataclass(frozen=True)
class Part:
    key: str
    value: str
    footprint: str  # "Library:Name" (a KiCad 6 library, or Companion: hardware/boards/footprints)
    manufacturer: str
    mpn: str
    distributor: str
    code: str  # the distributor's order code
    price: float  # USD per piece
    pins: dict[str, tuple[str, str]] = field(default_factory=dict)  # number -> (name, kind)
    smd: bool = True  # placed by the assembly service (else soldered by hand)


def _two(kind: str = "P", names: tuple[str, str] = ("1", "2")) -> dict[str, tuple[str, str]]:
    return {"1": (names[0], kind), "2": (names[1], kind)}


def _header(n: int) -> dict[str, tuple[str, str]]:
    return {str(i): (str(i), "P") for i in range(1, n + 1)}


# The Raspberry Pi's 40-pin header, seen from the HAT: the Pi is the power source.
PI_HEADER_NAMES = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "ID_SD", 28: "ID_SC", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}


def _pi_header() -> dict[str, tuple[str, str]]:
    pins = {}
    for num, name in PI_HEADER_NAMES.items():
        kind = "S" if name in ("3V3", "5V", "GND") else "B"
        pins[str(num)] = (name, kind)
    return pins


# The Raspberry Pi Pico / Pico W's 40 edge pins (GP23..GP25 and GP29 stay on the module).
PICO_NAMES = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6",
    10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13",
    18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19",
    26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "GND",
    34: "GP28", 35: "ADC_VREF", 36: "3V3_OUT", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}


def _pico() -> dict[str, tuple[str, str]]:
    kinds = {"GND": "W", "VSYS": "W", "3V3_OUT": "S", "VBUS": "P", "RUN": "N", "3V3_EN": "N",
             "ADC_VREF": "N"}
    return {str(n): (name, kinds.get(name, "B")) for n, name in PICO_NAMES.items()}


PARTS: dict[str, Part] = {p.key: p for p in [
    Part("pi_header", "Pi 2x20 socket", "Connector_PinSocket_2.54mm:PinSocket_2x20_P2.54mm_Vertical",
         "Ninigi", "2.54-2*20 female 8.5mm", "LCSC", "C2977589", 0.55, _pi_header(), smd=False),
    Part("hole_m25", "M2.5 hole", "MountingHole:MountingHole_2.7mm_M2.5", "-", "-", "-", "-", 0.0,
         {}, smd=False),
    Part("xh2", "JST XH 2p", "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical", "JST",
         "B2B-XH-A(LF)(SN)", "LCSC", "C158012", 0.05, _header(2), smd=False),
    Part("xh4", "JST XH 4p", "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical", "JST",
         "B4B-XH-A(LF)(SN)", "LCSC", "C144395", 0.07, _header(4), smd=False),
    Part("xh6", "JST XH 6p", "Connector_JST:JST_XH_B6B-XH-A_1x06_P2.50mm_Vertical", "JST",
         "B6B-XH-A(LF)(SN)", "LCSC", "C144396", 0.09, _header(6), smd=False),
    Part("xh7", "JST XH 7p", "Connector_JST:JST_XH_B7B-XH-A_1x07_P2.50mm_Vertical", "JST",
         "B7B-XH-A(LF)(SN)", "LCSC", "C144397", 0.10, _header(7), smd=False),
    Part("ph2", "JST PH 2p", "Connector_JST:JST_PH_B2B-PH-K_1x02_P2.00mm_Vertical", "JST",
         "B2B-PH-K-S(LF)(SN)", "LCSC", "C131337", 0.05, _header(2), smd=False),
    Part("tact", "6x6 tactile", "Button_Switch_THT:SW_PUSH_6mm", "XKB Connection",
         "TS-1102S-C-C-B", "LCSC", "C2888498", 0.06, _two(), smd=False),
    Part("r_1k", "1k", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF1001T5E", "LCSC",
         "C21190", 0.001, _two()),
    Part("r_470", "470", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF4700T5E", "LCSC",
         "C23179", 0.001, _two()),
    Part("r_10k", "10k", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF1002T5E", "LCSC",
         "C25804", 0.001, _two()),
    Part("r_4k7", "4.7k", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF4701T5E", "LCSC",
         "C23162", 0.001, _two()),
    Part("r_330", "330", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF3300T5E", "LCSC",
         "C23138", 0.001, _two()),
    Part("r_5k1", "5.1k", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF5101T5E", "LCSC",
         "C23186", 0.001, _two()),
    Part("r_100k", "100k", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF1003T5E", "LCSC",
         "C25803", 0.001, _two()),
    Part("r_390k", "390k", "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL", "0603WAF3903T5E", "LCSC",
         "C23156", 0.001, _two()),
    Part("c_100n", "100nF", "Capacitor_SMD:C_0603_1608Metric", "Samsung", "CL10B104KB8NNNC",
         "LCSC", "C1591", 0.002, _two()),
    Part("c_4u7", "4.7uF", "Capacitor_SMD:C_0805_2012Metric", "Samsung", "CL21A475KAQNNNE",
         "LCSC", "C1779", 0.006, _two()),
    Part("c_10u", "10uF", "Capacitor_SMD:C_0805_2012Metric", "Samsung", "CL21A106KAYNNNE",
         "LCSC", "C15850", 0.008, _two()),
    Part("ptc_500", "PTC 0.5A", "Fuse:Fuse_1206_3216Metric", "BHFUSE", "BSMD1206-050-16V",
         "LCSC", "C883128", 0.03, _two()),
    Part("ptc_100", "PTC 0.1A", "Fuse:Fuse_1206_3216Metric", "BHFUSE", "BSMD1206-010-30V",
         "LCSC", "C883124", 0.03, _two()),
    Part("schottky", "SS14", "Diode_SMD:D_SMA", "MDD", "SS14", "LCSC", "C2480", 0.01,
         _two("P", ("K", "A"))),
    Part("d_4148", "1N4148W", "Diode_SMD:D_SOD-123", "Diodes Inc", "1N4148W-7-F", "LCSC",
         "C81598", 0.01, _two("P", ("K", "A"))),
    Part("led", "LED red", "LED_SMD:LED_0603_1608Metric", "Hubei KENTO", "KT-0603R", "LCSC",
         "C2286", 0.005, _two("P", ("K", "A"))),
    Part("npn", "MMBT3904", "Package_TO_SOT_SMD:SOT-23", "CJ", "MMBT3904", "LCSC", "C20526",
         0.01, {"1": ("B", "P"), "2": ("E", "P"), "3": ("C", "P")}),
    Part("buzzer", "magnetic buzzer 5V", "Buzzer_Beeper:Buzzer_12x9.5RM7.6", "Jiangsu Huaneng",
         "MLT-1205 (passive, 5 V)", "LCSC", "C252948", 0.25, _two("P", ("+", "-")), smd=False),
    Part("usblc6", "USBLC6-2SC6", "Package_TO_SOT_SMD:SOT-23-6", "STMicroelectronics",
         "USBLC6-2SC6", "LCSC", "C7519", 0.10,
         {"1": ("IO1", "P"), "2": ("GND", "P"), "3": ("IO2", "P"), "4": ("IO2", "P"),
          "5": ("VBUS", "P"), "6": ("IO1", "P")}),
    Part("tpd4e", "TPD4E05U06", "Package_SON:USON-10_2.5x1.0mm_P0.5mm", "Texas Instruments",
         "TPD4E05U06DQAR", "LCSC", "C138714", 0.15,
         {"1": ("D1", "P"), "2": ("D2", "P"), "3": ("GND", "P"), "4": ("D3", "P"),
          "5": ("D4", "P"), "6": ("D4", "P"), "7": ("D3", "P"), "8": ("GND", "P"),
          "9": ("D2", "P"), "10": ("D1", "P")}),
    Part("max98357_mod", "MAX98357A module", "Connector_PinSocket_2.54mm:PinSocket_1x07_P2.54mm_Vertical",
         "Adafruit", "3006 (MAX98357A breakout)", "Adafruit", "3006", 5.95,
         {"1": ("LRC", "I"), "2": ("BCLK", "I"), "3": ("DIN", "I"), "4": ("GAIN", "N"),
          "5": ("SD", "N"), "6": ("GND", "W"), "7": ("VIN", "W")}, smd=False),
    Part("testpoint", "test point", "TestPoint:TestPoint_THTPad_2.0x2.0mm_Drill1.0mm", "-", "-",
         "-", "-", 0.0, {"1": ("TP", "P")}, smd=False),
    Part("pico", "Raspberry Pi Pico", "Companion:RaspberryPi_Pico_THT", "Raspberry Pi",
         "SC0915 (Pico)", "Raspberry Pi reseller", "SC0915", 4.00, _pico(), smd=False),
    Part("pico_w", "Raspberry Pi Pico W", "Companion:RaspberryPi_Pico_THT", "Raspberry Pi",
         "SC0918 (Pico W)", "Raspberry Pi reseller", "SC0918", 6.00, _pico(), smd=False),
    Part("hc4051", "74HC4051D", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm", "Nexperia",
         "74HC4051D,653", "LCSC", "C5666", 0.12,
         {"1": ("Y4", "P"), "2": ("Y6", "P"), "3": ("Z", "P"), "4": ("Y7", "P"), "5": ("Y5", "P"),
          "6": ("E", "I"), "7": ("VEE", "W"), "8": ("GND", "W"), "9": ("S2", "I"),
          "10": ("S1", "I"), "11": ("S0", "I"), "12": ("Y3", "P"), "13": ("Y0", "P"),
          "14": ("Y1", "P"), "15": ("Y2", "P"), "16": ("VCC", "W")}),
    Part("adxl345", "ADXL345", "Package_LGA:LGA-14_3x5mm_P0.8mm_LayoutBorder1x6y", "Analog Devices",
         "ADXL345BCCZ-RL7", "LCSC", "C9667", 3.50,
         {"1": ("VDDIO", "W"), "2": ("GND", "W"), "3": ("RES", "P"), "4": ("GND", "W"),
          "5": ("GND", "W"), "6": ("VS", "W"), "7": ("CS", "I"), "8": ("INT1", "O"),
          "9": ("INT2", "O"), "10": ("NC", "N"), "11": ("RES", "P"), "12": ("SDO", "I"),
          "13": ("SDA", "B"), "14": ("SCL", "I")}),
    Part("mcp73831", "MCP73831-2", "Package_TO_SOT_SMD:SOT-23-5", "Microchip",
         "MCP73831T-2ACI/OT", "LCSC", "C424093", 0.55,
         {"1": ("STAT", "O"), "2": ("VSS", "W"), "3": ("VBAT", "P"), "4": ("VDD", "W"),
          "5": ("PROG", "P")}),
    Part("slide", "SPDT slide switch", "Button_Switch_SMD:SW_SPDT_PCM12", "C&K", "PCM12SMTR",
         "LCSC", "C221841", 0.40,
         {"1": ("A", "P"), "2": ("COM", "P"), "3": ("B", "P")}),
    Part("lipo", "LiPo 1S 500mAh protected", "Connector_JST:JST_PH_B2B-PH-K_1x02_P2.00mm_Vertical",
         "Adafruit", "1578 (503035 cell, protection circuit, JST PH)", "Adafruit", "1578", 7.95,
         {"1": ("-", "S"), "2": ("+", "S")}, smd=False),
]}
