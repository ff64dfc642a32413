"""tablewire: every talker's frames against the shared vectors, and the pad hub's fields."""

import json

import tablewire

from tests.firmware.lib import TOOLS


def _vectors():
    with open(TOOLS + "/protocol_vectors.json") as handle:
        return json.load(handle)


def _data(vector):
    if "hex" in vector:
        return bytes.fromhex(vector["hex"])
    return vector["text"].encode()


def test_every_talker_is_known():
    assert set(tablewire.SCHEMA) == {"D1", "P1", "C1"}
    assert tablewire.TALKER_LETTERS == "DPC"


def test_the_vectors_of_every_talker_decode_and_encode():
    talkers = set()
    for vector in _vectors()["frames"]:
        data = _data(vector)
        talker, kind, fields = tablewire.decode(data[1:-1])
        assert (talker, kind, fields) == (vector["talker"], vector["kind"], vector["fields"])
        frame = tablewire.encode(talker, kind, fields)
        assert frame == data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), vector["name"]
        talkers.add(talker)
    assert talkers == {"D1", "P1", "C1"}


def test_the_rejects_are_refused_for_their_reason():
    for vector in _vectors()["rejects"]:
        data = _data(vector)
        try:
            tablewire.decode(data[1:-1])
        except tablewire.ProtocolError as exc:
            assert exc.reason == vector["reason"], (vector["name"], exc.reason)
        else:
            raise AssertionError(vector["name"] + " was accepted")


def test_the_pad_hubs_fields():
    ok = tablewire.field_ok
    assert ok(tablewire.CHANNEL, "0") and ok(tablewire.CHANNEL, "63")
    assert not ok(tablewire.CHANNEL, "64") and not ok(tablewire.CHANNEL, "00")
    assert ok(tablewire.US, "0") and ok(tablewire.US, "9" * 13) and not ok(tablewire.US, "1" + "0" * 13)
    assert ok(tablewire.STATE, "1") and ok(tablewire.STATE, "0") and not ok(tablewire.STATE, "2")
    assert ok(tablewire.SCAN, "993") and not ok(tablewire.SCAN, "0") and not ok(tablewire.SCAN, "100000")
    assert ok(tablewire.CHANNELS, "48") and not ok(tablewire.CHANNELS, "65")
    assert ok(tablewire.COUNT, "4294967295") and not ok(tablewire.COUNT, "4294967296")


def test_the_longest_pad_hub_hello_fits_a_line():
    frame = tablewire.encode("P1", "HELLO", ("a" * 16, "1.2.3+rc.1_beta", "3F2A9C01",
                                             4294967295, 64, 99999))
    assert len(frame) - 3 <= tablewire.MAX_LINE
