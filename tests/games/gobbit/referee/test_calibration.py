"""The calibration screens: slaps counted, the offsets table and the spread, saved or not."""

from __future__ import annotations

import pytest

from companion.devices.pads.calibration import Calibration, Refusal, pair_plan
from companion.devices.pads.gpio import SlapPads
from companion.devices.pads.sim import (
    CLUMSY,
    FLAT,
    ClockedMockFactory,
    PadModel,
    SimulatedTable,
    run_plan,
)
from companion.devices.pads.timing import PadTiming
from companion.devices.pinmap import load_default
from companion.games.gobbit.referee.calibration import (
    CalibrationModel,
    Step,
    offset_lines,
    refusal_sentence,
    signed_ms,
)
from companion.inputs.pads import Pad, PadLink, PadTouch, table_pads
from companion.ui.referee import WIDTH, wrap

DELAY = {Pad(1, 1): 3.0, Pad(2, 1): 9.0, Pad(1, 2): 0.0, Pad(2, 2): 6.0,
         Pad(1, "g"): 12.0, Pad(2, "g"): 1.0}


def fits(screen) -> None:
    assert len(screen.title) <= WIDTH and len(screen.lines) <= 4
    assert all(len(line) <= WIDTH for line in screen.lines), screen.lines


class Saver:
    def __init__(self):
        self.saved: list[Calibration] = []

    def __call__(self, cal: Calibration) -> PadTiming:
        self.saved.append(cal)
        return PadTiming("ttp223-fast", cal.spread_ms, cal.offsets_ms, True, cal.slaps)


def slap(model, pads, at, jitter=0.0):
    for k, pad in enumerate(pads):
        model.on_pad_event(PadTouch(pad.seat, pad.target, 0.0, at + DELAY[pad] + jitter * k))


def test_table_pads_are_every_seat_on_every_pile_and_the_graveyard():
    assert table_pads(2) == list(DELAY)[:0] + [Pad(1, 1), Pad(1, 2), Pad(1, "g"), Pad(2, 1),
                                              Pad(2, 2), Pad(2, "g")]
    assert len(table_pads(6)) == 42


def test_slaps_are_counted_then_the_offsets_are_saved_and_shown():
    save = Saver()
    model = CalibrationModel(table_pads(2), save, before_ms=60.0, min_slaps=2)
    first = model.screen()
    fits(first)
    assert first.title.endswith("0/6") and "Plácni" in first.lines[0]
    pairs = [(Pad(1, 1), Pad(2, 1)), (Pad(1, 2), Pad(2, 2)), (Pad(1, "g"), Pad(2, "g")),
             (Pad(2, 1), Pad(1, 2)), (Pad(2, 2), Pad(1, "g"))]
    at = 0.0
    for r in range(2):
        for pair in pairs:
            slap(model, pair, at, jitter=0.5 * r)
            at += 1000.0
    model.on_pad_event(PadLink(True, "hub"))  # not a touch: ignored
    screen = model.screen()
    fits(screen)
    assert screen.title.endswith("6/6") and screen.lines[-1] == "●uložit ◀zrušit"
    model.on_button("select")
    assert model.step is Step.RESULT and len(save.saved) == 1
    cal = save.saved[0]
    assert cal.offsets_ms[Pad(1, "g")] - cal.offsets_ms[Pad(1, 2)] == pytest.approx(12.0, abs=0.5)
    summary = model.screen()
    fits(summary)
    assert summary.title.startswith("Kalibrace hotová")
    assert summary.lines[0].startswith("Rozptyl") and summary.lines[1].endswith("±60 ms")
    model.on_button("right")
    table = model.screen()
    fits(table)
    assert table.title.startswith("Posun podložek") and table.lines[0].startswith("1>1")
    model.on_button("select")
    assert model.done


def test_touches_after_the_end_are_not_taken():
    model = CalibrationModel(table_pads(2), Saver(), before_ms=60.0, min_slaps=1)
    slap(model, (Pad(1, 1), Pad(2, 1)), 0.0)
    model.on_button("select")
    assert model.step is Step.FAILED  # four pads never linked
    count = len(model.session.all_slaps())
    slap(model, (Pad(1, 2), Pad(2, 2)), 5000.0)
    assert len(model.session.all_slaps()) == count


def test_pads_left_out_are_named_and_nothing_is_saved():
    save = Saver()
    model = CalibrationModel(table_pads(2), save, before_ms=60.0)
    slap(model, (Pad(1, 1), Pad(2, 1)), 0.0)
    slap(model, (Pad(1, 1), Pad(2, 1)), 1000.0)
    model.on_button("select")
    screen = model.screen()
    fits(screen)
    assert model.step is Step.FAILED and save.saved == []
    assert "1>2" in " ".join(screen.lines) and screen.lines[-1] == "◀konec ●dál plácat"
    model.on_button("select")  # slap on: the two slaps so far are kept
    assert model.step is Step.COLLECT and len(model.session.all_slaps()) == 2
    model.on_button("select")
    model.on_button("left")
    assert model.done


def test_no_slap_of_two_pads_says_so():
    model = CalibrationModel(table_pads(2), Saver(), before_ms=60.0)
    model.on_pad_event(PadTouch(1, 1, 0.0, 0.0))
    model.on_button("select")
    assert "dvě podložky" in " ".join(model.screen().lines)


def test_leaving_saves_nothing():
    save = Saver()
    model = CalibrationModel(table_pads(2), save, before_ms=60.0)
    slap(model, (Pad(1, 1), Pad(2, 1)), 0.0)
    model.on_button("left")
    assert model.done and save.saved == []


def test_a_save_that_fails_is_said():
    def broken(cal):
        raise OSError("disk full")

    model = CalibrationModel([Pad(1, 1), Pad(2, 1)], broken, before_ms=60.0, min_slaps=1)
    slap(model, (Pad(1, 1), Pad(2, 1)), 0.0)
    model.on_button("select")
    assert model.step is Step.FAILED and "uložit" in " ".join(model.screen().lines)


def test_offsets_two_pads_a_line_within_the_display():
    cal = Calibration({Pad(1, 1): 3.25, Pad(6, "g"): -12.5, Pad(3, 4): 0.04}, 4.0, 10, {})
    assert offset_lines(cal) == ["1>1   +3,2 3>4   +0,0", "6>g  -12,5"]
    assert signed_ms(-0.04) == "+0,0" and signed_ms(-0.06) == "-0,1"
    big = Calibration({p: -123.4 for p in table_pads(6)}, 4.0, 10, {})
    assert all(len(line) <= WIDTH for line in offset_lines(big))


def test_the_hubs_wrong_channels_are_named_before_the_first_slap():
    from companion.inputs.pads import PadChannel, PadChannels

    model = CalibrationModel(table_pads(2), Saver(), before_ms=1.0, min_slaps=2,
                             channels=PadChannels((PadChannel(Pad(2, 1), "saturated"),)))
    screen = model.screen()
    fits(screen)
    assert screen.lines[:2] == ("Vadné kanály:", "2>1 nenabíjí se")
    many = PadChannels(tuple(PadChannel(p, "open") for p in table_pads(2)))
    model.on_pad_event(many)  # a newer report replaces it
    screen = model.screen()
    fits(screen)
    assert screen.lines[:3] == ("Vadné kanály:", "1>1 bez podložky", "… a další 5")
    model.on_pad_event(PadChannels(()))  # all fine: the instructions again
    assert model.screen().lines[0].startswith("Plácni")
    slap(model, [Pad(1, 1), Pad(2, 1)], 1000.0)
    model.on_pad_event(many)
    assert model.screen().lines[0].startswith("Plácnutí")  # slapping has begun: the count


# --- a calibration that refuses nonsense: simulated hands on simulated TTP223 pads ------------


def slapped(model: CalibrationModel, seed: int, hand, seats: int = 2) -> None:
    """The calibration routine on simulated pads (padsim), their touches fed to ``model``."""
    factory = ClockedMockFactory()
    gpio = SlapPads.from_pinmap(load_default(), seats, model.on_pad_event, pin_factory=factory)
    pads = table_pads(seats)
    sim = SimulatedTable(gpio, factory, PadModel.ttp223(pads, seed), seed=seed)
    run_plan(sim, pair_plan(pads), 12, every_ms=400.0, hand=hand, seed=seed)
    gpio.close()


def test_a_flat_hand_is_saved():
    save = Saver()
    model = CalibrationModel(table_pads(2), save, before_ms=60.0, declared_ms=60.0)
    slapped(model, 4, FLAT)
    assert model.session.ready
    model.on_button("select")
    assert model.step is Step.RESULT and len(save.saved) == 1
    assert model.screen().lines[-1] == "Uloženo. ●zpět ▶více"


def test_a_clumsy_hand_is_refused_in_one_sentence_and_the_old_figure_stays():
    save = Saver()
    model = CalibrationModel(table_pads(2), save, before_ms=60.0, declared_ms=60.0)
    slapped(model, 4, CLUMSY)
    model.on_button("select")
    screen = model.screen()
    fits(screen)
    assert model.step is Step.FAILED and save.saved == []
    assert screen.title == "Neuloženo · ±60 ms"
    sentence = " ".join(screen.lines[:-1])
    assert sentence.startswith("±") and sentence.endswith(
        "ms není lepší než ±60 ms: plácni plochou dlaní znovu.")
    assert screen.lines[-1] == "◀konec ●znovu"
    model.on_button("select")  # again, from the start
    assert model.step is Step.COLLECT and model.session.all_slaps() == []
    slapped(model, 5, FLAT)
    model.on_button("select")
    assert model.step is Step.RESULT and len(save.saved) == 1


def test_the_calibration_must_beat_the_declared_figure_not_the_one_in_force():
    save = Saver()  # a calibration in force at ±5 ms; the datasheet says ±60 ms
    model = CalibrationModel(table_pads(2), save, before_ms=5.0, declared_ms=60.0)
    slapped(model, 4, FLAT)
    model.on_button("select")
    assert model.step is Step.RESULT and save.saved[0].spread_ms > 5.0


def test_an_uneven_pair_is_named_on_the_screen():
    text = refusal_sentence(Refusal("uneven", (Pad(3, 1), Pad(4, 1)), ratio=5.0))
    assert text == "Podložky 3>1 a 4>1 se dotkly nestejně; zkus plochou dlaní znovu."
    assert len(wrap(text)) <= 3


@pytest.mark.parametrize("refusal", [
    Refusal("few", (Pad(6, "g"),), 11, 1000), Refusal("few", tuple(table_pads(6)[:5]), 1, 12),
    Refusal("uneven", (Pad(6, 6), Pad(5, "g")), ratio=9.0),
    Refusal("worse", spread_ms=3338.84, declared_ms=220.0)])
def test_every_refusal_fits_three_lines(refusal):
    assert len(wrap(refusal_sentence(refusal))) <= 3
