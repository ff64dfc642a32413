"""The service commands' phone view: ``companion sim --web/--no-web`` and ``companion demo
--web HOST:PORT --linger SECONDS`` (the first line printed is ``web: URL``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def quick_sim(monkeypatch):
    """``companion sim`` that draws its first frame and stops; what it had is kept."""
    import companion.sim.terminal as terminal

    seen: dict[str, object] = {}

    def run(self) -> int:
        self.app.service.draw(0.0)
        phone = self.app.phone
        seen["url"] = None if phone is None else phone.url
        seen["phone"] = phone
        seen["footer"] = self.app.screen.device.footer
        self.app.close()
        return 0

    monkeypatch.setattr(terminal.Simulator, "run", run)
    return seen


def test_the_sim_serves_the_phone_view_on_loopback_and_shows_its_url(tmp_path, quick_sim,
                                                                      capsys):
    assert main(["sim", "--data-dir", str(tmp_path)]) == 0
    url = quick_sim["url"]
    assert isinstance(url, str) and url.startswith("http://127.0.0.1:")
    assert f"telefon: {url}" in str(quick_sim["footer"])
    assert f"telefon: {url}" in capsys.readouterr().out  # under the panel in the terminal
    assert quick_sim["phone"].url is None  # closed when the sim ends


def test_the_sim_serves_where_it_is_told(tmp_path, quick_sim):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["sim", "--data-dir", str(tmp_path), "--web", f"127.0.0.1:{port}"]) == 0
    assert quick_sim["url"].startswith(f"http://127.0.0.1:{port}/")


def test_no_web_means_no_phone_view_even_when_the_configuration_enables_one(tmp_path,
                                                                            quick_sim):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[web]\nenabled = true\naddress = "127.0.0.1"\nport = 8080\n')
    assert main(["--config", str(cfg), "sim", "--data-dir", str(tmp_path / "d"),
                 "--no-web"]) == 0
    assert quick_sim["phone"] is None
    assert "telefon:" not in str(quick_sim["footer"])


@pytest.mark.parametrize("value", ["nope", "127.0.0.1", "127.0.0.1:99999", "::1:80"])
def test_a_bad_web_address_is_one_sentence(tmp_path, quick_sim, capsys, value):
    for argv in (["sim", "--data-dir", str(tmp_path), "--web", value],
                 ["demo", "--gif", str(tmp_path / "d.gif"), "--web", value]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("companion: --web must be HOST:PORT") and err.count("\n") == 1


def test_a_port_in_use_is_one_sentence(tmp_path, quick_sim, capsys):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["sim", "--data-dir", str(tmp_path), "--web", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and str(port) in err and err.count("\n") == 1


def test_linger_without_web_is_one_sentence(tmp_path, capsys):
    assert main(["demo", "--gif", str(tmp_path / "d.gif"), "--linger", "5"]) == 2
    err = capsys.readouterr().err
    assert err == ("companion: --linger keeps the phone view open after the demo: "
                   "give --web too.\n")
    assert not (tmp_path / "d.gif").exists()


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_demo_prints_the_url_first_and_serves_the_game_while_it_lingers(tmp_path):
    gif = tmp_path / "demo.gif"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--game", "clovece", "--seed", "4",
         "--players", "2", "--gif", str(gif), "--max-rolls", "12", "--web", "127.0.0.1:0",
         "--linger", "60"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().rstrip("\n")
        assert first.startswith("web: http://127.0.0.1:"), first
        url = first.removeprefix("web: ")
        token = url.rstrip("/").rsplit("/", 1)[1]
        assert len(token) == 13 and token.isupper()  # the box's own (companion.web.qr)
        second = proc.stdout.readline()
        assert second.startswith("winner: ") and "rolls: 12" in second
        # the game is over; the view lingers with its last moment
        status, body = get(url + "snapshot.json")
        data = json.loads(body)
        assert status == 200 and data["game"] == "clovece" and data["seq"] >= 1
        assert data["events"] and data["board"]["top"]
        status, page = get(url)
        assert status == 200 and b"<html" in page
        wrong = url.replace(token, token[::-1] + "x")
        for bad in (wrong, wrong + "snapshot.json", url.rsplit("/", 2)[0] + "/"):
            status, body = get(bad)
            assert status == 404 and body == b""
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)  # ends the lingering at once
        assert proc.wait(10) == 0 and time.monotonic() - started < 10
        assert proc.stderr is not None and proc.stderr.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert gif.exists()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "snapshot.json", timeout=2)
