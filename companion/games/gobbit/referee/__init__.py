"""Referee mode for Gobbit: the touch log, disputes, "Gobbit!" races, the virtual deck.

The models are plain state machines fed with pad events and button presses;
they produce a :class:`~companion.games.gobbit.referee.screen.Screen` (a title and up to four
lines of 21 characters) that :func:`~companion.games.gobbit.referee.draw.draw_referee` paints
on the 128x64 OLED.  The table service hosts them:

* pads: ``SlapPads.from_pinmap(pinmap, seats, on_event, pin_factory=...)`` or the
  pad hub's ``PadHub.for_seats(seats, on_event, port)``
  (``companion.service.app.App.want_pads``; in the terminal twin the factory is
  gpiozero's ``MockFactory`` and a key from ``load_keymap(seats)`` drives the
  pad's mock pin high and low, or taps the simulated hub).  ``on_event`` runs on
  the pin factory's (the hub reader's) thread: the service queues it into its
  loop and calls ``pads.poll()`` there a few times a second (stuck detection).
* timing: both models judge with ``uncertainty_ms``, the pads' timing uncertainty
  (decision D28), set by the host from ``companion.devices.pads.timing.TimingBook``;
  ``CalibrationModel`` (:mod:`companion.games.gobbit.referee.calibration`) measures it at the table.
* real cards: ``RefereeModel(seats, rules=..., expert=...)``;
  ``on_pad_event(event)``, ``on_button("left" | "select" | "right")``,
  ``open_dispute()`` / ``open_race()`` / ``open_cards()`` for menu entries,
  ``screen()`` to draw.
* virtual deck: ``VirtualDeckModel(seats, shuffle_order(n, rng), rules=..., expert=...)``;
  ``on_pad_event(event, now)``, ``on_button(button, now)``, ``poll(now)`` (``now``:
  monotonic seconds), ``screen()``; ``start`` and ``actions`` replay the game
  (``companion.games.gobbit.engine.rules.replay``) for a journal.
* drawing: the service wraps ``model.screen()`` in ``companion.games.gobbit.screens.RefereeView``;
  ``companion.ui.screens.render`` draws it with
  :func:`~companion.games.gobbit.screens.draw_referee`.

Long-press ● stays the service's menu; the models use short presses only.
"""
