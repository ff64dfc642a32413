"""The table controller: set-up, turns, computer seats, menu, undo, resume."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games import playable
from companion.games.clovece.engine.game import GAME, Setup, Source, State
from companion.games.clovece.engine.notation import format_position, parse_position
from companion.games.clovece.engine.rules import GREEN, RED
from companion.games.clovece.screens import CloveceTurnView, CloveceWinView
from companion.inputs.events import ButtonPress, DiceLink, Dropped, Rolled
from companion.service.hosts.base import DiceStatus, HostContext
from companion.service.shell import Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.views import ListView, MessageView

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG = ButtonPress("select", long=True)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self, dt: float = 0.0) -> float:
        self.t += dt
        return self.t


def make(tmp_path, *, prefs=None, rng=None, dice_configured=True, save_prefs=None,
         **defaults) -> tuple[Shell, list[str], Clock]:
    """A shell on a Člověče table (the loop's part played by the test: begin, then inputs)."""
    sounds: list[str] = []
    ctx = HostContext(Journal(tmp_path / "g.journal"), prefs or Prefs(auto_delay=1.0),
                      beep=sounds.append, rng=rng or random.Random(1),
                      dice=DiceStatus(configured=dice_configured), defaults=defaults)
    t = Shell(ctx, start_with="clovece", save_prefs=save_prefs, games=playable())
    clock = Clock()
    t.begin(clock())
    return t, sounds, clock


def start_game(t: Shell, clock: Clock) -> None:
    """From the set-up screen, go to the last item (start) and press it."""
    t.handle(L, clock())
    t.handle(S, clock())


def goto(t: Shell, clock: Clock, label: str) -> None:
    """Move the selection of a list screen to the item ``label``."""
    items = t.view().items
    while items[t.view().selected] != label:
        t.handle(R, clock())


def records(tmp_path) -> list[dict]:
    return Journal(tmp_path / "g.journal").load()


def test_a_fresh_table_shows_the_set_up(tmp_path):
    t, _, _ = make(tmp_path, players=2)
    v = t.view()
    assert isinstance(v, ListView) and v.title.startswith("Nová hra")
    assert v.items[0] == "Hra: Člověče" and v.items[1] == "Hráči: 2"
    assert "Červený: člověk" in v.items and "Zelený: člověk" in v.items
    assert v.items[-1] == "▶ Začít hru"


def test_set_up_changes_players_seats_variants_and_who_starts(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(R, c())  # to the players
    t.handle(S, c())  # players 2 -> 3
    assert t.view().items[1] == "Hráči: 3"
    t.handle(R, c())  # to red's seat
    t.handle(S, c())
    assert "Červený: PC normální" in t.view().items and "PC hází: samo" in t.view().items
    for _ in range(3):
        t.handle(R, c())  # past blue, green to how the computer throws
    t.handle(S, c())
    assert "PC hází: lidé za něj" in t.view().items
    t.handle(R, c())  # the first variant
    t.handle(S, c())
    assert "Povinné vyhazování: ano" in t.view().items
    t.handle(L, c())  # wraps... to green
    start_game_index = len(t.view().items) - 2
    while t.view().selected != start_game_index:
        t.handle(R, c())
    t.handle(S, c())
    assert "Začíná: los" in t.view().items
    t.handle(R, c())
    t.handle(S, c())
    header = records(tmp_path)[0]
    assert header["players"] == 3 and header["computer"] == ["r"]
    assert header["variants"] == ["mandatory-capture"]
    assert header["first"] in ("r", "b", "g") and header["computer_dice"] is True


def test_the_first_item_switches_to_gobbit(tmp_path):
    t, _, c = make(tmp_path, players=2)
    assert t.game == "clovece"
    t.handle(S, c())
    assert t.game == "napij"
    t.handle(S, c())
    assert t.game == "gobbit"


def test_starting_writes_the_header_and_shows_reds_turn(tmp_path):
    t, _, c = make(tmp_path, players=2, dice_configured=True)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    assert records(tmp_path) == [GAME.setup_record(Setup(2))]
    v = t.view()
    assert isinstance(v, CloveceTurnView)
    assert v.player == "Červený" and v.colour == RED and v.roll is None
    assert v.prompt == "Hoď kostkou" and v.tries_shown and v.tries == 0
    assert "začíná červený" in v.event


def test_a_dice_roll_is_journaled_before_it_is_shown(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(3), c())
    assert records(tmp_path)[-1] == {"t": "roll", "v": 3, "src": "dice"}
    v = t.view()
    assert v.tries == 1 and v.event == "Červený hodil 3, šestka nepadla."


def test_a_single_legal_move_is_taken_by_itself_after_the_pause(tmp_path):
    t, sounds, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(6), c())
    v = t.view()
    assert v.roll == 6 and [ch.label for ch in v.choices] == ["na start"]
    assert v.words == "Z domečku na start."
    assert v.blink is not None and v.prompt == "Jediný tah…"
    assert "six" in sounds
    t.tick(c(0.5))
    assert t.host.state.roll == 6  # not yet
    t.tick(c(0.6))
    assert records(tmp_path)[-1] == {"t": "move", "from": "h"}
    assert format_position(t.host.state.pos) == "r:0,h,h,h g:h,h,h,h turn:r"
    assert t.view().event == "Červený nasadil figurku."
    # the move taken by itself after the six is in the event list
    assert t.host.facts().events[-2:] == ("Červený hodil 6.", "Červený nasadil figurku.")


def play_to(t: Shell, tmp_path, clock: Clock, text: str) -> None:
    """Put the table into a given position (a fresh game, its journal rewritten)."""
    t.host.play.state = State(parse_position(text))
    t.host.arm(clock())


def test_clear_start_duty_then_a_real_choice(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    script = [6, 6, 4]  # enter, 0->6, then 6->10 (one piece out)
    for v in script:
        t.handle(Rolled(v), c())
        t.tick(c(2))
    # green's turn now; green rolls 1 (no move, tries)
    assert t.host.state.pos.turn == GREEN
    for v in (1, 1, 1):
        t.handle(Rolled(v), c())
    assert t.host.state.pos.turn == RED
    t.handle(Rolled(6), c())  # red must enter (house piece, start free)
    t.tick(c(2))
    t.handle(Rolled(3), c())  # piece on start must move first: single move again
    t.tick(c(2))
    assert format_position(t.host.state.pos).startswith("r:10,3,h,h")
    for v in (1, 1, 1):
        t.handle(Rolled(v), c())
    t.handle(Rolled(2), c())
    v = t.view()
    assert [ch.label for ch in v.choices] == ["10.→12.", "3.→5."]
    assert v.words == "Přední figurka z 10. na 12. pole."
    assert v.selected == 0 and v.prompt == "◀▶ vyber, ● ok"
    t.handle(R, c())
    assert t.view().selected == 1 and t.view().words == "Zadní figurka z 3. na 5. pole."
    t.handle(S, c())
    assert records(tmp_path)[-1] == {"t": "move", "from": "3"}
    assert format_position(t.host.state.pos).startswith("r:10,5,h,h")


def test_without_a_dice_the_roll_is_entered_with_the_buttons(tmp_path):
    t, _, c = make(tmp_path, players=2, dice_configured=False)
    start_game(t, c)
    v = t.view()
    assert v.manual_roll == 1 and v.dice == "missing" and v.prompt == "◀ ▶ hod, ● ok"
    t.handle(L, c())
    assert t.view().manual_roll == 6
    t.handle(S, c())
    assert records(tmp_path)[-1] == {"t": "roll", "v": 6, "src": "manual"}


def test_a_lost_dice_switches_to_buttons_and_back(tmp_path):
    t, sounds, c = make(tmp_path, players=2, dice_configured=True)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    assert t.view().manual_roll is None
    t.handle(DiceLink(False, "unplugged"), c())
    v = t.view()
    assert v.dice == "lost" and v.manual_roll is not None
    assert v.event.startswith("Kostka odpojena")
    assert "illegal" in sounds
    t.handle(DiceLink(True), c())
    assert t.view().dice == "ok" and t.view().event == "Kostka připojena."


def test_a_roll_nobody_asked_for_does_not_count(tmp_path):
    t, sounds, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    t.handle(Rolled(4), c())  # during the set-up
    assert t.view().items  # still the set-up
    start_game(t, c)
    t.handle(Rolled(6), c())
    n = len(records(tmp_path))
    t.handle(Rolled(5), c())  # the move of the six is not confirmed yet
    assert len(records(tmp_path)) == n
    assert t.view().event == "Tenhle hod se nepočítá."
    assert sounds.count("illegal") == 2


def test_a_computer_seat_rolls_itself_without_a_dice(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("r",), dice_configured=False)
    start_game(t, c)
    v = t.view()
    assert v.computer and v.prompt == "PC hází…" and v.manual_roll is None
    t.tick(c(1.1))
    assert records(tmp_path)[-1]["src"] == "computer"


def test_with_the_option_a_computer_seat_asks_a_person_to_roll_the_dice_for_it(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("r",), computer_dice=True)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    assert records(tmp_path)[0]["computer_dice"] is True
    assert t.view().prompt == "Hoď za PC"
    t.tick(c(5))
    assert len(records(tmp_path)) == 1  # it waits for the dice
    t.handle(Rolled(4), c())
    assert records(tmp_path)[-1] == {"t": "roll", "v": 4, "src": "dice"}
    # the dice lost: the companion throws for the computer after all
    t.handle(DiceLink(False, "unplugged"), c())
    t.tick(c(1.1))
    assert records(tmp_path)[-1]["src"] == "computer"


def test_by_default_the_companion_throws_for_a_computer_seat_even_with_the_dice(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("g",))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    for value in (1, 1, 1):  # red, a person, rolls the real dice: three tries
        t.handle(Rolled(value), c())
    v = t.view()
    assert v.player == "Zelený" and v.computer and v.prompt == "PC hází…"
    t.tick(c(1.1))  # no press: the companion throws
    rec = records(tmp_path)[-1]
    assert rec["t"] == "roll" and rec["src"] == "computer"
    v = t.view()
    assert v.event.startswith(f"Zelený (PC) hodil {rec['v']}")


def test_a_throw_while_the_computer_throws_by_itself_is_refused_every_time(tmp_path):
    t, sounds, c = make(tmp_path, players=2, computer=("g",))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    for value in (1, 1, 1):  # red, a person: three tries, then the computer's turn
        t.handle(Rolled(value), c())
    assert t.view().prompt == "PC hází…"
    n, beeps = len(records(tmp_path)), sounds.count("illegal")
    for value in (5, 6, 6):  # a child throws early, again and again
        t.handle(Rolled(value), c())
        assert len(records(tmp_path)) == n  # never the computer's roll
        v = t.view()
        assert v.event == "PC hází samo, tenhle hod se nepočítá." and v.roll is None
    assert sounds.count("illegal") == beeps + 3
    t.tick(c(1.1))  # the companion throws for it
    assert records(tmp_path)[-1]["src"] == "computer"
    if t.view().roll is not None:  # its move is shown: a throw now gets the same sentence
        t.handle(Rolled(6), c())
        assert t.view().event == "PC hází samo, tenhle hod se nepočítá."
        assert records(tmp_path)[-1]["src"] == "computer"


def test_a_virtual_throw_is_shown_as_such_and_one_press_confirms_the_computers_move(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("r",))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    play_to(t, tmp_path, c, "r:5,15,f1,f2 g:8,h,h,h turn:r")
    t.host._roll(3, Source.COMPUTER, c())
    v = t.view()
    assert v.roll == 3 and v.roll_virtual and v.prompt == "Táhni za PC ●"
    assert v.event == "Červený (PC) hodil 3."
    assert v.words == "Zadní figurka z 5. na 8. pole, vyhodí zeleného."  # the bot's choice
    t.tick(c(60))
    assert t.host.state.roll == 3  # without the setting it waits for the press
    t.handle(S, c())
    assert records(tmp_path)[-1] == {"t": "move", "from": "5"}


def test_the_computers_move_confirms_itself_after_the_time_set(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("r",),
                   prefs=Prefs(auto_delay=1.0, computer_confirm=5.0))
    start_game(t, c)
    play_to(t, tmp_path, c, "r:5,15,f1,f2 g:8,h,h,h turn:r")
    t.host._roll(3, Source.COMPUTER, c())
    t.tick(c(4.9))
    assert t.host.state.roll == 3
    t.tick(c(0.2))
    assert t.host.state.roll is None and records(tmp_path)[-1] == {"t": "move", "from": "5"}


def test_a_two_player_game_against_the_computer_needs_no_press_on_its_turns(tmp_path):
    """The computer's turns play with one ● at most (its piece moved on the board); a
    person's turns are their own rolls and choices."""
    t, _, c = make(tmp_path, players=2, computer=("g",))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    rng = random.Random(3)
    presses_on_computer_turns = 0
    computer_moves = 0
    for _ in range(3000):
        s = t.host.state
        if s.pos.winner is not None:
            break
        if t.host.computer_turn:
            if s.roll is not None and len(t.host.moves()) > 1:
                t.handle(S, c())  # the one press: its piece is moved
                presses_on_computer_turns += 1
                computer_moves += 1
            else:
                t.tick(c(2))  # throws and single moves happen by themselves
        elif s.roll is None:
            t.handle(Rolled(rng.randint(1, 6)), c())
        elif len(t.host.moves()) > 1:
            t.handle(S, c())
        else:
            t.tick(c(2))
    assert t.host.state.pos.winner is not None
    assert presses_on_computer_turns == computer_moves
    assert {r["src"] for r in records(tmp_path) if r["t"] == "roll"} == {"dice", "computer"}


def test_the_computers_choice_is_shown_and_confirmed_by_a_person(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("r",))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    # a position where red can capture green or move another piece
    play_to(t, tmp_path, c, "r:5,15,f1,f2 g:8,h,h,h turn:r")
    t.host.play.state = State(t.host.state.pos, 3)
    t.host.arm(c())
    v = t.view()
    assert v.prompt == "Táhni za PC ●"
    assert v.choices[v.selected].capture  # the bot takes the capture
    t.handle(L, c())
    assert t.view().selected == v.selected  # a person cannot change the computer's mind


def test_long_select_opens_the_menu_and_undo_takes_back_the_last_action(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(2), c())
    assert t.host.state.pos.tries == 1
    t.handle(LONG, c())
    v = t.view()
    assert isinstance(v, ListView) and v.title == "Nabídka"
    t.handle(R, c())
    t.handle(S, c())  # Vrátit poslední akci: it asks first and says what it takes back
    v = t.view()
    assert isinstance(v, MessageView) and v.title == "Vrátit hod 2?"
    assert len(records(tmp_path)) == 2
    t.handle(S, c())  # yes
    assert t.mode == "play"
    assert t.host.state.pos.tries == 0 and len(records(tmp_path)) == 1
    assert t.view().event == "Vráceno: hod 2."
    # nothing more to undo than the header
    assert t.host.undo(c()) is False


def test_undo_of_a_move_returns_to_the_choice(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(6), c())
    t.tick(c(2))
    assert t.host.state.roll is None
    t.host.undo(c())
    assert t.host.state.roll == 6 and records(tmp_path)[-1]["t"] == "roll"


def test_settings_change_and_are_saved(tmp_path):
    saved = []
    t, _, c = make(tmp_path, players=2, save_prefs=saved.append)
    start_game(t, c)
    t.handle(LONG, c())
    goto(t, c, "Nastavení")
    t.handle(S, c())
    v = t.view()
    assert v.title == "Nastavení" and v.items[0] == "Zvuk: zapnutý"
    t.handle(S, c())
    assert t.view().items[0] == "Zvuk: vypnutý" and saved
    t.handle(R, c())
    t.handle(S, c())
    assert t.ctx.prefs.auto_delay == 1.5
    t.handle(R, c())
    t.handle(S, c())
    assert t.ctx.prefs.computer_confirm == 3.0
    t.handle(R, c())
    t.handle(S, c())
    assert t.contrast == 128


def test_sound_off_silences_the_buzzer(tmp_path):
    t, sounds, c = make(tmp_path, players=2, prefs=Prefs(sound=False))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(6), c())
    assert sounds == []


def test_shut_down_asks_first(tmp_path):
    t, _, c = make(tmp_path, players=2)
    start_game(t, c)
    t.handle(LONG, c())
    t.handle(L, c())  # wraps to Vypnout
    t.handle(S, c())
    v = t.view()
    assert isinstance(v, MessageView) and v.title == "Vypnout?"
    t.handle(L, c())
    assert t.mode == "menu"
    t.handle(S, c())
    t.handle(S, c())
    assert t.shutdown_requested and t.view().title == "Na shledanou"


def test_long_select_in_the_set_up_goes_back_to_the_game_in_play(tmp_path):
    t, _, c = make(tmp_path, players=2)
    start_game(t, c)
    t.handle(Rolled(6), c())
    t.handle(LONG, c())
    goto(t, c, "Nová hra")
    t.handle(S, c())
    t.handle(S, c())  # yes: the set-up of a new game
    v = t.view()
    assert isinstance(v, ListView) and v.footer == "dlouze ● = zpět do hry"
    t.handle(LONG, c())  # changed my mind: the game is still there
    assert t.mode == "play" and t.host.state.roll == 6


def test_undo_with_nothing_to_take_back_says_so(tmp_path):
    t, sounds, c = make(tmp_path, players=2)
    start_game(t, c)
    t.handle(LONG, c())
    goto(t, c, "Vrátit poslední akci")
    t.handle(S, c())
    v = t.view()
    assert isinstance(v, MessageView) and v.lines == ("Není co vrátit.",)
    t.handle(S, c())
    assert t.mode == "play" and len(records(tmp_path)) == 1


def test_undo_of_a_move_says_which_move_it_takes_back(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    for value in (6, 6, 3):  # enter, start -> 6, then 6 -> 9
        t.handle(Rolled(value), c())
        t.tick(c(2))
    assert records(tmp_path)[-1] == {"t": "move", "from": "6"}
    t.handle(LONG, c())
    goto(t, c, "Vrátit poslední akci")
    t.handle(S, c())
    v = t.view()
    assert v.title == "Vrátit tah?"
    assert " ".join(v.lines).startswith("Červený táhl z 6. na 9. pole.")
    t.handle(L, c())  # no: nothing changed
    assert t.mode == "menu" and records(tmp_path)[-1] == {"t": "move", "from": "6"}


def test_new_game_from_the_menu(tmp_path):
    t, _, c = make(tmp_path, players=2)
    start_game(t, c)
    t.handle(LONG, c())
    goto(t, c, "Nová hra")
    t.handle(S, c())
    assert t.view().title == "Nová hra?"
    t.handle(S, c())
    assert t.mode == "setup"


def test_new_game_after_a_restart_starts_from_the_last_set_up(tmp_path):
    t, _, c = make(tmp_path, players=2, computer=("g",), computer_dice=True,
                   variants=("safe-start",))
    start_game(t, c)
    again, _, c2 = make(tmp_path)  # the configuration's defaults: 4 people
    assert again.mode == "play"
    again.handle(LONG, c2())
    goto(again, c2, "Nová hra")
    again.handle(S, c2())
    again.handle(S, c2())  # "Nová hra?" yes
    items = again.view().items
    assert again.mode == "setup" and "Hráči: 2" in items and "Zelený: PC normální" in items
    assert "PC hází: lidé za něj" in items and "Start je bezpečný: ano" in items


def test_the_winner_is_shown_and_select_starts_over(tmp_path):
    t, sounds, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    play_to(t, tmp_path, c, "r:38,f2,f3,f4 g:10,h,h,h turn:r")
    t.handle(Rolled(2), c())
    t.tick(c(2))
    v = t.view()
    assert isinstance(v, CloveceWinView) and v.player == "Červený"
    assert "win" in sounds
    t.handle(S, c())
    assert t.mode == "setup"


def test_drop_is_reported(tmp_path):
    t, _, c = make(tmp_path, players=2)
    start_game(t, c)
    t.handle(Dropped(), c())
    assert t.view().event == "Kostka spadla na zem."


def test_resume_continues_exactly_where_the_game_was(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    for v in (6, 6, 3, 5, 5, 6):
        t.handle(Rolled(v), c())
        t.tick(c(2))
    again, _, c2 = make(tmp_path, players=4)
    assert again.mode == "play"
    assert again.host.state.pos == t.host.state.pos and again.host.state.roll == t.host.state.roll
    assert again.view().event == "Hra pokračuje, kde skončila."


def test_resume_after_a_torn_record(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(3), c())
    for path in (tmp_path / "g.journal", tmp_path / "g.journal.mirror"):  # cut in both files
        path.write_bytes(path.read_bytes()[:-5])
    again, _, _ = make(tmp_path)
    assert again.host.state.pos.tries == 0
    assert again.view().event == "Poslední neúplný záznam zahozen."


def test_resume_after_a_crash_at_every_step_of_a_short_game(tmp_path):
    """Play a scripted game; after every step, a crash (with and without a torn next
    record) must resume to exactly the state of that step."""
    rng = random.Random(7)
    t, _, c = make(tmp_path / "live", players=2, dice_configured=False)
    start_game(t, c)
    path = tmp_path / "live" / "g.journal"
    snapshots = [(path.read_bytes(), t.host.state)]
    steps = 0
    while t.host.state.pos.winner is None and steps < 400:
        s = t.host.state
        if s.roll is None:
            t.host.manual = rng.randint(1, 6)
            t.handle(S, c())
        elif len(t.host.moves()) == 1:
            t.tick(c(2))
        else:
            t.host.selected = rng.randrange(len(t.host.moves()))
            t.handle(S, c())
        steps += 1
        snapshots.append((path.read_bytes(), t.host.state))
    assert steps > 50
    for i, (data, session) in enumerate(snapshots):
        for tail in (b"", b'{"t":"roll","v"'):
            crash = tmp_path / f"crash{i}{len(tail)}"
            crash.mkdir()
            (crash / "g.journal").write_bytes(data + tail)
            again, _, _ = make(crash)
            assert again.mode == "play"
            assert again.host.state.pos == session.pos, i
            assert again.host.state.roll == session.roll, i


def test_the_rules_browser_explains_why_each_piece_may_or_may_not_move(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    play_to(t, tmp_path, c, "r:38,15,h,f4 g:10,h,h,h turn:r")
    t.host.play.state = State(t.host.state.pos, 6)
    t.host.arm(c())
    t.handle(ButtonPress("help"), c())
    v = t.view()
    assert isinstance(v, ListView) and v.title == "Pravidla: Člověče"
    assert v.items[0] == "Proč?" and "Tři pokusy" in v.items
    t.handle(S, c())
    text = " ".join(t.view().lines)
    assert "Červený hodil 6." in text
    pages = []
    while t.view().title.startswith("Proč?"):
        pages.append(t.view())
        t.handle(R, c())
    assert len(pages) >= 2  # four sentences do not fit one page
    whole = " ".join(" ".join(p.lines) for p in pages)
    assert "Přední figurka (38. pole):" in whole
    assert "za poslední pole cíle" in whole.replace("  ", " ")
    assert "Domeček:" in whole and "nasadit" in whole
    # the auto-move timer does not run while someone reads
    deadline = t.host.deadline
    t.tick(c(100))
    assert t.host.state.roll == 6 and t.host.deadline == deadline
    t.handle(LONG, c())
    assert t.mode == "play"


def test_the_rules_are_in_the_menu_and_pages_turn(tmp_path):
    t, _, c = make(tmp_path, players=2)
    start_game(t, c)
    t.handle(LONG, c())
    goto(t, c, "Pravidla a nápověda")
    t.handle(S, c())
    v = t.view()
    assert v.items[0] == "Cíl hry"  # no roll in play: no "Proč?"
    goto(t, c, "Domácí varianty")
    t.handle(S, c())
    first = t.view()
    assert first.title.startswith("Domácí varianty 1/")
    t.handle(R, c())
    assert t.view().title.startswith("Domácí varianty 2/")
    t.handle(L, c())
    t.handle(L, c())
    assert isinstance(t.view(), ListView)


# --- the game as values for the phone view (facts) -----------------------------------------------


def test_facts_are_none_until_a_game_is_in_play(tmp_path):
    t, _, c = make(tmp_path, players=2)
    assert t.host.facts() is None and t.facts() is None


def test_facts_carry_the_position_the_turns_throws_the_last_move_and_the_lines(tmp_path):
    from companion.games.clovece.engine.rules import HOUSE, Move
    from companion.games.clovece.facts import CloveceFacts

    t, _, c = make(tmp_path, players=2, computer=("g",))
    t.handle(DiceLink(True), c())
    start_game(t, c)
    f = t.host.facts()
    assert isinstance(f, CloveceFacts) and t.facts() == f
    assert f.pos == t.host.state.pos and f.throws == () and f.moved is None
    assert f.computer == frozenset({GREEN}) and f.events == ("Nová hra, začíná červený.",)
    assert t.host.facts() == f and hash(t.host.facts()) == hash(f)  # the same table: equal
    t.handle(Rolled(2), c())
    t.handle(Rolled(1), c())
    f = t.host.facts()
    assert f.throws == (2, 1) and f.moved is None  # red's tries so far
    assert f.events[-2:] == ("Červený hodil 2, šestka nepadla.", t.view().event)
    t.handle(Rolled(6), c())  # the third try: a six, a single move that plays itself
    assert t.host.facts().throws == (2, 1, 6)
    t.tick(c(2))
    f = t.host.facts()
    assert f.moved == Move(RED, HOUSE, 0, None) and f.pos == t.host.state.pos
    assert f.events[-1] == "Červený nasadil figurku."
    t.handle(Rolled(6), c())  # the six gives red another throw: still red's turn
    t.tick(c(2))
    assert t.host.facts().throws == (2, 1, 6, 6)
    t.handle(Rolled(4), c())
    t.tick(c(2))
    assert t.host.state.pos.turn == GREEN
    assert t.host.facts().throws == (2, 1, 6, 6, 4)  # the turn played stays until green throws
    t.tick(c(1.1))  # the computer throws for green: its turn's throws start again
    rec = records(tmp_path)[-1]
    assert rec["t"] == "roll" and rec["src"] == "computer"
    assert t.host.facts().throws == (rec["v"],)


def test_facts_keep_the_twelve_latest_lines_and_forget_the_move_after_an_undo(tmp_path):
    from companion.service.hosts.base import EVENT_LINES

    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    for _ in range(6):
        for v in (1, 1, 1):
            t.handle(Rolled(v), c())
    f = t.host.facts()
    assert len(f.events) == EVENT_LINES == 12 and f.events[-1] == t.view().event
    t.handle(Rolled(6), c())
    t.tick(c(2))
    assert t.host.facts().moved is not None
    t.host.undo(c())
    f = t.host.facts()
    assert f.moved is None and f.throws == (6,) and f.events[-1] == "Vráceno: tah."


def test_facts_after_a_resume_know_the_pending_throw_only(tmp_path):
    t, _, c = make(tmp_path, players=2)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.handle(Rolled(1), c())
    t.handle(Rolled(6), c())  # pending: the move waits for its pause
    assert t.host.facts().throws == (1, 6)
    again, _, _ = make(tmp_path, players=2)
    f = again.host.facts()
    assert again.host.state.roll == 6 and f.pos == t.host.state.pos and f.moved is None
    assert f.throws == (6,)  # the journal keeps the pending roll, not the tries before it
    assert f.events == ("Hra pokračuje, kde skončila.",)


# --- levels of the computer seats, and the hint ------------------------------------------------


def begin_game(t: Shell, clock: Clock) -> None:
    """Start the game from wherever the set-up's selection is."""
    goto(t, clock, "▶ Začít hru")
    t.handle(S, clock())


def test_a_seat_cycles_person_then_the_computers_levels(tmp_path):
    t, _, c = make(tmp_path, players=2)
    goto(t, c, "Zelený: člověk")
    seen = []
    for _ in range(4):
        t.handle(S, c())
        seen.append(t.view().items[t.view().selected])
    assert seen == ["Zelený: PC normální", "Zelený: PC silný", "Zelený: PC začátečník",
                    "Zelený: člověk"]


def test_the_levels_go_into_the_header_and_the_computer_plays_its_level(tmp_path):
    from companion.games.clovece.levels import choose
    from companion.players.levels import Level

    t, _, c = make(tmp_path, players=2, computer=("r", "g"))
    goto(t, c, "Zelený: PC normální")
    t.handle(S, c())  # green: silný; red stays normální
    begin_game(t, c)
    header = records(tmp_path)[0]
    assert header["computer"] == ["r", "g"] and header["levels"] == {"r": "normal", "g": "strong"}
    assert GAME.setup_from_record(header) == Setup(2, computer=frozenset({RED, GREEN}))
    assert t.host.game_levels == {RED: Level.NORMAL, GREEN: Level.STRONG}
    # a position where the levels disagree: the computer on turn shows its own level's move
    pos = parse_position("r:f3,18,9,h g:f3,f4,39,20 turn:g")
    strong, normal = choose(Level.STRONG, pos, 1), choose(Level.NORMAL, pos, 1)
    assert strong != normal
    t.host.play.state = State(pos, 1)
    t.host.arm(c())
    assert t.host.moves()[t.view().selected] == strong
    t.host.game_levels[GREEN] = Level.NORMAL
    t.host.arm(c())
    assert t.host.moves()[t.view().selected] == normal


def test_a_resumed_game_keeps_its_levels_and_an_old_header_plays_normal(tmp_path):
    from companion.players.levels import Level

    t, _, c = make(tmp_path, players=2, computer=("g",))
    goto(t, c, "Zelený: PC normální")
    t.handle(S, c())
    t.handle(S, c())  # začátečník
    begin_game(t, c)
    again, _, c2 = make(tmp_path, players=2)
    assert again.host.game_levels == {GREEN: Level.BEGINNER}
    assert again.host.levels[GREEN] is Level.BEGINNER  # the next set-up offers it again
    j = Journal(tmp_path / "g.journal")
    j.replace([GAME.setup_record(Setup(2, computer=frozenset({GREEN})))])  # before levels
    old, _, _ = make(tmp_path, players=2)
    assert old.host.game_levels == {GREEN: Level.NORMAL}


def test_facts_name_the_levels_and_the_phone_shows_them(tmp_path):
    from companion.service.phone import snapshot_of

    t, _, c = make(tmp_path, players=2, computer=("g",))
    goto(t, c, "Zelený: PC normální")
    t.handle(S, c())
    begin_game(t, c)
    f = t.host.facts()
    assert f is not None and f.levels == ((GREEN, "silný"),)
    t.host.play.state = State(replace(t.host.state.pos, turn=GREEN))
    snap = snapshot_of("clovece", "Člověče", t.host.facts())
    assert snap.turn is not None and snap.turn.name == "Zelený – počítač, silný"


def hint_table(tmp_path, position: str, roll: int | None, **kw):
    t, _, c = make(tmp_path, players=2, **kw)
    t.handle(DiceLink(True), c())
    start_game(t, c)
    t.host.play.state = State(parse_position(position), roll)
    t.host.arm(c())
    return t, c


def test_the_hint_in_the_menu_names_the_strong_move_and_one_reason(tmp_path):
    t, c = hint_table(tmp_path, "r:5,15,f1,f2 g:8,h,h,h turn:r", 3)
    before = records(tmp_path)
    t.handle(LONG, c())
    assert "Nápověda tahu" in t.view().items
    goto(t, c, "Nápověda tahu")
    t.handle(S, c())
    v = t.view()
    assert isinstance(v, MessageView) and v.title == "Nápověda"
    assert " ".join(v.lines) == "Zadní figurka z 5. na 8. pole. Vyhodí zeleného."
    assert records(tmp_path) == before  # asking is not an action
    t.handle(S, c())  # any button: back to the turn, nothing chosen for the player
    assert isinstance(t.view(), CloveceTurnView) and t.host.state.roll == 3
    assert records(tmp_path) == before


def test_holding_left_on_the_turn_screen_shows_the_hint(tmp_path):
    t, c = hint_table(tmp_path, "r:12,22,h,h g:8,h,h,h turn:r", 4)
    selected = t.view().selected
    t.handle(ButtonPress("left", long=True), c())
    v = t.view()
    assert isinstance(v, MessageView)
    assert " ".join(v.lines) == "Zadní figurka z 12. na 16. pole. Uteče zelenému."
    t.handle(L, c())
    assert isinstance(t.view(), CloveceTurnView) and t.view().selected == selected


def test_the_hint_before_the_throw_and_on_the_computers_turn_says_why_not(tmp_path):
    t, c = hint_table(tmp_path, "r:12,30,h,h g:8,h,h,h turn:r", None)
    t.handle(ButtonPress("left", long=True), c())
    assert t.view().lines == ("Nejdřív hoď kostkou, pak",) or \
        " ".join(t.view().lines) == "Nejdřív hoď kostkou, pak poradím tah."
    t2, c2 = hint_table(tmp_path / "pc", "r:12,30,h,h g:8,h,h,h turn:g", 2, computer=("g",)) \
        if (tmp_path / "pc").mkdir() is None else (None, None)
    t2.handle(ButtonPress("left", long=True), c2())
    assert " ".join(t2.view().lines) == "Teď hraje počítač."


def test_with_hints_off_the_menu_has_none_and_holding_left_just_moves(tmp_path):
    t, c = hint_table(tmp_path, "r:5,15,f1,f2 g:8,h,h,h turn:r", 3,
                      prefs=Prefs(auto_delay=1.0, hints=False))
    t.handle(ButtonPress("left", long=True), c())
    assert isinstance(t.view(), CloveceTurnView) and t.view().selected == 2  # ◀: the last of three
    t.handle(LONG, c())
    assert "Nápověda tahu" not in t.view().items


def test_hints_are_switched_off_in_the_settings_and_kept(tmp_path):
    saved: list[Prefs] = []
    t, _, c = make(tmp_path, players=2, save_prefs=saved.append)
    start_game(t, c)
    t.handle(LONG, c())
    goto(t, c, "Nastavení")
    t.handle(S, c())
    goto(t, c, "Nápověda tahu: ano")
    t.handle(S, c())
    assert t.view().items[t.view().selected] == "Nápověda tahu: ne"
    assert saved[-1].hints is False
    t.handle(LONG, c())
    t.handle(LONG, c())
    assert "Nápověda tahu" not in t.view().items
