"""napij se's screen builder (companion.games.napij.panel): it only reads the turn."""

from __future__ import annotations

import random

from companion.games.napij.host import NapijHost
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
    while host.state.winner is None and now < 20000:
        turn = (host.state, host.mode, dict(host.timers), host.selected, host.shown,
                len(host.queue), host.event_line, host.lines.lines())
        first = host.screen.view()
        assert host.screen.view() == first and host.view() == first
        assert isinstance(host.screen.play_view(), NapijView)
        assert turn == (host.state, host.mode, dict(host.timers), host.selected, host.shown,
                        len(host.queue), host.event_line, host.lines.lines())
        seen.add(repr(first))
        if host.expects() in (Expect.CONFIRM, Expect.CHOOSE):  # a drink drunk, a card read
            host.handle(ButtonPress("select"), now)
        now += 1.0
        host.tick(now)
    assert host.state.winner is not None and len(seen) > 50  # many screens were drawn
