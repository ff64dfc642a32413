"""The game hosts: one module per way of playing a game at the table.

A host turns inputs (buttons, dice, pads) into a game's actions and the game's
state into screens; the shell (:mod:`companion.service.shell`) owns everything
the games share.  :mod:`.base` defines the :class:`~.base.GameHost` protocol,
the context a host gets, and :class:`~.base.JournaledGame`, the fold of a
game's journal that every protocol game shares; :mod:`.outcome` what a host's
step gives back to the shell (:class:`~.outcome.Outcome`).
"""
