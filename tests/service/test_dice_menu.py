"""companion.service.dice_menu: the "Kostka" screens, drawn whole, choosing and pairing."""

from __future__ import annotations

from companion.service.dice_menu import DiceMenu, FoundDie, kind_label
from companion.ui.screens import layout, problems


class Control:
    def __init__(self) -> None:
        self.kind, self.pixels_name, self.scanning = "serial", "", True
        self.found: list[FoundDie] = []
        self.chosen: list[tuple[str, str]] = []
        self.scans = 0

    def choose(self, kind: str, name: str = "") -> None:
        self.chosen.append((kind, name))
        self.kind, self.pixels_name = kind, name

    def scan_start(self) -> None:
        self.scans += 1

    def scan_stop(self) -> None:
        self.scanning = False

    def scan_results(self) -> list[FoundDie]:
        return self.found


def test_labels():
    assert kind_label("serial", "") == "naše" and kind_label("none", "") == "tlačítka"
    assert kind_label("pixels", "Kostka") == "Pixels Kostka" and kind_label("pixels", "") == "Pixels"
    assert kind_label("ble", "") == "naše (Bluetooth)"


def test_our_wireless_die_is_chosen_without_a_scan():
    c = Control()
    menu = DiceMenu(c)
    menu.open()
    menu.button("right")
    menu.button("right")
    assert menu.button("select")  # "Naše bezdrátová"
    assert c.chosen == [("ble", "")] and c.scans == 0


def test_pixels_scans_lists_the_dice_and_select_pairs_one():
    c = Control()
    menu = DiceMenu(c)
    menu.open()
    assert menu.view().title == "Kostka: naše" and menu.view().selected == 0
    assert not menu.button("right")
    assert not menu.button("select")  # Pixels: hledat
    assert c.scans == 1 and menu.view().title == "Pixels: hledám…"
    assert menu.view().items == ("Zpět",) and menu.view().footer == "Zapni kostku, zatřes jí."
    c.found = [FoundDie("a", "Modrá", "modrá", 80), FoundDie("b", "Žlutá", "bílá", 9, True)]
    assert menu.view().items == ("Modrá · modrá · 80 %", "Žlutá · bílá · 9 %+", "Zpět")
    menu.button("right")
    assert menu.button("select")
    assert c.chosen == [("pixels", "Žlutá")] and not c.scanning
    assert menu.label() == "Kostka: Pixels Žlutá"


def test_back_from_the_scan_and_from_the_kinds():
    c = Control()
    menu = DiceMenu(c)
    menu.open()
    menu.button("right")
    menu.button("select")
    assert not menu.button("select")  # "Zpět" in the scan: back to the kinds
    assert menu.screen == "kinds" and c.chosen == []
    menu.button("right")
    menu.button("right")
    menu.button("right")
    assert menu.button("select")  # "Zpět"
    assert c.chosen == []
    menu.button("left")


def test_every_dice_screen_is_drawn_whole():
    c = Control()
    c.found = [FoundDie("a", "Kostka s dlouhým jménem", "galaxie", 100)]
    menu = DiceMenu(c)
    menu.open()
    screens = [menu.view()]
    menu.button("right")
    menu.button("select")
    screens.append(menu.view())
    c.scanning = False
    screens.append(menu.view())
    for view in screens:
        assert problems(layout(view, 0.0)[1]) == [], view
