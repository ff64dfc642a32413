"""A short night of napij se through the real service (benchmarks/napij_night.py, its games
cut to two): a careful table - ● on every banner - never owes a debt it did not choose, is never
penalised, and every drink of the ledger and of "Účet" is in the journal with its reason."""

from __future__ import annotations

from pathlib import Path

from tests.script_loader import load_script

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "napij_night.py"


def test_a_careful_table_is_treated_fairly_all_night():
    night = load_script(SCRIPT, "napij_night")
    c = night.evening(seed=11, virtual=1, printed=1, players=3)
    assert c.games == 2 and c.cards_entered > 0 and c.banners_answered > 0
    assert c.asked_to_pay == 0 and c.laters == 0  # no debt from reading a banner
    assert c.void_throws == 0  # no penalty for pressing ● on every banner
    assert c.ledger_drinks == c.reasoned_drinks > 0 and c.debts_without_reason == 0
    assert c.ucet == c.journal_drunk and sum(c.ucet) > 0
