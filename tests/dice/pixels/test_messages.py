"""companion.dice.pixels.messages: test vectors written from the GameWithPixels sources, each
checked in both directions (bytes -> message -> the same bytes), and fuzzing.

Sources (MIT, Systemic Games), cited per vector:
  DOC  = GameWithPixels/.github doc/CommunicationsProtocol.md ("Pixels Communications Protocol")
  JS   = GameWithPixels/pixels-js packages/pixels-core-connect/src/<file>
  SCAN = GameWithPixels/pixels-js packages/react-native-pixels-connect/src/getScannedPixel.ts
  FW   = GameWithPixels/DiceFirmware src/<file>
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice.pixels import messages as m
from companion.dice.pixels.messages import (
    Advert,
    BatteryLevel,
    BatteryState,
    Blink,
    BlinkAck,
    IAmADie,
    OtherMessage,
    PixelsError,
    RequestBatteryLevel,
    RequestRollState,
    RollState,
    RollStateMessage,
    WhoAreYou,
    parse,
    read_advert,
)

NEW_I_AM = bytes.fromhex(
    "02"
    "0f" "0101" "45238167" "0001" "0001" "0001" "0001"  # VersionInfo (FW bluetooth_messages.h)
    "0a" "ddccbbaa" "01" "02" "06" "03" "00"  # DieInfo: id, chip, d6, 6 LEDs, colourway 3, user
    "20" + "00" * 31 +  # CustomDesignAndColorName: 31 bytes, not terminated
    "20" + "4b6f73746b61" + "00" * 25 +  # DieName "Kostka"
    "0d" "44332211" "00100000" "00200000"  # SettingsInfo: hash, available, total flash
    "05" "4b" "00" "03" "02"  # StatusInfo: 75 %, ok, rolling, face index 2
)

VECTORS: list[tuple[str, str, object]] = [
    # DOC "WhoAreYou": "effectively just one byte with the value 0x01"
    ("DOC WhoAreYou", "01", WhoAreYou()),
    # DOC "RollState": Id 3, Roll State, Current Face; JS PixelRollState.ts: rolled = 1
    ("DOC RollState, JS PixelRollState.ts rolled", "030102", RollStateMessage(RollState.ROLLED, 2)),
    # JS PixelRollState.ts: unknown 0, rolled, handling, rolling, crooked, onFace
    ("DOC RollState, JS PixelRollState.ts handling", "030200", RollStateMessage(RollState.HANDLING, 0)),
    ("DOC RollState, JS PixelRollState.ts rolling", "030304", RollStateMessage(RollState.ROLLING, 4)),
    ("DOC RollState, JS PixelRollState.ts crooked", "030405", RollStateMessage(RollState.CROOKED, 5)),
    ("DOC RollState, JS PixelRollState.ts onFace", "030501", RollStateMessage(RollState.ON_FACE, 1)),
    # DOC "BatteryLevel": Id 34, level percent, state; JS PixelBatteryState.ts ok 0 ... charging 2
    ("DOC BatteryLevel ok", "224b00", BatteryLevel(75, BatteryState.OK)),
    ("DOC BatteryLevel low, JS PixelBatteryState.ts", "220a01", BatteryLevel(10, BatteryState.LOW)),
    ("DOC BatteryLevel charging", "223202", BatteryLevel(50, BatteryState.CHARGING)),
    # DOC "Blink": Id 29, count 1, duration 2 (ms, LE), colour 4 (ARGB), face mask 4, fade 1, loop 1
    ("DOC Blink", "1d02e8030000ff002000000080" "00",
     Blink(count=2, duration_ms=1000, colour=0xFF0000, face_mask=0x20, fade=0x80, loop=0)),
    ("DOC Blink all faces (FW Animation.h ANIM_FACEMASK_ALL_LEDS)", "1d038403ff000000ffffffff0000",
     Blink(count=3, duration_ms=900, colour=0xFF, face_mask=0xFFFFFFFF, fade=0, loop=0)),
    # JS DieMessages.ts MessageTypeValues: requestRollState 23, blinkAck 30, requestBatteryLevel 33
    ("JS DieMessages.ts requestRollState", "17", RequestRollState()),
    ("JS DieMessages.ts blinkAck", "1e", BlinkAck()),
    ("JS DieMessages.ts requestBatteryLevel", "21", RequestBatteryLevel()),
    # DOC "IAmADie" (22 bytes; JS LegacyIAmADie, expectedSize 22): Id 2, LED count, design and
    # colour, (die type), data set hash, pixel id, available flash, build timestamp, roll state,
    # current face, battery level, battery state
    ("DOC IAmADie, JS DieMessages.ts LegacyIAmADie",
     "02" "06" "01" "02" "78563412" "ddccbbaa" "0004" "c3b2a165" "01" "03" "5a" "00",
     IAmADie(6, 1, 2, 0xAABBCCDD, 0x65A1B2C3, RollState.ROLLED, 3, 90, BatteryState.OK,
             legacy=True, data_hash=0x12345678, available_flash=0x0400)),
    # FW bluetooth_messages.h MessageIAmADie (chunked), JS DieMessages.ts IAmADie + ChunkMessage.ts
    ("FW bluetooth_messages.h IAmADie chunks", NEW_I_AM.hex(),
     IAmADie(6, 3, 2, 0xAABBCCDD, 0x67812345, RollState.ROLLING, 2, 75, BatteryState.OK,
             name="Kostka", data_hash=0x11223344, available_flash=0x1000, firmware_version=0x0101,
             settings_version=0x0100, chip_model=1, total_flash=0x2000)),
]


@pytest.mark.parametrize(("source", "hexbytes", "message"), VECTORS, ids=[v[0] for v in VECTORS])
def test_vectors_parse_and_build(source: str, hexbytes: str, message: object) -> None:
    data = bytes.fromhex(hexbytes)
    assert parse(data) == message
    assert bytes(message) == data  # type: ignore[call-overload]


def test_the_chunked_i_am_a_die_is_108_bytes_and_names_the_die() -> None:
    assert len(NEW_I_AM) == 108
    die = parse(NEW_I_AM)
    assert isinstance(die, IAmADie) and die.name == "Kostka" and not die.legacy
    assert die.kind is m.DieType.D6


def test_a_newer_firmware_may_add_fields_and_chunks() -> None:
    # JS Pixel.ts / MessageSerializer.ts read on past unknown trailing bytes (with a warning)
    assert parse(bytes.fromhex("030102ff")) == RollStateMessage(RollState.ROLLED, 2)
    longer = NEW_I_AM[:-5] + bytes.fromhex("07" "4b" "00" "03" "02" "aa" "bb")
    assert parse(longer) == parse(NEW_I_AM)


@pytest.mark.parametrize(("hexbytes", "why"), [
    ("", "empty"), ("03", "needs 3"), ("0301", "needs 3"), ("030900", "roll state 9"),
    ("22", "needs 3"), ("226500", "101 %"), ("224b09", "battery state 9"),
    ("1d0203", "needs 14"), ("02" + "0f" + "00" * 10, "runs past"),
    ("0200", "size 0"), ("02" + "05" + "00" * 4, "chunks, not 6"),
])
def test_what_cannot_be_a_message_is_one_sentence(hexbytes: str, why: str) -> None:
    with pytest.raises(PixelsError, match=why):
        parse(bytes.fromhex(hexbytes))


def test_types_the_companion_does_not_read_come_back_whole() -> None:
    # JS DieMessages.ts: telemetry = 4, rssi = 36
    assert parse(bytes.fromhex("24c8")) == OtherMessage(36, b"\xc8")
    assert bytes(OtherMessage(4, b"\x01\x02")) == b"\x04\x01\x02"


@given(st.binary(max_size=200))
def test_no_byte_string_makes_the_parser_raise_anything_but_its_own_error(data: bytes) -> None:
    try:
        parse(data)
    except PixelsError:
        pass


@given(st.binary(max_size=40), st.binary(max_size=12), st.binary(max_size=12),
       st.sampled_from([m.DIE_UUIDS.service, m.LEGACY_UUIDS.service, "1234"]),
       st.integers(0, 0xFFFF))
def test_no_advertisement_makes_its_reader_raise_anything_but_its_own_error(
        name: bytes, manuf: bytes, service: bytes, uuid: str, company: int) -> None:
    try:
        read_advert(name.decode("latin-1"), [uuid], {company: manuf}, {m.INFO_SERVICE: service})
    except PixelsError:
        pass


states = st.sampled_from(list(RollState))
batteries = st.sampled_from(list(BatteryState))
byte = st.integers(0, 255)
u32 = st.integers(0, 0xFFFF_FFFF)
names = st.text(st.characters(min_codepoint=33, max_codepoint=0x17F), max_size=10)
built = st.one_of(
    st.builds(RollStateMessage, states, byte),
    st.builds(BatteryLevel, st.integers(0, 100), batteries),
    st.builds(Blink, byte, st.integers(0, 0xFFFF), u32, u32, byte, byte),
    st.builds(IAmADie, byte, byte, byte, u32, u32, states, byte, st.integers(0, 255), batteries,
              legacy=st.just(True), data_hash=u32, available_flash=st.integers(0, 0xFFFF)),
    st.builds(IAmADie, byte, byte, byte, u32, u32, states, byte, st.integers(0, 255), batteries,
              name=names, custom_colour_name=names, data_hash=u32, available_flash=u32,
              firmware_version=st.integers(0, 0xFFFF), total_flash=u32),
)


@given(built)
def test_every_message_built_parses_back_to_itself(message: m.Message) -> None:
    assert parse(bytes(message)) == message


# --- the advertisement ---------------------------------------------------------------------

def test_manufacturer_and_service_data_as_the_document_gives_them() -> None:
    # DOC "Manufacturer data": LED count, design & colour, roll state, current face, battery
    # (MSB charging, 7 bits percent); FW bluetooth_custom_advertising_data.cpp packs design and
    # colour as dieType << 4 | colourway; SCAN reads it back so.  DOC "Service data": pixel id,
    # build timestamp (4 + 4 bytes), under the Information service 180a (FW bluetooth_stack.cpp);
    # company 0x0D39 (JS PixelsBluetoothIds.ts systemicGamesCompanyId).
    manuf = bytes.fromhex("06" "21" "01" "05" "d5")
    service = bytes.fromhex("ddccbbaa" "c3b2a165")
    advert = read_advert("Kostka", [m.DIE_UUIDS.service], {0x0D39: manuf},
                         {m.INFO_SERVICE: service})
    assert advert == Advert("Kostka", 0xAABBCCDD, 6, m.DieType.D6, m.Colorway.ONYX_BLACK,
                            RollState.ROLLED, 5, 85, True, 0x65A1B2C3)
    assert advert.manufacturer_data() == manuf and advert.service_data() == service
    assert advert.company_id() == 0x0D39 and advert.uuids == m.DIE_UUIDS


def test_a_die_with_the_legacy_ids_is_a_die_too() -> None:
    # DOC "Services & Characteristics": Pixels service 6e400001-..., notify 6e400001, write 6e400002
    manuf, service = bytes.fromhex("0621030264"), bytes(8)
    advert = read_advert("Old", [m.LEGACY_UUIDS.service.upper()], {0x0D39: manuf},
                         {m.INFO_SERVICE.upper(): service})
    assert advert is not None and advert.legacy_uuids and advert.uuids == m.LEGACY_UUIDS
    assert m.LEGACY_UUIDS.notify == "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    assert m.LEGACY_UUIDS.write == "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
    # JS PixelsBluetoothIds.ts die: a6b90001 service, a6b90002 notify, a6b90003 write
    assert (m.DIE_UUIDS.service, m.DIE_UUIDS.notify, m.DIE_UUIDS.write) == (
        "a6b90001-7a5a-43f2-a962-350c8edc9b5b", "a6b90002-7a5a-43f2-a962-350c8edc9b5b",
        "a6b90003-7a5a-43f2-a962-350c8edc9b5b")


def test_the_advertisement_of_before_july_2022() -> None:
    # SCAN: no service data, 7 bytes of manufacturer data (pixel id, roll state, face, battery
    # 0-255), the company id carrying the LED count in its high byte
    data = bytes.fromhex("ddccbbaa" "01" "04" "ff")
    advert = read_advert("Oldest", [m.DIE_UUIDS.service], {0x0621: data}, {})
    assert advert is not None and advert.old_format
    assert (advert.pixel_id, advert.led_count, advert.roll_state, advert.face_index,
            advert.battery_level, advert.kind) == (0xAABBCCDD, 6, RollState.ROLLED, 4, 100,
                                                   m.DieType.D6)
    assert advert.manufacturer_data() == data and advert.company_id() == 0x0600


def test_what_is_not_a_die_is_none_and_a_broken_die_is_one_sentence() -> None:
    assert read_advert("Lamp", ["0000180f-0000-1000-8000-00805f9b34fb"], {1: b"x"}, {}) is None
    with pytest.raises(PixelsError, match="no manufacturer data"):
        read_advert("Kostka", [m.DIE_UUIDS.service], {}, {})
    with pytest.raises(PixelsError, match="unknown layout"):
        read_advert("Kostka", [m.DIE_UUIDS.service], {0x0D39: b"\x06\x21"}, {})


# --- faces and the vendor's corrections -------------------------------------------------------

def test_face_values_of_a_d6() -> None:
    # JS (pixels-core-animation) DiceUtils.faceFromIndex: d6 face = index + 1
    assert [m.face_value(i, m.DieType.D6) for i in range(6)] == [1, 2, 3, 4, 5, 6]
    assert [m.face_index(v, m.DieType.D6) for v in range(1, 7)] == [0, 1, 2, 3, 4, 5]


def test_old_firmware_with_bad_normals_numbers_d6_faces_differently() -> None:
    # DiceUtils.ts isFirmwareWithBadNormals (<= 1704150000000 ms): d6 4->2, 3->3, 2->4, 1->5
    old = 1_700_000_000
    assert [m.face_value(i, m.DieType.D6, old) for i in range(6)] == [1, 5, 4, 3, 2, 6]
    assert all(m.face_index(m.face_value(i, m.DieType.D6, old), m.DieType.D6, old) == i
               for i in range(6))


def test_an_old_d6_firmware_s_crooked_counts_as_rolled() -> None:
    # JS Pixel.ts _updateRoll: ledCount 6 and firmware before 2024-05-22: crooked -> rolled
    assert m.corrected_state(RollState.CROOKED, 6, 1_700_000_000) is RollState.ROLLED
    assert m.corrected_state(RollState.CROOKED, 6, 1_736_546_640) is RollState.CROOKED
    assert m.corrected_state(RollState.CROOKED, 20, 1_700_000_000) is RollState.CROOKED


def test_colour_words() -> None:
    assert m.colour_word(m.Colorway.ONYX_BLACK) == "černá"
    assert m.colour_word(42) == "?"
