import pytest

from companion.commandline import parse_roll, seconds
from companion.errors import UsageError


def test_a_roll_is_one_to_six():
    assert [parse_roll(str(v)) for v in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    for bad in ("0", "7", "x", "", "-1", "٣"):
        with pytest.raises(UsageError, match="A roll is a number from 1 to 6"):
            parse_roll(bad)


def test_seconds_are_finite_and_in_range():
    assert seconds("1.5", "--delay") == 1.5
    for bad in ("-1", "nan", "inf", "x", "1e9"):
        with pytest.raises(UsageError, match="--delay must be"):
            seconds(bad, "--delay")


def test_an_output_file_in_a_folder_that_takes_no_files_is_refused_at_once(tmp_path):
    from companion.commandline import output_file

    with pytest.raises(UsageError, match="cannot be written"):
        output_file("/proc/x.gif", "--gif")
    made = output_file(str(tmp_path / "a.gif"), "--gif")
    assert made == tmp_path / "a.gif" and not made.exists()  # the probe leaves nothing behind


def test_a_config_file_name_with_a_nul_is_one_sentence(capsys):
    from companion.cli import main

    for argv in (["--config", "a\x00b", "pads", "show"], ["pads", "show", "--config", "a\x00b"]):
        assert main(argv) == 2
        assert capsys.readouterr().err == (
            "companion: The config file's name has a NUL character in it.\n")
