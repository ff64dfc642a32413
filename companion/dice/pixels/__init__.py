"""Pixels smart dice (Systemic Games) over Bluetooth LE as the table's dice.

* :mod:`.messages` - the die's messages and advertisement, parsed from bytes and built to
  bytes (pure, no I/O), from the MIT-licensed GameWithPixels protocol;
* :mod:`.tracker` - the die's roll states turned into rolls, each exactly once (pure);
* :mod:`.port` - the GATT port the adapter talks through, with two implementations:
  :mod:`.bleak_port` (BlueZ over D-Bus, the Pi) and :mod:`.bumble_port` (Google's bumble on an
  in-process link, tests and the simulator), where :mod:`.virtual` is a virtual Pixels die;
* :mod:`.adapter` - finds, connects, reconnects, and delivers the dice events the service
  already knows (:mod:`companion.dice.reader`'s), plus a crooked landing and the battery.

Bluetooth libraries are imported only by the modules that need them, so a table whose dice is
the serial one never imports them (docs/players/pixels.md).
"""
