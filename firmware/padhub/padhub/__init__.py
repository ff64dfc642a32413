"""The pad hub's firmware logic (MicroPython, also runs under CPython).

An RP2040 senses every slap pad of a Gobbit table itself, by charge timing on
its GPIO: seven 8-channel analog multiplexers (one under each pile and one under
the graveyard) bring the pads to seven sense lines, PIO state machines time the
charge of every pad once per scan (993 us, one clock for all pads), and the hub
sends each touch and release with
its microsecond time stamp over the table's wire protocol (``tablewire``,
``tablelink`` in ``:lib/``).

Every module here is plain Python: pins, state machines, streams and clocks are
passed in, MicroPython specifics sit in :mod:`padhub.shims`; only the board entry
point (``main.py`` beside this package) imports ``machine`` and only
:mod:`padhub.pio` imports ``rp2`` (both are loaded on the board alone).
"""

VERSION = "1.0.0"
