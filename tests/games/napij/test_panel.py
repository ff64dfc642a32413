"""napij se's screens (companion.games.napij.panel): pure functions of the turn's values."""

from __future__ import annotations

import random

from companion.games.napij.host import NapijHost
from companion.games.napij.panel import play_view, view
from companion.games.napij.views import NapijView
from companion.inputs.events import ButtonPress
from companion.service.hosts.base import Expect, HostContext
from companion.storage.journal import Journal
from companion.storage.prefs import Prefs


def test_drawing_a_screen_changes_nothing_of_the_game(tmp_path):
    """A whole game of two computer seats: at every moment the views come out the same twice
    and the turn (state, mode, timers, selection, what is on show) is as before."""
    host = NapijHost(HostContext(Journal(tmp_path / "g.journal"), Prefs(),
                                 rng=random.Random(5), defaults={"players": 2}))
    for o in host.options():
        if o.key.startswith("seat:"):
            host.set_option(o.key, True)
    host.start(0.0)
    now, seen = 0.0, set()
    t = host.turn
    while t.state.winner is None and now < 20000:
        before = (t.state, t.mode, dict(t.timers), t.selected, t.shown, len(t.queue),
                  host.event_line, host.lines.lines())
        values = t.shows()
        first = view(values)
        assert view(values) == first and view(t.shows()) == first and host.view() == first
        assert isinstance(play_view(values), NapijView)
        assert before == (t.state, t.mode, dict(t.timers), t.selected, t.shown, len(t.queue),
                          host.event_line, host.lines.lines())
        seen.add(repr(first))
        if host.expects() in (Expect.CONFIRM, Expect.CHOOSE):  # a drink drunk, a card read
            host.handle(ButtonPress("select"), now)
        now += 1.0
        host.tick(now)
    assert t.state.winner is not None and len(seen) > 50  # many screens were drawn
