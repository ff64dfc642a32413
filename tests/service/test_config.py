from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import find_game, playable
from companion.service.config import Config, ConfigError, from_dict, load

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_example_is_valid_and_equals_the_defaults():
    cfg = load(ROOT / "examples" / "companion.toml", games=playable())
    default = Config()  # which names no game: the table starts with the first one
    assert default.game.name == "" and cfg.game.name == playable()[0].name
    assert cfg == replace(default, game=replace(default.game, name=cfg.game.name))


def test_values_are_read(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[display]\ndriver = "sh1106"\ni2c_address = 0x3D\n'
                 '[game]\nplayers = 2\ncomputer = ["g"]\nvariants = ["safe-start"]\n'
                 '[pins]\n"buttons.left" = 16\n')
    cfg = load(p, games=playable())
    assert cfg.display.driver == "sh1106" and cfg.display.i2c_address == 0x3D
    assert cfg.game.players == 2 and cfg.game.computer == ("g",)
    assert cfg.pins.buttons["left"] == 16


def test_the_pads_section_chooses_the_front_end_and_declares_the_uncertainties():
    cfg = from_dict({"pads": {"frontend": "hub", "hub_port": "/dev/ttyACM1", "hub_ms": 2.0},
                     "game": {"seats": 6}}, games=playable())
    assert cfg.pads.pad_type == "padhub" and cfg.pads.max_seats == 6 and cfg.game.seats == 6
    assert cfg.pads.declared_ms()["padhub"] == 2.0
    assert cfg.pads.declared_ms()["ttp223-fast"] == 60.0
    cfg = from_dict({"pads": {"module": "ttp223-low-power"}}, games=playable())
    assert cfg.pads.pad_type == "ttp223-low-power" and cfg.pads.max_seats == 4


@pytest.mark.parametrize("text,fragment", [
    ('[pads]\nfrontend = "wifi"', "pads.frontend"),
    ('[pads]\nmodule = "ttp224"', "pads.module"),
    ('[pads]\nttp223_fast_ms = -1', "pads.ttp223_fast_ms"),
    ('[pads]\nhub_ms = 5000', "pads.hub_ms"),
    ('[pads]\nfrontend = "hub"\nhub_port = ""', "pads.hub_port"),
    ('[pads]\nhub_baudrate = 10', "pads.hub_baudrate"),
    ('[pads]\nuse_calibration = "yes"', "pads.use_calibration"),
    ('[game]\nseats = 5', "pad hub"),
    ('[pads]\nfrontend = "hub"\n[game]\nseats = 7', "2 to 6"),
])
def test_bad_pads_values_are_one_sentence(tmp_path, text, fragment):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=fragment.replace(".", r"\.")):
        load(p, games=playable())


@pytest.mark.parametrize("text,fragment", [
    ('[display]\ndriver = "crt"', "display.driver"),
    ('[display]\ni2c_address = "x"', "display.i2c_address"),
    ('[display]\ni2c_address = 300', "display.i2c_address"),
    ('[display]\nrotate = 5', "display.rotate"),
    ('[display]\ndrivr = "ssd1306"', "display.drivr"),
    ('[screen]\ndriver = "ssd1306"', "[screen]"),
    ('[buttons]\nlayout = 4', "buttons.layout"),
    ('[buttons]\nlong_press = "long"', "buttons.long_press"),
    ('[game]\nplayers = 5', "game.players"),
    ('[game]\nvariants = ["fast"]', "game.variants"),
    ('[game]\ncomputer = ["x"]', "game.computer"),
    ('[game]\ncomputer = "b"', "game.computer"),
    ('[game]\nfirst = "blue"', "game.first"),
    ('[service]\nbuzzer = "yes"', "service.buzzer"),
    ('[pins]\n"buttons.left" = 6', "GPIO6"),
    ('[pins]\n"buttons.left" = 0', "reserved"),
    ('[pins]\n"buttons.nose" = 7', "pins.buttons.nose"),
    ('[display\n', "not valid TOML"),
    ('[voice]\nenabled = "yes"', "voice.enabled"),
    ('[voice]\nvoice = ""', "voice.voice"),
    ('[voice]\nvoice = "cs cz"', "voice.voice"),
    ('[voice]\ndevice = "plug hw"', "voice.device"),
    ('[voice]\nspeaker = "usb"', "voice.speaker"),
    ('[game]\nname = "ludo"', "game.name"),
    ('[clovece]\nplayers = 5', "clovece.players must be 2, 3 or 4, not 5."),
    ('[clovece]\nvariants = ["fast"]', "clovece.variants has an unknown variant 'fast'"),
    ('[napij]\ncomputer = ["x"]', "napij.computer lists 'x'"),
    ('[napij]\nfirst = "blue"', "napij.first must be"),
    ('[napij]\nvariants = ["safe-start"]', "Unknown key napij.variants"),
    ('[gobbit]\nseats = 5', "gobbit.seats must be 2, 3 or 4 (5 and 6 need the pad hub"),
    ('[gobbit]\nseats = "4"', "gobbit.seats must be a whole number"),
    ('[gobbit]\nplayers = 4', "Unknown key gobbit.players"),
    ('clovece = 3', "[clovece] must be a table."),
])
def test_a_wrong_value_is_one_sentence_naming_the_key(tmp_path, text, fragment):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as err:
        load(p, games=playable())
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)


def test_a_missing_file_is_reported(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load(tmp_path / "nope.toml", games=playable())


def test_the_cli_turns_a_bad_config_into_exit_2_and_one_line(tmp_path, capsys):
    p = tmp_path / "c.toml"
    p.write_text('[game]\nplayers = 7\n')
    assert main(["--config", str(p), "run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: game.players") and err.count("\n") == 1
    assert main(["--config", str(p)]) == 2


def test_from_dict_defaults():
    assert from_dict({}, games=playable()) == Config()
    assert tomllib.loads("") == {}


def test_the_voice_section_is_read(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[voice]\nenabled = false\nvoice = "cs+f3"\ndevice = "plughw:CARD=Device"\n'
                 '[game]\nname = "napij"\n')
    cfg = load(p, games=playable())
    assert cfg.voice.enabled is False and cfg.voice.voice == "cs+f3"
    assert cfg.voice.device == "plughw:CARD=Device" and cfg.game.name == "napij"
    assert Config().voice.enabled is True and Config().voice.voice == "cs"


# --- [web]: the phone view -----------------------------------------------------------------------


def test_the_phone_view_is_off_by_default_and_listens_everywhere_when_on():
    web = Config().web
    assert web.enabled is False and web.address == "0.0.0.0" and web.port == 8080
    assert web.token == "" and web.url_host == "" and web.max_clients == 32


def test_the_web_section_is_read(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[web]\nenabled = true\naddress = "192.168.1.20"\nport = 8123\n'
                 'token = "TABLE-42OK"\nurl_host = "companion.local"\nmax_clients = 5\n')
    web = load(p, games=playable()).web
    assert web.enabled is True and web.address == "192.168.1.20" and web.port == 8123
    assert web.token == "TABLE-42OK" and web.url_host == "companion.local"
    assert web.max_clients == 5
    assert from_dict({"web": {"address": "::", "port": 1024}}, games=playable()).web.address == "::"


@pytest.mark.parametrize("text,fragment", [
    ('[web]\nenabled = "yes"', "web.enabled"),
    ('[web]\naddress = "box"', "web.address"),
    ('[web]\naddress = "192.168.1.300"', "web.address"),
    ('[web]\naddress = ""', "web.address"),
    ('[web]\nport = 80', "web.port"),
    ('[web]\nport = 0', "web.port"),
    ('[web]\nport = 65536', "web.port"),
    ('[web]\nport = "8080"', "web.port"),
    ('[web]\ntoken = "short"', "web.token"),
    ('[web]\ntoken = "has/slash1"', "web.token"),
    ('[web]\ntoken = "seventeen-letters"', "web.token"),
    ('[web]\nurl_host = "-bad.example"', "web.url_host"),
    ('[web]\nurl_host = "a b"', "web.url_host"),
    ('[web]\nurl_host = "x\\u0000y"', "web.url_host"),
    ('[web]\nmax_clients = 0', "web.max_clients"),
    ('[web]\nmax_clients = 1000', "web.max_clients"),
    ('[web]\nprot = 8080', "web.prot"),
    ('[web]\nurl_host = "the-box.lan.example.org"\ntoken = "AbCdEfGhIjKlMnOp"', "QR code"),
])
def test_a_wrong_web_value_is_one_sentence_naming_the_key(tmp_path, text, fragment):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as err:
        load(p, games=playable())
    message = str(err.value)
    assert fragment in message and "\n" not in message and message.endswith(".")
    assert "\x00" not in message


def test_an_address_known_in_advance_must_fit_the_displays_qr_code():
    from companion.web import qr

    fits = from_dict({"web": {"address": "192.168.100.200", "port": 65535}}, games=playable()).web
    url = f"http://{fits.address}:{fits.port}/{qr.new_token()}/"
    assert qr.qr_code(url).version <= 2  # the longest LAN address with the box's token fits
    with pytest.raises(ConfigError, match="holds 32"):  # a configured token of any letters
        from_dict({"web": {"address": "192.168.100.200", "port": 65535,
                           "token": "AbCdEfGhIjKlMnOp"}}, games=playable())
    # upper-case letters and digits take the compact mode: the same length fits
    assert from_dict({"web": {"address": "192.168.100.200", "port": 65535,
                              "token": "ABCDEFGH23456789"}}, games=playable()).web.token == "ABCDEFGH23456789"
    # listening everywhere: the address is found at start, the screen says when it is too long
    assert from_dict({"web": {"token": "AbCdEfGhIjKlMnOp"}}, games=playable()).web.token == "AbCdEfGhIjKlMnOp"


def test_a_deeply_nested_array_is_one_sentence(tmp_path):
    p = tmp_path / "deep.toml"
    p.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="too deeply"):
        load(p, games=playable())


def test_a_config_over_the_size_limit_names_the_file_and_the_limit(tmp_path):
    p = tmp_path / "big.toml"
    p.write_text("# " + "x" * (300 * 1024) + "\n")
    with pytest.raises(ConfigError, match=r"larger than the 256 KiB"):
        load(p, games=playable())


def test_the_dice_port_must_not_be_a_folder(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text(f'[dice]\nport = "{tmp_path}"\n')
    with pytest.raises(ConfigError, match="is a folder, not a serial device"):
        load(p, games=playable())


def test_the_i2s_layout_is_a_configuration_choice(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[buttons]\nlayout = 5\n[voice]\ni2s = true\n")
    cfg = load(path, games=playable())
    assert cfg.voice.i2s and cfg.pins.buzzer == 12 and cfg.pins.buttons_extra["menu"] == 16
    assert load(ROOT / "examples" / "companion.toml", games=playable()).pins.buzzer == 18


def test_an_override_onto_the_pcm_pins_is_refused_with_i2s(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[voice]\ni2s = true\n[pins]\n"buttons.left" = 20\n')
    with pytest.raises(ConfigError, match="GPIO20"):
        load(path, games=playable())


def test_the_dice_section_chooses_the_kind_and_the_pixels_die():
    assert load(ROOT / "examples" / "companion.toml", games=playable()).dice.kind == "serial"
    cfg = from_dict({"dice": {"kind": "pixels", "pixels_name": "Kostka Míly"}}, games=playable())
    assert cfg.dice.kind == "pixels" and cfg.dice.pixels_name == "Kostka Míly"
    cfg = from_dict({"dice": {"kind": "ble", "ble_name": "Companion dice 3C4D"}}, games=playable())
    assert cfg.dice.kind == "ble" and cfg.dice.ble_name == "Companion dice 3C4D"
    assert from_dict({"dice": {"kind": "none"}}, games=playable()).dice.kind == "none"


@pytest.mark.parametrize("text,fragment", [
    ('[dice]\nkind = "godice"', 'dice.kind must be "serial" (our dice on a cable), "ble"'),
    ('[dice]\nble_name = "' + "x" * 30 + '"', "dice.ble_name must be our Bluetooth die's name"),
    ('[dice]\nkind = 2', "dice.kind must be a text"),
    ('[dice]\npixels_name = "' + "x" * 32 + '"', "dice.pixels_name must be a die's name of at most 31"),
    ('[dice]\npixels_name = "a\\tb"', "dice.pixels_name"),
    ('[dice]\npixels_name = 7', "dice.pixels_name must be a text"),
])
def test_bad_dice_values_are_one_sentence(tmp_path, text, fragment):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(fragment)):
        load(p, games=playable())


# --- each game's own section -------------------------------------------------------------------


def test_each_game_has_its_own_section_over_the_older_game_keys(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[game]\nplayers = 2\nseats = 3\n'  # an older file's keys: every game's
                 '[clovece]\nplayers = 3\nvariants = ["safe-start"]\ncomputer = ["b"]\n'
                 '[napij]\nfirst = "lot"\n[gobbit]\nseats = 4\n')
    cfg = load(p, games=playable())
    clovece, napij, gobbit = (cfg.setup_defaults(find_game(g)) for g in ("clovece", "napij", "gobbit"))
    assert clovece["players"] == 3 and clovece["variants"] == ("safe-start",)
    assert clovece["computer"] == ("b",) and clovece["first"] == "red"
    assert napij["players"] == 2 and napij["first"] == "lot" and napij["computer"] == ()
    assert gobbit["seats"] == 4 and cfg.game.seats == 3
    old = from_dict({"game": {"players": 2, "computer": ["g"], "seats": 3}}, games=playable())
    assert old.setup_defaults(find_game("clovece"))["players"] == 2 == old.setup_defaults(find_game("napij"))["players"]
    assert old.setup_defaults(find_game("gobbit"))["seats"] == 3 and old.games == {}


def test_a_registered_games_section_goes_to_its_host_as_it_is():
    from companion.games import register, unregister
    from tests.tinygame import INFO

    register(INFO)
    try:
        cfg = from_dict({"race": {"goal": 20}}, games=playable())
        assert cfg.setup_defaults(find_game("race"))["goal"] == 20
    finally:
        unregister(INFO.name)
    with pytest.raises(ConfigError, match=r"Unknown section \[race\]"):
        from_dict({"race": {"goal": 20}}, games=playable())


def test_the_older_game_keys_reach_only_the_built_in_games_that_had_them():
    """``[game] computer = ["g"]`` of an older file is Člověče's and napij's: a new game (the
    tiny race, registered as a contributor adds one) gets only its own section's values, so
    no other game's key leaks into an option of the same name."""
    from companion.games import register, unregister
    from tests.tinygame import INFO

    register(INFO)
    try:
        cfg = from_dict({"game": {"computer": ["g"], "players": 2, "seats": 3},
                         "race": {"goal": 20, "computer": True}}, games=playable())
        assert cfg.setup_defaults(find_game("race")) == {"goal": 20, "computer": True}
        assert from_dict({"game": {"computer": ["g"]}}, games=playable()).setup_defaults(find_game("race")) == {}
        assert cfg.setup_defaults(find_game("clovece"))["computer"] == ("g",)
        assert "seats" not in cfg.setup_defaults(find_game("clovece"))
        assert "computer" not in cfg.setup_defaults(find_game("gobbit"))
    finally:
        unregister(INFO.name)


def test_the_bonnet_reads_five_controls_and_has_no_buzzer():
    from companion.service.config import from_dict as config_from

    cfg = config_from({"buttons": {"board": "bonnet", "layout": 5}, "service": {"buzzer": False},
                       "pads": {"frontend": "mpr121", "mpr121_irq": True}}, games=playable())
    assert cfg.button_pins() == {"left": 27, "select": 4, "right": 23, "menu": 5, "help": 6}
    assert cfg.pads.pad_type == "mpr121" and cfg.pads.max_seats == 6
    with pytest.raises(ConfigError, match="set buttons.layout = 5"):
        config_from({"buttons": {"board": "bonnet"}, "service": {"buzzer": False}}, games=playable())
    with pytest.raises(ConfigError, match="no buzzer"):
        config_from({"buttons": {"board": "bonnet", "layout": 5}}, games=playable())
    with pytest.raises(ConfigError, match="buttons.board must be"):
        config_from({"buttons": {"board": "hat"}}, games=playable())
    with pytest.raises(ConfigError, match="bonnet.select and"):  # a pin moved onto another
        config_from({"buttons": {"board": "bonnet", "layout": 5}, "service": {"buzzer": False},
                     "pins": {"bonnet.select": 27}}, games=playable())
