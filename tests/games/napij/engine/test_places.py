"""Where a piece stands, in words a player finds on the printed board."""

from __future__ import annotations

import random
import re

import pytest

from companion.games.napij.engine.actions import Choose, Decline, Offer, Play, Step
from companion.games.napij.engine.events import (
    BottleMoved,
    BottlePlaced,
    BottlePushed,
    Captured,
    Entered,
    How,
    Moved,
    Released,
    Thrown,
    Won,
)
from companion.games.napij.engine.game import GAME
from companion.games.napij.engine.notation import format_position, parse_position
from companion.games.napij.engine.places import (
    choice_line,
    choice_row,
    headline,
    move_lines,
    moved_fields,
    origin,
    piece_places,
    play_lines,
    say_event,
    step_path,
    target,
    where,
)
from companion.games.napij.engine.rules import choices, legal_plays
from companion.games.napij.engine.state import BOTTLE, PUB, Phase
from companion.games.napij.selfplay import play_steps
from tests.games.napij.engine.helpers import RULES, G, node, pos

RED, BLUE = 0, 1


@pytest.mark.parametrize(("field", "words"), [
    ("m4", "na svém stanovišti"),
    ("m5", "na 1. poli za svým stanovištěm"),
    ("m7", "na 3. poli za svým stanovištěm"),
    ("m3", "na své šipce"),
    ("m10", "na rozcestí ke stezce na červené straně"),
    ("m12", "na 1. poli před rozcestím ke zkratce na červené straně"),
    ("m8", "na 2. poli před rozcestím ke stezce na červené straně"),
    ("m17", "na 13. poli od svého stanoviště"),
    ("m23", "na modré šipce"),
    ("m24", "na modrém stanovišti"),
    ("m26", "na 2. poli za modrým stanovištěm"),
    ("m29", "na 5. poli od modrého stanoviště"),
    ("sb1", "na 1. poli zkratky z červené strany"),
    ("sb6", "na 6. poli zkratky z červené strany"),
    ("c6+", "na odbočce k záchytce"),
    ("c2+", "na 2. poli Černé stezky od červené strany"),
    ("c17+", "na 3. poli Černé stezky od zelené strany"),
    ("c17-", "na 3. poli Černé stezky od zelené strany"),
    ("c19+", "na 1. poli Černé stezky od zelené strany"),
    ("zp2+i", "na 2. poli cesty k záchytce"),
    ("zp2+o", "na 2. poli cesty k záchytce"),
    ("tp1+i", "na cestě k bažině a lesu"),
    ("tj+i", "na rozcestí u bažiny a lesa"),
    ("bp1+i", "na cestě k bažině"),
    ("zach+", "v záchytce"),
    ("baz-", "v bažině"),
    ("les+", "v lese"),
    ("rl1", "na cestě k domku"),
    ("rv", "na válečku"),
    ("rh1", "na 1. poli domku"),
    ("rh4", "na 4. poli domku"),
])
def test_a_place_is_said_by_the_landmarks_printed_on_the_board(field, words):
    assert where(RULES, RED, node(field)) == words


def test_the_pub_is_where_a_piece_waits_and_where_it_comes_from_and_goes():
    assert where(RULES, RED, PUB) == "v hospodě"
    assert origin(RULES, RED, PUB) == "z hospody"
    assert target(RULES, RED, PUB) == "do hospody"


@pytest.mark.parametrize(("field", "at", "frm", "to"), [
    ("m23", "na modré šipce", "z modré šipky", "na modrou šipku"),
    ("m24", "na modrém stanovišti", "z modrého stanoviště", "na modré stanoviště"),
    ("m43", "na zelené šipce", "ze zelené šipky", "na zelenou šipku"),
    ("m64", "na žlutém stanovišti", "ze žlutého stanoviště", "na žluté stanoviště"),
    ("m4", "na svém stanovišti", "ze svého stanoviště", "na své stanoviště"),
    ("m3", "na své šipce", "ze své šipky", "na svou šipku"),
    ("m25", "na 1. poli za modrým stanovištěm", "z 1. pole za modrým stanovištěm",
     "na 1. pole za modrým stanovištěm"),
    ("zach+", "v záchytce", "ze záchytky", "do záchytky"),
    ("les+", "v lese", "z lesa", "do lesa"),
    ("rv", "na válečku", "z válečku", "na váleček"),
    ("c6+", "na odbočce k záchytce", "z odbočky k záchytce", "na odbočku k záchytce"),
])
def test_czech_cases_where_a_piece_stands_comes_from_and_goes(field, at, frm, to):
    n = node(field)
    assert (where(RULES, RED, n), origin(RULES, RED, n), target(RULES, RED, n)) == (at, frm, to)


def test_own_start_and_arrow_are_the_players_own_for_every_colour():
    assert where(RULES, BLUE, node("m24")) == "na svém stanovišti"
    assert where(RULES, BLUE, node("m4")) == "na červeném stanovišti"
    assert where(RULES, BLUE, node("m5")) == "na 1. poli za červeným stanovištěm"
    assert where(RULES, BLUE, node("m3")) == "na červené šipce"
    assert where(RULES, BLUE, node("m17")) == "na 13. poli od červeného stanoviště"


def test_every_main_field_is_a_landmark_near_one_or_counted_from_its_sides_start():
    for f in RULES.board.main:
        words = where(RULES, RED, G.one[f])
        m = re.fullmatch(r"na (\d+)\. poli (za|před|od) .+", words)
        assert m is None or int(m.group(1)) <= 3 or m.group(2) == "od", words
        assert not words.startswith("na kartě"), words  # twelve of them: not a landmark


def test_a_play_is_said_step_by_step_with_what_happens_where_it_ends():
    # red on m5 with 6 then 3: blue stands on m8 (a card field, 3 ahead)
    s = pos("r:m5,p,p,p b:m8,p,p,p bottle:m60 turn:r throws:6,3")
    lines = {line for p in legal_plays(s) for line in play_lines(s, p)}
    assert ("3: z 1. pole za svým stanovištěm → na 2. pole před rozcestím ke stezce na "
            "červené straně, bere kartu, vyhodí modrého") in lines
    assert "6: z hospody → na své stanoviště" in lines
    assert ("9: z 1. pole za svým stanovištěm → na 1. pole za rozcestím ke zkratce na "
            "červené straně") in lines


def test_the_rolling_pin_the_bottle_and_home_are_said():
    s = pos("r:rl1,p,p,p b:m30,p,p,p bottle:m60 turn:r throws:1")
    [line] = play_lines(s, Play((Step(0, (1,)),)))
    assert line == "1: z cesty k domku → na váleček, zpět do hospody"
    s = pos("r:rl1,p,p,p b:m30,p,p,p bottle:m60 turn:r throws:2")
    [line] = play_lines(s, Play((Step(0, (2,)),)))
    assert line == "2: z cesty k domku → na 1. pole domku, domů"
    s = pos("r:m5,p,p,p b:m30,p,p,p bottle:m7 turn:r throws:2")
    [line] = play_lines(s, Play((Step(0, (2,)),)))
    assert line == ("2: z 1. pole za svým stanovištěm → na 3. pole za svým stanovištěm, "
                    "odsune láhev")
    s = pos("r:m20,p,p,p b:m30,p,p,p bottle:m60 turn:r throws:2 with:bottle")
    [line] = play_lines(s, Play((Step(BOTTLE, (2,)),)))
    assert line == "2: láhev z 3. pole před žlutou šipkou → na 1. pole před žlutou šipkou"


def test_the_path_of_a_step_ends_on_its_target():
    s = pos("r:m5,m12,p,p b:m30,p,p,p bottle:m60 turn:r throws:6,3")
    assert step_path(s, Step(0, (3,))) == [node("m6"), node("m7"), node("m8")]
    assert step_path(s, Step(2, (6,))) == [node("m4")]
    assert step_path(s, Step(2, (6, 3))) == [node("m4"), node("m5"), node("m6"), node("m7")]
    s = pos("r:m10,p,p,p b:m30,p,p,p bottle:m60 turn:r throws:2")
    assert step_path(s, Step(0, (2,), node("c1+"))) == [node("c1+"), node("c2+")]
    s = pos("r:m10,p,p,p b:m30,p,p,p bottle:m60 turn:r throws:2 with:bottle")
    assert step_path(s, Step(BOTTLE, (2,))) == [node("m61"), node("m62")]


def test_a_cards_choices_are_said_by_whose_piece_and_where():
    s = pos("r:m5,p,p,p b:m26,p,p,p bottle:m60 turn:r")
    assert choice_line(s, Choose(BLUE, 0)) == "Modrý: na 2. poli za svým stanovištěm"
    assert choice_line(s, Offer(BLUE)) == "nabídnout modrému"
    assert choice_line(s, Decline(BLUE)) == "odmítnout nabídku"


def test_moves_on_the_event_line_are_said_in_places_not_field_ids():
    s = pos("r:m7,p,p,p b:m30,p,p,p bottle:m60 turn:b")
    assert say_event(Moved(RED, 0, node("m23"), node("m26"), (3,)), s) == \
        "Červený táhl z modré šipky na 2. pole za modrým stanovištěm."
    assert say_event(Moved(RED, 0, node("m5"), node("m7"), ()), s) == \
        "Karta posunula figurku červeného: teď stojí na 3. poli za svým stanovištěm."
    assert say_event(Entered(RED, 0, node("m6")), s) == \
        "Červený nasadil figurku a došel s ní na 2. pole za svým stanovištěm."
    assert say_event(Released(RED, 0, node("zach+"), node("zp3+o")), s) == \
        "Červený vysvobodil figurku ze záchytky na 3. pole cesty k záchytce."
    assert "m6" not in say_event(BottlePlaced(node("m3")), s)
    assert say_event(BottleMoved(RED, node("m60"), node("m62")), s).startswith(
        "Červený posunul láhev")
    assert say_event(BottlePushed(RED, node("m7"), node("m6")), s) == \
        "Červený odsunul láhev o pole za sebe."
    for e in (BottlePlaced(node("m3")), BottleMoved(RED, node("m60"), node("m62"))):
        assert not any(ch.isdigit() and f"m{ch}" in say_event(e, s) for ch in "0123456789")


def test_the_headline_is_the_most_telling_event():
    s = pos("r:m7,p,p,p b:p,p,p,p bottle:m60 turn:b")
    events = [Thrown(RED, 2), Moved(RED, 0, node("m5"), node("m7"), (2,)),
              Captured(RED, BLUE, 0, node("m7"), How.PIECE)]
    assert headline(events, s) == "Červený vyhodil modrého."
    assert headline([Thrown(RED, 2)], s) == "Červený hodil dvojku."
    assert headline([Won(RED), Thrown(RED, 2)], s).startswith("Červený vyhrává")
    assert headline([], s) == ""


# --- a player's pieces in words (the table's turn screens and the phone view use them) ---

FIELD_ID = re.compile(r"[\w+-]+")


def test_the_words_of_whole_games_name_no_field_and_tell_every_piece_apart():
    """Seeded games, every position: the plays in words, what happened and the card lists
    name places a player finds on the printed board (no field id of the board file), and no
    two of a player's pieces in play read the same."""
    ids = {f.id for f in RULES.board.fields} - {"les"}  # "les" is also the Czech word
    seen = 0
    for seed in (1, 2):
        for state, _action, after, events in play_steps(random.Random(seed), players=4):
            texts = [headline(events, after)] if events else []
            if state.phase is Phase.PLAY:
                own = state.pieces[state.turn]
                names = [n for n, node in zip(piece_places(state, state.turn), own,
                                              strict=True) if node != -1]
                assert len(set(names)) == len(names), (format_position(state), names)
                for play in legal_plays(state)[:6]:
                    texts += move_lines(state, play)
                seen += 1
            elif state.phase is Phase.CHOOSE:
                texts += [choice_row(state, o, state.turn) for o in choices(state)]
            for text in texts:
                bad = [w for w in FIELD_ID.findall(text) if w in ids]
                assert not bad, (text, format_position(state))
    assert seen > 500


def test_moved_fields_are_the_fields_left_and_reached():
    before = parse_position("r:m12,p,p,p g:m30,p,p,p bottle:m60 turn:r throws:5", RULES)
    plays = legal_plays(before)
    assert len(plays) == 1
    after, _ = GAME.apply(before, plays[0])
    assert moved_fields(before, after, 0) == ("m12", "m17")
    assert moved_fields(before, before, 0) == ()
    assert moved_fields(before, after, 2) == ()
