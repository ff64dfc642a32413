"""``companion pads calibrate`` and ``companion pads show`` on simulated pads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.devices.pads.timing import TIMING_FILE


def config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "c.toml"
    path.write_text(f'[service]\ndata_dir = "{tmp_path / "data"}"\npin_factory = "mock"\n{extra}')
    return path


def run(capsys, cfg: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--config", str(cfg), "pads", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_calibrating_simulated_gpio_pads_prints_the_table_and_saves_it(tmp_path, capsys):
    cfg = config(tmp_path)
    code, out, err = run(capsys, cfg, "calibrate", "--simulate", "3", "--seats", "3")
    assert code == 0, err
    lines = out.splitlines()
    rows = [line for line in lines if ">" in line.split(" ")[0]]
    assert [r.split()[0] for r in rows][:5] == ["1>1", "1>2", "1>3", "1>g", "2>1"]
    assert len(rows) == 12
    assert any(line.startswith("Spread after the offsets: ±") for line in lines)
    saved = json.loads((tmp_path / "data" / TIMING_FILE).read_text())
    assert saved["pad_type"] == "ttp223-fast" and len(saved["offsets_ms"]) == 12
    assert 0 < saved["uncertainty_ms"] < 60  # modules like the TTP223: within its 60 ms
    code, out, _ = run(capsys, cfg, "show")
    assert code == 0 and f"±{saved['uncertainty_ms']:.2f} ms, calibrated" in out
    assert out.count(" ms\n") >= 12


def test_a_dry_run_saves_nothing(tmp_path, capsys):
    cfg = config(tmp_path)
    code, out, _ = run(capsys, cfg, "calibrate", "--simulate", "1", "--seats", "2", "--dry-run")
    assert code == 0 and "Not saved" in out
    assert not (tmp_path / "data" / TIMING_FILE).exists()
    code, out, _ = run(capsys, cfg, "show")
    assert "±60.00 ms, declared (TTP223 datasheet" in out


def test_the_simulated_hub_calibrates_to_about_one_scan(tmp_path, capsys):
    cfg = config(tmp_path, '[pads]\nfrontend = "hub"\n')
    code, out, err = run(capsys, cfg, "calibrate", "--simulate", "2", "--seats", "2")
    assert code == 0, err
    saved = json.loads((tmp_path / "data" / TIMING_FILE).read_text())
    assert saved["pad_type"] == "padhub" and 1.0 <= saved["uncertainty_ms"] < 2.0


def test_simulated_mpr121_pads_calibrate_below_their_declared_eight_ms(tmp_path, capsys):
    cfg = config(tmp_path, '[pads]\nfrontend = "mpr121"\n')
    code, out, err = run(capsys, cfg, "calibrate", "--simulate", "2", "--seats", "3")
    assert code == 0, err
    assert "MPR121 touch controllers on I2C bus 1" in out
    saved = json.loads((tmp_path / "data" / TIMING_FILE).read_text())
    assert saved["pad_type"] == "mpr121" and 3.0 <= saved["uncertainty_ms"] < 8.0


def test_a_clumsy_hand_is_refused_and_the_declared_figure_stays(tmp_path, capsys):
    cfg = config(tmp_path)
    code, out, err = run(capsys, cfg, "calibrate", "--simulate", "3", "--seats", "2", "--clumsy")
    assert code == 1
    assert "Spread after the offsets: ±" in out  # the table is printed for a look
    assert err.startswith("companion: Not saved: the spread after the offsets, ±")
    assert "is no better than the pad type's declared ±60.00 ms" in err
    assert err.rstrip().endswith("the uncertainty in force stays ±60.00 ms (declared).")
    assert err.count("\n") == 1  # one sentence
    assert not (tmp_path / "data" / TIMING_FILE).exists()


def test_a_good_calibration_is_kept_when_a_later_one_is_refused(tmp_path, capsys):
    cfg = config(tmp_path)
    assert run(capsys, cfg, "calibrate", "--simulate", "3", "--seats", "2")[0] == 0
    stored = (tmp_path / "data" / TIMING_FILE).read_text()
    code, _out, err = run(capsys, cfg, "calibrate", "--simulate", "4", "--seats", "2",
                          "--clumsy")
    assert code == 1 and "(calibrated)" in err
    assert (tmp_path / "data" / TIMING_FILE).read_text() == stored


@pytest.mark.parametrize("argv,fragment", [
    (["calibrate", "--seats", "5"], "2 to 4"),
    (["calibrate", "--seats", "9"], "2 to 6"),
    (["calibrate", "--slaps", "0"], "1 to 1000"),
])
def test_bad_arguments_are_one_sentence(tmp_path, capsys, argv, fragment):
    code, _out, err = run(capsys, config(tmp_path), *argv)
    assert code == 2 and fragment in err and "Traceback" not in err


def test_show_raw_prints_every_pads_counts_from_the_hub(tmp_path, capsys):
    cfg = config(tmp_path, '[pads]\nfrontend = "hub"\n')
    code, out, err = run(capsys, cfg, "show", "--raw", "--simulate", "3", "--seats", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Pad hub sim-hub sim-") and "12 pads" in lines[0]
    rows = [line.split() for line in lines[2:14]]
    assert [r[0] for r in rows] == ["1>1", "2>1", "3>1", "1>2", "2>2", "3>2", "1>3", "2>3",
                                    "3>3", "1>g", "2>g", "3>g"]  # in channel order: by island
    assert [int(r[1]) for r in rows][:3] == [0, 1, 2]
    assert all(float(r[4]) > 10 for r in rows)  # each pad adds its capacitance
    assert lines[-1] == "No channel looks saturated, shorted, open or silent."


def test_show_raw_with_gpio_pads_says_there_are_none(tmp_path, capsys):
    code, _out, err = run(capsys, config(tmp_path), "show", "--raw")
    assert code == 2 and "GPIO touch modules have none" in err


def test_show_raw_without_a_hub_says_so(tmp_path, capsys):
    cfg = config(tmp_path, f'[pads]\nfrontend = "hub"\nhub_port = "{tmp_path / "nothing"}"\n')
    code, _out, err = run(capsys, cfg, "show", "--raw", "--timeout", "0.3")
    assert code == 2 and "sent no raw counts in 0.3 s" in err
