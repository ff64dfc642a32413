"""companion.dice.protocol: the shared vectors, and agreement with the firmware's implementation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import protocol
from companion.dice.protocol import (
    Ack,
    Beat,
    Drop,
    Hello,
    HubBeat,
    HubHello,
    HubRaw,
    PadEdge,
    ProtocolError,
    Reason,
    Roll,
    Sync,
)
from companion.dice.sim import load_firmware
from tests.dice.support import data_of, load_vectors

VECTORS = load_vectors()
FW = load_firmware().protocol

boots = st.text("0123456789ABCDEF", min_size=8, max_size=8)
seqs = st.integers(1, protocol.MAX_SEQ)
names = st.text("abcXYZ019_-", min_size=1, max_size=16)
versions = st.text("019.+_-abZ", min_size=1, max_size=16)
messages = st.one_of(
    st.builds(Hello, names, versions, boots, seqs),
    st.builds(Roll, boots, seqs, st.integers(1, 6)),
    st.builds(Drop, boots, seqs, st.integers(0, 999_999)),
    st.builds(Beat, boots, st.none() | st.integers(0, 99_999)),
    st.just(Sync()),
    st.builds(Ack, boots, st.integers(0, protocol.MAX_SEQ)),
    st.builds(HubHello, names, versions, boots, seqs, st.integers(1, 64), st.integers(1, 99_999)),
    st.builds(PadEdge, boots, seqs, st.integers(0, 63), st.integers(0, protocol.MAX_US),
              st.booleans()),
    st.builds(HubBeat, boots, st.integers(0, protocol.MAX_US), st.integers(0, protocol.MAX_SEQ)),
    st.builds(HubRaw, boots, st.integers(0, 63), st.integers(0, protocol.MAX_SEQ),
              st.integers(0, protocol.MAX_SEQ), st.integers(0, protocol.MAX_SEQ)),
)


def fields_of(message: protocol.Message | protocol.HubMessage) -> tuple[str, str, list[str]]:
    """The firmware's (talker, kind, fields) for a companion message."""
    match message:
        case Hello(d, f, b, first):
            return "D1", "HELLO", [d, f, b, str(first)]
        case Roll(b, s, v):
            return "D1", "ROLL", [b, str(s), str(v)]
        case Drop(b, s, ms):
            return "D1", "DROP", [b, str(s), str(ms)]
        case Beat(b, mv):
            return "D1", "BEAT", [b, "-" if mv is None else str(mv)]
        case Sync():
            return "C1", "SYNC", []
        case Ack(b, s):
            return "C1", "ACK", [b, str(s)]
        case HubHello(d, f, b, first, channels, scan):
            return "P1", "HELLO", [d, f, b, str(first), str(channels), str(scan)]
        case PadEdge(b, s, channel, us, touched):
            return "P1", "PAD", [b, str(s), str(channel), str(us), "1" if touched else "0"]
        case HubBeat(b, us, missed):
            return "P1", "BEAT", [b, str(us), str(missed)]
        case HubRaw(b, channel, baseline, count, limit):
            return "P1", "RAW", [b, str(channel), str(baseline), str(count), str(limit)]
    raise AssertionError(message)


@pytest.mark.parametrize("vector", VECTORS["frames"], ids=lambda v: v["name"])
def test_valid_vectors_decode_and_encode(vector: dict[str, Any]) -> None:
    data = data_of(vector)
    message = protocol.decode_any(data[1:-1])
    assert fields_of(message) == (vector["talker"], vector["kind"], vector["fields"])
    assert protocol.encode(message) == data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


@pytest.mark.parametrize("vector", VECTORS["rejects"], ids=lambda v: v["name"])
def test_reject_vectors_are_refused_for_their_reason(vector: dict[str, Any]) -> None:
    data = data_of(vector)
    for decode in (protocol.decode, protocol.decode_any):
        with pytest.raises(ProtocolError) as info:
            decode(data[1:-1])
        assert info.value.reason == Reason(vector["reason"])


@pytest.mark.parametrize("vector", VECTORS["streams"], ids=lambda v: v["name"])
@pytest.mark.parametrize("chunk", [0, 1, 2, 5, 13])
def test_stream_vectors_split_alike_in_any_chunks(vector: dict[str, Any], chunk: int) -> None:
    data = data_of(vector)
    splitter = protocol.Splitter()
    size = chunk or len(data) or 1
    lines = [line for start in range(0, len(data), size) for line in splitter.feed(data[start : start + size])]
    assert lines == [line.encode() for line in vector["lines"]]
    assert (splitter.garbage, splitter.truncated, splitter.too_long) == (
        vector["garbage"], vector["truncated"], vector["too_long"])


def test_the_checksum_is_zlib_crc32() -> None:
    assert protocol.crc32(b"123456789") == 0xCBF43926
    frame = protocol.encode(Roll("3F2A9C01", 7, 5))
    assert frame == b"$D1,ROLL,3F2A9C01,7,5*0FDFE855\r\n"


def test_encode_refuses_out_of_range_messages() -> None:
    for bad in (Roll("3F2A9C01", 1, 7), Roll("3f2a9c01", 1, 1), Roll("3F2A9C01", 0, 1),
                Hello("two words", "1", "3F2A9C01", 1), Beat("3F2A9C01", 100_000), Ack("X", 1)):
        with pytest.raises(ProtocolError):
            protocol.encode(bad)


def test_the_dice_line_refuses_a_pad_hubs_frames() -> None:
    for message in (PadEdge("3F2A9C01", 1, 3, 5, True), HubBeat("3F2A9C01", 5, 0),
                    HubHello("hub", "1", "3F2A9C01", 1, 56, 993),
                    HubRaw("3F2A9C01", 55, 1211, 6001, 6000)):
        line = protocol.encode(message)[1:-2]
        assert protocol.decode_any(line) == message
        with pytest.raises(ProtocolError) as info:
            protocol.decode(line)
        assert info.value.reason is Reason.KIND


@settings(max_examples=300, derandomize=True, database=None)
@given(messages)
def test_both_implementations_encode_the_same_bytes(message: protocol.Message) -> None:
    frame = protocol.encode(message)
    assert frame == FW.encode(*fields_of(message))
    assert protocol.decode_any(frame[1:-1]) == message
    assert FW.decode(frame[1:-2]) == fields_of(message)


def _outcome_companion(line: bytes) -> object:
    try:
        return fields_of(protocol.decode_any(line))
    except ProtocolError as exc:
        return exc.reason.value


def _outcome_firmware(line: bytes) -> object:
    try:
        return FW.decode(line)
    except FW.ProtocolError as exc:
        return exc.reason


@st.composite
def mutated_lines(draw: st.DrawFn) -> bytes:
    line = bytearray(protocol.encode(draw(messages))[1:-2])
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "replace"]))
        pos = draw(st.integers(0, max(0, len(line) - 1)))
        if op == "flip" and line:
            line[pos] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            line[pos:pos] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del line[pos : pos + draw(st.integers(1, 4))]
        else:
            line[pos : pos + 1] = draw(st.sampled_from([b",", b"*", b"0", b"D2", b"C1", b"P1", b"-",
                                                        b"\r", b" "]))
    return bytes(line)


@settings(max_examples=600, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mutated_lines(), st.binary(max_size=90)))
def test_both_decoders_agree_on_damaged_lines(line: bytes) -> None:
    assert _outcome_companion(line) == _outcome_firmware(line)


@settings(max_examples=200, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(st.binary(max_size=40), messages.map(protocol.encode),
                       st.sampled_from([b"$", b"\n", b"\r\n", b"$" + b"A" * 85])), max_size=12),
    st.lists(st.integers(1, 50), min_size=1, max_size=8),
)
def test_both_splitters_agree(parts: list[bytes], chunks: list[int]) -> None:
    data = b"".join(parts)
    ours, theirs = protocol.Splitter(), FW.Splitter()
    lines_ours: list[bytes] = []
    lines_theirs: list[bytes] = []
    pos = index = 0
    while pos < len(data):
        size = chunks[index % len(chunks)]
        lines_ours += ours.feed(data[pos : pos + size])
        lines_theirs += theirs.feed(data[pos : pos + size])
        pos += size
        index += 1
    assert lines_ours == lines_theirs
    assert (ours.garbage, ours.truncated, ours.too_long) == (theirs.garbage, theirs.truncated, theirs.too_long)


def test_every_frame_in_the_protocol_doc_is_a_valid_frame() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "dev" / "protocol.md").read_text()
    frames = [word for line in doc.splitlines() for word in line.split()
              if word.startswith("$") and "*" in word]
    assert len(frames) >= 15
    for frame in frames:
        protocol.decode_any(frame[1:].removesuffix("\\r\\n").encode())  # raises if wrong
