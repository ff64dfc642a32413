"""The parts of `make pi-check` that run without root or emulation: reading the probe's
console, the game on the card, the card's partition table, the test configuration, reading
silný's decision benchmark, and the card's import of the files a family edits on its FAT
partition.  `make pi-check` itself (root, debootstrap, qemu) is not part of `make test`."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import playable
from companion.games.clovece.engine.game import GAME, Setup
from companion.service.config import load
from companion.storage.journal import encode_journal
from tests.script_loader import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS / "pi"))
import card  # noqa: E402
import vm  # noqa: E402


def pi_check():
    return load_script(SCRIPTS / "pi-check.py", "pi_check")


# --- the console --------------------------------------------------------------------------------


def fed(text: str, tmp_path: Path) -> vm.Console:
    console = vm.Console(tmp_path / "console.log")
    console.feed(io.BytesIO(text.encode()))
    return console


def test_the_console_keeps_the_probe_lines_and_the_last_whole_journal(tmp_path):
    journal = encode_journal([{"t": "game", "game": "clovece", "players": 2}]).decode()
    dump = "".join(f"PICHK J {line}\r\n" for line in journal.splitlines())
    console = fed("[    3.1] Booting\r\nPICHK multi-user active 4200000\r\n"
                  f"PICHK journal-begin 1 2 3\r\n{dump}PICHK journal-end\r\n"
                  "PICHK journal-begin 1 2 4\r\nPICHK J torn", tmp_path)
    assert console.first("multi-user") == "active 4200000"
    assert console.dump == journal.splitlines() and console.dumps == 1  # the torn one is not
    assert vm.journal_records(console.dump) == [{"t": "game", "game": "clovece", "players": 2}]
    assert "Booting" in (tmp_path / "console.log").read_text()
    with pytest.raises(vm.Failed, match="stopped"):
        console.wait(lambda: console.first("companion"), 5, "no companion")


def test_a_probe_line_behind_kernel_output_is_still_read(tmp_path):
    console = fed("[  9.9] random: crng initPICHK companion active 9000000\n", tmp_path)
    assert console.first("companion") == "active 9000000"


def test_a_proc_status_line_is_read_after_its_tab(tmp_path):
    console = fed("PICHK status NoNewPrivs:\t1\nPICHK status Seccomp:\t2\n"
                  "PICHK statusx 3\n", tmp_path)
    assert console.first("status NoNewPrivs:") == "1"
    assert console.first("status Seccomp:") == "2"
    assert console.all("status") == ["NoNewPrivs:\t1", "Seccomp:\t2"]


def test_the_services_log_lines_are_read_with_their_time(tmp_path):
    console = fed("PICHK log [   52.125000] companion companion[345]: dice sim (firmware sim-1) "
                  "connected on /dev/ttyS0\nPICHK log -- Journal begins --\n", tmp_path)
    assert vm.service_log(console) == [
        (52.125, "dice sim (firmware sim-1) connected on /dev/ttyS0")]


# --- the game on the card ------------------------------------------------------------------------


def test_the_game_waits_for_a_throw_not_for_a_move():
    header = GAME.setup_record(Setup(players=2, computer=frozenset({0, 2}), computer_dice=True))
    state = GAME.new_game(GAME.setup_from_record(header))
    assert vm.waits_for_roll([header])
    six = GAME.chance_action(state, 6)
    records = [header, GAME.encode(six)]
    assert not vm.waits_for_roll(records)  # a six: the piece enters first
    after, _ = GAME.apply(state, six)
    move = GAME.legal_actions(after)[0]
    records.append(GAME.encode(move))
    assert vm.waits_for_roll(records)
    assert vm.dice_rolls(records) == [6]
    thrown = [dict(r, src="computer") if r.get("t") == "roll" else r for r in records]
    assert vm.dice_rolls(thrown) == []  # the companion's own throws are not the dice's


# --- the card ------------------------------------------------------------------------------------

needs_sfdisk = pytest.mark.skipif(shutil.which("sfdisk") is None,
                                  reason="sfdisk (Debian's fdisk package, scripts/system-deps.sh) "
                                         "is not installed")


def make_card(path: Path, table: str) -> None:
    with open(path, "wb") as f:
        f.truncate(64 << 20)
    subprocess.run(["sfdisk", "--quiet", str(path)], input=table, text=True, check=True,
                   timeout=60)


@needs_sfdisk
def test_the_cards_layout_is_read(tmp_path):
    make_card(tmp_path / "c.img", "label: dos\nstart=8192, size=32768, type=c, bootable\n"
              "start=40960, type=83\n")
    fat, root = card.card_layout(tmp_path / "c.img")
    assert (fat.start, fat.size, fat.type, fat.bootable) == (4 << 20, 16 << 20, "c", True)
    assert (root.start, root.type) == (20 << 20, "83")


@needs_sfdisk
@pytest.mark.parametrize("table, says", [
    ("label: gpt\nstart=8192, size=32768\nstart=40960\n", "gpt"),
    ("label: dos\nstart=8192, size=32768, type=c\nstart=40960, type=83\n", "not bootable"),
    ("label: dos\nstart=8192, type=83\n", "1 partitions"),
])
def test_a_card_the_pi_cannot_boot_is_refused(tmp_path, table, says):
    make_card(tmp_path / "c.img", table)
    with pytest.raises(card.CardError, match=says):
        card.card_layout(tmp_path / "c.img")


def test_the_test_configuration_is_one_the_service_accepts(tmp_path):
    check = pi_check()
    path = tmp_path / "companion.toml"
    path.write_text(check.test_config(dice="/dev/ttyS0"))
    cfg = load(path, playable())
    assert (cfg.display.driver, cfg.service.pin_factory, cfg.dice.port) == (
        "dummy", "mock", "/dev/ttyS0")
    assert cfg.game.computer_dice and cfg.game.players == 2


def test_the_check_runs_after_make_test_in_ci():
    ci = (ROOT / ".ci" / "run").read_text().split()
    assert ci.index("pi-check") > ci.index("test")
    assert "pi-check:" in (ROOT / "Makefile").read_text()


# --- silný's decision time under the emulation ---------------------------------------------------


@pytest.mark.parametrize("game, name", [("clovece", "Člověče"), ("napij", "napij se")])
def test_the_decision_benchmarks_result_is_read_and_said(game, name):
    check = pi_check()
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/strong_decision.py"), "--game",
                          game, "--games", "1", "--json"], capture_output=True, text=True,
                         check=True, timeout=300)
    result = check.decision_result(out.stdout)
    assert result["game"] == name and result["games"] == 1 and result["decisions"] > 10
    assert 0 < result["median_ms"] <= result["p99_ms"] <= result["max_ms"]
    slower = dict(result, median_ms=result["median_ms"] * 8, p99_ms=result["p99_ms"] * 9)
    line = check.decision_line(slower, result)
    assert line.startswith(f"{name} silný: median ") and "under arm64 emulation (host: " in line
    assert "8.0x slower" in line and "of 1 seeded games" in line


@pytest.mark.parametrize("stdout", [
    "", "Traceback (most recent call last):\n  ...\nImportError: no\n", "{not json",
    '{"game": "Člověče", "decisions": 0}', '[1, 2]'])
def test_a_decision_benchmark_without_a_result_fails_the_step(stdout):
    check = pi_check()
    with pytest.raises(check.StepFailed, match="printed no result"):
        check.decision_result(stdout)


def test_the_check_measures_both_games_with_a_computer_seat():
    assert {game for game, _ in pi_check().DECISION_GAMES} == {"clovece", "napij"}


# --- companion-import on the card ----------------------------------------------------------------

IMPORT = SCRIPTS / "pi" / "image" / "companion-import"


def run_import(tmp_path: Path) -> str:
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "wpa_passphrase").write_text(  # the real one derives the key; its format only
        '#!/bin/sh\n[ ${#2} -ge 8 ] || { echo "Passphrase must be 8..63 characters"; exit 1; }\n'
        'printf \'network={\\n\\tssid="%s"\\n\\t#psk="%s"\\n\\tpsk=%s\\n}\\n\' "$1" "$2" '
        '"$(printf %064d 7)"\n')
    (fake / "wpa_passphrase").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}",
           "COMPANION_BOOT": str(tmp_path / "boot"), "COMPANION_ETC": str(tmp_path / "etc"),
           "COMPANION_PYTHON": sys.executable}
    return subprocess.run(["sh", str(IMPORT)], env=env, capture_output=True, text=True,
                          check=True, timeout=120).stdout


def test_a_family_edited_config_is_taken_in(tmp_path):
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot" / "companion.toml").write_bytes(
        b"\xef\xbb\xbf[game]\r\nplayers = 2\r\n")
    assert "took companion.toml" in run_import(tmp_path)
    assert (tmp_path / "etc/companion/companion.toml").read_bytes() == b"[game]\nplayers = 2\n"
    assert run_import(tmp_path) == ""  # unchanged: nothing to do


def test_a_config_with_a_games_own_section_is_taken_in(tmp_path):
    (tmp_path / "boot").mkdir()
    game = playable()[0].name
    (tmp_path / "boot" / "companion.toml").write_text(f"[game]\nname = \"{game}\"\n\n[{game}]\n")
    assert "took companion.toml" in run_import(tmp_path)
    assert not (tmp_path / "boot" / "companion.toml-error.txt").exists()


def test_a_config_the_companion_refuses_is_not_taken(tmp_path):
    (tmp_path / "boot").mkdir()
    (tmp_path / "etc/companion").mkdir(parents=True)
    (tmp_path / "etc/companion/companion.toml").write_text("[game]\nplayers = 3\n")
    (tmp_path / "boot" / "companion.toml").write_text("[game]\nplayers = 9\n")
    said = run_import(tmp_path)
    assert "was not taken" in said and "game.players" in said
    assert (tmp_path / "etc/companion/companion.toml").read_text() == "[game]\nplayers = 3\n"
    error = (tmp_path / "boot" / "companion.toml-error.txt").read_text()
    assert error.startswith("companion.toml was not taken") and "game.players" in error


def test_the_wifi_file_becomes_a_root_only_network(tmp_path):
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot" / "wifi.txt").write_bytes(
        b"# notes\r\ncountry = cz\r\nssid = Chalupa \"5G\" \r\npassword= kostka-123\r\n")
    assert "took the Wi-Fi network" in run_import(tmp_path)
    conf = tmp_path / "etc/wpa_supplicant/companion-wifi.conf"
    assert conf.stat().st_mode & 0o777 == 0o600
    text = conf.read_text()
    assert "country=CZ" in text and "kostka" not in text
    name = b'Chalupa "5G"'.hex()  # any name, quotes too
    assert f"\tssid={name}\n" in text
    assert f"\tpsk={'7'.zfill(64)}\n" in text
    (tmp_path / "boot" / "wifi.txt").write_text("ssid=\n")
    assert "no Wi-Fi" in run_import(tmp_path) and not conf.exists()


def test_a_short_wifi_password_keeps_the_old_network(tmp_path):
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot" / "wifi.txt").write_text("ssid=Chalupa\npassword=1234\n")
    assert "8 to 63 characters" in run_import(tmp_path)
    assert not (tmp_path / "etc/wpa_supplicant/companion-wifi.conf").exists()
