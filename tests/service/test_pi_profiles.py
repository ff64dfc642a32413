"""setup-pi.sh's profiles for the Pi's interfaces, on copies of Raspberry Pi OS's boot files
and of Debian's /etc/default files (``make pi-check`` runs them under arm64 too)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.games import playable
from companion.service import pi_profiles as pp
from companion.service.config import load

ROOT = Path(__file__).resolve().parents[2]
RASPIOS = ROOT / "scripts" / "pi" / "raspios"
EXAMPLE = ROOT / "examples" / "companion.toml"
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


def a_pi(tmp_path: Path, raspios: bool = True, model: str = PI4) -> pp.System:
    boot = tmp_path / "boot" / "firmware"
    boot.mkdir(parents=True)
    for name in ("config.txt", "cmdline.txt"):
        shutil.copy(RASPIOS / name, boot / name)
    etc = tmp_path / "etc"
    (etc / "companion").mkdir(parents=True)
    (etc / "default").mkdir()
    shutil.copy(EXAMPLE, etc / "companion" / "companion.toml")
    (etc / "default" / "raspi-firmware").write_text('ROOTPART="LABEL=RASPIROOT"\n')
    (etc / "default" / "raspi-firmware-custom").write_text("dtparam=i2c_arm=on\n")
    return pp.System(tmp_path, raspios, model)


def config_of(system: pp.System) -> Path:
    return system.root / "etc" / "companion" / "companion.toml"


def boot(system: pp.System, name: str) -> str:
    return (system.root / system.boot / name).read_text()


def block(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# companion: setup-pi"))
    return lines[start + 1:lines.index(pp.END)]


def test_four_seats_of_gpio_pads_turn_spi_the_uart_and_its_console_off(tmp_path):
    pi = a_pi(tmp_path)
    changed = pp.apply(pi, ["gpio-pads"], config_of(pi), games=playable())
    assert changed == ["config.txt", "cmdline.txt"]
    assert block(boot(pi, "config.txt")) == ["[all]", "dtparam=spi=off", "enable_uart=0"]
    cmdline = boot(pi, "cmdline.txt").split()
    assert "console=serial0,115200" not in cmdline and "console=tty1" in cmdline
    assert cmdline == (RASPIOS / "cmdline.txt").read_text().split()[1:]  # the rest as it was
    # Raspberry Pi OS's own lines stay: the block comes last, where the last value wins
    assert boot(pi, "config.txt").startswith((RASPIOS / "config.txt").read_text())


def test_a_uart_dice_on_a_pi_5_gets_uart0_and_ttyAMA0(tmp_path):
    pi = a_pi(tmp_path, model=PI5)
    pp.apply(pi, ["uart-dice"], config_of(pi), games=playable())
    assert block(boot(pi, "config.txt")) == ["[all]", "enable_uart=1", "dtparam=uart0=on"]
    cfg = load(config_of(pi), games=playable())
    assert (cfg.dice.kind, cfg.dice.port) == ("serial", "/dev/ttyAMA0")
    # on a Pi 5 serial0 is the debug connector: a console there stays
    assert "console=serial0,115200" in boot(pi, "cmdline.txt").split()


def test_the_pad_hub_on_a_pi_4_is_on_serial0_with_the_console_off(tmp_path):
    pi = a_pi(tmp_path)
    pp.apply(pi, ["uart-padhub"], config_of(pi), games=playable())
    assert block(boot(pi, "config.txt")) == ["[all]", "enable_uart=1"]
    cfg = load(config_of(pi), games=playable())
    assert (cfg.pads.frontend, cfg.pads.hub_port) == ("hub", "/dev/serial0")
    assert "console=serial0,115200" not in boot(pi, "cmdline.txt").split()
    assert pp.from_config(cfg, games=playable()) == ["uart-padhub"]  # the configuration chooses it next time


def test_i2s_writes_the_overlay_without_sdmode_and_moves_the_buzzer(tmp_path):
    pi = a_pi(tmp_path)
    before = load(config_of(pi), games=playable())
    pp.apply(pi, ["i2s"], config_of(pi), games=playable())
    assert block(boot(pi, "config.txt")) == ["[all]", "dtoverlay=max98357a,no-sdmode",
                                             "dtparam=audio=off"]
    assert boot(pi, "cmdline.txt") == (RASPIOS / "cmdline.txt").read_text()  # no UART: untouched
    after = load(config_of(pi), games=playable())
    assert after.voice.i2s and not before.voice.i2s
    assert (before.pins.buzzer, after.pins.buzzer) == (18, 12)
    # the line was changed where it stood, its comment kept
    line = next(ln for ln in config_of(pi).read_text().splitlines() if ln.startswith("i2s ="))
    assert line.startswith("i2s = true") and "#" in line


def test_the_bonnet_profile_sets_up_the_no_solder_box_in_one_step(tmp_path):
    pi = a_pi(tmp_path)
    pp.apply(pi, ["bonnet"], config_of(pi), games=playable())
    assert block(boot(pi, "config.txt")) == ["[all]", "dtparam=i2c_arm_baudrate=400000",
                                             "dtparam=audio=off"]
    assert boot(pi, "cmdline.txt") == (RASPIOS / "cmdline.txt").read_text()  # no UART: untouched
    cfg = load(config_of(pi), games=playable())
    assert cfg.buttons.board == "bonnet" and cfg.buttons.layout == 5
    assert not cfg.service.buzzer and cfg.dice.kind == "pixels" and cfg.pads.frontend == "mpr121"
    assert cfg.button_pins() == {"left": 27, "select": 4, "right": 23, "menu": 5, "help": 6}
    assert pp.from_config(cfg, games=playable()) == ["bonnet"]  # the configuration chooses it next time
    assert pp.with_bonnet(load(EXAMPLE, games=playable())) == cfg  # companion sim --profile bonnet: the same


@pytest.mark.parametrize("profiles", [["gpio-pads"], ["uart-dice"], ["uart-padhub"], ["i2s"],
                                      ["uart-dice", "i2s"], ["bonnet"], ["bonnet", "uart-padhub"]])
@pytest.mark.parametrize("raspios", [True, False])
def test_the_same_profiles_again_change_nothing(tmp_path, profiles, raspios):
    pi = a_pi(tmp_path, raspios=raspios)
    if not raspios and set(profiles) & {"gpio-pads", "i2s"}:
        pytest.skip("refused on plain Debian (the next test)")
    assert pp.apply(pi, profiles, config_of(pi), games=playable())
    files = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert pp.apply(pi, profiles, config_of(pi), games=playable()) == []
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == files


def test_other_profiles_replace_the_block_and_none_takes_it_out(tmp_path):
    pi = a_pi(tmp_path)
    pp.apply(pi, ["gpio-pads"], config_of(pi), games=playable())
    pp.apply(pi, ["i2s"], config_of(pi), games=playable())
    text = boot(pi, "config.txt")
    assert "dtparam=spi=off" not in text and text.count(pp.END) == 1
    pp.apply(pi, [], config_of(pi), games=playable())
    assert boot(pi, "config.txt") == (RASPIOS / "config.txt").read_text()


def test_plain_debian_gets_its_console_off_through_raspi_firmware(tmp_path):
    pi = a_pi(tmp_path, raspios=False)
    changed = pp.apply(pi, ["uart-dice"], config_of(pi), games=playable())
    assert changed[:2] == ["/etc/default/raspi-firmware-custom", "/etc/default/raspi-firmware"]
    default = (tmp_path / "etc/default/raspi-firmware").read_text()
    assert block(default) == ['CONSOLES="tty0"'] and default.startswith('ROOTPART=')
    custom = (tmp_path / "etc/default/raspi-firmware-custom").read_text()
    assert custom.startswith("dtparam=i2c_arm=on\n") and block(custom) == ["enable_uart=1"]
    assert load(config_of(pi), games=playable()).dice.port == "/dev/ttyS1"
    assert boot(pi, "config.txt") == (RASPIOS / "config.txt").read_text()  # Debian's hook's


@pytest.mark.parametrize(("profiles", "says"), [
    (["gpio-pads"], "keeps the UART on GPIO14/15"),
    (["i2s"], "no overlay for the MAX98357A"),
])
def test_plain_debian_refuses_what_its_kernel_cannot_do(tmp_path, profiles, says):
    pi = a_pi(tmp_path, raspios=False)
    with pytest.raises(pp.ProfileError, match=says):
        pp.apply(pi, profiles, config_of(pi), games=playable())


@pytest.mark.parametrize(("profiles", "says"), [
    (["gpio-pads", "uart-dice"], "take GPIO14/15"),
    (["uart-dice", "uart-padhub"], "one UART"),
    (["gpio-pads", "i2s"], "USB speaker"),
    (["gpio-pads", "bonnet"], "MPR121 pads with the bonnet"),
    (["spi"], "no profile 'spi'"),
])
def test_profiles_that_do_not_go_together_are_one_sentence(tmp_path, profiles, says):
    pi = a_pi(tmp_path)
    with pytest.raises(pp.ProfileError, match=says):
        pp.apply(pi, profiles, config_of(pi), games=playable())
    assert boot(pi, "config.txt") == (RASPIOS / "config.txt").read_text()  # nothing written


def test_the_configuration_chooses_the_profiles(tmp_path):
    pi = a_pi(tmp_path)
    assert pp.from_config(load(config_of(pi), games=playable()), games=playable()) == []  # the example: USB dice, no pads, no I2S
    text = config_of(pi).read_text()
    text = pp.set_toml(text, "game", "name", '"gobbit"')
    config_of(pi).write_text(text)
    assert pp.from_config(load(config_of(pi), games=playable()), games=playable()) == ["gpio-pads"]
    assert pp.main(["--root", str(tmp_path), "--os", "raspios", "--model", PI4,
                    "--config", "/etc/companion/companion.toml"], games=playable()) == 0
    assert block(boot(pi, "config.txt")) == ["[all]", "dtparam=spi=off", "enable_uart=0"]


def test_no_profile_leaves_the_boot_files_alone(tmp_path, capsys):
    pi = a_pi(tmp_path)
    pp.apply(pi, ["i2s"], config_of(pi), games=playable())
    config_of(pi).write_text(EXAMPLE.read_text())  # the configuration chooses none now
    assert pp.main(["--root", str(tmp_path), "--os", "raspios", "--model", PI4,
                    "--config", "/etc/companion/companion.toml"], games=playable()) == 0
    assert "left as they are" in capsys.readouterr().out
    assert block(boot(pi, "config.txt"))[1] == "dtoverlay=max98357a,no-sdmode"


def test_main_says_what_changed_then_that_nothing_did(tmp_path, capsys):
    a_pi(tmp_path)  # the model comes from the fake device tree below
    argv = ["--root", str(tmp_path), "--os", "raspios", "--config",
            "/etc/companion/companion.toml", "--profile", "uart-padhub"]
    (tmp_path / "proc" / "device-tree").mkdir(parents=True)
    (tmp_path / "proc" / "device-tree" / "model").write_bytes(PI5.encode() + b"\0")
    assert pp.main(argv, games=playable()) == 0
    out = capsys.readouterr().out
    assert "changed config.txt, cmdline.txt" not in out  # a Pi 5's console is not on GPIO14/15
    assert "changed config.txt" in out and "reboot" in out and "/dev/ttyAMA0" in out
    assert pp.main(argv, games=playable()) == 0
    assert "nothing to change" in capsys.readouterr().out
    assert pp.main([*argv[:-1], "gpio-pads", "--profile", "uart-dice"], games=playable()) == 2
    assert "GPIO14/15" in capsys.readouterr().err


def test_a_toml_key_is_set_in_its_section_or_added():
    text = "[dice]\nport = \"/dev/x\"   # the port\n\n[voice]\nenabled = true\n"
    assert pp.set_toml(text, "dice", "port", '"/dev/serial0"').splitlines()[1] == \
        'port = "/dev/serial0"   # the port'
    added = pp.set_toml(text, "dice", "kind", '"serial"')
    assert added.splitlines()[:3] == ["[dice]", 'port = "/dev/x"   # the port', 'kind = "serial"']
    assert pp.set_toml(text, "pads", "frontend", '"hub"').endswith('\n[pads]\nfrontend = "hub"\n')
