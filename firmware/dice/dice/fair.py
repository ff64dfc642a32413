"""A fair face from raw entropy bytes: rejection sampling, no modulo bias.

256 is not a multiple of 6, so ``byte % 6`` would favour faces 1-4 (43 of 256
byte values each against 42 for faces 5 and 6).  We accept only bytes below
252 = 6 * 42, where every face owns exactly 42 values, and draw again
otherwise (probability 4/256 per draw).
"""

from .shims import const

FACES = const(6)
ACCEPT_BELOW = const(252)  # the largest multiple of FACES that fits in a byte


def face_of(byte):
    """The face a byte value gives, or None when the byte must be rejected."""
    if byte >= ACCEPT_BELOW:
        return None
    return byte % FACES + 1


def roll_die(entropy, batch=4):
    """A fair face 1..6; ``entropy(n)`` returns ``n`` random bytes (``os.urandom``)."""
    while True:
        for byte in entropy(batch):
            face = face_of(byte)
            if face is not None:
                return face
