"""Snapshot builders: what the page is told about each game, from the engines' values."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

import pytest

from companion.games import samples
from companion.games.clovece import phone as clovece_phone
from companion.games.clovece.engine.notation import parse_position as clovece_position
from companion.games.clovece.engine.rules import legal_moves, new_game
from companion.games.clovece.rules_text import TOPICS
from companion.games.gobbit import phone as gobbit_phone
from companion.games.gobbit.engine import rules as gb
from companion.games.gobbit.engine.cards import Condition, parse_card
from companion.games.gobbit.engine.judge import Touch
from companion.games.gobbit.phone import LOG_LINES
from companion.games.gobbit.referee.model import RefereeModel
from companion.games.napij import phone as napij_phone
from companion.games.napij.engine.notation import parse_position as napij_position
from companion.inputs.pads import PadTouch
from companion.web.snapshot import EVENT_LINES, Player


def roundtrip(snap):
    """The snapshot as the browser gets it."""
    return json.loads(json.dumps(snap.to_json(), ensure_ascii=False))


# --- Člověče -------------------------------------------------------------------------------------


def test_clovece_turn_status_throws_and_rules():
    pos = clovece_position("r:5,15,h,h g:8,h,h,h turn:g")
    snap = clovece_phone.position(pos, events=["a", "b"], throws=(6, 2), rules=TOPICS)
    assert snap.game == "clovece" and snap.title == "Člověče, nezlob se"
    assert snap.turn == Player("Zelený", "g", "pruh")
    assert snap.status == "Na tahu je zelený."
    data = roundtrip(snap)
    assert data["throws"] == [6, 2] and data["events"] == ["a", "b"]
    assert data["rules"][0] == {"title": TOPICS[0][0], "text": TOPICS[0][1]}
    assert data["board"]["base"].startswith("<svg") and "piece" in data["board"]["top"]
    assert data["over"] is False and data["ledger"] == [] and data["touches"] is None


def test_clovece_tries_winner_and_names():
    tries = clovece_phone.position(clovece_position("r:h,h,h,h g:h,h,h,h turn:r tries:2"))
    assert tries.status == "Na tahu je červený, hází o šestku už po 3. ze 3 pokusů."
    won = clovece_phone.position(clovece_position("r:f1,f2,f3,f4 g:5,h,h,h turn:g winner:r"),
                           names={0: "Babička"})
    assert won.over and won.status == "Hra skončila, vyhrál červený."
    assert won.turn == Player("Babička", "r", "tečka")


def test_only_the_latest_event_lines_are_kept():
    lines = [f"řádek {i}" for i in range(30)]
    snap = clovece_phone.position(new_game(2), events=lines)
    assert snap.events == tuple(lines[-EVENT_LINES:])


def test_the_moved_piece_is_ringed_on_the_board():
    pos = clovece_position("r:5,15,h,h g:8,h,h,h turn:r")
    move = legal_moves(pos, 3)[0]
    assert "moved-to" in clovece_phone.position(pos, moved=move).board.top
    assert "moved-to" not in clovece_phone.position(pos).board.top


# --- Člověče, napij se! ----------------------------------------------------------------------------

BEFORE = "r:m12,m30,rh4,p b:m25*2,p,p,p g:m50,c5+,p,p y:sy3,p,p,p bottle:m60"


@pytest.mark.parametrize("text,status", [
    (f"{BEFORE} turn:r", "Na tahu je červený a hází kostkou."),
    (f"{BEFORE} turn:r throws:5", "Na tahu je červený a táhne."),
    (f"{BEFORE} turn:r owe:r2", "Na tahu je červený, ale nejdřív musí vypít, co dluží."),
    (f"{BEFORE} turn:r glass:r1", "Na tahu je červený, ale nejdřív musí vypít, co dluží."),
    (f"{BEFORE} turn:r throws:6 owe:r1@dropped-dice^",
     "Na tahu je červený a hází kostkou; dluh vypije před svým příštím tahem."),
    ("r:m40,p,p,p b:m28,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:1,2,3,4,5,6,7,8,9,11,12,13,"
     "14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,10 card:10@b1#1",
     "Modrý vybírá, na čí figurku karta platí."),
    ("r:rh1,rh2,rh3,rh4 g:m50,p,p,p bottle:m60 turn:g winner:r", "Hra skončila, vyhrál červený."),
])
def test_napij_status_follows_the_phase(text, status):
    assert napij_phone.state_page(napij_position(text)).status == status


def test_napij_ledger_from_the_state_and_tonight_from_the_caller():
    state = napij_position(f"{BEFORE} turn:r owe:g1@card.23,y3,b1@glass drunk:r3,b1,g2,y2")
    snap = napij_phone.state_page(state, tonight=(7, 4, 5, 2))
    rows = {r.colour: r for r in snap.ledger}
    assert list(rows) == ["r", "b", "g", "y"]
    assert (rows["g"].owed, rows["g"].drunk, rows["g"].tonight) == (1, 2, 5)
    assert (rows["b"].glasses, rows["y"].owed, rows["r"].owed) == (1, 3, 0)
    assert rows["r"].name == "Červený" and rows["b"].mark == "kosočtverec"
    by_map = napij_phone.state_page(state, tonight={0: 10})
    assert [r.tonight for r in by_map.ledger] == [10, 1, 2, 2]  # the others: this game's
    assert [r.tonight for r in napij_phone.state_page(state).ledger] == [3, 1, 2, 2]
    assert roundtrip(snap)["ledger"][2] == {"colour": "g", "name": "Zelený", "mark": "pruh",
                                            "owed": 1, "glasses": 0, "drunk": 2, "tonight": 5,
                                            "why": "karta č. 23"}  # each debt says why
    assert rows["y"].why == "3× dluh z dřívějška" and rows["r"].why == ""


def test_napij_throws_default_to_the_turns_and_can_be_given():
    state = napij_position(f"{BEFORE} turn:r throws:6,5")
    assert napij_phone.state_page(state).throws == (6, 5)
    assert napij_phone.state_page(state, throws=(3,)).throws == (3,)


def test_napij_card_text_from_the_deck_and_a_waiting_card_wins():
    state = napij_position(f"{BEFORE} turn:r")
    snap = napij_phone.state_page(state, card=2)
    assert snap.card is not None and snap.card.startswith("Karta 2: ")
    assert state.rules.deck.card(2).text in snap.card
    assert napij_phone.state_page(state, card=99).card is None
    waiting = napij_position(
        "r:m40,p,p,p b:m28,p,p,p g:m50,p,p,p bottle:m60 turn:b deck:1,2,3,4,5,6,7,8,9,11,12,"
        "13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,10 card:10@b1#1")
    snap = napij_phone.state_page(waiting, card=2)
    assert snap.card is not None and snap.card.startswith("Karta 10: ")
    assert snap.turn == Player("Modrý", "b", "kosočtverec")


def test_napij_board_has_the_pieces():
    snap = napij_phone.state_page(napij_position(f"{BEFORE} turn:r"), moved=("m12",))
    assert snap.board.top.count('class="piece"') == 16
    assert 'class="moved"' in snap.board.top


# --- Gobbit -----------------------------------------------------------------------------------------


def dealt(seats=3):
    """Three seats whose first flips show a blue snake, a blue chameleon, a red mosquito."""
    cards = [parse_card(c) for c in ("Cr", "Sy", "My", "Sb", "Cb", "Mr")]
    state = gb.new_game(seats, cards)
    for _ in range(seats):
        state, _ = gb.apply(state, gb.Flip(gb.on_turn(state)))
    return state


def test_gobbit_table_ruling_and_touch_rows():
    state = dealt()
    tops = {s: str(state.top(s)) for s in state.seats}
    assert {s: t[:2] for s, t in tops.items()} == {1: "Sb", 2: "Cb", 3: "Mr"}
    attacker, victim = 1, 2  # the blue snake eats the blue chameleon
    touches = (Touch(attacker, victim, 100.0), Touch(victim, victim, 107.4))
    ruling = gb.judge(gb.situation(state, touches))
    snap = gobbit_phone.game(state, touches=touches, ruling=ruling, log=touches, events=["x"])
    assert snap.game == "gobbit" and snap.throws == () and snap.ledger == ()
    info = snap.touches
    assert info is not None and not info.provisional
    assert [(r.n, r.seat, r.target, r.after) for r in info.moment] == [
        (1, attacker, f"H{victim}", "0 ms"), (2, victim, f"H{victim}", "+7,4 ms")]
    assert info.moment[0].kind == "útok" and info.moment[1].kind == "pozdě"
    assert f"Hráč {attacker} bere kupičku hráče {victim}." in info.ruling
    assert [r.after for r in info.log] == ["", "+7,4 ms"]
    for seat, card in tops.items():
        assert f'data-seat="{seat}" data-top="{card[:2]}"' in snap.board.top
    assert snap.status == f"Kartu otáčí hráč {gb.on_turn(state)}."
    assert snap.turn == Player(f"Hráč {gb.on_turn(state)}")


def test_gobbit_status_for_a_condition_a_gorilla_and_the_end():
    state = replace(dealt(), expert=True, graveyard=(parse_card("SbR"),))
    snap = gobbit_phone.game(state)
    assert "Řetězec je obrácený" in snap.status
    assert "Obrácený řetězec" in snap.board.top
    assert "Gorila! Hráč 2" in gobbit_phone.game(replace(dealt(), gorilla=2)).status
    over = replace(dealt(), over=True)
    snap = gobbit_phone.game(over)
    assert snap.over and snap.turn is None and snap.status.startswith("Konec hry")


def test_referee_snapshot_from_the_model():
    model = RefereeModel(3)
    snap = gobbit_phone.referee(model)
    assert snap.status == "Rozhodčí čeká na první dotek." and snap.title == "Gobbit (rozhodčí)"
    assert snap.touches is not None and snap.touches.moment == () and snap.touches.ruling == ()
    model.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb"), 3: parse_card("Cb")})
    for seat, target, ms in ((2, 3, 5000.0), (3, 3, 5006.8), (1, 3, 5019.0)):
        model.on_pad_event(PadTouch(seat, target, ms, ms))
    snap = gobbit_phone.referee(model)
    info = snap.touches
    assert info is not None
    assert [r.kind for r in info.moment] == ["útok", "pozdě", "faul"]
    assert [r.after for r in info.moment] == ["0 ms", "+6,8 ms", "+19 ms"]
    assert "Hráč 2 bere kupičku hráče 3." in info.ruling
    assert info.why == ("Červený chameleon nesmí sežrat modrého chameleona.",)
    assert 'data-top="Sb"' in snap.board.top
    assert snap.status == "Rozhodčí rozsoudil poslední spor, verdikt je níže."


def test_referee_log_keeps_the_latest_touches():
    model = RefereeModel(2)
    for i in range(LOG_LINES + 5):
        model.on_pad_event(PadTouch(1, 2, i * 2000.0, i * 2000.0))
    info = gobbit_phone.referee(model).touches
    assert info is not None and len(info.log) == LOG_LINES
    assert info.log[-1].n == LOG_LINES + 5 and info.log[-1].after == "+2,0 s"


def test_referee_with_cards_that_make_no_sense_shows_no_ruling():
    model = RefereeModel(2, rules=("gorilla",))
    model.cards.tops.update({1: parse_card("Cr"), 2: parse_card("Sb")})
    model.cards.gorilla = 1
    model.cards.condition = Condition.EXPLODE  # without expert: ignored
    model.on_pad_event(PadTouch(1, 2, 0.0, 0.0))
    snap = gobbit_phone.referee(model)
    assert snap.touches is not None and snap.touches.moment[0].seat == 1


@pytest.mark.parametrize("name", sorted(samples.SCRIPTS))
def test_to_json_says_all_that_the_dataclasses_hold(name):
    """The hand-written to_json against dataclasses.asdict (which it replaces for speed)."""
    for snap in samples.SCRIPTS[name]():
        expect = dataclasses.asdict(snap)
        expect["rules"] = [{"title": t, "text": x} for t, x in snap.rules]
        expect["extra"] = dict(snap.extra)
        assert roundtrip(snap) == json.loads(json.dumps(expect, ensure_ascii=False))
