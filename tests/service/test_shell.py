"""The host shell: the game line of the set-up, resume of the journal's game, the shared menu,
the shutdown question, and a game that is nothing but an engine, a host and a registry line."""

from __future__ import annotations

import random

import pytest

from companion.games import playable, register, unregister
from companion.games.clovece.screens import CloveceTurnView
from companion.inputs.events import ButtonPress, DiceLink, Rolled
from companion.service.hosts.base import DiceStatus, Hinting, HostContext
from companion.service.shell import Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.views import ListView, MessageView
from tests.tinygame import INFO as RACE

S, R, L = ButtonPress("select"), ButtonPress("right"), ButtonPress("left")
LONG = ButtonPress("select", long=True)

LINES = [(info.name, n, label) for info in playable()
         for n, (_, label) in enumerate(info.table_lines())]
"""The set-up's game lines in the registry's order: (game, line of that game, label)."""
GAMES = list(dict.fromkeys(name for name, _, _ in LINES))


@pytest.fixture
def race():
    register(RACE)
    yield RACE
    unregister("race")


def build(tmp_path, start_with="clovece", beeps=None):
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(),
                      beep=(beeps.append if beeps is not None else lambda n: None),
                      rng=random.Random(1), dice=DiceStatus(configured=True),
                      defaults={"players": 2})
    shell = Shell(ctx, start_with=start_with, games=playable())
    shell.begin(0.0)
    return shell


def test_the_first_set_up_item_switches_between_the_games(tmp_path):
    c = build(tmp_path, LINES[0][0])
    for name, _, label in [*LINES, LINES[0]]:  # round every line, back to the first
        assert c.game == name and c.view().items[0] == f"Hra: {label}"
        c.handle(S, 0.0)
    assert len(LINES) >= 2


@pytest.mark.parametrize("game", GAMES)
def test_the_configured_game_comes_first(tmp_path, game):
    assert build(tmp_path, game).game == game


def test_after_a_restart_the_journals_game_resumes(tmp_path):
    c = build(tmp_path)
    c.handle(S, 0.0)  # to napij se
    c.handle(S, 0.0)  # to Gobbit
    c.handle(L, 0.0)  # to ▶ Začít hru
    c.handle(S, 0.0)
    assert c.mode == "play"
    again = build(tmp_path, "clovece")
    assert again.game == "gobbit" and again.mode == "play"
    # and a Člověče journal brings Člověče back even if the config says Gobbit
    c2 = build(tmp_path / "x", "clovece")
    c2.handle(L, 0.0)
    c2.handle(S, 0.0)
    assert c2.mode == "play"
    assert build(tmp_path / "x", "gobbit").game == "clovece"


def test_the_shutdown_question(tmp_path):
    c = build(tmp_path)
    c.handle(L, 0.0)
    c.handle(S, 0.0)  # start
    c.handle(LONG, 0.0)
    c.handle(L, 0.0)  # wraps to Vypnout
    c.handle(S, 0.0)
    assert isinstance(c.view(), MessageView) and c.view().title == "Vypnout?"
    c.handle(L, 0.0)
    assert c.mode == "menu" and not c.shutdown_requested
    c.handle(S, 0.0)
    c.handle(S, 0.0)
    assert c.mode == "bye" and c.shutdown_requested
    c.handle(S, 0.0)  # buttons do nothing any more
    assert c.view().title == "Na shledanou"


def test_a_roll_outside_play_is_refused_with_a_beep(tmp_path):
    beeps: list[str] = []
    c = build(tmp_path, beeps=beeps)
    c.handle(Rolled(4), 0.0)
    assert beeps == ["illegal"] and c.mode == "setup"


def test_a_registered_game_is_offered_played_and_resumed(tmp_path, race):
    c = build(tmp_path)
    while c.view().items[0] != "Hra: Závod":
        c.handle(S, 0.0)
    v = c.view()
    assert v.title == "Nová hra: Závod" and v.items[1] == "Cíl: 12"
    c.handle(R, 0.0)
    c.handle(S, 0.0)  # goal 12 -> 20
    c.handle(R, 0.0)
    c.handle(S, 0.0)  # start
    assert c.mode == "play"
    c.handle(Rolled(5), 0.0)
    c.handle(R, 0.0)  # step 1 instead of 5
    c.handle(S, 0.0)
    assert Journal(tmp_path / "g.journal").load() == [
        {"t": "game", "game": "race", "goal": 20}, {"t": "roll", "v": 5},
        {"t": "step", "n": 1}]
    again = build(tmp_path)
    assert again.game == "race" and again.mode == "play"
    assert again.view().lines[0] == "Hráč 1: pole 1 z 20"
    again.handle(LONG, 0.0)
    assert isinstance(again.view(), ListView)
    assert again.view().items[:2] == ("Zpět do hry", "Vrátit poslední akci")
    again.handle(R, 0.0)
    again.handle(S, 0.0)  # undo the step: asked first
    assert again.view().title == "Vrátit?" and again.view().lines == ("Záznam step se smaže.",)
    again.handle(S, 0.0)
    assert again.mode == "play" and again.view().lines[0] == "Hráč 1: pole 0 z 20"
    assert len(Journal(tmp_path / "g.journal").load()) == 2


def test_the_voice_going_silent_is_said_once(tmp_path):
    from companion.inputs.events import VoiceLink

    c = build(tmp_path)
    c.handle(VoiceLink(True), 0.0)  # working from the start: nothing to say
    assert c.view().footer == ""
    c.handle(VoiceLink(False, "no-sound-card"), 0.0)
    assert c.view().footer == "Hlas mlčí: chybí zvuková karta."
    c.handle(S, 0.0)  # the set-up is used: the line goes
    assert c.view().footer == ""
    c.handle(VoiceLink(False, "no-sound-card"), 0.0)
    assert c.view().footer == ""  # once
    c.handle(L, 0.0)
    c.handle(S, 0.0)  # start a game: the host shows the news
    c.handle(VoiceLink(False, "no-espeak"), 0.0)
    assert c.host.event_line == "Hlas mlčí: chybí program espeak-ng."
    c.handle(VoiceLink(True), 0.0)
    assert c.host.event_line == "Hlas zase mluví."


def test_the_voice_is_switched_in_the_settings(tmp_path):
    saved = []
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(), rng=random.Random(1),
                      dice=DiceStatus(configured=True), defaults={"players": 2})
    c = Shell(ctx, save_prefs=saved.append, games=playable())
    c.begin(0.0)
    c.handle(L, 0.0)
    c.handle(S, 0.0)
    c.handle(LONG, 0.0)
    while c.view().items[c.view().selected] != "Nastavení":
        c.handle(R, 0.0)
    c.handle(S, 0.0)
    assert c.view().items[4] == "Hlas: zapnutý" and c.view().items[-1] == "Zpět"
    for _ in range(4):
        c.handle(R, 0.0)
    c.handle(S, 0.0)
    assert c.view().items[4] == "Hlas: vypnutý" and saved[-1].voice is False
    c.host.ctx.save_prefs()  # a host may keep the preferences too (through its own context)
    assert len(saved) == 2
    c.handle(R, 0.0)
    c.handle(R, 0.0)  # past "Nápověda tahu"
    c.handle(S, 0.0)  # Zpět
    assert c.mode == "menu"


def test_switching_from_a_saved_gobbit_deck_game_to_clovece_keeps_the_dice_connected(tmp_path):
    """The defect seen: after a resumed Gobbit deck game the Člověče turn said "Kostka je
    pryč" although the dice was connected (the dice's state is the table's, not a host's)."""
    c = build(tmp_path, "gobbit")
    c.handle(S, 0.0)  # Gobbit (balíček)
    c.setup_index = len(c.view().items) - 1
    c.handle(S, 0.0)
    assert c.mode == "play"
    again = build(tmp_path, "clovece")  # a restart resumes the deck game
    assert again.game == "gobbit" and again.host.virtual is not None
    again.handle(DiceLink(True), 1.0)  # the dice connects while Gobbit is played
    again.handle(LONG, 1.0)
    while again.view().items[again.view().selected] != "Nová hra":
        again.handle(R, 1.0)
    again.handle(S, 1.0)
    again.handle(S, 1.0)  # yes
    while again.game != "clovece":
        again.handle(S, 1.0)
    again.setup_index = len(again.view().items) - 1
    again.handle(S, 1.0)
    v = again.view()
    assert isinstance(v, CloveceTurnView) and v.dice == "ok" and v.manual_roll is None
    assert v.prompt == "Hoď kostkou"


@pytest.mark.parametrize("table", [(name, n) for name, n, _ in LINES],
                         ids=[label for _, _, label in LINES])


def test_every_destructive_menu_item_asks_first_and_shut_down_keeps_the_game(tmp_path, table):
    game, mode_presses = table
    c = build(tmp_path, game)
    for _ in range(mode_presses):
        c.handle(S, 0.0)
    c.setup_index = len(c.view().items) - 1
    c.handle(S, 0.0)
    journal = Journal(tmp_path / "g.journal").load()
    for item, title in (("Vrátit poslední akci", "Vrátit"), ("Nová hra", "Nová hra?"),
                        ("Vypnout", "Vypnout?")):
        c.handle(LONG, 0.0)
        while c.view().items[c.view().selected] != item:
            c.handle(R, 0.0)
        c.handle(S, 0.0)
        v = c.view()
        assert isinstance(v, MessageView) and v.title.startswith(title), v
        if item == "Vypnout":
            assert "Hra zůstane uložena" in " ".join(v.lines)
        c.handle(L, 0.0)  # no
        assert c.mode == "menu"
        c.handle(LONG, 0.0)
        assert c.mode == "play" and Journal(tmp_path / "g.journal").load() == journal


# --- "Telefon": the phone view's QR code ---------------------------------------------------------


def started(tmp_path, game="clovece"):
    c = build(tmp_path, game)
    c.handle(L, 0.0)  # to ▶ Začít hru
    c.handle(S, 0.0)
    assert c.mode == "play"
    return c


def open_telefon(c: Shell) -> None:
    c.handle(LONG, 0.0)
    while c.view().items[c.view().selected] != "Telefon":
        c.handle(R, 0.0)
    c.handle(S, 0.0)


@pytest.mark.parametrize("game", GAMES)
def test_telefon_comes_after_the_rules_in_every_games_menu(tmp_path, game):
    c = started(tmp_path, game)
    labels = list(c.menu_labels())
    assert labels[:2] == ["Zpět do hry", "Vrátit poslední akci"]
    hint = ["Nápověda tahu"] if isinstance(c.host, Hinting) else []  # hosts that give hints
    assert labels[-5 - len(hint):] == ["Pravidla a nápověda", *hint, "Telefon", "Nová hra",
                                       "Nastavení", "Vypnout"]
    assert labels.count("Telefon") == 1


def test_without_a_phone_view_telefon_says_how_to_turn_it_on(tmp_path):
    from companion.service.shell import PHONE_OFF, phone_off

    c = started(tmp_path)
    open_telefon(c)
    v = c.view()
    assert c.mode == "phone" and v == phone_off()
    assert isinstance(v, MessageView) and v.title == "Telefon" and v.lines == PHONE_OFF
    assert "[web] enabled = true" in v.lines and v.footer == "● zpět do hry"


@pytest.mark.parametrize("button", [S, L, R, LONG])
def test_any_button_goes_back_from_telefon_to_the_game(tmp_path, button):
    c = started(tmp_path)
    game_view = c.view()
    open_telefon(c)
    c.handle(button, 0.0)
    assert c.mode == "play" and c.view() == game_view


def test_telefon_shows_what_the_service_hands_it(tmp_path):
    from PIL import Image

    from companion.ui.picture import Picture

    pic = Picture.of("Telefon", Image.new("1", (128, 64), 1))
    c = started(tmp_path)
    calls = []
    c.phone_screen = lambda: calls.append(1) or pic
    open_telefon(c)
    assert c.view() is pic and calls
    c.handle(S, 0.0)
    assert c.view() != pic


def test_the_game_is_shown_to_phones_only_while_one_is_in_play(tmp_path):
    c = build(tmp_path)
    assert c.facts() is None  # the set-up of the first game
    c.handle(L, 0.0)
    c.handle(S, 0.0)
    facts = c.facts()
    assert facts is not None and facts == c.host.facts()
    c.handle(Rolled(3), 0.0)
    assert c.facts() != facts and c.facts().throws == (3,)


def test_looking_through_the_games_in_the_set_up_keeps_the_game_in_play(tmp_path):
    """"Nová hra", then ● on "Hra:" round every game and back, then long ● back to the game:
    the game goes on (the computer's throw is still due); only starting another game ends it."""
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(), beep=lambda n: None,
                      rng=random.Random(1), dice=DiceStatus(configured=True),
                      defaults={"players": 2, "computer": ("g",)})
    c = Shell(ctx, start_with="clovece", games=playable())
    c.begin(0.0)
    c.setup_index = len(c.view().items) - 1
    c.handle(S, 0.0)  # ▶ Začít hru: red (a person) throws first
    c.handle(Rolled(3), 0.1)  # no six: ... three tries
    c.handle(Rolled(3), 0.2)
    c.handle(Rolled(3), 0.3)  # green, the computer, is on turn: its throw is due
    assert c.mode == "play" and c.next_deadline() is not None
    records = ctx.journal.load()
    c.handle(LONG, 1.0)
    while c.view().items[c.view().selected] != "Nová hra":
        c.handle(R, 1.0)
    c.handle(S, 1.0)
    c.handle(S, 1.0)  # yes: the set-up
    c.setup_index = 0
    for _ in range(len(c.tables)):  # round every game, back to Člověče
        c.handle(S, 1.0)
    assert c.game == "clovece"
    c.handle(LONG, 1.0)  # back to the game
    assert c.mode == "play" and c.next_deadline() is not None
    c.tick(c.next_deadline() + 0.01)
    assert len(ctx.journal.load()) > len(records)  # the computer threw


# --- the dice: the verdict on each roll, the dice's notices, "Kostka" ---------------------

def _started_clovece(tmp_path, beeps=None):
    c = build(tmp_path, beeps=beeps)
    c.handle(L, 0.0)
    c.handle(S, 0.0)  # ▶ Začít hru: red (0) throws first
    c.ctx.dice.up = True
    return c


def test_every_roll_from_the_dice_gets_a_verdict_for_the_seat_on_turn(tmp_path):
    c = _started_clovece(tmp_path)
    told = []
    c.on_roll.append(lambda value, counted, colour: told.append((value, counted, colour)))
    c.handle(Rolled(6, 1), 0.0)  # red's throw counts
    c.handle(Rolled(2, 2), 0.0)  # a throw before red moved: it does not count
    assert told == [(6, True, 0), (2, False, 0)]
    c.handle(LONG, 0.0)  # the menu: no throw counts there
    c.handle(Rolled(3, 3), 0.0)
    assert told[-1] == (3, False, None)


def test_a_refused_dice_roll_is_journaled_as_seen_and_a_counted_one_with_its_move(tmp_path):
    """The mark of a roll the host took goes into the journal with the roll's record; the mark
    of a roll it refused is noted after the last record: both are never taken again."""
    from companion.inputs.events import Receipt

    c = _started_clovece(tmp_path)
    taken = Rolled(6, 1, receipt=Receipt(), boot="B")
    c.handle(taken, 0.0)
    records = len(c.ctx.journal.load())
    refused = Rolled(2, 2, receipt=Receipt(), boot="B")  # before red moved: not counted
    c.handle(refused, 0.0)
    assert taken.receipt.taken and refused.receipt.taken  # both acknowledged
    assert len(c.ctx.journal.load()) == records  # the refused roll is no record
    assert c.ctx.journal.marks == [{"src": "dice", "boot": "B", "seq": 1},
                                   {"src": "dice", "boot": "B", "seq": 2}]
    again = Journal(tmp_path / "g.journal")
    again.load()
    assert again.seen({"src": "dice", "boot": "B", "seq": 2})


def test_the_shell_lends_each_host_its_own_context_and_keeps_the_tables(tmp_path):
    """The hosts beep through the shell (silent while sound is off) without the table's
    context being changed after it was given."""
    beeps = []
    c = _started_clovece(tmp_path, beeps=beeps)
    assert c.host.ctx is not c.ctx and c.host.ctx.journal is c.ctx.journal
    assert c.ctx.beep == beeps.append  # still the buzzer it was given
    c.host.ctx.beep("turn")
    c.ctx.prefs.sound = False
    c.host.ctx.beep("six")
    assert beeps == ["turn"]


def test_a_dice_notice_is_shown_and_said(tmp_path):
    from companion.devices.voice import SilentAnnouncer
    from companion.inputs.events import DiceNotice

    said = []

    class Ears(SilentAnnouncer):
        def say(self, text, *, cut=False):
            said.append(text)

    c = _started_clovece(tmp_path)
    c.ctx.announcer = Ears()
    c.handle(DiceLink(False, "asleep or out of range"), 0.0)
    c.handle(DiceNotice("Kostka spí / mimo dosah: hoď tlačítky."), 0.0)
    assert c.view().event == "Kostka spí / mimo dosah: hoď tlačítky."
    assert said == ["Kostka spí / mimo dosah: hoď tlačítky."]
    c.ctx.prefs.voice = False
    c.handle(DiceNotice("Kostka dopadla nakřivo: hoď znovu."), 0.0)
    assert len(said) == 1 and c.view().event == "Kostka dopadla nakřivo: hoď znovu."


def test_kostka_in_the_settings_opens_the_dice_menu(tmp_path):
    from companion.service.dice_menu import DiceMenu

    class Control:
        kind, pixels_name, scanning = "serial", "", False

        def choose(self, kind, name=""):
            self.kind, self.pixels_name = kind, name

        def scan_start(self):
            pass

        def scan_stop(self):
            pass

        def scan_results(self):
            return []

    c = build(tmp_path)
    assert not any("Kostka" in line for line in c.menu_labels())
    c.dice_menu = DiceMenu(Control())
    c.mode = c.mode.SETTINGS
    items = c.view().items
    assert "Kostka: naše" in items
    c.settings_index = items.index("Kostka: naše")
    c.handle(S, 0.0)
    assert c.mode == "dice" and c.view().title == "Kostka: naše"
    c.handle(R, 0.0)
    c.handle(R, 0.0)
    c.handle(R, 0.0)  # Jen tlačítka
    c.handle(S, 0.0)
    assert c.mode == "settings" and "Kostka: tlačítka" in c.view().items


def test_each_game_takes_its_own_set_up_defaults_over_the_shared_ones(tmp_path):
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(), rng=random.Random(1),
                      dice=DiceStatus(configured=True), defaults={"players": 4, "seats": 3},
                      game_defaults={"clovece": {"players": 2, "computer": ("g",)},
                                     "gobbit": {"seats": 2}})
    shell = Shell(ctx, start_with="clovece", games=playable())
    shell.begin(0.0)
    assert shell.host.players == 2 and shell.host.computer == {2}
    shell.handle(S, 0.0)  # to napij se: the shared defaults
    assert shell.game == "napij" and shell.host.players == 4 and shell.host.computer == set()
    shell.handle(S, 0.0)
    assert shell.game == "gobbit" and shell.host.seats == 2


def test_the_colour_on_turn_is_asked_of_the_games_facts_and_the_shell_names_no_game():
    """The dice's verdict and the voice ask the facts whose colour is on turn; a new game's
    facts answer it with ``on_turn`` (no per-game check in the shell)."""
    from dataclasses import dataclass
    from pathlib import Path

    import companion.service.shell as shell_module
    from companion.service.shell import turn_colour

    @dataclass(frozen=True)
    class RaceFacts:
        turn: int

        def on_turn(self) -> int:
            return self.turn

    assert turn_colour(RaceFacts(3)) == 3  # type: ignore[arg-type]
    assert turn_colour(None) is None
    folder = Path(shell_module.__file__).parent
    for module in ("shell.py", *(p.name for p in folder.glob("shell_*.py"))):
        source = (folder / module).read_text(encoding="utf-8")
        for word in ("CloveceFacts", "NapijFacts", "GobbitFacts", "RefereeView", "clovece",
                     "napij", "gobbit"):
            assert word not in source, (module, word)


# --- a journal this version cannot resume in full: kept whole, and said ------------------------


def _clovece_records(actions: int) -> list[dict]:
    import itertools

    from companion.games import find_game
    from companion.games.clovece.engine.game import Setup
    from companion.selfplay.driver import steps

    game = find_game("clovece").engine()
    played = itertools.islice(steps(game, Setup(2), random.Random(5)), actions)
    return [game.setup_record(Setup(2))] + [game.encode(s.action) for s in played]


def _journal_files(tmp_path, records, extra: bytes = b"") -> dict:
    journal = Journal(tmp_path / "g.journal")
    journal.replace(records[:1])
    for r in records[1:]:
        journal.append(r)
    files = {p: p.read_bytes() + extra for p in (journal.path, journal.mirror)}
    for p, data in files.items():
        p.write_bytes(data)
    return files


def _start_over(c) -> None:
    while c.view().items[c.setup_index] != "▶ Začít hru":
        c.handle(L, 0.0)
    c.handle(S, 0.0)
    assert c.mode == "play"


def test_a_record_this_version_does_not_know_is_said_and_the_whole_journal_kept(tmp_path):
    """30 good records, one this version does not know, 10 more: the game resumes at the 30,
    the table is told in one sentence, and both files are kept whole beside the journal."""
    good = _clovece_records(40)
    records = good[:30] + [{"t": "teleport"}] + good[30:40]
    original = _journal_files(tmp_path, records)
    c = build(tmp_path)
    assert c.mode == "play"
    said = c.host.event_line
    assert said == ("Deník má záznam, kterému tahle verze nerozumí: hra pokračuje před ním, "
                    "bez 11 záznamů; celý deník je uložen jako g.journal.damaged-1.")
    for path, data in original.items():
        assert path.with_name(path.name + ".damaged-1").read_bytes() == data
    again = Journal(tmp_path / "g.journal")
    assert again.load() == good[:30] and again.writable


def test_on_a_full_disk_a_record_not_known_waits_whole_until_it_can_be_copied(tmp_path):
    from tests.storage.journal_support import FaultyStorage

    good = _clovece_records(20)
    original = _journal_files(tmp_path, good[:12] + [{"t": "teleport"}] + good[12:])
    disk = FaultyStorage(space=0)
    ctx = HostContext(Journal(tmp_path / "g.journal", storage=disk), Prefs(),
                      beep=lambda n: None, rng=random.Random(1),
                      dice=DiceStatus(configured=True), defaults={"players": 2})
    c = Shell(ctx, start_with="clovece", games=playable())
    c.begin(0.0)
    assert c.mode == "play"
    assert "deník zůstane celý, dokud nepůjde uložit jeho kopie" in c.host.event_line
    assert "Nelze uložit: disk je plný." in c.host.event_line
    assert {p: p.read_bytes() for p in original} == original  # nothing cut, nothing copied
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.journal", "g.journal.mirror"]
    c.handle(Rolled(6), 0.0)  # refused: the cut cannot be made yet
    assert {p: p.read_bytes() for p in original} == original
    disk.space = None  # room again: the next write makes the cut, with the copies
    ctx.journal.append({"t": "roll", "v": 3, "c": "r"})
    for path, data in original.items():
        assert path.with_name(path.name + ".damaged-1").read_bytes() == data
    assert Journal(tmp_path / "g.journal").load()[:12] == good[:12]


def test_a_journal_of_a_newer_format_is_left_untouched_until_a_new_game(tmp_path):
    import zlib

    body = b'1/12/x\t{"t":"warp"}'
    line = body + b"\t" + f"{zlib.crc32(body):08x}".encode() + b"\n"
    original = _journal_files(tmp_path, _clovece_records(11), extra=line)
    c = build(tmp_path)
    assert c.mode == "setup"
    assert c.notice.startswith("Deník zapsala novější verze programu a tahle ho neumí číst")
    assert {p: p.read_bytes() for p in original} == original
    assert not c.ctx.journal.writable
    _start_over(c)  # the family chooses to start over: the old journal is set aside whole
    for path, data in original.items():
        assert path.with_name(path.name + ".damaged-1").read_bytes() == data
    assert len(Journal(tmp_path / "g.journal").load()) == 1


@pytest.mark.parametrize("header, words", [
    ({"game": "chess"}, "tahle verze nezná hru „chess“"),
    ({"players": 99}, "tahle verze nepřijme její nastavení"),
])
def test_a_header_this_version_cannot_play_is_said_and_kept_until_a_new_game(
        tmp_path, header, words):
    records = _clovece_records(6)
    records[0] = {**records[0], **header}
    original = _journal_files(tmp_path, records)
    c = build(tmp_path)
    assert c.mode == "setup"
    assert c.notice == (f"Hru z deníku nejde obnovit, {words}: deník zůstává beze změny, "
                        "dokud nezačne nová hra.")
    assert {p: p.read_bytes() for p in original} == original
    _start_over(c)
    for path, data in original.items():
        assert path.with_name(path.name + ".damaged-1").read_bytes() == data
