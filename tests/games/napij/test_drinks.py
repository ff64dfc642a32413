"""What a napij se table announces for each drink, and "Účet" kept since the box was switched on."""

from __future__ import annotations

import json

from companion.devices.buzzer import PATTERNS
from companion.games.napij.drinks import (
    TALLY_NAME,
    Tally,
    announcements,
    boot_id,
    debt_sentence,
    pattern_of,
    winner_sentence,
)
from companion.games.napij.engine.actions import Drank, Later
from companion.games.napij.engine.events import Thrown, VoidThrow, Won
from companion.games.napij.engine.state import Debt, DrinkReason

R, B, G, Y = 0, 1, 2, 3
ALL = (R, B, G, Y)


def test_every_duty_has_a_buzzer_pattern_of_its_own():
    patterns = {pattern_of(r) for r in DrinkReason}
    assert len(patterns) == len(DrinkReason)
    assert patterns <= set(PATTERNS)
    shapes = [PATTERNS[p] for p in patterns | {"void-throw", "debt"}]
    assert len(set(shapes)) == len(shapes)  # each one sounds different
    assert not set(shapes) & {PATTERNS[p] for p in ("turn", "six", "illegal", "win")}


def test_one_players_duty_is_a_banner_a_pattern_a_sentence_and_its_answers():
    [a] = announcements([Debt(B, 2, DrinkReason.CARD, card=28, answered=False)], ALL)
    assert a.title == "Modrý: napij se 2×"
    assert a.lines == ("karta č. 28",)
    assert a.marks == (B,)
    assert a.pattern == "drink-card"
    assert a.sentence == "Modrý se musí napít dvakrát, protože mu to ukládá karta."
    assert a.drank == (Drank(B, DrinkReason.CARD),)
    assert a.later == (Later(B, DrinkReason.CARD),)


def test_the_same_duty_of_several_players_is_one_announcement():
    home = [Debt(c, 1, DrinkReason.HOME, R, answered=False) for c in (B, G, Y)]
    [a] = announcements(home, ALL)
    assert a.title == "Na zdraví!" and a.marks == (B, G, Y)
    assert a.lines == ("všichni kromě červeného", "Červený má figurku doma")
    assert a.sentence == "Všichni kromě červeného připíjí červenému na figurku v domku."
    assert a.pattern == "drink-home"
    assert a.drank == tuple(Drank(c, DrinkReason.HOME) for c in (B, G, Y))


def test_a_void_throw_and_its_penalty_are_one_announcement_drunk_at_once():
    debts = [Debt(G, 1, DrinkReason.CHEATING), Debt(G, 1, DrinkReason.DELAY)]
    [a] = announcements(debts, ALL, [VoidThrow(G, 6)], (0, 0, 3, 0))
    assert a.title == "Zelený: hod neplatí" and a.pattern == "void-throw"
    assert a.lines == ("nejdřív pít, pak házet", "napij se 3× (+2 za hod)")
    assert "švindlování" in a.sentence and "zdržování" in a.sentence
    assert a.drank == (Drank(G),) and a.later == ()  # due now: no "later"


def test_different_duties_are_announced_in_the_order_they_happened():
    debts = [Debt(B, 1, DrinkReason.KNOCKED_OUT, R), Debt(R, 1, DrinkReason.BOTTLE),
             Debt(B, 1, DrinkReason.DROPPED_DICE)]
    got = announcements(debts, ALL)
    assert [a.pattern for a in got] == ["drink-knocked-out", "drink-bottle",
                                        "drink-dropped-dice"]
    assert got[0].sentence == "Modrý se musí napít, protože mu vyhodili figurku."
    assert got[0].lines == ("vyhození červeným",)
    assert got[1].lines == ("odsunutá láhev",)
    assert got[2].lines == ("spadlá kostka",)


def test_everybody_and_the_winner_are_toasted():
    [a] = announcements([Debt(c, 1, DrinkReason.EVERYBODY, card=3) for c in (R, G)], (R, G))
    assert a.lines == ("všichni", "karta č. 3") and \
        a.sentence == "Karta velí, ať se napijí všichni."
    [w] = announcements([Debt(G, 1, DrinkReason.WINNER, R)], (R, G))
    assert w.title == "Na vítěze!" and w.pattern == "drink-winner"
    assert w.sentence.startswith("Červený vyhrál!")
    assert winner_sentence([Won(G)]) == "Zelený vyhrál, všechny jeho figurky jsou doma!"
    assert winner_sentence([Thrown(G, 2)]) is None


def test_a_glass_and_several_drinks_of_a_group_are_said_right():
    [a] = announcements([Debt(R, 1, DrinkReason.GLASS, card=9)], ALL)
    assert a.title == "Červený: dopij sklenici" and a.lines == ("karta č. 9: sklenice",)
    [b] = announcements([Debt(c, 2, DrinkReason.CARD) for c in (R, B)], ALL)
    assert b.title == "Napijte se 2×!" and b.lines[0] == "Červený a modrý"
    assert b.sentence == "Červený a modrý se musí napít dvakrát, protože jim to ukládá karta."


def test_the_opening_toast_and_the_debt_ask():
    [a] = announcements([Debt(c, 1, DrinkReason.START, answered=False) for c in (R, G)],
                        (R, G))
    assert a.title == "Napijte se!" and a.lines == ("všichni", "přípitek na začátek")
    assert a.sentence == "Všichni se napijí na začátek hry." and a.pattern == "drink-start"
    ask = debt_sentence(R, [Debt(R, 1, DrinkReason.CARD, card=23),
                            Debt(R, 1, DrinkReason.DROPPED_DICE)])
    assert ask.startswith("Červený, než hodíš, napij se dvakrát: karta číslo 23 a spadlá "
                          "kostka. Hod dřív neplatí.")
    assert "dopij sklenici" in debt_sentence(B, [Debt(B, 1, DrinkReason.GLASS)])


def test_every_banner_line_fits_the_screen():
    debts = [Debt(c, 1, r, R if r in (DrinkReason.HOME, DrinkReason.WINNER,
                                      DrinkReason.KNOCKED_OUT) else None,
                  23 if r in (DrinkReason.CARD, DrinkReason.GLASS) else None)
             for r in DrinkReason for c in (B, G)]
    for a in announcements(debts, ALL):
        assert all(len(line) <= 24 for line in a.lines), a.lines


def test_the_tally_sums_every_game_since_the_box_was_switched_on(tmp_path):
    t = Tally(tmp_path, boot="boot-1")
    t.record("game-a", (2, 0, 1, 0))
    t.record("game-b", (1, 1, 0, 0))
    assert t.tonight() == (3, 1, 1, 0)
    t.record("game-a", (3, 0, 1, 0))  # the same game again (resumed, undone): not counted twice
    assert t.tonight() == (4, 1, 1, 0) and t.game("game-a") == (3, 0, 1, 0)
    again = Tally(tmp_path, boot="boot-1")  # the service restarted
    assert again.tonight() == (4, 1, 1, 0)
    rebooted = Tally(tmp_path, boot="boot-2")  # the box was switched off and on
    assert rebooted.tonight() == (0, 0, 0, 0) and rebooted.game("game-a") == (0, 0, 0, 0)


def test_a_broken_tally_file_starts_again(tmp_path):
    (tmp_path / TALLY_NAME).write_text("{not json", "utf-8")
    assert Tally(tmp_path, boot="x").tonight() == (0, 0, 0, 0)
    (tmp_path / TALLY_NAME).write_text(json.dumps(
        {"boot": "x", "games": {"a": [1, 2, 3, 4], "b": [1, "x", 0, 0], "c": [-1, 0, 0, 0]}}))
    assert Tally(tmp_path, boot="x").tonight() == (1, 2, 3, 4)


def test_without_a_folder_the_tally_lives_in_memory(tmp_path):
    t = Tally(None, boot="b")
    t.record("g", (1, 0, 0, 0))
    assert t.tonight() == (1, 0, 0, 0)


def test_the_boot_id_comes_from_the_kernel(tmp_path):
    f = tmp_path / "boot_id"
    f.write_text("abc-123\n")
    assert boot_id(f) == "abc-123"
    assert boot_id(tmp_path / "missing") == ""
