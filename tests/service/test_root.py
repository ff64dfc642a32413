from __future__ import annotations

import random

from companion.inputs.events import ButtonPress
from companion.service.journal import Journal
from companion.service.referee_table import RefereeTable
from companion.service.root import Companion
from companion.service.table import Table

S, R, L = ButtonPress("select"), ButtonPress("right"), ButtonPress("left")


def build(tmp_path, start_with="clovece"):
    j = Journal(tmp_path / "g.journal")
    table = Table(j, players=2, rng=random.Random(1))
    ref = RefereeTable(j, rng=random.Random(1))
    return Companion(j, table, ref, start_with)


def test_the_first_set_up_item_switches_between_the_games(tmp_path):
    c = build(tmp_path)
    assert c.game == "clovece" and c.view().items[0] == "Hra: Člověče"
    c.handle(S, 0.0)
    assert c.game == "gobbit" and c.view().items[0] == "Hra: Gobbit (rozhodčí)"
    c.handle(S, 0.0)
    c.handle(S, 0.0)
    assert c.game == "clovece"


def test_the_configured_game_comes_first(tmp_path):
    assert build(tmp_path, "gobbit").game == "gobbit"


def test_after_a_restart_the_journals_game_resumes(tmp_path):
    c = build(tmp_path)
    c.handle(S, 0.0)  # to Gobbit
    c.handle(L, 0.0)  # to ▶ Začít
    c.handle(S, 0.0)
    assert c.gobbit.mode == "play"
    again = build(tmp_path, "clovece")
    assert again.game == "gobbit" and again.gobbit.mode == "play"
    # and a Člověče journal brings Člověče back even if the config says Gobbit
    c2 = build(tmp_path / "x", "clovece")
    c2.handle(L, 0.0)
    c2.handle(S, 0.0)
    assert c2.clovece.mode == "play"
    assert build(tmp_path / "x", "gobbit").game == "clovece"
