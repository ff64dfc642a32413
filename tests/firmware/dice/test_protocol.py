"""dice.protocol: frames, CRC, splitter, against the shared vectors."""

import random

from dice import protocol

from tests.firmware.dice.support import data_of, load_vectors, raises

VECTORS = load_vectors()


def test_crc32_is_the_standard_one():
    # The check value of CRC-32/ISO-HDLC (zlib) over "123456789".
    assert protocol.crc32_py(b"123456789") == 0xCBF43926
    assert protocol.crc32(b"123456789") & 0xFFFFFFFF == 0xCBF43926
    assert protocol.crc32_py(b"") == 0


def test_crc32_table_version_agrees_with_the_port():
    rng = random.Random(7) if hasattr(random, "Random") else None
    for size in (1, 2, 3, 17, 80):
        if rng is not None:
            data = bytes(rng.getrandbits(8) for _ in range(size))
        else:
            data = bytes(random.getrandbits(8) for _ in range(size))
        assert protocol.crc32_py(data) == protocol.crc32(data) & 0xFFFFFFFF


def test_vectors_are_version_1():
    assert VECTORS["protocol"] == protocol.PROTOCOL_VERSION
    assert VECTORS["max_line"] == protocol.MAX_LINE


def test_valid_frames_decode():
    for vector in VECTORS["frames"]:
        data = data_of(vector)
        assert data[0:1] == b"$" and data[-1:] == b"\n", vector["name"]
        talker, kind, fields = protocol.decode(data[1:-1])
        assert talker == vector["talker"], vector["name"]
        assert kind == vector["kind"], vector["name"]
        assert fields == vector["fields"], vector["name"]


def test_valid_frames_encode_to_the_same_bytes():
    for vector in VECTORS["frames"]:
        data = data_of(vector)
        frame = protocol.encode(vector["talker"], vector["kind"], vector["fields"])
        assert frame == data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), vector["name"]


def test_rejects_are_refused_for_their_reason():
    for vector in VECTORS["rejects"]:
        data = data_of(vector)
        error = raises(protocol.ProtocolError, protocol.decode, data[1:-1])
        assert error.reason == vector["reason"], (vector["name"], error.reason)


def test_streams_split_the_same_whole_and_byte_by_byte():
    for vector in VECTORS["streams"]:
        data = data_of(vector)
        expected = [line.encode() for line in vector["lines"]]
        for chunk in (len(data) or 1, 1, 3, 7):
            splitter = protocol.Splitter()
            lines = []
            for start in range(0, len(data), chunk):
                lines.extend(splitter.feed(data[start : start + chunk]))
            assert lines == expected, (vector["name"], chunk)
            assert splitter.garbage == vector["garbage"], (vector["name"], chunk)
            assert splitter.truncated == vector["truncated"], (vector["name"], chunk)
            assert splitter.too_long == vector["too_long"], (vector["name"], chunk)


def test_encode_refuses_what_it_could_not_decode():
    boot = "3F2A9C01"
    for talker, kind, fields in (
        ("D1", "ROLL", (boot, 1, 7)),
        ("D1", "ROLL", (boot, 0, 3)),
        ("D1", "ROLL", ("3f2a9c01", 1, 3)),
        ("D1", "ROLL", (boot, 1)),
        ("D1", "JUMP", ()),
        ("D2", "ROLL", (boot, 1, 3)),
        ("D1", "HELLO", ("a,b", "1.0", boot, 1)),
        ("C1", "ACK", (boot, -1)),
    ):
        raises(protocol.ProtocolError, protocol.encode, talker, kind, fields)


def test_random_frames_round_trip():
    rng = random.Random(11) if hasattr(random, "Random") else random
    for _ in range(300):
        boot = "".join("0123456789ABCDEF"[rng.getrandbits(4)] for _ in range(8))
        seq = rng.getrandbits(31) + 1
        choice = rng.getrandbits(2)
        if choice == 0:
            talker, kind, fields = "D1", "ROLL", [boot, str(seq), str(rng.getrandbits(8) % 6 + 1)]
        elif choice == 1:
            talker, kind, fields = "D1", "DROP", [boot, str(seq), str(rng.getrandbits(16))]
        elif choice == 2:
            talker, kind, fields = "C1", "ACK", [boot, str(seq)]
        else:
            talker, kind, fields = "D1", "BEAT", [boot, str(rng.getrandbits(12))]
        frame = protocol.encode(talker, kind, fields)
        splitter = protocol.Splitter()
        (line,) = splitter.feed(b"xx" + frame)
        assert protocol.decode(line) == (talker, kind, fields)
        # any single changed byte inside the frame is refused
        where = 1 + rng.getrandbits(16) % (len(frame) - 3)
        damaged = bytearray(frame)
        damaged[where] = damaged[where] ^ (1 + rng.getrandbits(7))
        lines = protocol.Splitter().feed(bytes(damaged))
        for each in lines:
            raises(protocol.ProtocolError, protocol.decode, each)
