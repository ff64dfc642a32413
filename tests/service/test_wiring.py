"""What a configuration wires to the header, and the problems the Pi's interfaces make for it."""

from __future__ import annotations

from dataclasses import replace

from companion.games import find_game
from companion.service.config import Config
from companion.service.wiring import pin_problems, start_seats, wired_layout
from tests.devices.fake_pi import pi4


def test_the_default_box_wires_the_panel_three_buttons_and_the_buzzer():
    assert set(wired_layout(Config())) == {"display.sda", "display.scl", "buttons.left",
                                           "buttons.select", "buttons.right", "buzzer"}


def test_a_board_on_the_pis_uart_takes_gpio14_and_15():
    cfg = Config()
    dice = replace(cfg, dice=replace(cfg.dice, port="/dev/serial0"))
    assert wired_layout(dice)["dice_uart.tx"] == 14
    hub = replace(cfg, pads=replace(cfg.pads, frontend="hub"))
    used = wired_layout(hub, seats=4)
    assert used["padhub_uart.rx"] == 15 and not any(k.startswith("pads.") for k in used)
    usb_hub = replace(cfg, pads=replace(cfg.pads, frontend="hub", hub_port="/dev/companion-padhub"))
    assert "padhub_uart.tx" not in wired_layout(usb_hub)


def test_gpio_pads_and_no_buzzer():
    cfg = Config()
    cfg = replace(cfg, service=replace(cfg.service, buzzer=False))
    used = wired_layout(cfg, seats=3)
    assert "buzzer" not in used and len([k for k in used if k.startswith("pads.")]) == 12
    assert start_seats(cfg, find_game("clovece")) == 0
    padded = replace(cfg, game=replace(cfg.game, name="gobbit", seats=3))
    assert start_seats(padded, find_game("gobbit")) == 3


def test_problems_name_taken_pins_and_a_console_on_the_hubs_line(tmp_path):
    cfg = Config()
    hub = replace(cfg, pads=replace(cfg.pads, frontend="hub"))
    assert pin_problems(hub, pi4(tmp_path / "ok", uart=True)) == []
    problems = pin_problems(hub, pi4(tmp_path / "console", uart=True, console=True))
    assert len(problems) == 1 and problems[0].startswith("The Linux console is on /dev/serial0")
    assert pin_problems(cfg, tmp_path / "no-device-tree", seats=4) == []


def test_a_pixels_die_leaves_the_uart_and_its_console_alone(tmp_path):
    cfg = Config()
    pixels = replace(cfg, dice=replace(cfg.dice, kind="pixels", port="/dev/serial0"))
    assert "dice_uart.tx" not in wired_layout(pixels)
    assert pin_problems(pixels, pi4(tmp_path / "pi", console=True)) == []
