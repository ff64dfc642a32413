"""The assembled service: under faults (a disk that refuses writes, timers after a restart, the
dice on a computer's turn) through the real App, mock pins, the pty dice and the dummy display;
and its wiring of the pads (the front end from [pads], the timing book, offsets applied)."""

from __future__ import annotations

import queue
import time
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.display import create_device
from companion.devices.pads.gpio import SlapPads
from companion.devices.pads.hub import PadHub
from companion.devices.pads.hub_sim import SimulatedHub
from companion.devices.pads.timing import TIMING_FILE, TimingBook
from companion.games import playable
from companion.games.clovece import host as clovece_host
from companion.games.clovece.engine.game import GAME, Setup
from companion.games.clovece.screens import CloveceTurnView
from companion.inputs.events import PadEvent
from companion.inputs.pads import Pad, PadLink, PadTouch
from companion.service.app import App, build_app
from companion.storage.journal import Journal
from companion.ui.views import ListView
from tests.service.rig import Rig, rig_config
from tests.storage.journal_support import CardStorage, FaultyStorage


def start(rig: Rig) -> CloveceTurnView:
    rig.wait(lambda v: isinstance(v, ListView))
    rig.press("left")
    rig.wait(lambda v: isinstance(v, ListView) and v.selected == len(v.items) - 1)
    rig.press("select")
    return rig.wait(lambda v: isinstance(v, CloveceTurnView))


def records(rig: Rig) -> list[dict]:
    return Journal(rig.cfg.data_path / "game.journal").load()


def wait_for(pred, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)


@pytest.mark.parametrize(("fault", "words"), [({"space": 0}, "disk je plný"),
                                              ({"read_only": True}, "jen pro čtení")])
def test_a_refused_write_is_said_and_the_dice_sends_its_roll_again(tmp_path, fault, words):
    storage = FaultyStorage()
    rig = Rig(tmp_path, storage=storage)
    try:
        start(rig)
        rig.wait(lambda v: v.dice == "ok")
        before = records(rig)
        for name, value in fault.items():
            setattr(storage, name, value)
        rig.dice.roll(4)
        v = rig.wait(lambda v: isinstance(v, CloveceTurnView) and words in v.event)
        assert v.event.startswith("Nelze uložit:") and v.roll is None and v.tries == 0
        assert records(rig) == before  # nothing confirmed, nothing torn left behind
        time.sleep(0.8)  # the dice sends it again (every 0.3 s): still refused, still kept
        assert rig.dice.unacked == 1 and records(rig) == before
        storage.space, storage.read_only = None, False  # the disk is back
        wait_for(lambda: rig.dice.unacked == 0)
        assert records(rig)[len(before):] == [{"t": "roll", "v": 4, "src": "dice"}]
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 1)
    finally:
        rig.stop()


def test_a_read_only_data_folder_at_boot_shows_the_game_and_writes_again_by_itself(
        tmp_path, monkeypatch):
    """An SD card the kernel remounted read-only: the service starts (no exit 2), shows the
    game on the card, says why nothing can be saved, refuses a roll with that sentence (the
    dice keeps it), and takes writing up again by itself when the folder is writable."""
    from companion.service import datawatch

    monkeypatch.setattr(datawatch, "PROBE_EVERY", 0.1)
    first = Rig(tmp_path)
    try:
        start(first)
        first.wait(lambda v: v.dice == "ok")
        first.dice.roll(3)
        first.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 1)
    finally:
        first.stop()
    before = records(first)
    sentence = "Nelze uložit: disk je jen pro čtení."
    state = {"ro": True}
    storage = FaultyStorage(read_only=True)
    rig = Rig(tmp_path, storage=storage, seed=2,  # a new boot of the dice
              data_probe=lambda p: sentence if state["ro"] else "")
    try:
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 1)  # the game on the card
        assert any(sentence in line for line in rig.app.controller.host.lines.lines())
        rig.wait(lambda v: v.dice == "ok")
        rig.dice.roll(5)
        time.sleep(0.5)
        v = rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.event == sentence)
        assert v.tries == 1 and rig.dice.unacked == 1 and records(rig) == before
        state["ro"] = storage.read_only = False  # remounted read-write
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 2, timeout=8)
        assert records(rig)[len(before):] == [{"t": "roll", "v": 5, "src": "dice"}]
        assert "Ukládání zase funguje." in rig.app.controller.host.lines.lines()
    finally:
        rig.stop()


def test_a_damaged_journal_on_a_full_card_heals_when_the_journal_fits_and_only_then_says_so(
        tmp_path, monkeypatch):
    """The card is full and the journal damaged: the game is shown, every roll refused with
    "disk je plný" (the dice keeps it), no copy, temporary file or probe left behind; room for
    a small file is not yet "Ukládání zase funguje."; room for the journal itself and the
    journal is repaired (its damaged file kept whole), the roll counts, and only then it is said."""
    from companion.service import datawatch

    monkeypatch.setattr(datawatch, "PROBE_EVERY", 0.1)
    first = Rig(tmp_path)
    try:
        start(first)
        first.wait(lambda v: v.dice == "ok")
        first.dice.roll(3)
        first.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 1)
    finally:
        first.stop()
    before = records(first)
    path = tmp_path / "game.journal"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x5A  # a damaged byte in one file: a repair is due
    path.write_bytes(bytes(data))
    card = CardStorage(tmp_path, capacity=0)
    card.fill()
    rig = Rig(tmp_path, storage=card, seed=2,
              data_probe=lambda p: "" if card.free() > 0 else "Nelze uložit: disk je plný.")
    said = rig.app.controller.host.lines.lines
    try:
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 1)
        rig.wait(lambda v: v.dice == "ok")
        rig.dice.roll(5)
        v = rig.wait(lambda v: isinstance(v, CloveceTurnView) and "disk je plný" in v.event)
        time.sleep(1.0)  # the dice sends it again and again: each refused, nothing left over
        assert rig.dice.unacked == 1 and v.tries == 1
        assert sorted(p.name for p in tmp_path.glob("game.journal*")) == [
            "game.journal", "game.journal.mirror"]
        assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".companion-*"))
        card.capacity += 64  # a small file fits, the journal does not
        time.sleep(1.0)
        assert rig.dice.unacked == 1 and "Ukládání zase funguje." not in said()
        card.capacity += 3 * len(data)  # the journal fits
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 2, timeout=8)
        wait_for(lambda: "Ukládání zase funguje." in said())
        assert records(rig)[len(before):] == [{"t": "roll", "v": 5, "src": "dice"}]
        assert (tmp_path / "game.journal.damaged-1").read_bytes() == bytes(data)
    finally:
        rig.stop()


def test_a_read_only_data_folder_that_does_not_exist_is_no_configuration_error(tmp_path):
    """The folder cannot be created on a read-only card: the set-up shows, with the reason."""
    from companion.service import datawatch

    assert datawatch.probe(tmp_path / "missing") == "Nelze uložit: disk je jen pro čtení."
    assert datawatch.probe(tmp_path) == ""


def test_a_failing_timer_does_not_stop_the_service_and_tries_again(tmp_path, monkeypatch):
    monkeypatch.setattr(clovece_host, "RETRY_AFTER", 0.2)
    storage = FaultyStorage()
    rig = Rig(tmp_path, dice=False, computer=("r",), storage=storage)
    try:
        rig.wait(lambda v: isinstance(v, ListView))
        storage.read_only = True
        rig.press("left")
        rig.wait(lambda v: isinstance(v, ListView) and v.selected == len(v.items) - 1)
        rig.press("select")  # the header cannot be written: the set-up stays
        rig.wait(lambda v: isinstance(v, ListView))
        storage.read_only = False
        rig.press("select")
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.prompt == "PC hází…")
        storage.read_only = True  # the computer's throw (a timer) cannot be saved
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and "Nelze uložit" in v.event, timeout=5)
        assert rig.thread.is_alive() and len(records(rig)) == 1
        storage.read_only = False
        wait_for(lambda: len(records(rig)) > 1)
        assert records(rig)[1]["src"] == "computer"
    finally:
        rig.stop()


def journal_with(tmp_path, recs: list[dict]) -> None:
    (tmp_path).mkdir(parents=True, exist_ok=True)
    Journal(tmp_path / "game.journal").replace(recs)


def test_after_a_restart_a_computer_seat_without_a_dice_throws_by_itself(tmp_path):
    journal_with(tmp_path, [GAME.setup_record(Setup(2, computer=frozenset({0})))])
    rig = Rig(tmp_path, dice=False)
    try:
        wait_for(lambda: len(records(rig)) > 1, timeout=5)
        assert records(rig)[1]["src"] == "computer"
    finally:
        rig.stop()


def test_after_a_restart_the_only_legal_move_plays_itself(tmp_path):
    journal_with(tmp_path, [GAME.setup_record(Setup(2)), {"t": "roll", "v": 6, "src": "dice"}])
    rig = Rig(tmp_path, dice=False)
    try:
        wait_for(lambda: len(records(rig)) == 3, timeout=5)
        assert records(rig)[2] == {"t": "move", "from": "h"}
    finally:
        rig.stop()


def test_unplugging_the_dice_on_a_computers_turn_lets_it_throw_by_itself(tmp_path):
    rig = Rig(tmp_path, computer=("r",), computer_dice=True)  # a person throws the real dice
    try:
        start(rig)
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.dice == "ok" and v.prompt == "Hoď za PC")
        time.sleep(1.2)
        assert len(records(rig)) == 1  # with the dice there, a person throws for the computer
        rig.dice.unplug()
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.dice == "lost")
        wait_for(lambda: len(records(rig)) > 1, timeout=5)
        assert records(rig)[1]["src"] == "computer"
    finally:
        rig.stop()


def app_for(tmp_path, **pads):
    cfg = rig_config(tmp_path)
    cfg = replace(cfg, pads=replace(cfg.pads, **pads))
    return build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"), dice_port="",
                     hub_port=pads.get("hub_port"))


def drain(app: App, timeout: float = 5.0, want=lambda e: True) -> list:
    got, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            event = app.service.queue.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(event, PadEvent):
            got.append(event.event)
            if want(got):
                break
    return got


def test_gpio_pads_get_the_stored_offsets_and_every_new_calibration(tmp_path):
    TimingBook("ttp223-fast", path=tmp_path / TIMING_FILE).store({Pad(2, 1): 10.0}, 4.0, 24)
    app = app_for(tmp_path)
    try:
        assert app.hardware.pad_timing.current().uncertainty_ms == 4.0
        assert app.ctx.pad_timing is app.hardware.pad_timing and app.ctx.defaults["max_seats"] == 4
        app.hardware.want_pads(2)
        assert isinstance(app.hardware.pads, SlapPads)
        pads = app.hardware.pads
        began = time.monotonic()
        pads.device(Pad(1, 1)).pin.drive_high()
        pads.device(Pad(2, 1)).pin.drive_high()
        apart_ms = (time.monotonic() - began) * 1000  # the edges' own gap is within this
        first, second = [e for e in drain(app, 1.0, lambda g: len(g) == 2)]
        assert second.ms - first.ms <= apart_ms - 10.0 + 0.01  # pad 2's 10 ms taken off
        app.hardware.pad_timing.store({Pad(2, 1): -10.0}, 3.0, 12)  # now it reports on time
        pads.device(Pad(1, 1)).pin.drive_low()
        pads.device(Pad(2, 1)).pin.drive_low()
        time.sleep(0.02)
        pads.device(Pad(2, 1)).pin.drive_high()
        [third] = drain(app, 1.0, lambda g: len(g) == 1)
        assert third.ms - (second.ms + 10.0) >= 0  # its offset is 0 now
    finally:
        app.close()


def test_a_calibration_of_the_other_front_end_falls_back_to_the_declared_figure(tmp_path):
    TimingBook("padhub", path=tmp_path / TIMING_FILE).store({}, 1.2, 24)
    app = app_for(tmp_path, ttp223_fast_ms=45.0)
    try:
        assert app.hardware.pad_timing.current().uncertainty_ms == 45.0
        assert "padhub" in app.hardware.pad_timing.problem
    finally:
        app.close()


def test_the_hub_front_end_claims_a_pad_hub_for_six_seats(tmp_path):
    with SimulatedHub(seed=2, realtime=False) as hub:
        app = app_for(tmp_path, frontend="hub", hub_port=hub.path)
        try:
            assert app.ctx.defaults["max_seats"] == 6
            assert app.hardware.pad_timing.current().uncertainty_ms == 1.0
            app.hardware.want_pads(6)
            assert isinstance(app.hardware.pads, PadHub) and len(app.hardware.pads.pads) == 42
            got = drain(app, 5.0, lambda g: any(isinstance(e, PadLink) and e.up for e in g))
            assert PadLink(True, "sim-hub sim-1.0.0") in got
            hub.run_until(100)
            hub.slap([Pad(6, "g")], 200.0)
            hub.run_until(400)
            touches = drain(app, 5.0, lambda g: any(isinstance(e, PadTouch) for e in g))
            assert [e.pad for e in touches if isinstance(e, PadTouch)] == [Pad(6, "g")]
            app.hardware.want_pads(None)
            assert app.hardware.pads is None
        finally:
            app.close()


def test_the_mpr121_front_end_reads_pads_on_the_i2c_bus_for_six_seats(tmp_path):
    from companion.devices.pads.mpr121 import Mpr121Pads
    from companion.devices.pads.mpr121_sim import SimulatedMpr121Bus

    bus = SimulatedMpr121Bus(realtime=True, seed=4)
    cfg = rig_config(tmp_path)
    cfg = replace(cfg, pads=replace(cfg.pads, frontend="mpr121"))
    app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"), dice_port="",
                    i2c_bus=bus)
    try:
        assert app.ctx.defaults["max_seats"] == 6
        assert app.hardware.pad_timing.current().uncertainty_ms == 8.0
        app.hardware.want_pads(6)
        assert isinstance(app.hardware.pads, Mpr121Pads) and len(app.hardware.pads.pads) == 42
        assert app.hardware.pads.addresses == (0x5A, 0x5B, 0x5C, 0x5D)
        bus.tap(app.hardware.pads.where(Pad(6, "g")))
        touches = drain(app, 5.0, lambda g: any(isinstance(e, PadTouch) for e in g))
        assert [e.pad for e in touches if isinstance(e, PadTouch)] == [Pad(6, "g")]
        app.hardware.want_pads(None)
        assert app.hardware.pads is None
    finally:
        app.close()


def test_the_bonnet_reads_its_joystick_and_buttons_and_has_no_buzzer(tmp_path):
    from companion.inputs.events import ButtonPress
    from companion.service.pi_profiles import with_bonnet

    factory = MockFactory()
    from companion.devices.voice import SilentAnnouncer

    cfg = with_bonnet(rig_config(tmp_path))
    cfg = replace(cfg, voice=replace(cfg.voice, enabled=True))
    app = build_app(cfg, games=playable(), pin_factory=factory, device=create_device("dummy"), dice_port="",
                    announcer=SilentAnnouncer())
    try:
        app.start_hardware()
        assert app.hardware.buzzer is None
        assert app.hardware.beeps is not None  # the beeps come from the speaker
        assert sorted(app.hardware.buttons.buttons) == ["help", "left", "menu", "right", "select"]
        pin = factory.pin(5)  # button A
        pin.drive_low()
        pin.drive_high()
        end = time.monotonic() + 3
        press = None
        while press is None and time.monotonic() < end:
            try:
                event = app.service.queue.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, ButtonPress):
                press = event
        assert press is not None and press.name == "menu"
    finally:
        app.close()


def test_a_panel_missing_at_the_start_does_not_stop_the_service(tmp_path):
    cfg = rig_config(tmp_path)
    cfg = replace(cfg, display=replace(cfg.display, driver="ssd1306", i2c_port=99))
    app = build_app(cfg, games=playable(), pin_factory=MockFactory(), dice_port="")  # no I2C bus 99 here
    try:
        assert not app.screen.present and "does not answer" in app.screen.status.describe()
        app.service.draw(0.0)  # the frame is kept for when the panel answers
        assert app.screen.frames == 0 and app.screen.reopen is not None
    finally:
        app.close()


# --- the phone view ----------------------------------------------------------------------------


def snapshot_json(url: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(url + "snapshot.json", timeout=5) as answer:
        return json.loads(answer.read())


def test_the_phone_view_starts_after_the_first_frame_follows_the_game_and_stops_with_it(tmp_path):
    from companion.ui.picture import Picture
    from tests.service.test_phone import qr_of

    rig = Rig(tmp_path, web=True)
    try:
        phone = rig.app.phone
        assert phone is not None
        wait_for(lambda: phone.url is not None)
        assert rig.views, "the phone view started before the first frame"
        url = phone.url
        assert url.startswith("http://127.0.0.1:")
        wait_for(lambda: snapshot_json(url).get("seq", 0) >= 1)
        assert snapshot_json(url)["game"] == "clovece"
        start(rig)
        rig.wait(lambda v: v.dice == "ok")
        rig.dice.roll(6)
        rig.wait(lambda v: isinstance(v, CloveceTurnView) and "nasadil" in v.event)
        wait_for(lambda: snapshot_json(url)["events"][-1:] == ["Červený nasadil figurku."])
        data = snapshot_json(url)
        assert data["throws"] == [6] and data["status"] == "Na tahu je červený."
        # "Telefon" from the menu: the panel shows the code of this very address
        rig.press("select", long=True)
        rig.wait(lambda v: isinstance(v, ListView) and v.title == "Nabídka")
        while rig.view.items[rig.view.selected] != "Telefon":
            selected = rig.view.selected
            rig.press("right")
            rig.wait(lambda v, s=selected: v.selected != s)
        rig.press("select")
        rig.wait(lambda v: isinstance(v, Picture))
        wait_for(lambda: rig.device.image.convert("1").tobytes()
                 == rig.app.controller.view().image().tobytes())
        assert qr_of(Picture.of("panel", rig.device.image)) == (url.upper(), 25)  # HTTP://HOST/TOKEN
        rig.press("left")  # any button: back to the game
        rig.wait(lambda v: isinstance(v, CloveceTurnView))
    finally:
        rig.stop()
    assert phone.url is None  # the service's own view is closed with it


def test_a_phone_view_given_to_the_app_gets_the_last_moment_and_stays_the_callers(tmp_path):
    from companion.service.phone import Phone

    phone = Phone().start()
    try:
        rig = Rig(tmp_path, phone=phone)
        try:
            assert rig.app.phone is phone
            start(rig)
            rig.wait(lambda v: v.dice == "ok")
            rig.dice.roll(3)
            rig.wait(lambda v: isinstance(v, CloveceTurnView) and v.tries == 1)
        finally:
            rig.stop()
        assert phone.url is not None  # not closed by the app
        wait_for(lambda: snapshot_json(phone.url).get("throws") == [3])
    finally:
        phone.close()


def test_without_web_the_service_has_no_phone_view(tmp_path):
    from companion.service.shell import phone_off

    rig = Rig(tmp_path)
    try:
        start(rig)
        assert rig.app.phone is None and rig.app.controller.phone_screen() == phone_off()
    finally:
        rig.stop()


# --- the Pi's own interfaces (a fake device tree) ---------------------------------------------


def test_the_service_refuses_pads_on_an_enabled_uart_before_claiming_a_pin(tmp_path):
    from companion.devices.pinmap import PinMapError
    from tests.devices.fake_pi import pi4

    root = pi4(tmp_path / "pi", uart=True)
    cfg = rig_config(tmp_path)
    app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"), dice_port="",
                    system_root=str(root))
    try:
        app.start_hardware()  # display, buttons and buzzer are free: it starts
        with pytest.raises(PinMapError, match=r"^Pad 2>g is on GPIO14 \(header pin 8\), which the "
                           r"serial port \(UART\) has taken"):
            app.hardware.want_pads(4)
        assert app.hardware.pads is None
        app.hardware.want_pads(2)  # two seats stay off GPIO14/15
        assert app.hardware.pads is not None
    finally:
        app.close()


def test_the_service_refuses_to_start_when_the_i2s_overlay_has_the_buzzers_pin(tmp_path):
    from companion.errors import UsageError
    from tests.devices.fake_pi import pi4

    root = pi4(tmp_path / "pi", i2s=True)
    app = build_app(rig_config(tmp_path), games=playable(), pin_factory=MockFactory(), device=create_device("dummy"),
                    dice_port="", system_root=str(root))
    try:
        with pytest.raises(UsageError, match="^The buzzer is on GPIO18.*set voice.i2s = true"):
            app.start_hardware()
        assert app.hardware.buzzer is None and app.hardware.buttons is None  # nothing claimed
    finally:
        app.close()
    cfg = rig_config(tmp_path)
    cfg = replace(cfg, voice=replace(cfg.voice, i2s=True), pins=cfg.pins.moved_for_i2s())
    app = build_app(cfg, games=playable(), pin_factory=MockFactory(), device=create_device("dummy"), dice_port="",
                    system_root=str(root))
    try:
        app.start_hardware()
        assert app.hardware.buzzer is not None
    finally:
        app.close()
