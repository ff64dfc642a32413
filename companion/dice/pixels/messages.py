"""The Pixels die's messages and advertisement, parsed from bytes and built to bytes.

Pure: no I/O, no clock.  Everything here follows three MIT-licensed sources of
GameWithPixels (Systemic Games), cited by the test vectors one by one:

* the protocol document: ``GameWithPixels/.github``, ``doc/CommunicationsProtocol.md``
  ("Pixels Communications Protocol": advertisement, services, WhoAreYou, Blink, IAmADie,
  RollState, BatteryLevel; little-endian);
* the message definitions and Bluetooth ids of ``GameWithPixels/pixels-js``,
  ``packages/pixels-core-connect/src`` (``DieMessages.ts``, ``PixelsBluetoothIds.ts``,
  ``PixelRollState.ts``, ``PixelBatteryState.ts``, ``Pixel.ts``) and
  ``packages/react-native-pixels-connect/src/getScannedPixel.ts`` (the advertisement);
* the die firmware ``GameWithPixels/DiceFirmware``, ``src/bluetooth/bluetooth_messages.h``
  (the structs the die sends) and ``src/bluetooth/bluetooth_stack.cpp`` (what it advertises).

:func:`parse` reads one message the die sent (or one the companion sends, for the virtual
die); ``bytes(message)`` builds it.  Any byte string either parses or raises
:class:`PixelsError` - never anything else (a hypothesis test holds it to that).
Message types the companion does not read come back as :class:`OtherMessage`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum


class PixelsError(ValueError):
    """Bytes that are not a Pixels message or advertisement the companion can read."""


# --- Bluetooth ids ------------------------------------------------------------------------


@dataclass(frozen=True)
class Uuids:
    """One family of the die's GATT ids: the service, the characteristic the die notifies on,
    the characteristic the companion writes to."""

    service: str
    notify: str
    write: str


DIE_UUIDS = Uuids(
    service="a6b90001-7a5a-43f2-a962-350c8edc9b5b",
    notify="a6b90002-7a5a-43f2-a962-350c8edc9b5b",
    write="a6b90003-7a5a-43f2-a962-350c8edc9b5b",
)
"""The die's service and characteristics since 2024 firmware (``PixelsBluetoothIds.die``)."""

LEGACY_UUIDS = Uuids(
    service="6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    notify="6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    write="6e400002-b5a3-f393-e0a9-e50e24dcca9e",
)
"""The older dice's ids (the protocol document's table; ``PixelsBluetoothIds.legacyDie``)."""

FAMILIES = (DIE_UUIDS, LEGACY_UUIDS)
"""A die advertises one family or the other; the adapter looks for both."""

COMPANY_ID = 0x0D39
"""Systemic Games' Bluetooth company identifier, the key of the manufacturer data."""

INFO_SERVICE = "0000180a-0000-1000-8000-00805f9b34fb"
"""The Device Information service (``180a``): the key of the die's service data."""


def full_uuid(short: int) -> str:
    """A 16-bit Bluetooth UUID as the full 128-bit text (``toFullUuid.ts``)."""
    return f"{short:08x}-0000-1000-8000-00805f9b34fb"


# --- values -------------------------------------------------------------------------------


class MessageType(IntEnum):
    """The first byte of a message (``MessageTypeValues`` in ``DieMessages.ts``)."""

    WHO_ARE_YOU = 1
    I_AM_A_DIE = 2
    ROLL_STATE = 3
    REQUEST_ROLL_STATE = 23
    BLINK = 29
    BLINK_ACK = 30
    REQUEST_BATTERY_LEVEL = 33
    BATTERY_LEVEL = 34


class RollState(IntEnum):
    """``PixelRollState.ts`` / the firmware's ``Accelerometer::RollState``."""

    UNKNOWN = 0
    ROLLED = 1  # finished rolling, on a face, and it looked like a proper roll
    HANDLING = 2  # being handled
    ROLLING = 3  # being rolled
    CROOKED = 4  # finished rolling but not on a valid face
    ON_FACE = 5  # not moving, and it did not move enough to count as rolled


class BatteryState(IntEnum):
    """``PixelBatteryState.ts``."""

    OK = 0
    LOW = 1
    CHARGING = 2
    DONE = 3
    BAD_CHARGING = 4
    ERROR = 5


class DieType(IntEnum):
    """``PixelDieType.ts`` / the firmware's ``DiceVariants::DieType``."""

    UNKNOWN = 0
    D4 = 1
    D6 = 2
    D8 = 3
    D10 = 4
    D00 = 5
    D12 = 6
    D20 = 7
    D6_PIPPED = 8
    D6_FUDGE = 9


class Colorway(IntEnum):
    """``PixelColorway.ts``: what the die looks like."""

    UNKNOWN = 0
    ONYX_BLACK = 1
    HEMATITE_GREY = 2
    MIDNIGHT_GALAXY = 3
    AURORA_SKY = 4
    CLEAR = 5
    WHITE_AURORA = 6
    CUSTOM = 0xFF


COLOUR_WORDS = {
    Colorway.ONYX_BLACK: "černá", Colorway.HEMATITE_GREY: "šedá",
    Colorway.MIDNIGHT_GALAXY: "galaxie", Colorway.AURORA_SKY: "modrá",
    Colorway.CLEAR: "průhledná", Colorway.WHITE_AURORA: "bílá", Colorway.CUSTOM: "vlastní",
}
"""A die's look in the table's words, for the settings' list of dice."""


def colour_word(colorway: int) -> str:
    """The Czech word for a colourway value (``"?"`` for one this companion does not know)."""
    for key, word in COLOUR_WORDS.items():
        if key == colorway:
            return word
    return "?"


def _enum(cls: type[IntEnum], value: int, what: str) -> IntEnum:
    try:
        return cls(value)
    except ValueError:
        raise PixelsError(f"{what} {value} is not one the protocol defines.") from None


def _roll_state(value: int) -> RollState:
    return RollState(_enum(RollState, value, "The roll state"))


def _battery_state(value: int) -> BatteryState:
    return BatteryState(_enum(BatteryState, value, "The battery state"))


# The firmware's roll states and faces come from a cheap accelerometer; two old firmware
# builds need a correction, done exactly as the vendor's own library does it:
BAD_NORMALS_UNTIL = 1_704_150_000
"""Firmware built up to this time (seconds) numbers some d4/d6 faces wrongly
(``isFirmwareWithBadNormals`` in pixels-core-animation ``DiceUtils.ts``)."""
TILTED_D6_UNTIL = 1_716_382_800
"""On firmware built before this time a d6 lying flat may say "crooked"; pixels-js counts it
as rolled (``Pixel.ts`` ``_updateRoll``, "fixed in firmware commit 380f496")."""


def estimate_die_type(led_count: int) -> DieType:
    """The die type from its LED count when the die does not say (``DiceUtils.estimateDieType``)."""
    return {4: DieType.D4, 6: DieType.D6, 8: DieType.D8, 10: DieType.D10, 12: DieType.D12,
            20: DieType.D20, 21: DieType.D6_PIPPED}.get(led_count, DieType.UNKNOWN)


def face_value(face_index: int, die_type: int, build_timestamp: int = 0) -> int:
    """The number on the face with index ``face_index`` (``DiceUtils.faceFromIndex``)."""
    if build_timestamp and build_timestamp <= BAD_NORMALS_UNTIL:
        if die_type == DieType.D4:
            return {3: 2, 2: 3, 5: 4}.get(face_index, 1)
        if die_type == DieType.D6:
            return {4: 2, 3: 3, 2: 4, 1: 5}.get(face_index, face_index + 1)
    if die_type in (DieType.D10, DieType.UNKNOWN):
        return face_index
    if die_type == DieType.D00:
        return face_index * 10
    return face_index + 1


def face_index(value: int, die_type: int, build_timestamp: int = 0) -> int:
    """The inverse of :func:`face_value` (``DiceUtils.indexFromFace``)."""
    if build_timestamp and build_timestamp <= BAD_NORMALS_UNTIL:
        if die_type == DieType.D4:
            return {2: 3, 3: 2, 4: 5}.get(value, 0)
        if die_type == DieType.D6:
            return {2: 4, 3: 3, 4: 2, 5: 1}.get(value, value - 1)
    if die_type in (DieType.D10, DieType.UNKNOWN):
        return value
    if die_type == DieType.D00:
        return value // 10
    return value - 1


def corrected_state(state: RollState, led_count: int, build_timestamp: int) -> RollState:
    """``state`` as pixels-js reads it: an old d6 firmware's "crooked" is a roll."""
    if state is RollState.CROOKED and led_count == 6 and 0 < build_timestamp < TILTED_D6_UNTIL:
        return RollState.ROLLED
    return state


# --- messages -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WhoAreYou:
    """The companion asks the die to identify itself (1 byte, id 1)."""

    def __bytes__(self) -> bytes:
        return bytes([MessageType.WHO_ARE_YOU])


@dataclass(frozen=True)
class RequestRollState:
    """The companion asks for the current roll state (1 byte, id 23)."""

    def __bytes__(self) -> bytes:
        return bytes([MessageType.REQUEST_ROLL_STATE])


@dataclass(frozen=True)
class RequestBatteryLevel:
    """The companion asks for the battery (1 byte, id 33)."""

    def __bytes__(self) -> bytes:
        return bytes([MessageType.REQUEST_BATTERY_LEVEL])


@dataclass(frozen=True)
class BlinkAck:
    """The die played a :class:`Blink` (1 byte, id 30)."""

    def __bytes__(self) -> bytes:
        return bytes([MessageType.BLINK_ACK])


@dataclass(frozen=True)
class RollStateMessage:
    """The die's roll state changed (id 3): state, face index."""

    state: RollState
    face_index: int

    def __bytes__(self) -> bytes:
        return struct.pack("<BBB", MessageType.ROLL_STATE, self.state, self.face_index)


@dataclass(frozen=True)
class BatteryLevel:
    """The battery level (percent) or state changed (id 34)."""

    level: int
    state: BatteryState

    def __bytes__(self) -> bytes:
        return struct.pack("<BBB", MessageType.BATTERY_LEVEL, self.level, self.state)

    @property
    def charging(self) -> bool:
        """``isPixelChargingOrDone``: charging, or charged and still on the charger."""
        return self.state in (BatteryState.CHARGING, BatteryState.DONE)


_BLINK = struct.Struct("<BBHIIBB")


@dataclass(frozen=True)
class Blink:
    """Light faces of the die (id 29): ``count`` flashes over ``duration_ms`` in ``colour``
    (0xRRGGBB; the protocol's ARGB alpha is ignored by the die) on the faces of ``face_mask``
    (bit i = face index i), ``fade`` 0 sharp ... 255 softest, ``loop``.

    ``loop`` is a boolean "loop forever" in the protocol document and a loop count in the
    newer firmware (``loopCount``, where 0 and 1 both play once): the companion sends 0,
    which plays once under either reading."""

    count: int
    duration_ms: int
    colour: int
    face_mask: int
    fade: int = 0
    loop: int = 0

    def __bytes__(self) -> bytes:
        return _BLINK.pack(MessageType.BLINK, self.count, self.duration_ms, self.colour,
                           self.face_mask, self.fade, self.loop)


LEGACY_I_AM_A_DIE_SIZE = 22
"""``LegacyIAmADie.expectedSize``: a 22-byte IAmADie is the legacy one (``Pixel.ts``)."""
_LEGACY = struct.Struct("<BBBBIIHIBBBB")
_VERSION = struct.Struct("<BHIHHHH")  # VersionInfo chunk (15 bytes with its size byte)
_DIE_INFO = struct.Struct("<BIBBBBB")  # DieInfo chunk (10)
_SETTINGS_INFO = struct.Struct("<BIII")  # SettingsInfo chunk (13)
_STATUS_INFO = struct.Struct("<BBBBB")  # StatusInfo chunk (5)
NAME_BYTES = 31
"""``MAX_NAME_LENGTH`` (and ``MAX_CUSTOM_DESIGN_COLOR_LENGTH``): a name chunk's text bytes."""


@dataclass(frozen=True)
class IAmADie:
    """The die's answer to :class:`WhoAreYou` (id 2), in either of its two layouts.

    ``legacy``: the 22-byte message of the protocol document (``LegacyIAmADie``); otherwise
    the chunked message of newer firmware (version, die info, custom colour name, die name,
    settings info, status info; each chunk led by its size byte) which also names the die."""

    led_count: int
    colorway: int
    die_type: int
    pixel_id: int
    build_timestamp: int
    roll_state: RollState
    face_index: int
    battery_level: int
    battery_state: BatteryState
    name: str = ""
    legacy: bool = False
    data_hash: int = 0
    available_flash: int = 0
    firmware_version: int = 0
    settings_version: int = 0
    api_versions: tuple[int, int, int] = (0x100, 0x100, 0x100)
    chip_model: int = 0
    run_mode: int = 0
    custom_colour_name: str = ""
    total_flash: int = 0

    def __bytes__(self) -> bytes:
        if self.legacy:
            return _LEGACY.pack(
                MessageType.I_AM_A_DIE, self.led_count, self.colorway, self.die_type,
                self.data_hash, self.pixel_id, self.available_flash, self.build_timestamp,
                self.roll_state, self.face_index, self.battery_level, self.battery_state)
        return b"".join((
            bytes([MessageType.I_AM_A_DIE]),
            _VERSION.pack(_VERSION.size, self.firmware_version, self.build_timestamp,
                          self.settings_version, *self.api_versions),
            _DIE_INFO.pack(_DIE_INFO.size, self.pixel_id, self.chip_model, self.die_type,
                           self.led_count, self.colorway, self.run_mode),
            _name_chunk(self.custom_colour_name),
            _name_chunk(self.name),
            _SETTINGS_INFO.pack(_SETTINGS_INFO.size, self.data_hash, self.available_flash,
                                self.total_flash),
            _STATUS_INFO.pack(_STATUS_INFO.size, self.battery_level, self.battery_state,
                              self.roll_state, self.face_index),
        ))

    @property
    def kind(self) -> DieType:
        """The die type, estimated from the LED count where the die does not say."""
        if self.die_type in DieType._value2member_map_ and self.die_type != DieType.UNKNOWN:
            return DieType(self.die_type)
        return estimate_die_type(self.led_count)


def _name_chunk(text: str) -> bytes:
    data = text.encode("utf-8")[:NAME_BYTES]
    return bytes([NAME_BYTES + 1]) + data.ljust(NAME_BYTES, b"\0")


@dataclass(frozen=True)
class OtherMessage:
    """A message of a type the companion does not read (telemetry, debug log...)."""

    kind: int
    data: bytes

    def __bytes__(self) -> bytes:
        return bytes([self.kind]) + self.data


Message = (WhoAreYou | RequestRollState | RequestBatteryLevel | BlinkAck | RollStateMessage
           | BatteryLevel | Blink | IAmADie | OtherMessage)

_SIMPLE: dict[int, WhoAreYou | RequestRollState | RequestBatteryLevel | BlinkAck] = {
    MessageType.WHO_ARE_YOU: WhoAreYou(), MessageType.REQUEST_ROLL_STATE: RequestRollState(),
           MessageType.REQUEST_BATTERY_LEVEL: RequestBatteryLevel(),
           MessageType.BLINK_ACK: BlinkAck()}


def _need(data: bytes, size: int, what: str) -> None:
    if len(data) < size:
        raise PixelsError(f"{what} needs {size} bytes, not {len(data)}.")


def parse(data: bytes) -> Message:
    """One message from its bytes; :class:`PixelsError` when they cannot be one.

    Bytes after a message's last field are ignored (newer firmware may add fields), as
    pixels-js does (it warns and reads on)."""
    if not data:
        raise PixelsError("An empty message has no type.")
    kind = data[0]
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == MessageType.ROLL_STATE:
        _need(data, 3, "A roll state")
        return RollStateMessage(_roll_state(data[1]), data[2])
    if kind == MessageType.BATTERY_LEVEL:
        _need(data, 3, "A battery level")
        if data[1] > 100:
            raise PixelsError(f"A battery level of {data[1]} % is no percentage.")
        return BatteryLevel(data[1], _battery_state(data[2]))
    if kind == MessageType.BLINK:
        _need(data, _BLINK.size, "A blink")
        _, count, duration, colour, mask, fade, loop = _BLINK.unpack_from(data)
        return Blink(count, duration, colour, mask, fade, loop)
    if kind == MessageType.I_AM_A_DIE:
        return _legacy_i_am(data) if len(data) == LEGACY_I_AM_A_DIE_SIZE else _i_am(data)
    return OtherMessage(kind, bytes(data[1:]))


def _legacy_i_am(data: bytes) -> IAmADie:
    (_, leds, colorway, die_type, data_hash, pixel_id, flash, built, state, face, level,
     battery) = _LEGACY.unpack(data)
    return IAmADie(leds, colorway, die_type, pixel_id, built, _roll_state(state), face, level,
                   _battery_state(battery), legacy=True, data_hash=data_hash,
                   available_flash=flash)


def _chunks(data: bytes) -> list[bytes]:
    """The chunks after the type byte, each cut to the length its size byte gives."""
    out: list[bytes] = []
    at = 1
    while at < len(data):
        size = data[at]
        if size == 0:
            raise PixelsError(f"An IAmADie chunk at byte {at} has size 0.")
        if at + size > len(data):
            raise PixelsError(f"An IAmADie chunk at byte {at} runs past the message's end.")
        out.append(bytes(data[at:at + size]))
        at += size
    return out


def _fixed(chunk: bytes, layout: struct.Struct, what: str) -> tuple[int, ...]:
    """A fixed chunk's fields; a longer chunk (a newer firmware's) is read as far as known."""
    if len(chunk) < layout.size:
        raise PixelsError(f"The IAmADie {what} chunk has {len(chunk)} bytes, not {layout.size}.")
    return layout.unpack_from(chunk)


def _text(chunk: bytes) -> str:
    return chunk[1:].split(b"\0", 1)[0].decode("utf-8", "replace")


def _i_am(data: bytes) -> IAmADie:
    chunks = _chunks(data)
    if len(chunks) < 6:
        raise PixelsError(f"An IAmADie of {len(data)} bytes has {len(chunks)} chunks, not 6.")
    version, info, custom, name, settings, status = chunks[:6]
    _, firmware, built, settings_version, api1, api2, api3 = _fixed(version, _VERSION, "version")
    _, pixel_id, chip, die_type, leds, colorway, run_mode = _fixed(info, _DIE_INFO, "die info")
    _, data_hash, flash, total = _fixed(settings, _SETTINGS_INFO, "settings")
    _, level, battery, state, face = _fixed(status, _STATUS_INFO, "status")
    return IAmADie(leds, colorway, die_type, pixel_id, built, _roll_state(state), face, level,
                   _battery_state(battery), name=_text(name), data_hash=data_hash,
                   available_flash=flash, firmware_version=firmware,
                   settings_version=settings_version, api_versions=(api1, api2, api3),
                   chip_model=chip, run_mode=run_mode, custom_colour_name=_text(custom),
                   total_flash=total)


# --- the advertisement --------------------------------------------------------------------


@dataclass(frozen=True)
class Advert:
    """What a die tells in its advertisement, before any connection.

    The manufacturer data (company 0x0D39): LED count, design and colour (die type in the high
    nibble, colourway in the low one), roll state, face index, battery (bit 7 charging, bits 0-6
    percent); the service data (Device Information ``180a``): pixel id, firmware build time.
    Dice advertising before July 2022 sent 7 bytes of manufacturer data and no service data
    (``getScannedPixel.ts``): :attr:`old_format`."""

    name: str
    pixel_id: int
    led_count: int
    die_type: int
    colorway: int
    roll_state: RollState
    face_index: int
    battery_level: int
    charging: bool
    build_timestamp: int = 0
    legacy_uuids: bool = False
    old_format: bool = False

    def manufacturer_data(self) -> bytes:
        """The manufacturer data's payload (after the company id)."""
        if self.old_format:
            return struct.pack("<IBBB", self.pixel_id, self.roll_state, self.face_index,
                               round(self.battery_level * 255 / 100))
        return bytes([self.led_count, (self.die_type << 4 | self.colorway) & 0xFF,
                      self.roll_state, self.face_index,
                      (self.battery_level & 0x7F) | (0x80 if self.charging else 0)])

    def company_id(self) -> int:
        """The manufacturer data's key: Systemic Games', or in the old format the LED count and
        the design packed in its place."""
        if self.old_format:
            return (self.led_count << 8) | (self.colorway & 0xFF)
        return COMPANY_ID

    def service_data(self) -> bytes:
        """The service data's payload (empty in the old format)."""
        if self.old_format:
            return b""
        return struct.pack("<II", self.pixel_id, self.build_timestamp)

    @property
    def uuids(self) -> Uuids:
        return LEGACY_UUIDS if self.legacy_uuids else DIE_UUIDS

    @property
    def kind(self) -> DieType:
        if self.die_type in DieType._value2member_map_ and self.die_type != DieType.UNKNOWN:
            return DieType(self.die_type)
        return estimate_die_type(self.led_count)


def read_advert(name: str, service_uuids: list[str], manufacturer: dict[int, bytes],
                service_data: dict[str, bytes]) -> Advert | None:
    """A die's :class:`Advert` from an advertisement's fields (as bleak reports them: the
    advertised service UUIDs, manufacturer data by company id, service data by 128-bit
    UUID), ``None`` when the advertisement is not a Pixels die's, :class:`PixelsError` when
    it is one but its data cannot be read."""
    uuids = {u.lower() for u in service_uuids}
    legacy = LEGACY_UUIDS.service in uuids
    if DIE_UUIDS.service not in uuids and not legacy:
        return None
    if not manufacturer:
        raise PixelsError(f"The die {name!r} advertised no manufacturer data.")
    service = next((v for k, v in service_data.items() if k.lower() == INFO_SERVICE), None)
    if service is not None and len(service) >= 8:
        data = manufacturer.get(COMPANY_ID)
        if data is None or len(data) < 5:
            raise PixelsError(f"The die {name!r} advertised no readable manufacturer data.")
        pixel_id, built = struct.unpack_from("<II", service)
        battery = data[4]
        return Advert(name, pixel_id, data[0], data[1] >> 4, data[1] & 0x0F,
                      _roll_state(data[2]), data[3], battery & 0x7F, bool(battery & 0x80),
                      built, legacy)
    old = [(company, data) for company, data in manufacturer.items() if len(data) == 7]
    if service is None and old:
        company, data = old[0]
        pixel_id, state, face, battery = struct.unpack_from("<IBBB", data)
        # the design byte of this layout is "not compatible anymore" (getScannedPixel.ts)
        return Advert(name, pixel_id, company >> 8 & 0xFF, DieType.UNKNOWN, Colorway.UNKNOWN,
                      _roll_state(state), face, round(battery * 100 / 255), False, 0, legacy,
                      old_format=True)
    raise PixelsError(f"The die {name!r} advertised data of an unknown layout.")
