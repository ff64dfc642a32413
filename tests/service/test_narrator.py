"""The narrator: every game speaks, and the voice mode reads the screens."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.devices.speech import ordinal_nouns, raw_left, speakable, unspoken
from companion.devices.voice import SilentAnnouncer
from companion.games import playable
from companion.inputs.events import ButtonPress, Rolled
from companion.service.hosts.base import DiceStatus, HostContext
from companion.service.narrator import PRIORITY, RULING, TURN_PAUSE, fresh
from companion.service.shell import Mode, Shell
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.ui.reading import sentence
from tests.service.voice_tables import LONG_LEFT, VoiceTable, play

L, S, R = ButtonPress("left"), ButtonPress("select"), ButtonPress("right")
LONG = ButtonPress("select", long=True)
GAMES_SPOKEN = 50
QUICK_SPOKEN = 8  # make test: 8 seeded games of each; all 50 (and every noun) in test-long
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_fsync(monkeypatch):
    """Whole games in a few seconds: the journal's fsync is not what these tests are about."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def test_fresh_lines_are_found_also_when_the_list_is_full_or_repeats():
    assert fresh((), ("a",)) == ("a",)
    assert fresh(("a", "b"), ("a", "b", "b")) == ("b",)
    assert fresh(("a", "b", "c"), ("b", "c", "d")) == ("d",)  # the oldest fell out
    assert fresh(("a", "b"), ("a", "b")) == ()
    assert fresh(("a", "b"), ("x", "y")) == ("x", "y")  # a new game's lines


def shell_for(tmp_path: Path, game: str = "clovece", **prefs) -> tuple[Shell, SilentAnnouncer]:
    voice = SilentAnnouncer()
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(auto_delay=1.0, **prefs),
                      rng=random.Random(4), dice=DiceStatus(configured=True, up=True),
                      defaults={"players": 2}, announcer=voice)
    shell = Shell(ctx, start_with=game, games=playable())
    shell.begin(0.0)
    return shell, voice


def start(shell: Shell) -> None:
    shell.setup_index = len(shell._setup_lines()) - 1
    shell.handle(S, 0.0)
    assert shell.mode is Mode.PLAY


def test_the_voice_mode_says_whose_turn_the_throw_and_the_move_in_the_screens_words(tmp_path):
    shell, voice = shell_for(tmp_path, voice_mode="table")
    start(shell)
    assert voice.spoken[-1] == "Červený. Pokus 1 ze 3. Hoď kostkou."  # the turn screen's heading
    shell.handle(Rolled(6), 0.1)
    assert "Červený hodil 6." in voice.spoken[-2:] and shell.view().event == "Červený hodil 6."
    shell.tick(5.0)  # the only move plays itself
    assert "Červený nasadil figurku." in voice.spoken[-2:]
    shell.handle(Rolled(3), 5.1)
    shell.tick(9.0)
    said = voice.spoken[-4:]
    assert "Červený hodil 3." in said and "Červený táhl ze startu na 3. pole." in said
    assert speakable("Červený táhl ze startu na 3. pole.") == (
        "Červený táhl ze startu na třetí pole.")


def test_by_default_the_table_hears_no_throws_nor_plain_moves_and_whose_turn_after_a_pause(
        tmp_path):
    shell, voice = shell_for(tmp_path)
    start(shell)
    assert voice.spoken == []  # a sighted table sees whose turn it is
    shell.tick(TURN_PAUSE + 0.5)  # nobody throws for a while: the voice says whose turn
    assert voice.spoken == ["Červený. Pokus 1 ze 3. Hoď kostkou."]
    shell.handle(Rolled(6), 11.0)
    shell.tick(15.0)  # the only move plays itself
    shell.handle(Rolled(3), 15.5)
    shell.tick(18.0)
    assert shell.view().event == "Červený táhl ze startu na 3. pole."
    assert voice.spoken == ["Červený. Pokus 1 ze 3. Hoď kostkou."]  # no throw, no plain move
    shell.tick(18.0 + TURN_PAUSE + 0.5)
    assert voice.spoken[-1] == "Zelený. Pokus 1 ze 3. Hoď kostkou."


def test_a_whole_clovece_game_speaks_captures_goals_and_the_winner(tmp_path, no_fsync):
    t = VoiceTable(tmp_path, "clovece", 7, voice_mode="", players=2)
    t.start()
    t.play_out(6000)
    said = t.voice.spoken
    assert any("vyhodil" in s for s in said)
    assert any("má figurku v cíli" in s for s in said)
    assert said[-1].endswith("vyhrává!") or any(s.endswith("vyhrává!") for s in said[-3:])
    assert not any(s.startswith("Nabídka") for s in said)  # no screens read: no voice mode


def test_napij_says_its_drinks_itself_and_the_table_says_its_steps(tmp_path, no_fsync):
    """Napij se outside the voice mode: the host's own words (drinks, a play said before it is
    taken, with the throw that led to it) and the event lines and turns, none said twice."""
    shell, voice = shell_for(tmp_path, "napij")
    start(shell)
    assert voice.spoken[0] == "Všichni se napijí na začátek hry."  # the host's own words
    assert voice.kinds[0] == ("", 1)
    t = VoiceTable(tmp_path / "g", "napij", 1, voice_mode="", players=2)
    t.start()
    t.play_out(400)
    said = t.voice.spoken
    assert not any(x.startswith("Šestka nepadla, ") for x in said)  # no try for a six
    plays = [x for x in said if ", počítač táhne: " in x]
    assert plays and all(" hodil " in x.split(", počítač táhne")[0] for x in plays)
    assert any(x.startswith("Červený si bere kartu číslo") for x in said)  # a card in full
    moved = [x for x in said if " táhl z " in x and "počítač táhne" not in x]
    assert moved == []  # every computer's play was said once, before it was taken
    assert not any(k[0] == "screen" for k in t.voice.kinds)  # no screens: no voice mode


def test_a_seat_voice_mode_hears_the_others_in_full_and_reads_its_own_screens(tmp_path,
                                                                             no_fsync):
    """What a blind player at Zelený's seat hears: every other player's turn, throws, moves
    and drinks said in full (their screens, where they choose, not read), its own turn's
    screens read, and the news about the box on anyone's turn."""
    from companion.inputs.events import DiceLink

    for game in ("clovece", "napij"):
        t = VoiceTable(tmp_path / game, game, 3, voice_mode="2", players=2)
        t.start()
        t.play_out(300)
        pairs = list(zip(t.voice.spoken, t.voice.kinds, strict=True))
        screens = [x for x, k in pairs if k[0] == "screen" and "Na tahu je" not in x]
        # (a held ◀ now and then reads the whole situation: every colour, whose turn)
        turns = [x for x, k in pairs if k[0] == "turn"]
        assert screens and all(not x.startswith(("Červený.", "Červený (PC)"))
                               for x in screens), game  # the other's turn screens: not read
        assert any(x.startswith("Zelený") for x in screens), game  # its own turns, read
        assert turns and all(x.startswith("Červený") for x in turns), game  # the others'
        others = [x.lower() for x, k in pairs if k[0] == ""]  # event lines, the host's words
        assert any("červený" in x and ("hodil" in x or "nepadla" in x) for x in others), game
        assert any(x.startswith(("červený táhl", "červený nasadil", "červený hodil"))
                   and ("pole" in x or "figurk" in x) for x in others), game  # its moves
    shell, voice = shell_for(tmp_path / "link", voice_mode="2")
    start(shell)  # Červený's turn
    shell.handle(DiceLink(False, "gone"), 0.5)
    assert voice.spoken[-1] == shell.view().event  # the dice lost: said on another's turn too


def rulings(tmp_path: Path, seeds: range, timing: bool,
            voice_mode: str = "table") -> list[tuple[str, tuple[str, int]]]:
    """The rulings said in seeded virtual-deck games (random flips and slaps, with the pads'
    timing budget of a TTP223 front end or none), with their kinds."""
    from companion.devices.pads.timing import TimingBook

    out = []
    for seed in seeds:
        t = VoiceTable(tmp_path / f"g{seed}", "gobbit", seed, voice_mode=voice_mode)
        if timing:
            t.ctx.pad_timing = TimingBook("ttp223-fast")
        t.start(virtual=True)
        t.play_out(400)
        out += [(x, k) for x, k in zip(t.voice.spoken, t.voice.kinds, strict=True) if k[0] == RULING]
    return out


def test_gobbit_rulings_are_said_first_with_how_the_first_touch_was_decided(tmp_path,
                                                                           no_fsync):
    said = rulings(tmp_path, range(6), timing=False)
    assert said and all(kind == (RULING, PRIORITY[RULING]) for _, kind in said)
    called = [x for x, _ in said if " byl první o " in x]
    assert called, said[:5]
    text = speakable(called[0])
    assert "milisekund" in text and not raw_left(text)


def test_by_default_a_gobbit_ruling_is_said_without_how_the_touch_was_decided(tmp_path,
                                                                              no_fsync):
    said = [x for x, _ in rulings(tmp_path, range(6), timing=False, voice_mode="")]
    assert said and not any(" byl první o " in x or "přesností čidel" in x for x in said)


def test_a_gobbit_tie_within_the_pads_uncertainty_is_said_as_a_tie(tmp_path, no_fsync):
    said = [x for x, _ in rulings(tmp_path, range(6), timing=True)]
    ties = [x for x in said if "pod přesností čidel" in x]
    assert ties and all("současně" in x for x in ties)
    assert "plus minus" in speakable(ties[0])
    assert any("nad přesností čidel" in x for x in said)  # a clear gap is said as one


def test_a_gobbit_ruling_is_the_verdict_screens_sentences(tmp_path, no_fsync):
    t = VoiceTable(tmp_path, "gobbit", 2, voice_mode="")
    t.start(virtual=True)
    for _ in range(400):
        t.gobbit_step()
        host = t.shell.host
        ruled = [x for x, k in zip(t.voice.spoken, t.voice.kinds, strict=True) if k[0] == RULING]
        if ruled and host.virtual.last_lines:
            assert ruled[-1].endswith(" ".join(host.virtual.last_lines))
            return
    raise AssertionError("no ruling in 400 steps")


def test_a_gobbit_race_is_said_as_the_verdict_says_it():
    from companion.games.gobbit.engine.judge import Ruling
    from companion.games.gobbit.facts import GobbitFacts
    from companion.games.gobbit.voice import ruling_words

    words = ruling_words(GobbitFacts(None, ruling=Ruling(gobbit=2)))  # type: ignore[arg-type]
    assert words.startswith("Gobbit! Na hřbitov sáhl první hráč 2.")


def test_the_virtual_decks_flips_are_said_in_the_voice_mode_only(tmp_path, no_fsync):
    said = play(tmp_path / "mode", "gobbit", 3, voice_mode="table")
    assert any(s.startswith("Hráč 1 otočil") for s in said)
    said = play(tmp_path / "default", "gobbit", 3, voice_mode="")
    assert said and not any(" otočil " in s for s in said)


# --- the voice mode -------------------------------------------------------------------------


def test_the_voice_mode_reads_the_menu_settings_and_the_row_moved_to(tmp_path):
    shell, voice = shell_for(tmp_path, voice_mode="table")
    start(shell)
    shell.handle(LONG, 1.0)
    n = len(shell.view().items)
    assert voice.spoken[-1] == f"Nabídka. Zpět do hry, řádek 1 z {n}."
    shell.handle(R, 1.1)
    assert voice.spoken[-1] == f"Vrátit poslední akci, řádek 2 z {n}."
    while shell.view().items[shell.view().selected] != "Nastavení":
        shell.handle(R, 1.2)
    shell.handle(S, 1.3)
    n = len(shell.view().items)  # the hint's line is there too: "Nápověda tahu"
    assert voice.spoken[-1] == f"Nastavení. Zvuk: zapnutý, řádek 1 z {n}."
    shell.handle(LONG_LEFT, 1.4)  # the whole screen
    assert voice.spoken[-1].startswith("Nastavení. Zvuk: zapnutý. Sám táhne po: 1 s.")
    assert "Hlasový režim: stůl." in voice.spoken[-1]


def test_voice_settings_change_and_are_kept(tmp_path):
    saved: list[Prefs] = []
    voice = SilentAnnouncer()
    ctx = HostContext(Journal(tmp_path / "g.journal"), Prefs(), announcer=voice)
    shell = Shell(ctx, save_prefs=saved.append, games=playable())
    shell.begin(0.0)
    shell.mode = Mode.SETTINGS
    items = shell.view().items
    assert items[5:8] == ("Hlasový režim: ne", "Hlasitost: 100 %", "Rychlost řeči: 165")
    for label, after in (("Hlasový režim", "Hlasový režim: stůl"),
                         ("Hlasitost", "Hlasitost: 150 %"),
                         ("Rychlost řeči", "Rychlost řeči: 190")):
        shell.settings_index = next(i for i, x in enumerate(shell.view().items)
                                    if x.startswith(label))
        shell.handle(S, 0.1)
        assert after in shell.view().items
    assert saved[-1].voice_mode == "table" and saved[-1].volume == 150
    assert saved[-1].speech_rate == 190
    assert voice.words_per_minute == 190 and voice.amplitude == 150  # the voice is tuned
    from companion.storage.prefs import load_prefs, save_prefs

    save_prefs(tmp_path / "prefs.json", saved[-1])
    kept = load_prefs(tmp_path / "prefs.json", Prefs())
    assert (kept.voice_mode, kept.volume, kept.speech_rate) == ("table", 150, 190)
    shell.settings_index = 4  # "Hlas": off hides the voice's own lines
    shell.handle(S, 0.3)
    assert not any(x.startswith("Hlasitost") for x in shell.view().items)


def test_a_short_select_repeats_and_a_long_left_reads_the_whole_situation(tmp_path):
    shell, voice = shell_for(tmp_path, voice_mode="table")
    start(shell)
    shell.handle(Rolled(6), 0.1)
    shell.tick(5.0)
    shell.handle(Rolled(4), 5.1)
    shell.tick(9.0)
    last = voice.spoken[-1]
    shell.handle(S, 9.1)  # ● does nothing while a throw is awaited: the last sentence again
    assert voice.spoken[-1] == last and voice.kinds[-1][0] == "repeat"
    shell.handle(LONG_LEFT, 9.2)
    whole = voice.spoken[-1]
    assert whole.startswith("Červený: tři figurky v domečku, jedna na 4. poli od startu; "
                            "zelený: čtyři figurky v domečku.")
    assert "čtvrtém poli od startu" in speakable(whole)
    assert shell.view().choices == ()  # the long ◀ moved nothing


def test_a_seat_voice_mode_reads_the_game_only_on_that_seats_turn(tmp_path):
    shell, voice = shell_for(tmp_path, voice_mode="2")  # Zelený
    start(shell)
    assert voice.spoken == ["Červený. Pokus 1 ze 3. Hoď kostkou."]  # announced, not read
    shell.handle(Rolled(1), 0.1)
    shell.handle(Rolled(1), 0.2)
    shell.handle(Rolled(1), 0.3)
    assert voice.spoken[-1].startswith("Zelený. Pokus 1 ze 3.")  # read: its screen
    assert voice.kinds[-1][0] == "screen"


def test_the_rules_are_read_page_by_page(tmp_path):
    shell, voice = shell_for(tmp_path, voice_mode="table")
    shell.handle(ButtonPress("help"), 0.0)
    topic = shell.view()
    assert voice.spoken[-1].startswith(f"{topic.title}. {topic.items[0]}")
    shell.handle(S, 0.1)
    page = shell.view()
    assert voice.spoken[-1] == sentence(page.title, " ".join(page.lines))
    shell.handle(R, 0.2)
    assert shell.view() != page and voice.spoken[-1].startswith(shell.view().title)


@pytest.mark.parametrize("games", [QUICK_SPOKEN, pytest.param(GAMES_SPOKEN, marks=pytest.mark.long)])
def test_every_sentence_of_seeded_games_reaches_espeak_as_words(tmp_path, no_fsync, games):
    """Seeded games of each game (50 in test-long) through the shell in the voice mode (napij
    se: its sentences through the engine's own driver, and a few whole games through the
    shell): no sign the normaliser has no word for, no digit and no digit-with-dot left."""
    said: set[str] = set()
    for game in ("clovece", "gobbit"):
        for seed in range(games):
            said.update(play(tmp_path / f"{game}{seed}", game, seed))
    for seed in range(games):  # Gobbit with real cards: 300 steps of random play each
        said.update(play(tmp_path / f"referee{seed}", "referee", seed, steps=300))
    for seed in range(3 if games == GAMES_SPOKEN else 1):  # whole napij se games: long ones
        said.update(play(tmp_path / f"napij{seed}", "napij", seed))
    said.update(napij_sentences(games))
    assert len(said) > 60 * games
    problems = [(s, speakable(s)) for s in said if unspoken(s) or raw_left(speakable(s))]
    assert problems == []
    if games < GAMES_SPOKEN:
        return  # the full corpus says every ordinal noun; a few games need not
    # every ordinal the games say goes with a noun the normaliser declines (none falls back to
    # the neuter of an unknown noun): the fields of Člověče and napij se in three cases, and
    # the referee's order of touches ("1. H2 útok": "první hráč dva")
    nouns = {form for s in said for form in ordinal_nouns(s)}
    assert nouns == {("pole", "gen", "n"), ("pole", "acc", "n"), ("poli", "loc", "n"),
                     ("H", "nom", "m")}


def napij_sentences(games: int) -> set[str]:
    """Every sentence the napij se host could say or show in ``games`` seeded games played
    by the engine's driver: event lines, each legal play's steps and the spoken play, each
    card and drink announcement, each debt question, the winner."""
    from companion.games.napij.drinks import debt_sentence, winner_sentence
    from companion.games.napij.engine.actions import Play
    from companion.games.napij.engine.game import GAME
    from companion.games.napij.engine.places import headline, play_lines
    from companion.games.napij.pace import spoken_play
    from companion.games.napij.shown import after_action
    from companion.selfplay.driver import steps

    out: set[str] = set()
    setup = GAME.default_setup()
    for seed in range(games):
        for step in steps(GAME, setup, random.Random(seed)):
            out.add(headline(step.events, step.after))
            out.update(GAME.describe(e, step.after) for e in step.events)
            for shown in after_action(step.before, step.after, step.events):
                out.add(shown.sentence)
                if shown.banner is not None:
                    out.update((shown.banner.title, *shown.banner.lines))
                if shown.card is not None:
                    out.update((shown.card[0], *shown.card[1]))
            if isinstance(step.action, Play):
                lines = play_lines(step.before, step.action)
                out.update(lines)
                out.add(spoken_play(step.before.turn, lines, seed % 2 == 0))
            for colour in step.after.colours:
                debts = step.after.debts_of(colour)
                if debts:
                    out.add(debt_sentence(colour, debts))
            out.add(winner_sentence(step.events) or "")
    out.discard("")
    return out


def test_with_the_voice_off_the_narrator_is_not_even_imported(tmp_path):
    code = f"""
import sys
from pathlib import Path
from companion.inputs.events import ButtonPress, Rolled
from companion.service.hosts.base import HostContext
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs
from companion.service.shell import Shell
from companion.games import playable
shell = Shell(HostContext(Journal(Path({str(tmp_path)!r}) / "g.journal"), Prefs(voice=False)), games=playable())
shell.begin(0.0)
shell.setup_index = len(shell._setup_lines()) - 1
shell.handle(ButtonPress("select"), 0.0)
shell.handle(Rolled(6), 0.1)
shell.tick(5.0)
print(shell.narrator, "companion.service.narrator" in sys.modules,
      "companion.ui.reading" in sys.modules, "companion.devices.speech" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.split() == ["None", "False", "False", "False"]


# --- Gobbit with real cards (referee mode) ------------------------------------------------


def referee_dispute(shell: Shell) -> None:
    """Hráč 2 attacks hráč 1's pile 80 ms before hráč 1 defends; ● opens the dispute and the
    questions are answered (had → chameleon, blue) until the ruling shows."""
    from companion.inputs.events import PadEvent
    from companion.inputs.pads import PadTouch

    for seat, ms in ((2, 1000.0), (1, 1080.0)):
        shell.handle(PadEvent(PadTouch(seat, 1, ms, ms)), 1.0)
    shell.handle(S, 1.1)  # the dispute over the latest moment
    for _ in range(6):  # the first answer each time: had → chameleon, then modrá
        if shell.host.cards.mode.value != "ask":
            break
        shell.handle(S, 1.2)
    assert shell.host.cards.mode.value == "dispute"


def test_gobbit_with_real_cards_says_its_ruling_outside_the_voice_mode(tmp_path):
    shell, voice = shell_for(tmp_path, "gobbit")
    start(shell)
    assert shell.host.cards is not None  # referee mode: real cards
    referee_dispute(shell)
    ruled = [x for x, k in zip(voice.spoken, voice.kinds, strict=True) if k[0] == RULING]
    assert len(ruled) == 1
    assert ruled[0].startswith("Hráč 2 byl první o 80 ms.")
    assert ruled[0].endswith("Hráč 2 bere kupičku hráče 1.")  # the verdict screen's words
    assert "Hráč dva byl první o osmdesát milisekund." in speakable(ruled[0])
    shell.handle(R, 1.3)  # the next page of the same ruling: not said again
    shell.handle(S, 1.4)  # confirmed: back to the log, and not said again either
    assert [x for x, k in zip(voice.spoken, voice.kinds, strict=True) if k[0] == RULING] == ruled
    assert shell.host.cards.confirmed  # the phone lists it


def test_a_held_left_reads_the_whole_referee_situation(tmp_path):
    from companion.games.gobbit.engine.describe import card_name

    shell, voice = shell_for(tmp_path, "gobbit", voice_mode="table")
    start(shell)
    referee_dispute(shell)
    before = len(voice.spoken)
    shell.handle(S, 1.4)  # confirmed
    shell.handle(LONG_LEFT, 1.5)
    whole = voice.spoken[-1]
    assert len(voice.spoken) > before
    assert whole.startswith("Poslední doteky: hráč 2 na kupičku hráče 1, hráč 1 na svou "
                            "kupičku o 80 ms později.")
    cards = shell.host.cards.cards.tops
    assert f"Vrchní karty: hráč 1 {card_name(cards[1])}, hráč 2 {card_name(cards[2])}, hráč 3 nezadaná" in whole
    assert "Poslední verdikt: " in whole and "hlídáte s opravdovými kartami sami" in whole
    assert raw_left(speakable(whole)) == []


def test_the_virtual_decks_situation_names_the_piles_the_turn_and_the_last_ruling(tmp_path,
                                                                                   no_fsync):
    t = VoiceTable(tmp_path, "gobbit", 2, voice_mode="table")
    t.start(virtual=True)
    for _ in range(400):
        t.gobbit_step()
        if any(k[0] == RULING for k in t.voice.kinds):
            break
    t.do(LONG_LEFT)
    whole = t.voice.spoken[-1]
    assert whole.startswith("Hráč 1: balíček ") and "; hřbitov " in whole
    assert "Poslední verdikt: " in whole
