"""dice.fair: the faces are fair (rejection sampling; chi-square over 60,000 rolls)."""

import random

from dice import fair, shims

from tests.firmware.dice.support import ScriptedEntropy, chi2_sf_5, chi_square

ROLLS = 60000
P_FAIL = 1e-6


def _entropy():
    """os.urandom where the port has it (CPython, the RP2040); else the port's PRNG."""
    if shims.urandom is not None:
        return shims.urandom

    def prng(count):
        return bytes(random.getrandbits(8) for _ in range(count))

    return prng


def test_every_face_owns_exactly_42_byte_values():
    # The deterministic proof: enumerate every byte value once.
    owners = {face: 0 for face in range(1, 7)}
    rejected = 0
    for byte in range(256):
        face = fair.face_of(byte)
        if face is None:
            rejected += 1
        else:
            owners[face] += 1
    assert owners == {1: 42, 2: 42, 3: 42, 4: 42, 5: 42, 6: 42}
    assert rejected == 4
    assert [fair.face_of(b) for b in (252, 253, 254, 255)] == [None] * 4


def test_plain_modulo_would_be_biased():
    # The same enumeration catches the bias that rejection sampling removes.
    owners = {face: 0 for face in range(1, 7)}
    for byte in range(256):
        owners[byte % 6 + 1] += 1
    assert owners == {1: 43, 2: 43, 3: 43, 4: 43, 5: 42, 6: 42}


def test_roll_die_skips_rejected_bytes():
    entropy = ScriptedEntropy([255, 254, 253, 252, 11, 0, 0, 0])
    assert fair.roll_die(entropy, batch=4) == 11 % 6 + 1
    assert entropy.taken == 8


def test_roll_die_maps_each_accepted_byte():
    for byte in range(252):
        assert fair.roll_die(ScriptedEntropy([byte]), batch=1) == byte % 6 + 1


def test_chi2_tail_matches_known_critical_values():
    # chi-square, 5 degrees of freedom: table values for p = 0.05, 0.001 and 1e-6
    assert abs(chi2_sf_5(11.0705) - 0.05) < 1e-4
    assert abs(chi2_sf_5(20.5150) - 0.001) < 1e-5
    assert abs(chi2_sf_5(35.8882) - 1e-6) < 1e-8
    assert chi2_sf_5(0) == 1.0


def test_chi_square_over_60000_rolls():
    entropy = _entropy()
    counts = [0] * 6
    for _ in range(ROLLS):
        counts[fair.roll_die(entropy) - 1] += 1
    statistic = chi_square(counts, ROLLS / 6)
    p_value = chi2_sf_5(statistic)
    assert p_value >= P_FAIL, (counts, statistic, p_value)


def test_chi_square_catches_a_loaded_die():
    # The same test fails a die that shows a six 20 % of the time (instead of 16.7 %).
    counts = [9600, 9600, 9600, 9600, 9600, 12000]
    assert sum(counts) == ROLLS
    assert chi2_sf_5(chi_square(counts, ROLLS / 6)) < P_FAIL
