"""The slap pads, one module a part (nothing is imported here, so a module loads alone).

* ``gpio``: the pads on GPIO (``SlapPads``), one gpiozero pin per pad, timed by edge ticks;
* ``hub``: the pad hub on a serial line (``PadHub``), the same events as the GPIO pads;
* ``state``: the touch, chatter, offset and stuck rules both front ends share;
* ``raw``: what a hub channel's raw counts say about its wiring;
* ``calibration``: each pad's offset from slaps at the table;
* ``timing``: a table's timing budget; ``frontends``: the pad front ends and their declared figures;
* ``sim``, ``hub_sim``: the simulated twins (clocked mock pins, the hub's firmware on a pty).
"""
