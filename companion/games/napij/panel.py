"""Člověče, napij se! at the table: the screen builder (:class:`NapijScreen`).

The 80-field board does not fit the OLED: a turn screen says each legal play in words a
player can act on at the real board (:mod:`companion.games.napij.engine.places`) with a strip
map of the fields along the way.  The builder only reads the turn (:mod:`.napij_turn`)
and draws nothing itself: it returns the views of :mod:`companion.games.napij.views`.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import replace

from companion.engines.colours import SEATS_BY_PLAYERS
from companion.engines.czech import PLAYER, PLAYER_LOWER
from companion.games.napij.engine.actions import Decline, Play, Step
from companion.games.napij.engine.deck import OFFER_EFFECTS
from companion.games.napij.engine.describe import debts_text
from companion.games.napij.engine.places import choice_row, move_lines, pieces_line, step_path
from companion.games.napij.engine.playout import occupancy
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import can_declare_bottle, needs_six
from companion.games.napij.engine.state import BOTTLE, PUB, Phase, State
from companion.games.napij.pace import prompt_of_play
from companion.games.napij.turn import DUTY_WORDS, Mode, NapijTurn
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


class NapijScreen:
    """The views of the game in play, read from the turn (see the module)."""

    def __init__(self, turn: NapijTurn) -> None:
        self.turn = turn

    def view(self) -> View:
        if self.turn.mode is Mode.ERROR:
            text = self.turn.error[1]
            if self.turn.ctx.data is not None:
                text = text.replace(f"{self.turn.ctx.data}{os.sep}", "")
            lines = textwrap.wrap(text, TEXT_WIDTH // 5, break_long_words=True)
            return NapijView(self.turn.error[0], rows=tuple(Row(line) for line in lines),
                             prompt="● zpět k nastavení")
        if not self.turn.play.started:
            return MessageView("Napij se", ("Hra ještě nezačala.",))
        view = self.play_view()
        shown = self.turn.shown
        if shown is not None and self.turn.mode in (Mode.PLAY, Mode.OVER):
            if shown.card is not None:
                title, card_lines = shown.card
                return NapijView(title, rows=tuple(Row(t) for t in card_lines),
                                 prompt=shown.prompt, event=self.turn.event_line,
                                 page=self.turn.page)
            return replace(view, banner=shown.banner, prompt=shown.prompt)
        return view

    def play_view(self) -> NapijView:
        s = self.turn.state
        if self.turn.mode is Mode.LOT:
            return self._lot_view()
        if self.turn.mode is Mode.LEDGER:
            rows = tuple(Row(f"{PLAYER[c]:<9}{s.debt(c):>4}{s.drunk[c]:>7}", c)
                         for c in s.colours) + (Row("Zpět"),)
            back = self.turn.list_index >= len(s.colours)
            return NapijView("Dluhy", note="dluží  vypil", rows=rows, selected=self.turn.list_index,
                             prompt=BACK if back else "● vypil, co dlužil",
                             event=self._ledger_line())
        if self.turn.mode is Mode.DUTY_WHO:
            rows = tuple(Row(PLAYER[c], c) for c in s.colours) + (Row("Zpět"),)
            back = self.turn.list_index >= len(s.colours)
            return NapijView("Kdo se napije?", rows=rows, selected=self.turn.list_index,
                             prompt=BACK if back else "● vybrat", event=self.turn.event_line)
        if self.turn.mode is Mode.DUTY_WHY:
            c = self.turn.duty_colour
            rows = tuple(Row(f"{PLAYER[c]} {w}") for _, w in DUTY_WORDS) + (Row("Zpět"),)
            back = self.turn.list_index >= len(DUTY_WORDS)
            return NapijView("Za co?", c, rows=rows, selected=self.turn.list_index,
                             prompt=BACK if back else "● napije se", event=self.turn.event_line)
        if self.turn.mode is Mode.TALLY:
            return self._tally_view()
        if self.turn.mode is Mode.OVER:
            w = s.winner
            assert w is not None
            return NapijView("Konec hry", rows=(Row(f"Vyhrává {PLAYER_LOWER[w]}!", w),
                                               Row("Ostatní mu připíjí"),
                                               Row("na počest vítězství.")),
                             prompt="● účet", event=self.turn.event_line)
        return self._turn_view(s)

    def _lot_view(self) -> NapijView:
        shown = self.turn.lot_shown
        values: dict[int, list[int]] = {}
        for r in self.turn.lot:
            for c, v in r:
                if shown <= 0:
                    break
                values.setdefault(c, []).append(v)
                shown -= 1
        seats = SEATS_BY_PLAYERS[self.turn.players] if not self.turn.play.started else self.turn.state.colours
        rows = tuple(Row(f"{PLAYER[c]}: {' '.join(str(v) for v in values.get(c, [])) or '…'}", c)
                     for c in seats)
        done = self.turn.lot_shown >= sum(len(r) for r in self.turn.lot)
        first = self.turn.state.turn
        prompt = f"Začíná {PLAYER_LOWER[first]}! ●" if done else "Kdo hodí nejvíc, začíná."
        return NapijView("Los: kdo začne", rows=rows, prompt=prompt, event=self.turn.event_line)

    def _tally_view(self) -> NapijView:
        s = self.turn.state
        game = self.turn.tally.game(self.turn.game_id)
        tonight = self.turn.tally.tonight()
        rows = tuple(Row(f"{PLAYER[c]:<9}{game[c]:>4}{tonight[c]:>7}", c) for c in s.colours)
        back = "● nová hra" if s.winner is not None else "● zpět do hry"
        return NapijView("Účet", note="hra  celkem", rows=rows, prompt=back,
                         event="Celkem: od zapnutí krabičky.")

    def _ledger_line(self) -> str:
        """The ledger's line for the player picked: what they owe and why."""
        colours = self.turn.state.colours
        if self.turn.list_index >= len(colours):
            return self.turn.event_line
        c = colours[self.turn.list_index]
        debts = self.turn.state.debts_of(c)
        if not debts:
            return f"{PLAYER[c]} nic nedluží."
        return f"{PLAYER[c]}: {debts_text(debts)}."

    def _turn_view(self, s: State) -> NapijView:
        who = self.turn.actor()
        computer = self.turn.is_computer(who)
        header = NapijView(PLAYER[who], who, computer, s.throws,
                           "láhev" if s.with_bottle else "", event=self.turn.event_line)
        phase = s.phase
        if phase is Phase.THROW:
            return self._throw_view(s, who, computer, header)
        if phase is Phase.PLAY:
            plays = self.turn.plays()
            sel = min(self.turn.selected, max(0, len(plays) - 1))
            moves = self.moves(s, plays[sel]) if plays else ()
            prompt = prompt_of_play(sel, len(plays), computer=computer,
                                    delay=self.turn.auto_delay())
            return replace(header, moves=moves, prompt=prompt)
        if phase is Phase.CHOOSE:
            return self._choose_view(s, who, computer, header)
        if phase is Phase.DRAW:
            return self._draw_view(s, who, header)
        return header

    def _throw_view(self, s: State, who: int, computer: bool,
                    header: NapijView) -> NapijView:
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
        dice = self.turn.ctx.dice
        if self.turn.manual_allowed():
            value = "láhev" if self.turn.manual == 7 else str(self.turn.manual)
            rows.append(Row(f"Hod: ◀ {value} ▶"))
            if bottle:
                rows.append(Row("Lahví: ◀ ▶ na „láhev“"))
            prompt = "Kostka je pryč: ● ok" if dice.configured else "Bez kostky: ● ok"
        elif computer:
            prompt = "PC hází…" if self.turn.computer_throws() else "Hoď za PC"
            if self.turn.decide(s) is not None:
                prompt = "PC hraje lahví…"
        elif self.turn.bottle_ask and bottle:
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

    def _choose_view(self, s: State, who: int, computer: bool,
                     header: NapijView) -> NapijView:
        options = self.turn.card_choices()
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
            Row(choice_row(s, o, who), None if isinstance(o, Decline) else o.colour)
            for o in options)
        sel = min(self.turn.selected, max(0, len(options) - 1)) + 1
        prompt = "Za PC: ● ok" if computer else "◀▶ vyber, ● ok"
        return replace(header, event=f"Karta {card.number}: {card.text}", rows=rows,
                       selected=sel, prompt=prompt)

    def _draw_view(self, s: State, who: int, header: NapijView) -> NapijView:
        numbers = s.rules.deck.numbers
        number = numbers[self.turn.card_index]
        out_of_turn = who != s.turn
        header = replace(header, note="mimo pořadí" if out_of_turn else "")
        if self.turn.card_confirm:
            card = s.rules.deck.card(number)
            rows = tuple(Row(t) for t in wrap(body_font(), card.text, TEXT_WIDTH))
            return NapijView(f"Karta {number}", who, note=header.note, rows=rows,
                             prompt="● platí, ◀ jiné číslo", page=self.turn.page)
        rows = (Row("Vezmi vrchní kartu"), Row("a zadej její číslo:"),
                Row(f"◀ {number} ▶"))
        return replace(header, rows=rows, prompt="◀ ▶ číslo, ● dál")

    def moves(self, s: State, play: Play) -> tuple[Move, ...]:
        texts = move_lines(s, play)
        return tuple(Move(text, self._strip(s, step)) for text, step in zip(texts, play.steps,
                                                                             strict=True))

    def _strip(self, s: State, step: Step) -> Strip | None:
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

