"""Referee mode for Gobbit: the touch log, disputes, "Gobbit!" races, the virtual deck.

The models are plain state machines fed with pad events and button presses;
they produce a :class:`~companion.referee.screen.Screen` (a title and up to four
lines of 21 characters) that :func:`~companion.referee.draw.draw_referee` paints
on the 128x64 OLED.  The table service hosts them:

* pads: ``SlapPads.from_pinmap(pinmap, seats, on_event)`` (or
  ``SimulatedSlapPads`` with ``load_keymap(seats)`` in the terminal twin; a key
  press calls ``sim.tap(pad)``).  ``on_event`` runs on the pin factory's thread:
  queue the event into the service loop, and call ``pads.poll()`` a few times a
  second there (stuck detection).
* real cards: ``RefereeModel(seats, rules=..., expert=...)``;
  ``on_pad_event(event)``, ``on_button("left" | "select" | "right")``,
  ``open_dispute()`` / ``open_race()`` / ``open_cards()`` for menu entries,
  ``screen()`` to draw.
* virtual deck: ``VirtualDeckModel(seats, shuffle_order(n, rng), rules=..., expert=...)``;
  ``on_pad_event(event, now)``, ``on_button(button, now)``, ``poll(now)`` (``now``:
  monotonic seconds), ``screen()``; ``start`` and ``actions`` replay the game
  (``companion.engines.gobbit.rules.replay``) for a journal.
* drawing: ``with canvas(device) as draw: draw_referee(draw, model.screen(), load_font())``.

Long-press ● stays the service's menu; the models use short presses only.
"""
