"""Člověče, napij se! at the table: the screens of the game in play (pure functions).

The 80-field board does not fit the OLED: a turn screen says each legal play in words a
player can act on at the real board (:mod:`companion.games.napij.engine.places`) with a strip
map of the fields along the way.  Every screen is a function of :class:`Panel`, the values
of the turn it shows (the turn, :mod:`.turn`, gathers them); nothing here changes the game
or draws: it returns the views of :mod:`companion.games.napij.views`.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path

from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.games.napij.engine.actions import Decline, Play, Step
from companion.games.napij.engine.deck import OFFER_EFFECTS
from companion.games.napij.engine.describe import debts_text
from companion.games.napij.engine.places import choice_row, move_lines, pieces_line, step_path
from companion.games.napij.engine.playout import occupancy
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import Choice, can_declare_bottle, needs_six
from companion.games.napij.engine.state import BOTTLE, PUB, Phase, State
from companion.games.napij.mode import DUTY_WORDS, Mode
from companion.games.napij.pace import prompt_of_play
from companion.games.napij.shown import Shown
from companion.games.napij.views import BOTTLE as BOTTLE_CELL
from companion.games.napij.views import Cell, Move, NapijView, Row, Strip
from companion.ui.fonts import body_font
from companion.ui.screens import wrap
from companion.ui.views import MessageView, View

TEXT_WIDTH = 120
"""Pixels a wrapped text may take on a napij screen (room for the page marks ▲ ▼)."""
BACK = "● zpět"
"""The prompt of a list while its last row, "Zpět", is selected."""
STRIP_MAX = 16
"""Cells of a strip map (128 pixels)."""

Lot = tuple[tuple[tuple[int, int], ...], ...]
"""The lot for who starts: its rounds of (colour, value)."""


@dataclass(frozen=True)
class Panel:
    """What a screen of the game in play shows: the turn's values, read once per frame."""

    mode: Mode
    state: State | None
    """The game in play (``None``: none started)."""
    event_line: str = ""
    error: tuple[str, str] = ("", "")
    """Why the game could not start: a title and a sentence (:attr:`Mode.ERROR`)."""
    data: Path | None = None
    """The data folder (left out of a file's name in an error)."""
    shown: Shown | None = None
    """The card or drink on show until it is answered."""
    page: int = 0
    """The page of a card's text on show."""
    list_index: int = 0
    """The row selected on a list (the ledger, a duty's whom and what for)."""
    duty_colour: int = 0
    """The colour a table duty is called for."""
    lot: Lot = ()
    lot_shown: int = 0
    """The lot's throws on show so far."""
    drunk_game: tuple[int, ...] = ()
    """"Účet": this game's drinks per colour (only on :attr:`Mode.TALLY`)."""
    drunk_tonight: tuple[int, ...] = ()
    """"Účet": every game's since the box was switched on (only on :attr:`Mode.TALLY`)."""
    actor: int = 0
    """The colour the table waits for."""
    computer: bool = False
    """The computer plays :attr:`actor`."""
    plays: tuple[Play, ...] = ()
    """The legal plays in the order shown (a computer seat's choice first)."""
    choices: tuple[Choice, ...] = ()
    """The answers to the card in play."""
    selected: int = 0
    auto_delay: float = 0.0
    """Seconds after which the play on show is taken by itself (0: it waits for ●)."""
    manual: int | None = None
    """The throw entered with ◀ ▶ while the dice is missing (7: the bottle); ``None``: the
    dice throws."""
    dice_configured: bool = False
    computer_throws: bool = True
    """The companion throws for a computer seat itself."""
    computer_bottle: bool = False
    """The computer seat on turn plays this turn with the bottle."""
    bottle_ask: bool = False
    """"Hrát tento tah lahví?" is asked."""
    card_index: int = 0
    """The printed card's number being entered (its index in the deck)."""
    card_confirm: bool = False
    """The printed card's text is shown for ●."""


def view(p: Panel) -> View:
    """The whole screen: the game's, with a card or a drink on show over it."""
    if p.mode is Mode.ERROR:
        text = p.error[1]
        if p.data is not None:
            text = text.replace(f"{p.data}{os.sep}", "")
        lines = textwrap.wrap(text, TEXT_WIDTH // 5, break_long_words=True)
        return NapijView(p.error[0], rows=tuple(Row(line) for line in lines),
                         prompt="● zpět k nastavení")
    if p.state is None:
        return MessageView("Napij se", ("Hra ještě nezačala.",))
    shown = p.shown
    played = play_view(p)
    if shown is not None and p.mode in (Mode.PLAY, Mode.OVER):
        if shown.card is not None:
            title, card_lines = shown.card
            return NapijView(title, rows=tuple(Row(t) for t in card_lines),
                             prompt=shown.prompt, event=p.event_line, page=p.page)
        return replace(played, banner=shown.banner, prompt=shown.prompt)
    return played


def play_view(p: Panel) -> NapijView:
    """The game's own screen (no card or drink over it) of a game started."""
    s = p.state
    assert s is not None
    if p.mode is Mode.LOT:
        return _lot_view(p, s)
    if p.mode is Mode.LEDGER:
        rows = tuple(Row(f"{PLAYER[c]:<9}{s.debt(c):>4}{s.drunk[c]:>7}", c)
                     for c in s.colours) + (Row("Zpět"),)
        back = p.list_index >= len(s.colours)
        return NapijView("Dluhy", note="dluží  vypil", rows=rows, selected=p.list_index,
                         prompt=BACK if back else "● vypil, co dlužil",
                         event=_ledger_line(p, s))
    if p.mode is Mode.DUTY_WHO:
        rows = tuple(Row(PLAYER[c], c) for c in s.colours) + (Row("Zpět"),)
        back = p.list_index >= len(s.colours)
        return NapijView("Kdo se napije?", rows=rows, selected=p.list_index,
                         prompt=BACK if back else "● vybrat", event=p.event_line)
    if p.mode is Mode.DUTY_WHY:
        c = p.duty_colour
        rows = tuple(Row(f"{PLAYER[c]} {w}") for _, w in DUTY_WORDS) + (Row("Zpět"),)
        back = p.list_index >= len(DUTY_WORDS)
        return NapijView("Za co?", c, rows=rows, selected=p.list_index,
                         prompt=BACK if back else "● napije se", event=p.event_line)
    if p.mode is Mode.TALLY:
        return _tally_view(p, s)
    if p.mode is Mode.OVER:
        w = s.winner
        assert w is not None
        return NapijView("Konec hry", rows=(Row(f"Vyhrává {PLAYER_LOWER[w]}!", w),
                                           Row("Ostatní mu připíjí"),
                                           Row("na počest vítězství.")),
                         prompt="● účet", event=p.event_line)
    return _turn_view(p, s)


def _lot_view(p: Panel, s: State) -> NapijView:
    shown = p.lot_shown
    values: dict[int, list[int]] = {}
    for r in p.lot:
        for c, v in r:
            if shown <= 0:
                break
            values.setdefault(c, []).append(v)
            shown -= 1
    rows = tuple(Row(f"{PLAYER[c]}: {' '.join(str(v) for v in values.get(c, [])) or '…'}", c)
                 for c in s.colours)
    done = p.lot_shown >= sum(len(r) for r in p.lot)
    prompt = f"Začíná {PLAYER_LOWER[s.turn]}! ●" if done else "Kdo hodí nejvíc, začíná."
    return NapijView("Los: kdo začne", rows=rows, prompt=prompt, event=p.event_line)


def _tally_view(p: Panel, s: State) -> NapijView:
    rows = tuple(Row(f"{PLAYER[c]:<9}{p.drunk_game[c]:>4}{p.drunk_tonight[c]:>7}", c)
                 for c in s.colours)
    back = "● nová hra" if s.winner is not None else "● zpět do hry"
    return NapijView("Účet", note="hra  celkem", rows=rows, prompt=back,
                     event="Celkem: od zapnutí krabičky.")


def _ledger_line(p: Panel, s: State) -> str:
    """The ledger's line for the player picked: what they owe and why."""
    if p.list_index >= len(s.colours):
        return p.event_line
    c = s.colours[p.list_index]
    debts = s.debts_of(c)
    if not debts:
        return f"{PLAYER[c]} nic nedluží."
    return f"{PLAYER[c]}: {debts_text(debts)}."


def _turn_view(p: Panel, s: State) -> NapijView:
    who, computer = p.actor, p.computer
    header = NapijView(PLAYER[who], who, computer, s.throws,
                       "láhev" if s.with_bottle else "", event=p.event_line)
    phase = s.phase
    if phase is Phase.THROW:
        return _throw_view(p, s, header)
    if phase is Phase.PLAY:
        plays = p.plays
        sel = min(p.selected, max(0, len(plays) - 1))
        shown = moves(s, plays[sel]) if plays else ()
        prompt = prompt_of_play(sel, len(plays), computer=computer, delay=p.auto_delay)
        return replace(header, moves=shown, prompt=prompt)
    if phase is Phase.CHOOSE:
        return _choose_view(p, s, header)
    if phase is Phase.DRAW:
        return _draw_view(p, s, header)
    return header


def _throw_view(p: Panel, s: State, header: NapijView) -> NapijView:
    who, computer = p.actor, p.computer
    debt = s.due(who)
    if debt:
        why = [Row(line) for line in wrap(body_font(), debts_text(s.debts_of(who)) + ".",
                                          TEXT_WIDTH)]
        if computer:
            return replace(header, rows=(Row(f"Počítač dluží {debt}:"), *why,
                                         Row("Dluh mu odepíšu.")), prompt="Chvilku…")
        do = "Nejdřív pít, pak házet!" if s.glasses[who] == 0 else "Nejdřív dopít, pak hod!"
        asked = (Row(f"{PLAYER[who]} dluží {debt}:", who), *why, Row(do))
        return replace(header, rows=asked, prompt="● vypito")
    rows: list[Row] = []
    if s.tries or (not s.throws and needs_six(s, who) and not s.with_bottle):
        rows.append(Row(f"Pokus {s.tries + 1} ze 3: šestka"))
    if s.throws:
        rows.append(Row("Padla šestka: hoď znovu."))
    bottle = can_declare_bottle(s) is Why.LEGAL and not computer
    if p.manual is not None:
        value = "láhev" if p.manual == 7 else str(p.manual)
        rows.append(Row(f"Hod: ◀ {value} ▶"))
        if bottle:
            rows.append(Row("Lahví: ◀ ▶ na „láhev“"))
        prompt = "Kostka je pryč: ● ok" if p.dice_configured else "Bez kostky: ● ok"
    elif computer:
        prompt = "PC hází…" if p.computer_throws else "Hoď za PC"
        if p.computer_bottle:
            prompt = "PC hraje lahví…"
    elif p.bottle_ask and bottle:
        rows.insert(0, Row("Hrát tento tah lahví?"))
        prompt = "● ano, lahví  ◀ ne"
    else:
        prompt = "Hoď kostkou"
        if bottle:
            rows.append(Row("▶ = hrát tento tah lahví"))
    if s.with_bottle:
        rows.append(Row("Tento tah hraje láhev."))
    rows += [Row(line) for line in wrap(body_font(), pieces_line(s, who), TEXT_WIDTH)]
    return replace(header, rows=tuple(rows), prompt=prompt)


def _choose_view(p: Panel, s: State, header: NapijView) -> NapijView:
    options = p.choices
    pending = s.pending
    assert pending is not None
    card = s.rules.deck.card(pending.card)
    if card.effect in OFFER_EFFECTS and pending.offered is None:
        ask = "Komu nabídneš kartu?"
    elif card.effect in OFFER_EFFECTS:
        ask = "Vezmeš nabídku? Kterou?"
    else:
        ask = "Koho karta zasáhne?"
    rows = (Row(ask),) + tuple(
        Row(choice_row(s, o, p.actor), None if isinstance(o, Decline) else o.colour)
        for o in options)
    sel = min(p.selected, max(0, len(options) - 1)) + 1
    prompt = "Za PC: ● ok" if p.computer else "◀▶ vyber, ● ok"
    return replace(header, event=f"Karta {card.number}: {card.text}", rows=rows,
                   selected=sel, prompt=prompt)


def _draw_view(p: Panel, s: State, header: NapijView) -> NapijView:
    numbers = s.rules.deck.numbers
    number = numbers[p.card_index]
    who = p.actor
    out_of_turn = who != s.turn
    header = replace(header, note="mimo pořadí" if out_of_turn else "")
    if p.card_confirm:
        card = s.rules.deck.card(number)
        rows = tuple(Row(t) for t in wrap(body_font(), card.text, TEXT_WIDTH))
        return NapijView(f"Karta {number}", who, note=header.note, rows=rows,
                         prompt="● platí, ◀ jiné číslo", page=p.page)
    rows = (Row("Vezmi vrchní kartu"), Row("a zadej její číslo:"),
            Row(f"◀ {number} ▶"))
    return replace(header, rows=rows, prompt="◀ ▶ číslo, ● dál")


def moves(s: State, play: Play) -> tuple[Move, ...]:
    """A play's moves in words, each with its strip map."""
    texts = move_lines(s, play)
    return tuple(Move(text, _strip(s, step))
                 for text, step in zip(texts, play.steps, strict=True))


def _strip(s: State, step: Step) -> Strip | None:
    """The fields along one move: where the piece stands, its way, one field beyond."""
    g = s.rules.graph
    board = s.rules.board
    c = s.turn
    path = step_path(s, step)
    if not path:
        return None
    if step.piece == BOTTLE:
        start = s.bottle
    else:
        own = s.pieces[c]
        assert own is not None
        start = own[step.piece]
    occ = occupancy(s)

    def cell(node: int, *, moving: bool = False) -> Cell:
        if node == PUB:
            return Cell("pub", c, c if moving else None)
        f = board.fields[g.field[node]]
        o = occ[g.field[node]]
        piece = o >> 2 if o >= 0 else None
        if piece is None and s.bottle >= 0 and g.field[node] == g.field[s.bottle]:
            piece = BOTTLE_CELL
        if moving:
            piece = BOTTLE_CELL if step.piece == BOTTLE else c
        return Cell(f.kind, f.colour, piece, f.kind == "junction")

    cells = [cell(start, moving=True)] + [cell(n) for n in path]
    after = g.through[c][path[-1]] if step.piece != BOTTLE else g.main_next[path[-1]]
    if after >= 0 and g.home_rank[path[-1]] < 0:
        cells.append(cell(after))
    target = len(path)
    if len(cells) > STRIP_MAX:  # keep the start and the end, leave out the middle
        head, tail = 4, STRIP_MAX - 5
        gone = len(cells) - head - tail
        cells = cells[:head] + [Cell("gap")] + cells[-tail:]
        target = target - gone + 1
    return Strip(tuple(cells), 0, target)

