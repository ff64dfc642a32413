from __future__ import annotations

import io
import time

import pytest

from companion.service.config import Config
from companion.sim.terminal import HELP, HELP_PIXELS, KEYS, Simulator, sim_config
from companion.ui.views import ListView


def test_sim_config_uses_the_twins(tmp_path):
    cfg = sim_config(Config(), tmp_path)
    assert cfg.display.driver == "terminal" and cfg.service.pin_factory == "mock"
    assert cfg.service.data_dir == str(tmp_path) and cfg.service.shutdown_command == ""


def test_keys_reach_the_service_through_the_mock_pins(tmp_path):
    out = io.StringIO()
    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=out)
    import threading

    th = threading.Thread(target=sim.app.service.run, daemon=True)
    th.start()
    try:
        end = time.monotonic() + 5
        while not isinstance(sim.app.service.last_view, ListView) and time.monotonic() < end:
            time.sleep(0.01)
        assert sim.key("d")  # ▶ on the mock pin
        end = time.monotonic() + 5
        while sim.app.service.last_view.selected != 1 and time.monotonic() < end:
            time.sleep(0.01)
        assert sim.app.service.last_view.selected == 1
        assert sim.key("u") and not sim.dice.plugged
        assert "ODPOJENA" in out.getvalue()
        assert sim.key("u") and sim.dice.plugged
        assert sim.key("q") is False
        assert HELP in out.getvalue()
    finally:
        sim.app.service.stop()
        th.join(5)
        sim.app.close()
        sim.dice.close()


def test_every_key_is_documented_in_the_help_line():
    for key in KEYS:
        if len(key) == 1 and key.isalpha():
            assert any(f"{key} " in h or f"/{key} " in h for h in (HELP, HELP_PIXELS)), key


def wait_view(sim, pred, timeout=8.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = sim.app.service.last_view
        if v is not None and pred(v):
            return v
        time.sleep(0.01)
    raise AssertionError(f"timed out; the screen shows {sim.app.service.last_view!r}")


def test_keys_typed_quickly_are_pressed_in_order_and_none_is_lost(tmp_path):
    """A quick ``m d d Enter`` aimed at "Pravidla" opens the rules (it once undid a roll)."""
    import threading

    from companion.games.clovece.screens import CloveceTurnView
    from companion.storage.journal import Journal

    out = io.StringIO()
    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=out)
    th = threading.Thread(target=sim.app.run, daemon=True)  # the dice reader too
    th.start()
    try:
        wait_view(sim, lambda v: isinstance(v, ListView))
        for key in "a\r":  # to "▶ Začít hru", start
            sim.key(key)
        wait_view(sim, lambda v: isinstance(v, CloveceTurnView) and v.dice == "ok")
        sim.key("r")  # a roll of the simulated dice
        wait_view(sim, lambda v: isinstance(v, CloveceTurnView) and "hodil" in v.event)
        journal = Journal(tmp_path / "game.journal").load()
        assert journal[-1]["t"] == "roll"
        for key in "mdd\r":  # typed at once
            sim.key(key)
        v = wait_view(sim, lambda v: isinstance(v, ListView) and v.title.startswith("Pravidla"))
        assert v.title == "Pravidla: Člověče"
        end = time.monotonic() + 2
        while not sim.presser.idle() and time.monotonic() < end:
            time.sleep(0.01)
        assert Journal(tmp_path / "game.journal").load() == journal  # nothing undone
    finally:
        sim.app.service.stop()
        th.join(5)
        sim.dice.close()


def test_the_status_line_speaks_czech():
    from companion.devices.buzzer import PATTERNS
    from companion.sim.terminal import SOUNDS

    assert set(SOUNDS) == set(PATTERNS)  # every buzzer pattern has its Czech name
    english = {"turn", "illegal", "six", "win"}
    assert not english & {w for name in SOUNDS.values() for w in name.split()}
    assert not english & set(HELP.split())


def test_with_the_hub_the_pad_keys_tap_a_simulated_pad_hub_for_six_seats(tmp_path):
    import queue
    from dataclasses import replace

    from companion.devices.pads.hub import PadHub
    from companion.inputs.events import PadEvent
    from companion.inputs.pads import Pad, PadTouch

    base = sim_config(Config(), tmp_path)
    cfg = replace(base, pads=replace(base.pads, frontend="hub"),
                  game=replace(base.game, name="gobbit", seats=6))
    sim = Simulator(cfg, seed=3, stream=io.StringIO())
    try:
        assert sim.hub is not None and sim.app.hardware.hub_port == sim.hub.path
        sim.app.hardware.want_pads(6)
        assert isinstance(sim.app.hardware.pads, PadHub)
        keys = sim.pad_keys()
        assert len(keys) == 42 and keys["/"] == Pad(6, "g")
        end = time.monotonic() + 5
        while not sim.app.hardware.pads.connected and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.12)  # the hub's baselines settle
        assert sim.key("/")
        touch = None
        while touch is None and time.monotonic() < end + 5:
            try:
                event = sim.app.service.queue.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, PadEvent) and isinstance(event.event, PadTouch):
                touch = event.event
        assert touch is not None and touch.pad == Pad(6, "g")
    finally:
        sim.app.close()
        sim.dice.close()
        sim.hub.close()


def test_the_bonnet_profile_shows_its_controls_and_taps_mpr121_pads(tmp_path):
    import queue
    from dataclasses import replace

    from companion.devices.pads.mpr121 import Mpr121Pads
    from companion.inputs.events import ButtonPress, PadEvent
    from companion.inputs.pads import Pad, PadTouch
    from companion.service.pi_profiles import with_bonnet
    from companion.sim.terminal import HELP_BONNET

    base = with_bonnet(sim_config(Config(), tmp_path))
    cfg = replace(base, dice=replace(base.dice, kind="serial"),
                  game=replace(base.game, name="gobbit", seats=3))
    out = io.StringIO()
    sim = Simulator(cfg, seed=3, stream=out)
    try:
        assert sim.i2c is not None and sim.app.hardware.buzzer is None
        sim.app.service.draw(0.0)
        assert HELP_BONNET in out.getvalue()
        assert sim.key("b")  # button B: the rules
        sim.app.hardware.want_pads(3)
        assert isinstance(sim.app.hardware.pads, Mpr121Pads)
        keys = sim.pad_keys()
        assert keys["4"] == Pad(1, "g")
        assert sim.key("4")
        got, end = [], time.monotonic() + 5
        while time.monotonic() < end and not (any(isinstance(e, PadTouch) for e in got)
                                              and ButtonPress("help") in got):
            try:
                event = sim.app.service.queue.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, ButtonPress):
                got.append(event)
            elif isinstance(event, PadEvent):
                got.append(event.event)
        assert ButtonPress("help") in got
        assert [e.pad for e in got if isinstance(e, PadTouch)] == [Pad(1, "g")]
    finally:
        sim.app.close()
        sim.dice.close()


def test_the_sim_leaves_the_phone_view_to_the_command_line():
    from dataclasses import replace
    from pathlib import Path

    base = Config()
    cfg = sim_config(replace(base, web=replace(base.web, enabled=True)), Path("x"))
    assert cfg.web.enabled is False


def spawn_sim_on_a_pty(data_dir, deaf_to_hangup: bool = False):
    """`companion sim` on a new pty, started with subprocess (no fork of this threaded pytest
    process running Python in the child: that can deadlock on a lock another thread held);
    returns the process and the pty's master end."""
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    sim = [sys.executable, "-m", "companion", "sim", "--data-dir", str(data_dir), "--no-web",
           "--seed", "1"]
    if deaf_to_hangup:  # like under nohup: the hang-up is ignored from before the sim starts
        sim = [sys.executable, "-c", "import os, signal, sys; "
               "signal.signal(signal.SIGHUP, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])",
               *sim]
    proc = subprocess.Popen(sim, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                            env={**os.environ, "COLUMNS": "140", "LINES": "45"})
    os.close(slave)
    return proc, master


def read_pty(master: int, until: bytes, timeout_s: float) -> bytes:
    """What the pty shows until `until` is seen, the other end closes or the time is up; never
    blocks past the time."""
    import os
    import select

    seen = b""
    deadline = time.monotonic() + timeout_s
    while until not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([master], [], [], left)[0]:
            break
        try:
            got = os.read(master, 65536)
        except OSError:
            break
        if not got:
            break
        seen += got
    return seen


def exit_code(proc, why_not: str) -> int:
    """The sim's exit code once it ended by itself within 15 s (else killed, and the test fails
    with ``why_not``)."""
    import subprocess

    try:
        return proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(why_not) from None


def test_closing_the_terminal_window_ends_the_sim_and_keeps_the_game(tmp_path):
    """A terminal that goes away while the sim runs (a closed window, a killed tmux whose
    hang-up does not reach it) ends the sim cleanly instead of leaving it spinning on a
    dead terminal; the game is in the journal for the next start."""
    import os

    proc, master = spawn_sim_on_a_pty(tmp_path, deaf_to_hangup=True)
    try:
        seen = read_pty(master, b"kostka", 30)  # the first frame is up
        assert b"kostka" in seen, seen[-500:]
        os.write(master, b"as")  # start a game: its journal is written
        journal = tmp_path / "game.journal"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size):
            read_pty(master, b"\0never\0", 0.2)  # keep the terminal drained meanwhile
    finally:
        os.close(master)
    assert exit_code(proc, "the sim kept running on a closed terminal") == 0
    assert (tmp_path / "game.journal").stat().st_size > 0


def test_with_a_pixels_die_the_keys_throw_it_and_carry_it_away(tmp_path):
    from dataclasses import replace

    from companion.inputs.events import DiceLink, Rolled

    cfg = sim_config(Config(), tmp_path)
    cfg = replace(cfg, dice=replace(cfg.dice, kind="pixels"))
    out = io.StringIO()
    sim = Simulator(cfg, seed=3, stream=out)
    seen = []
    handle = sim.app.controller.handle
    sim.app.controller.handle = lambda event, now: (seen.append(event), handle(event, now))[1]
    import threading

    th = threading.Thread(target=sim.app.service.run, daemon=True)
    th.start()
    try:
        end = time.monotonic() + 10
        while not sim.app.ctx.dice.usable and time.monotonic() < end:
            time.sleep(0.01)
        assert sim.app.ctx.dice.usable and sim.pixels.status() == "připojena"
        assert sim.key("r")
        end = time.monotonic() + 5
        while not any(isinstance(e, Rolled) for e in seen) and time.monotonic() < end:
            time.sleep(0.01)
        assert any(isinstance(e, Rolled) for e in seen)
        assert sim.key("u")
        end = time.monotonic() + 5
        while DiceLink(False, "asleep or out of range") not in seen and time.monotonic() < end:
            time.sleep(0.01)
        assert DiceLink(False, "asleep or out of range") in seen

        def shown() -> str:  # the footer wraps to the terminal: the keys, one line or two
            return " ".join(out.getvalue().replace("\x1b[K", "").split())

        while "kostka Pixels: mimo dosah" not in shown() and time.monotonic() < end:
            time.sleep(0.01)  # the link's line is drawn after the shell took the event
        assert "kostka Pixels: mimo dosah" in shown() and " ".join(HELP_PIXELS.split()) in shown()
    finally:
        sim.app.service.stop()
        th.join(5)
        sim.app.close()
        sim.dice.close()
        sim.pixels.close()


def test_arrow_keys_up_and_down_move_through_a_list_and_nothing_else(tmp_path):
    import threading

    from companion.games.clovece.screens import CloveceTurnView

    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=io.StringIO())
    th = threading.Thread(target=sim.app.run, daemon=True)
    th.start()
    try:
        wait_view(sim, lambda v: isinstance(v, ListView))
        assert sim.key("\x1b[B")  # ↓ = ▶
        wait_view(sim, lambda v: isinstance(v, ListView) and v.selected == 1)
        assert sim.key("\x1b[A")  # ↑ = ◀
        wait_view(sim, lambda v: isinstance(v, ListView) and v.selected == 0)
        for key in "a\r":  # to "▶ Začít hru", start
            sim.key(key)
        turn = wait_view(sim, lambda v: isinstance(v, CloveceTurnView))
        assert sim.key("\x1b[B") and sim.key("\x1b[A")
        time.sleep(0.3)
        assert sim.presser.idle() and sim.app.service.last_view == turn  # no list: nothing
    finally:
        sim.app.service.stop()
        th.join(5)
        sim.dice.close()


def screen_text(size, footer):
    """What a terminal of ``size`` shows under the picture with ``footer``."""
    from companion.devices.terminal_display import TerminalDisplay
    from companion.ui.screens import render
    from companion.ui.views import MessageView

    out = io.StringIO()
    d = TerminalDisplay(stream=out)
    d.terminal_size = lambda: size  # type: ignore[method-assign]
    d.set_footer(footer)
    d.display(render(MessageView("Gobbit")))
    frame = out.getvalue().rsplit("\x1b[H", 1)[1].replace("\x1b[K", "").replace("\x1b[J", "")
    return frame.split("\n")


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("size,mode_width", [((130, 36), 128), ((80, 24), 64)])
def test_every_seats_pad_keys_are_listed_at_130x36_and_80x24(seats, size, mode_width):
    from companion.sim.padkeys import load_keymap
    from companion.sim.terminal import gobbit_footer

    keys = load_keymap(seats)
    footer = gobbit_footer(keys, "   telefon: http://192.168.100.200:65535/AbCdEfGhIjK/   ♪ hm")
    lines = screen_text(size, footer)
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
    assert len(lines[1]) == mode_width + 2  # the picture is drawn, not the size message
    text = " ".join(" ".join(lines).split())
    for seat in range(1, seats + 1):
        row = " ".join(k for k, pad in keys.items() if pad.seat == seat)
        assert f"H{seat}: {row}" in text, (seat, lines)
    assert "Enter ●" in text and "telefon: http://192.168.100.200:65535/AbCdEfGhIjK/" in text


def test_the_size_message_and_the_docs_name_the_same_sizes():
    """The table of terminal sizes in docs/players/sim.md and the message of a terminal too
    small."""
    import re
    from pathlib import Path

    from companion.devices.terminal_display import needed_for, too_small
    from companion.sim.padkeys import load_keymap
    from companion.sim.terminal import gobbit_footer

    readme = (Path(__file__).resolve().parents[2] / "docs" / "players" / "sim.md").read_text(
        "utf-8")
    plain = f"kostka: připojena   telefon: http://127.0.0.1:40000/AbCdEfGhIjK/\n{HELP}"
    gobbit = gobbit_footer(load_keymap(4), "   telefon: http://127.0.0.1:40000/AbCdEfGhIjK/")
    for footer in (plain, gobbit):
        (hc, hl), (bc, bl) = needed_for("half", footer), needed_for("braille", footer)
        text = " ".join(too_small(60, 15, footer))
        assert f"aspoň {bc}×{bl} znaků (ostrý obrázek od {hc}×{hl})" in text
        assert f"{hc} × {hl}" in readme and f"{bc} × {bl}" in readme
    assert re.search(r"130 × 36 or more \| half blocks", readme)


def test_q_says_the_game_is_kept_as_it_quits(tmp_path):
    import os

    proc, master = spawn_sim_on_a_pty(tmp_path)
    try:
        seen = read_pty(master, b"kostka", 30)
        os.write(master, b"q")
        seen += read_pty(master, b"\0", 15)  # to the end: the sim closes the pty as it quits
    finally:
        os.close(master)
        code = exit_code(proc, "q did not end the sim")
    assert code == 0
    assert seen.rstrip().endswith("Hra je uložená.".encode()), seen[-200:]


def test_a_held_arrow_key_holds_the_button_down_and_it_runs():
    """A terminal sends a held key again and again: the presser keeps the pin down while
    the key keeps coming, and the real buttons run (hardware/buttons.py)."""
    import threading

    from gpiozero.pins.mock import MockFactory

    from companion.devices.buttons import Buttons
    from companion.inputs.events import ButtonPress
    from companion.sim.terminal import PinPresser

    factory = MockFactory()
    got: list[ButtonPress] = []
    lock = threading.Lock()

    def post(ev):
        with lock:
            got.append(ev)

    buttons = Buttons({"left": 5, "select": 6, "right": 13}, post, bounce=None,
                      pin_factory=factory)
    presser = PinPresser(factory, {"left": 5, "select": 6, "right": 13}, 0.8)
    try:
        end = time.monotonic() + 1.6
        while time.monotonic() < end:  # the key repeats, 30 times a second
            presser.hold("right")
            time.sleep(0.033)
        time.sleep(PinPresser.HOLD_GAP + 0.2)
        assert presser.idle() and factory.pin(13).state == 1  # let go
        assert len(got) >= 6 and set(got) == {ButtonPress("right")}
        count = len(got)
        presser.submit("right")  # a single press is one step
        end = time.monotonic() + 2
        while len(got) == count and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.2)
        assert len(got) == count + 1
    finally:
        buttons.close()
        factory.close()


def test_repeated_arrow_keys_are_held_but_keys_sent_in_one_go_are_pressed(tmp_path, monkeypatch):
    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=io.StringIO())
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(sim.presser, "hold", lambda name: calls.append(("hold", name)))
    monkeypatch.setattr(sim.presser, "submit", lambda name, long=False: calls.append(
        ("tap", name)))
    try:
        sim.key("\x1b[C")
        sim.key("\x1b[C")  # again at once: the key is held down
        time.sleep(0.3)
        sim.key("\x1b[C")  # after a pause: a new press
        sim.key("\x1b[C", burst=True)  # pasted or scripted with it: a press too
        time.sleep(0.3)
        sim.key("d")
        sim.key("d")  # d is ▶ too
        sim.key("s")
        sim.key("s")  # ● does not run: pressed again
        assert calls == [("tap", "right"), ("hold", "right"), ("tap", "right"),
                         ("tap", "right"), ("tap", "right"), ("hold", "right"),
                         ("tap", "select"), ("tap", "select")]
    finally:
        sim.app.close()
        sim.dice.close()


def test_h_and_tab_hold_left_down_and_the_voice_mode_reads_the_whole_situation(tmp_path):
    """The voice mode's held ◀ in ``make run``: h (and Tab, also at a Gobbit table) holds ◀
    down past a long press, through the mock pins, and the situation is said."""
    import threading

    from companion.devices.voice import SilentAnnouncer
    from companion.games.clovece.screens import CloveceTurnView

    voice = SilentAnnouncer()
    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=io.StringIO(),
                    announcer=voice)
    sim.app.ctx.prefs.voice_mode = "table"
    th = threading.Thread(target=sim.app.run, daemon=True)
    th.start()
    try:
        wait_view(sim, lambda v: isinstance(v, ListView))
        for key in "a\r":  # to "▶ Začít hru", start
            sim.key(key)
        wait_view(sim, lambda v: isinstance(v, CloveceTurnView) and v.dice == "ok")
        for key in ("h", "\t"):
            heard = len(voice.spoken)
            sim.key(key)
            end = time.monotonic() + 8
            while not any(s.startswith("Červený: čtyři figurky v domečku")
                          for s in voice.spoken[heard:]) and time.monotonic() < end:
                time.sleep(0.02)
            assert any(s.startswith("Červený: čtyři figurky v domečku")
                       for s in voice.spoken[heard:]), voice.spoken[heard:]
            assert isinstance(sim.app.service.last_view, CloveceTurnView)  # nothing else moved
    finally:
        sim.app.service.stop()
        th.join(5)
        sim.dice.close()
    assert "h držet ◀" in HELP and "h držet ◀" in HELP_PIXELS


def test_tab_holds_left_also_at_a_gobbit_table_where_h_is_a_pad(tmp_path, monkeypatch):
    from companion.sim.padkeys import load_keymap
    from companion.sim.terminal import HELP_GOBBIT

    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=io.StringIO())
    keys = load_keymap(5)
    assert "h" in keys and "\t" not in keys  # h is a pad at five seats (the pad hub)
    monkeypatch.setattr(sim, "pad_keys", lambda: keys)
    calls: list[tuple[str, bool]] = []
    monkeypatch.setattr(sim.presser, "submit", lambda name, long=False: calls.append(
        (name, long)))
    monkeypatch.setattr(sim, "_tap", lambda pad: calls.append(("pad", False)))
    try:
        sim.key("\t")
        sim.key("h")
        time.sleep(0.1)
        assert calls == [("left", True), ("pad", False)]
        assert "Tab držet ◀" in HELP_GOBBIT
    finally:
        sim.app.close()
        sim.dice.close()


def test_arrow_keys_move_through_a_games_own_list_too(tmp_path):
    import threading

    from companion.games.napij.views import NapijView

    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=io.StringIO())
    th = threading.Thread(target=sim.app.run, daemon=True)
    th.start()
    try:
        wait_view(sim, lambda v: isinstance(v, ListView))
        sim.key("\r")  # ● on the game line: napij se
        wait_view(sim, lambda v: isinstance(v, ListView) and "napij" in v.items[0])
        for key in "a\r":  # to "▶ Začít hru", start
            sim.key(key)
        wait_view(sim, lambda v: isinstance(v, NapijView) and v.banner is not None)
        sim.key("\r")  # the opening toast: drunk
        wait_view(sim, lambda v: isinstance(v, NapijView) and v.banner is None)
        sim.key("m")
        menu = wait_view(sim, lambda v: isinstance(v, ListView) and "Povinnost napít se" in v.items)
        for _ in range(menu.items.index("Povinnost napít se")):
            sim.key("\x1b[B")
        wait_view(sim, lambda v: isinstance(v, ListView)
                  and v.items[v.selected] == "Povinnost napít se")
        sim.key("\r")
        wait_view(sim, lambda v: isinstance(v, NapijView) and v.player == "Kdo se napije?"
                  and v.selected == 0)
        assert sim.key("\x1b[B")  # ↓ = ▶ in "Kdo se napije?"
        wait_view(sim, lambda v: isinstance(v, NapijView) and v.selected == 1)
        assert sim.key("\x1b[A")  # ↑ = ◀
        wait_view(sim, lambda v: isinstance(v, NapijView) and v.selected == 0)
    finally:
        sim.app.service.stop()
        th.join(5)


def test_the_status_line_names_only_the_sounds_of_the_game_on_the_table(tmp_path):
    sim = Simulator(sim_config(Config(), tmp_path), seed=3, stream=io.StringIO())
    try:
        sim._sound("drink-dropped-dice")  # napij se's buzzer: the die fell, drink
        assert "♪ kostka spadla, pít" in sim._footer
        sim.app.controller._switch_table()  # another game chosen in the set-up
        sim._update_footer()
        assert "♪" not in sim._footer and "kostka spadla" not in sim._footer
        sim._sound("turn")
        assert "♪ na tahu" in sim._footer  # the new game's own sounds are shown
    finally:
        sim.app.close()
        sim.dice.close()
