"""The dice's wire protocol: the table's shared ``tablewire`` (docs/dev/protocol.md).

The framing, the checksum and the schema of every talker live in
``firmware/lib/tablewire.py``, flashed to ``:lib/`` on every board
(the pad hub speaks the same protocol).  This module is the dice's name for it.
"""

from tablewire import *  # noqa: F403 - the dice's protocol is the shared one
from tablewire import crc32_py  # noqa: F401 - named for the tests and the simulator
