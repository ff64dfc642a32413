"""scripts/setup-pi.sh and what it installs: three defects found on a real install stay fixed.

The script is sourced with SETUP_PI_LIBRARY=1 (its functions, no main) and its functions run
with stand-ins for the commands that would change this machine (systemctl, install...), which
record how they were called.  `make pi-check` runs the script itself in an arm64 chroot.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
SETUP = SCRIPTS / "setup-pi.sh"
UNIT = SCRIPTS / "companion.service"


def unit_service() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif line and not line.startswith("#") and section == "[Service]":
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def run_function(tmp_path: Path, script: str, stubs: tuple[str, ...]) -> list[str]:
    """Run ``script`` after sourcing setup-pi.sh, with recording stand-ins for ``stubs``;
    the calls they recorded, one line each."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    for name in stubs:
        stub = bin_dir / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\n')
        stub.chmod(0o755)
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "SETUP_PI_LIBRARY": "1"}
    subprocess.run(["sh", "-c", f". {SETUP}\nHERE={ROOT}\n{script}"], env=env, check=True,
                   cwd=tmp_path, timeout=60, capture_output=True, text=True)
    return calls.read_text().splitlines() if calls.exists() else []


def test_the_unit_starts_in_its_state_directory():
    """lgpio makes its notification pipe in the current folder; "/" is read-only for the unit."""
    s = unit_service()
    assert s["StateDirectory"] == ["companion"] and s["ProtectSystem"] == ["strict"]
    assert s["WorkingDirectory"] == ["/var/lib/companion"]


def test_the_unit_names_no_group_a_system_may_lack():
    """SupplementaryGroups=gpio stops the service where there is no gpio group (plain Debian):
    the groups come from the user's memberships, which setup-pi.sh sets where they exist."""
    assert "SupplementaryGroups" not in unit_service()
    script = SETUP.read_text()
    assert 'TABLE_GROUPS="gpio i2c dialout audio"' in script
    assert re.search(r'getent group "\$g" >/dev/null; then\s+usermod -aG "\$g" companion', script)


def test_where_systemd_runs_the_service_is_enabled_then_restarted_once(tmp_path):
    calls = run_function(tmp_path, f"UNIT={tmp_path}/unit\nsystemd_running() {{ true; }}\n"
                                   "install_service", ("systemctl", "install"))
    assert [c for c in calls if c.startswith("systemctl")] == [
        "systemctl enable companion.service", "systemctl daemon-reload",
        "systemctl restart companion.service"]


def test_without_systemd_the_service_is_only_enabled(tmp_path):
    """A chroot or an image being built: no --now, no start, no daemon-reload."""
    calls = run_function(tmp_path, f"UNIT={tmp_path}/unit\nsystemd_running() {{ false; }}\n"
                                   "install_service", ("systemctl", "install"))
    assert [c for c in calls if c.startswith("systemctl")] == ["systemctl enable companion.service"]
    assert "--now" not in SETUP.read_text()


@pytest.mark.parametrize("running", [False, True])
def test_udev_is_asked_to_reload_only_where_it_runs(tmp_path, running):
    script = (f"udev_running() {{ {str(running).lower()}; }}\ngetent() {{ return 0; }}\n"
              "id() { return 0; }\nsetup_user")
    calls = run_function(tmp_path, script, ("udevadm", "install", "usermod", "groupadd", "useradd"))
    reloads = [c for c in calls if c.startswith("udevadm")]
    assert reloads == (["udevadm control --reload-rules", "udevadm trigger"] if running else [])
    assert any(c.endswith("/etc/udev/rules.d/99-companion-dice.rules") for c in calls)


def test_plain_debian_gets_a_gpio_group_and_a_rule_for_the_chips(tmp_path):
    script = ("getent() { [ \"$2\" != gpio ]; }\nid() { return 1; }\nudev_running() { false; }\n"
              "setup_user")
    calls = run_function(tmp_path, script, ("install", "usermod", "groupadd", "useradd"))
    assert "groupadd --system gpio" in calls
    assert any(c.endswith("/etc/udev/rules.d/60-companion-gpio.rules") for c in calls)
    assert any(c.startswith("useradd --system") and c.endswith(" companion") for c in calls)
    rule = (SCRIPTS / "60-companion-gpio.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rule


def test_raspberry_pi_os_keeps_its_own_gpio_group_and_rules(tmp_path):
    script = "getent() { return 0; }\nid() { return 0; }\nudev_running() { false; }\nsetup_user"
    calls = run_function(tmp_path, script, ("install", "usermod", "groupadd", "useradd"))
    assert not [c for c in calls if c.startswith(("groupadd", "useradd"))]
    assert not any("60-companion-gpio.rules" in c for c in calls)
    assert sorted(c for c in calls if c.startswith("usermod")) == sorted(
        f"usermod -aG {g} companion" for g in ("gpio", "i2c", "dialout", "audio"))


def lock_entries(text: str) -> dict[str, int]:
    """name -> number of hashes of a hash-pinned requirements file."""
    out: dict[str, int] = {}
    name = ""
    for line in text.splitlines():
        m = re.match(r"([A-Za-z0-9_.-]+)==", line)
        if m:
            name = m.group(1).lower()
            out[name] = 0
        elif "--hash=sha256:" in line:
            out[name] += 1
    return out


def test_lgpio_is_locked_for_aarch64_only():
    text = (SCRIPTS / "requirements-pi.txt").read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("lgpio=="))
    assert re.match(r"lgpio==0\.2\.2\.0 ; platform_machine == ['\"]aarch64['\"] \\$", line)
    assert lock_entries(text)["lgpio"] >= 2
    assert "lgpio==" in (SCRIPTS / "requirements-pi.in").read_text()


def test_with_debians_lgpio_the_lock_goes_without_its_lgpio(tmp_path):
    """Raspberry Pi OS: python3-lgpio from its archive, the rest exactly as locked."""
    full = (SCRIPTS / "requirements-pi.txt").read_text()
    out = subprocess.run(["sh", "-c", f". {SETUP}\nwithout_lgpio < {SCRIPTS}/requirements-pi.txt"],
                         env={**os.environ, "SETUP_PI_LIBRARY": "1"}, capture_output=True,
                         text=True, check=True, timeout=60).stdout
    before, after = lock_entries(full), lock_entries(out)
    assert "lgpio" in before and "lgpio" not in after
    assert after == {k: v for k, v in before.items() if k != "lgpio"}


def test_python3_lgpio_is_installed_only_where_the_archive_has_it(tmp_path):
    script = ("apt_has() {{ {0}; }}\ninstall_packages\necho \"apt-get lgpio-from $LGPIO_FROM\" "
              f">> {tmp_path}/calls")
    calls = run_function(tmp_path, script.format("false"), ("apt-get",))
    install = next(c for c in calls if " install " in c)
    assert "python3-lgpio" not in install and calls[-1] == "apt-get lgpio-from pypi"
    (tmp_path / "calls").unlink()
    (tmp_path / "bin").rename(tmp_path / "old")
    calls = run_function(tmp_path, script.format("true"), ("apt-get",))
    assert "python3-lgpio" in next(c for c in calls if " install " in c)
    assert calls[-1] == "apt-get lgpio-from debian"


def test_i2c_on_plain_debian_goes_through_raspi_firmware_and_i2c_dev(tmp_path):
    script = (f"FIRMWARE_CUSTOM={tmp_path}/custom\nMODULES_LOAD={tmp_path}/modules\n"
              "raspberry_pi_os() { false; }\nsystemd_running() { false; }\n"
              "enable_i2c\nenable_i2c\n")
    run_function(tmp_path, script, ("raspi-config", "modprobe"))
    assert (tmp_path / "custom").read_text() == "dtparam=i2c_arm=on\n"  # once, run twice
    assert (tmp_path / "modules").read_text() == "i2c-dev\n"


def test_i2c_on_raspberry_pi_os_goes_through_raspi_config(tmp_path):
    script = f"FIRMWARE_CUSTOM={tmp_path}/custom\nraspberry_pi_os() {{ true; }}\nenable_i2c\n"
    assert run_function(tmp_path, script, ("raspi-config",)) == ["raspi-config nonint do_i2c 0"]
    assert not (tmp_path / "custom").exists()


@pytest.mark.parametrize("path", sorted([*SCRIPTS.glob("*.sh"), *SCRIPTS.glob("pi/*.sh"),
                                         SCRIPTS / "pi/image/companion-import"]),
                         ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_every_shell_script_parses(path):
    subprocess.run(["sh", "-n", str(path)], check=True, timeout=60)


@pytest.mark.parametrize("lgpio_from, has_lgpio", [("pypi", True), ("debian", False)])
def test_the_venv_gets_the_lock_with_or_without_lgpio(tmp_path, lgpio_from, has_lgpio):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\n")
    (venv / "bin" / "python").chmod(0o755)
    seen = tmp_path / "seen"
    # a pip that keeps the requirements file it was given (-r FILE)
    (venv / "bin" / "pip").write_text(
        '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -r ] && cat "$2" > "' + str(seen) + '"; '
        'shift; done\n')
    (venv / "bin" / "pip").chmod(0o755)
    run_function(tmp_path, f"VENV={venv}\nLGPIO_FROM={lgpio_from}\ninstall_project", ())
    installed = lock_entries(seen.read_text())
    assert ("lgpio" in installed) is has_lgpio
    assert "gpiozero" in installed and "pillow" in installed


def profiles_run(tmp_path: Path, profiles: str) -> subprocess.CompletedProcess[str]:
    """setup-pi.sh's apply_profiles on copies of Raspberry Pi OS's boot files (a Pi 4)."""
    env = {"PATH": os.environ["PATH"], "SETUP_PI_LIBRARY": "1", "SETUP_PI_OS": "raspios",
           "SETUP_PI_BOOT": str(tmp_path / "boot"), "SETUP_PI_MODEL": "Raspberry Pi 4 Model B"}
    script = (f". {SETUP}\nVENV={ROOT / '.venv'}\nCONFIG={tmp_path / 'companion.toml'}\n"
              f"PROFILES='{profiles}'\napply_profiles")
    return subprocess.run(["sh", "-c", script], env=env, cwd=tmp_path, timeout=120,
                          capture_output=True, text=True)


def test_a_profile_run_twice_changes_nothing_the_second_time(tmp_path):
    (tmp_path / "boot").mkdir()
    for name in ("config.txt", "cmdline.txt"):
        (tmp_path / "boot" / name).write_bytes((SCRIPTS / "pi" / "raspios" / name).read_bytes())
    (tmp_path / "companion.toml").write_bytes((ROOT / "examples" / "companion.toml").read_bytes())
    first = profiles_run(tmp_path, "uart-padhub i2s")
    assert first.returncode == 0, first.stderr
    assert "changed config.txt, cmdline.txt" in first.stdout and "reboot" in first.stdout
    files = {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert b"dtoverlay=max98357a,no-sdmode" in files["config.txt"]
    assert b"console=serial0" not in files["cmdline.txt"]
    second = profiles_run(tmp_path, "uart-padhub i2s")
    assert second.returncode == 0 and "nothing to change" in second.stdout
    assert {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == files
    refused = profiles_run(tmp_path, "gpio-pads uart-dice")
    assert refused.returncode == 2 and "GPIO14/15" in refused.stderr


def test_the_bonnet_profile_is_one_step_from_the_shell(tmp_path):
    (tmp_path / "boot").mkdir()
    for name in ("config.txt", "cmdline.txt"):
        (tmp_path / "boot" / name).write_bytes((SCRIPTS / "pi" / "raspios" / name).read_bytes())
    (tmp_path / "companion.toml").write_bytes((ROOT / "examples" / "companion.toml").read_bytes())
    done = profiles_run(tmp_path, "bonnet")
    assert done.returncode == 0, done.stderr
    assert "profiles bonnet (chosen) changed config.txt" in done.stdout
    assert "dtparam=i2c_arm_baudrate=400000" in (tmp_path / "boot" / "config.txt").read_text()
    toml = (tmp_path / "companion.toml").read_text()
    assert 'board = "bonnet"' in toml and 'frontend = "mpr121"' in toml


def test_an_unknown_option_is_the_usage():
    out = subprocess.run(["sh", str(SETUP), "--profiles", "i2s"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and "usage: sudo sh scripts/setup-pi.sh" in out.stderr


def test_a_profile_the_configuration_chose_does_not_stop_an_update(tmp_path):
    """voice.i2s = true on plain Debian (no overlay there): said, and the set-up goes on."""
    (tmp_path / "boot").mkdir()
    config = (ROOT / "examples" / "companion.toml").read_text().replace("i2s = false", "i2s = true")
    (tmp_path / "companion.toml").write_text(config)
    env = {"PATH": os.environ["PATH"], "SETUP_PI_LIBRARY": "1", "SETUP_PI_OS": "debian"}
    script = (f". {SETUP}\nVENV={ROOT / '.venv'}\nCONFIG={tmp_path / 'companion.toml'}\n"
              "apply_profiles\necho went-on")
    out = subprocess.run(["sh", "-c", script], env=env, cwd=tmp_path, timeout=120,
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.rstrip().endswith("went-on")
    assert "no overlay for the MAX98357A" in out.stderr and "left as they are" in out.stdout
